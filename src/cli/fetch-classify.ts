// `robotstxt classify --fetch`: each URL against its origin's robots.txt, fetched on demand, rows in input order.
import type { Readable, Writable } from 'node:stream';
import type { FetchLike } from '../fetch/index.js';
import { withUrlInput } from './check.js';
import { DEFAULT_CACHE_HOSTS, perAgentOf, type ClassifyRunOptions } from './classify.js';
import { agentsHeader, type AgentTotals } from './check-agents.js';
import { FetchClassifyProcessor, FetchedRobots, type FetchClassifyJob, type FetchCounts } from './classify/index.js';
import { withCliFetch, type CliFetchOptions } from './fetch.js';
import type { RunTotals } from './output.js';
import { runChunks } from './run.js';

// The fetch source and its processor live with the directory ones in classify/.
export { FetchClassifyProcessor, FetchedRobots, type FetchClassifyJob, type FetchCounts } from './classify/index.js';

/**
 * robots.txt fetches running at once, by default (`--concurrency`).
 * @example DEFAULT_CONCURRENCY // 8
 */
export const DEFAULT_CONCURRENCY = 8;
/**
 * Longest wait between two robots.txt requests to one host, by default (`--max-delay-ms`).
 * @example DEFAULT_MAX_DELAY_MS // 30_000: a `Crawl-delay: 86400` waits 30 s, not a day
 */
export const DEFAULT_MAX_DELAY_MS = 30_000;
/**
 * Input bytes per chunk with --fetch, by default: small, so rows flow while hosts are fetched.
 * @example FETCH_CHUNK_BYTES // 65_536
 */
export const FETCH_CHUNK_BYTES = 64 << 10;
/**
 * Chunks read ahead while robots.txt files are fetched (the window): with the default
 * chunk size, up to 1 MiB of URLs waits for its hosts. Output keeps input order: a
 * chunk's rows are written once every origin in it and every earlier chunk is decided.
 * @example FETCH_WINDOW_CHUNKS * FETCH_CHUNK_BYTES // 1 MiB of URLs pending at most
 */
export const FETCH_WINDOW_CHUNKS = 16;

/** Options of {@link runFetchClassify}. */
export interface FetchClassifyOptions extends ClassifyRunOptions, CliFetchOptions {
  readonly concurrency?: number;
  readonly maxDelayMs?: number;
  /** For tests: the HTTP client. */
  readonly fetch?: FetchLike;
}

/** Totals of a `classify --fetch` run, with the robots.txt outcomes. */
export interface FetchClassifyTotals extends RunTotals {
  readonly robots: FetchCounts;
  /** robots.txt fetched ok but longer than --max-robots-bytes (only their first lines used). */
  readonly cutRobots: number;
  /** With --agents: each agent's counts. */
  readonly perAgent?: readonly AgentTotals[];
}

/**
 * Runs `classify --fetch`: each URL line against the robots.txt of its origin, fetched on
 * demand, one `allow|disallow<TAB>LINE<TAB>HOST<TAB>URL` row (or JSON object) each, in
 * input order. Outcomes follow RFC 9309 §2.3.1: 2xx → the file's rules, 4xx → allow all,
 * 5xx / network / timeout → disallow all.
 * @example await runFetchClassify({ agent: 'ExampleBot', profile: 'rfc', userAgent: 'ExampleBot/1.0', urlsPath: 'urls.txt' }, process.stdin, process.stdout)
 */
export async function runFetchClassify(options: FetchClassifyOptions, stdin: Readable, stdout: Writable): Promise<FetchClassifyTotals> {
  // The HTTP client is closed after the last row (see withCliFetch).
  return withCliFetch(options.fetch, options.timeoutMs, (fetch) => runWithFetch({ ...options, fetch }, stdin, stdout));
}

async function runWithFetch(options: FetchClassifyOptions, stdin: Readable, stdout: Writable): Promise<FetchClassifyTotals> {
  const cacheHosts = options.cacheHosts ?? DEFAULT_CACHE_HOSTS;
  const source = new FetchedRobots({
    userAgent: options.userAgent,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes }),
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    agent: options.agent,
    profile: options.profile,
    cacheHosts,
    concurrency: options.concurrency ?? DEFAULT_CONCURRENCY,
    maxDelayMs: options.maxDelayMs ?? DEFAULT_MAX_DELAY_MS,
  });
  const job: FetchClassifyJob = {
    agent: options.agent,
    ...(options.agents === undefined ? {} : { agents: options.agents }),
    profile: options.profile,
    missing: options.missing ?? 'allow',
    cacheHosts,
    format: options.format ?? 'tsv',
    only: options.only ?? null,
  };
  const processor = new FetchClassifyProcessor(job, source);
  const chunkBytes = options.chunkBytes ?? FETCH_CHUNK_BYTES;
  const rows = { format: job.format, only: job.only, host: true, outcome: true, ...(options.agents === undefined ? {} : { agents: options.agents }) };
  if (options.agents !== undefined && options.header === true) stdout.write(agentsHeader(options.agents, true));
  const totals = await withUrlInput(options.urlsPath, stdin, { readBytes: chunkBytes, maxUrlBytes: options.maxUrlBytes }, (input) =>
    runChunks(processor, input, stdout, { window: FETCH_WINDOW_CHUNKS, chunkBytes, progress: options.progress ?? null, rows }),
  );
  return { ...totals, robots: { ...source.counts }, cutRobots: source.cut, ...perAgentOf(options.agents, totals) };
}

/**
 * The line printed after the summary of `classify --fetch`.
 * @example formatFetchCounts({ ok: 2, unavailable: 1, unreachable: 0 }) // 'robots.txt: 2 ok, 1 unavailable (all allowed), 0 unreachable (all disallowed)'
 */
export function formatFetchCounts(counts: FetchCounts): string {
  return `robots.txt: ${counts.ok} ok, ${counts.unavailable} unavailable (all allowed), ${counts.unreachable} unreachable (all disallowed)`;
}
