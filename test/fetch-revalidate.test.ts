// RobotsCache revalidation (RFC 9111 §4.3 via RFC 9309 §2.4) and origin keys with default ports, against real 127.0.0.1 servers.
//
// RFC 9309 §2.4: "Crawlers MAY use standard cache control as defined in [RFC9111]."
// RFC 9111 §4.3.1: a validation request sends the stored validators (If-None-Match,
//   If-Modified-Since); §4.3.3: a 304 means the stored response may be reused; §4.3.4: the
//   304's header fields update the stored ones.
import type { IncomingMessage } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fetchRobots, RobotsCache, type FetchLike, type RobotsCacheOptions } from '../src/fetch/index.js';
import { gated, redirect, startServer, status, text, type Handler, type TestServer } from './helpers/http-server.js';

const SECOND = 1000;
const DAY = 24 * 3600 * SECOND;
const RULES = 'User-agent: *\nDisallow: /private\n';
const NEW_RULES = 'User-agent: *\nDisallow: /changed\n';
const LAST_MODIFIED = 'Wed, 01 Jan 2025 00:00:00 GMT';

let a: TestServer;
let b: TestServer;
let clock: number;

beforeEach(async () => {
  a = await startServer();
  b = await startServer({ '/robots.txt': text('User-agent: *\nDisallow: /b\n') });
  clock = Date.UTC(2025, 0, 1);
});
afterEach(async () => {
  await a.close();
  await b.close();
});

function makeCache(options: Partial<RobotsCacheOptions> = {}): RobotsCache {
  return new RobotsCache({ userAgent: 'TestBot/1.0', now: () => clock, timeoutMs: 5000, ...options });
}

/** The conditional header fields of the `n`-th request to `/robots.txt` (0-based). */
function conditionalOf(server: TestServer, n: number): { ifNoneMatch: unknown; ifModifiedSince: unknown } {
  const request = server.requests.filter((r) => r.path === '/robots.txt')[n];
  if (request === undefined) throw new Error(`expected a request #${n} for /robots.txt, got ${server.hits('/robots.txt')} requests`);
  return { ifNoneMatch: request.headers['if-none-match'], ifModifiedSince: request.headers['if-modified-since'] };
}

/** 304 when the request's If-None-Match is `etag`, else the full body with that ETag. */
function etagged(body: string, etag: string, headers: Record<string, string> = {}, notModified: Record<string, string> = {}): Handler {
  const full = text(body, { headers: { etag, ...headers } });
  const unchanged = status(304, { etag, ...notModified });
  return (req: IncomingMessage, res) => (req.headers['if-none-match'] === etag ? unchanged : full)(req, res);
}

describe('revalidation of an expired copy (RFC 9111 §4.3)', () => {
  it('200 with ETag, then 304: If-None-Match sent, same rules, expiry from the 304', async () => {
    a.route('/robots.txt', etagged(RULES, '"v1"', { 'cache-control': 'max-age=60' }, { 'cache-control': 'max-age=120' }));
    const cache = makeCache();
    const first = await cache.get(a.origin);
    expect(first.result.cacheHeaders).toEqual({ etag: '"v1"', cacheControl: 'max-age=60' });
    expect(conditionalOf(a, 0)).toEqual({ ifNoneMatch: undefined, ifModifiedSince: undefined });

    clock += 60 * SECOND;
    const second = await cache.get(a.origin);
    expect(a.hits('/robots.txt')).toBe(2);
    expect(conditionalOf(a, 1)).toEqual({ ifNoneMatch: '"v1"', ifModifiedSince: undefined });
    expect(second.result.reason).toBe('not-modified');
    expect(second.result.httpStatus).toBe(304);
    expect(second.status).toBe('ok');
    expect(second.basis).toBe('fetched');
    // Not parsed again: the very same Robots, with its compiled matchers.
    expect(second.robots).toBe(first.robots);
    expect(second.robots.isAllowed('/private/x', 'TestBot')).toBe(false);
    // RFC 9111 §4.3.4: the 304's Cache-Control replaces the stored one.
    expect(second.expiresAt).toBe(clock + 120 * SECOND);
    expect(second.result.cacheHeaders).toEqual({ etag: '"v1"', cacheControl: 'max-age=120' });

    clock += 119 * SECOND;
    await cache.get(a.origin);
    expect(a.hits('/robots.txt')).toBe(2);
  });

  it('a 304 without Cache-Control keeps the stored one in force', async () => {
    a.route('/robots.txt', etagged(RULES, '"v1"', { 'cache-control': 'max-age=300' }));
    const cache = makeCache();
    await cache.get(a.origin);
    clock += 300 * SECOND;
    const entry = await cache.get(a.origin);
    expect(entry.result.reason).toBe('not-modified');
    expect(entry.expiresAt).toBe(clock + 300 * SECOND);
  });

  it('Last-Modified only: If-Modified-Since is sent, If-None-Match is not', async () => {
    a.route('/robots.txt', (req, res) =>
      (req.headers['if-modified-since'] === LAST_MODIFIED ? status(304) : text(RULES, { headers: { 'last-modified': LAST_MODIFIED } }))(req, res),
    );
    const cache = makeCache();
    const first = await cache.get(a.origin);
    clock += DAY;
    const second = await cache.get(a.origin);
    expect(conditionalOf(a, 1)).toEqual({ ifNoneMatch: undefined, ifModifiedSince: LAST_MODIFIED });
    expect(second.result.reason).toBe('not-modified');
    expect(second.robots).toBe(first.robots);
    // No freshness information anywhere: the RFC 9309 §2.4 limit of 24 hours.
    expect(second.expiresAt).toBe(clock + DAY);
  });

  it('both validators: both conditional fields are sent', async () => {
    a.route('/robots.txt', text(RULES, { headers: { etag: 'W/"w1"', 'last-modified': LAST_MODIFIED } }));
    const cache = makeCache();
    await cache.get(a.origin);
    a.route('/robots.txt', status(304, { etag: 'W/"w1"' }));
    clock += DAY;
    expect((await cache.get(a.origin)).result.reason).toBe('not-modified');
    expect(conditionalOf(a, 1)).toEqual({ ifNoneMatch: 'W/"w1"', ifModifiedSince: LAST_MODIFIED });
  });

  it('a 200 with a new body replaces the rules and the validators', async () => {
    a.route('/robots.txt', text(RULES, { headers: { etag: '"v1"' } }));
    const cache = makeCache();
    const first = await cache.get(a.origin);
    a.route('/robots.txt', etagged(NEW_RULES, '"v2"'));
    clock += DAY;
    const second = await cache.get(a.origin);
    expect(conditionalOf(a, 1).ifNoneMatch).toBe('"v1"');
    expect(second.result.reason).toBe('success');
    expect(second.robots).not.toBe(first.robots);
    expect(second.robots.isAllowed('/private', 'TestBot')).toBe(true);
    expect(second.robots.isAllowed('/changed', 'TestBot')).toBe(false);
    clock += DAY;
    const third = await cache.get(a.origin);
    expect(conditionalOf(a, 2).ifNoneMatch).toBe('"v2"');
    expect(third.robots).toBe(second.robots);
  });

  it('a 304 whose ETag is not the stored one updates nothing: one unconditional request follows', async () => {
    a.route('/robots.txt', text(RULES, { headers: { etag: '"v1"' } }));
    const cache = makeCache();
    await cache.get(a.origin);
    // RFC 9111 §4.3.4: a strong validator matching no stored response → MUST NOT update.
    a.route('/robots.txt', (req, res) =>
      (req.headers['if-none-match'] === undefined ? text(NEW_RULES, { headers: { etag: '"v3"' } }) : status(304, { etag: '"v2"' }))(req, res),
    );
    clock += DAY;
    const entry = await cache.get(a.origin);
    expect(a.hits('/robots.txt')).toBe(3);
    expect(conditionalOf(a, 1).ifNoneMatch).toBe('"v1"');
    expect(conditionalOf(a, 2).ifNoneMatch).toBeUndefined();
    expect(entry.result.reason).toBe('success');
    expect(entry.robots.isAllowed('/changed', 'TestBot')).toBe(false);
    expect(entry.result.cacheHeaders?.etag).toBe('"v3"');
  });

  it('after a redirect, only the request for the stored final URL is conditional', async () => {
    a.route('/robots.txt', redirect('/real.txt'));
    a.route('/real.txt', etagged(RULES, '"r1"'));
    const cache = makeCache();
    const first = await cache.get(a.origin);
    clock += DAY;
    const second = await cache.get(a.origin);
    const later = a.requests.slice(2);
    expect(later.map((r) => [r.path, r.headers['if-none-match']])).toEqual([
      ['/robots.txt', undefined],
      ['/real.txt', '"r1"'],
    ]);
    expect(second.result.reason).toBe('not-modified');
    expect(second.result.redirects).toEqual([`${a.origin}/real.txt`]);
    expect(second.robots).toBe(first.robots);
  });

  it('concurrent callers share one revalidation', async () => {
    a.route('/robots.txt', text(RULES, { headers: { etag: '"v1"' } }));
    const cache = makeCache();
    const first = await cache.get(a.origin);
    const gate = gated(status(304, { etag: '"v1"' }));
    a.route('/robots.txt', gate.handler);
    clock += DAY;
    const pending = [cache.get(a.origin), cache.isAllowed(`${a.origin}/private`), cache.get(`${a.origin}/other`)] as const;
    await expect.poll(() => gate.waiting).toBe(1);
    gate.release();
    const [entry, allowed, again] = await Promise.all(pending);
    expect(a.hits('/robots.txt')).toBe(2);
    expect(entry).toBe(again);
    expect(entry.result.reason).toBe('not-modified');
    expect(entry.robots).toBe(first.robots);
    expect(allowed).toBe(false);
  });

  it('an unreachable spell with a last good copy: the copy is revalidated and a 304 confirms it', async () => {
    a.route('/robots.txt', text(RULES, { headers: { etag: '"v1"' } }));
    const cache = makeCache({ unreachableRetryMs: 60 * SECOND });
    const first = await cache.get(a.origin);
    a.route('/robots.txt', status(503));
    clock += DAY;
    expect((await cache.get(a.origin)).basis).toBe('last-good');
    a.route('/robots.txt', status(304, { etag: '"v1"' }));
    clock += 60 * SECOND;
    const entry = await cache.get(a.origin);
    expect(conditionalOf(a, 2).ifNoneMatch).toBe('"v1"');
    expect(entry.basis).toBe('fetched');
    expect(entry.result.reason).toBe('not-modified');
    expect(entry.robots).toBe(first.robots);
    expect(entry.unreachableSince).toBeUndefined();
  });
});

describe('no copy to revalidate: the request is unconditional', () => {
  it('stored response without validators, then a 304 (server bug): unreachable, the last good copy stays in force', async () => {
    a.route('/robots.txt', text(RULES));
    const cache = makeCache({ unreachableRetryMs: 60 * SECOND });
    const first = await cache.get(a.origin);
    expect(first.result.cacheHeaders).toEqual({});
    a.route('/robots.txt', status(304));
    clock += DAY;
    const entry = await cache.get(a.origin);
    expect(conditionalOf(a, 1)).toEqual({ ifNoneMatch: undefined, ifModifiedSince: undefined });
    // RFC 9110 §15.4.5: a 304 answers only a conditional request; it selects no stored
    // response, so the file is undefined (RFC 9309 §2.3.1.4) and the last good copy is used.
    expect(entry.status).toBe('unreachable');
    expect(entry.result.reason).toBe('unexpected-status');
    expect(entry.basis).toBe('last-good');
    expect(entry.robots).toBe(first.robots);
    expect(entry.expiresAt).toBe(clock + 60 * SECOND);
  });

  it('evicted from the LRU: no conditional fields; a 304 anyway is unreachable (complete disallow)', async () => {
    a.route('/robots.txt', etagged(RULES, '"v1"'));
    const cache = makeCache({ maxEntries: 1 });
    await cache.get(a.origin);
    await cache.get(b.origin);
    expect(cache.peek(a.origin)).toBeUndefined();
    a.route('/robots.txt', status(304, { etag: '"v1"' }));
    const entry = await cache.get(a.origin);
    expect(conditionalOf(a, 1)).toEqual({ ifNoneMatch: undefined, ifModifiedSince: undefined });
    expect(entry.status).toBe('unreachable');
    expect(entry.result.reason).toBe('unexpected-status');
    expect(entry.basis).toBe('unreachable');
    expect(entry.robots.isAllowed('/anything', 'TestBot')).toBe(false);
  });

  it('a cached 4xx is fetched again in full, validators or not (a 304 only ever stands for a 200)', async () => {
    a.route('/robots.txt', status(404, { etag: '"gone"', 'cache-control': 'max-age=60' }));
    const cache = makeCache();
    expect((await cache.get(a.origin)).status).toBe('unavailable');
    clock += 60 * SECOND;
    await cache.get(a.origin);
    expect(conditionalOf(a, 1)).toEqual({ ifNoneMatch: undefined, ifModifiedSince: undefined });
  });
});

describe('fetchRobots({ revalidate })', () => {
  it('returns the stored rules on a 304 and refuses a result for another URL or status', async () => {
    a.route('/robots.txt', etagged(RULES, '"v1"'));
    const stored = await fetchRobots(a.origin, { userAgent: 'TestBot/1.0' });
    const again = await fetchRobots(`${a.origin}/any/page`, { userAgent: 'TestBot/1.0', revalidate: stored });
    expect(again.reason).toBe('not-modified');
    expect(again.robots).toBe(stored.robots);
    expect(again.byteLength).toBe(stored.byteLength);
    await expect(fetchRobots(b.origin, { userAgent: 'TestBot/1.0', revalidate: stored })).rejects.toThrow(
      `options.revalidate must be a result for "${b.origin}/robots.txt", got one for "${a.origin}/robots.txt"`,
    );
    await expect(fetchRobots(a.origin, { userAgent: 'TestBot/1.0', revalidate: stored, profile: 'google' })).rejects.toThrow(
      "options.revalidate was parsed with profile 'rfc', this fetch uses 'google'",
    );
    b.route('/robots.txt', status(404));
    const unavailable = await fetchRobots(b.origin, { userAgent: 'TestBot/1.0' });
    await expect(fetchRobots(b.origin, { userAgent: 'TestBot/1.0', revalidate: unavailable })).rejects.toThrow(
      "options.revalidate must be an 'ok' RobotsFetchResult, got \"unavailable\"",
    );
  });
});

describe('origin keys: default ports name the default origin (RFC 3986 §6.2.3)', () => {
  /** A fetch that records the URL asked for and sends the request to server `a`. */
  function forwarding(seen: string[]): FetchLike {
    return (url, init) => {
      seen.push(url);
      const { pathname } = new URL(url);
      return fetch(`${a.origin}${pathname}`, init);
    };
  }

  it.each([
    ['https', 'https://example.com:443/private/x', 'https://EXAMPLE.com/public', 'https://example.com'],
    ['http', 'http://example.com:80/private/x', 'http://example.com/public', 'http://example.com'],
  ] as const)('%s: the explicit default port and none share one fetch', async (_scheme, withPort, without, origin) => {
    a.route('/robots.txt', text(RULES));
    const seen: string[] = [];
    const cache = makeCache({ fetch: forwarding(seen) });
    expect(await cache.isAllowed(withPort)).toBe(false);
    expect(await cache.isAllowed(without)).toBe(true);
    expect(await cache.matchBatch([withPort, without])).toEqual(new Uint8Array([0, 1]));
    expect(seen).toEqual([`${origin}/robots.txt`]);
    expect(a.hits('/robots.txt')).toBe(1);
    expect(cache.size).toBe(1);
    expect(cache.peek(withPort)?.origin).toBe(origin);
  });

  it('a non-default port is another origin', async () => {
    a.route('/robots.txt', text(RULES));
    const seen: string[] = [];
    const cache = makeCache({ fetch: forwarding(seen) });
    await cache.matchBatch(['https://example.com/x', 'https://example.com:8443/x', 'http://example.com:443/x']);
    expect(seen.sort()).toEqual([
      'http://example.com:443/robots.txt',
      'https://example.com/robots.txt',
      'https://example.com:8443/robots.txt',
    ]);
  });
});
