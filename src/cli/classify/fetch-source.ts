// `classify --fetch`: the fetch source (each origin's robots.txt through a RobotsCache, politely) and its processor over HostTables.
import { createHostPoliteness, originOf, RobotsCache, type FetchLike, type HostPoliteness, type RobotsFetchResult } from '../../fetch/index.js';
import { LruMap } from '../../fetch/lru.js';
import type { Profile } from '../../parse/lexer.js';
import { isValidProductToken } from '../../parse/product-token.js';
import {
  getEngine, ROW_HOST, ROW_MISSING_DISALLOW, ROW_OUTCOME, SPAN_FIELDS, TABLE_NONE, type AgentTables, SPAN_HOST_ID, SPAN_LINE_LENGTH, SPAN_LINE_START, type SpanBatch,
  type WasmEngine,
} from '../../wasm/index.js';
import type { CliFetchOptions } from '../fetch.js';
import type { ChunkProcessor, ChunkResult } from '../jobs.js';
import { agentKeys, rowOptions, standInOptions, tableCode, type RowFormat } from '../row-options.js';
import { HostTables, Misses, type CachedHost } from './host-tables.js';

/** Settings of a `classify --fetch` run. */
export interface FetchClassifyJob extends RowFormat {
  readonly agent: string;
  /** `--agents`: every agent's verdict per row (MULTI rows); `agent` is then agents[0]. */
  readonly agents?: readonly string[];
  readonly profile: Profile;
  /** What a line without an http(s) origin gets (relative URL, other scheme, bad host). */
  readonly missing: 'allow' | 'disallow';
  /** Hosts kept compiled, and origins kept by the RobotsCache (least recently used dropped first). */
  readonly cacheHosts: number;
}

/** Where the processor gets the rules of an origin (`scheme://authority`), and how they were fetched. */
export interface OriginRobots {
  load(origin: string): Promise<Pick<RobotsFetchResult, 'robots' | 'status'>>;
}

/** robots.txt outcomes of a run, one count per fetch. */
export interface FetchCounts {
  ok: number;
  unavailable: number;
  unreachable: number;
}

/** Options of {@link FetchedRobots}. */
export interface FetchedRobotsOptions extends CliFetchOptions {
  readonly agent: string;
  readonly profile: Profile;
  /** Origins kept by the RobotsCache. */
  readonly cacheHosts: number;
  /** Fetches at once (RobotsCache's limiter). */
  readonly concurrency: number;
  /** Cap on the crawl-delay honoured between two robots.txt requests to one host. */
  readonly maxDelayMs: number;
  /** For tests: the HTTP client, the politeness scheduler. */
  readonly fetch?: FetchLike;
  readonly politeness?: HostPoliteness;
}

/** Hosts whose politeness slots and crawl-delays are remembered, at least. */
const POLITE_HOSTS = 10_000;

/**
 * The key politeness slots are booked under: one per host and port, whatever the scheme
 * (http:// and https:// of a site are one server to be polite to).
 */
function hostSlotKey(origin: string): string {
  return `http://${new URL(origin).host}`;
}

/**
 * Each origin's robots.txt through a {@link RobotsCache} (fetched once, shared by
 * concurrent callers, `concurrency` at a time, RFC 9309 §2.3.1 outcomes), with requests
 * to one host spaced by its crawl-delay for `agent` (createHostPoliteness, capped at
 * `maxDelayMs`). The first request to a host never waits: its crawl-delay is not known
 * yet. Waits happen before a fetch takes a concurrency slot, so a slow host holds none.
 * @example
 * const robots = new FetchedRobots({ userAgent: 'ExampleBot/1.0', agent: 'ExampleBot', profile: 'rfc', cacheHosts: 1000, concurrency: 8, maxDelayMs: 30_000 });
 * (await robots.load('https://example.com')).robots.isAllowed('https://example.com/x', 'ExampleBot'); // true or false
 */
export class FetchedRobots implements OriginRobots {
  /** Outcomes so far, one per fetch made. */
  readonly counts: FetchCounts = { ok: 0, unavailable: 0, unreachable: 0 };
  /** robots.txt fetched ok but longer than the parse limit (`maxBytes`): only its first lines were used. */
  cut = 0;
  private readonly cache: RobotsCache;
  private readonly polite: HostPoliteness;
  /** Last known gap (crawl-delay, clamped) per host slot key. */
  private readonly delays: LruMap<string, number>;
  private readonly counted = new WeakSet<RobotsFetchResult>();

  constructor(private readonly options: FetchedRobotsOptions) {
    // RobotsCache matches nothing itself here (rows are matched in Wasm for --agent), but it
    // needs a valid RFC 9309 §2.2.1 product token: --agent when it is one.
    const productToken = isValidProductToken(options.agent) ? options.agent : 'robotstxt';
    this.cache = new RobotsCache({
      userAgent: options.userAgent,
      productToken,
      profile: options.profile,
      maxEntries: options.cacheHosts,
      concurrency: options.concurrency,
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      ...(options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes }),
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    });
    // Hosts are fetched again after they leave the cache, so politeness remembers more of
    // them than the cache holds (a few dozen bytes each).
    const politeHosts = Math.max(options.cacheHosts, POLITE_HOSTS);
    this.polite = options.politeness ?? createHostPoliteness({ maxDelayMs: options.maxDelayMs, maxHosts: politeHosts });
    this.delays = new LruMap(politeHosts);
  }

  /** The fetch of `origin`'s robots.txt (cached; RFC 9309 §2.3.1 status and the rules it means). */
  async load(origin: string): Promise<RobotsFetchResult> {
    const key = hostSlotKey(origin);
    const known = this.cache.peek(origin);
    // Only a request waits its turn; an answer the cache still holds is free.
    if (known === undefined || Date.now() >= known.expiresAt) await this.polite.wait(key, this.delays.get(key) ?? 0);
    const entry = await this.cache.get(origin);
    if (!this.counted.has(entry.result)) {
      this.counted.add(entry.result);
      this.counts[entry.result.status]++;
      if (entry.result.status === 'ok' && entry.result.truncated) this.cut++;
      const first = this.delays.get(key) === undefined;
      const delay = this.polite.delayFor(entry.robots, this.options.agent);
      this.delays.set(key, delay);
      // This host's first request booked no gap (its crawl-delay was unknown): book it now,
      // so the next request to the host waits `delay` from here. Nothing is booked after
      // now yet, so this does not wait.
      if (first && delay > 0) await this.polite.wait(key, delay);
    }
    return entry.result;
  }
}

/** Scheme numbers: index into a host's tables. */
const HTTP = 0;
const HTTPS = 1;
/** The prefix of an origin per scheme number. */
export const SCHEME_PREFIX = ['http://', 'https://'] as const;

/**
 * 0 for a line starting `http://`, 1 for `https://` (ASCII case-insensitive), -1 otherwise:
 * only those name an origin whose robots.txt can be fetched (RFC 9309 §2.3).
 * @example schemeOf(new TextEncoder().encode('HTTPS://a.example/'), 0, 18) // 1
 */
export function schemeOf(bytes: Uint8Array, at: number, length: number): number {
  const end = at + length;
  if (length < 8 || (bytes[at]! | 0x20) !== 0x68 || (bytes[at + 1]! | 0x20) !== 0x74 || (bytes[at + 2]! | 0x20) !== 0x74 || (bytes[at + 3]! | 0x20) !== 0x70) {
    return -1;
  }
  let k = at + 4;
  let scheme = HTTP;
  if ((bytes[k]! | 0x20) === 0x73) {
    scheme = HTTPS;
    k++;
  }
  return k + 3 <= end && bytes[k] === 0x3a && bytes[k + 1] === 0x2f && bytes[k + 2] === 0x2f ? scheme : -1;
}

/**
 * Rules of one origin, compiled for the agent: a table (fetched ok), a TABLE_* code (src/table/abi.ts:
 * unavailable, unreachable, or no usable origin), undefined (not loaded).
 */
type OriginTable = Rules | undefined;

/** Compiled rules of an origin: one table, a TABLE_* code, or with --agents one of either per agent. */
type Rules = Uint8Array | number | AgentTables;

/** A host seen: per scheme, its origin's compiled rules. */
interface FetchHost extends CachedHost {
  readonly tables: [OriginTable, OriginTable];
}

/** One scanHosts batch whose rows are made once its origins are known. */
interface PendingBatch {
  readonly bytes: Uint8Array;
  readonly batch: SpanBatch;
  readonly ids: Int32Array;
  /** Tables by slot (with --agents: groups, 0 the one of lines without an http(s) origin). */
  readonly tables: (Uint8Array | AgentTables)[];
  readonly slots: Map<Uint8Array | AgentTables, number>;
  /** Per origin still loading: its promise and the lines that wait for it. */
  readonly waits: { readonly table: Promise<Rules>; readonly lines: number[] }[];
}

const utf8 = new TextDecoder();

/**
 * The ChunkProcessor of `classify --fetch`. Per line, Wasm finds the host and looks it up
 * in the engine's HostIndex (as for --robots-dir); JS reads the line's scheme (http or
 * https: the rules belong to the origin, RFC 9309 §2.3) and uses that host's table for it.
 * Unknown origins are loaded through `source` once, all at the same time, while the
 * batch waits. Calls may overlap (runChunks' window): each keeps its own copy of the chunk,
 * spans and slots, and rows are made when its origins are known.
 * @example
 * const processor = new FetchClassifyProcessor(job, new FetchedRobots({ … }));
 * await runChunks(processor, input, process.stdout, { window: FETCH_WINDOW_CHUNKS });
 */
export class FetchClassifyProcessor implements ChunkProcessor {
  private readonly options: number;
  private readonly hosts: HostTables<FetchHost>;
  /** Origins being loaded: every batch that needs one waits for the same promise. */
  private readonly loading = new Map<string, Promise<Rules>>();
  private batches = 0;
  /** With --agents: the agents' JSONL keys, and the group of lines without an http(s) origin. */
  private readonly keys: Uint8Array[] | null;
  private readonly noOrigin: AgentTables;

  constructor(
    private readonly job: FetchClassifyJob,
    private readonly source: OriginRobots,
    private readonly engine: WasmEngine = getEngine(),
  ) {
    // JSONL rows say how their robots.txt was fetched; unavailable/unreachable rows get line 0.
    this.options = rowOptions(job) | ROW_OUTCOME | standInOptions(job.profile) | (job.missing === 'disallow' ? ROW_MISSING_DISALLOW : 0);
    this.hosts = new HostTables(engine, job.cacheHosts);
    this.keys = job.agents === undefined ? null : agentKeys(job.agents);
    this.noOrigin = (job.agents ?? []).map(() => TABLE_NONE);
  }

  async process(input: Uint8Array): Promise<ChunkResult> {
    const engine = this.engine;
    // An own copy: rows are made after awaits, when the reader has reused its buffer.
    const chunk = new Uint8Array(input);
    this.hosts.index();
    // Every batch is scanned and its loads started before the first await.
    const pending: PendingBatch[] = [];
    let offset = 0;
    while (offset < chunk.length) {
      const bytes = chunk.subarray(offset);
      const batch = engine.scanHosts(bytes, true);
      pending.push(this.prepare(bytes, batch));
      offset += batch.consumed;
      if (batch.count === 0) break;
    }
    const rows: Uint8Array[] = [];
    let count = 0;
    let allowed = 0;
    let disallowed = 0;
    const agentsAllowed = this.keys === null ? undefined : new Float64Array(this.keys.length);
    for (const p of pending) {
      for (const wait of p.waits) {
        const slot = slotOf(await wait.table, p);
        for (const line of wait.lines) p.ids[line] = slot;
      }
      let result;
      if (this.keys === null) {
        result = engine.formatSpanRows(p.bytes, p.batch, p.ids, p.tables as Uint8Array[], this.options);
      } else {
        // Lines without an http(s) origin read group 0.
        for (let i = 0; i < p.batch.count; i++) if (p.ids[i]! < 0) p.ids[i] = 0;
        result = engine.formatSpanRowsMulti(p.bytes, p.batch, p.ids, p.tables as AgentTables[], this.keys, this.options | ROW_HOST, agentsAllowed!);
      }
      rows.push(...result.rows);
      count += result.count;
      allowed += result.allowed;
      disallowed += result.disallowed;
    }
    return { rows, count, allowed, disallowed, ...(agentsAllowed === undefined ? {} : { agentsAllowed }) };
  }

  /** Copies the batch, gives each line of a known origin its table slot and starts loading the others. */
  private prepare(bytes: Uint8Array, scanned: SpanBatch): PendingBatch {
    const batch: SpanBatch = { spans: scanned.spans.slice(0, scanned.count * SPAN_FIELDS), count: scanned.count, consumed: scanned.consumed };
    const { spans } = batch;
    const stamp = ++this.batches;
    const p: PendingBatch = { bytes, batch, ids: new Int32Array(batch.count), tables: [], slots: new Map(), waits: [] };
    if (this.keys !== null) slotOf(this.noOrigin, p);
    const waiting = new Misses<[number[], number[]]>(() => [[], []]);
    let lastId = 0;
    let lastScheme = -1;
    let lastSlot = -1;
    for (let i = 0; i < batch.count; i++) {
      const at = i * SPAN_FIELDS;
      const scheme = schemeOf(bytes, spans[at + SPAN_LINE_START]!, spans[at + SPAN_LINE_LENGTH]!);
      const id = spans[at + SPAN_HOST_ID]!;
      p.ids[i] = -1;
      // No http(s) origin: nothing to fetch, the line gets the --missing verdict.
      if (scheme < 0) continue;
      if (id !== 0) {
        if (id === lastId && scheme === lastScheme) {
          p.ids[i] = lastSlot;
          continue;
        }
        const host = this.hosts.byId(id);
        host.used = stamp;
        const table = host.tables[scheme];
        if (table !== undefined) {
          lastId = id;
          lastScheme = scheme;
          lastSlot = p.ids[i] = slotOf(table, p);
          continue;
        }
      }
      waiting.of(bytes, spans, at)?.[scheme]!.push(i);
    }
    for (const wait of waiting) {
      for (const scheme of [HTTP, HTTPS]) {
        const lines = wait.lines[scheme]!;
        if (lines.length > 0) p.waits.push({ table: this.load(wait.key, wait.hash, scheme), lines });
      }
    }
    return p;
  }

  /** The compiled rules of `scheme://key`, loaded once however many batches ask. */
  private load(key: Uint8Array, hash: number, scheme: number): Promise<Rules> {
    const name = utf8.decode(key);
    const origin = `${SCHEME_PREFIX[scheme]}${name}`;
    let table = this.loading.get(origin);
    if (table === undefined) {
      table = this.compile(origin)
        .then((compiled) => {
          this.store(key, hash, scheme, compiled);
          return compiled;
        })
        .finally(() => this.loading.delete(origin));
      this.loading.set(origin, table);
    }
    return table;
  }

  private async compile(origin: string): Promise<Rules> {
    const agents = this.job.agents;
    let valid: string;
    try {
      valid = originOf(origin);
    } catch {
      // Not a host a request could go to (bad port, bad bytes): like a relative URL.
      return agents === undefined ? tableCode(null) : this.noOrigin;
    }
    const { robots, status } = await this.source.load(valid);
    // RFC 9309 §2.3.1.3/§2.3.1.4: allow-all or disallow-all with no file behind it, so
    // no rule line decides: a code, whose rows get line 0 and their outcome.
    if (agents === undefined) return status === 'ok' ? robots.forAgent(this.job.agent).table : tableCode(status);
    return status === 'ok' ? robots.forAgents(agents).matchers.map((m) => m.table) : agents.map(() => tableCode(status));
  }

  /** Keeps `table` as the rules of `scheme` on host `key` (caching and indexing the host if new). */
  private store(key: Uint8Array, hash: number, scheme: number, table: Rules): void {
    let host = this.hosts.find(key);
    if (host === undefined) {
      host = { key, hash, tables: [undefined, undefined], id: 0, used: this.batches };
      this.hosts.add(host);
    }
    host.tables[scheme] = table;
  }
}

/** The slot of `table` among the batch's tables (a TABLE_* code stands for itself). */
function slotOf(table: Rules, p: PendingBatch): number {
  if (typeof table === 'number') return table;
  let slot = p.slots.get(table);
  if (slot === undefined) {
    slot = p.tables.length;
    p.tables.push(table);
    p.slots.set(table, slot);
  }
  return slot;
}

