// Streams input chunks through a job (here or in worker threads) and writes rows in input order.
import type { Writable } from 'node:stream';
import { SpareBuffers } from '../pool/arena.js';
import { WorkerLostError, WorkerSet } from '../pool/workers.js';
import { lineChunks } from './stream.js';
import { createProcessor, type ChunkProcessor, type ChunkResult, type Job } from './jobs.js';
import type { RowShape, RunTotals } from './output.js';
import { OutputBuffer, overLongRow, writeAll } from './output.js';
import { CliError, limitErrorText } from './errors.js';

/** URL lines to read: a stream, or a reader that may reuse its buffer for its next read. */
export interface UrlInput {
  readonly source: AsyncIterable<Buffer | string>;
  /**
   * Longest line, in bytes before its line feed (--max-url-bytes; default: no limit). A
   * longer line is streamed past, never held whole, and gets the row overLongRow makes.
   */
  readonly maxLineBytes?: number;
}

/** Told about progress after every chunk written. */
export interface ProgressSink {
  update(totals: RunTotals, bytesRead: number): void;
}

export interface RunOptions {
  /** Worker threads; 1 runs in this thread. */
  readonly workers: number;
  /** Input bytes per chunk (default CHUNK_BYTES): the unit handed to Wasm or a worker. */
  readonly chunkBytes?: number;
  /**
   * `output` writes to a file descriptor and keeps nothing it has written (process.stdout):
   * rows may then go through one reused buffer instead of fresh ones per chunk. Never set
   * it for a stream that keeps references to what it is given.
   */
  readonly fdOutput?: boolean;
  readonly progress?: ProgressSink | null;
}

/**
 * The shape of `job`'s rows, for the rows of over-long lines.
 * @example jobRowShape({ kind: 'classify', format: 'tsv', only: null, … }) // { format: 'tsv', only: null, host: true, outcome: false }
 */
export function jobRowShape(job: Job): RowShape {
  return {
    format: job.format,
    only: job.only,
    host: job.kind === 'classify',
    outcome: job.kind === 'check' && job.outcome !== undefined,
    ...(job.kind === 'classify' && job.agents !== undefined ? { agents: job.agents } : {}),
  };
}

/**
 * Messages between run.ts and worker.ts: a chunk for a worker, and a buffer for its rows
 * when the run has one to spare. Both buffers are moved to the worker, and the reply
 * moves them back (the rows as `result.rows[0]`): the run recycles them, so it
 * allocates no memory per chunk (a fresh 1 MB buffer each way per chunk left garbage
 * that V8 collected late).
 */
export type WorkerRequest = { readonly seq: number; readonly chunk: Uint8Array; readonly rows: Uint8Array | null };
export type WorkerReply =
  | { readonly seq: number; readonly result: ChunkResult; readonly chunk: Uint8Array }
  | { readonly seq: number; readonly error: { readonly message: string; readonly name: string; readonly cli: boolean }; readonly chunk: Uint8Array };

/**
 * V8's young generation per worker, in MB (two semi-spaces and a large-object space of
 * one semi-space each: 3 MB is 1 MB semi-spaces). A worker's allocation comes almost all
 * at its start, compiling each host's robots.txt (about 26 MB of garbage for the
 * corpus's 1,183 hosts): by default that grows its semi-spaces to 8 MB, which stay
 * committed for the rest of the run while the streaming loop allocates almost nothing.
 * Capped, `classify --workers 2` peaked 32 MiB lower (188 → 156 MiB on 10M URLs) in
 * the same CPU time.
 */
export const WORKER_YOUNG_GENERATION_MB = 3;

/**
 * Spare room in a chunk buffer sent to a worker. Chunks end at a line break, so their
 * lengths differ by up to a line from one to the next; a buffer sized to one chunk was
 * too small for a later one a quarter of the time and dropped for a new one, and those
 * dead buffers (about 24 MB per 10M URLs) waited for a full GC, which the main thread's
 * few allocations rarely bring: 12 MiB more peak RSS.
 */
const CHUNK_HEADROOM = 1 / 8;

/**
 * Bytes of a new buffer that carries a chunk of `length` bytes to a worker and is then
 * reused for later chunks, whose lengths differ by up to a line.
 * @example chunkBufferBytes(1 << 20) // 1179648
 */
export function chunkBufferBytes(length: number): number {
  return Math.ceil(length * (1 + CHUNK_HEADROOM));
}

/**
 * What a run reports when a worker thread was lost: a limit error or a user-facing error
 * it crashed with (say, while compiling the job's rules as it started) is reported as
 * the same error in this thread would be; anything else says which worker died and how.
 */
function lostWorkerError(error: WorkerLostError): Error {
  const cause = error.cause;
  if (limitErrorText(cause) !== null) return cause as Error;
  if (cause instanceof Error && cause.name === 'CliError') return new CliError(cause.message);
  return error;
}

/**
 * The job's processor in worker threads (cli/worker.ts) of a WorkerSet: chunks go to the
 * workers round-robin and their results come back by request. A worker lost mid-run
 * fails the run (its chunk's buffer went with it): that chunk and every later one reject.
 * @example
 * const workers = new ChunkWorkers(job, 2);
 * try { await runChunks(workers, input, process.stdout, { window: 4 }) } finally { await workers.close() }
 */
export class ChunkWorkers implements ChunkProcessor {
  private readonly set: WorkerSet<WorkerRequest, WorkerReply, null>;
  private readonly size: number;
  private next = 0;
  private failure: Error | null = null;
  /** Buffers back from the workers, to be sent again: chunk buffers, and rows buffers once written. */
  private readonly spareChunks: SpareBuffers;
  private readonly spareRows: SpareBuffers;

  constructor(job: Job, size: number) {
    this.size = size;
    // At most 2 chunks per worker are in flight (runJob's window), so as many buffers of each kind.
    this.spareChunks = new SpareBuffers(2 * size);
    this.spareRows = new SpareBuffers(2 * size);
    this.set = new WorkerSet({
      url: new URL('./worker.js', import.meta.url),
      label: 'robotstxt worker',
      worker: { workerData: job, resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB } },
      extra: () => null,
      onLost: (error) => {
        this.failure ??= lostWorkerError(error);
      },
    });
    // Started now: each compiles the job's rules while the first chunks are read.
    for (let slot = 0; slot < size; slot++) this.set.thread(slot);
  }

  process(chunk: Uint8Array): Promise<ChunkResult> {
    if (this.failure) return Promise.reject(this.failure);
    // Chunks are spread round-robin; ordering is restored by the caller, which awaits
    // results in submission order.
    const worker = this.set.thread(this.next++ % this.size);
    // A copy, moved to the worker: the chunk's own buffer is the reader's, reused for the
    // next read. A spare buffer too small (a chunk grown by a long line) is dropped for a larger one.
    const buffer = this.spareChunks.take(chunk.length, chunkBufferBytes);
    const own = new Uint8Array(buffer, 0, chunk.length);
    own.set(chunk);
    const rows = this.spareRows.takeAny();
    const transfer = rows === undefined ? [buffer] : [buffer, rows];
    const request = (seq: number): WorkerRequest => ({ seq, chunk: own, rows: rows === undefined ? null : new Uint8Array(rows) });
    return this.set.send(worker, request, transfer).then(
      (reply) => {
        this.spareChunks.give(reply.chunk.buffer as ArrayBuffer);
        if ('result' in reply) return reply.result;
        // A user-facing failure in a worker (e.g. an unreadable robots file) stays user-facing,
        // and an engine limit error keeps its name (main.ts reports it as a limit, status 65).
        if (reply.error.cli) throw new CliError(reply.error.message);
        throw Object.assign(new Error(reply.error.message), { name: reply.error.name });
      },
      (error: unknown) => {
        throw error instanceof WorkerLostError ? (this.failure ?? lostWorkerError(error)) : error;
      },
    );
  }

  recycle(rows: Uint8Array): void {
    this.spareRows.give(rows.buffer as ArrayBuffer);
  }

  async close(): Promise<void> {
    await this.set.close(new Error('the run ended while a chunk was in a worker'));
  }
}

/**
 * Reads `input` line by line in chunks, runs `job` on each (in `options.workers`
 * threads), and writes the rows to `output` in input order. Memory stays bounded: at
 * most 2 chunks per worker are in flight, and output waits for the stream to drain.
 * @example await runJob(job, createReadStream('urls.txt'), process.stdout, { workers: 2 })
 */
export async function runJob(job: Job, input: UrlInput, output: Writable, options: RunOptions): Promise<RunTotals> {
  const pool = options.workers > 1 ? new ChunkWorkers(job, options.workers) : null;
  try {
    const rows = jobRowShape(job);
    if (pool !== null) return await runChunks(pool, input, output, { ...options, window: 2 * options.workers, rows });
    // In this thread one chunk at a time: a processor reuses its buffers (and the reader
    // its own), so the next chunk must not start while one is pending.
    return await runChunks(createProcessor(job), input, output, { ...options, window: 1, rows });
  } finally {
    await pool?.close();
  }
}

/** Options of {@link runChunks}. */
export interface ChunkRunOptions {
  /**
   * Chunks whose rows may be pending at once (≥ 1). Above 1, `processor` calls overlap,
   * so the processor must copy what it keeps of a chunk across an await (the reader
   * reuses its buffer for the next chunk) and must not reuse result buffers.
   */
  readonly window: number;
  readonly chunkBytes?: number;
  /**
   * See RunOptions.fdOutput. With a window of 1, rows go through one reused buffer; with
   * more, rows a write has finished with go back to the processor (`recycle`).
   */
  readonly fdOutput?: boolean;
  readonly progress?: ProgressSink | null;
  /**
   * The shape of the processor's rows, so that a line over `input.maxLineBytes` gets its
   * row (overLongRow) in its place. Without it such a line gets no row (outputs that are
   * not one row per line, like fetch --out's outcomes), but is counted all the same.
   */
  readonly rows?: RowShape;
}

/** A result that is not the processor's: never handed back to it (`recycle`). */
const OWN_ROWS = new WeakSet<ChunkResult>();

/** The result standing for one over-long line: its row (if kept), counted as disallowed. */
function overLongResult(rows: RowShape | undefined, bytes: number): ChunkResult {
  const row = rows === undefined ? null : overLongRow(rows, bytes);
  const result: ChunkResult = { rows: row === null ? [] : [Buffer.from(row, 'latin1')], count: 1, allowed: 0, disallowed: 1 };
  OWN_ROWS.add(result);
  return result;
}

/**
 * Streams `input` through `processor` in chunks of complete lines, keeping up to
 * `options.window` chunks in flight, and writes each chunk's rows once it and every
 * chunk before it are done: output is in input order, memory bounded by the window.
 * @example await runChunks(processor, { source: process.stdin }, process.stdout, { window: 16 })
 */
export async function runChunks(processor: ChunkProcessor, input: UrlInput, output: Writable, options: ChunkRunOptions): Promise<RunTotals> {
  const totals: RunTotals & { overLong: number } = { urls: 0, allowed: 0, disallowed: 0, overLong: 0 };
  const inFlight: Promise<ChunkResult>[] = [];
  const maxInFlight = Math.max(1, options.window);
  let bytesRead = 0;
  const emit = async (result: ChunkResult): Promise<void> => {
    for (const rows of result.rows) {
      await writeAll(output, rows);
      // As below: a file descriptor's stream with nothing queued keeps nothing written.
      if (options.fdOutput === true && output.writableLength === 0 && !OWN_ROWS.has(result)) processor.recycle?.(rows);
    }
    count(result);
  };

  const count = (result: ChunkResult): void => {
    totals.urls += result.count;
    totals.allowed += result.allowed;
    totals.disallowed += result.disallowed;
    if (OWN_ROWS.has(result)) totals.overLong += result.count;
    if (result.agentsAllowed !== undefined) {
      const sums = (totals.agentsAllowed ??= Array.from(result.agentsAllowed, () => 0));
      result.agentsAllowed.forEach((n, j) => (sums[j]! += n));
    }
    options.progress?.update(totals, bytesRead);
  };

  try {
    if (maxInFlight === 1 && options.fdOutput === true) {
      // In this thread, to a file descriptor: rows are copied into one reused buffer. Once
      // a write returns with nothing queued (files, and pipes and terminals on Linux are
      // written synchronously) the buffer is free again; otherwise the stream keeps it
      // and a new one is started.
      let out = new OutputBuffer();
      const sink = (rows: Uint8Array): void => out.append(rows);
      for await (const chunk of lineChunks(input.source, options.chunkBytes, input.maxLineBytes)) {
        if ('overLong' in chunk) {
          bytesRead += chunk.overLong + 1;
          await emit(overLongResult(options.rows, chunk.overLong));
          continue;
        }
        bytesRead += chunk.length;
        out.clear();
        const result = await processor.process(chunk, sink);
        await writeAll(output, out.view());
        if (output.writableLength > 0) out = new OutputBuffer();
        count(result);
      }
      return totals;
    }
    for await (const chunk of lineChunks(input.source, options.chunkBytes, input.maxLineBytes)) {
      let pending: Promise<ChunkResult>;
      if ('overLong' in chunk) {
        bytesRead += chunk.overLong + 1;
        pending = Promise.resolve(overLongResult(options.rows, chunk.overLong));
      } else {
        bytesRead += chunk.length;
        pending = Promise.resolve(processor.process(chunk));
      }
      // Settled by emit later; until then a failure must not count as unhandled.
      pending.catch(() => undefined);
      inFlight.push(pending);
      // Results are written strictly in submission order, which is input order.
      while (inFlight.length >= maxInFlight) await emit(await inFlight.shift()!);
    }
    while (inFlight.length > 0) await emit(await inFlight.shift()!);
  } finally {
    // Settle abandoned results so a failure does not surface as an unhandled rejection.
    for (const p of inFlight) p.catch(() => undefined);
  }
  return totals;
}
