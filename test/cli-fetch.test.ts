// The built CLI fetching robots.txt (check --robots URL, classify --fetch) from real servers on 127.0.0.1.
//
// RFC 9309 §2.3.1.1: a 2xx robots.txt "MUST" be followed; §2.3.1.3: on 4xx (unavailable)
// the crawler "MAY access any resources"; §2.3.1.4: on 5xx or a network error
// (unreachable) it "MUST assume complete disallow". Every row is compared with explain()
// of the library on the same body. Only 127.0.0.1 / localhost is ever contacted.
// Needs `npm run build` (npm test runs it first).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Robots } from '../src/index.js';
import { FetchedRobots, runFetchClassify } from '../src/cli/fetch-classify.js';
import type { HostPoliteness } from '../src/fetch/index.js';
import { hang, startServer, status, text, type Handler, type TestServer } from './helpers/http-server.js';
import { CLI, spawnCli, type CliRun } from './helpers/cli.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = (args: string[], input = ''): Promise<CliRun> => spawnCli(args, input);
const VERSION = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;

const AGENT = 'ExampleBot';
const BODY_A = 'User-agent: *\nDisallow: /private/\nAllow: /private/press/\n\nUser-agent: ExampleBot\nDisallow: /*.pdf$\nDisallow: /private/\n';
const BODY_B = 'User-agent: *\nDisallow: /b/\n';
const PATHS = ['/', '/private/a', '/private/press/b', '/doc.pdf', '/doc.pdf?x', '/b/1', '/robots.txt'];



function rowsOf(stdout: string): string[] {
  const rows = stdout.split('\n');
  expect(rows.pop(), 'output ends with a line break').toBe('');
  return rows;
}

/** The row check prints for `url` under `body`, from the library. */
function checkRow(body: string, url: string): string {
  const e = Robots.parse(body).explain(url, AGENT);
  return `${e.allowed ? 'allow' : 'disallow'}\t${e.line}\t${url}`;
}

/** Requests for /robots.txt a server received per Host header. */
function robotsHitsByHost(server: TestServer): Record<string, number> {
  const hits: Record<string, number> = {};
  for (const r of server.requests) if (r.path === '/robots.txt') hits[r.headers.host ?? ''] = (hits[r.headers.host ?? ''] ?? 0) + 1;
  return hits;
}

let dir = '';
const servers: TestServer[] = [];
async function serve(robots: Handler): Promise<TestServer> {
  const server = await startServer({ '/robots.txt': robots });
  servers.push(server);
  return server;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'robotstxt-cli-fetch-'));
  writeFileSync(join(dir, 'robots.txt'), BODY_B);
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('check --robots URL', () => {
  it('200: fetches /robots.txt of the URL origin once, with the default User-Agent, and uses its rules', async () => {
    const server = await serve(text(BODY_A));
    const urls = PATHS.map((p) => `${server.origin}${p}`);
    // Any URL on the site names its robots.txt (RFC 9309 §2.3): here a page with a query.
    const r = await cli(['check', '--robots', `${server.origin}/some/page?q=1`, '--agent', AGENT], `${urls.join('\n')}\n`);
    expect(r.status).toBe(0);
    expect(rowsOf(r.stdout)).toEqual(urls.map((u) => checkRow(BODY_A, u)));
    const allowed = urls.filter((u) => Robots.parse(BODY_A).isAllowed(u, AGENT)).length;
    expect(allowed).toBe(4);
    expect(r.stderr).toMatch(new RegExp(`^7 urls, ${allowed} allowed, ${7 - allowed} disallowed, \\d+\\.\\d\\d s, \\d+ urls/s\n$`));
    expect(server.requests.map((q) => q.path)).toEqual(['/robots.txt']);
    expect(server.requests[0]!.headers['user-agent']).toBe(`robotstxt-wasm/${VERSION}`);
  });

  it('--user-agent sets the header; --agent alone picks the group', async () => {
    const server = await serve(text(BODY_A));
    const r = await cli(['check', '--robots', server.localhostOrigin, '--agent', 'OtherBot', '--user-agent', 'ExampleBot/2.0 (+https://example.com/bot)', '--quiet'], '/doc.pdf\n/private/a\n');
    expect(rowsOf(r.stdout)).toEqual(['allow\t0\t/doc.pdf', 'disallow\t2\t/private/a']);
    expect(r.stderr).toBe('');
    expect(server.requests[0]!.headers['user-agent']).toBe('ExampleBot/2.0 (+https://example.com/bot)');
  });

  it.each([
    ['404', status(404), 'unavailable \\(HTTP 404, client-error\\): RFC 9309 §2\\.3\\.1\\.3, every URL is allowed', true],
    ['410', status(410), 'unavailable \\(HTTP 410, client-error\\): RFC 9309 §2\\.3\\.1\\.3, every URL is allowed', true],
    ['500', status(500), 'unreachable \\(HTTP 500, server-error\\): RFC 9309 §2\\.3\\.1\\.4, every URL is disallowed', false],
    ['503', status(503), 'unreachable \\(HTTP 503, server-error\\): RFC 9309 §2\\.3\\.1\\.4, every URL is disallowed', false],
    ['429', status(429), 'unreachable \\(HTTP 429, too-many-requests\\): RFC 9309 §2\\.3\\.1\\.4, every URL is disallowed', false],
  ] as const)('%s: one line on stderr says what it means, and the rows follow it', async (_name, handler, note, allowed) => {
    const server = await serve(handler);
    const urls = PATHS.filter((p) => p !== '/robots.txt');
    const r = await cli(['check', '--robots', `${server.origin}/robots.txt`, '--agent', AGENT], urls.join('\n'));
    expect(r.status).toBe(0);
    // The verdicts of the library's stand-ins, Robots.allowAll() and Robots.disallowAll(),
    // with line 0: no line of a robots.txt decided (there is none).
    const stand = allowed ? Robots.allowAll() : Robots.disallowAll();
    expect(rowsOf(r.stdout)).toEqual(urls.map((u) => {
      const e = stand.explain(u, AGENT);
      return `${e.allowed ? 'allow' : 'disallow'}\t0\t${u}`;
    }));
    const lines = r.stderr.split('\n');
    expect(lines[0]).toMatch(new RegExp(`^robotstxt: ${server.origin.replace(/\./g, '\\.')}/robots\\.txt: ${note}$`));
    expect(lines[1]).toMatch(allowed ? /^6 urls, 6 allowed, 0 disallowed,/ : /^6 urls, 0 allowed, 6 disallowed,/);
  });

  it('a timeout and a refused connection are unreachable too; --quiet keeps the note', async () => {
    const server = await serve(hang());
    const slow = await cli(['check', '--robots', server.origin, '--agent', AGENT, '--timeout-ms', '300', '--quiet'], '/x\n');
    expect(rowsOf(slow.stdout)).toEqual(['disallow\t0\t/x']);
    expect(slow.stderr).toMatch(/^robotstxt: http:\/\/127\.0\.0\.1:\d+\/robots\.txt: unreachable \(timeout, .*\): RFC 9309 §2\.3\.1\.4, every URL is disallowed\n$/);

    const closed = await startServer();
    const port = closed.port;
    await closed.close();
    const refused = await cli(['check', '--robots', `http://127.0.0.1:${port}/`, '--agent', AGENT, '--quiet'], '/x\n');
    expect(rowsOf(refused.stdout)).toEqual(['disallow\t0\t/x']);
    expect(refused.stderr).toMatch(/: unreachable \(network-error, .*\): RFC 9309 §2\.3\.1\.4/);
  });

  it('--format jsonl, --only and --workers 2 work on fetched rules as on a file', async () => {
    const server = await serve(text(BODY_A));
    const urls = Array.from({ length: 3000 }, (_, i) => `${server.origin}${PATHS[i % PATHS.length]}?n=${i}`);
    writeFileSync(join(dir, 'urls.txt'), `${urls.join('\n')}\n`);
    const jsonl = await cli(['check', '--robots', server.origin, '--agent', AGENT, '--format', 'jsonl', '--only', 'disallowed', '--quiet', join(dir, 'urls.txt')]);
    const expected = urls.map((url) => ({ url, e: Robots.parse(BODY_A).explain(url, AGENT) })).filter(({ e }) => !e.allowed);
    expect(rowsOf(jsonl.stdout).map((l) => JSON.parse(l))).toEqual(expected.map(({ url, e }) => ({ verdict: 'disallow', line: e.line, url, outcome: 'ok' })));
    const one = await cli(['check', '--robots', server.origin, '--agent', AGENT, '--chunk-bytes', '4096', '--quiet', join(dir, 'urls.txt')]);
    const two = await cli(['check', '--robots', server.origin, '--agent', AGENT, '--chunk-bytes', '4096', '--workers', '2', '--quiet', join(dir, 'urls.txt')]);
    expect(rowsOf(one.stdout)).toEqual(urls.map((u) => checkRow(BODY_A, u)));
    expect(two.stdout).toBe(one.stdout);
    expect(server.hits('/robots.txt')).toBe(3);
  });
});

/** Rows for `urls` given each origin's body (undefined: 4xx → allow all; null: 5xx → disallow all; both line 0). */
function expectedRows(urls: string[], bodies: Record<string, string | null | undefined>, missing: 'allow' | 'disallow' = 'allow'): string[] {
  return urls.map((url) => {
    const match = /^(https?):\/\/([^/]+)/i.exec(url);
    const host = match?.[2]?.toLowerCase() ?? /^[a-z]+:\/\/([^/]+)/i.exec(url)?.[1]?.toLowerCase() ?? '';
    if (!match) return `${missing}\t0\t${host}\t${url}`;
    const body = bodies[`${match[1]!.toLowerCase()}://${host}`];
    const robots = body === undefined ? Robots.allowAll() : body === null ? Robots.disallowAll() : Robots.parse(body);
    const e = robots.explain(url, AGENT);
    return `${e.allowed ? 'allow' : 'disallow'}\t${body === null ? 0 : e.line}\t${host}\t${url}`;
  });
}

describe('classify --fetch', () => {
  it('judges each URL by its origin (host:port), keeps input order over many chunks, fetches each origin once', async () => {
    const a = await serve(text(BODY_A));
    const b = await serve(text(BODY_B));
    const gone = await serve(status(404));
    const broken = await serve(status(503));
    // 127.0.0.1:A and localhost:A are two origins on one server: two fetches, two host names.
    const origins = [a.origin, b.origin, a.localhostOrigin, gone.origin, broken.origin];
    const bodies = { [a.origin]: BODY_A, [b.origin]: BODY_B, [a.localhostOrigin]: BODY_A, [gone.origin]: undefined, [broken.origin]: null };
    const urls = Array.from({ length: 4000 }, (_, i) => {
      if (i % 499 === 7) return `/relative/${i}`;
      const origin = origins[(i * 7 + (i >> 5)) % origins.length]!;
      return `${i % 13 === 0 ? origin.replace('http://', 'HTTP://') : origin}${PATHS[i % PATHS.length]}?n=${i}`;
    });
    writeFileSync(join(dir, 'many.txt'), `${urls.join('\n')}\n`);
    // 2 KiB chunks: about 90 chunks, more than the read-ahead window.
    const r = await cli(['classify', '--fetch', '--agent', AGENT, '--chunk-bytes', '2048', join(dir, 'many.txt')]);
    expect(r.status).toBe(0);
    expect(rowsOf(r.stdout)).toEqual(expectedRows(urls, bodies));
    expect(robotsHitsByHost(a)).toEqual({ [a.origin.slice(7)]: 1, [a.localhostOrigin.slice(7)]: 1 });
    expect(robotsHitsByHost(b)).toEqual({ [b.origin.slice(7)]: 1 });
    expect(gone.hits('/robots.txt')).toBe(1);
    expect(broken.hits('/robots.txt')).toBe(1);
    for (const s of [a, b, gone, broken]) expect(s.requests.every((q) => q.path === '/robots.txt')).toBe(true);
    const stderr = r.stderr.split('\n');
    expect(stderr[0]).toBe('robots.txt: 3 ok, 1 unavailable (all allowed), 1 unreachable (all disallowed)');
    const allowed = expectedRows(urls, bodies).filter((row) => row.startsWith('allow\t')).length;
    expect(stderr[1]).toMatch(new RegExp(`^4000 urls, ${allowed} allowed, ${4000 - allowed} disallowed, \\d+\\.\\d\\d s, \\d+ urls/s$`));
  });

  it('--cache-hosts smaller than the hosts: hosts are dropped and fetched again, every row still right', async () => {
    const bodies: Record<string, string> = {};
    const hosts: TestServer[] = [];
    for (let k = 0; k < 5; k++) {
      const body = `User-agent: *\nDisallow: /h${k}/\n`;
      const server = await serve(text(body));
      hosts.push(server);
      bodies[server.origin] = body;
    }
    const urls = Array.from({ length: 3000 }, (_, i) => {
      const k = (i * 3 + (i >> 6)) % 5;
      return `${hosts[k]!.origin}/h${(i >> 1) % 5}/${i}`;
    });
    writeFileSync(join(dir, 'evict.txt'), `${urls.join('\n')}\n`);
    const r = await cli(['classify', '--fetch', '--agent', AGENT, '--cache-hosts', '2', '--chunk-bytes', '1024', '--quiet', join(dir, 'evict.txt')]);
    expect(r.status).toBe(0);
    expect(rowsOf(r.stdout)).toEqual(expectedRows(urls, bodies));
    expect(hosts.some((h) => h.hits('/robots.txt') > 1)).toBe(true);
  });

  it('writes rows in input order when a later host answers first (rows wait in the window)', async () => {
    // a's robots.txt is held until b's request has arrived: b's rows are ready first.
    const held: (() => void)[] = [];
    let bAsked = false;
    const a = await serve((req, res) => {
      const answer = (): void => text(BODY_A)(req, res);
      if (bAsked) answer();
      else held.push(answer);
    });
    const b = await serve((req, res) => {
      bAsked = true;
      text(BODY_B)(req, res);
      for (const answer of held.splice(0)) answer();
    });
    const urls = [...PATHS.map((p) => `${a.origin}${p}`), ...Array.from({ length: 200 }, (_, i) => `${b.origin}/b/${i}`), `${a.origin}/private/last`];
    writeFileSync(join(dir, 'order.txt'), `${urls.join('\n')}\n`);
    const r = await cli(['classify', '--fetch', '--agent', AGENT, '--chunk-bytes', '256', '--quiet', join(dir, 'order.txt')]);
    expect(rowsOf(r.stdout)).toEqual(expectedRows(urls, { [a.origin]: BODY_A, [b.origin]: BODY_B }));
  });

  it('--format jsonl carries the host with its port; --only keeps those rows, the summary counts all', async () => {
    const a = await serve(text(BODY_A));
    const urls = [`${a.origin}/private/a`, `${a.origin}/ok`, `${a.localhostOrigin}/doc.pdf`];
    const r = await cli(['classify', '--fetch', '--agent', AGENT, '--format', 'jsonl', '--only', 'disallowed'], urls.join('\n'));
    const line = (url: string): number => Robots.parse(BODY_A).explain(url, AGENT).line;
    expect(rowsOf(r.stdout).map((l) => JSON.parse(l))).toEqual([
      { verdict: 'disallow', line: line(urls[0]!), host: `127.0.0.1:${a.port}`, url: urls[0], outcome: 'ok' },
      { verdict: 'disallow', line: line(urls[2]!), host: `localhost:${a.port}`, url: urls[2], outcome: 'ok' },
    ]);
    expect(r.stderr).toMatch(/^robots\.txt: 2 ok, 0 unavailable \(all allowed\), 0 unreachable \(all disallowed\)\n3 urls, 1 allowed, 2 disallowed,/);
    const allowedOnly = await cli(['classify', '--fetch', '--agent', AGENT, '--only', 'allowed', '--quiet'], urls.join('\n'));
    expect(rowsOf(allowedOnly.stdout)).toEqual([`allow\t0\t127.0.0.1:${a.port}\t${urls[1]}`]);
  });

  it('http:// and https:// of one host are two origins (here https fails its TLS handshake: unreachable)', async () => {
    const a = await serve(text(BODY_B));
    const https = a.origin.replace('http://', 'https://');
    const urls = [`${a.origin}/ok`, `${https}/ok`, `${a.origin}/b/1`, `HTTPS://127.0.0.1:${a.port}/ok`, `${a.origin}/ok2`];
    const r = await cli(['classify', '--fetch', '--agent', AGENT, '--timeout-ms', '5000'], urls.join('\n'));
    expect(rowsOf(r.stdout)).toEqual(expectedRows(urls, { [a.origin]: BODY_B, [https]: null }));
    expect(rowsOf(r.stdout).map((row) => row.split('\t')[0])).toEqual(['allow', 'disallow', 'disallow', 'disallow', 'allow']);
    expect(r.stderr).toMatch(/^robots\.txt: 1 ok, 0 unavailable \(all allowed\), 1 unreachable \(all disallowed\)\n/);
  });

  it('--missing decides only lines without an http(s) origin; a 404 stays allowed (RFC 9309 §2.3.1.3)', async () => {
    const gone = await serve(status(404));
    const urls = [`${gone.origin}/x`, '/relative', `ftp://127.0.0.1:${gone.port}/x`, `http://127.0.0.1:99999/bad-port`];
    const r = await cli(['classify', '--fetch', '--agent', AGENT, '--missing', 'disallow', '--quiet'], urls.join('\n'));
    expect(rowsOf(r.stdout)).toEqual([
      `allow\t0\t127.0.0.1:${gone.port}\t${urls[0]}`,
      'disallow\t0\t\t/relative',
      `disallow\t0\t127.0.0.1:${gone.port}\t${urls[2]}`,
      'disallow\t0\t127.0.0.1:99999\thttp://127.0.0.1:99999/bad-port',
    ]);
    expect(gone.hits('/robots.txt')).toBe(1);
  });

  it('fetches hosts at the same time, never more than --concurrency', async () => {
    let active = 0;
    let peak = 0;
    const waiting: (() => void)[] = [];
    // Each answer waits until 3 requests are open at once (or, for --concurrency 1, is
    // released by the next test step): a CLI fetching one by one would never get there.
    let target = 3;
    const handler: Handler = (req, res) => {
      active++;
      peak = Math.max(peak, active);
      const answer = (): void => {
        active--;
        text('User-agent: *\nDisallow: /no\n')(req, res);
      };
      waiting.push(answer);
      if (active >= target) for (const run of waiting.splice(0)) run();
    };
    const hosts = [await serve(handler), await serve(handler), await serve(handler)];
    const urls = hosts.flatMap((h) => [`${h.origin}/no`, `${h.origin}/yes`]);
    const three = await cli(['classify', '--fetch', '--agent', AGENT, '--quiet'], urls.join('\n'));
    expect(rowsOf(three.stdout)).toHaveLength(6);
    expect(peak).toBe(3);

    peak = 0;
    target = 1;
    const one = await cli(['classify', '--fetch', '--agent', AGENT, '--concurrency', '1', '--quiet'], urls.join('\n'));
    expect(one.stdout).toBe(three.stdout);
    expect(peak).toBe(1);
  });

  it('spaces robots.txt requests to one host by its Crawl-delay (host dropped from a 1-host cache, then needed again)', async () => {
    const arrivals: number[] = [];
    const a = await serve((req, res) => {
      arrivals.push(Date.now());
      text('User-agent: *\nCrawl-delay: 0.4\nDisallow: /a/\n')(req, res);
    });
    const b = await serve(text(BODY_B));
    // One URL per chunk. b is read only once a's first chunk is written (16 chunks of a fill
    // the read-ahead window), and a's last URL only once b is decided, which drops a from
    // the one-host cache: a is fetched again, politely.
    const urls = [
      ...Array.from({ length: 16 }, (_, i) => `${a.origin}/a/${i}`),
      ...Array.from({ length: 20 }, (_, i) => `${b.origin}/b/${i}`),
      `${a.origin}/a/last`,
    ];
    writeFileSync(join(dir, 'polite.txt'), `${urls.join('\n')}\n`);
    const r = await cli(['classify', '--fetch', '--agent', AGENT, '--cache-hosts', '1', '--chunk-bytes', '8', '--quiet', join(dir, 'polite.txt')]);
    expect(rowsOf(r.stdout).map((row) => row.split('\t')[0])).toEqual(urls.map(() => 'disallow'));
    expect(arrivals).toHaveLength(2);
    // A lower bound only: the second request may come late on a busy machine, never early.
    expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(390);
  });

  it('refuses flags that do not fit, with a message and status 2', async () => {
    const cases: [string[], RegExp][] = [
      [['classify', '--fetch', '--agent', AGENT, '--workers', '2'], /--workers does not apply to --fetch/],
      [['classify', '--fetch', '--robots-dir', dir, '--agent', AGENT], /--robots-dir and --fetch exclude each other/],
      [['classify', '--agent', AGENT], /--robots-dir DIR or --fetch is required/],
      [['classify', '--robots-dir', dir, '--agent', AGENT, '--concurrency', '4'], /--concurrency belongs to classify --fetch/],
      [['classify', '--fetch', '--agent', AGENT, '--concurrency', '0'], /--concurrency must be a positive integer, got "0"/],
      [['classify', '--fetch', '--agent', AGENT, '--max-delay-ms', '1.5'], /--max-delay-ms must be an integer from 0 to 2147483647 \(ms\), got "1\.5"/],
      [['check', '--robots', 'http://', '--agent', AGENT], /--robots "http:\/\/" is not a valid URL/],
      [['check', '--robots', 'https://[::1', '--agent', AGENT], /--robots "https:\/\/\[::1" is not a valid URL/],
      [['check', '--robots', '', '--agent', AGENT], /--robots FILE\|URL is required/],
      [['check', '--robots', 'http://127.0.0.1:1/', '--agent', AGENT, '--timeout-ms', '0'], /--timeout-ms must be an integer from 1 to 2147483647 \(ms\), got "0"/],
      [['check', '--robots', 'http://127.0.0.1:1/', '--agent', AGENT, '--user-agent', ' '], /--user-agent must not be empty/],
      [['check', '--robots', join(dir, 'robots.txt'), '--agent', AGENT, '--user-agent', 'x/1'], /--user-agent applies only when fetching/],
      [['check', '--robots', 'http://127.0.0.1:1/', '--agent', AGENT, '--fetch'], /--fetch belongs to classify, not check/],
    ];
    for (const [args, message] of cases) {
      const r = await cli(args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stdout, args.join(' ')).toBe('');
      expect(r.stderr, args.join(' ')).toMatch(new RegExp(`^robotstxt: .*${message.source}`));
    }
  });
});

describe('in-process pieces (src/cli/fetch-classify.ts)', () => {
  it('reports progress per chunk and the robots.txt outcomes', async () => {
    const a = await serve(text(BODY_A));
    const urls = Array.from({ length: 500 }, (_, i) => `${a.origin}${PATHS[i % PATHS.length]}`);
    const input = `${urls.join('\n')}\n`;
    const chunks: Buffer[] = [];
    const stdout = new Writable({ write: (c: Buffer, _e, done) => (chunks.push(c), done()) });
    const updates: [number, number][] = [];
    const totals = await runFetchClassify(
      { agent: AGENT, profile: 'rfc', userAgent: 'TestBot/1.0', urlsPath: '-', chunkBytes: 1024, progress: { update: (t, bytes) => updates.push([t.urls, bytes]) } },
      Readable.from(urls.map((u) => Buffer.from(`${u}\n`))), // pieces of one line: chunks of about 1 KiB
      stdout,
    );
    expect(totals).toMatchObject({ urls: 500, robots: { ok: 1, unavailable: 0, unreachable: 0 } });
    expect(Buffer.concat(chunks).toString().split('\n').slice(0, -1)).toEqual(expectedRows(urls, { [a.origin]: BODY_A }));
    expect(updates.length).toBeGreaterThan(1);
    expect(updates.at(-1)).toEqual([500, Buffer.byteLength(input)]);
  });

  it('books the crawl-delay after a host first answers, and waits it before asking again', async () => {
    const a = await serve(text('User-agent: *\nCrawl-delay: 3\n'));
    const b = await serve(text(BODY_B));
    const waits: [string, number][] = [];
    const politeness: HostPoliteness = {
      wait: async (url, delayMs) => (waits.push([String(url), delayMs]), 0),
      delayFor: (robots, token) => (robots.crawlDelay(token) ?? 0) * 1000,
      waitFor: async () => 0,
    };
    const robots = new FetchedRobots({ userAgent: 'TestBot/1.0', agent: AGENT, profile: 'rfc', cacheHosts: 1, concurrency: 2, maxDelayMs: 10_000, politeness });
    await robots.load(a.origin);
    await robots.load(a.origin); // cached: no request, no wait
    await robots.load(b.origin); // drops a from the one-origin cache
    await robots.load(a.origin);
    const key = (s: TestServer): string => `http://127.0.0.1:${s.port}`;
    expect(waits).toEqual([[key(a), 0], [key(a), 3000], [key(b), 0], [key(a), 3000]]);
    expect(a.hits('/robots.txt')).toBe(2);
    expect(robots.counts).toEqual({ ok: 3, unavailable: 0, unreachable: 0 });
  });
});
