// RobotsCache: one robots.txt per origin, fetched once, kept per RFC 9309 §2.4 and §2.3.1.4.
import { Robots } from '../robots.js';
import { isValidProductToken } from '../parse/product-token.js';
import { fetchRobots, resolveFetchOptions, type FetchRobotsOptions, type RobotsFetchResult, type RobotsFetchStatus } from './fetch-robots.js';
import { describe, originOf } from './http.js';
import { createFetchLimiter, type FetchLimiter } from './limiter.js';
import { LruMap } from './lru.js';

/**
 * RFC 9309 §2.3.1.4: "a reasonably long period of time (for example, 30 days)".
 * @example new RobotsCache({ userAgent, unreachableLimitMs: UNREACHABLE_LIMIT_MS / 2 });
 */
export const UNREACHABLE_LIMIT_MS = 30 * 24 * 60 * 60 * 1000;

/** Options of {@link RobotsCache}. Fetch options are passed to every {@link fetchRobots} call. */
export interface RobotsCacheOptions extends Omit<FetchRobotsOptions, 'signal' | 'revalidate'> {
  /**
   * The product token matched against user-agent lines (RFC 9309 §2.2.1), e.g. `ExampleBot`.
   * Default: derived from `userAgent` by {@link productTokenOf}.
   */
  productToken?: string;
  /** Origins kept; the least recently used is forgotten first. Default 1 000. */
  maxEntries?: number;
  /** Fetches running at once across origins. Default 16. Ignored when `limiter` is given. */
  concurrency?: number;
  /** A limiter shared with other work (e.g. the page fetcher). */
  limiter?: FetchLimiter;
  /** How soon an unreachable robots.txt is asked for again, in ms (`Retry-After` can extend it). Default 60 000. */
  unreachableRetryMs?: number;
  /** After this long unreachable, the site is treated as unavailable (RFC 9309 §2.3.1.4). Default 30 days. */
  unreachableLimitMs?: number;
}

/**
 * Which rules an entry applies:
 * - `fetched`: the latest fetch's own verdict (`ok` rules, or allow-all for `unavailable`);
 * - `last-good`: robots.txt is unreachable, the last successfully fetched copy is used;
 * - `unreachable`: unreachable and no good copy is known, complete disallow;
 * - `assumed-unavailable`: unreachable for `unreachableLimitMs` (30 days), allow-all.
 */
export type RobotsCacheBasis = 'fetched' | 'last-good' | 'unreachable' | 'assumed-unavailable';

/** What the cache knows about one origin. */
export interface RobotsCacheEntry {
  /** `scheme://authority`, the cache key. */
  readonly origin: string;
  /** The rules in force now (see `basis`). */
  readonly robots: Robots;
  /** The status of the latest fetch. */
  readonly status: RobotsFetchStatus;
  readonly basis: RobotsCacheBasis;
  /** The latest fetch. */
  readonly result: RobotsFetchResult;
  /**
   * The latest `ok` fetch, kept while robots.txt is unreachable and revalidated when the
   * entry expires (its `cacheHeaders` hold the validators sent back).
   */
  readonly lastGood: RobotsFetchResult | undefined;
  /** When the current run of unreachable fetches began, ms since the epoch. */
  readonly unreachableSince: number | undefined;
  /** When the cache fetches robots.txt again, ms since the epoch. */
  readonly expiresAt: number;
}

type Explanation = ReturnType<Robots['explain']>;
type BatchDecisions = ReturnType<ReturnType<Robots['forAgent']>['decideBatch']>;

/** Questions about URLs for one product token, answered from the cache. */
export interface RobotsCacheAgent {
  readonly productToken: string;
  /** Whether `url` may be crawled; fetches its origin's robots.txt when needed. */
  isAllowed(url: string | URL): Promise<boolean>;
  /** The deciding rule for `url` (see `Robots#explain`). */
  explain(url: string | URL): Promise<Explanation>;
  /**
   * Verdicts for many URLs, in input order (1 = allowed, 0 = disallowed). URLs are grouped
   * by origin, each origin's robots.txt is fetched once (at most `concurrency` at a time),
   * and each group is matched in one batch.
   */
  matchBatch(urls: readonly (string | URL)[], out?: Uint8Array): Promise<Uint8Array>;
  /** Like `matchBatch`, plus the deciding robots.txt line of each URL (0 = none), e.g. for `allow<TAB>LINE<TAB>URL` output. */
  decideBatch(urls: readonly (string | URL)[]): Promise<BatchDecisions>;
  /** Crawl-delay in seconds for the site of `url`, if its robots.txt sets one. */
  crawlDelay(url: string | URL): Promise<number | undefined>;
}

/**
 * The product token a crawler should match in robots.txt, read from its `User-Agent`
 * header (RFC 9309 §2.2.1: the token SHOULD be a substring of it): the product after
 * `compatible;` when present, else the leading product name.
 *
 * @throws {TypeError} when no token can be found.
 * @example
 * productTokenOf('ExampleBot/1.0 (+https://example.com/bot)');                     // → 'ExampleBot'
 * productTokenOf('Mozilla/5.0 (compatible; ExampleBot/0.1; https://example.com)'); // → 'ExampleBot'
 */
export function productTokenOf(userAgent: string): string {
  if (typeof userAgent !== 'string') throw new TypeError(`userAgent must be a string, got ${describe(userAgent)}`);
  const token = /\bcompatible;\s*([A-Za-z_-]+)/i.exec(userAgent)?.[1] ?? /^\s*([A-Za-z_-]+)/.exec(userAgent)?.[1];
  if (token === undefined) {
    throw new TypeError(`cannot derive a product token from userAgent ${JSON.stringify(userAgent)}; pass options.productToken`);
  }
  return token;
}

function checkProductToken(token: unknown, name: string): string {
  // RFC 9309 §2.2.1: "The product token MUST contain only uppercase and lowercase letters
  // ("a-z" and "A-Z"), underscores ("_"), and hyphens ("-")."
  if (typeof token !== 'string' || !isValidProductToken(token)) {
    throw new TypeError(`${name} must be a product token of letters, '_' and '-' (RFC 9309 §2.2.1), got ${describe(token)}`);
  }
  return token;
}

function checkMs(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new RangeError(`${name} must be a finite number of ms >= 0, got ${describe(value)}`);
  }
  return value;
}

/**
 * A bounded cache of robots.txt files keyed by origin, for a crawler with one
 * `User-Agent`. Each origin is fetched once: concurrent callers share the request.
 *
 * Freshness (RFC 9309 §2.4): `Cache-Control: max-age` / `Expires` are honoured, `no-store`
 * and `no-cache` mean "fetch again next time", and nothing is used for more than 24 hours
 * unless robots.txt is unreachable. An expired copy whose response had an `ETag` or
 * `Last-Modified` is revalidated (`If-None-Match` / `If-Modified-Since`, RFC 9111 §4.3):
 * a 304 keeps the same `Robots` (not parsed again) with an expiry computed from the 304's
 * headers, and the entry's `result.reason` is `'not-modified'`. Only a copy the cache still
 * holds is revalidated: an evicted, `no-store` or 4xx/5xx entry is fetched unconditionally. While unreachable (§2.3.1.4) the last good copy stays
 * in force; without one, everything is disallowed; after 30 days unreachable the site is
 * treated as unavailable (allow-all). Unreachable origins are retried every
 * `unreachableRetryMs` (or after `Retry-After`).
 *
 * Memory is bounded by `maxEntries` (LRU). The cache holds no timers.
 *
 * @example
 * const cache = new RobotsCache({ userAgent: 'ExampleBot/1.0 (+https://example.com/bot)' });
 * await cache.isAllowed('https://example.com/private/x');        // → false
 * await cache.matchBatch(['https://a.test/', 'https://b.test/x']); // → Uint8Array [1, 0]
 * (await cache.get('https://example.com')).status;                 // → 'ok'
 */
export class RobotsCache implements RobotsCacheAgent {
  readonly productToken: string;
  readonly maxEntries: number;
  private readonly entries: LruMap<string, RobotsCacheEntry>;
  private readonly inflight = new Map<string, Promise<RobotsCacheEntry>>();
  private readonly fetchOptions: FetchRobotsOptions;
  private readonly limiter: FetchLimiter;
  private readonly now: () => number;
  private readonly unreachableRetryMs: number;
  private readonly unreachableLimitMs: number;
  private readonly views = new Map<string, RobotsCacheAgent>();

  /** @throws {TypeError|RangeError} for invalid options (see {@link fetchRobots}). */
  constructor(options: RobotsCacheOptions) {
    const resolved = resolveFetchOptions(options); // validates userAgent, limits, fetch, profile
    this.productToken = checkProductToken(options.productToken ?? productTokenOf(options.userAgent), 'options.productToken');
    const maxEntries = options.maxEntries ?? 1000;
    if (typeof maxEntries !== 'number' || !Number.isInteger(maxEntries) || maxEntries < 1) {
      throw new RangeError(`options.maxEntries must be an integer >= 1, got ${describe(maxEntries)}`);
    }
    this.maxEntries = maxEntries;
    this.entries = new LruMap(this.maxEntries);
    this.limiter = options.limiter ?? createFetchLimiter({ concurrency: options.concurrency ?? 16 });
    this.now = resolved.now;
    this.unreachableRetryMs = checkMs(options.unreachableRetryMs ?? 60_000, 'options.unreachableRetryMs');
    this.unreachableLimitMs = checkMs(options.unreachableLimitMs ?? UNREACHABLE_LIMIT_MS, 'options.unreachableLimitMs');
    this.fetchOptions = {
      userAgent: resolved.userAgent,
      timeoutMs: resolved.timeoutMs,
      headersTimeoutMs: resolved.headersTimeoutMs,
      maxBytes: resolved.maxBytes,
      maxRedirects: resolved.maxRedirects,
      fetch: resolved.fetch,
      profile: resolved.profile,
      now: resolved.now,
    };
  }

  /** Origins currently cached. */
  get size(): number {
    return this.entries.size;
  }

  /**
   * The entry for the origin of `siteOrUrl`, fetching robots.txt first when there is no
   * entry or it has expired. Never rejects because of the network (see {@link fetchRobots}).
   *
   * @throws {TypeError} (as a rejection) when `siteOrUrl` is not an absolute http(s) URL.
   * @example
   * const entry = await cache.get('https://example.com');
   * entry.robots.isAllowed('/private', 'ExampleBot'); // → false
   */
  get(siteOrUrl: string | URL): Promise<RobotsCacheEntry> {
    let origin: string;
    try {
      origin = originOf(siteOrUrl);
    } catch (error) {
      return Promise.reject(error);
    }
    const entry = this.entries.get(origin);
    if (entry !== undefined && this.now() < entry.expiresAt) return Promise.resolve(entry);
    // One fetch per origin in flight: registered synchronously, so every caller that
    // arrives before it settles shares it (a revalidation too).
    const running = this.inflight.get(origin);
    if (running !== undefined) return running;
    // RFC 9111 §4.3.1: revalidate the last good copy this cache holds. A 304 only ever
    // stands for a 200 (RFC 9110 §15.4.5), so a cached 4xx (§2.3.1.3) or unreachable
    // outcome (§2.3.1.4) is asked for again in full.
    const stored = entry?.lastGood;
    const options = stored === undefined ? this.fetchOptions : { ...this.fetchOptions, revalidate: stored };
    const promise = this.limiter
      .run(() => fetchRobots(origin, options))
      .then((result) => this.settle(origin, result))
      .finally(() => this.inflight.delete(origin));
    this.inflight.set(origin, promise);
    return promise;
  }

  /**
   * The cached entry for the origin of `siteOrUrl`, fresh or not, without fetching.
   *
   * @example
   * cache.peek('https://never-seen.test'); // → undefined
   */
  peek(siteOrUrl: string | URL): RobotsCacheEntry | undefined {
    return this.entries.peek(originOf(siteOrUrl));
  }

  /**
   * Forgets the origin of `siteOrUrl` (an in-flight fetch still completes and is stored).
   *
   * @example
   * cache.delete('https://example.com'); // → true if it was cached
   */
  delete(siteOrUrl: string | URL): boolean {
    return this.entries.delete(originOf(siteOrUrl));
  }

  /**
   * Forgets every origin.
   *
   * @example
   * cache.clear(); cache.size; // → 0
   */
  clear(): void {
    this.entries.clear();
  }

  /**
   * A view of this cache that answers for another product token, sharing the fetched
   * files (one crawler, several tokens, e.g. `ExampleBot` and `ExampleBot-Image`).
   *
   * @throws {TypeError} when `productToken` is not a valid product token.
   * @example
   * const images = cache.forAgent('ExampleBot-Image');
   * await images.isAllowed('https://example.com/photos/1.jpg'); // → true or false
   */
  forAgent(productToken: string): RobotsCacheAgent {
    checkProductToken(productToken, 'productToken');
    let view = this.views.get(productToken);
    if (view === undefined) {
      view = createAgentView(this, productToken);
      // Views are tiny, but tokens may come from outside: bound the map like the entries.
      if (this.views.size >= 64) this.views.clear();
      this.views.set(productToken, view);
    }
    return view;
  }

  /**
   * Whether this cache's product token may crawl `url`.
   *
   * @example
   * await cache.isAllowed('https://example.com/private/x'); // → false
   */
  isAllowed(url: string | URL): Promise<boolean> {
    return this.forAgent(this.productToken).isAllowed(url);
  }

  /**
   * The deciding rule for `url` under this cache's product token.
   *
   * @example
   * (await cache.explain('https://example.com/private/x')).line; // → 3
   */
  explain(url: string | URL): Promise<Explanation> {
    return this.forAgent(this.productToken).explain(url);
  }

  /**
   * Verdicts for many URLs in input order, grouped by origin (see {@link RobotsCacheAgent.matchBatch}).
   *
   * @example
   * await cache.matchBatch(['https://a.test/ok', 'https://b.test/private']); // → Uint8Array [1, 0]
   */
  matchBatch(urls: readonly (string | URL)[], out?: Uint8Array): Promise<Uint8Array> {
    return this.forAgent(this.productToken).matchBatch(urls, out);
  }

  /**
   * Verdicts and deciding lines for many URLs in input order, grouped by origin.
   *
   * @example
   * await cache.decideBatch(['https://a.test/private']); // → { verdicts: Uint8Array [0], lines: Uint32Array [2] }
   */
  decideBatch(urls: readonly (string | URL)[]): Promise<BatchDecisions> {
    return this.forAgent(this.productToken).decideBatch(urls);
  }

  /**
   * Crawl-delay (seconds) for this cache's product token on the site of `url`.
   *
   * @example
   * await cache.crawlDelay('https://example.com/'); // → 2 or undefined
   */
  crawlDelay(url: string | URL): Promise<number | undefined> {
    return this.forAgent(this.productToken).crawlDelay(url);
  }

  /** Turns a fetch result into the entry in force, given what was known before. */
  private settle(origin: string, result: RobotsFetchResult): RobotsCacheEntry {
    const previous = this.entries.peek(origin);
    if (result.status !== 'unreachable') {
      const entry: RobotsCacheEntry = {
        origin,
        robots: result.robots,
        status: result.status,
        basis: 'fetched',
        result,
        lastGood: result.status === 'ok' && !result.noStore ? result : undefined,
        unreachableSince: undefined,
        expiresAt: result.noStore ? result.fetchedAt : result.expiresAt,
      };
      // RFC 9111 §5.2.2.5: no-store → keep nothing, not even the copy this one replaces.
      if (result.noStore) this.entries.delete(origin);
      else this.entries.set(origin, entry);
      return entry;
    }
    const since = previous?.unreachableSince ?? result.fetchedAt;
    const lastGood = previous?.lastGood;
    const limitAt = since + this.unreachableLimitMs;
    const retryAt = result.fetchedAt + Math.max(this.unreachableRetryMs, result.retryAfterMs ?? 0);
    let entry: RobotsCacheEntry;
    if (result.fetchedAt >= limitAt) {
      // RFC 9309 §2.3.1.4: undefined for a reasonably long period → MAY assume unavailable
      // (§2.3.1.3), i.e. access any resource.
      entry = {
        origin,
        robots: Robots.allowAll({ profile: result.robots.profile }),
        status: 'unreachable',
        basis: 'assumed-unavailable',
        result,
        lastGood,
        unreachableSince: since,
        expiresAt: retryAt,
      };
    } else {
      // RFC 9309 §2.4: the 24-hour limit does not hold while unreachable, so the last
      // good copy stays in force; without one, §2.3.1.4's complete disallow applies.
      entry = {
        origin,
        robots: lastGood?.robots ?? result.robots,
        status: 'unreachable',
        basis: lastGood === undefined ? 'unreachable' : 'last-good',
        result,
        lastGood,
        unreachableSince: since,
        // Re-check no later than the moment the 30-day rule would change the verdict.
        expiresAt: Math.min(retryAt, limitAt),
      };
    }
    this.entries.set(origin, entry);
    return entry;
  }
}

function createAgentView(cache: RobotsCache, productToken: string): RobotsCacheAgent {
  return {
    productToken,
    async isAllowed(url) {
      const entry = await cache.get(url);
      return entry.robots.isAllowed(String(url), productToken);
    },
    async explain(url) {
      const entry = await cache.get(url);
      return entry.robots.explain(String(url), productToken);
    },
    async crawlDelay(url) {
      const entry = await cache.get(url);
      return entry.robots.crawlDelay(productToken);
    },
    async matchBatch(urls, out) {
      checkUrls(urls);
      const verdicts = out ?? new Uint8Array(urls.length);
      if (!(verdicts instanceof Uint8Array) || verdicts.length < urls.length) {
        throw new RangeError(`out must be a Uint8Array of length >= ${urls.length}, got ${describe(out)}`);
      }
      await forEachOrigin(cache, urls, (robots, group, indices) => {
        const groupVerdicts = robots.forAgent(productToken).matchBatch(group);
        for (let k = 0; k < indices.length; k++) verdicts[indices[k]!] = groupVerdicts[k]!;
      });
      return verdicts;
    },
    async decideBatch(urls) {
      checkUrls(urls);
      const verdicts = new Uint8Array(urls.length);
      const lines = new Uint32Array(urls.length);
      await forEachOrigin(cache, urls, (robots, group, indices) => {
        const decided = robots.forAgent(productToken).decideBatch(group);
        for (let k = 0; k < indices.length; k++) {
          verdicts[indices[k]!] = decided.verdicts[k]!;
          lines[indices[k]!] = decided.lines[k]!;
        }
      });
      return { verdicts, lines };
    },
  };
}

function checkUrls(urls: unknown): asserts urls is readonly (string | URL)[] {
  if (!Array.isArray(urls)) throw new TypeError(`urls must be an array of URLs, got ${describe(urls)}`);
}

/**
 * Groups `urls` by origin (every URL is validated before any fetch starts), fetches each
 * origin's entry once, and hands each group to `match` with the input positions it fills.
 */
async function forEachOrigin(
  cache: RobotsCache,
  urls: readonly (string | URL)[],
  match: (robots: Robots, group: string[], indices: readonly number[]) => void,
): Promise<void> {
  const byOrigin = new Map<string, number[]>();
  for (let i = 0; i < urls.length; i++) {
    const origin = originOf(urls[i]!, `urls[${i}]`);
    const indices = byOrigin.get(origin);
    if (indices === undefined) byOrigin.set(origin, [i]);
    else indices.push(i);
  }
  await Promise.all(
    [...byOrigin].map(async ([origin, indices]) => {
      const entry = await cache.get(origin);
      match(entry.robots, indices.map((i) => String(urls[i])), indices);
    }),
  );
}
