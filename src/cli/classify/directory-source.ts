// `classify --robots-dir`: the directory source (DIR/<host>.txt and outcomes.tsv) and its ClassifyProcessor over HostTables.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_MAX_BYTES, Robots } from '../../robots.js';
import {
  getEngine, ROW_HOST, ROW_MISSING_DISALLOW, SPAN_FIELDS, SPAN_HOST_ID, TABLE_NONE, type AgentTables, type RowSink, type SpanBatch,
  type WasmEngine,
} from '../../wasm/index.js';
import { CliError, fileErrorText } from '../errors.js';
import type { ChunkProcessor, ChunkResult, ClassifyJob } from '../jobs.js';
import { NotRegularFileError, readRobotsFile, SharedFileCount } from '../robots-file.js';
import { agentKeys, rowOptions, standInOptions, tableCode } from '../row-options.js';
import { HostTables, Misses, type CachedHost } from './host-tables.js';

/**
 * A place that knows the robots.txt of hosts. `classify` asks once per host (then caches
 * the compiled rules), with the host key as `hostFileName` explains: lowercase host,
 * `:port` kept. `null` means the host has no robots.txt (RFC 9309 §2.3.1.3 "unavailable"):
 * classify then allows everything, or disallows with `--missing disallow`.
 *
 * `load` may return a promise. Fetching (`classify --fetch`) does not go through this
 * seam: its rules belong to an origin, scheme included (RFC 9309 §2.3), and every fetch
 * outcome already is rules (allow-all, disallow-all), so it has its own processor that
 * asks an `OriginRobots` (fetch-source.ts); both cache hosts in one HostTables (host-tables.ts).
 * @example
 * const source: RobotsSource = { load: (host) => host === 'example.com' ? utf8('User-agent: *\nDisallow: /') : null };
 */
export interface RobotsSource {
  load(host: string): Uint8Array | null | Promise<Uint8Array | null>;
  /**
   * For a host `load` found no robots.txt for: whether its fetch was recorded as
   * unavailable (RFC 9309 §2.3.1.3: allowed) or unreachable (§2.3.1.4: disallowed), which
   * decides over `--missing`, or its file could not be read (unreachable too). Undefined:
   * nothing recorded, `--missing` applies.
   */
  outcomeOf?(host: string): FetchedOutcome | undefined;
}

/** A recorded fetch that left no robots.txt file. */
export type FetchedOutcome = 'unavailable' | 'unreachable';

/**
 * The file of a `--robots-dir` that `robotstxt fetch` writes next to the robots.txt files:
 * one row per origin it fetched. Host files end in `.txt`, so no host can collide with it.
 * @example OUTCOMES_FILE // 'outcomes.tsv'
 */
export const OUTCOMES_FILE = 'outcomes.tsv';
/**
 * The header row of OUTCOMES_FILE, and its columns: the origin fetched, its RFC 9309 §2.3.1
 * outcome (ok, unavailable, unreachable), the last HTTP status (`-` when no response came),
 * the robots.txt file name the host has in the directory (written only for ok), and why
 * (fetchRobots' reason: success, client-error, server-error, timeout, network-error, …).
 */
export const OUTCOMES_HEADER = 'origin\toutcome\tstatus\tfile\treason';

/**
 * Reads `DIR/outcomes.tsv` (absent: an empty map) into file name → outcome, for the files
 * whose last row is unavailable or unreachable. Rows are checked: a malformed one is an error
 * that names the file, the line, what was expected and what came.
 * @example readOutcomes('robots/').get('example.com_8080.txt') // 'unreachable'
 */
export function readOutcomes(dir: string): Map<string, FetchedOutcome> {
  const path = join(dir, OUTCOMES_FILE);
  const outcomes = new Map<string, FetchedOutcome>();
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return outcomes;
    throw new CliError(`cannot read ${path}: ${code ?? (error as Error).message}`);
  }
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  lines.forEach((line, index) => {
    if (index === 0 && line === OUTCOMES_HEADER) return;
    const fields = line.split('\t');
    const outcome = fields[1];
    const file = fields[3];
    if (fields.length !== 5 || (outcome !== 'ok' && outcome !== 'unavailable' && outcome !== 'unreachable') || file === undefined || !file.endsWith('.txt')) {
      throw new CliError(
        `${path} line ${index + 1}: expected ${JSON.stringify(OUTCOMES_HEADER)} columns (outcome ok, unavailable or unreachable; file ending .txt), got ${JSON.stringify(line)}`,
      );
    }
    // Runs append: the last row for a file is its current outcome.
    if (outcome === 'ok') outcomes.delete(file);
    else outcomes.set(file, outcome);
  });
  return outcomes;
}

// What a host key may hold to be looked up as a file: RFC 3986 reg-name / IP-literal
// bytes (unreserved, sub-delims, '%', ':' and brackets). Anything else cannot name a file
// we wrote, and could escape the directory, so it is treated as having none.
const HOST_KEY = /^[a-z0-9\-._~!$&'()*+,;=%:[\]]+$/;

/**
 * The file name of a host's robots.txt in a `--robots-dir`: the lowercase host, its
 * `:port` (when the URL has one) written as `_port`, and `.txt`. IPv6 literals keep
 * their brackets. Returns null for keys that cannot name a file (empty, `.`/`..`, or
 * holding bytes outside RFC 3986's host and port syntax).
 * @example hostFileName('example.com') // 'example.com.txt'
 * @example hostFileName('example.com:8080') // 'example.com_8080.txt'
 * @example hostFileName('[2001:db8::1]:443') // '[2001:db8::1]_443.txt'
 */
export function hostFileName(host: string): string | null {
  if (host === '.' || host === '..' || !HOST_KEY.test(host)) return null;
  const portAt = host.lastIndexOf(':');
  // A ':' inside an IPv6 literal is not a port separator.
  if (portAt < 0 || portAt < host.lastIndexOf(']')) return `${host}.txt`;
  return `${host.slice(0, portAt)}_${host.slice(portAt + 1)}.txt`;
}

/**
 * robots.txt files in one directory, named by `hostFileName`. A missing file is a host
 * without robots.txt, unless the directory's outcomes.tsv (written by `robotstxt fetch`)
 * records its fetch as unavailable or unreachable. A path that is no regular file (a
 * FIFO, device, directory or socket) is never read: its host's rules cannot be known, so
 * it is disallowed like an unreachable robots.txt (RFC 9309 §2.3.1.4), with line 0, and
 * counted in `unreadable`. Regular files are read up to the parse limit + 1 bytes
 * (readRobotsFile). Any other read error stops the run.
 * @example new DirectorySource('robots/').load('example.com') // bytes of robots/example.com.txt
 */
export class DirectorySource implements RobotsSource {
  private readonly outcomes: Map<string, FetchedOutcome>;
  /** Hosts whose file `load` refused, until outcomeOf reads them. */
  private readonly refused = new Set<string>();

  /**
   * @param dir the directory of robots.txt files
   * @param unreadable where files that are not regular files are counted (shared with workers)
   * @param maxBytes bytes of a file parsed (--max-robots-bytes): `maxBytes + 1` are read
   * @param cut where files longer than `maxBytes` are counted (shared with workers)
   */
  constructor(
    readonly dir: string,
    readonly unreadable: SharedFileCount = new SharedFileCount(SharedFileCount.buffer()),
    readonly maxBytes: number = DEFAULT_MAX_BYTES,
    readonly cut: SharedFileCount = new SharedFileCount(SharedFileCount.buffer()),
  ) {
    this.outcomes = readOutcomes(dir);
  }

  outcomeOf(host: string): FetchedOutcome | undefined {
    if (this.refused.delete(host)) return 'unreachable';
    const name = hostFileName(host);
    return name === null ? undefined : this.outcomes.get(name);
  }

  load(host: string): Uint8Array | null {
    const name = hostFileName(host);
    if (name === null) return null;
    const path = join(this.dir, name);
    try {
      const body = readRobotsFile(path, this.maxBytes);
      if (body.length > this.maxBytes) this.cut.add(path, `over ${this.maxBytes} bytes`);
      return body;
    } catch (error) {
      if (error instanceof NotRegularFileError) {
        this.unreadable.add(path, error.message);
        this.refused.add(host);
        return null;
      }
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return null;
      throw new CliError(`cannot read ${path}: ${fileErrorText(error)}`);
    }
  }
}

/**
 * A host seen by classify: its compiled table (a TABLE_* code: none), or with --agents one
 * per agent, and its slot (with --agents: its group) in the current batch.
 */
interface DirectoryHost extends CachedHost {
  readonly table: Uint8Array | number | AgentTables;
  /** The table's index in the batch that last used it (negative: its TABLE_* code). */
  slot: number;
}

/** What a reused slot of ClassifyProcessor's batch tables holds between batches. */
const NO_TABLE = new Uint8Array(0);

const latin1 = new TextDecoder('latin1');

/**
 * The ChunkProcessor of `classify --robots-dir`. Per line, Wasm finds the host and looks
 * it up in the engine's HostIndex (HostTables); JS reads one u32 per line. Unknown hosts
 * are loaded from `source` and compiled once per batch, then cached. Calls must not
 * overlap (buffers are reused from batch to batch).
 * @example await runChunks(new ClassifyProcessor(job), input, process.stdout, { window: 1 })
 */
export class ClassifyProcessor implements ChunkProcessor {
  private readonly options: number;
  private readonly hosts: HostTables<DirectoryHost>;
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
  /**
   * With --agents: this batch's groups by slot (group 0: lines without a robots.txt to
   * look for), the agents' JSONL keys and the lines each agent may fetch so far.
   */
  private readonly batchGroups: AgentTables[] = [];
  private readonly keys: Uint8Array[] | null;

  /**
   * @param job what to classify with
   * @param source where robots.txt bodies come from (default: the job's directory)
   * @param engine the Wasm engine to use (default: this thread's)
   */
  constructor(
    private readonly job: ClassifyJob,
    private readonly source: RobotsSource = new DirectorySource(
      job.robotsDir,
      job.unreadable === undefined ? undefined : new SharedFileCount(job.unreadable),
      job.maxBytes,
      job.cut === undefined ? undefined : new SharedFileCount(job.cut),
    ),
    private readonly engine: WasmEngine = getEngine(),
  ) {
    this.options = rowOptions(job) | standInOptions(job.profile) | (job.missing === 'disallow' ? ROW_MISSING_DISALLOW : 0);
    this.hosts = new HostTables(engine, job.cacheHosts);
    this.keys = job.agents === undefined ? null : agentKeys(job.agents);
    if (job.agents !== undefined) this.batchGroups[0] = job.agents.map(() => TABLE_NONE);
  }

  private async compile(key: Uint8Array, hash: number): Promise<DirectoryHost> {
    const host = latin1.decode(key);
    const body = key.length === 0 ? null : await this.source.load(host);
    const agents = this.job.agents;
    let table: Uint8Array | number | AgentTables;
    if (body !== null) {
      const robots = Robots.parse(body, { profile: this.job.profile, maxBytes: this.job.maxBytes ?? DEFAULT_MAX_BYTES });
      table = agents === undefined ? robots.forAgent(this.job.agent).table : robots.forAgents(agents).matchers.map((m) => m.table);
    } else {
      const code = tableCode(key.length === 0 ? null : this.source.outcomeOf?.(host) ?? null);
      table = agents === undefined ? code : agents.map(() => code);
    }
    return { key, hash, table, id: 0, used: 0, slot: -1 };
  }

  /** Gives `host` a slot among this batch's tables (negative: its TABLE_* code). */
  private use(host: DirectoryHost, stamp: number): number {
    if (host.used !== stamp) {
      host.used = stamp;
      if (typeof host.table === 'number') {
        host.slot = host.table;
      } else if (!(host.table instanceof Uint8Array)) {
        host.slot = this.batchTableCount++;
        this.batchGroups[host.slot] = host.table;
      } else {
        host.slot = this.batchTableCount++;
        this.batchTables[host.slot] = host.table;
      }
    }
    return host.slot;
  }

  /**
   * Fills ids[i] (the table slot of line i) for the batch's lines whose host is indexed,
   * and returns the others grouped by host. This is all the per-URL work JS does.
   */
  private assign(bytes: Uint8Array, batch: SpanBatch, stamp: number, ids: Int32Array): Misses<number[]> {
    const { spans } = batch;
    const misses = new Misses<number[]>(() => []);
    let lastId = 0;
    let lastSlot = -1;
    for (let i = 0; i < batch.count; i++) {
      const at = i * SPAN_FIELDS;
      const id = spans[at + SPAN_HOST_ID]!;
      if (id !== 0) {
        if (id !== lastId) {
          lastId = id;
          lastSlot = this.use(this.hosts.byId(id), stamp);
        }
        ids[i] = lastSlot;
        continue;
      }
      ids[i] = -1;
      // No host (a relative URL) or no possible host name: no robots.txt to look for.
      misses.of(bytes, spans, at)?.push(i);
    }
    return misses;
  }

  /** --agents: one row per line with every agent's verdict (lines without a robots.txt read group 0). */
  private formatGroups(bytes: Uint8Array, batch: SpanBatch, ids: Int32Array, agentsAllowed: Float64Array, sink: RowSink | undefined) {
    for (let i = 0; i < batch.count; i++) if (ids[i]! < 0) ids[i] = 0;
    const groups = this.batchGroups.slice(0, this.batchTableCount);
    return this.engine.formatSpanRowsMulti(bytes, batch, ids, groups, this.keys!, this.options | ROW_HOST, agentsAllowed, sink);
  }

  async process(input: Uint8Array, sink?: RowSink): Promise<ChunkResult> {
    const engine = this.engine;
    // A plain view: Buffer's slice() would share memory where a copy is needed.
    const chunk = new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
    this.hosts.index();
    const rows: Uint8Array[] = [];
    let count = 0;
    let allowed = 0;
    let disallowed = 0;
    const agentsAllowed = this.keys === null ? undefined : new Float64Array(this.keys.length);
    let offset = 0;
    while (offset < chunk.length) {
      const bytes = chunk.subarray(offset);
      const batch = engine.scanHosts(bytes, true);
      const stamp = ++this.batches;
      // With --agents, slot 0 is the group of lines without a robots.txt.
      this.batchTableCount = this.keys === null ? 0 : 1;
      if (this.tableIds.length < batch.count) this.tableIds = new Int32Array(batch.count);
      const ids = this.tableIds;
      for (const miss of this.assign(bytes, batch, stamp, ids)) {
        const host = await this.compile(miss.key, miss.hash);
        host.used = stamp;
        this.hosts.add(host);
        host.used = 0; // so that use() gives it a slot in this batch
        const slot = this.use(host, stamp);
        for (const line of miss.lines) ids[line] = slot;
      }
      const result = this.keys === null
        ? engine.formatSpanRows(bytes, batch, ids, this.batchTables, this.options, sink, this.batchTableCount)
        : this.formatGroups(bytes, batch, ids, agentsAllowed!, sink);
      this.batchTables.fill(NO_TABLE, 0, this.batchTableCount);
      rows.push(...result.rows);
      count += result.count;
      allowed += result.allowed;
      disallowed += result.disallowed;
      offset += batch.consumed;
      if (batch.count === 0) break;
    }
    return { rows, count, allowed, disallowed, ...(agentsAllowed === undefined ? {} : { agentsAllowed }) };
  }
}
