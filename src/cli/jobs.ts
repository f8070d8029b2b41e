// What `check` and `classify` do to one chunk of input lines, on the main thread or in a worker.
import { Robots } from '../robots.js';
import type { Profile } from '../parse/lexer.js';
import { profileFlags } from '../rules/compile.js';
import {
  getEngine, ROW_JSONL, ROW_MISSING_DISALLOW, ROW_ONLY_ALLOWED, ROW_ONLY_DISALLOWED, ROW_OUTCOME, ROW_UNAVAILABLE, ROW_UNREACHABLE,
  SPAN_FIELDS, SPAN_HOST_HASH, SPAN_HOST_ID, SPAN_HOST_LENGTH, SPAN_HOST_START, TABLE_NONE, TABLE_UNAVAILABLE, TABLE_UNREACHABLE,
} from '../wasm/index.js';
import type { RobotsFetchStatus } from '../fetch/index.js';
import { DirectorySource, type RobotsSource } from './source.js';
import type { RowSink, SpanBatch, WasmEngine } from '../wasm/index.js';

/** How rows are written and which are kept. */
export interface RowFormat {
  readonly format: 'tsv' | 'jsonl';
  /** Keep only these verdicts (`--only`); null keeps every row. */
  readonly only: 'allowed' | 'disallowed' | null;
}

/** `check`: one robots.txt body for every URL. Plain data, so it can be posted to a worker. */
export interface CheckJob extends RowFormat {
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
export interface ClassifyJob extends RowFormat {
  readonly kind: 'classify';
  readonly robotsDir: string;
  readonly agent: string;
  readonly profile: Profile;
  /** What a host without robots.txt gets (RFC 9309 §2.3.1.3 says allow). */
  readonly missing: 'allow' | 'disallow';
  /** Compiled hosts kept (least recently used dropped first). */
  readonly cacheHosts: number;
}

export type Job = CheckJob | ClassifyJob;

/** Rows and counts for one chunk of input lines. */
export interface ChunkResult {
  readonly rows: Uint8Array[];
  readonly count: number;
  readonly allowed: number;
  readonly disallowed: number;
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

/**
 * The ROW_* options (src/wasm.ts) that write `job`'s format and keep its `--only` rows.
 * @example rowOptions({ format: 'jsonl', only: null }) // ROW_JSONL
 */
export function rowOptions(job: RowFormat): number {
  let options = job.format === 'jsonl' ? ROW_JSONL : 0;
  if (job.only === 'allowed') options |= ROW_ONLY_ALLOWED;
  else if (job.only === 'disallowed') options |= ROW_ONLY_DISALLOWED;
  return options;
}

/**
 * The ROW_* options that mark rows as decided by a fetched robots.txt with this outcome
 * (RFC 9309 §2.3.1): JSONL rows get an `"outcome"` field; unavailable and unreachable
 * rows get line 0, since the allow-all / disallow-all rules standing in have no file.
 * @example fetchedRowOptions('unreachable') // ROW_OUTCOME | ROW_UNREACHABLE
 */
export function fetchedRowOptions(outcome: RobotsFetchStatus): number {
  if (outcome === 'unreachable') return ROW_OUTCOME | ROW_UNREACHABLE;
  return outcome === 'unavailable' ? ROW_OUTCOME | ROW_UNAVAILABLE : ROW_OUTCOME;
}

/**
 * The negative table id (src/wasm.ts TABLE_*) for a robots.txt that was not fetched `ok`,
 * or for none at all (null): the line gets line 0 and the outcome's verdict.
 * @example tableCode('unreachable') // TABLE_UNREACHABLE: disallowed, RFC 9309 §2.3.1.4
 */
export function tableCode(outcome: 'unavailable' | 'unreachable' | null): number {
  if (outcome === 'unreachable') return TABLE_UNREACHABLE;
  return outcome === 'unavailable' ? TABLE_UNAVAILABLE : TABLE_NONE;
}

/**
 * The bits formatSpanRows reads for lines without a table (assembly/index.ts formatSpans):
 * the profile's table flags in bits 16-31, so that a TABLE_UNREACHABLE line keeps
 * /robots.txt allowed where the profile does (RFC 9309 §2.2.2), like Robots.disallowAll().
 * @example standInOptions('rfc') // (FLAG_NORMALIZE_URL | FLAG_IMPLICIT_ROBOTS_TXT) << 16
 */
export function standInOptions(profile: Profile): number {
  return profileFlags(profile) << 16;
}

/** One table, every line: a single Wasm pass per chunk (rows formatted in Wasm). */
class CheckProcessor implements ChunkProcessor {
  private readonly table: Uint8Array;
  private readonly options: number;

  constructor(job: CheckJob) {
    this.table = job.table ?? Robots.parse(job.robots, { profile: job.profile }).forAgent(job.agent).table;
    this.options = rowOptions(job) | (job.outcome === undefined ? 0 : fetchedRowOptions(job.outcome));
  }

  process(chunk: Uint8Array, sink?: RowSink): ChunkResult {
    const { rows, count, allowed, disallowed } = getEngine().formatLineRows(this.table, chunk, true, this.options, sink);
    return { rows, count, allowed, disallowed };
  }
}

/** Lines of one batch whose host is not cached yet (hosts with equal hashes chained). */
interface Miss {
  readonly key: Uint8Array;
  readonly hash: number;
  readonly lines: number[];
  readonly next: Miss | undefined;
}

/** A host seen by classify: its lowercase key bytes and compiled table (a TABLE_* code: none). */
interface HostEntry {
  readonly key: Uint8Array;
  readonly hash: number;
  readonly table: Uint8Array | number;
  /** Last batch that used it (eviction order), and its table's index in that batch. */
  used: number;
  slot: number;
}

/** Longest host[:port] looked up: RFC 1035 names are at most 253 bytes. */
export const MAX_HOST_BYTES = 260;
/** What a reused slot of ClassifyProcessor's batch tables holds between batches. */
const NO_TABLE = new Uint8Array(0);

const latin1 = new TextDecoder('latin1');

/**
 * Whether bytes[start, start + length), ASCII-lowercased, equal `key`.
 * @example sameHost(utf8('https://A.example/'), 8, 9, utf8('a.example')) // true
 */
export function sameHost(bytes: Uint8Array, start: number, length: number, key: Uint8Array): boolean {
  if (length !== key.length) return false;
  for (let k = 0; k < length; k++) {
    let c = bytes[start + k]!;
    if (c >= 0x41 && c <= 0x5a) c |= 0x20;
    if (c !== key[k]) return false;
  }
  return true;
}

/**
 * Per line, Wasm finds the host and looks it up in the engine's HostIndex (src/wasm.ts),
 * which maps every cached host to its id here; JS reads one u32 per line. Unknown hosts
 * are loaded and compiled once and added to the index. At most `cacheHosts` hosts are
 * kept: on overflow the least recently used quarter is dropped and the index rebuilt.
 */
export class ClassifyProcessor implements ChunkProcessor {
  private readonly options: number;
  /** Cached hosts by HostIndex id (id 0 is never used). */
  private readonly entries: (HostEntry | undefined)[] = [undefined];
  private readonly freeIds: number[] = [];
  private cached = 0;
  private batches = 0;
  private tableIds = new Int32Array(0);
  /**
   * The tables of the current batch by slot, [0, batchTableCount), in one array kept from
   * batch to batch: building a fresh array per batch (up to one entry per cached host)
   * was nearly all the streaming loop allocated (about 150 MB per 10M URLs over 2,343
   * hosts), and so most of the young generation's growth. Slots past the count hold
   * NO_TABLE, not stale tables the cache has let go.
   */
  private readonly batchTables: Uint8Array[] = [];
  private batchTableCount = 0;
  private indexed = false;

  /**
   * @param job what to classify with
   * @param source where robots.txt bodies come from (default: the job's directory)
   * @param engine the Wasm engine to use (default: this thread's)
   */
  constructor(
    private readonly job: ClassifyJob,
    private readonly source: RobotsSource = new DirectorySource(job.robotsDir),
    private readonly engine: WasmEngine = getEngine(),
  ) {
    this.options = rowOptions(job) | standInOptions(job.profile) | (job.missing === 'disallow' ? ROW_MISSING_DISALLOW : 0);
  }

  private async compile(key: Uint8Array, hash: number): Promise<HostEntry> {
    const host = latin1.decode(key);
    const body = key.length === 0 ? null : await this.source.load(host);
    const table = body !== null
      ? Robots.parse(body, { profile: this.job.profile }).forAgent(this.job.agent).table
      : tableCode(key.length === 0 ? null : this.source.outcomeOf?.(host) ?? null);
    return { key, hash, table, used: 0, slot: -1 };
  }

  /** Refills the engine's HostIndex with every cached host. */
  private rebuildIndex(): void {
    const engine = this.engine;
    engine.resetHostIndex(this.job.cacheHosts);
    for (let id = 1; id < this.entries.length; id++) {
      const e = this.entries[id];
      if (e !== undefined && !engine.insertHost(e.key, e.hash, id)) this.drop(id);
    }
  }

  private drop(id: number): void {
    this.entries[id] = undefined;
    this.freeIds.push(id);
    this.cached--;
  }

  /** Caches `entry` (evicting the least recently used quarter when full) and indexes it. */
  private remember(entry: HostEntry): void {
    if (this.cached >= this.job.cacheHosts) this.evictQuarter();
    const id = this.freeIds.pop() ?? this.entries.length;
    this.entries[id] = entry;
    this.cached++;
    // The index ran out of key space (a dropped host's key bytes come back only when the
    // index is rebuilt): make room the same way, which also re-adds `entry`.
    if (!this.engine.insertHost(entry.key, entry.hash, id)) this.evictQuarter();
  }

  /**
   * Drops the least recently used quarter of the cached hosts (at least one) and
   * rebuilds the index. Hosts the current batch uses may go too: their tables already
   * hold their slots in this batch. (Keeping them let a batch naming more hosts than the
   * cache holds evict nothing, and every later miss rebuilt the index.)
   */
  private evictQuarter(): void {
    const live: number[] = [];
    for (let id = 1; id < this.entries.length; id++) if (this.entries[id] !== undefined) live.push(id);
    live.sort((a, b) => this.entries[a]!.used - this.entries[b]!.used);
    const drop = Math.max(1, live.length >> 2);
    for (let k = 0; k < drop; k++) this.drop(live[k]!);
    this.rebuildIndex();
  }

  /** Gives `entry` a slot among this batch's tables (negative: its TABLE_* code). */
  private use(entry: HostEntry, stamp: number): number {
    if (entry.used !== stamp) {
      entry.used = stamp;
      entry.slot = typeof entry.table === 'number' ? entry.table : -1;
      if (typeof entry.table !== 'number') {
        entry.slot = this.batchTableCount++;
        this.batchTables[entry.slot] = entry.table;
      }
    }
    return entry.slot;
  }

  /**
   * Fills ids[i] (the table slot of line i) for the batch's lines whose host is indexed,
   * and returns the others grouped by host. This is all the per-URL work JS does.
   */
  private assign(bytes: Uint8Array, batch: SpanBatch, stamp: number, ids: Int32Array): Map<number, Miss> {
    const { spans } = batch;
    const misses = new Map<number, Miss>();
    let lastId = 0;
    let lastSlot = -1;
    for (let i = 0; i < batch.count; i++) {
      const at = i * SPAN_FIELDS;
      const id = spans[at + SPAN_HOST_ID]!;
      if (id !== 0) {
        if (id !== lastId) {
          lastId = id;
          lastSlot = this.use(this.entries[id]!, stamp);
        }
        ids[i] = lastSlot;
        continue;
      }
      const start = spans[at + SPAN_HOST_START]!;
      const length = spans[at + SPAN_HOST_LENGTH]!;
      ids[i] = -1;
      // No host (a relative URL) or no possible host name: no robots.txt to look for.
      if (length === 0 || length > MAX_HOST_BYTES) continue;
      const hash = spans[at + SPAN_HOST_HASH]!;
      let miss = misses.get(hash);
      while (miss !== undefined && !sameHost(bytes, start, length, miss.key)) miss = miss.next;
      if (miss === undefined) {
        const key = bytes.slice(start, start + length); // a copy: the cache outlives the chunk
        for (let k = 0; k < key.length; k++) if (key[k]! >= 0x41 && key[k]! <= 0x5a) key[k] = key[k]! | 0x20;
        miss = { key, hash, lines: [], next: misses.get(hash) };
        misses.set(hash, miss);
      }
      miss.lines.push(i);
    }
    return misses;
  }

  async process(input: Uint8Array, sink?: RowSink): Promise<ChunkResult> {
    const engine = this.engine;
    // A plain view: Buffer's slice() would share memory where a copy is needed.
    const chunk = new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
    if (!this.indexed) {
      this.rebuildIndex();
      this.indexed = true;
    }
    const rows: Uint8Array[] = [];
    let count = 0;
    let allowed = 0;
    let disallowed = 0;
    let offset = 0;
    while (offset < chunk.length) {
      const bytes = chunk.subarray(offset);
      const batch = engine.scanHosts(bytes, true);
      const stamp = ++this.batches;
      this.batchTableCount = 0;
      if (this.tableIds.length < batch.count) this.tableIds = new Int32Array(batch.count);
      const ids = this.tableIds;
      const misses = this.assign(bytes, batch, stamp, ids);
      for (const head of misses.values()) {
        for (let miss: Miss | undefined = head; miss !== undefined; miss = miss.next) {
          const entry = await this.compile(miss.key, miss.hash);
          entry.used = stamp;
          this.remember(entry);
          entry.used = 0; // so that use() gives it a slot in this batch
          const slot = this.use(entry, stamp);
          for (const line of miss.lines) ids[line] = slot;
        }
      }
      const result = engine.formatSpanRows(bytes, batch, ids, this.batchTables, this.options, sink, this.batchTableCount);
      this.batchTables.fill(NO_TABLE, 0, this.batchTableCount);
      rows.push(...result.rows);
      count += result.count;
      allowed += result.allowed;
      disallowed += result.disallowed;
      offset += batch.consumed;
      if (batch.count === 0) break;
    }
    return { rows, count, allowed, disallowed };
  }
}

/** The processor for `job` in this thread. */
export function createProcessor(job: Job): ChunkProcessor {
  return job.kind === 'check' ? new CheckProcessor(job) : new ClassifyProcessor(job);
}
