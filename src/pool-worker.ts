// Worker thread of MatchPool (src/pool.ts): judges the shares of URLs it is sent (line bytes, or encoded strings), one request at a time.
import { parentPort, threadId } from 'node:worker_threads';
import { AgentMatcher } from './matcher.js';
import { getEngine } from './wasm.js';
import type { Profile } from './parse.js';

/** A table the worker has not seen yet: enough to rebuild the matcher (rules are not needed to match). */
export interface PoolTable {
  readonly userAgent: string;
  readonly profile: Profile;
  readonly bytes: Uint8Array;
}

/**
 * Judge `length` bytes at `offset` of `input` against table `tableId`. An ArrayBuffer
 * input was transferred here for this request alone (its share starts at 0) and is
 * moved back with the reply, for the calling side to reuse.
 */
export interface PoolRequest {
  readonly kind: 'match';
  readonly seq: number;
  readonly tableId: number;
  /** Present the first time this worker is sent `tableId`. */
  readonly table?: PoolTable;
  readonly input: ArrayBuffer | SharedArrayBuffer;
  readonly offset: number;
  readonly length: number;
  readonly withLines: boolean;
}

/**
 * Judge `count` URLs that the calling side encoded (src/url-bytes.ts) into `input`, a
 * buffer transferred here for this request and moved back with the reply: their byte
 * lengths as u32 at 0, their bytes back to back from `bytesOffset` on.
 */
export interface PoolStringsRequest {
  readonly kind: 'strings';
  readonly seq: number;
  readonly tableId: number;
  readonly table?: PoolTable;
  readonly input: ArrayBuffer;
  readonly count: number;
  readonly bytesOffset: number;
  readonly byteLength: number;
  readonly withLines: boolean;
}

/** The calling side no longer holds table `tableId` (it was garbage-collected). */
export interface PoolDrop {
  readonly kind: 'drop';
  readonly tableId: number;
}

/**
 * Verdicts (and lines) as buffers of their own, transferred, and the milliseconds spent
 * judging them; or what went wrong. Either way `input` hands back a transferred (not
 * shared) input buffer.
 */
export type PoolReply = { readonly seq: number; readonly threadId: number; readonly input: ArrayBuffer | null } & (
  | { readonly verdicts: ArrayBuffer; readonly lines: ArrayBuffer | null; readonly ms: number }
  | { readonly error: string }
);

const port = parentPort;
if (port === null) throw new Error('robotstxt-wasm/pool: pool-worker.js runs only as a worker thread of MatchPool');

/** Matchers rebuilt from the tables sent, by the calling side's id. */
const matchers = new Map<number, AgentMatcher>();

/** Private copies of shares read from a SharedArrayBuffer, reused so its pages stay mapped. */
let scratch = new Uint8Array(0);

/**
 * The share's bytes, in memory the matcher copies from at full speed. V8 copies out of a
 * SharedArrayBuffer word by word only when source and destination agree modulo 8, and
 * byte by byte otherwise (about 6 times slower), while the matcher copies chunks that
 * start at arbitrary line breaks: so a shared share is first copied once, at its own
 * alignment, into private memory.
 */
function shareOf(request: PoolRequest): Uint8Array {
  const { input, offset, length } = request;
  if (!(input instanceof SharedArrayBuffer)) return new Uint8Array(input, offset, length);
  const skew = offset & 7;
  // Room to spare: shares change size with the split, and fresh memory costs page faults.
  if (scratch.length < skew + length) scratch = new Uint8Array(skew + length + (length >>> 3));
  scratch.set(new Uint8Array(input, offset, length), skew);
  return scratch.subarray(skew, skew + length);
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

function failure(seq: number, input: ArrayBuffer | null, error: unknown): PoolReply {
  return { seq, threadId, input, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
}

function judgeStrings(request: PoolStringsRequest): PoolReply {
  const { seq, input, count } = request;
  try {
    const matcher = matcherFor(request);
    const started = performance.now();
    const verdicts = new Uint8Array(count);
    const lines = request.withLines ? new Uint32Array(count) : null;
    const bytes = new Uint8Array(input, request.bytesOffset, request.byteLength);
    getEngine().matchEncoded(matcher.table, bytes, new Uint32Array(input, 0, count), verdicts, lines);
    return { seq, threadId, input, verdicts: verdicts.buffer, lines: lines === null ? null : lines.buffer, ms: performance.now() - started };
  } catch (error) {
    return failure(seq, input, error);
  }
}

function judge(request: PoolRequest): PoolReply {
  const { seq } = request;
  const input = request.input instanceof SharedArrayBuffer ? null : request.input;
  try {
    const matcher = matcherFor(request);
    // The calling side sizes the next shares by this time: a private copy of shared
    // input is part of the work, the messaging is not.
    const started = performance.now();
    const share = shareOf(request);
    // Both methods return arrays over buffers of their own, exactly as long as the
    // results: those buffers can be moved to the calling thread without a copy.
    if (!request.withLines) {
      const verdicts = matcher.matchLines(share).buffer as ArrayBuffer;
      return { seq, threadId, input, verdicts, lines: null, ms: performance.now() - started };
    }
    const { verdicts, lines } = matcher.decideLines(share);
    return { seq, threadId, input, verdicts: verdicts.buffer as ArrayBuffer, lines: lines.buffer as ArrayBuffer, ms: performance.now() - started };
  } catch (error) {
    return failure(seq, input, error);
  }
}

// Judging is synchronous, so requests are answered in the order they arrive.
port.on('message', (message: PoolRequest | PoolStringsRequest | PoolDrop) => {
  if (message.kind === 'drop') {
    matchers.delete(message.tableId);
    return;
  }
  const reply = message.kind === 'strings' ? judgeStrings(message) : judge(message);
  const moved: ArrayBuffer[] = reply.input === null ? [] : [reply.input];
  if ('verdicts' in reply) moved.push(reply.verdicts, ...(reply.lines === null ? [] : [reply.lines]));
  port.postMessage(reply, moved);
});
