// `robotstxt check`: one robots.txt (a file or a fetched URL), one agent, URLs streamed from a file or stdin.
import type { Readable, Writable } from 'node:stream';
import type { Profile } from '../parse/lexer.js';
import { runJob, type ProgressSink, type UrlInput } from './run.js';
import { CHUNK_BYTES, DEFAULT_MAX_URL_BYTES, readFileReusing } from './stream.js';
import type { CheckJob, RowFormat } from './jobs.js';
import type { RunTotals } from './output.js';
import { CliError, fileErrorText } from './errors.js';
import { defaultUserAgent, describeFetch, fetchCheckRobots, isRobotsUrl, type CliFetchOptions } from './fetch.js';
import { readRobotsFile } from './robots-file.js';
import { DEFAULT_MAX_BYTES, type Robots } from '../robots.js';
import type { RobotsFetchStatus } from '../fetch/index.js';
import type { EngineLimits } from '../wasm/index.js';

export interface CheckOptions extends Partial<RowFormat> {
  /** A robots.txt file, or an http(s) URL on the site whose /robots.txt is fetched. */
  readonly robotsPath: string;
  /** How to fetch when `robotsPath` is a URL (User-Agent header, deadline). */
  readonly fetch?: CliFetchOptions;
  /** Told, in one line, when a fetched robots.txt was not `ok` or a file was cut at the parse limit (default: stderr). */
  readonly onNote?: (line: string) => void;
  readonly agent: string;
  readonly profile: Profile;
  /** Files of URLs read one after another ('-': stdin), or '-' / undefined / none for stdin. */
  readonly urlsPath: UrlPaths;
  /** Worker threads (default 1: this thread). */
  readonly workers?: number;
  readonly chunkBytes?: number;
  /** Longest URL line in bytes (default DEFAULT_MAX_URL_BYTES); see UrlInput.maxLineBytes. */
  readonly maxUrlBytes?: number;
  /** Bytes of the robots.txt read and parsed (--max-robots-bytes; default DEFAULT_MAX_BYTES). */
  readonly maxRobotsBytes?: number;
  /** Engine limits for worker threads (this thread's are set by the caller: engineSettings). */
  readonly engine?: Partial<EngineLimits>;
  /** See RunOptions.fdOutput: true only for process.stdout. */
  readonly fdOutput?: boolean;
  readonly progress?: ProgressSink | null;
}

/**
 * The `--robots` file: a regular file only (a FIFO, device or directory is an error, and
 * never blocks), read up to the parse limit + 1 bytes (RFC 9309 §2.5: the rest is never
 * read; the extra byte lets the parser see the cut and set `truncated`).
 * @example readCheckRobots('robots.txt').length // ≤ DEFAULT_MAX_BYTES + 1
 */
export function readCheckRobots(path: string, limit: number = DEFAULT_MAX_BYTES): Uint8Array {
  try {
    return readRobotsFile(path, limit);
  } catch (error) {
    throw new CliError(`cannot read --robots ${path}: ${fileErrorText(error)}`);
  }
}

/** Where URL lines come from: one path, several read in turn like `cat` ('-' is stdin), or stdin. */
export type UrlPaths = string | readonly string[] | undefined;

const NEWLINE = Buffer.from('\n');

/**
 * The lines of each input in turn. A file whose last line has no line break still ends
 * that line (it is not joined to the next file's first line, as `cat` would). stdin is
 * read once, however often '-' is given. A read error names its file.
 */
async function* concatenated(paths: readonly string[], stdin: Readable, readBytes: number): AsyncGenerator<Buffer | string> {
  let stdinRead = false;
  for (const path of paths) {
    if (path === '-' && stdinRead) continue;
    stdinRead ||= path === '-';
    let last = 0x0a;
    try {
      for await (const piece of path === '-' ? (stdin as AsyncIterable<Buffer | string>) : readFileReusing(path, readBytes)) {
        if (piece.length === 0) continue;
        last = typeof piece === 'string' ? piece.charCodeAt(piece.length - 1) : piece[piece.length - 1]!;
        yield piece;
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === undefined) throw error;
      throw new CliError(`cannot read URLs from ${path}: ${fileErrorText(error)}`);
    }
    if (last !== 0x0a) yield NEWLINE;
  }
}

/** How the URL input is read: bytes per file read, and the longest line (--max-url-bytes). */
export interface UrlReading {
  readonly readBytes?: number | undefined;
  readonly maxUrlBytes?: number | undefined;
}

/**
 * The URL input: files read one after another (each into one reused buffer), or `stdin`
 * for '-' / no argument. Lines over `maxUrlBytes` (default DEFAULT_MAX_URL_BYTES) are
 * streamed past (UrlInput.maxLineBytes).
 * @example openUrls(['a.txt', '-', 'b.txt'], process.stdin).source // an async iterable of Buffers
 */
export function openUrls(paths: UrlPaths, stdin: Readable, reading: number | UrlReading = {}): UrlInput {
  const { readBytes = CHUNK_BYTES, maxUrlBytes = DEFAULT_MAX_URL_BYTES } = typeof reading === 'number' ? { readBytes: reading } : reading;
  const list = paths === undefined ? [] : typeof paths === 'string' ? [paths] : paths;
  return { source: concatenated(list.length === 0 ? ['-'] : list, stdin, readBytes), maxLineBytes: maxUrlBytes };
}

/**
 * Runs `run` on the URL input; read errors of a URL file become CLI errors naming the
 * file. `reading` is the bytes per read (a number) or a UrlReading.
 */
export async function withUrlInput<T>(
  urlsPath: UrlPaths, stdin: Readable, reading: number | UrlReading | undefined, run: (input: UrlInput) => Promise<T>,
): Promise<T> {
  return run(openUrls(urlsPath, stdin, reading ?? {}));
}

/** What `check` reads its rules from: a file's bytes, or a fetched robots.txt and its outcome. */
export type CheckRobots =
  | { readonly robots: Uint8Array; readonly fetched?: undefined }
  | { readonly fetched: Robots; readonly outcome: RobotsFetchStatus };

/**
 * The robots.txt `check` applies: a file's bytes, or for an http(s) URL whatever
 * `fetchRobots` decided (RFC 9309 §2.3.1: a parsed file, allow-all when unavailable,
 * disallow-all when unreachable), after a note when that was not `ok`.
 */
export async function loadCheckRobots(options: Omit<CheckOptions, 'agent' | 'urlsPath'>): Promise<CheckRobots> {
  const tell = options.onNote ?? ((line: string) => process.stderr.write(`robotstxt: ${line}\n`));
  if (!isRobotsUrl(options.robotsPath)) {
    const limit = options.maxRobotsBytes ?? DEFAULT_MAX_BYTES;
    const robots = readCheckRobots(options.robotsPath, limit);
    if (robots.length > limit) {
      tell(`--robots ${options.robotsPath} is over ${limit} bytes (--max-robots-bytes): only the lines within the first ${limit} are used (RFC 9309 §2.5)`);
    }
    return { robots };
  }
  const fetch = options.fetch ?? { userAgent: defaultUserAgent() };
  const result = await fetchCheckRobots(options.robotsPath, { ...fetch, maxBytes: fetch.maxBytes ?? options.maxRobotsBytes }, options.profile);
  const note = describeFetch(result);
  if (note !== null) tell(note);
  return { fetched: result.robots, outcome: result.status };
}

/** The rules of `check --agent`, as plain data a worker can take. */
async function loadCheckRules(options: CheckOptions): Promise<Pick<CheckJob, 'robots' | 'table' | 'outcome'>> {
  const loaded = await loadCheckRobots(options);
  if (loaded.fetched === undefined) return { robots: loaded.robots };
  // The compiled table is plain bytes: it travels to workers like a file's body would.
  // The outcome travels too: rows of an unavailable/unreachable robots.txt get line 0 (the
  // stand-in rules have no file to point into) and JSONL rows say which outcome it was.
  return { robots: new Uint8Array(0), table: loaded.fetched.forAgent(options.agent).table, outcome: loaded.outcome };
}

/**
 * Runs `check`: every URL line against one robots.txt, one
 * `allow|disallow<TAB>LINE<TAB>URL` row (or JSON object) each, in input order.
 * Resolves with the totals once every row is written.
 * @example await runCheck({ robotsPath: 'robots.txt', agent: 'Googlebot', profile: 'rfc', urlsPath: 'urls.txt' }, process.stdin, process.stdout)
 * @example await runCheck({ robotsPath: 'https://example.com/', agent: 'ExampleBot', profile: 'rfc', urlsPath: '-' }, process.stdin, process.stdout)
 */
export async function runCheck(options: CheckOptions, stdin: Readable, stdout: Writable): Promise<RunTotals> {
  const rules = await loadCheckRules(options);
  const job: CheckJob = {
    kind: 'check',
    ...rules,
    agent: options.agent,
    profile: options.profile,
    format: options.format ?? 'tsv',
    only: options.only ?? null,
    ...(options.maxRobotsBytes === undefined ? {} : { maxBytes: options.maxRobotsBytes }),
    ...(options.engine === undefined ? {} : { engine: options.engine }),
  };
  return withUrlInput(options.urlsPath, stdin, { readBytes: options.chunkBytes, maxUrlBytes: options.maxUrlBytes }, (input) =>
    runJob(job, input, stdout, {
      workers: options.workers ?? 1, chunkBytes: options.chunkBytes, fdOutput: options.fdOutput, progress: options.progress ?? null,
    }),
  );
}
