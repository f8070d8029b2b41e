// MatchPool's requests to its workers (pool/worker.ts): input pieces placed in arenas, tables sent once per worker, a request a dead worker left retried once on a new one.
import type { AgentMatcher } from '../matcher.js';
import { encodeUrls } from '../wasm/url-bytes.js';
import { type Arena, WorkerArenas } from './arena.js';
import type { PoolDrop, PoolDropArena, PoolReply, PoolRequest, PoolStringsRequest, PoolTable } from './worker.js';
import { type PooledWorker, WorkerLostError, WorkerSet } from './workers.js';

/** One share's (or piece's) results. */
export interface Part {
  readonly threadId: number;
  readonly byteLength: number;
  readonly verdicts: Uint8Array;
  readonly lines: Uint32Array | null;
  /** Time spent judging it, or NaN when that time says nothing of the thread's speed (say, a table was rebuilt first). */
  readonly ms: number;
}

/** What MatchPool keeps per worker: the tables it has been sent, and the shared memory its input is copied into. */
interface MatchWorkerState {
  readonly tables: Set<number>;
  readonly arenas: WorkerArenas;
}

type MatchRequest = PoolRequest | PoolStringsRequest;
type MatchWorker = PooledWorker<PoolReply, MatchWorkerState>;

/** One worker's part of a call: the worker, the arenas its pieces were copied into, its pieces' results. */
export interface WorkerCall {
  readonly w: MatchWorker;
  readonly held: Arena[];
  readonly parts: Promise<Part>[];
}

const WORKER_URL = new URL('./worker.js', import.meta.url);

/**
 * MatchPool's workers and what travels to them. Requests are pure (bytes and a table in,
 * verdicts out), so one a worker left unanswered when it died goes once to a new worker
 * in the same slot (a worker that died before or while a call used it, even before its
 * exit event, costs that call nothing); a request whose second worker dies too rejects.
 * Each request is answered under one live sequence number only, so no result is lost or
 * counted twice.
 * @example
 * const workers = new MatchWorkers();
 * const call = workers.call(0);
 * call.parts.push(workers.postLines(call, bytes.length, matcher, bytes, 0, bytes.length, false));
 * workers.releaseWhenAnswered([call]);
 */
export class MatchWorkers {
  private readonly set = new WorkerSet<MatchRequest, PoolReply, MatchWorkerState>({
    url: WORKER_URL,
    label: 'MatchPool worker',
    extra: (worker) => ({
      tables: new Set(),
      arenas: new WorkerArenas((arena) => worker.postMessage({ kind: 'drop-arena', arena: arena.id } satisfies PoolDropArena)),
    }),
  });
  /** Ids of the tables sent to workers, so that each worker gets each table once. */
  private readonly tableIds = new WeakMap<Uint8Array, number>();
  /** Tells workers to forget a table the calling side no longer holds. */
  private readonly forget = new FinalizationRegistry<number>((tableId) => {
    for (const w of this.set.slots) {
      if (w?.extra.tables.delete(tableId)) w.worker.postMessage({ kind: 'drop', tableId } satisfies PoolDrop);
    }
  });
  private nextTableId = 1;
  private closed = false;

  /** The workers by slot (empty until first used, and after a worker is lost). */
  get slots(): readonly (MatchWorker | undefined)[] {
    return this.set.slots;
  }

  /** Worker `slot` (started on first use), for one call. */
  call(slot: number): WorkerCall {
    return { w: this.set.thread(slot), held: [], parts: [] };
  }

  /** Hands each call's arenas back to its worker's set once the worker answered (or failed) all its pieces. */
  releaseWhenAnswered(calls: readonly WorkerCall[]): void {
    for (const { w, held, parts } of calls) void Promise.allSettled(parts).then(() => w.extra.arenas.release(held));
  }

  /**
   * Sends `length` bytes of `bytes` from `start` to the call's worker and resolves with
   * its results. A piece of shared memory is read in place; any other is copied into an
   * arena (`hint`: the bytes of all the call's pieces, when a new one is needed).
   */
  postLines(call: WorkerCall, hint: number, matcher: AgentMatcher, bytes: Uint8Array, start: number, length: number, withLines: boolean): Promise<Part> {
    const { w, held } = call;
    if (bytes.buffer instanceof SharedArrayBuffer) {
      const input = bytes.buffer;
      const offset = bytes.byteOffset + start;
      return this.dispatch(w, matcher, length, input, (seq, tableId, table) => ({
        kind: 'match', seq, tableId, arena: 0, input, offset, length, withLines, ...(table && { table }),
      }));
    }
    const piece = bytes.subarray(start, start + length);
    // At the piece's own alignment modulo 8, where V8 copies at memcpy speed.
    const { arena, offset } = w.extra.arenas.place(held, length, piece.byteOffset & 7, hint);
    arena.bytes.set(piece, offset);
    return this.dispatch(w, matcher, length, arena.bytes.buffer as SharedArrayBuffer, (seq, tableId, table) => ({
      kind: 'match', seq, tableId, ...arenaInput(arena), offset, length, withLines, ...(table && { table }),
    }));
  }

  /**
   * Encodes list[from, from + count) (`units`: their UTF-16 lengths) into an arena of the
   * call's worker and resolves with its results.
   */
  postStrings(
    call: WorkerCall, hint: number, matcher: AgentMatcher, list: readonly string[], units: Uint32Array, from: number, count: number, withLines: boolean,
  ): Promise<Part> {
    const { w, held } = call;
    let chars = 0;
    for (let i = from; i < from + count; i++) chars += units[i]!;
    // Byte lengths first (u32, 8-aligned), then the bytes: room for ASCII first, since
    // room for the worst case (3 bytes per UTF-16 unit) would triple the memory.
    const encode = (room: number): { arena: Arena; offset: number; byteLength: number } => {
      const { arena, offset } = w.extra.arenas.place(held, 4 * count + room, 0, hint);
      const bytes = arena.bytes.subarray(offset + 4 * count, offset + 4 * count + room);
      const byteLength = encodeUrls(list, from, count, bytes, new Uint32Array(arena.bytes.buffer, offset, count), 0);
      return { arena, offset, byteLength };
    };
    let encoded = encode(chars);
    if (encoded.byteLength < 0) encoded = encode(3 * chars);
    const { arena, offset, byteLength } = encoded;
    return this.dispatch(w, matcher, byteLength, arena.bytes.buffer as SharedArrayBuffer, (seq, tableId, table) => ({
      kind: 'strings', seq, tableId, ...arenaInput(arena), count, lengthsOffset: offset, bytesOffset: offset + 4 * count, byteLength, withLines,
      ...(table && { table }),
    }));
  }

  /** Terminates the workers: requests in flight reject with `error`. */
  async close(error: Error): Promise<void> {
    this.closed = true;
    await this.set.close(error);
  }

  /**
   * Sends `w` the request `build` makes (with the table, the first time `w` gets it)
   * and resolves with its results; `byteLength` is the input's, for `lastSplit`. When
   * `w` is lost first, the request goes once more to the new worker in its slot, with
   * everything it needs (the table, and `input` for this request only: an arena stays
   * the dead worker's call's until the answer).
   */
  private dispatch(
    w: MatchWorker, matcher: AgentMatcher, byteLength: number, input: SharedArrayBuffer,
    build: (seq: number, tableId: number, table: PoolTable | undefined) => MatchRequest,
  ): Promise<Part> {
    const tableId = this.tableId(matcher.table);
    const sent = this.ask(w, matcher, tableId, byteLength, (seq, table) => build(seq, tableId, table));
    return sent.catch((error: unknown) => {
      if (!(error instanceof WorkerLostError) || this.closed) throw error;
      let fresh: MatchWorker;
      try {
        fresh = this.set.thread(w.slot);
      } catch (startError) {
        throw new Error(`${error.message}; a new worker could not start: ${(startError as Error).message}`, { cause: startError });
      }
      fresh.extra.tables.delete(tableId);
      return this.ask(fresh, matcher, tableId, byteLength, (seq, table) => ({ ...build(seq, tableId, table), arena: 0, input })).catch((second: unknown) => {
        if (!(second instanceof WorkerLostError) || this.closed) throw second;
        throw new Error(`${second.message} (the request's second worker)`, { cause: second.cause });
      });
    });
  }

  /** Posts one request to `w` (the table with it when `w` does not have it yet) and turns the reply into a Part. */
  private ask(
    w: MatchWorker, matcher: AgentMatcher, tableId: number, byteLength: number, build: (seq: number, table: PoolTable | undefined) => MatchRequest,
  ): Promise<Part> {
    const { tables } = w.extra;
    const table = tables.has(tableId) ? undefined : { userAgent: matcher.userAgent, profile: matcher.profile, bytes: matcher.table };
    tables.add(tableId);
    return this.set.send(w, (seq) => build(seq, table)).then((reply) => {
      if ('error' in reply) {
        // The worker may not have kept the table (say, it failed validation): resend it next time.
        tables.delete(tableId);
        throw new Error(`MatchPool worker (thread ${w.threadId}) failed: ${reply.error}`);
      }
      const verdicts = new Uint8Array(reply.verdicts);
      const lines = reply.lines === null ? null : new Uint32Array(reply.lines);
      // A reply that rebuilt the matcher first says nothing of the worker's speed.
      const ms = table === undefined ? reply.ms : Number.NaN;
      return { threadId: reply.threadId, byteLength, verdicts, lines, ms };
    });
  }

  /** The id of `table` the workers know it by, given on first use. */
  private tableId(table: Uint8Array): number {
    let tableId = this.tableIds.get(table);
    if (tableId === undefined) {
      tableId = this.nextTableId++;
      this.tableIds.set(table, tableId);
      this.forget.register(table, tableId);
    }
    return tableId;
  }
}

/** The request fields that name `arena`, with the buffer itself the first time the worker gets it. */
function arenaInput(arena: Arena): { arena: number; input?: SharedArrayBuffer } {
  if (arena.sent) return { arena: arena.id };
  arena.sent = true;
  return { arena: arena.id, input: arena.bytes.buffer as SharedArrayBuffer };
}
