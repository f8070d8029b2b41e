// `robotstxt check`: one robots.txt (a file or a fetched URL), one agent, URLs streamed from a file or stdin.
import { readFileSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import type { Profile } from '../parse.js';
import { runJob, type ProgressSink, type UrlInput } from './run.js';
import { CHUNK_BYTES, readFileReusing } from './stream.js';
import type { CheckJob, RowFormat } from './jobs.js';
import type { RunTotals } from './output.js';
import { CliError } from './errors.js';
import { defaultUserAgent, describeFetch, fetchCheckRobots, isRobotsUrl, type CliFetchOptions } from './fetch.js';

export interface CheckOptions extends Partial<RowFormat> {
  /** A robots.txt file, or an http(s) URL on the site whose /robots.txt is fetched. */
  readonly robotsPath: string;
  /** How to fetch when `robotsPath` is a URL (User-Agent header, deadline). */
  readonly fetch?: CliFetchOptions;
  /** Told, in one line, when a fetched robots.txt was not `ok` (default: stderr). */
  readonly onNote?: (line: string) => void;
  readonly agent: string;
  readonly profile: Profile;
  /** A file of URLs, or '-' / undefined for stdin. */
  readonly urlsPath: string | undefined;
  /** Worker threads (default 1: this thread). */
  readonly workers?: number;
  readonly chunkBytes?: number;
  /** See RunOptions.fdOutput: true only for process.stdout. */
  readonly fdOutput?: boolean;
  readonly progress?: ProgressSink | null;
}

export function readRobotsFile(path: string): Uint8Array {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new CliError(`cannot read --robots ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

/**
 * The URL input: a file, read into one reused buffer, or `stdin` for '-' / no argument.
 * @example openUrls('urls.txt', process.stdin).source // an async iterable of Buffers
 */
export function openUrls(path: string | undefined, stdin: Readable, readBytes = CHUNK_BYTES): UrlInput {
  if (path === undefined || path === '-') return { source: stdin };
  return { source: readFileReusing(path, readBytes) };
}

/** Runs `run` on the URL input, turning read errors of the URL file into CLI errors. */
export async function withUrlInput<T>(
  urlsPath: string | undefined, stdin: Readable, readBytes: number | undefined, run: (input: UrlInput) => Promise<T>,
): Promise<T> {
  try {
    return await run(openUrls(urlsPath, stdin, readBytes));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code && (error as NodeJS.ErrnoException).syscall !== 'write' && code !== 'EPIPE') {
      throw new CliError(`cannot read URLs from ${urlsPath ?? '-'}: ${code}`);
    }
    throw error;
  }
}

/**
 * The rules `check` applies: a file's bytes, or for an http(s) URL the compiled table of
 * whatever `fetchRobots` decided (RFC 9309 §2.3.1: a parsed file, allow-all when
 * unavailable, disallow-all when unreachable), after a note when that was not `ok`.
 */
async function loadCheckRules(options: CheckOptions): Promise<Pick<CheckJob, 'robots' | 'table' | 'outcome'>> {
  if (!isRobotsUrl(options.robotsPath)) return { robots: readRobotsFile(options.robotsPath) };
  const result = await fetchCheckRobots(options.robotsPath, options.fetch ?? { userAgent: defaultUserAgent() }, options.profile);
  const note = describeFetch(result);
  if (note !== null) (options.onNote ?? ((line: string) => process.stderr.write(`robotstxt: ${line}\n`)))(note);
  // The compiled table is plain bytes: it travels to workers like a file's body would.
  // The outcome travels too: rows of an unavailable/unreachable robots.txt get line 0 (the
  // stand-in rules have no file to point into) and JSONL rows say which outcome it was.
  return { robots: new Uint8Array(0), table: result.robots.forAgent(options.agent).table, outcome: result.status };
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
  };
  return withUrlInput(options.urlsPath, stdin, options.chunkBytes, (input) =>
    runJob(job, input, stdout, {
      workers: options.workers ?? 1, chunkBytes: options.chunkBytes, fdOutput: options.fdOutput, progress: options.progress ?? null,
    }),
  );
}
