// Worker thread of MatchPool (src/pool.ts): judges the shares of line bytes it is sent, one request at a time.
import { parentPort, threadId } from 'node:worker_threads';
import { AgentMatcher } from './matcher.js';
import type { Profile } from './parse.js';

/** A table the worker has not seen yet: enough to rebuild the matcher (rules are not needed to match). */
export interface PoolTable {
  readonly userAgent: string;
  readonly profile: Profile;
  readonly bytes: Uint8Array;
}

/** Judge `length` bytes at `offset` of `input` against table `tableId`. */
export interface PoolRequest {
  readonly kind: 'match';
  readonly seq: number;
  readonly tableId: number;
  /** Present the first time this worker is sent `tableId`. */
  readonly table?: PoolTable;
  readonly input: SharedArrayBuffer;
  readonly offset: number;
  readonly length: number;
  readonly withLines: boolean;
}

/** The calling side no longer holds table `tableId` (it was garbage-collected). */
export interface PoolDrop {
  readonly kind: 'drop';
  readonly tableId: number;
}

/** Verdicts (and lines) as buffers of their own, transferred; or what went wrong. */
export type PoolReply =
  | { readonly seq: number; readonly threadId: number; readonly verdicts: ArrayBuffer; readonly lines: ArrayBuffer | null }
  | { readonly seq: number; readonly threadId: number; readonly error: string };

const port = parentPort;
if (port === null) throw new Error('robotstxt-wasm/pool: pool-worker.js runs only as a worker thread of MatchPool');

/** Matchers rebuilt from the tables sent, by the calling side's id. */
const matchers = new Map<number, AgentMatcher>();

function judge(request: PoolRequest): PoolReply {
  const { seq } = request;
  try {
    if (request.table !== undefined) {
      const { userAgent, profile, bytes } = request.table;
      // The constructor validates the bytes: the Wasm matcher trusts what it reads.
      // A table that fails is not kept; the calling side sends it again next time.
      matchers.delete(request.tableId);
      matchers.set(request.tableId, new AgentMatcher(userAgent, profile, bytes, []));
    }
    const matcher = matchers.get(request.tableId);
    if (matcher === undefined) throw new Error(`table ${request.tableId} was never sent to this worker`);
    const share = new Uint8Array(request.input, request.offset, request.length);
    // Both methods return arrays over buffers of their own, exactly as long as the
    // results: those buffers can be moved to the calling thread without a copy.
    if (!request.withLines) return { seq, threadId, verdicts: matcher.matchLines(share).buffer as ArrayBuffer, lines: null };
    const { verdicts, lines } = matcher.decideLines(share);
    return { seq, threadId, verdicts: verdicts.buffer as ArrayBuffer, lines: lines.buffer as ArrayBuffer };
  } catch (error) {
    return { seq, threadId, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
}

// Judging is synchronous, so requests are answered in the order they arrive.
port.on('message', (message: PoolRequest | PoolDrop) => {
  if (message.kind === 'drop') {
    matchers.delete(message.tableId);
    return;
  }
  const reply = judge(message);
  port.postMessage(reply, 'verdicts' in reply ? [reply.verdicts, ...(reply.lines ? [reply.lines] : [])] : []);
});
