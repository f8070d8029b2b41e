// Compat's origin check and match URL: one regular expression of the robots.txt origin for plain URLs, WHATWG URL parsing for the rest.
//
// robots-parser parses every URL with WHATWG `URL`, which dominates the cost of a per-URL
// check. Most URLs a crawler asks about are already in the form that parsing would
// produce: they start with the serialized origin (`https://host[:port]`) and their path
// and query hold only characters WHATWG URL copies unchanged. For those the answer can
// be read from the string itself; anything else (another spelling of the host, a default
// port, userinfo, dot segments, backslashes, tabs, newlines, non-ASCII, characters WHATWG
// percent-encodes, an empty `?`) takes the WHATWG path, so both give the same answers.
// test/compat-url.test.ts checks that on generated URLs. Compat's isAllowed has the same
// check done in Wasm while the URL is judged (matchOnOrigin, given {@link
// RobotsOrigin.plainOrigin}'s bytes); the pattern here serves the rest of compat and is
// the reference the tests hold the Wasm check to.

// Relative URLs (robots-parser ≥ 2.3) are resolved against this base. `.invalid` is
// reserved (RFC 2606 §2) and never resolves, so no real crawl target can collide with it.
const RELATIVE_BASE = 'http://relative.invalid/';
const MATCH_PREFIX = 'http://relative.invalid';

/**
 * What may follow the origin for WHATWG URL to keep it as written: path segments of
 * characters WHATWG copies unchanged in every version of the URL Standard (RFC 3986
 * unreserved, sub-delims but `'`, `:`, `@`, and `%` even without hex digits after it;
 * `[`, `]`, `|`, `^`, whose handling has changed, are left out), none starting with `.`
 * or `%2e` (it may be a dot segment, URL Standard "single-dot"/"double-dot path
 * segment"); then maybe a non-empty query of printable ASCII outside the special-query
 * percent-encode set (`"`, `#`, `<`, `>`, `'`) and not `\`; then maybe a fragment, which
 * both paths drop (so it is not read: `#` ends the match). No path at all (`https://a.test?q`) qualifies too: WHATWG and the
 * matcher both read it as `/`. No backtracking: segments are split at `/`, which no class
 * matches. A regular expression because V8 runs it as native code (a charCodeAt loop
 * cost several times more per URL), one per origin starting with its prefix
 * ({@link plainUrlPattern}), which is cheaper than `startsWith` and a second expression.
 */
const PLAIN_TAIL = String.raw`(?:\/(?!\.|%2[eE])[A-Za-z0-9\-._~!$&()*+,;=:@%]*)*(?:\?[!$-&(-;=?-\[\]-~]+)?(?:#|$)`;

/**
 * `prefix` (taken literally) followed by {@link PLAIN_TAIL}: whether a URL is `prefix`
 * followed by nothing, or by a path (maybe a query and a fragment) that WHATWG URL
 * parsing would leave exactly as written. An empty query (`?` then nothing or `#`) does
 * not qualify: WHATWG drops it, the matcher would keep it.
 */
function plainUrlPattern(prefix: string): RegExp {
  return new RegExp(`^${prefix.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&')}${PLAIN_TAIL}`);
}

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
 * The origin of one robots.txt URL (RFC 9309 §2.3: the file at
 * `scheme:[//authority]/robots.txt` holds the rules of that scheme and authority) and the
 * URL its matcher should judge for a crawl URL.
 * @example new RobotsOrigin('https://a.test/robots.txt').matchUrl('https://a.test/x?y') // 'https://a.test/x?y'
 */
export class RobotsOrigin {
  readonly #origin: URL | null;
  /** {@link plainUrlPattern} of `protocol//host[:port]` as WHATWG URL serializes it, for http(s) origins; else null. */
  readonly #plain: RegExp | null;
  /** That `protocol//host[:port]` itself, for the same origins; else null. */
  readonly #plainOrigin: string | null;

  constructor(robotsUrl: unknown) {
    const origin = parseUrl(robotsUrl);
    this.#origin = origin;
    // Only the special schemes crawlers use: file: (drive letters) and non-special schemes
    // (opaque paths, other escaping) keep the WHATWG path.
    // A host with ';' (WHATWG allows it) keeps the WHATWG path too: the matcher, given the
    // whole URL, ends the authority at the first '/', '?', ';' or '#' (robots.cc's
    // GetPathParamsQuery), so it would read the path from inside such a host.
    const web =
      origin !== null &&
      (origin.protocol === 'http:' || origin.protocol === 'https:') &&
      origin.host !== 'relative.invalid' &&
      !origin.host.includes(';');
    this.#plainOrigin = web ? `${origin.protocol}//${origin.host}` : null;
    this.#plain = this.#plainOrigin !== null ? plainUrlPattern(this.#plainOrigin) : null;
  }

  /**
   * `protocol//host[:port]` as WHATWG URL serializes it (lowercase, punycode, no default
   * port) when plain URLs of this origin may skip parsing, else null: the prefix of
   * {@link plainPattern}, which the Wasm check (`matchOnOrigin`) compares byte for byte.
   */
  get plainOrigin(): string | null {
    return this.#plainOrigin;
  }

  /**
   * {@link plainUrlPattern} of this origin, or null when every URL must be parsed. Compat's
   * per-URL path tests it itself: one regular expression call is the whole check.
   */
  get plainPattern(): RegExp | null {
    return this.#plain;
  }

  /**
   * The URL the matcher should judge for `url`, or `null` when `url` is not on this
   * origin or cannot be parsed. A plain URL (see plainUrlPattern) is returned as it is: the
   * matcher reads the same path and query from it as from the WHATWG result.
   */
  matchUrl(url: unknown): string | null {
    if (typeof url !== 'string') return null;
    if (this.#plain !== null && this.#plain.test(url)) return url;
    return this.parsedMatchUrl(url);
  }

  /**
   * What {@link matchUrl} answers for a plain URL, `undefined` for any other (it then
   * parses). For tests comparing the two paths.
   */
  plainMatchUrl(url: string): string | undefined {
    return this.#plain !== null && this.#plain.test(url) ? url : undefined;
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
