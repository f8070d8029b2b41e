// What the CLI fetches over HTTP: its User-Agent, `check --robots URL`, and the one-line status notes.
import { DEFAULT_TIMEOUT_MS, fetchRobots, type FetchLike, type RobotsFetchResult } from '../fetch/index.js';
import { createNodeFetch, DEFAULT_SOCKET_TIMEOUT_MS } from '../fetch/node-fetch.js';
import type { Profile } from '../parse/lexer.js';
import { CliError } from './errors.js';
import { packageVersion } from './version.js';

/** Fetch settings shared by `check --robots URL` and `classify --fetch`. */
export interface CliFetchOptions {
  /** The whole `User-Agent` header (`--user-agent`). */
  readonly userAgent: string;
  /** Deadline for one robots.txt exchange, redirects and body included (`--timeout-ms`). */
  readonly timeoutMs?: number;
  /**
   * Bytes of each robots.txt read and parsed (`--max-robots-bytes`; default the library's,
   * DEFAULT_MAX_BYTES; at least MIN_MAX_BYTES, RFC 9309 §2.5).
   */
  readonly maxBytes?: number;
}

/**
 * Whether `--robots` names a URL to fetch rather than a file: it starts with `http://` or
 * `https://` (any case).
 * @example isRobotsUrl('https://example.com/robots.txt') // true
 * @example isRobotsUrl('robots.txt') // false
 */
export function isRobotsUrl(value: string): boolean {
  return /^https?:\/\//i.test(value);
}

/**
 * The default `User-Agent` header: `robotstxt-wasm/<version of this package>`.
 * @example defaultUserAgent() // 'robotstxt-wasm/0.1.0'
 */
export function defaultUserAgent(): string {
  return `robotstxt-wasm/${packageVersion() ?? '0.0.0'}`;
}

/**
 * Checks a `--user-agent` value the way the HTTP layer will: non-empty, no control
 * characters (RFC 9110 §5.5: a field value has no CR, LF or NUL).
 * @example checkUserAgent('ExampleBot/1.0 (+https://example.com/bot)') // returns it unchanged
 */
export function checkUserAgent(value: string): string {
  if (value.trim() === '') throw new CliError('--user-agent must not be empty');
  if (/[\0-\x08\x0a-\x1f\x7f]/.test(value)) throw new CliError(`--user-agent must not contain control characters, got ${JSON.stringify(value)}`);
  return value;
}

/**
 * What a fetch that did not end with `ok` means for the verdicts, as one line for stderr.
 * Returns null for `ok`.
 * @example
 * describeFetch(result) // 'http://127.0.0.1:8080/robots.txt: unavailable (HTTP 404, client-error): RFC 9309 §2.3.1.3, every URL is allowed'
 */
export function describeFetch(result: RobotsFetchResult): string | null {
  if (result.status === 'ok') {
    // RFC 9309 §2.5: content past the parsing limit is ignored; say so, it changes verdicts.
    return result.truncated ? `${result.url}: longer than the parsing limit, rules after ${result.byteLength} bytes were ignored (RFC 9309 §2.5)` : null;
  }
  const how = [
    result.httpStatus === undefined ? undefined : `HTTP ${result.httpStatus}`,
    result.reason,
    result.error,
  ].filter((part) => part !== undefined).join(', ');
  // RFC 9309 §2.3.1.3: unavailable → MAY access any resource; §2.3.1.4: unreachable → MUST
  // assume complete disallow.
  const meaning = result.status === 'unavailable' ? 'RFC 9309 §2.3.1.3, every URL is allowed' : 'RFC 9309 §2.3.1.4, every URL is disallowed';
  return `${result.url}: ${result.status} (${how}): ${meaning}`;
}

/**
 * Runs `task` with the CLI's HTTP client: `fetch` when given (tests), else a node:http(s)
 * one that holds no connection after its request (createNodeFetch), destroyed when `task`
 * settles so that no socket or unfinished TLS handshake keeps the process alive after the
 * last row. A socket silent for `timeoutMs` (at most 10 s) is destroyed.
 * @example const rows = await withCliFetch(undefined, 5000, (fetch) => fetchRobots(site, { userAgent, fetch }));
 */
export async function withCliFetch<T>(fetch: FetchLike | undefined, timeoutMs: number | undefined, task: (fetch: FetchLike) => Promise<T>): Promise<T> {
  if (fetch !== undefined) return task(fetch);
  const http = createNodeFetch({ socketTimeoutMs: Math.min(timeoutMs ?? DEFAULT_TIMEOUT_MS, DEFAULT_SOCKET_TIMEOUT_MS) });
  try {
    return await task(http.fetch);
  } finally {
    http.close();
  }
}

/**
 * Fetches the robots.txt of the site of `url` for `check --robots URL` (RFC 9309 §2.3:
 * always `scheme://authority/robots.txt`, whatever path `url` has). Never fails because of
 * the network: the result's `robots` stand for every outcome. An invalid URL is a CliError.
 * @example const { robots, status } = await fetchCheckRobots('https://example.com/', { userAgent: defaultUserAgent() }, 'rfc');
 */
export async function fetchCheckRobots(url: string, options: CliFetchOptions, profile: Profile): Promise<RobotsFetchResult> {
  let robotsUrl: URL;
  try {
    robotsUrl = new URL(url);
  } catch {
    throw new CliError(`--robots ${JSON.stringify(url)} is not a valid URL`);
  }
  if (robotsUrl.hostname === '') throw new CliError(`--robots ${JSON.stringify(url)} has no host`);
  try {
    return await withCliFetch(undefined, options.timeoutMs, (fetch) =>
      fetchRobots(robotsUrl, { userAgent: options.userAgent, timeoutMs: options.timeoutMs, maxBytes: options.maxBytes, profile, fetch }));
  } catch (error) {
    // Only invalid arguments reject (fetchRobots maps every network outcome to a status).
    if (error instanceof TypeError || error instanceof RangeError) throw new CliError(`cannot fetch --robots ${url}: ${error.message}`);
    throw error;
  }
}
