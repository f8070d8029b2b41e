// robots-parser v3 compatible facade (`robotstxt-wasm/compat`) over the RFC 9309 core.
//
// Same call shapes and return conventions as npm `robots-parser`: `undefined` from
// isAllowed for a URL of another origin, -1 from getMatchingLineNumber when no rule
// decides, the crawler's User-Agent reduced to a lowercase name without its version.
// Matching itself is the core's RFC profile; where robots-parser and RFC 9309 disagree
// the RFC wins (docs/COMPAT.md lists every such difference).
import { Robots, crawlDelayForReducedName, matcherForReducedName } from './robots.js';
import { judgeOnOrigin, MATCH_NOT_PLAIN, ORIGIN_MAX_BYTES, type AgentMatcher } from './matcher.js';
import { RobotsOrigin } from './compat-url.js';
import { describe } from './errors.js';

const encoder = new TextEncoder();
/** The deciding line of getMatchingLineNumber's Wasm call. */
const lineScratch = new Uint32Array(1);

/** Distinct User-Agent strings whose matcher a parser remembers; past it the memo starts over. */
const UA_MEMO_SIZE = 64;

/** What {@link robotsParser} returns: the robots-parser v3 method set. */
export interface RobotsParserCompat {
  /**
   * `true` if `ua` may crawl `url`, `false` if not, `undefined` if `url` is not on the
   * origin (scheme, host, port) of the robots.txt URL or cannot be parsed.
   * @example robotsParser('https://a.test/robots.txt', 'User-agent: *\nDisallow: /x').isAllowed('https://a.test/x', 'Bot/1.0') // false
   */
  isAllowed(url: string, ua?: string): boolean | undefined;
  /**
   * The negation of {@link RobotsParserCompat.isAllowed}: like robots-parser 3 at run
   * time it answers `true` (not `undefined`) for a URL of another origin, so a crawler
   * that skips disallowed URLs also skips foreign ones.
   * @example robotsParser('https://a.test/robots.txt', 'User-agent: *\nDisallow: /x').isDisallowed('https://b.test/', 'Bot') // true
   */
  isDisallowed(url: string, ua?: string): boolean;
  /**
   * 1-based line of the rule that decides `url` for `ua`, or -1 when no rule matches
   * (also for a URL of another origin, and for the implicitly allowed /robots.txt).
   * @example robotsParser('https://a.test/robots.txt', 'User-agent: *\nDisallow: /x').getMatchingLineNumber('https://a.test/x/1') // 2
   */
  getMatchingLineNumber(url: string, ua?: string): number;
  /**
   * Crawl-delay in seconds for `ua` (`*` when omitted), read per user-agent block as
   * `Robots#crawlDelay` reads it: the value written under the user-agent lines naming
   * `ua`; `*`'s only when no line names it; `undefined` when none applies.
   * @example robotsParser('https://a.test/robots.txt', 'User-agent: *\nCrawl-delay: 2').getCrawlDelay('Bot') // 2
   */
  getCrawlDelay(ua?: string): number | undefined;
  /**
   * Every non-empty `Sitemap:` value in file order, as written (a fresh array per call).
   * @example robotsParser('https://a.test/robots.txt', 'Sitemap: https://a.test/s.xml').getSitemaps() // ['https://a.test/s.xml']
   */
  getSitemaps(): string[];
  /**
   * The value of the last non-empty `Host:` record, lowercased, or `null` when there is none.
   * @example robotsParser('https://a.test/robots.txt', 'Host: WWW.A.test').getPreferredHost() // 'www.a.test'
   */
  getPreferredHost(): string | null;
  /**
   * The parsed core object (RFC profile), for everything robots-parser has no method for.
   * @example robotsParser('https://a.test/robots.txt', 'User-agent: *\nDisallow: /').robots.forAgent('bot').matchBatch(['/a'])
   */
  readonly robots: Robots;
}

/**
 * Reduces a User-Agent string the way robots-parser does: `undefined`/`null`/empty means `*`,
 * otherwise lowercase, cut at the first `/` (the version), trimmed: `'Sams-Bot/1.0'` → `'sams-bot'`.
 * The result is then read like a user-agent line of the file (a product token whole, any
 * other name by its leading `[A-Za-z_-]` run: `my bot` → `my`, `mj12bot` → `mj`) and
 * matched against the file's tokens; a name with no such run asks for the `*` groups.
 * Unlike `Robots#isAllowed`, compat never rejects a User-Agent: robots-parser takes any.
 * @throws {TypeError} when `ua` is neither a string nor undefined.
 * @example reduceUserAgent('Mozilla/5.0 (compatible; ExampleBot/1.0)') // 'mozilla'
 * @example reduceUserAgent('ExampleBot/1.0') // 'examplebot'
 */
export function reduceUserAgent(ua: string | undefined): string {
  if (ua === undefined || ua === null || ua === '') return '*';
  if (typeof ua !== 'string') {
    throw new TypeError(`ua must be a string or undefined, got ${describe(ua)}`);
  }
  const lower = ua.toLowerCase();
  const slash = lower.indexOf('/');
  const name = (slash >= 0 ? lower.slice(0, slash) : lower).trim();
  // Nothing left (e.g. '/1.0'): robots-parser then finds no group of its own and uses `*`.
  return name === '' ? '*' : name;
}

class CompatRobots implements RobotsParserCompat {
  readonly robots: Robots;
  readonly #origin: RobotsOrigin;
  /** `#origin`'s plain-URL pattern (null: every URL is parsed), held here so a plain URL costs one test call. */
  readonly #plain: RegExp | null;
  /**
   * `#origin`'s plain origin as UTF-8 bytes (null: no plain URLs, or longer than the
   * engine's origin region): isAllowed hands it to the engine with each URL, and Wasm
   * decides whether the URL is plain while it scans it.
   */
  readonly #originBytes: Uint8Array | null;
  /** The last User-Agent string asked about and its matcher: crawlers repeat one. */
  #lastUa: string | undefined = undefined;
  #lastMatcher: AgentMatcher | null = null;
  /** Matchers by User-Agent string as passed (reduced and looked up once per string). */
  readonly #byUa = new Map<string, AgentMatcher>();

  constructor(url: unknown, contents: unknown) {
    // robots-parser treats a missing body (`null`, `undefined`, '') as an empty file.
    if (contents === null || contents === undefined) contents = '';
    if (typeof contents !== 'string' && !(contents instanceof Uint8Array)) {
      throw new TypeError(`contents must be a string, Uint8Array, null or undefined, got ${describe(contents)}`);
    }
    this.#origin = new RobotsOrigin(url);
    this.#plain = this.#origin.plainPattern;
    const plainOrigin = this.#origin.plainOrigin;
    const originBytes = plainOrigin === null ? null : encoder.encode(plainOrigin);
    this.#originBytes = originBytes !== null && originBytes.length <= ORIGIN_MAX_BYTES ? originBytes : null;
    this.robots = Robots.parse(contents, { profile: 'rfc' });
  }

  /** The matcher for a crawler's User-Agent, reduced as robots-parser reduces it (memoized per string). */
  #matcherFor(ua: string | undefined): AgentMatcher {
    if (ua === this.#lastUa && this.#lastMatcher !== null) return this.#lastMatcher;
    // Other non-strings go through reduceUserAgent each time: it maps null to '*' and
    // names any other type in its TypeError.
    if (typeof ua !== 'string' && ua !== undefined) return matcherForReducedName(this.robots, reduceUserAgent(ua));
    let matcher = ua === undefined ? undefined : this.#byUa.get(ua);
    if (matcher === undefined) {
      matcher = matcherForReducedName(this.robots, reduceUserAgent(ua));
      if (ua !== undefined) {
        if (this.#byUa.size >= UA_MEMO_SIZE) this.#byUa.clear();
        this.#byUa.set(ua, matcher);
      }
    }
    this.#lastUa = ua;
    this.#lastMatcher = matcher;
    return matcher;
  }

  /** The URL the matcher judges for `url` (RobotsOrigin#matchUrl), with the plain case inline: crawlers call this per URL. */
  #matchUrl(url: unknown): string | null {
    const plain = this.#plain;
    if (plain !== null && typeof url === 'string' && plain.test(url)) return url;
    return this.#origin.parsedMatchUrl(url);
  }

  /**
   * The crawler's case, a string URL and User-Agent: Wasm checks that `url` is plainly on
   * the origin while it judges it (verdict 1/0, the line to `lineOut`). MATCH_NOT_PLAIN
   * for anything else: the caller goes the general way (`#matchUrl`). A User-Agent of
   * another type keeps that way whole: robots-parser answers `undefined` for a foreign
   * URL before it reads the User-Agent.
   */
  #judgeOnOrigin(url: unknown, ua: unknown, lineOut: Uint32Array | null): number {
    const origin = this.#originBytes;
    if (origin === null || typeof url !== 'string' || (typeof ua !== 'string' && ua !== undefined)) return MATCH_NOT_PLAIN;
    const matcher = ua === this.#lastUa && this.#lastMatcher !== null ? this.#lastMatcher : this.#matcherFor(ua);
    return judgeOnOrigin(matcher, url, origin, lineOut);
  }

  isAllowed(url: string, ua?: string): boolean | undefined {
    const verdict = this.#judgeOnOrigin(url, ua, null);
    if (verdict !== MATCH_NOT_PLAIN) return verdict === 1;
    const matchUrl = this.#matchUrl(url);
    if (matchUrl === null) return undefined;
    const matcher = ua === this.#lastUa && this.#lastMatcher !== null ? this.#lastMatcher : this.#matcherFor(ua);
    return matcher.isAllowed(matchUrl);
  }

  isDisallowed(url: string, ua?: string): boolean {
    return !this.isAllowed(url, ua);
  }

  getMatchingLineNumber(url: string, ua?: string): number {
    if (this.#judgeOnOrigin(url, ua, lineScratch) !== MATCH_NOT_PLAIN) return lineScratch[0]! > 0 ? lineScratch[0]! : -1;
    const matchUrl = this.#matchUrl(url);
    if (matchUrl === null) return -1;
    const { line } = this.#matcherFor(ua).explain(matchUrl);
    return line > 0 ? line : -1;
  }

  getCrawlDelay(ua?: string): number | undefined {
    return crawlDelayForReducedName(this.robots, reduceUserAgent(ua));
  }

  getSitemaps(): string[] {
    return this.robots.sitemaps.slice();
  }

  getPreferredHost(): string | null {
    let host: string | null = null;
    // robots-parser: the last non-empty Host record wins, wherever it appears.
    for (const record of this.robots.others) {
      if (record.key.toLowerCase() === 'host' && record.value !== '') host = record.value.toLowerCase();
    }
    return host;
  }
}

/**
 * Parses `contents` as the robots.txt found at `url`, with npm robots-parser v3's API.
 * `url` fixes the origin the rules apply to; a relative `url` (e.g. `/robots.txt`)
 * accepts only relative URLs later. `contents` may also be a `Uint8Array` of UTF-8 bytes;
 * `null`/`undefined` mean an empty file (everything allowed).
 * @throws {TypeError} when `contents` is neither a string, a Uint8Array, null nor undefined.
 * @example
 * import robotsParser from 'robotstxt-wasm/compat';
 * const robots = robotsParser('https://example.com/robots.txt', 'User-agent: *\nDisallow: /private/\nCrawl-delay: 1');
 * robots.isAllowed('https://example.com/private/a', 'MyBot/1.0'); // false
 * robots.isAllowed('https://other.example/', 'MyBot/1.0');        // undefined (another origin)
 * robots.getMatchingLineNumber('https://example.com/private/a');  // 2
 * robots.getCrawlDelay('MyBot');                                  // 1
 */
export function robotsParser(url: string, contents: string | Uint8Array | null | undefined): RobotsParserCompat {
  return new CompatRobots(url, contents);
}

/**
 * The name robots-parser's type declarations give the parsed object (Crawlee imports it:
 * `import type { Robot } from 'robots-parser'`), so such code type-checks after the switch.
 */
export type Robot = RobotsParserCompat;

// CommonJS callers get the function itself, as from robots-parser (`module.exports =
// robotsParser`): Node ≥ 20.19 hands `require()` of an ES module its export named
// 'module.exports'. `.default` serves transpiled callers (`__importDefault`, Babel) that
// read the default of whatever `require()` returned; the named exports ride along so
// `require('robotstxt-wasm/compat').reduceUserAgent` still works.
const commonJsExport = Object.assign(robotsParser, { default: robotsParser, robotsParser, reduceUserAgent });

export { commonJsExport as 'module.exports' };
export default robotsParser;
