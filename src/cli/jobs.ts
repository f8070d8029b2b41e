// What `check` and `classify` do to one chunk of input lines, on the main thread or in a worker.
import { Robots } from '../robots.js';
import type { Profile } from '../parse/lexer.js';
import { getEngine, type RowSink } from '../wasm/index.js';
import type { RobotsFetchStatus } from '../fetch/index.js';
import type { EngineLimits } from '../wasm/index.js';
import { ClassifyProcessor } from './classify/directory-source.js';
import { fetchedRowOptions, rowOptions, type RowFormat } from './row-options.js';

export type { RowFormat } from './row-options.js';
// The directory classifier lives with the fetch one in classify/ (one HostTables for both).
export { ClassifyProcessor } from './classify/directory-source.js';

/** What every job carries to the threads that run it (plain data). */
export interface JobLimits {
  /** Bytes of a robots.txt parsed (`--max-robots-bytes`; default DEFAULT_MAX_BYTES). */
  readonly maxBytes?: number;
  /** Engine limits each worker thread sets before its first call (`--max-memory-mb`, the URL limit). */
  readonly engine?: Partial<EngineLimits>;
}

/** `check`: one robots.txt body for every URL. Plain data, so it can be posted to a worker. */
export interface CheckJob extends RowFormat, JobLimits {
  readonly kind: 'check';
  readonly robots: Uint8Array;
  /** Rules already compiled for `agent` (a fetched robots.txt); used instead of `robots`. */
  readonly table?: Uint8Array;
  /**
   * How the robots.txt was fetched (`check --robots URL` only): rows of an unavailable or
   * unreachable one get line 0 (no line of a file decided), JSONL rows an `"outcome"`.
   */
  readonly outcome?: RobotsFetchStatus;
  readonly agent: string;
  readonly profile: Profile;
}

/** `classify`: each URL against its host's robots.txt from a directory. Plain data too. */
export interface ClassifyJob extends RowFormat, JobLimits {
  readonly kind: 'classify';
  readonly robotsDir: string;
  readonly agent: string;
  /** `--agents`: every agent's verdict per row (MULTI rows); `agent` is then agents[0]. */
  readonly agents?: readonly string[];
  readonly profile: Profile;
  /** What a host without robots.txt gets (RFC 9309 §2.3.1.3 says allow). */
  readonly missing: 'allow' | 'disallow';
  /** Compiled hosts kept (least recently used dropped first). */
  readonly cacheHosts: number;
  /**
   * A SharedFileCount buffer (robots-file.ts) where every thread counts the robots files
   * it refused to read (not regular files), for the run's summary. Default: a count of its own.
   */
  readonly unreadable?: SharedArrayBuffer;
  /**
   * A SharedFileCount buffer where every thread counts the robots files longer than
   * `maxBytes` (only their first lines parsed, RFC 9309 §2.5). Default: a count of its own.
   */
  readonly cut?: SharedArrayBuffer;
}

export type Job = CheckJob | ClassifyJob;

/** Rows and counts for one chunk of input lines. */
export interface ChunkResult {
  readonly rows: Uint8Array[];
  readonly count: number;
  readonly allowed: number;
  readonly disallowed: number;
  /** With --agents: lines of the chunk each agent may fetch. */
  readonly agentsAllowed?: Float64Array;
}

/** Turns chunks of complete lines into rows, in order. Calls must not overlap (buffers are reused). */
export interface ChunkProcessor {
  /** With a `sink`, rows are handed to it (views to copy) rather than returned. */
  process(chunk: Uint8Array, sink?: RowSink): ChunkResult | Promise<ChunkResult>;
  /**
   * Takes back rows this processor returned, once they are written and referenced
   * nowhere else, so that their memory serves a later chunk (optional).
   */
  recycle?(rows: Uint8Array): void;
}

/** One table, every line: a single Wasm pass per chunk (rows formatted in Wasm). */
class CheckProcessor implements ChunkProcessor {
  private readonly table: Uint8Array;
  private readonly options: number;

  constructor(job: CheckJob) {
    this.table = job.table ?? Robots.parse(job.robots, { profile: job.profile, ...(job.maxBytes === undefined ? {} : { maxBytes: job.maxBytes }) })
      .forAgent(job.agent).table;
    this.options = rowOptions(job) | (job.outcome === undefined ? 0 : fetchedRowOptions(job.outcome));
  }

  process(chunk: Uint8Array, sink?: RowSink): ChunkResult {
    const { rows, count, allowed, disallowed } = getEngine().formatLineRows(this.table, chunk, true, this.options, sink);
    return { rows, count, allowed, disallowed };
  }
}

/** The processor for `job` in this thread. */
export function createProcessor(job: Job): ChunkProcessor {
  return job.kind === 'check' ? new CheckProcessor(job) : new ClassifyProcessor(job);
}
