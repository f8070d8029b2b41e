// HTTP details of the robots.txt access method: the robots.txt URI, status classes, freshness.

/**
 * RFC 9309 §2.4: "SHOULD NOT use the cached version for more than 24 hours".
 * @example MAX_FRESHNESS_MS; // → 86_400_000
 */
export const MAX_FRESHNESS_MS = 24 * 60 * 60 * 1000;

/**
 * The origin (`scheme://authority`) of a site or of any URL on it, as the cache key and
 * the base of the robots.txt URI. Only `http:` and `https:` are accepted.
 *
 * @throws {TypeError} when `siteOrUrl` is not an absolute http(s) URL.
 * @example
 * originOf('https://Example.com:443/a/b?c'); // → 'https://example.com'
 */
export function originOf(siteOrUrl: string | URL, name = 'siteOrUrl'): string {
  return parseHttpUrl(siteOrUrl, name).origin;
}

/**
 * RFC 9309 §2.3: the rules live at `scheme:[//authority]/robots.txt`; the path, query and
 * fragment of the input are dropped.
 *
 * @throws {TypeError} when `siteOrUrl` is not an absolute http(s) URL.
 * @example
 * robotsUrlOf('http://127.0.0.1:8080/shop/item?id=3'); // → 'http://127.0.0.1:8080/robots.txt'
 */
export function robotsUrlOf(siteOrUrl: string | URL, name = 'siteOrUrl'): string {
  return `${originOf(siteOrUrl, name)}/robots.txt`;
}

/**
 * Parses an absolute http(s) URL, or throws a TypeError naming the argument.
 *
 * @example
 * parseHttpUrl('http://127.0.0.1:8080/x', 'url').port; // → '8080'
 * parseHttpUrl('/x', 'url'); // throws TypeError('url must be an absolute http(s) URL, got "/x"')
 */
export function parseHttpUrl(input: string | URL, name: string): URL {
  if (typeof input !== 'string' && !(input instanceof URL)) {
    throw new TypeError(`${name} must be a string or URL, got ${describe(input)}`);
  }
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new TypeError(`${name} must be an absolute http(s) URL, got ${JSON.stringify(String(input))}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`${name} must use http: or https:, got ${JSON.stringify(url.protocol)}`);
  }
  return url;
}

/**
 * A short description of a value for error messages: the value itself for primitives.
 *
 * @example
 * describe(42); // → '42'
 * describe({}); // → 'object'
 */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return typeof value;
}

/**
 * Redirect statuses that carry a Location to follow (RFC 9110 §15.4).
 *
 * @example
 * isFollowableRedirect(308); // → true
 * isFollowableRedirect(304); // → false (Not Modified is not a redirect)
 */
export function isFollowableRedirect(status: number): boolean {
  return status === 301 || status === 302 || status === 303 || status === 307 || status === 308;
}

/** Freshness and retry hints read from a response's headers. */
export interface CacheHints {
  /** `Cache-Control: no-store` (RFC 9111 §5.2.2.5): the response must not be kept. */
  readonly noStore: boolean;
  /** How long the response is fresh, in ms, capped at 24 h (RFC 9309 §2.4). */
  readonly freshnessMs: number;
  /** `Retry-After` (RFC 9110 §10.2.3) in ms, when present and valid. */
  readonly retryAfterMs: number | undefined;
}

/**
 * Reads `Cache-Control`, `Age`, `Expires`, `Date` and `Retry-After` from `headers`.
 * RFC 9309 §2.4: crawlers MAY use standard cache control (RFC 9111) but SHOULD NOT use a
 * cached copy for more than 24 hours, so every lifetime is capped at 24 h and a response
 * without freshness information gets the full 24 h.
 *
 * @example
 * cacheHintsOf(new Headers({ 'cache-control': 'max-age=60', age: '10' }), Date.now());
 * // → { noStore: false, freshnessMs: 50_000, retryAfterMs: undefined }
 */
export function cacheHintsOf(headers: Headers, nowMs: number): CacheHints {
  const directives = parseCacheControl(headers.get('cache-control'));
  const noStore = directives.has('no-store');
  const retryAfterMs = parseRetryAfter(headers.get('retry-after'), headers.get('date'), nowMs);
  let freshnessMs: number;
  if (noStore || directives.has('no-cache')) {
    // RFC 9111 §5.2.2.4: no-cache means "revalidate before every use", i.e. stale at once.
    freshnessMs = 0;
  } else if (directives.has('max-age')) {
    const maxAge = parseSeconds(directives.get('max-age'));
    const age = parseSeconds(headers.get('age') ?? '0') ?? 0;
    // RFC 9111 §4.2.1: an invalid max-age makes the response stale; §4.2.3: subtract Age.
    freshnessMs = maxAge === undefined ? 0 : Math.max(0, maxAge - age) * 1000;
  } else if (headers.has('expires')) {
    const expires = Date.parse(headers.get('expires') ?? '');
    const date = Date.parse(headers.get('date') ?? '');
    // RFC 9111 §5.3: an invalid Expires date means "already expired".
    freshnessMs = Number.isNaN(expires) ? 0 : Math.max(0, expires - (Number.isNaN(date) ? nowMs : date));
  } else {
    freshnessMs = MAX_FRESHNESS_MS;
  }
  return { noStore, freshnessMs: Math.min(freshnessMs, MAX_FRESHNESS_MS), retryAfterMs };
}

/**
 * Splits a Cache-Control value into lowercase directive names and unquoted arguments.
 *
 * @example
 * parseCacheControl('Public, Max-Age="60"'); // → Map { 'public' => '', 'max-age' => '60' }
 */
export function parseCacheControl(value: string | null): Map<string, string> {
  const directives = new Map<string, string>();
  if (value === null) return directives;
  for (const part of value.split(',')) {
    const eq = part.indexOf('=');
    const name = (eq < 0 ? part : part.slice(0, eq)).trim().toLowerCase();
    if (name === '') continue;
    let arg = eq < 0 ? '' : part.slice(eq + 1).trim();
    if (arg.length >= 2 && arg.startsWith('"') && arg.endsWith('"')) arg = arg.slice(1, -1);
    // RFC 9111 §4.2.1: with conflicting duplicates the first one is used here, the
    // stricter reading (stale) would also be allowed.
    if (!directives.has(name)) directives.set(name, arg);
  }
  return directives;
}

function parseSeconds(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d+$/.test(value)) return undefined;
  return Number(value);
}

/** `Retry-After`: delay-seconds or an HTTP-date, relative to the response's `Date` when given. */
function parseRetryAfter(value: string | null, date: string | null, nowMs: number): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  const seconds = parseSeconds(trimmed);
  if (seconds !== undefined) return Math.min(seconds * 1000, MAX_FRESHNESS_MS);
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  const base = date === null || Number.isNaN(Date.parse(date)) ? nowMs : Date.parse(date);
  return Math.min(Math.max(0, at - base), MAX_FRESHNESS_MS);
}
