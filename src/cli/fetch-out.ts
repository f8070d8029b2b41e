// `robotstxt fetch --out DIR`: each origin's robots.txt fetched once and written where `classify --robots-dir` reads it.
import { appendFileSync, copyFileSync, existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable, type Readable } from 'node:stream';
import { DEFAULT_MAX_BYTES, originOf, type FetchLike, type RobotsFetchResult } from '../fetch/index.js';
import type { Profile } from '../parse/lexer.js';
import { getEngine, SPAN_FIELDS, SPAN_HOST_LENGTH, SPAN_HOST_START, SPAN_LINE_LENGTH, SPAN_LINE_START, type WasmEngine } from '../wasm/index.js';
import { withUrlInput, type UrlPaths } from './check.js';
import { DEFAULT_CACHE_HOSTS } from './classify.js';
import { checkAgent } from './agent.js';
import { stringOption, type Command } from './command.js';
import { CliError, fileErrorText } from './errors.js';
import { withCliFetch, type CliFetchOptions } from './fetch.js';
import { FETCH_OPTIONS, MAX_ROBOTS_OPTION, checkUrlInputs, fetchSettings, maxRobotsBytes, milliseconds, oneOf, positiveInteger } from './options.js';
import { productTokenOf } from '../fetch/index.js';
import {
  DEFAULT_CONCURRENCY, DEFAULT_MAX_DELAY_MS, FETCH_CHUNK_BYTES, FETCH_WINDOW_CHUNKS, formatFetchCounts,
} from './fetch-classify.js';
import {
  FetchedRobots, hostFileName, hostKey, MAX_HOST_BYTES, OUTCOMES_FILE, OUTCOMES_HEADER, schemeOf, SCHEME_PREFIX, type FetchCounts,
} from './classify/index.js';
import type { ChunkProcessor, ChunkResult } from './jobs.js';
import { runChunks } from './run.js';

/** Options of {@link runFetchOut}. */
export interface FetchOutOptions extends CliFetchOptions {
  /** The directory to write (created if missing). */
  readonly out: string;
  /** A file of URLs, or '-' / undefined for stdin. */
  readonly urlsPath: UrlPaths;
  /** The product token whose Crawl-delay spaces requests to one host. */
  readonly agent: string;
  readonly profile: Profile;
  readonly concurrency?: number;
  readonly maxDelayMs?: number;
  readonly chunkBytes?: number;
  /** For tests: the HTTP client. */
  readonly fetch?: FetchLike;
}

/** What a `fetch` run did. */
export interface FetchOutTotals {
  /** URL lines read. */
  readonly urls: number;
  /** Outcomes, one per origin fetched. */
  readonly robots: FetchCounts;
  /** robots.txt files written. */
  readonly files: number;
  /** Origins not fetched: their host's file belongs to the host's other scheme, seen first. */
  readonly skipped: number;
}

/**
 * A FetchLike that keeps the body of each 2xx response as it streams through to
 * fetchRobots (the parsed Robots keep no source bytes), up to `limit` bytes: the same
 * bytes the parser saw, so classify, parsing the written file with the same limit
 * (RFC 9309 §2.5), gets the same rules. Bodies are queued per URL; `take` removes one.
 */
class BodyRecorder {
  private readonly bodies = new Map<string, { chunks: Uint8Array[]; length: number }[]>();

  constructor(private readonly inner: FetchLike, private readonly limit: number) {}

  readonly fetch: FetchLike = async (url, init) => {
    const response = await this.inner(url, init);
    // 204 and 205 cannot carry a body (and a Response cannot be rebuilt with one).
    if (response.status < 200 || response.status > 299 || response.status === 204 || response.status === 205 || response.body === null) {
      return response;
    }
    const kept = { chunks: [] as Uint8Array[], length: 0 };
    const queue = this.bodies.get(url) ?? [];
    queue.push(kept);
    this.bodies.set(url, queue);
    const limit = this.limit;
    const body = response.body.pipeThrough(new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        if (kept.length < limit) {
          const part = chunk.subarray(0, limit - kept.length);
          kept.chunks.push(part);
          kept.length += part.length;
        }
        controller.enqueue(chunk);
      },
    }));
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };

  /** The body recorded for `url` (the oldest not taken yet), or an empty one. */
  take(url: string): Uint8Array {
    const queue = this.bodies.get(url);
    const kept = queue?.shift();
    if (queue !== undefined && queue.length === 0) this.bodies.delete(url);
    if (kept === undefined) return new Uint8Array(0);
    return Buffer.concat(kept.chunks, kept.length);
  }
}

/** One row of OUTCOMES_FILE (see OUTCOMES_HEADER). Origins and file names hold no tab or line break. */
function outcomeRow(origin: string, result: RobotsFetchResult, file: string): string {
  return `${origin}\t${result.status}\t${result.httpStatus ?? '-'}\t${file}\t${result.reason}\n`;
}

const latin1 = new TextDecoder('latin1');
const encoder = new TextEncoder();

/**
 * The ChunkProcessor of `fetch`: per line, the host key classify would look up (Wasm's
 * scanHosts: lowercase, default port left out) and the line's scheme; each new host's
 * origin is fetched through `robots` and its file written, and the chunk's "rows" are
 * its OUTCOMES_FILE rows, so runChunks appends them in input order.
 */
class FetchOutProcessor implements ChunkProcessor {
  /** File name → the scheme (0 http, 1 https) whose origin it was fetched for. */
  private readonly seen = new Map<string, number>();
  /** Origins skipped (their file went to the other scheme), each counted once. */
  private readonly skippedOrigins = new Set<string>();
  /**
   * Per origin as requests name it (originOf): its outcome and the file written for it.
   * Two host keys can name one origin (`0x7f.1` and `127.0.0.1`): the second gets a copy.
   */
  private readonly origins = new Map<string, Promise<{ readonly result: RobotsFetchResult; readonly path: string }>>();
  files = 0;

  constructor(
    private readonly dir: string,
    private readonly robots: FetchedRobots,
    private readonly recorder: BodyRecorder,
    private readonly engine: WasmEngine = getEngine(),
  ) {}

  get skipped(): number {
    return this.skippedOrigins.size;
  }

  async process(input: Uint8Array): Promise<ChunkResult> {
    const chunk = new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
    const fetches: Promise<string>[] = [];
    let count = 0;
    let offset = 0;
    while (offset < chunk.length) {
      const bytes = chunk.subarray(offset);
      const batch = this.engine.scanHosts(bytes, true);
      const { spans } = batch;
      for (let i = 0; i < batch.count; i++) {
        const at = i * SPAN_FIELDS;
        const scheme = schemeOf(bytes, spans[at + SPAN_LINE_START]!, spans[at + SPAN_LINE_LENGTH]!);
        const start = spans[at + SPAN_HOST_START]!;
        const length = spans[at + SPAN_HOST_LENGTH]!;
        if (scheme < 0 || length === 0 || length > MAX_HOST_BYTES) continue;
        // Lowercased as classify's keys are (ASCII only: other bytes never name a file anyway).
        const key = latin1.decode(hostKey(bytes, start, length));
        const file = hostFileName(key);
        if (file === null) continue;
        const owner = this.seen.get(file);
        if (owner === scheme) continue;
        if (owner !== undefined) {
          this.skippedOrigins.add(`${SCHEME_PREFIX[scheme]}${key}`);
          continue;
        }
        this.seen.set(file, scheme);
        fetches.push(this.fetchOne(`${SCHEME_PREFIX[scheme]}${key}`, file));
      }
      count += batch.count;
      offset += batch.consumed;
      if (batch.count === 0) break;
    }
    const rows = (await Promise.all(fetches)).join('');
    return { rows: rows === '' ? [] : [encoder.encode(rows)], count, allowed: 0, disallowed: 0 };
  }

  /** Fetches `origin`, writes or removes DIR/`file`, and returns its OUTCOMES_FILE row ('' if no request can go there). */
  private async fetchOne(origin: string, file: string): Promise<string> {
    let valid: string;
    try {
      valid = originOf(origin);
    } catch {
      // Not a host a request could go to (bad port, bad bytes): classify --fetch treats
      // such lines like relative ones (--missing), and so does a directory without its file.
      return '';
    }
    const path = join(this.dir, file);
    const first = this.origins.get(valid);
    if (first === undefined) {
      const done = this.robots.load(valid).then((result) => {
        this.place(path, result, () => writeFileSync(path, this.recorder.take(result.finalUrl)));
        return { result, path };
      });
      this.origins.set(valid, done);
      return outcomeRow(valid, (await done).result, file);
    }
    const { result, path: written } = await first;
    this.place(path, result, () => copyFileSync(written, path));
    return outcomeRow(valid, result, file);
  }

  /** Writes DIR/`file` for an ok `result` (with `write`), or removes it for any other. */
  private place(path: string, result: RobotsFetchResult, write: () => void): void {
    try {
      if (result.status === 'ok') {
        write();
        this.files++;
      } else {
        // A file left from an earlier run would outvote this outcome in classify.
        rmSync(path, { force: true });
      }
    } catch (error) {
      throw new CliError(`cannot write ${path}: ${fileErrorText(error)}`);
    }
  }
}

/**
 * Runs `fetch`: reads URL lines, fetches each http(s) origin's robots.txt once (RFC 9309
 * §2.3, through the same FetchedRobots as `classify --fetch`: cache, `concurrency`,
 * crawl-delay politeness capped at `maxDelayMs`), writes DIR/<host>.txt for each `ok` and
 * appends every outcome to DIR/outcomes.tsv, in input order.
 * @example await runFetchOut({ out: 'robots', urlsPath: 'urls.txt', agent: 'ExampleBot', profile: 'rfc', userAgent: 'ExampleBot/1.0' }, process.stdin)
 */
export async function runFetchOut(options: FetchOutOptions, stdin: Readable): Promise<FetchOutTotals> {
  // The HTTP client is closed after the last origin (see withCliFetch).
  return withCliFetch(options.fetch, options.timeoutMs, (fetch) => runWithFetch({ ...options, fetch }, stdin));
}

async function runWithFetch(options: FetchOutOptions & { readonly fetch: FetchLike }, stdin: Readable): Promise<FetchOutTotals> {
  try {
    mkdirSync(options.out, { recursive: true });
    if (!statSync(options.out).isDirectory()) throw new CliError(`--out ${options.out} is not a directory`);
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`cannot create --out ${options.out}: ${fileErrorText(error)}`);
  }
  const outcomesPath = join(options.out, OUTCOMES_FILE);
  const recorder = new BodyRecorder(options.fetch, (options.maxBytes ?? DEFAULT_MAX_BYTES) + 1);
  const robots = new FetchedRobots({
    userAgent: options.userAgent,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes }),
    fetch: recorder.fetch,
    agent: options.agent,
    profile: options.profile,
    cacheHosts: DEFAULT_CACHE_HOSTS,
    concurrency: options.concurrency ?? DEFAULT_CONCURRENCY,
    maxDelayMs: options.maxDelayMs ?? DEFAULT_MAX_DELAY_MS,
  });
  const processor = new FetchOutProcessor(options.out, robots, recorder);
  // Appended, so that runs over several URL lists add up; classify reads the last row per file.
  const outcomes = new Writable({
    write(data: Uint8Array, _encoding, done) {
      try {
        appendFileSync(outcomesPath, data);
        done();
      } catch (error) {
        done(new CliError(`cannot write ${outcomesPath}: ${fileErrorText(error)}`));
      }
    },
  });
  try {
    if (!existsSync(outcomesPath)) writeFileSync(outcomesPath, `${OUTCOMES_HEADER}\n`);
  } catch (error) {
    throw new CliError(`cannot write ${outcomesPath}: ${fileErrorText(error)}`);
  }
  const chunkBytes = options.chunkBytes ?? FETCH_CHUNK_BYTES;
  const totals = await withUrlInput(options.urlsPath, stdin, chunkBytes, (input) =>
    runChunks(processor, input, outcomes, { window: FETCH_WINDOW_CHUNKS, chunkBytes }),
  );
  return { urls: totals.urls, robots: { ...robots.counts }, files: processor.files, skipped: processor.skipped };
}

/**
 * The summary `fetch` prints on stderr after formatFetchCounts' line.
 * @example formatFetchOut({ urls: 10, robots: { ok: 2, unavailable: 1, unreachable: 0 }, files: 2, skipped: 0 }, 'robots') // '10 urls, 2 files written to robots, outcomes in robots/outcomes.tsv'
 */
export function formatFetchOut(totals: FetchOutTotals, dir: string): string {
  const skipped = totals.skipped === 0 ? '' : `, ${totals.skipped} origins skipped (their host's file came from the other scheme)`;
  return `${totals.urls} urls, ${totals.files} files written to ${dir}, outcomes in ${join(dir, OUTCOMES_FILE)}${skipped}`;
}

/** `robotstxt fetch`: one entry of the CLI's command table (src/cli/main.ts). */
export const fetchOutCommand: Command = {
  name: 'fetch',
  summary: "fetch each origin's robots.txt once into a directory that classify reads",
  synopsis: ['fetch --out DIR [options] [URLS...|-]'],
  description: `Reads URLs like classify --fetch and fetches the robots.txt of each http(s) origin
once (same outcomes, politeness, limits and fetching options), writing what
classify --robots-dir DIR reads: DIR/<host>.txt (named as classify looks it up) for each
robots.txt fetched ok, and one row per origin appended to DIR/${OUTCOMES_FILE}:
  ORIGIN<TAB>ok|unavailable|unreachable<TAB>HTTP STATUS (- if none)<TAB>FILE<TAB>REASON
classify reads that file: a host without a file whose origin was unavailable is allowed,
unreachable disallowed (line 0), whatever --missing says, as with --fetch. A host met
under both http:// and https:// has one file: the origin seen first is fetched.`,
  options: {
    out: { type: 'string', value: 'DIR', help: 'the directory to write (created if missing; required)' },
    agent: { type: 'string', value: 'TOKEN', help: 'whose Crawl-delay spaces requests to one host (default: the product token of --user-agent)' },
    profile: { type: 'string', value: 'rfc|google', help: 'rule semantics used to read Crawl-delay (default rfc)' },
    ...FETCH_OPTIONS,
    concurrency: { type: 'string', value: 'N', help: `robots.txt fetches at once (default ${DEFAULT_CONCURRENCY})` },
    'max-delay-ms': {
      type: 'string', value: 'N',
      help: `cap on the crawl-delay honoured between two robots.txt requests to one host (default ${DEFAULT_MAX_DELAY_MS}; 0: never wait)`,
    },
    'chunk-bytes': { type: 'string', value: 'N', help: `input bytes per chunk (default ${FETCH_CHUNK_BYTES})` },
    'max-robots-bytes': { ...MAX_ROBOTS_OPTION, help: `bytes of each robots.txt read and written (default ${DEFAULT_MAX_BYTES}, the least RFC 9309 §2.5 allows); give classify the same value` },
    quiet: { type: 'boolean', help: 'no summary on stderr' },
  },
  async run(args, context) {
    const out = stringOption(args, 'out');
    if (!out) throw new CliError('--out DIR is required');
    checkUrlInputs(args.positionals);
    const settings = fetchSettings(args);
    const agentFlag = stringOption(args, 'agent');
    const totals = await runFetchOut(
      {
        ...settings,
        maxBytes: maxRobotsBytes(args),
        out,
        urlsPath: args.positionals,
        agent: agentFlag === undefined ? tokenOfUserAgent(settings.userAgent) : checkAgent(agentFlag),
        profile: oneOf<Profile>('profile', stringOption(args, 'profile'), ['rfc', 'google'], 'rfc'),
        concurrency: positiveInteger('concurrency', stringOption(args, 'concurrency'), DEFAULT_CONCURRENCY),
        maxDelayMs: milliseconds('max-delay-ms', stringOption(args, 'max-delay-ms'), DEFAULT_MAX_DELAY_MS, 0),
        chunkBytes: positiveInteger('chunk-bytes', stringOption(args, 'chunk-bytes'), FETCH_CHUNK_BYTES),
      },
      context.stdin,
    );
    if (args.values.quiet !== true) context.stderr.write(`${formatFetchCounts(totals.robots)}\n${formatFetchOut(totals, out)}\n`);
    return 0;
  },
};

/** The product token `--user-agent` starts with, for `fetch` without `--agent`. */
function tokenOfUserAgent(userAgent: string): string {
  try {
    return productTokenOf(userAgent);
  } catch {
    throw new CliError(`--user-agent ${JSON.stringify(userAgent)} names no product token; give --agent TOKEN`);
  }
}
