// RFC 9309 §2.3-2.5 access method against a real node:http server: statuses, redirects, limits, deadlines.
//
// §2.3.1.1: "If the crawler successfully downloads the robots.txt file, the crawler MUST
//   follow the parseable rules."
// §2.3.1.2: "The crawlers SHOULD follow at least five consecutive redirects, even across
//   authorities [...] its rules followed in the context of the initial authority. If there
//   are more than five consecutive redirects, crawlers MAY assume that the robots.txt file
//   is unavailable."
// §2.3.1.3: 4xx → "unavailable" → "the crawler MAY access any resources on the server."
// §2.3.1.4: server or network errors → "unreachable" → "the crawler MUST assume complete
//   disallow."
// §2.5: "The parsing limit MUST be at least 500 kibibytes."
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fetchRobots, type FetchLike, type RobotsFetchReason, type RobotsFetchStatus } from '../src/fetch/index.js';
import {
  gzipped,
  hang,
  partialThenHang,
  redirect,
  resetMidBody,
  startServer,
  status,
  streamBody,
  text,
  type Handler,
  type TestServer,
} from './helpers/http-server.js';

const userAgent = 'TestBot/1.0 (+http://127.0.0.1/bot)';
const RULES = 'User-agent: *\nDisallow: /private\n';
const fast = { userAgent, timeoutMs: 5_000, headersTimeoutMs: 5_000 };

let server: TestServer;
let other: TestServer; // a second authority (another port) for cross-authority redirects

beforeAll(async () => {
  server = await startServer();
  other = await startServer();
});
afterAll(async () => {
  await server.close();
  await other.close();
});

/** Serves `handler` as the server's /robots.txt and returns a page URL on that site. */
function site(handler: Handler): string {
  server.route('/robots.txt', handler);
  return `${server.origin}/some/page.html`;
}

type StatusRow = [
  name: string,
  handler: Handler,
  status: RobotsFetchStatus,
  reason: RobotsFetchReason,
  httpStatus: number,
  privateAllowed: boolean,
];

const statusRows: StatusRow[] = [
  ['200 with rules', text(RULES), 'ok', 'success', 200, false],
  ['204 no content', status(204), 'ok', 'success', 204, true],
  ['400 bad request', status(400), 'unavailable', 'client-error', 400, true],
  ['401 unauthorized', status(401), 'unavailable', 'client-error', 401, true],
  ['403 forbidden', status(403), 'unavailable', 'client-error', 403, true],
  ['404 not found', status(404), 'unavailable', 'client-error', 404, true],
  ['410 gone', status(410), 'unavailable', 'client-error', 410, true],
  ['429 too many requests (server condition, not a missing file)', status(429), 'unreachable', 'too-many-requests', 429, false],
  ['500 internal error', status(500), 'unreachable', 'server-error', 500, false],
  ['502 bad gateway', status(502), 'unreachable', 'server-error', 502, false],
  ['503 unavailable', status(503), 'unreachable', 'server-error', 503, false],
  ['599', status(599), 'unreachable', 'server-error', 599, false],
  ['301 without Location', status(301), 'unreachable', 'missing-location', 301, false],
  ['302 with an unparseable Location', redirect('http://[::1', 302), 'unreachable', 'missing-location', 302, false],
  ['307 to a non-http scheme', redirect('ftp://127.0.0.1/robots.txt', 307), 'unreachable', 'missing-location', 307, false],
  ['300 multiple choices', redirect('/robots.txt', 300), 'unreachable', 'unexpected-status', 300, false],
  ['304 to an unconditional GET', status(304), 'unreachable', 'unexpected-status', 304, false],
];

describe('RFC 9309 §2.3.1: status → verdict', () => {
  it.each(statusRows)('%s', async (_name, handler, expected, reason, httpStatus, privateAllowed) => {
    const result = await fetchRobots(site(handler), fast);
    expect(result.status).toBe(expected);
    expect(result.reason).toBe(reason);
    expect(result.httpStatus).toBe(httpStatus);
    // `robots` is always usable: the parsed file, allow-all (§2.3.1.3) or disallow-all (§2.3.1.4).
    expect(result.robots.isAllowed(`${server.origin}/private`, 'TestBot')).toBe(privateAllowed);
    expect(result.robots.isAllowed(`${server.origin}/open`, 'TestBot')).toBe(expected !== 'unreachable');
  });

  it('parses a 200 body and follows its rules (§2.3.1.1)', async () => {
    const result = await fetchRobots(site(text(RULES)), fast);
    expect(result.robots.isAllowed('/private/x', 'TestBot')).toBe(false);
    expect(result.robots.isAllowed('/public', 'TestBot')).toBe(true);
    expect(result.url).toBe(`${server.origin}/robots.txt`);
    expect(result.redirects).toEqual([]);
    expect(result.truncated).toBe(false);
    expect(result.byteLength).toBe(RULES.length);
  });

  it('parses a body served with the wrong content type', async () => {
    const result = await fetchRobots(site(text(RULES, { headers: { 'content-type': 'text/html' } })), fast);
    expect(result.status).toBe('ok');
    expect(result.robots.isAllowed('/private', 'TestBot')).toBe(false);
  });

  it('uses the parse profile it is given', async () => {
    const body = 'User-agent: *\nDisallow: /robots.txt\n';
    const rfc = await fetchRobots(site(text(body)), { ...fast, profile: 'rfc' });
    const google = await fetchRobots(site(text(body)), { ...fast, profile: 'google' });
    // RFC 9309 §2.2.2: "The /robots.txt URI is implicitly allowed"; Google's matcher has no such rule.
    expect(rfc.robots.profile).toBe('rfc');
    expect(rfc.robots.isAllowed('/robots.txt', 'TestBot')).toBe(true);
    expect(google.robots.profile).toBe('google');
    expect(google.robots.isAllowed('/robots.txt', 'TestBot')).toBe(false);
  });
});

describe('RFC 9309 §2.3: the robots.txt URI and the request', () => {
  it.each([
    ['an origin', ''],
    ['an origin with a slash', '/'],
    ['a deep URL with query and fragment', '/a/b/c.html?x=1#frag'],
  ])('asks for scheme://authority/robots.txt given %s', async (_name, suffix) => {
    server.route('/robots.txt', text(RULES));
    const before = server.requests.length;
    const result = await fetchRobots(`${server.origin}${suffix}`, fast);
    expect(result.url).toBe(`${server.origin}/robots.txt`);
    expect(server.requests.slice(before).map((r) => r.path)).toEqual(['/robots.txt']);
  });

  it('accepts a URL object', async () => {
    server.route('/robots.txt', text(RULES));
    const result = await fetchRobots(new URL(`${server.origin}/x`), fast);
    expect(result.status).toBe('ok');
  });

  it('sends the caller\'s User-Agent header and a GET', async () => {
    server.route('/robots.txt', text(RULES));
    const before = server.requests.length;
    await fetchRobots(server.origin, { ...fast, userAgent: 'ExampleBot/0.1 (+https://example.com/bot)' });
    const request = server.requests[before]!;
    expect(request.method).toBe('GET');
    expect(request.headers['user-agent']).toBe('ExampleBot/0.1 (+https://example.com/bot)');
  });

  it('uses an injected fetch (here: the real one, wrapped to count calls)', async () => {
    server.route('/robots.txt', redirect('/r1'));
    server.route('/r1', text(RULES));
    const seen: string[] = [];
    const counting: FetchLike = (url, init) => {
      seen.push(`${init.method} ${url} ${String(init.redirect)}`);
      return fetch(url, init);
    };
    const result = await fetchRobots(server.origin, { ...fast, fetch: counting });
    expect(result.status).toBe('ok');
    expect(seen).toEqual([`GET ${server.origin}/robots.txt manual`, `GET ${server.origin}/r1 manual`]);
  });
});

describe('RFC 9309 §2.3.1.2: redirects', () => {
  /** Routes /robots.txt → /hop1 → … → /hopN → /final (200). */
  function chain(hops: number, code = 301): void {
    server.route('/robots.txt', redirect(hops === 0 ? '/final' : '/hop1', code));
    for (let i = 1; i <= hops; i++) server.route(`/hop${i}`, redirect(i === hops ? '/final' : `/hop${i + 1}`, code));
    server.route('/final', text(RULES));
  }

  it.each([
    [1, 'ok'],
    [5, 'ok'],
    [6, 'unavailable'],
  ] as const)('%i consecutive redirects → %s', async (redirectCount, expected) => {
    chain(redirectCount - 1);
    const result = await fetchRobots(server.origin, fast);
    expect(result.status).toBe(expected);
    if (expected === 'ok') {
      expect(result.redirects).toHaveLength(redirectCount);
      expect(result.redirects.at(-1)).toBe(`${server.origin}/final`);
      expect(result.finalUrl).toBe(`${server.origin}/final`);
      expect(result.robots.isAllowed('/private', 'TestBot')).toBe(false);
    } else {
      expect(result.reason).toBe('too-many-redirects');
      expect(result.redirects).toHaveLength(5);
      // §2.3.1.3: unavailable → allow all
      expect(result.robots.isAllowed('/private', 'TestBot')).toBe(true);
    }
  });

  it.each([301, 302, 303, 307, 308])('follows %i', async (code) => {
    chain(0, code);
    const result = await fetchRobots(server.origin, fast);
    expect(result.status).toBe('ok');
    expect(result.redirects).toEqual([`${server.origin}/final`]);
  });

  it('follows a redirect to another authority and reports the rules for the initial one', async () => {
    other.route('/robots-elsewhere.txt', text('User-agent: *\nDisallow: /moved\n'));
    server.route('/robots.txt', redirect(`${other.origin}/robots-elsewhere.txt`, 302));
    const result = await fetchRobots(`${server.origin}/some/page`, fast);
    expect(result.status).toBe('ok');
    expect(result.url).toBe(`${server.origin}/robots.txt`);
    expect(result.finalUrl).toBe(`${other.origin}/robots-elsewhere.txt`);
    expect(result.redirects).toEqual([`${other.origin}/robots-elsewhere.txt`]);
    expect(result.robots.isAllowed(`${server.origin}/moved/x`, 'TestBot')).toBe(false);
  });

  it('follows a redirect between 127.0.0.1 and localhost', async () => {
    // Same server, two authorities; the client may resolve localhost to ::1 first, so a
    // failure to connect would show up as unreachable here.
    server.route('/robots.txt', redirect(`${server.localhostOrigin}/via-localhost`, 301));
    server.route('/via-localhost', text(RULES));
    const result = await fetchRobots(server.origin, fast);
    expect(result.redirects).toEqual([`${server.localhostOrigin}/via-localhost`]);
    expect(result.status).toBe('ok');
  });

  it('stops a redirect loop as unavailable without exhausting the budget', async () => {
    server.route('/robots.txt', redirect('/loop-a'));
    server.route('/loop-a', redirect('/loop-b'));
    server.route('/loop-b', redirect('/loop-a'));
    const before = server.requests.length;
    const result = await fetchRobots(server.origin, fast);
    expect(result.status).toBe('unavailable');
    expect(result.reason).toBe('redirect-loop');
    expect(result.redirects).toEqual([`${server.origin}/loop-a`, `${server.origin}/loop-b`, `${server.origin}/loop-a`]);
    expect(server.requests.length - before).toBe(3);
  });

  it('stops a self-redirect', async () => {
    server.route('/robots.txt', redirect('/robots.txt'));
    const result = await fetchRobots(server.origin, fast);
    expect(result.status).toBe('unavailable');
    expect(result.reason).toBe('redirect-loop');
  });

  it('maps the status at the end of a chain (a redirect to a 404 is unavailable)', async () => {
    server.route('/robots.txt', redirect('/gone'));
    server.route('/gone', status(410));
    const result = await fetchRobots(server.origin, fast);
    expect(result.status).toBe('unavailable');
    expect(result.httpStatus).toBe(410);
  });

  it('accepts maxRedirects above five and refuses fewer', async () => {
    chain(6);
    expect((await fetchRobots(server.origin, { ...fast, maxRedirects: 7 })).status).toBe('ok');
    await expect(fetchRobots(server.origin, { ...fast, maxRedirects: 4 })).rejects.toThrow(RangeError);
  });
});

describe('RFC 9309 §2.5: parsing limit', () => {
  it('cuts a 10 MB body at maxBytes, cancels the stream and keeps whole lines only', async () => {
    const head = 'User-agent: *\nDisallow: /private\n';
    const total = 10 * 1024 * 1024;
    const { handler, stats } = streamBody(head, total);
    server.route('/robots.txt', handler);
    const result = await fetchRobots(server.origin, fast);
    expect(result.status).toBe('ok');
    expect(result.truncated).toBe(true);
    expect(result.byteLength).toBeLessThanOrEqual(512_000);
    expect(result.byteLength).toBeGreaterThan(510_000); // whole 1 KiB lines up to the limit
    expect(result.robots.isAllowed('/private', 'TestBot')).toBe(false);
    // The client went away: the server never got to hand over the whole body.
    await stats.closed;
    expect(stats.finished).toBe(false);
    expect(stats.bytesAccepted).toBeLessThan(total);
  });

  it('honours a larger maxBytes', async () => {
    const { handler } = streamBody('User-agent: *\nDisallow: /p\n', 2 * 1024 * 1024);
    server.route('/robots.txt', handler);
    const result = await fetchRobots(server.origin, { ...fast, maxBytes: 1024 * 1024 });
    expect(result.truncated).toBe(true);
    expect(result.byteLength).toBeGreaterThan(1_000_000);
    expect(result.byteLength).toBeLessThanOrEqual(1024 * 1024);
  });

  it('does not mark a body of exactly maxBytes as truncated', async () => {
    const head = 'User-agent: *\nDisallow: /private\n';
    const body = head + '#'.repeat(512_000 - head.length - 1) + '\n';
    expect(body.length).toBe(512_000);
    server.route('/robots.txt', text(body));
    const result = await fetchRobots(server.origin, fast);
    expect(result.truncated).toBe(false);
    expect(result.byteLength).toBe(512_000);
  });

  it('drops the line the limit cuts through', async () => {
    // The last line would allow /private/yes if kept whole; cut, it must not become "Allow: /".
    const head = 'User-agent: *\nDisallow: /private\n';
    const filler = '#'.repeat(512_000 - head.length - 10) + '\n';
    const body = head + filler + 'Allow: /private/yes\n';
    server.route('/robots.txt', text(body));
    const result = await fetchRobots(server.origin, fast);
    expect(result.truncated).toBe(true);
    expect(result.byteLength).toBe(head.length + filler.length);
    expect(result.robots.isAllowed('/private/yes', 'TestBot')).toBe(false);
  });

  it.each([0, 1000, 512_000 - 1, 1.5e6 + 0.5, Number.NaN])('rejects maxBytes %s with a RangeError', async (maxBytes) => {
    await expect(fetchRobots(server.origin, { ...fast, maxBytes })).rejects.toThrow(/maxBytes must be an integer >= 512000/);
  });
});

describe('content coding', () => {
  it('reads a gzip body (Node fetch decodes Content-Encoding: gzip)', async () => {
    server.route('/robots.txt', gzipped('User-agent: *\nDisallow: /zipped\n'));
    const before = server.requests.length;
    const result = await fetchRobots(server.origin, fast);
    expect(String(server.requests[before]!.headers['accept-encoding'])).toMatch(/gzip/);
    expect(result.status).toBe('ok');
    expect(result.robots.isAllowed('/zipped/a', 'TestBot')).toBe(false);
    expect(result.robots.isAllowed('/plain', 'TestBot')).toBe(true);
  });

  it('applies maxBytes to the decoded body (a gzip bomb is cut)', async () => {
    const body = 'User-agent: *\nDisallow: /bomb\n' + `${'#'.repeat(99)}\n`.repeat(80_000); // 8 MB → ~8 KB gzipped
    server.route('/robots.txt', gzipped(body));
    const result = await fetchRobots(server.origin, fast);
    expect(result.truncated).toBe(true);
    expect(result.byteLength).toBeLessThanOrEqual(512_000);
    expect(result.robots.isAllowed('/bomb', 'TestBot')).toBe(false);
  });
});

describe('RFC 9309 §2.3.1.4: network errors and deadlines are unreachable', () => {
  it('connection reset mid-body', async () => {
    server.route('/robots.txt', resetMidBody('User-agent: *\nDisallow: /pri', 10_000));
    const result = await fetchRobots(server.origin, fast);
    expect(result.status).toBe('unreachable');
    expect(result.reason).toBe('network-error');
    expect(result.error).toBeTypeOf('string');
    expect(result.robots.isAllowed('/anything', 'TestBot')).toBe(false);
  });

  it('connection refused', async () => {
    const closed = await startServer();
    const origin = closed.origin;
    await closed.close();
    const result = await fetchRobots(origin, fast);
    expect(result.status).toBe('unreachable');
    expect(result.reason).toBe('network-error');
  });

  it('headers that never come (headersTimeoutMs)', async () => {
    server.route('/robots.txt', hang());
    const result = await fetchRobots(server.origin, { userAgent, headersTimeoutMs: 150, timeoutMs: 10_000 });
    expect(result.status).toBe('unreachable');
    expect(result.reason).toBe('timeout');
    expect(result.error).toMatch(/headersTimeoutMs/);
  });

  it('a body that stops half way (timeoutMs)', async () => {
    server.route('/robots.txt', partialThenHang('User-agent: *\n', 5_000));
    const result = await fetchRobots(server.origin, { userAgent, headersTimeoutMs: 5_000, timeoutMs: 200 });
    expect(result.status).toBe('unreachable');
    expect(result.reason).toBe('timeout');
    expect(result.error).toMatch(/timeoutMs/);
  });

  it('the total deadline covers the redirect chain', async () => {
    server.route('/robots.txt', redirect('/slow'));
    server.route('/slow', hang());
    const result = await fetchRobots(server.origin, { userAgent, headersTimeoutMs: 10_000, timeoutMs: 1_000 });
    expect(result.status).toBe('unreachable');
    expect(result.reason).toBe('timeout');
    expect(result.redirects).toEqual([`${server.origin}/slow`]);
  });

  it('clears every timer it starts, whatever the outcome', async () => {
    // Distinctive delays pick out this module's timers among undici's own.
    const deadlines = { userAgent, headersTimeoutMs: 4_321, timeoutMs: 9_876 };
    const started: unknown[] = [];
    const cleared = new Set<unknown>();
    const realSet = globalThis.setTimeout;
    const realClear = globalThis.clearTimeout;
    const setSpy = vi.spyOn(globalThis, 'setTimeout').mockImplementation(((fn: () => void, ms?: number) => {
      const id = realSet(fn, ms);
      if (ms === 4_321 || ms === 9_876) started.push(id);
      return id;
    }) as typeof setTimeout);
    const clearSpy = vi.spyOn(globalThis, 'clearTimeout').mockImplementation(((id?: Parameters<typeof clearTimeout>[0]) => {
      cleared.add(id);
      realClear(id);
    }) as typeof clearTimeout);
    try {
      server.route('/robots.txt', redirect('/final'));
      server.route('/final', text(RULES));
      await fetchRobots(server.origin, deadlines); // ok after a redirect: 3 timers
      server.route('/robots.txt', resetMidBody('User-agent: *\n', 1000));
      await fetchRobots(server.origin, deadlines); // network error mid-body: 2 timers
      server.route('/robots.txt', status(500));
      await fetchRobots(server.origin, deadlines); // 5xx: 2 timers
    } finally {
      setSpy.mockRestore();
      clearSpy.mockRestore();
    }
    expect(started).toHaveLength(7);
    expect(started.filter((id) => !cleared.has(id))).toEqual([]);
  });

  it('rejects with the caller\'s reason when the caller aborts', async () => {
    server.route('/robots.txt', hang());
    const controller = new AbortController();
    const pending = fetchRobots(server.origin, { ...fast, signal: controller.signal });
    setTimeout(() => controller.abort(new Error('caller gave up')), 50);
    await expect(pending).rejects.toThrow('caller gave up');
  });
});

describe('freshness hints (RFC 9309 §2.4, RFC 9111)', () => {
  const now = () => 1_000_000;
  const hour = 3_600_000;
  it.each([
    ['no header: 24 h', {}, 24 * hour, false],
    ['max-age=60', { 'cache-control': 'max-age=60' }, 60_000, false],
    ['max-age=60 with Age: 20', { 'cache-control': 'public, max-age=60', age: '20' }, 40_000, false],
    ['max-age above 24 h is capped', { 'cache-control': 'max-age=604800' }, 24 * hour, false],
    ['no-cache', { 'cache-control': 'no-cache' }, 0, false],
    ['no-store', { 'cache-control': 'no-store' }, 0, true],
    ['Expires relative to Date', { date: 'Wed, 01 Jan 2025 00:00:00 GMT', expires: 'Wed, 01 Jan 2025 02:00:00 GMT' }, 2 * hour, false],
    ['invalid Expires', { expires: '0' }, 0, false],
  ] as const)('%s', async (_name, headers, freshnessMs, noStore) => {
    server.route('/robots.txt', text(RULES, { headers }));
    const result = await fetchRobots(server.origin, { ...fast, now });
    expect(result.fetchedAt).toBe(1_000_000);
    expect(result.expiresAt - result.fetchedAt).toBe(freshnessMs);
    expect(result.noStore).toBe(noStore);
  });

  it('caches a 404 like a 200', async () => {
    server.route('/robots.txt', status(404, { 'cache-control': 'max-age=120' }));
    const result = await fetchRobots(server.origin, { ...fast, now });
    expect(result.expiresAt - result.fetchedAt).toBe(120_000);
  });

  it('reads Retry-After on 503 and 429', async () => {
    server.route('/robots.txt', status(503, { 'retry-after': '120' }));
    const r503 = await fetchRobots(server.origin, { ...fast, now });
    expect(r503.retryAfterMs).toBe(120_000);
    expect(r503.expiresAt - r503.fetchedAt).toBe(120_000);
    server.route('/robots.txt', status(429));
    const r429 = await fetchRobots(server.origin, { ...fast, now });
    expect(r429.retryAfterMs).toBeUndefined();
    expect(r429.expiresAt).toBe(r429.fetchedAt);
  });
});

describe('argument errors', () => {
  it.each([
    ['a relative URL', () => fetchRobots('/robots.txt', fast), TypeError, /siteOrUrl must be an absolute http\(s\) URL/],
    ['a non-http scheme', () => fetchRobots('ftp://127.0.0.1/', fast), TypeError, /siteOrUrl must use http: or https:/],
    ['a number', () => fetchRobots(42 as unknown as string, fast), TypeError, /siteOrUrl must be a string or URL, got 42/],
    ['no userAgent', () => fetchRobots(server.origin, {} as never), TypeError, /options.userAgent must be a non-empty string/],
    ['a userAgent with CRLF', () => fetchRobots(server.origin, { userAgent: 'a\r\nx: y' }), TypeError, /control characters/],
    ['timeoutMs 0', () => fetchRobots(server.origin, { userAgent, timeoutMs: 0 }), RangeError, /options.timeoutMs/],
    ['a bad profile', () => fetchRobots(server.origin, { userAgent, profile: 'bing' as never }), TypeError, /options.profile/],
  ] as const)('%s', async (_name, call, type, message) => {
    const before = server.requests.length;
    await expect(call()).rejects.toThrow(type);
    await expect(call()).rejects.toThrow(message);
    expect(server.requests.length).toBe(before); // nothing was sent
  });
});
