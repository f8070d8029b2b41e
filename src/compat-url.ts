// Compat's origin check and match URL: a byte comparison with the robots.txt origin for plain URLs, WHATWG URL parsing for the rest.
//
// robots-parser parses every URL with WHATWG `URL`, which dominates the cost of a per-URL
// check. Most URLs a crawler asks about are already in the form that parsing would
// produce: they start with the serialized origin (`https://host[:port]`) and their path
// and query hold only characters WHATWG URL copies unchanged. For those the answer can
// be read from the string itself; anything else (another spelling of the host, a default
// port, userinfo, dot segments, backslashes, tabs, newlines, non-ASCII, characters WHATWG
// percent-encodes, an empty `?`) takes the WHATWG path, so both give the same answers.
// test/compat-url.test.ts checks that on generated URLs.

// Relative URLs (robots-parser ≥ 2.3) are resolved against this base. `.invalid` is
// reserved (RFC 2606 §2) and never resolves, so no real crawl target can collide with it.
const RELATIVE_BASE = 'http://relative.invalid/';
const MATCH_PREFIX = 'http://relative.invalid';

/**
 * Characters WHATWG URL copies unchanged into a special URL's path and query, in every
 * version of the URL Standard: RFC 3986 unreserved and sub-delims except `'` (percent-
 * encoded in special queries), plus `:`, `@`, `/` and `%` (kept as written, even when no
 * hex digits follow). Left out although often kept: `[`, `]`, `|`, `^`, whose handling
 * has changed between versions of the standard.
 */
const PLAIN = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&()*+,;=:@/%') PLAIN[c.charCodeAt(0)] = 1;

/**
 * Characters WHATWG URL copies unchanged into a special URL's query: printable ASCII
 * outside the special-query percent-encode set (`"`, `#`, `<`, `>`, `'`), and not `\`.
 */
const PLAIN_QUERY = new Uint8Array(128);
for (let c = 0x21; c < 0x7f; c++) PLAIN_QUERY[c] = '"#<>\'\\'.includes(String.fromCharCode(c)) ? 0 : 1;

/** Parses `url` (absolute, or relative to {@link RELATIVE_BASE}); `null` when it is not a valid URL. */
function parseUrl(url: unknown): URL | null {
  if (typeof url !== 'string') return null;
  try {
    return new URL(url, RELATIVE_BASE);
  } catch {
    return null;
  }
}

/**
 * Whether `url` is `prefix` followed by a path (and maybe a query and fragment) that
 * WHATWG URL parsing would leave exactly as written: every character of the path and
 * query in {@link PLAIN} or `?`, no path segment that could be a dot segment (one starting
 * with `.` or `%2e`, RFC 3986 §5.2.4 / URL Standard "single-dot" and "double-dot"
 * segments), and no `?` with nothing after it (WHATWG drops an empty query; the matcher
 * would keep it). The fragment is not looked at: both paths drop it.
 */
function isPlainUrl(url: string, prefix: string): boolean {
  const start = prefix.length;
  const end = url.length;
  if (end < start || !url.startsWith(prefix)) return false;
  // The origin alone: WHATWG gives the path '/', as the matcher does for an empty path.
  if (end === start) return true;
  if (url.charCodeAt(start) !== 0x2f) return false;
  let i = start + 1;
  for (; i < end; i++) {
    const c = url.charCodeAt(i);
    if (c === 0x23) return true; // '#': the fragment, dropped by both paths
    if (c === 0x3f) break;
    if (c >= 0x80 || PLAIN[c] === 0) return false;
    if (url.charCodeAt(i - 1) === 0x2f) {
      // The first character of a path segment: '.' or '%2e' may start a dot segment.
      if (c === 0x2e) return false;
      if (c === 0x25 && url.charCodeAt(i + 1) === 0x32 && (url.charCodeAt(i + 2) | 0x20) === 0x65) return false;
    }
  }
  if (i === end) return true;
  // The query: WHATWG drops an empty one ('?' then nothing or '#'); the matcher keeps it.
  if (i + 1 === end || url.charCodeAt(i + 1) === 0x23) return false;
  for (i++; i < end; i++) {
    const c = url.charCodeAt(i);
    if (c === 0x23) return true;
    if (c >= 0x80 || PLAIN_QUERY[c] === 0) return false;
  }
  return true;
}

/**
 * The origin of one robots.txt URL (RFC 9309 §2.3: the file at
 * `scheme:[//authority]/robots.txt` holds the rules of that scheme and authority) and the
 * URL its matcher should judge for a crawl URL.
 * @example new RobotsOrigin('https://a.test/robots.txt').matchUrl('https://a.test/x?y') // 'https://a.test/x?y'
 */
export class RobotsOrigin {
  readonly #origin: URL | null;
  /** `protocol//host[:port]` as WHATWG URL serializes it, for http(s) origins; else null. */
  readonly #prefix: string | null;

  constructor(robotsUrl: unknown) {
    const origin = parseUrl(robotsUrl);
    this.#origin = origin;
    // Only the special schemes crawlers use: file: (drive letters) and non-special schemes
    // (opaque paths, other escaping) keep the WHATWG path.
    const web = origin !== null && (origin.protocol === 'http:' || origin.protocol === 'https:') && origin.host !== 'relative.invalid';
    this.#prefix = web ? `${origin.protocol}//${origin.host}` : null;
  }

  /**
   * The URL the matcher should judge for `url`, or `null` when `url` is not on this
   * origin or cannot be parsed. A plain URL (see isPlainUrl) is returned as it is: the
   * matcher reads the same path and query from it as from the WHATWG result.
   */
  matchUrl(url: unknown): string | null {
    if (typeof url !== 'string') return null;
    const prefix = this.#prefix;
    if (prefix !== null && isPlainUrl(url, prefix)) return url;
    return this.parsedMatchUrl(url);
  }

  /**
   * What {@link matchUrl} answers for a plain URL, `undefined` for any other (it then
   * parses). For tests comparing the two paths.
   */
  plainMatchUrl(url: string): string | undefined {
    return this.#prefix !== null && isPlainUrl(url, this.#prefix) ? url : undefined;
  }

  /** The match URL by WHATWG URL parsing: path and query behind a fixed origin, or `null` off this origin. */
  parsedMatchUrl(url: unknown): string | null {
    const parsed = parseUrl(url);
    const origin = this.#origin;
    // WHATWG URL already lowercases and punycodes hosts and drops default ports.
    if (
      parsed === null ||
      origin === null ||
      parsed.protocol !== origin.protocol ||
      parsed.hostname !== origin.hostname ||
      parsed.port !== origin.port
    ) {
      return null;
    }
    // The path as a browser or fetch() would request it: dot segments resolved,
    // fragment dropped. The core's RFC profile then percent-normalizes it (§2.2.2).
    // It goes to the core behind a fixed authority: a bare path such as `//x` would
    // otherwise read as a network-path reference to host `x`.
    return MATCH_PREFIX + parsed.pathname + parsed.search;
  }
}
