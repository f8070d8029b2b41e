// Node-only HTTP client for robots.txt: a small fetch over node:http(s) Agents this package owns, holding no connection after a request.
//
// Node's global fetch shares one undici Agent for the whole process, and that Agent keeps
// a connection pool object per origin for ever (~26 KB each): a crawler meeting a million
// origins would hold ~26 GB, and an aborted TLS connect keeps the process alive until
// undici's 10 s connect timeout. node:http's Agent instead drops an origin's entry as soon
// as its last socket closes; without keep-alive that is when its request ends, so the
// origins held are those with a request in flight. A robots.txt is fetched once per origin
// and then cached for hours, so keep-alive would buy nothing here.
// This module imports node:http, so it is not exported from `robotstxt-wasm/fetch` (which
// must load in browsers and Workers, where the global fetch is used).
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { FetchLike } from './fetch-robots.js';
import { describe } from './http.js';

/**
 * Socket inactivity limit (connect, TLS handshake, silence mid-response), by default, in ms.
 * @example DEFAULT_SOCKET_TIMEOUT_MS // 10_000
 */
export const DEFAULT_SOCKET_TIMEOUT_MS = 10_000;

/** Options of {@link createNodeFetch}. */
export interface NodeFetchOptions {
  /** A socket silent this long (connecting, handshaking or mid-response) is destroyed, in ms. Default 10 000. */
  socketTimeoutMs?: number;
}

/** A `fetch` with its own connections, and the means to end them. */
export interface NodeFetch {
  /** Pass as `options.fetch` to fetchRobots / RobotsCache. */
  readonly fetch: FetchLike;
  /** Origins (`host:port` per scheme) holding a socket now: those with a request in flight or closing. */
  readonly pooledOrigins: number;
  /** Destroys every socket, connecting ones included. Later fetches reject. */
  close(): void;
}

/**
 * Creates a fetch for Node over node:http / node:https with `keepAlive: false`: every
 * connection ends with its response, so nothing per origin outlives a request and nothing
 * keeps the process alive once the work is done. It does what fetchRobots needs of a
 * fetch: GET with headers, `redirect: 'manual'` (redirects are never followed), `signal`,
 * and `Content-Encoding` gzip / deflate / br decoded as the body is read.
 *
 * @throws {RangeError} for an option out of range.
 * @example
 * const http = createNodeFetch();
 * const cache = new RobotsCache({ userAgent: 'ExampleBot/1.0', fetch: http.fetch });
 * try { await cache.isAllowed('https://example.com/x'); } finally { http.close(); }
 */
export function createNodeFetch(options: NodeFetchOptions = {}): NodeFetch {
  const socketTimeoutMs = checkMs(options.socketTimeoutMs ?? DEFAULT_SOCKET_TIMEOUT_MS, 'options.socketTimeoutMs');
  const agents = { 'http:': new HttpAgent({ keepAlive: false }), 'https:': new HttpsAgent({ keepAlive: false }) };
  let closed = false;

  const fetch: FetchLike = (url, init) =>
    new Promise<Response>((resolve, reject) => {
      if (closed) throw new TypeError('this Node fetch was closed (createNodeFetch().close())');
      init.signal?.throwIfAborted();
      const target = new URL(url);
      if (target.protocol !== 'http:' && target.protocol !== 'https:') {
        throw new TypeError(`url must use http: or https:, got ${JSON.stringify(target.protocol)}`);
      }
      const headers: Record<string, string> = { 'accept-encoding': 'gzip, deflate, br' };
      new Headers(init.headers).forEach((value, name) => (headers[name] = value));
      const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
      const request = send(target, {
        method: init.method ?? 'GET',
        headers,
        agent: agents[target.protocol],
        timeout: socketTimeoutMs,
        ...(init.signal ? { signal: init.signal } : {}),
      });
      request.on('timeout', () => request.destroy(new Error(`socket silent for ${socketTimeoutMs} ms`)));
      request.on('error', reject);
      request.on('response', (response) => {
        try {
          resolve(toResponse(response));
        } catch (error) {
          response.destroy();
          reject(error);
        }
      });
      request.end();
    });

  return {
    fetch,
    get pooledOrigins() {
      const names = new Set<string>();
      for (const [scheme, agent] of Object.entries(agents)) {
        for (const map of [agent.sockets, agent.freeSockets, agent.requests]) {
          for (const [name, list] of Object.entries(map)) if (list !== undefined && list.length > 0) names.add(`${scheme}${name}`);
        }
      }
      return names.size;
    },
    close() {
      closed = true;
      // Ends connecting sockets too: an unanswered TLS handshake must not keep the process alive.
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  };
}

/** A WHATWG Response over `message`, its body decoded per Content-Encoding (RFC 9110 §8.4). */
function toResponse(message: IncomingMessage): Response {
  const status = message.statusCode ?? 0;
  const headers = new Headers();
  const raw = message.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  // Response allows no body with these statuses (Fetch standard: null body status).
  if (status === 204 || status === 205 || status === 304) {
    message.resume();
    return new Response(null, { status, headers });
  }
  let body: Readable = message;
  const coding = (headers.get('content-encoding') ?? '').trim().toLowerCase();
  const decoder = coding === 'gzip' || coding === 'x-gzip' ? createGunzip() : coding === 'deflate' ? createInflate() : coding === 'br' ? createBrotliDecompress() : undefined;
  if (decoder !== undefined) {
    // A decoding error or a reset mid-body errors the stream, which the reader reports.
    message.on('error', (error) => decoder.destroy(error));
    body = message.pipe(decoder);
  }
  // Response refuses statuses outside 200-599; fetchRobots reads only status, headers and
  // body, so those get an object with the same three members (its status is then mapped to
  // `unexpected-status`, RFC 9309 §2.3.1.4).
  const stream = Readable.toWeb(body) as unknown as ReadableStream<Uint8Array>;
  if (status < 200 || status > 599) {
    return { status, headers, body: stream, bodyUsed: false } as unknown as Response;
  }
  return new Response(stream, { status, headers });
}

function checkMs(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > 0x7fffffff) {
    throw new RangeError(`${name} must be a number of ms in (0, 2147483647], got ${describe(value)}`);
  }
  return value;
}
