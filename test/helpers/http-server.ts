// Real node:http servers on 127.0.0.1 for the fetch tests: routes, request log, misbehaviours.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { listenOnLoopback } from './loopback.js';
import { gzipSync } from 'node:zlib';

/** Answers one request. May leave the response open on purpose (see `hang`). */
export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** What the server saw of one request. */
export interface RecordedRequest {
  readonly method: string;
  /** Path and query as sent, e.g. `/robots.txt`. */
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
}

/** A running server. Every route can be replaced while it runs. */
export interface TestServer {
  /** `http://127.0.0.1:PORT` */
  readonly origin: string;
  /** `http://localhost:PORT`: the same server under another authority. */
  readonly localhostOrigin: string;
  readonly port: number;
  /** Every request received, in order. */
  readonly requests: RecordedRequest[];
  /** Sets (or replaces) the handler for an exact path (query excluded). */
  route(path: string, handler: Handler): void;
  /** Requests received for `path` (query excluded). */
  hits(path: string): number;
  /** Closes every connection, including hanging ones, then the listener. */
  close(): Promise<void>;
}

/**
 * Starts a server on 127.0.0.1, port 0 (the OS picks a free one). Unrouted paths get 404.
 * @example
 * const server = await startServer({ '/robots.txt': text('User-agent: *\nDisallow: /x\n') });
 * await fetchRobots(server.origin, { userAgent: 'TestBot/1.0' });
 * await server.close();
 */
export async function startServer(routes: Record<string, Handler> = {}): Promise<TestServer> {
  const table = new Map<string, Handler>(Object.entries(routes));
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    requests.push({ method: req.method ?? 'GET', path, headers: req.headers });
    const handler = table.get(path.split('?')[0]!) ?? status(404);
    handler(req, res);
  });
  const { port, origin, close } = await listenOnLoopback(server);
  return {
    origin,
    localhostOrigin: `http://localhost:${port}`,
    port,
    requests,
    route: (path, handler) => void table.set(path, handler),
    hits: (path) => requests.filter((r) => r.path.split('?')[0] === path).length,
    close,
  };
}

/**
 * A fixed response.
 * @example text('User-agent: *\nDisallow: /\n', { headers: { 'cache-control': 'max-age=60' } })
 */
export function text(body: string | Uint8Array, init: { status?: number; headers?: Record<string, string> } = {}): Handler {
  return (_req, res) => {
    res.writeHead(init.status ?? 200, { 'content-type': 'text/plain; charset=utf-8', ...init.headers });
    res.end(body);
  };
}

/**
 * A status with an empty body.
 * @example status(503, { 'retry-after': '120' })
 */
export function status(code: number, headers: Record<string, string> = {}): Handler {
  return (_req, res) => {
    res.writeHead(code, headers);
    res.end();
  };
}

/**
 * A redirect to `location` (relative or absolute).
 * @example redirect('/r2', 302)
 */
export function redirect(location: string, code = 301): Handler {
  return status(code, { location });
}

/**
 * Never answers: the request waits until the client gives up or the server closes.
 * @example server.route('/robots.txt', hang())
 */
export function hang(): Handler {
  return () => undefined;
}

/**
 * Sends headers and the first part of a body, then never sends the rest.
 * @example partialThenHang('User-agent: *\n', 1000)
 */
export function partialThenHang(prefix: string, declaredLength: number): Handler {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(declaredLength) });
    res.write(prefix);
  };
}

/**
 * Sends headers and part of the body, then resets the connection mid-body.
 * @example resetMidBody('User-agent: *\nDisallow: /', 10_000)
 */
export function resetMidBody(prefix: string, declaredLength: number): Handler {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(declaredLength) });
    // Destroy only once the prefix is on the wire, so the client really is mid-body.
    res.write(prefix, () => res.socket?.destroy());
  };
}

/**
 * The body gzip-compressed with `Content-Encoding: gzip`.
 * @example gzipped('User-agent: *\nDisallow: /zipped\n')
 */
export function gzipped(body: string | Uint8Array, headers: Record<string, string> = {}): Handler {
  const compressed = gzipSync(typeof body === 'string' ? Buffer.from(body) : body);
  return text(compressed, { headers: { 'content-encoding': 'gzip', 'content-length': String(compressed.length), ...headers } });
}

/** What a streaming handler managed to send. */
export interface StreamStats {
  /** Bytes accepted by the socket (handed to the kernel or queued in a 16 KiB buffer). */
  bytesAccepted: number;
  /** True once every byte was handed to the kernel (`'finish'`). */
  finished: boolean;
  /** Resolves when the response is closed, by completion or by the client going away. */
  readonly closed: Promise<void>;
}

/**
 * Streams `head` followed by comment lines up to `totalBytes`, respecting backpressure, so
 * that a client that stops reading stops the server too; `stats` tells how far it got.
 * @example const { handler, stats } = streamBody('User-agent: *\nDisallow: /p\n', 10 * 1024 * 1024);
 */
export function streamBody(head: string, totalBytes: number): { handler: Handler; stats: StreamStats } {
  let markClosed: () => void = () => undefined;
  const stats: StreamStats = {
    bytesAccepted: 0,
    finished: false,
    closed: new Promise<void>((resolve) => (markClosed = resolve)),
  };
  const line = Buffer.from(`#${'x'.repeat(1022)}\n`); // 1 KiB comment lines
  const handler: Handler = (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(totalBytes) });
    res.on('finish', () => (stats.finished = true));
    res.on('close', () => markClosed());
    res.on('error', () => undefined); // EPIPE / ECONNRESET when the client cancels: expected
    let sent = 0;
    const pump = (): void => {
      while (sent < totalBytes && !res.destroyed) {
        const chunk = sent === 0 ? Buffer.from(head) : line.subarray(0, Math.min(line.length, totalBytes - sent));
        sent += chunk.length;
        stats.bytesAccepted += chunk.length;
        if (!res.write(chunk)) {
          res.once('drain', pump);
          return;
        }
      }
      if (sent >= totalBytes) res.end();
    };
    pump();
  };
  return { handler, stats };
}

/**
 * Counts requests per path and holds every response until `release()` is called, so that
 * concurrent callers are guaranteed to overlap.
 * @example const gate = gated(text('User-agent: *\n')); server.route('/robots.txt', gate.handler);
 */
export function gated(inner: Handler): { handler: Handler; release(): void; readonly waiting: number } {
  const queue: Array<() => void> = [];
  let open = false;
  return {
    handler: (req, res) => {
      if (open) inner(req, res);
      else queue.push(() => inner(req, res));
    },
    release() {
      open = true;
      for (const run of queue.splice(0)) run();
    },
    get waiting() {
      return queue.length;
    },
  };
}
