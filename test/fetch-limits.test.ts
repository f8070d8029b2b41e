// Fetch limits that must hold whatever the network or the fetch implementation does: deadlines, pooled origins, exit after the last row.
//
// RFC 9309 §2.3.1.4: a robots.txt that cannot be fetched in time is unreachable and the
// crawler MUST assume complete disallow. Only 127.0.0.1 is contacted. The CLI test needs
// `npm run build` (npm test runs it first).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createNetServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createFetchLimiter, fetchRobots, RobotsCache, type FetchLike } from '../src/fetch/index.js';
import { createNodeFetch } from '../src/fetch/node-fetch.js';
import { withCliFetch } from '../src/cli/fetch.js';
import { hang, startServer, text, type Handler, type TestServer } from './helpers/http-server.js';
import { listenOnLoopback, type Loopback } from './helpers/loopback.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(root, 'dist', 'cli', 'main.js');
const UA = 'LimitBot/1.0';

/** Headers and a first line at once, then one more byte every 100 ms for as long as the client listens. */
function drip(): Handler {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.write('User-agent: *\n');
    const timer = setInterval(() => res.write('#'), 100);
    res.on('close', () => clearInterval(timer));
  };
}

/** The global fetch with the request's signal removed: a fetch implementation that ignores aborts. */
const ignoresSignal: FetchLike = (url, init) => globalThis.fetch(url, { ...init, signal: null });

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
beforeAll(() => void process.on('unhandledRejection', onUnhandled));
afterAll(() => void process.off('unhandledRejection', onUnhandled));

/** Lets pending rejections reach the unhandledRejection hook (it runs after the microtask queue drains). */
async function drainRejections(): Promise<void> {
  for (let i = 0; i < 3; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

describe('timeoutMs holds whatever the fetch implementation does (RFC 9309 §2.3.1.4)', () => {
  let slow: TestServer;
  let good: TestServer;
  beforeAll(async () => {
    slow = await startServer({ '/robots.txt': drip() });
    good = await startServer({ '/robots.txt': text('User-agent: *\nDisallow: /private/\n') });
  });
  afterAll(async () => {
    await slow.close();
    await good.close();
  });

  it('a body dripping for ever from a fetch that ignores its signal: unreachable, timeout, disallow all', async () => {
    const result = await fetchRobots(slow.origin, { userAgent: UA, fetch: ignoresSignal, timeoutMs: 200 });
    expect(result.status).toBe('unreachable');
    expect(result.reason).toBe('timeout');
    expect(result.error).toContain('timeoutMs (200 ms)');
    expect(result.robots.isAllowed(`${slow.origin}/anything`, 'LimitBot')).toBe(false);
  });

  it('headers that never come, from a fetch that ignores its signal: headersTimeoutMs holds too', async () => {
    const silent = await startServer({ '/robots.txt': hang() });
    try {
      const result = await fetchRobots(silent.origin, { userAgent: UA, fetch: ignoresSignal, headersTimeoutMs: 200 });
      expect(result.status).toBe('unreachable');
      expect(result.reason).toBe('timeout');
      expect(result.error).toContain('headersTimeoutMs (200 ms)');
    } finally {
      await silent.close();
    }
  });

  it('the limiter slot is free at the deadline: the next fetch on a one-slot limiter runs', async () => {
    const limiter = createFetchLimiter({ concurrency: 1 });
    const cache = new RobotsCache({ userAgent: UA, fetch: ignoresSignal, timeoutMs: 200, limiter });
    const stuck = await cache.get(slow.origin);
    expect(stuck.status).toBe('unreachable');
    expect(limiter.active).toBe(0);
    const next = await cache.get(good.origin);
    expect(next.status).toBe('ok');
    expect(await cache.isAllowed(`${good.origin}/private/x`)).toBe(false);
    expect(limiter.active).toBe(0);
    expect(limiter.pending).toBe(0);
  });

  it('a fetch that never settles, then rejects late: the late rejection is not an unhandled rejection', async () => {
    let rejectLate: (error: Error) => void = () => undefined;
    const never: FetchLike = () => new Promise<Response>((_resolve, reject) => (rejectLate = reject));
    const result = await fetchRobots(good.origin, { userAgent: UA, fetch: never, timeoutMs: 200 });
    expect(result.status).toBe('unreachable');
    expect(result.reason).toBe('timeout');
    const before = unhandled.length;
    rejectLate(new Error('late network failure'));
    await drainRejections();
    expect(unhandled.slice(before)).toEqual([]);
  });

  it('a fetch that answers after the deadline: its body is not read and nothing escapes', async () => {
    let resolveLate: (response: Response) => void = () => undefined;
    const late: FetchLike = () => new Promise<Response>((resolve) => (resolveLate = resolve));
    const result = await fetchRobots(good.origin, { userAgent: UA, fetch: late, timeoutMs: 200 });
    expect(result.reason).toBe('timeout');
    const before = unhandled.length;
    const body = new ReadableStream<Uint8Array>({ pull: () => new Promise(() => undefined) });
    resolveLate(new Response(body, { status: 200 }));
    await drainRejections();
    expect(unhandled.slice(before)).toEqual([]);
  });

  it('the caller aborting still rejects with its reason, even when the fetch ignores the signal', async () => {
    const controller = new AbortController();
    const pending = fetchRobots(slow.origin, { userAgent: UA, fetch: ignoresSignal, signal: controller.signal });
    setTimeout(() => controller.abort(new Error('caller gave up')), 50);
    await expect(pending).rejects.toThrow('caller gave up');
  });
});

/** Starts `n` HTTP servers on 127.0.0.1 (each its own origin) sharing one handler. */
async function startOrigins(n: number, handler: Handler): Promise<Loopback[]> {
  const servers: Loopback[] = [];
  for (let i = 0; i < n; i++) servers.push(await listenOnLoopback(createHttpServer(handler) as HttpServer));
  return servers;
}

/** Origins pooled by Node's global fetch Agent (undici): the size of its per-origin client map (there is no public count). */
function pooledOriginsOf(dispatcher: object | undefined): number {
  if (dispatcher === undefined) return 0;
  const key = Object.getOwnPropertySymbols(dispatcher).find((s) => s.description === 'clients');
  const clients = key === undefined ? undefined : (dispatcher as Record<symbol, unknown>)[key];
  if (!(clients instanceof Map)) throw new Error('undici Agent layout changed: no Map under Symbol(clients)');
  return clients.size;
}

/** Node's global fetch Agent (created on first use of the global fetch). */
function globalDispatcher(): object | undefined {
  return (globalThis as Record<symbol, object | undefined>)[Symbol.for('undici.globalDispatcher.1')];
}

describe('connection pools are bounded however many origins are fetched', () => {
  const ORIGINS = 300;
  let servers: Loopback[] = [];
  beforeAll(async () => {
    servers = await startOrigins(ORIGINS, (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('User-agent: *\nDisallow: /private/\n');
    });
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });

  it(`createNodeFetch: ${ORIGINS} origins through a RobotsCache hold sockets only while their requests run`, async () => {
    const http = createNodeFetch();
    try {
      const cache = new RobotsCache({ userAgent: UA, fetch: http.fetch, concurrency: 8, maxEntries: 32 });
      let most = 0;
      await Promise.all(
        servers.map(async (s) => {
          expect(await cache.isAllowed(`${s.origin}/private/a`)).toBe(false);
          most = Math.max(most, http.pooledOrigins);
        }),
      );
      // 8 requests at a time; a finished one's socket closes within a tick or two. The
      // global fetch ends this run holding all 300.
      expect(most).toBeLessThan(ORIGINS / 4);
      for (let i = 0; i < 1000 && http.pooledOrigins > 0; i++) await new Promise<void>((resolve) => setTimeout(resolve, 10));
      expect(http.pooledOrigins).toBe(0);
    } finally {
      http.close();
    }
    await expect(http.fetch(`${servers[0]!.origin}/robots.txt`, {})).rejects.toThrow('closed');
  });

  it(`the CLI's fetch (withCliFetch) leaves no pool in Node's global Agent after ${ORIGINS} origins`, async () => {
    const before = pooledOriginsOf(globalDispatcher());
    await withCliFetch(undefined, 5000, async (fetch) => {
      const limiter = createFetchLimiter({ concurrency: 8 });
      const results = await Promise.all(servers.map((s) => limiter.run(() => fetchRobots(s.origin, { userAgent: UA, fetch }))));
      expect(results.map((r) => r.status)).toEqual(servers.map(() => 'ok'));
    });
    // The global fetch would have added one pool per origin here, kept for the process's life.
    expect(pooledOriginsOf(globalDispatcher()) - before).toBe(0);
  });

  it('createNodeFetch rejects an option out of range with what it got', () => {
    expect(() => createNodeFetch({ socketTimeoutMs: 0 })).toThrow('options.socketTimeoutMs must be a number of ms in (0, 2147483647], got 0');
  });
});

describe('the CLI exits promptly after its last row', () => {
  /** Accepts TCP and reads, never writes: a TLS handshake to it never completes. */
  let tarpit: { port: number; close(): Promise<void> };
  const sockets = new Set<Socket>();
  beforeAll(async () => {
    const server = createNetServer((socket) => {
      sockets.add(socket);
      socket.on('data', () => undefined);
      socket.on('error', () => undefined);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    tarpit = {
      port: (server.address() as AddressInfo).port,
      close: () =>
        new Promise<void>((resolve) => {
          for (const s of sockets) s.destroy();
          server.close(() => resolve());
        }),
    };
  });
  afterAll(async () => tarpit.close());
  afterEach(() => {
    for (const s of sockets) s.destroy();
  });

  /** Runs the CLI; resolves with its exit code, output and how long it ran. */
  function run(args: string[], input: string): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
    return new Promise((resolve, reject) => {
      const started = performance.now();
      const child = spawn(process.execPath, [CLI, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr, ms: performance.now() - started }));
      child.stdin.end(input);
    });
  }

  // Node's global fetch (undici) gives a connect 10 s; its unfinished handshake kept the
  // process alive ~10 s after the row. The bound is generous both ways.
  it('classify --fetch against a TLS handshake that never completes: the row, then exit well before the connect timeout', async () => {
    const url = `https://127.0.0.1:${tarpit.port}/a`;
    const r = await run(['classify', '--fetch', '--agent', 'LimitBot', '--timeout-ms', '300'], `${url}\n`);
    expect(r.stderr).toContain('1 unreachable');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`disallow\t0\t127.0.0.1:${tarpit.port}\t${url}\n`);
    expect(r.ms).toBeLessThan(8_000);
  });

  it('check --robots https://… against the same: exits well before the connect timeout', async () => {
    const r = await run(['check', '--robots', `https://127.0.0.1:${tarpit.port}/robots.txt`, '--agent', 'LimitBot', '--timeout-ms', '300'], '/a\n');
    expect(r.stderr).toContain('unreachable (timeout');
    expect(r.stdout).toBe('disallow\t0\t/a\n');
    expect(r.ms).toBeLessThan(8_000);
  });

  it('fetch --out against the same: the outcome row, then exit well before the connect timeout', async () => {
    const out = mkdtempSync(join(tmpdir(), 'robotstxt-fetch-limits-'));
    try {
      const url = `https://127.0.0.1:${tarpit.port}/a`;
      const r = await run(['fetch', '--out', out, '--timeout-ms', '300'], `${url}\n`);
      expect(r.code).toBe(0);
      expect(r.stderr).toContain('1 unreachable');
      expect(readFileSync(join(out, 'outcomes.tsv'), 'utf8')).toContain(`https://127.0.0.1:${tarpit.port}\tunreachable\t`);
      expect(r.ms).toBeLessThan(8_000);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
