// Worker thread of MatchPool (requests from pool/requests.ts): judges the shares of URLs it is sent (line bytes, or encoded strings), one request at a time.
import { parentPort, threadId } from 'node:worker_threads';
import { AgentMatcher } from '../matcher.js';
import { getEngine } from '../wasm/index.js';
import type { Profile } from '../parse/lexer.js';

/** A table the worker has not seen yet: enough to rebuild the matcher (rules are not needed to match). */
export interface PoolTable {
  readonly userAgent: string;
  readonly profile: Profile;
  readonly bytes: Uint8Array;
}

/**
 * Where a request's input lies. `arena` > 0 names one of the pool's input buffers
 * (pool/arena.ts): `input` carries it the first time, and the worker keeps it until
 * a PoolDropArena. `arena` 0: `input` is the caller's own shared memory, read in place
 * for this request only.
 */
interface PoolInput {
  readonly arena: number;
  readonly input?: SharedArrayBuffer;
}

/** Judge the lines of `length` bytes at `offset` of the input against table `tableId`. */
export interface PoolRequest extends PoolInput {
  readonly kind: 'match';
  readonly seq: number;
  readonly tableId: number;
  /** Present the first time this worker is sent `tableId`. */
  readonly table?: PoolTable;
  readonly offset: number;
  readonly length: number;
  readonly withLines: boolean;
}

/**
 * Judge `count` URLs that the calling side encoded (src/wasm/url-bytes.ts) into the input:
 * their byte lengths as u32 from `lengthsOffset` (4-aligned), their bytes back to back
 * from `bytesOffset` on.
 */
export interface PoolStringsRequest extends PoolInput {
  readonly kind: 'strings';
  readonly seq: number;
  readonly tableId: number;
  readonly table?: PoolTable;
  readonly count: number;
  readonly lengthsOffset: number;
  readonly bytesOffset: number;
  readonly byteLength: number;
  readonly withLines: boolean;
}

/** The calling side no longer holds table `tableId` (it was garbage-collected). */
export interface PoolDrop {
  readonly kind: 'drop';
  readonly tableId: number;
}

/** The calling side no longer keeps input buffer `arena`. */
export interface PoolDropArena {
  readonly kind: 'drop-arena';
  readonly arena: number;
}

/**
 * Verdicts (and lines) as buffers of their own, transferred, and the milliseconds spent
 * judging them; or what went wrong.
 */
export type PoolReply = { readonly seq: number; readonly threadId: number } & (
  | { readonly verdicts: ArrayBuffer; readonly lines: ArrayBuffer | null; readonly ms: number }
  | { readonly error: string }
);

const port = parentPort;
if (port === null) throw new Error('robotstxt-wasm/pool: pool/worker.js runs only as a worker thread of MatchPool');

/** Matchers rebuilt from the tables sent, by the calling side's id. */
const matchers = new Map<number, AgentMatcher>();

/** The pool's input buffers this worker was sent, by id. */
const arenas = new Map<number, SharedArrayBuffer>();

/** The request's input buffer, remembered when it is an arena sent for the first time. */
function inputOf(request: PoolRequest | PoolStringsRequest): SharedArrayBuffer {
  const { arena, input } = request;
  if (input !== undefined) {
    if (arena > 0) arenas.set(arena, input);
    return input;
  }
  const kept = arenas.get(arena);
  if (kept === undefined) throw new Error(`input buffer ${arena} was never sent to this worker`);
  return kept;
}

/** The matcher of the request's table, rebuilt first when the request carries it. */
function matcherFor(request: PoolRequest | PoolStringsRequest): AgentMatcher {
  if (request.table !== undefined) {
    const { userAgent, profile, bytes } = request.table;
    // The constructor validates the bytes: the Wasm matcher trusts what it reads.
    // A table that fails is not kept; the calling side sends it again next time.
    matchers.delete(request.tableId);
    matchers.set(request.tableId, new AgentMatcher(userAgent, profile, bytes, []));
  }
  const matcher = matchers.get(request.tableId);
  if (matcher === undefined) throw new Error(`table ${request.tableId} was never sent to this worker`);
  return matcher;
}

function failure(seq: number, error: unknown): PoolReply {
  return { seq, threadId, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
}

function matchStrings(request: PoolStringsRequest): PoolReply {
  const { seq, count } = request;
  try {
    // The input first: an arena sent with this request is kept even if the table fails.
    const input = inputOf(request);
    const matcher = matcherFor(request);
    const started = performance.now();
    const verdicts = new Uint8Array(count);
    const lines = request.withLines ? new Uint32Array(count) : null;
    const bytes = new Uint8Array(input, request.bytesOffset, request.byteLength);
    getEngine().matchEncoded(matcher.table, bytes, new Uint32Array(input, request.lengthsOffset, count), verdicts, lines);
    return { seq, threadId, verdicts: verdicts.buffer, lines: lines === null ? null : lines.buffer, ms: performance.now() - started };
  } catch (error) {
    return failure(seq, error);
  }
}

function matchLines(request: PoolRequest): PoolReply {
  const { seq } = request;
  try {
    const share = new Uint8Array(inputOf(request), request.offset, request.length);
    const matcher = matcherFor(request);
    // The calling side sizes the next shares by this time; the messaging is not part of it.
    const started = performance.now();
    // Both methods return arrays over buffers of their own, exactly as long as the
    // results: those buffers can be moved to the calling thread without a copy.
    if (!request.withLines) {
      const verdicts = matcher.matchLines(share).buffer as ArrayBuffer;
      return { seq, threadId, verdicts, lines: null, ms: performance.now() - started };
    }
    const { verdicts, lines } = matcher.decideLines(share);
    return { seq, threadId, verdicts: verdicts.buffer as ArrayBuffer, lines: lines.buffer as ArrayBuffer, ms: performance.now() - started };
  } catch (error) {
    return failure(seq, error);
  }
}

// Judging is synchronous, so requests are answered in the order they arrive.
port.on('message', (message: PoolRequest | PoolStringsRequest | PoolDrop | PoolDropArena) => {
  if (message.kind === 'drop') {
    matchers.delete(message.tableId);
    return;
  }
  if (message.kind === 'drop-arena') {
    arenas.delete(message.arena);
    return;
  }
  const reply = message.kind === 'strings' ? matchStrings(message) : matchLines(message);
  const moved: ArrayBuffer[] = 'verdicts' in reply ? [reply.verdicts, ...(reply.lines === null ? [] : [reply.lines])] : [];
  port.postMessage(reply, moved);
});
