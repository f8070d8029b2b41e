// The pool's worker threads: started on first use, each table shipped once, requests posted and replies routed, pending calls rejected when a worker is lost.
import { Worker } from 'node:worker_threads';
import type { AgentMatcher } from '../matcher.js';
import type { PoolDrop, PoolDropArena, PoolReply, PoolRequest, PoolStringsRequest, PoolTable } from './worker.js';
import { type Arena, WorkerArenas } from './arena.js';
import { encodeUrls } from '../wasm/url-bytes.js';

/** One share's results. */
export interface Part {
  readonly threadId: number;
  readonly byteLength: number;
  readonly verdicts: Uint8Array;
  readonly lines: Uint32Array | null;
  /** Time spent judging it, or NaN when that time says nothing of the thread's speed (say, a table was rebuilt first). */
  readonly ms: number;
}

interface Waiter {
  readonly byteLength: number;
  readonly tableId: number;
  /** The request carried the table: the worker's time includes rebuilding the matcher. */
  readonly sentTable: boolean;
  readonly resolve: (part: Part) => void;
  readonly reject: (error: Error) => void;
}

/**
 * A started worker, the tables it has been sent, the requests it has not answered yet,
 * and the shared memory its input is copied into.
 */
export interface PoolWorker {
  readonly worker: Worker;
  readonly threadId: number;
  readonly tables: Set<number>;
  readonly waiting: Map<number, Waiter>;
  readonly arenas: WorkerArenas;
}

/** One worker's part of a call: the worker, the arenas its pieces were copied into, its pieces' results. */
export interface WorkerCall {
  readonly w: PoolWorker;
  readonly held: Arena[];
  readonly parts: Promise<Part>[];
}

const WORKER_URL = new URL('./worker.js', import.meta.url);

/**
 * The worker threads of one MatchPool, by slot. Each call takes a slot's worker with
 * {@link PoolWorkers.call}, posts pieces to it (copied or encoded into its arenas) and
 * hands the arenas back once the worker answered them all.
 */
export class PoolWorkers {
  private readonly workers: (PoolWorker | undefined)[] = [];
  /** Ids of the tables sent to workers, so that each worker gets each table once. */
  private readonly tableIds = new WeakMap<Uint8Array, number>();
  /** Tells workers to forget a table the calling side no longer holds. */
  private readonly forget = new FinalizationRegistry<number>((tableId) => {
    for (const w of this.workers) {
      if (w?.tables.delete(tableId)) w.worker.postMessage({ kind: 'drop', tableId } satisfies PoolDrop);
    }
  });
  private nextTableId = 1;
  private nextSeq = 1;

  /** Terminates every started worker; their calls in flight reject with `error` at once. */
  async close(error: Error): Promise<void> {
    const started = this.workers.splice(0).filter((w) => w !== undefined);
    // Rejected now, not when the exit is seen: a reply already on its way is ignored.
    for (const w of started) this.lose(w, error);
    await Promise.all(started.map((w) => w.worker.terminate()));
  }

  /** Worker `slot` (started on first use), for one call. */
  call(slot: number): WorkerCall {
    return { w: this.worker(slot), held: [], parts: [] };
  }

  /** Hands each call's arenas back to its worker's set once the worker answered (or failed) all its pieces. */
  releaseWhenAnswered(calls: readonly WorkerCall[]): void {
    for (const { w, held, parts } of calls) void Promise.allSettled(parts).then(() => w.arenas.release(held));
  }

  /**
   * Sends `length` bytes of `bytes` from `start` to the call's worker and resolves with
   * its results. A piece of shared memory is read in place; any other is copied into an
   * arena (`hint`: the bytes of all the call's pieces, when a new one is needed).
   */
  post(call: WorkerCall, hint: number, matcher: AgentMatcher, bytes: Uint8Array, start: number, length: number, withLines: boolean): Promise<Part> {
    const { w, held } = call;
    if (bytes.buffer instanceof SharedArrayBuffer) {
      const input = bytes.buffer;
      const offset = bytes.byteOffset + start;
      return this.dispatch(w, matcher, length, (seq, tableId, table) => ({
        kind: 'match', seq, tableId, arena: 0, input, offset, length, withLines, ...(table && { table }),
      }));
    }
    const piece = bytes.subarray(start, start + length);
    // At the piece's own alignment modulo 8, where V8 copies at memcpy speed.
    const { arena, offset } = w.arenas.place(held, length, piece.byteOffset & 7, hint);
    arena.bytes.set(piece, offset);
    return this.dispatch(w, matcher, length, (seq, tableId, table) => ({
      kind: 'match', seq, tableId, ...arenaInput(arena), offset, length, withLines, ...(table && { table }),
    }));
  }

  /**
   * Encodes list[from, from + count) into an arena of the call's worker and resolves
   * with its results.
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
      const { arena, offset } = w.arenas.place(held, 4 * count + room, 0, hint);
      const bytes = arena.bytes.subarray(offset + 4 * count, offset + 4 * count + room);
      const byteLength = encodeUrls(list, from, count, bytes, new Uint32Array(arena.bytes.buffer, offset, count), 0);
      return { arena, offset, byteLength };
    };
    let encoded = encode(chars);
    if (encoded.byteLength < 0) encoded = encode(3 * chars);
    const { arena, offset, byteLength } = encoded;
    return this.dispatch(w, matcher, byteLength, (seq, tableId, table) => ({
      kind: 'strings', seq, tableId, ...arenaInput(arena), count, lengthsOffset: offset, bytesOffset: offset + 4 * count, byteLength, withLines,
      ...(table && { table }),
    }));
  }

  /** Worker `slot`, started on first use. */
  private worker(slot: number): PoolWorker {
    return (this.workers[slot] ??= this.start());
  }

  /**
   * Sends `w` the request `build` makes (with the table, the first time `w` gets it)
   * and resolves with its results; `byteLength` is the input's, for `lastSplit`.
   */
  private dispatch(
    w: PoolWorker, matcher: AgentMatcher, byteLength: number,
    build: (seq: number, tableId: number, table: PoolTable | undefined) => PoolRequest | PoolStringsRequest,
  ): Promise<Part> {
    let tableId = this.tableIds.get(matcher.table);
    if (tableId === undefined) {
      tableId = this.nextTableId++;
      this.tableIds.set(matcher.table, tableId);
      this.forget.register(matcher.table, tableId);
    }
    const table = w.tables.has(tableId) ? undefined : { userAgent: matcher.userAgent, profile: matcher.profile, bytes: matcher.table };
    w.tables.add(tableId);
    const seq = this.nextSeq++;
    // A worker with requests pending keeps the process alive until it answers.
    if (w.waiting.size === 0) w.worker.ref();
    const request = build(seq, tableId, table);
    return new Promise<Part>((resolve, reject) => {
      w.waiting.set(seq, { byteLength, tableId, sentTable: table !== undefined, resolve, reject });
      w.worker.postMessage(request);
    });
  }

  private start(): PoolWorker {
    const worker = startWorker();
    // Idle workers must not keep the process alive; `dispatch` refs a worker while it is busy.
    worker.unref();
    const arenas = new WorkerArenas((arena) => worker.postMessage({ kind: 'drop-arena', arena: arena.id } satisfies PoolDropArena));
    const w: PoolWorker = { worker, threadId: worker.threadId, tables: new Set(), waiting: new Map(), arenas };
    worker.on('message', (reply: PoolReply) => {
      const waiter = w.waiting.get(reply.seq);
      if (waiter === undefined) return;
      w.waiting.delete(reply.seq);
      if (w.waiting.size === 0) worker.unref();
      if ('error' in reply) {
        // The worker may not have kept the table (say, it failed validation): resend it next time.
        w.tables.delete(waiter.tableId);
        waiter.reject(new Error(`MatchPool worker (thread ${w.threadId}) failed: ${reply.error}`));
      } else {
        const verdicts = new Uint8Array(reply.verdicts);
        const lines = reply.lines === null ? null : new Uint32Array(reply.lines);
        const ms = waiter.sentTable ? Number.NaN : reply.ms;
        waiter.resolve({ threadId: reply.threadId, byteLength: waiter.byteLength, verdicts, lines, ms });
      }
    });
    worker.on('error', (error) => {
      this.lose(w, new Error(`MatchPool worker (thread ${w.threadId}) crashed: ${error.message}`, { cause: error }));
    });
    worker.on('exit', (code) => {
      this.lose(w, new Error(`MatchPool worker (thread ${w.threadId}) exited with code ${code} before answering`));
    });
    return w;
  }

  /** A worker is gone: its pending calls reject, and the next call in its slot starts a new one. */
  private lose(w: PoolWorker, error: Error): void {
    const slot = this.workers.indexOf(w);
    if (slot !== -1) this.workers[slot] = undefined;
    for (const waiter of w.waiting.values()) waiter.reject(error);
    w.waiting.clear();
  }
}

/**
 * A worker with the process's Node options (a loader, say), except --input-type (for
 * `node -e`), which makes a worker started from a file fail to load. Node refuses V8 and
 * process-wide options in a worker (`--max-old-space-size`, `--trace-gc`, …); with any of
 * those the worker starts without the parent's options, which it does not need.
 */
function startWorker(): Worker {
  try {
    return new Worker(WORKER_URL, { execArgv: process.execArgv.filter((a) => !a.startsWith('--input-type')) });
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw error;
    return new Worker(WORKER_URL, { execArgv: [] });
  }
}

/** The request fields that name `arena`, with the buffer itself the first time the worker gets it. */
function arenaInput(arena: Arena): { arena: number; input?: SharedArrayBuffer } {
  if (arena.sent) return { arena: arena.id };
  arena.sent = true;
  return { arena: arena.id, input: arena.bytes.buffer as SharedArrayBuffer };
}