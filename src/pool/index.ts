// MatchPool (`robotstxt-wasm/pool`, Node only): one big batch of URL lines split at line breaks and judged on several threads.
//
// A call cuts the input into one share per thread at line breaks (pool/split.ts), so
// every share holds whole lines (only the last may end without '\n', exactly as in the
// whole input). Shares start even and follow how fast the calling thread judged compared
// with the workers in the last calls, so that all finish together. The calling thread
// posts shares 1…n-1 to workers, judges share 0 itself with the matcher it already has,
// then concatenates the results in input order. A worker's share is copied once, as a
// head and then the rest, into shared memory the worker keeps from call to call
// (pool/arena.ts; a share of the caller's own SharedArrayBuffer is read in place),
// and verdicts come back as transferred buffers.
//
// A batch of strings (matchBatch, decideBatch) is split by URL count the same way. The
// calling thread encodes each worker's share (src/wasm/url-bytes.ts: UTF-8 back to back,
// byte lengths) into that shared memory, in up to eight pieces posted as each is encoded, then
// judges its own share as matcher.matchBatch would; the workers judge the bytes
// (engine.matchEncoded). Encoding takes about half what judging does, so with one worker
// this thread keeps about 30% of the URLs.
//
// What goes to the workers (arenas, tables, a retry when one dies) is pool/requests.ts;
// the threads themselves are a WorkerSet (pool/workers.ts), the pool the CLI's
// `--workers` run shares.
import { threadId } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import { AgentMatcher, type BatchDecisions } from '../matcher.js';
import { describe, expectBytes, expectOut } from '../errors.js';
import { MatchWorkers, type Part } from './requests.js';
import { getEngine } from '../wasm/index.js';
import { notAString } from '../wasm/url-bytes.js';
import { ShareBalance, shareTargets, splitAtLines } from './split.js';

/**
 * Inputs shorter than this (256 KiB, about 4,000 URLs of 60 bytes) are judged on the
 * calling thread only: below it, posting a share and waiting for its reply costs about
 * as much as judging it here (the raw path judges 10–13 M URLs/s on one thread).
 * @example new MatchPool({ minParallelBytes: DEFAULT_MIN_PARALLEL_BYTES }) // the default
 */
export const DEFAULT_MIN_PARALLEL_BYTES = 256 * 1024;

/**
 * Options of {@link MatchPool}.
 * @example new MatchPool({ threads: 2, minParallelBytes: 1 << 20 })
 */
export interface MatchPoolOptions {
  /**
   * Threads that judge a batch, the calling thread included (it judges one share
   * itself), so `threads - 1` workers are started. A positive integer; default
   * `os.availableParallelism()`. More threads than cores is allowed, rarely faster.
   */
  readonly threads?: number;
  /**
   * Inputs shorter than this many bytes (for string batches: UTF-16 units, the URLs'
   * `length` in all) stay on the calling thread (default {@link DEFAULT_MIN_PARALLEL_BYTES}).
   */
  readonly minParallelBytes?: number;
}

/**
 * Who judged which part of the last batch: one entry per share, in input order.
 * @example pool.lastSplit // [{ threadId: 0, byteLength: 30000000, lines: 500000 }, { threadId: 1, byteLength: 30000000, lines: 500000 }]
 */
export interface PoolShare {
  /** `worker_threads.threadId` of the thread that judged the share (the calling thread's is its own, 0 on the main thread). */
  readonly threadId: number;
  /** Bytes of the share (for string batches: of the URLs in UTF-8). */
  readonly byteLength: number;
  /** Lines (URLs) in the share. */
  readonly lines: number;
}

/** What the synchronous part of a string batch leaves for the rest of the call. */
interface StartedStrings {
  /** The workers' pieces, by their first URL. */
  readonly pending: { readonly start: number; readonly part: Promise<Part> }[];
  /** URLs judged here (the first ones), their UTF-8 bytes and the time that took. */
  readonly own: number;
  readonly ownBytes: number;
  readonly ownMs: number;
  /** Time spent encoding each worker's share. */
  readonly encodeMs: number[];
}

/**
 * A copied share's head is 1/HEAD_PARTS of it. The worker judges the head while this
 * thread copies the rest, which takes a twentieth of the judging time on the bench
 * machine (a fifth with no rules at all): the rest arrives before the head is done.
 */
const HEAD_PARTS = 6;

/**
 * A worker's share of a string batch goes in this many pieces of equal URL counts, each
 * posted once encoded. Encoding takes about half the judging time here (60 against 110 ns
 * per URL), so a head and one rest left the worker idle for a quarter of the call while the
 * rest was encoded; with eighths it is idle only while the first is.
 */
const STRING_PIECES = 8;
/** URLs per piece at least (about half a millisecond of encoding): smaller shares go in fewer pieces, each message costing tens of microseconds. */
const MIN_PIECE_URLS = 8192;

/**
 * For string batches, the ratio of this thread's judging time per URL to a worker's
 * judging time less this thread's encoding for it (ShareBalance.first) may be up to
 * this: on the bench machine it measures 2 to 4, as encoding takes a third to a half of
 * a worker's time per URL.
 */
const STRING_MAX_RATIO = 8;

function checkOptions(options: unknown): { threads: number; minParallelBytes: number } {
  if (options === undefined) return { threads: availableParallelism(), minParallelBytes: DEFAULT_MIN_PARALLEL_BYTES };
  if (typeof options !== 'object' || options === null) throw new TypeError(`options must be an object, got ${describe(options)}`);
  for (const key of Object.keys(options)) {
    if (key !== 'threads' && key !== 'minParallelBytes') {
      throw new TypeError(`options.${key} is not an option (expected threads, minParallelBytes)`);
    }
  }
  const { threads = availableParallelism(), minParallelBytes = DEFAULT_MIN_PARALLEL_BYTES } = options as MatchPoolOptions;
  if (typeof threads !== 'number') throw new TypeError(`options.threads must be a positive integer, got ${describe(threads)}`);
  if (!Number.isInteger(threads) || threads < 1) throw new RangeError(`options.threads must be a positive integer, got ${String(threads)}`);
  if (typeof minParallelBytes !== 'number') {
    throw new TypeError(`options.minParallelBytes must be a non-negative integer, got ${describe(minParallelBytes)}`);
  }
  if (!Number.isInteger(minParallelBytes) || minParallelBytes < 0) {
    throw new RangeError(`options.minParallelBytes must be a non-negative integer, got ${String(minParallelBytes)}`);
  }
  return { threads, minParallelBytes };
}

/**
 * A pool of worker threads for one big batch of newline-separated URL bytes: results
 * are byte-identical to `matcher.matchLines` / `matcher.decideLines`, computed by up to
 * `threads` threads, the calling thread included. Node only.
 *
 * Workers start on the first batch of at least `minParallelBytes` bytes and are
 * `unref()`'d while idle: a pool never keeps the process alive, and needs `close()` only
 * to free the workers early. Several calls may be in flight; each worker answers in order.
 * @example
 * const pool = new MatchPool({ threads: 2 });
 * const verdicts = await pool.matchLines(matcher, bytes); // same bytes as matcher.matchLines(bytes)
 * await pool.close();
 */
export class MatchPool {
  /** Threads per batch, the calling thread included. */
  readonly threads: number;
  /** Inputs shorter than this stay on the calling thread. */
  readonly minParallelBytes: number;
  /** The worker threads and what goes to them. */
  private readonly workers = new MatchWorkers();
  private closed = false;
  private split: readonly PoolShare[] = [];
  private readonly balance = new ShareBalance();
  /** The same for string batches, in URLs: the calling thread also encodes the workers' shares. */
  private readonly stringBalance = new ShareBalance(STRING_MAX_RATIO);
  /**
   * The URLs of the string batch in progress, reused: a fresh array of a million
   * elements per call pushed the main thread's garbage collector into full collections.
   * Emptied (not shrunk) after each call, so that it keeps no caller strings alive.
   */
  private readonly snapshot: string[] = [];
  /**
   * The snapshot's UTF-16 lengths, taken in the same pass: sizing a worker's piece then
   * reads no string again (a pass over a million strings' headers costs ~4 ms in cache
   * misses alone).
   */
  private snapshotUnits = new Uint32Array(0);

  /**
   * @throws TypeError when options is not an object, has an unknown key or a value of the wrong type
   * @throws RangeError when threads is not a positive integer or minParallelBytes is negative or fractional
   * @example new MatchPool({ threads: 2 }).threads // 2
   */
  constructor(options?: MatchPoolOptions) {
    const checked = checkOptions(options);
    this.threads = checked.threads;
    this.minParallelBytes = checked.minParallelBytes;
  }

  /**
   * The shares of the call that finished last, in input order: proof of where the work
   * ran. A single entry with the calling thread's id when the input stayed here.
   * @example (await pool.matchLines(m, big), pool.lastSplit.map((s) => s.lines)) // [500000, 500000]
   */
  get lastSplit(): readonly PoolShare[] {
    return this.split;
  }

  /**
   * `matcher.matchLines(bytes, out)` on up to `threads` threads: 1 = allowed, 0 =
   * disallowed per line (LF or CRLF; a last line without a line break counts), in input
   * order. Returns `out` (or a new array). `bytes` must not change until the promise
   * settles. Rejects with TypeError/RangeError for the arguments matchLines rejects, and
   * with an Error naming the cause when the pool is closed or a worker fails.
   * @example await pool.matchLines(m, new TextEncoder().encode('/a\n/private\n')) // Uint8Array [1, 0]
   */
  async matchLines(matcher: AgentMatcher, bytes: Uint8Array, out?: Uint8Array): Promise<Uint8Array> {
    this.checkCall(matcher, bytes);
    if (out !== undefined) expectOut(out, 0, 'out'); // the type, before any work
    const parts = await this.judge(matcher, bytes, false);
    // As in matchLines, `out` is written only once every verdict is known to fit.
    const result = expectOut(out, parts.reduce((n, p) => n + p.verdicts.length, 0), 'out');
    let at = 0;
    for (const part of parts) {
      result.set(part.verdicts, at);
      at += part.verdicts.length;
    }
    return result;
  }

  /**
   * `matcher.decideLines(bytes)` on up to `threads` threads: verdicts and deciding lines.
   * @example await pool.decideLines(m, new TextEncoder().encode('/private\n')) // { verdicts: [0], lines: [2] }
   */
  async decideLines(matcher: AgentMatcher, bytes: Uint8Array): Promise<BatchDecisions> {
    this.checkCall(matcher, bytes);
    const parts = await this.judge(matcher, bytes, true);
    const count = parts.reduce((n, p) => n + p.verdicts.length, 0);
    const verdicts = new Uint8Array(count);
    const lines = new Uint32Array(count);
    let at = 0;
    for (const part of parts) {
      verdicts.set(part.verdicts, at);
      lines.set(part.lines!, at);
      at += part.verdicts.length;
    }
    return { verdicts, lines };
  }

  /**
   * `matcher.matchBatch(urls, out)` on up to `threads` threads: 1 = allowed, 0 =
   * disallowed per URL string, in input order. Returns `out` (or a new array). Each
   * element of `urls` is read once, when the call starts; `out` is written only when
   * every verdict is known. Rejects with the TypeError/RangeError matchBatch throws (a
   * non-array, an element that is not a string, an `out` too short), before any work,
   * and with an Error naming the cause when the pool is closed or a worker fails.
   * @example await pool.matchBatch(m, ['/a', '/private/x']) // Uint8Array [1, 0]
   */
  async matchBatch(matcher: AgentMatcher, urls: readonly string[], out?: Uint8Array): Promise<Uint8Array> {
    const count = this.checkBatch(matcher, urls);
    const verdicts = expectOut(out, count, 'out');
    // Judged into a private array: a failed call leaves `out` as it was.
    const judged = out === undefined ? verdicts : new Uint8Array(count);
    await this.judgeStrings(matcher, urls, count, judged, null);
    if (judged !== verdicts) verdicts.set(judged);
    return verdicts;
  }

  /**
   * `matcher.decideBatch(urls)` on up to `threads` threads: verdicts and deciding lines.
   * @example await pool.decideBatch(m, ['/private/x']) // { verdicts: [0], lines: [2] }
   */
  async decideBatch(matcher: AgentMatcher, urls: readonly string[]): Promise<BatchDecisions> {
    const count = this.checkBatch(matcher, urls);
    const verdicts = new Uint8Array(count);
    const lines = new Uint32Array(count);
    await this.judgeStrings(matcher, urls, count, verdicts, lines);
    return { verdicts, lines };
  }

  /**
   * Terminates the workers; calls still in flight reject. Later calls reject; closing
   * again does nothing.
   * @example await pool.close()
   */
  async close(): Promise<void> {
    this.closed = true;
    // Rejected now, not when the exit is seen: a reply already on its way is ignored.
    await this.workers.close(new Error('MatchPool was closed while this call was in flight'));
  }

  private checkCall(matcher: unknown, bytes: unknown): asserts matcher is AgentMatcher {
    this.checkMatcher(matcher);
    expectBytes(bytes, 'bytes');
  }

  private checkMatcher(matcher: unknown): asserts matcher is AgentMatcher {
    if (this.closed) throw new Error('MatchPool is closed: create a new MatchPool to judge more batches');
    if (!(matcher instanceof AgentMatcher)) throw new TypeError(`matcher must be an AgentMatcher, got ${describe(matcher)}`);
  }

  /** A string batch's size, once the pool, the matcher and `urls` are known to be usable. */
  private checkBatch(matcher: unknown, urls: unknown): number {
    this.checkMatcher(matcher);
    if (!Array.isArray(urls)) throw new TypeError(`urls must be an array of strings, got ${describe(urls)}`);
    return urls.length;
  }

  /**
   * Judges urls[0, count) into `verdicts` (and `lines`): the first share here, the others
   * on workers, encoded for them by this thread. Each element is read exactly once, into
   * the snapshot (an array whose elements change between reads, through getters or a
   * Proxy, is judged as first read), and checked as matchBatch checks it before any
   * work. A batch of fewer than minParallelBytes UTF-16 units stays here.
   */
  private async judgeStrings(matcher: AgentMatcher, urls: readonly unknown[], count: number, verdicts: Uint8Array, lines: Uint32Array | null): Promise<void> {
    const list = this.snapshot;
    if (list.length < count) list.length = count;
    if (this.snapshotUnits.length < count) this.snapshotUnits = new Uint32Array(Math.max(count, 2 * this.snapshotUnits.length));
    const units = this.snapshotUnits;
    let started: StartedStrings;
    // Everything that reads the snapshot runs before the first await, so calls in flight
    // at once never share it; it is emptied before any of them goes on.
    try {
      let chars = 0;
      for (let i = 0; i < count; i++) {
        const url = urls[i];
        if (typeof url !== 'string') throw notAString(i, url);
        list[i] = url;
        units[i] = url.length;
        chars += url.length;
      }
      started = this.startStrings(matcher, list, units, count, chars, verdicts, lines);
    } finally {
      list.fill('', 0, count);
    }
    const { pending, own, ownBytes, ownMs, encodeMs } = started;
    const parts = await Promise.all(pending.map((p) => p.part));
    for (const [k, part] of parts.entries()) {
      verdicts.set(part.verdicts, pending[k]!.start);
      if (lines !== null) lines.set(part.lines!, pending[k]!.start);
    }
    const split = this.mergeShares({ threadId, byteLength: ownBytes, verdicts: verdicts.subarray(0, own), lines: null, ms: ownMs }, parts);
    const others = split.slice(1);
    if (others.length > 0 && others.every((p) => !Number.isNaN(p.ms))) {
      // Encoding for the workers is this thread's hand-off: the split weighs it apart.
      const encoded = encodeMs.reduce((a, b) => a + b, 0);
      this.stringBalance.sample(own, ownMs, others.map((p) => p.lines), others.map((p) => p.ms), encoded);
    }
  }

  /**
   * The synchronous part of judgeStrings: posts the workers' pieces, then judges
   * list[0, own) here. With no worker to post to, `own` is the whole batch.
   */
  private startStrings(
    matcher: AgentMatcher, list: readonly string[], units: Uint32Array, total: number, chars: number, verdicts: Uint8Array, lines: Uint32Array | null,
  ): StartedStrings {
    const engine = getEngine();
    const shares = Math.min(this.threads, total);
    if (chars < this.minParallelBytes || shares < 2) {
      const started = performance.now();
      const ownBytes = engine.matchStrings(matcher.table, list, verdicts, lines, 0, total);
      return { pending: [], own: total, ownBytes, ownMs: performance.now() - started, encodeMs: [] };
    }
    // Cuts by URL count: [0, own), then equal parts of the rest, none empty.
    const own = Math.min(total - (shares - 1), Math.max(1, Math.round(total * this.stringBalance.first(shares))));
    const cuts = [0, own];
    for (let i = 1; i < shares; i++) cuts.push(own + Math.round((i * (total - own)) / (shares - 1)));
    // Piece k of every worker's share, then piece k + 1: each worker judges a piece while
    // this thread encodes the next ones.
    const pending: { readonly start: number; readonly part: Promise<Part> }[] = [];
    const calls = cuts.slice(2).map((_, slot) => this.workers.call(slot));
    const encodeMs = calls.map(() => 0);
    for (let k = 0; k < STRING_PIECES; k++) {
      for (const [slot, call] of calls.entries()) {
        const start = cuts[slot + 1]!;
        const end = cuts[slot + 2]!;
        const pieces = Math.min(STRING_PIECES, Math.max(1, Math.floor((end - start) / MIN_PIECE_URLS)));
        if (k >= pieces) continue;
        const from = start + Math.floor((k * (end - start)) / pieces);
        const to = start + Math.floor(((k + 1) * (end - start)) / pieces);
        // The whole share's bytes if all ASCII, and its lengths: the arena taken for the first piece holds the others too.
        const hint = Math.ceil((end - start) * (4 + chars / total)) + 64;
        if (from >= to) continue;
        const encoding = performance.now();
        const part = this.workers.postStrings(call, hint, matcher, list, units, from, to - from, lines !== null);
        encodeMs[slot]! += performance.now() - encoding;
        call.parts.push(part);
        pending.push({ start: from, part });
      }
    }
    this.workers.releaseWhenAnswered(calls);
    pending.sort((a, b) => a.start - b.start);
    let ownBytes: number;
    const started = performance.now();
    try {
      ownBytes = engine.matchStrings(matcher.table, list, verdicts, lines, 0, own);
    } catch (error) {
      // The workers' replies no longer matter; their failures must not go unhandled.
      for (const p of pending) p.part.catch(() => undefined);
      throw error;
    }
    return { pending, own, ownBytes, ownMs: performance.now() - started, encodeMs };
  }

  /**
   * Records `lastSplit` from the parts of a call in input order (a worker's pieces are
   * consecutive) and returns it with each thread's time.
   */
  private mergeShares(own: Part, parts: readonly Part[]): { threadId: number; byteLength: number; lines: number; ms: number }[] {
    const shares: { threadId: number; byteLength: number; lines: number; ms: number }[] = [];
    for (const p of [own, ...parts]) {
      const last = shares[shares.length - 1];
      if (last !== undefined && last.threadId === p.threadId) {
        last.byteLength += p.byteLength;
        last.lines += p.verdicts.length;
        last.ms += p.ms;
      } else {
        shares.push({ threadId: p.threadId, byteLength: p.byteLength, lines: p.verdicts.length, ms: p.ms });
      }
    }
    this.split = shares.map(({ threadId, byteLength, lines }) => ({ threadId, byteLength, lines }));
    return shares;
  }

  /** Judges the shares of `bytes`: share 0 here, the others on workers. */
  private async judge(matcher: AgentMatcher, bytes: Uint8Array, withLines: boolean): Promise<Part[]> {
    const cuts = bytes.length < this.minParallelBytes || this.threads === 1
      ? [0, bytes.length]
      : splitAtLines(bytes, shareTargets(bytes.length, this.threads, this.balance.first(this.threads)));
    // The copies below count as this thread's work: the split balances them too.
    const started = performance.now();
    // Workers first, so that they judge while this thread does its own share. A share
    // this thread must copy goes in two pieces, a head and the rest: the worker judges
    // the head while the rest is being copied, instead of waiting for all of it.
    const pieces: (readonly [number, number])[][] = [];
    for (let i = 1; i + 1 < cuts.length; i++) {
      const start = cuts[i]!;
      const length = cuts[i + 1]! - start;
      const at = bytes.buffer instanceof SharedArrayBuffer ? [0, length] : splitAtLines(bytes.subarray(start, start + length), [Math.floor(length / HEAD_PARTS)]);
      pieces.push(at.slice(1).map((end, k) => [start + at[k]!, end - at[k]!] as const));
    }
    const calls = pieces.map((_, slot) => this.workers.call(slot));
    for (let k = 0; k < 2; k++) {
      for (const [slot, list] of pieces.entries()) {
        const piece = list[k];
        // Both pieces of the share, 8 bytes apart at most: one arena holds them.
        const hint = cuts[slot + 2]! - cuts[slot + 1]! + 16;
        if (piece !== undefined) calls[slot]!.parts.push(this.workers.postLines(calls[slot]!, hint, matcher, bytes, piece[0], piece[1], withLines));
      }
    }
    this.workers.releaseWhenAnswered(calls);
    const pending = calls.map((c) => c.parts);
    let own: Part;
    try {
      // (A share of shared memory is read in place: the engine copies it at memcpy speed.)
      const share = cuts.length > 2 ? bytes.subarray(0, cuts[1]) : bytes;
      if (withLines) {
        const { verdicts, lines } = matcher.decideLines(share);
        own = { threadId, byteLength: share.length, verdicts, lines, ms: performance.now() - started };
      } else {
        const verdicts = matcher.matchLines(share);
        own = { threadId, byteLength: share.length, verdicts, lines: null, ms: performance.now() - started };
      }
    } catch (error) {
      // The workers' replies no longer matter; their failures must not go unhandled.
      for (const p of pending.flat()) p.catch(() => undefined);
      throw error;
    }
    const workerParts = await Promise.all(pending.flat());
    const others = this.mergeShares(own, workerParts).slice(1);
    if (others.length > 0 && others.every((p) => !Number.isNaN(p.ms))) {
      this.balance.sample(own.byteLength, own.ms, others.map((p) => p.byteLength), others.map((p) => p.ms));
    }
    return [own, ...workerParts];
  }
}
