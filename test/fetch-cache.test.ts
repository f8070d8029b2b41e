// RobotsCache: RFC 9309 §2.4 caching and §2.3.1.4 unreachable handling, against real servers and an injected clock.
//
// §2.4: "Crawlers MAY use standard cache control as defined in [RFC9111]. Crawlers SHOULD
//   NOT use the cached version for more than 24 hours, unless the robots.txt file is
//   unreachable."
// §2.3.1.4: "If the robots.txt file is undefined for a reasonably long period of time (for
//   example, 30 days), crawlers MAY assume that the robots.txt file is unavailable as
//   defined in Section 2.3.1.3 or continue to use a cached copy."
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RobotsCache, productTokenOf, type RobotsCacheOptions } from '../src/fetch/index.js';
import { gated, redirect, startServer, status, text, type TestServer } from './helpers/http-server.js';

const SECOND = 1000;
const HOUR = 3600 * SECOND;
const DAY = 24 * HOUR;
const RULES = 'User-agent: *\nDisallow: /private\n';

let a: TestServer;
let b: TestServer;
let clock: number;

beforeEach(async () => {
  a = await startServer({ '/robots.txt': text(RULES) });
  b = await startServer({ '/robots.txt': text('User-agent: *\nDisallow: /blocked\n') });
  clock = Date.UTC(2025, 0, 1);
});
afterEach(async () => {
  await a.close();
  await b.close();
});

function makeCache(options: Partial<RobotsCacheOptions> = {}): RobotsCache {
  return new RobotsCache({ userAgent: 'TestBot/1.0', now: () => clock, timeoutMs: 5000, ...options });
}

describe('fetch once, reuse while fresh (RFC 9309 §2.4)', () => {
  it('answers from one fetch per origin', async () => {
    const cache = makeCache();
    expect(await cache.isAllowed(`${a.origin}/private/x`)).toBe(false);
    expect(await cache.isAllowed(`${a.origin}/public`)).toBe(true);
    expect((await cache.get(a.origin)).status).toBe('ok');
    expect(a.hits('/robots.txt')).toBe(1);
    expect(cache.size).toBe(1);
  });

  it.each([
    ['no Cache-Control: 24 h', {}, DAY],
    ['max-age=60', { 'cache-control': 'max-age=60' }, 60 * SECOND],
    ['max-age of a week is capped at 24 h', { 'cache-control': 'max-age=604800' }, DAY],
    ['no-cache: every time', { 'cache-control': 'no-cache' }, 0],
  ] as const)('%s', async (_name, headers, lifetime) => {
    a.route('/robots.txt', text(RULES, { headers }));
    const cache = makeCache();
    await cache.isAllowed(`${a.origin}/x`);
    clock += Math.max(0, lifetime - 1);
    await cache.isAllowed(`${a.origin}/x`);
    expect(a.hits('/robots.txt')).toBe(lifetime === 0 ? 2 : 1);
    clock += 1;
    await cache.isAllowed(`${a.origin}/x`);
    expect(a.hits('/robots.txt')).toBe(lifetime === 0 ? 3 : 2);
  });

  it('caches a 404 (unavailable → allow all) by the same rules', async () => {
    a.route('/robots.txt', status(404, { 'cache-control': 'max-age=300' }));
    const cache = makeCache();
    expect(await cache.isAllowed(`${a.origin}/private`)).toBe(true);
    clock += 299 * SECOND;
    expect(await cache.isAllowed(`${a.origin}/private`)).toBe(true);
    expect(a.hits('/robots.txt')).toBe(1);
  });

  it('no-store: keeps nothing, not even the copy it replaces', async () => {
    const cache = makeCache();
    await cache.get(a.origin); // a cacheable good copy
    clock += DAY;
    a.route('/robots.txt', text('User-agent: *\nDisallow: /nostore\n', { headers: { 'cache-control': 'no-store' } }));
    const entry = await cache.get(a.origin);
    expect(entry.robots.isAllowed('/nostore', 'TestBot')).toBe(false);
    expect(cache.peek(a.origin)).toBeUndefined();
    await cache.get(a.origin);
    expect(a.hits('/robots.txt')).toBe(3);
    // With no copy left, an outage now means complete disallow, not the first copy's rules.
    a.route('/robots.txt', status(503));
    const down = await cache.get(a.origin);
    expect(down.basis).toBe('unreachable');
    expect(down.robots.isAllowed('/public', 'TestBot')).toBe(false);
  });
});

describe('unreachable (RFC 9309 §2.3.1.4)', () => {
  it('keeps the last good copy beyond 24 h, retries, and gives up after 30 days', async () => {
    const cache = makeCache({ unreachableRetryMs: HOUR });
    await cache.get(a.origin);
    clock += DAY; // the good copy expires …
    a.route('/robots.txt', status(503));
    const down = await cache.get(a.origin); // … and the server is down
    expect(down.status).toBe('unreachable');
    expect(down.basis).toBe('last-good');
    expect(down.unreachableSince).toBe(clock);
    expect(await cache.isAllowed(`${a.origin}/private`)).toBe(false);
    expect(await cache.isAllowed(`${a.origin}/public`)).toBe(true);
    expect(a.hits('/robots.txt')).toBe(2); // retried only after unreachableRetryMs

    clock += HOUR;
    expect((await cache.get(a.origin)).basis).toBe('last-good');
    expect(a.hits('/robots.txt')).toBe(3);

    clock = down.unreachableSince! + 30 * DAY - 1;
    const late = await cache.get(a.origin);
    expect(late.basis).toBe('last-good');
    expect(late.expiresAt).toBe(down.unreachableSince! + 30 * DAY); // re-checked when the verdict changes

    clock += 1;
    const gaveUp = await cache.get(a.origin);
    expect(gaveUp.basis).toBe('assumed-unavailable');
    expect(await cache.isAllowed(`${a.origin}/private`)).toBe(true);
  });

  it('disallows everything when no good copy is known, then allows after 30 days', async () => {
    a.route('/robots.txt', status(500));
    const cache = makeCache({ unreachableRetryMs: DAY });
    const first = await cache.get(a.origin);
    expect(first.basis).toBe('unreachable');
    expect(await cache.isAllowed(`${a.origin}/anything`)).toBe(false);
    for (let day = 1; day < 30; day++) {
      clock += DAY;
      expect(await cache.isAllowed(`${a.origin}/anything`)).toBe(false);
    }
    clock += DAY;
    expect(await cache.isAllowed(`${a.origin}/anything`)).toBe(true);
    expect((await cache.get(a.origin)).basis).toBe('assumed-unavailable');
  });

  it('treats a network error like a 5xx', async () => {
    const cache = makeCache();
    await cache.get(a.origin);
    const origin = a.origin;
    await a.close();
    clock += DAY;
    const entry = await cache.get(origin);
    expect(entry.result.reason).toBe('network-error');
    expect(entry.basis).toBe('last-good');
    a = await startServer(); // for afterEach
  });

  it('does not serve a cached 404 during an outage', async () => {
    a.route('/robots.txt', status(404));
    const cache = makeCache();
    expect(await cache.isAllowed(`${a.origin}/x`)).toBe(true);
    clock += DAY;
    a.route('/robots.txt', status(503));
    expect(await cache.isAllowed(`${a.origin}/x`)).toBe(false);
  });

  it('recovers as soon as robots.txt is back', async () => {
    const cache = makeCache({ unreachableRetryMs: 10 * SECOND });
    a.route('/robots.txt', status(503));
    await cache.get(a.origin);
    clock += 10 * SECOND;
    a.route('/robots.txt', text(RULES));
    const back = await cache.get(a.origin);
    expect(back.basis).toBe('fetched');
    expect(back.unreachableSince).toBeUndefined();
    expect(back.lastGood).toBe(back.result);
  });

  it('waits for Retry-After when it is longer than unreachableRetryMs', async () => {
    a.route('/robots.txt', status(503, { 'retry-after': '600' }));
    const cache = makeCache({ unreachableRetryMs: 60 * SECOND });
    await cache.get(a.origin);
    clock += 599 * SECOND;
    await cache.get(a.origin);
    expect(a.hits('/robots.txt')).toBe(1);
    clock += SECOND;
    await cache.get(a.origin);
    expect(a.hits('/robots.txt')).toBe(2);
  });
});

describe('sharing and bounds', () => {
  it('shares one in-flight fetch among concurrent callers', async () => {
    const gate = gated(text(RULES));
    a.route('/robots.txt', gate.handler);
    const cache = makeCache();
    const answers = Promise.all([
      ...Array.from({ length: 20 }, (_, i) => cache.isAllowed(`${a.origin}/${i % 2 ? 'private' : 'public'}/${i}`)),
      cache.get(`${a.origin}/`),
      cache.matchBatch([`${a.origin}/private`, `${a.origin}/x`]),
    ]);
    await vi.waitFor(() => expect(gate.waiting).toBe(1), { timeout: 4000 });
    gate.release();
    const results = await answers;
    expect(a.hits('/robots.txt')).toBe(1);
    expect(results.slice(0, 4)).toEqual([true, false, true, false]);
  });

  it('forgets the least recently used origin beyond maxEntries', async () => {
    const cache = makeCache({ maxEntries: 2 });
    const third = a.localhostOrigin; // the same server under another authority
    await cache.get(a.origin);
    await cache.get(b.origin);
    await cache.get(a.origin); // a is now the most recently used
    await cache.get(third); // evicts b
    expect(cache.size).toBe(2);
    expect(cache.peek(b.origin)).toBeUndefined();
    expect(cache.peek(a.origin)).toBeDefined();
    await cache.get(b.origin);
    expect(b.hits('/robots.txt')).toBe(2);
  });

  it('limits fetches running at once across origins', async () => {
    const gateA = gated(text(RULES));
    const gateB = gated(text(RULES));
    a.route('/robots.txt', gateA.handler);
    b.route('/robots.txt', gateB.handler);
    const cache = makeCache({ concurrency: 1 });
    const both = Promise.all([cache.get(a.origin), cache.get(b.origin)]);
    await vi.waitFor(() => expect(gateA.waiting).toBe(1), { timeout: 4000 });
    expect(b.hits('/robots.txt')).toBe(0); // b waits for a's slot
    gateA.release();
    await vi.waitFor(() => expect(gateB.waiting).toBe(1), { timeout: 4000 });
    gateB.release();
    expect((await both).map((e) => e.status)).toEqual(['ok', 'ok']);
  });

  it('keys by origin: scheme, host case and default port are normalised', async () => {
    const cache = makeCache();
    await cache.get(`${a.origin}/x`);
    await cache.get(`${a.origin.toUpperCase().replace('HTTP', 'http')}/y?z`);
    expect(a.hits('/robots.txt')).toBe(1);
  });
});

describe('RFC 9309 §2.3.1.2: rules of a redirected robots.txt apply to the initial authority', () => {
  it('stores them under the origin that was asked for', async () => {
    a.route('/robots.txt', redirect(`${b.origin}/robots.txt`, 301));
    const cache = makeCache();
    expect(await cache.isAllowed(`${a.origin}/blocked/page`)).toBe(false);
    expect(await cache.isAllowed(`${a.origin}/private`)).toBe(true);
    expect(cache.peek(a.origin)?.result.redirects).toEqual([`${b.origin}/robots.txt`]);
    expect(cache.peek(b.origin)).toBeUndefined();
  });
});

describe('batch and agents', () => {
  it('matchBatch groups by origin and answers in input order', async () => {
    const cache = makeCache();
    const urls = [`${a.origin}/private`, `${b.origin}/private`, `${a.origin}/blocked`, `${b.origin}/blocked/x`, new URL(`${a.origin}/`)];
    const verdicts = await cache.matchBatch(urls);
    expect([...verdicts]).toEqual([0, 1, 1, 0, 1]);
    expect(a.hits('/robots.txt') + b.hits('/robots.txt')).toBe(2);
  });

  it('decideBatch adds the deciding line, in input order', async () => {
    const cache = makeCache();
    const decided = await cache.decideBatch([`${b.origin}/blocked`, `${a.origin}/private`, `${a.origin}/open`]);
    expect([...decided.verdicts]).toEqual([0, 0, 1]);
    expect([...decided.lines]).toEqual([2, 2, 0]);
  });

  it('matchBatch writes into a caller buffer and rejects a bad URL before fetching', async () => {
    const cache = makeCache();
    const out = new Uint8Array(4).fill(9);
    expect(await cache.matchBatch([`${a.origin}/private`], out)).toBe(out);
    expect([...out]).toEqual([0, 9, 9, 9]);
    await expect(cache.matchBatch([`${b.origin}/x`, 'not a url'])).rejects.toThrow(/urls\[1\] must be an absolute http\(s\) URL/);
    expect(b.hits('/robots.txt')).toBe(0);
    await expect(cache.matchBatch([`${a.origin}/x`, `${a.origin}/y`], new Uint8Array(1))).rejects.toThrow(RangeError);
  });

  it('forAgent answers for another product token from the same fetch', async () => {
    a.route('/robots.txt', text('User-agent: TestBot-Image\nDisallow: /photos\n\nUser-agent: *\nDisallow: /private\nCrawl-delay: 2\n'));
    const cache = makeCache();
    const images = cache.forAgent('TestBot-Image');
    expect(cache.productToken).toBe('TestBot');
    expect(await cache.isAllowed(`${a.origin}/photos/1.jpg`)).toBe(true);
    expect(await images.isAllowed(`${a.origin}/photos/1.jpg`)).toBe(false);
    expect(await images.isAllowed(`${a.origin}/private`)).toBe(true);
    expect([...(await images.matchBatch([`${a.origin}/photos`, `${a.origin}/private`]))]).toEqual([0, 1]);
    expect(await cache.crawlDelay(`${a.origin}/`)).toBe(2);
    expect(await images.crawlDelay(`${a.origin}/`)).toBeUndefined();
    expect((await cache.explain(`${a.origin}/private/x`)).line).toBe(5);
    expect(a.hits('/robots.txt')).toBe(1);
  });
});

describe('options', () => {
  it.each([
    ['ExampleBot/1.0 (+https://example.com/bot)', 'ExampleBot'],
    ['Mozilla/5.0 (compatible; ExampleBot/0.1; https://www.example.com/bot.html)', 'ExampleBot'],
    ['Googlebot-Image/1.0', 'Googlebot-Image'],
    ['  my_bot', 'my_bot'],
  ])('productTokenOf(%j) → %j', (ua, token) => {
    expect(productTokenOf(ua)).toBe(token);
  });

  it.each([
    ['a userAgent with no token', { userAgent: '/1.0' }, TypeError, /productToken/],
    ['a product token with a slash', { userAgent: 'X/1', productToken: 'X/1' }, TypeError, /options.productToken must be a product token/],
    ['maxBytes below 500 KiB', { userAgent: 'X', maxBytes: 1000 }, RangeError, /options.maxBytes/],
    ['maxEntries 0', { userAgent: 'X', maxEntries: 0 }, RangeError, /options.maxEntries/],
    ['concurrency 0', { userAgent: 'X', concurrency: 0 }, RangeError, /options.concurrency/],
    ['negative unreachableRetryMs', { userAgent: 'X', unreachableRetryMs: -1 }, RangeError, /options.unreachableRetryMs/],
  ] as const)('refuses %s', (_name, options, type, message) => {
    expect(() => new RobotsCache(options as RobotsCacheOptions)).toThrow(type);
    expect(() => new RobotsCache(options as RobotsCacheOptions)).toThrow(message);
  });

  it('rejects a URL that is not absolute http(s)', async () => {
    const cache = makeCache();
    await expect(cache.isAllowed('/relative')).rejects.toThrow(TypeError);
    await expect(cache.get('mailto:a@b.c')).rejects.toThrow(/http: or https:/);
    expect(() => cache.forAgent('Bad Token')).toThrow(TypeError);
  });
});
