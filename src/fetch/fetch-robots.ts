// RFC 9309 §2.3 access method: fetch /robots.txt, follow redirects, map the outcome to rules.
import type { Profile } from '../parse/lexer.js';
import { Robots } from '../robots.js';
import { expectProfile } from '../errors.js';
import { discardBody, readLimited } from './body.js';
import { cacheHeadersOf, conditionalHeaders, freshnessHeaders, selectsStored, updateCacheHeaders, type RobotsCacheHeaders } from './validators.js';
import { cacheHintsOf, describe, isFollowableRedirect, parseHttpUrl, robotsUrlOf } from './http.js';

/**
 * RFC 9309 §2.3.1: what a fetch amounted to.
 * - `ok`: a 2xx response was downloaded (§2.3.1.1); `robots` holds its rules.
 * - `unavailable`: 4xx or more than five redirects (§2.3.1.2, §2.3.1.3); `robots` allows all.
 * - `unreachable`: 5xx, 429, network error, timeout (§2.3.1.4); `robots` disallows all.
 */
export type RobotsFetchStatus = 'ok' | 'unavailable' | 'unreachable';

/** Why a fetch ended with its status; stable strings for logs and tests. */
export type RobotsFetchReason =
  | 'success' //             2xx
  | 'not-modified' //        304 to a revalidation: the stored rules stay (RFC 9111 §4.3.3)
  | 'client-error' //        4xx other than 429
  | 'too-many-redirects' //  a redirect beyond `maxRedirects`
  | 'redirect-loop' //       a redirect back to a URL already requested
  | 'server-error' //        5xx
  | 'too-many-requests' //   429
  | 'missing-location' //    301/302/303/307/308 without a usable Location
  | 'unexpected-status' //   1xx, other 3xx, or outside 100-599
  | 'timeout' //             headers or total deadline passed
  | 'network-error'; //      DNS, refused, reset, TLS, body cut short

/**
 * The `fetch` this module needs: Node's global `fetch`, undici, Deno, Bun or a test double.
 * It must expose 3xx responses as they are for `redirect: 'manual'` (browsers return an
 * opaque status 0 instead, which this module reports as unreachable).
 */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

/** Options shared by {@link fetchRobots}, {@link fetchRobotsFile} and the cache. */
export interface FetchRobotsOptions {
  /** The whole `User-Agent` header, e.g. `ExampleBot/1.0 (+https://example.com/bot)`. Required. */
  userAgent: string;
  /**
   * Deadline for the whole exchange, redirects and body included, in ms. Default 30 000.
   * It holds whatever `fetch` does with the request's signal: at the deadline the result is
   * `unreachable` / `timeout` and the body's reader is cancelled, even if the implementation
   * ignores the abort and its own promise never settles.
   */
  timeoutMs?: number;
  /** Deadline for each response's headers (connect + request + first byte), in ms. Default 10 000. */
  headersTimeoutMs?: number;
  /** Parsing limit in bytes, at least 500 KiB (RFC 9309 §2.5). Default 512 000. */
  maxBytes?: number;
  /** Redirects to follow, at least 5 (RFC 9309 §2.3.1.2), at most 20. Default 5. */
  maxRedirects?: number;
  /**
   * The fetch implementation. Default: the global `fetch`. On Node its connection pools
   * are the process-wide ones, kept per origin for the process's life; a crawler meeting
   * many origins should pass a fetch whose connections it controls (the CLI uses node:http
   * Agents without keep-alive, destroyed after the last row).
   */
  fetch?: FetchLike;
  /** Parsing profile handed to `Robots.parse`. Default `'rfc'`. */
  profile?: Profile;
  /** Clock for `fetchedAt` / `expiresAt`, ms since the epoch. Default `Date.now`. */
  now?: () => number;
  /** Cancels the fetch; the promise then rejects with `signal.reason`. */
  signal?: AbortSignal;
  /**
   * A stored `ok` result for the same URL to revalidate (RFC 9111 §4.3.1). When its
   * `cacheHeaders` hold an `ETag` or `Last-Modified`, the request to its `finalUrl` carries
   * `If-None-Match` / `If-Modified-Since`, and a 304 returns its `robots` (not parsed again)
   * with reason `'not-modified'` and a new expiry. Without validators the fetch is unconditional.
   */
  revalidate?: RobotsFetchResult;
}

/** The outcome of one robots.txt fetch. `robots` is always usable. */
export interface RobotsFetchResult {
  readonly status: RobotsFetchStatus;
  readonly reason: RobotsFetchReason;
  /** Status of the last response received, if any arrived. */
  readonly httpStatus?: number;
  /** The rules to follow: parsed, `Robots.allowAll()` or `Robots.disallowAll()`. */
  readonly robots: Robots;
  /** The robots.txt URL requested; the rules apply to its authority (RFC 9309 §2.3.1.2). */
  readonly url: string;
  /** The URL of the last request made (differs from `url` after redirects). */
  readonly finalUrl: string;
  /** Every redirect target followed, absolute, in order. */
  readonly redirects: string[];
  /** When the fetch started, ms since the epoch. */
  readonly fetchedAt: number;
  /**
   * Until when the result may be reused, ms since the epoch: from `Cache-Control`/`Expires`,
   * capped at 24 h (RFC 9309 §2.4). For `unreachable`, `fetchedAt` plus any `Retry-After`.
   */
  readonly expiresAt: number;
  /** `Cache-Control: no-store` was sent: the result must not be cached. */
  readonly noStore: boolean;
  /** `Retry-After` in ms, when the server sent one. */
  readonly retryAfterMs?: number;
  /**
   * The body exceeded `maxBytes`: reading stopped one byte past the limit, the stream was
   * cancelled, and the rules end at the last full line within the limit.
   */
  readonly truncated: boolean;
  /** Body bytes parsed (after content decoding), at most `maxBytes`. */
  readonly byteLength: number;
  /** The network error's message, for `timeout` and `network-error`. */
  readonly error?: string;
  /**
   * For `ok` results: the response's validators and freshness fields, kept for a later
   * revalidation (see {@link FetchRobotsOptions.revalidate}). After a 304 they are the stored
   * ones updated with those the 304 sent (RFC 9111 §4.3.4).
   */
  readonly cacheHeaders?: RobotsCacheHeaders;
}

/**
 * RFC 9309 §2.5: "The parsing limit MUST be at least 500 kibibytes".
 * @example fetchRobots(site, { userAgent, maxBytes: MIN_MAX_BYTES - 1 }); // rejects with a RangeError
 */
export const MIN_MAX_BYTES = 500 * 1024;
/**
 * Default parsing limit: the RFC minimum, which is also Google's 500 KiB limit.
 * @example DEFAULT_MAX_BYTES; // → 512_000
 */
export const DEFAULT_MAX_BYTES = MIN_MAX_BYTES;
/**
 * RFC 9309 §2.3.1.2: "SHOULD follow at least five consecutive redirects".
 * @example DEFAULT_MAX_REDIRECTS; // → 5 (a sixth redirect makes robots.txt unavailable)
 */
export const DEFAULT_MAX_REDIRECTS = 5;
/**
 * Default deadline for a whole fetch, redirects and body included.
 * @example DEFAULT_TIMEOUT_MS; // → 30_000
 */
export const DEFAULT_TIMEOUT_MS = 30_000;
/**
 * Default deadline for each response's headers.
 * @example DEFAULT_HEADERS_TIMEOUT_MS; // → 10_000
 */
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;

/** Options after validation, defaults filled in. */
export interface ResolvedFetchOptions {
  readonly userAgent: string;
  readonly timeoutMs: number;
  readonly headersTimeoutMs: number;
  readonly maxBytes: number;
  readonly maxRedirects: number;
  readonly fetch: FetchLike;
  readonly profile: Profile;
  readonly now: () => number;
  readonly signal: AbortSignal | undefined;
}

/**
 * Validates fetch options and fills in defaults.
 *
 * @throws {TypeError} for a missing/ill-typed option; {RangeError} for a value out of range.
 * @example
 * resolveFetchOptions({ userAgent: 'ExampleBot/1.0' }).maxBytes; // → 512000
 */
export function resolveFetchOptions(options: FetchRobotsOptions): ResolvedFetchOptions {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`options must be an object with a userAgent, got ${describe(options)}`);
  }
  const { userAgent } = options;
  if (typeof userAgent !== 'string' || userAgent.trim() === '') {
    throw new TypeError(`options.userAgent must be a non-empty string, got ${describe(userAgent)}`);
  }
  // RFC 9110 §5.5: a field value has no CR, LF or NUL; Headers would reject it mid-fetch.
  if (/[\0-\x08\x0a-\x1f\x7f]/.test(userAgent)) {
    throw new TypeError(`options.userAgent must not contain control characters, got ${JSON.stringify(userAgent)}`);
  }
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  if (typeof maxBytes !== 'number' || !Number.isSafeInteger(maxBytes) || maxBytes < MIN_MAX_BYTES) {
    throw new RangeError(
      `options.maxBytes must be an integer >= ${MIN_MAX_BYTES} (RFC 9309 §2.5: at least 500 KiB), got ${describe(maxBytes)}`,
    );
  }
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  if (typeof maxRedirects !== 'number' || !Number.isInteger(maxRedirects) || maxRedirects < 5 || maxRedirects > 20) {
    throw new RangeError(
      `options.maxRedirects must be an integer from 5 (RFC 9309 §2.3.1.2) to 20, got ${describe(maxRedirects)}`,
    );
  }
  const timeoutMs = checkDuration(options.timeoutMs ?? DEFAULT_TIMEOUT_MS, 'options.timeoutMs');
  const headersTimeoutMs = checkDuration(options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS, 'options.headersTimeoutMs');
  const fetchImpl = options.fetch ?? (globalThis.fetch as FetchLike | undefined);
  if (typeof fetchImpl !== 'function') {
    throw new TypeError(`options.fetch must be a function (no global fetch here), got ${describe(fetchImpl)}`);
  }
  const profile = options.profile ?? 'rfc';
  expectProfile(profile, 'options.profile');
  const now = options.now ?? Date.now;
  if (typeof now !== 'function') throw new TypeError(`options.now must be a function, got ${describe(now)}`);
  const { signal } = options;
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new TypeError(`options.signal must be an AbortSignal, got ${describe(signal)}`);
  }
  return { userAgent, timeoutMs, headersTimeoutMs, maxBytes, maxRedirects, fetch: fetchImpl, profile, now, signal };
}

function checkDuration(value: unknown, name: string): number {
  // setTimeout clamps anything above 2^31 - 1 ms to 1 ms; refuse it instead.
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > 0x7fffffff) {
    throw new RangeError(`${name} must be a number of ms in (0, 2147483647], got ${describe(value)}`);
  }
  return value;
}

/**
 * Fetches `scheme://authority/robots.txt` for a site and returns the rules to follow.
 * Accepts a site origin or any URL on the site. Never rejects because of the network:
 * every failure becomes a status (RFC 9309 §2.3.1). Rejects only for invalid arguments
 * (TypeError / RangeError) and when `options.signal` aborts (with its reason).
 *
 * | outcome                                   | status        | robots            |
 * |-------------------------------------------|---------------|-------------------|
 * | 2xx (§2.3.1.1), within 5 redirects        | `ok`          | parsed body       |
 * | 4xx except 429 (§2.3.1.3)                 | `unavailable` | `allowAll()`      |
 * | more than 5 redirects, loop (§2.3.1.2)    | `unavailable` | `allowAll()`      |
 * | 5xx, 429, other codes, network, timeout (§2.3.1.4) | `unreachable` | `disallowAll()` |
 *
 * @example
 * const result = await fetchRobots('https://example.com/some/page', { userAgent: 'ExampleBot/1.0' });
 * result.status;                                                // → 'ok'
 * result.robots.isAllowed('https://example.com/private', 'ExampleBot'); // → false
 */
export async function fetchRobots(siteOrUrl: string | URL, options: FetchRobotsOptions): Promise<RobotsFetchResult> {
  const robotsUrl = robotsUrlOf(siteOrUrl);
  return fetchRobotsFile(robotsUrl, options);
}

/**
 * Fetches a robots.txt-format file at exactly `fileUrl` (no `/robots.txt` rewriting) with
 * the RFC 9309 §2.3 rules of {@link fetchRobots}: manual redirects, limits, deadlines and
 * the status mapping. Used for ACAP permission files and by {@link fetchRobots}.
 *
 * @example
 * const r = await fetchRobotsFile('https://example.com/acap.txt', { userAgent: 'ExampleBot/1.0' });
 * r.status; // → 'ok' | 'unavailable' | 'unreachable'
 */
export async function fetchRobotsFile(fileUrl: string | URL, options: FetchRobotsOptions): Promise<RobotsFetchResult> {
  const startUrl = parseHttpUrl(fileUrl, 'fileUrl');
  const o = resolveFetchOptions(options);
  o.signal?.throwIfAborted();
  const fetchedAt = o.now();
  const url = startUrl.href;
  const stored = checkRevalidate(options.revalidate, url, o.profile);
  const validators = stored?.cacheHeaders ?? {};
  // RFC 9111 §4.3.1: a validation request carries the stored response's validators; with
  // none there is nothing to validate and the request stays unconditional.
  let conditional = validators.etag !== undefined || validators.lastModified !== undefined;
  const redirects: string[] = [];
  let finalUrl = url;

  const base = { url, redirects, fetchedAt };
  const verdict = (
    status: RobotsFetchStatus,
    reason: RobotsFetchReason,
    extra: { httpStatus?: number; retryAfterMs?: number; error?: string; expiresAt?: number; noStore?: boolean } = {},
  ): RobotsFetchResult => ({
    ...base,
    status,
    reason,
    finalUrl,
    // RFC 9309 §2.3.1.3: unavailable → the crawler MAY access any resource;
    // §2.3.1.4: unreachable → it MUST assume complete disallow.
    robots: fixedRobots(status === 'unavailable' ? 'allow' : 'disallow', o.profile),
    expiresAt: extra.expiresAt ?? fetchedAt + (extra.retryAfterMs ?? 0),
    noStore: extra.noStore ?? false,
    truncated: false,
    byteLength: 0,
    ...(extra.httpStatus === undefined ? {} : { httpStatus: extra.httpStatus }),
    ...(extra.retryAfterMs === undefined ? {} : { retryAfterMs: extra.retryAfterMs }),
    ...(extra.error === undefined ? {} : { error: extra.error }),
  });

  // One controller for the whole exchange: the total deadline, the per-response headers
  // deadline and the caller's signal all abort it; every timer is cleared in `finally`.
  const controller = new AbortController();
  let timedOut: 'total' | 'headers' | undefined;
  const totalTimer = setTimeout(() => {
    timedOut = 'total';
    controller.abort(new Error(`robots.txt fetch exceeded timeoutMs (${o.timeoutMs} ms)`));
  }, o.timeoutMs);
  let headersTimer: ReturnType<typeof setTimeout> | undefined;
  const onCallerAbort = (): void => controller.abort(o.signal?.reason);
  o.signal?.addEventListener('abort', onCallerAbort, { once: true });
  const headers = { 'user-agent': o.userAgent, accept: 'text/plain, */*;q=0.5' };
  // After an abort the exchange below may still be running (a fetch implementation that
  // ignores its signal); it stops at its next step instead of starting timers or requests.
  const live = (): void => controller.signal.throwIfAborted();

  const exchange = async (): Promise<RobotsFetchResult> => {
    const seen = new Set<string>([url]);
    for (;;) {
      live();
      headersTimer = setTimeout(() => {
        timedOut = 'headers';
        controller.abort(new Error(`robots.txt response headers exceeded headersTimeoutMs (${o.headersTimeoutMs} ms)`));
      }, o.headersTimeoutMs);
      // The validators describe the representation at the stored chain's end, so only the
      // request for that URL is made conditional (RFC 9110 §13.1: preconditions are
      // evaluated against the target resource).
      const sentConditional = conditional && stored !== undefined && finalUrl === stored.finalUrl;
      let response: Response;
      try {
        // RFC 9309 §2.3.1.2: redirects are followed by hand to count them, keep the chain
        // and apply the rules to the initial authority.
        response = await o.fetch(finalUrl, {
          method: 'GET',
          redirect: 'manual',
          headers: sentConditional ? { ...headers, ...conditionalHeaders(validators) } : headers,
          signal: controller.signal,
        });
      } finally {
        clearTimeout(headersTimer);
      }
      if (controller.signal.aborted) {
        void discardBody(response);
        live();
      }
      const status = response.status;
      const hints = cacheHintsOf(response.headers, fetchedAt);

      if (status >= 200 && status <= 299) {
        // RFC 9309 §2.3.1.1: "MUST follow the parseable rules". The media type is not
        // checked: servers often mislabel robots.txt, and the parser accepts any bytes.
        // One byte past the limit is kept so that Robots.parse sees the cut and drops the
        // line it went through (a cut `Allow: /a/b` must not become `Allow: /a`).
        const body = await readLimited(response.body, o.maxBytes + 1, controller.signal);
        const robots = Robots.parse(body.bytes, { profile: o.profile, maxBytes: o.maxBytes });
        return {
          ...base,
          status: 'ok',
          reason: 'success',
          httpStatus: status,
          robots,
          finalUrl,
          expiresAt: fetchedAt + hints.freshnessMs,
          noStore: hints.noStore,
          truncated: robots.truncated,
          byteLength: robots.byteLength,
          cacheHeaders: cacheHeadersOf(response.headers),
        };
      }
      await discardBody(response);
      live();

      if (status === 304 && sentConditional && stored !== undefined) {
        if (selectsStored(response.headers, validators)) {
          // RFC 9111 §4.3.3: a 304 to a validation request means the stored response may be
          // reused; §4.3.4: its header fields replace the stored ones, and the freshness is
          // computed again from the result (RFC 9309 §2.4 cap included).
          const updated = updateCacheHeaders(validators, response.headers);
          const fresh = cacheHintsOf(freshnessHeaders(updated, response.headers), fetchedAt);
          return {
            ...base,
            status: 'ok',
            reason: 'not-modified',
            httpStatus: status,
            robots: stored.robots,
            finalUrl,
            expiresAt: fetchedAt + fresh.freshnessMs,
            noStore: fresh.noStore,
            truncated: stored.truncated,
            byteLength: stored.byteLength,
            cacheHeaders: updated,
          };
        }
        // RFC 9111 §4.3.4: a 304 whose validator matches no stored response MUST NOT update
        // it. Ask once more, unconditionally, for the whole file.
        conditional = false;
        continue;
      }

      if (isFollowableRedirect(status)) {
        const location = response.headers.get('location');
        let next: URL | undefined;
        try {
          next = location === null ? undefined : new URL(location, finalUrl);
        } catch {
          next = undefined;
        }
        if (next === undefined || (next.protocol !== 'http:' && next.protocol !== 'https:')) {
          return verdict('unreachable', 'missing-location', { httpStatus: status });
        }
        // RFC 9309 §2.3.1.2: "If there are more than five consecutive redirects, crawlers
        // MAY assume that the robots.txt file is unavailable."
        if (redirects.length >= o.maxRedirects) {
          return verdict('unavailable', 'too-many-redirects', { httpStatus: status, ...cacheFields(hints, fetchedAt) });
        }
        next.hash = '';
        redirects.push(next.href);
        finalUrl = next.href;
        // A loop can only end in "more than five redirects"; stop at the first repeat
        // instead of spending the remaining requests on it.
        if (seen.has(next.href)) {
          return verdict('unavailable', 'redirect-loop', { httpStatus: status, ...cacheFields(hints, fetchedAt) });
        }
        seen.add(next.href);
        continue;
      }
      if (status === 429) {
        // RFC 9309 §2.3.1.3 calls unavailable the codes saying "the resource in question is
        // unavailable"; 429 says the server is overloaded, a server condition, so it is
        // treated as §2.3.1.4 unreachable (as Google's crawler does).
        return verdict('unreachable', 'too-many-requests', { httpStatus: status, ...retryField(hints) });
      }
      if (status >= 400 && status <= 499) {
        // RFC 9309 §2.3.1.3: 4xx → unavailable → the crawler MAY access any resource.
        return verdict('unavailable', 'client-error', { httpStatus: status, ...cacheFields(hints, fetchedAt) });
      }
      if (status >= 500 && status <= 599) {
        // RFC 9309 §2.3.1.4: 5xx → unreachable → complete disallow.
        return verdict('unreachable', 'server-error', { httpStatus: status, ...retryField(hints) });
      }
      // 1xx, 3xx without a Location to follow, 304 to an unconditional GET (RFC 9110
      // §15.4.5: only a conditional request may get one, so no stored copy is selected), or
      // out of range: nothing was downloaded, so the file is undefined (RFC 9309 §2.3.1.4).
      return verdict('unreachable', 'unexpected-status', { httpStatus: status });
    }
  };

  // The deadlines hold whatever `o.fetch` does with its signal: the exchange is raced with
  // the controller's abort, so a fetch that never settles (or a body that drips for ever)
  // still ends in `timeout` at `timeoutMs` / `headersTimeoutMs`, and a limiter slot held
  // for this call is released then. The losing promise is left to settle on its own; it is
  // marked handled so that its late rejection is not an unhandled rejection.
  const aborted = new Promise<never>((_resolve, reject) => {
    if (controller.signal.aborted) reject(controller.signal.reason);
    controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
  });
  aborted.catch(() => undefined);
  try {
    const running = exchange();
    running.catch(() => undefined);
    return await Promise.race([running, aborted]);
  } catch (error) {
    if (o.signal?.aborted === true) throw o.signal.reason;
    const message = timedOut !== undefined ? errorMessage(controller.signal.reason) : errorMessage(error);
    // RFC 9309 §2.3.1.4: network errors and timeouts → unreachable → complete disallow.
    return verdict('unreachable', timedOut !== undefined ? 'timeout' : 'network-error', { error: message });
  } finally {
    clearTimeout(totalTimer);
    clearTimeout(headersTimer);
    o.signal?.removeEventListener('abort', onCallerAbort);
  }
}

// The allow-all and disallow-all files are the same for every site: build each once per
// profile (their per-agent matchers are cached inside Robots and shared too).
const fixed = new Map<string, Robots>();
function fixedRobots(kind: 'allow' | 'disallow', profile: Profile): Robots {
  const key = `${kind}:${profile}`;
  let robots = fixed.get(key);
  if (robots === undefined) {
    robots = kind === 'allow' ? Robots.allowAll({ profile }) : Robots.disallowAll({ profile });
    fixed.set(key, robots);
  }
  return robots;
}

function checkRevalidate(stored: unknown, url: string, profile: Profile): RobotsFetchResult | undefined {
  if (stored === undefined) return undefined;
  const result = stored as Partial<RobotsFetchResult> | null;
  if (typeof result !== 'object' || result === null || result.status !== 'ok' || !(result.robots instanceof Robots)) {
    throw new TypeError(`options.revalidate must be an 'ok' RobotsFetchResult, got ${describe(result?.status ?? result)}`);
  }
  if (result.url !== url) {
    throw new TypeError(`options.revalidate must be a result for ${JSON.stringify(url)}, got one for ${describe(result.url)}`);
  }
  if (result.robots.profile !== profile) {
    throw new TypeError(`options.revalidate was parsed with profile '${result.robots.profile}', this fetch uses '${profile}'`);
  }
  return result as RobotsFetchResult;
}

function cacheFields(hints: ReturnType<typeof cacheHintsOf>, fetchedAt: number): { expiresAt: number; noStore: boolean } {
  return { expiresAt: fetchedAt + hints.freshnessMs, noStore: hints.noStore };
}

function retryField(hints: ReturnType<typeof cacheHintsOf>): { retryAfterMs?: number } {
  return hints.retryAfterMs === undefined ? {} : { retryAfterMs: hints.retryAfterMs };
}

function errorMessage(error: unknown): string {
  if (error instanceof Error) {
    // undici wraps socket errors: "fetch failed" with the useful part in `cause`.
    const cause = (error as { cause?: unknown }).cause;
    return cause instanceof Error ? `${error.message}: ${cause.message}` : error.message;
  }
  return String(error);
}
