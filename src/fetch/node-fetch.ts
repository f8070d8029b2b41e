// Node-only HTTP client for robots.txt: undici's fetch over agents whose per-origin pools are bounded, recycled and closable.
//
// Node's global fetch shares one undici Agent for the whole process, and that Agent keeps
// a connection pool object per origin for ever (undici 6: "dispatchers are never removed
// from the map"), ~24 KB each: a crawler that meets a million origins would hold ~24 GB.
// Here each Agent serves at most `maxOrigins` origins, then is retired: it finishes its
// requests, closes its sockets and is dropped with its pools. `close()` ends every socket
// and connect attempt at once, so a CLI can exit as soon as its last row is written.
// This module imports undici, so it is not exported from `robotstxt-wasm/fetch` (which
// must load in browsers and Workers, where the global fetch is used).
import { Agent, fetch as undiciFetch } from 'undici';
import type { FetchLike } from './fetch-robots.js';
import { describe } from './http.js';

/**
 * Origins one Agent pools before it is retired, by default.
 * @example DEFAULT_MAX_ORIGINS // 256: at most ~2 × 256 pools alive at once, a few MB
 */
export const DEFAULT_MAX_ORIGINS = 256;
/**
 * How long an idle keep-alive socket is kept, by default, in ms; a server's `Keep-Alive`
 * hint cannot raise it (a robots.txt is fetched once per origin, then cached for hours).
 * @example DEFAULT_KEEP_ALIVE_MS // 2_000
 */
export const DEFAULT_KEEP_ALIVE_MS = 2_000;

/** Options of {@link createNodeFetch}. */
export interface NodeFetchOptions {
  /** Distinct origins an Agent serves before a fresh one takes over. Default 256. */
  maxOrigins?: number;
  /** Idle keep-alive per socket, in ms (server hints are capped to it). Default 2 000. */
  keepAliveTimeoutMs?: number;
  /** TCP + TLS connect deadline, in ms. Default 10 000 (undici's). */
  connectTimeoutMs?: number;
}

/** A `fetch` with its own connection pools, and the means to free them. */
export interface NodeFetch {
  /** Pass as `options.fetch` to fetchRobots / RobotsCache. */
  readonly fetch: FetchLike;
  /** Origins whose pools are held now, by the current Agent and those still finishing. */
  readonly pooledOrigins: number;
  /** Agents alive: the current one and those retired but still finishing requests. */
  readonly agents: number;
  /**
   * Resolves once every retired Agent that is closing has finished its requests and closed
   * its sockets (one whose fetch() calls have not dispatched yet starts closing after them).
   */
  settled(): Promise<void>;
  /** Destroys every Agent: open sockets, pending connects and requests end now. Later fetches reject. */
  close(): Promise<void>;
}

interface Generation {
  readonly agent: Agent;
  readonly origins: Set<string>;
  /** fetch() calls not yet settled: their requests may not be dispatched yet. */
  starting: number;
  retired: boolean;
}

/**
 * Creates a Node fetch whose connection pools are bounded: every `maxOrigins` new origins
 * the Agent in use is retired (`Agent#close`: its requests finish, then its sockets close
 * and its pools are dropped) and a fresh one serves the next origins.
 *
 * @throws {RangeError} for an option out of range.
 * @example
 * const http = createNodeFetch();
 * const cache = new RobotsCache({ userAgent: 'ExampleBot/1.0', fetch: http.fetch });
 * try { await cache.isAllowed('https://example.com/x'); } finally { await http.close(); }
 */
export function createNodeFetch(options: NodeFetchOptions = {}): NodeFetch {
  const maxOrigins = checkCount(options.maxOrigins ?? DEFAULT_MAX_ORIGINS, 'options.maxOrigins');
  const keepAliveMs = checkMs(options.keepAliveTimeoutMs ?? DEFAULT_KEEP_ALIVE_MS, 'options.keepAliveTimeoutMs');
  const connectMs = checkMs(options.connectTimeoutMs ?? 10_000, 'options.connectTimeoutMs');
  const makeAgent = (): Generation => ({
    agent: new Agent({ keepAliveTimeout: keepAliveMs, keepAliveMaxTimeout: keepAliveMs, connect: { timeout: connectMs } }),
    origins: new Set(),
    starting: 0,
    retired: false,
  });
  let current = makeAgent();
  const retiring = new Set<Generation>();
  const closing = new Set<Promise<void>>();
  let closed = false;

  // close() waits for the requests an Agent runs, so no answer is cut short (the callers'
  // deadlines, e.g. fetchRobots' signal, bound how long that takes). It is called only once
  // every fetch() handed to the Agent has settled, i.e. dispatched its request: a request
  // dispatched to a closed Agent would fail.
  const closeWhenStarted = (g: Generation): void => {
    if (!g.retired || g.starting > 0 || closed) return;
    const done: Promise<void> = g.agent
      .close()
      .catch(() => undefined)
      .finally(() => {
        retiring.delete(g);
        closing.delete(done);
      });
    closing.add(done);
  };

  const generationFor = (origin: string): Generation => {
    if (!current.origins.has(origin)) {
      if (current.origins.size >= maxOrigins) {
        const old = current;
        old.retired = true;
        retiring.add(old);
        current = makeAgent();
        closeWhenStarted(old);
      }
      current.origins.add(origin);
    }
    return current;
  };

  const fetch: FetchLike = async (url, init) => {
    if (closed) throw new TypeError('this Node fetch was closed (createNodeFetch().close())');
    const g = generationFor(new URL(url).origin);
    g.starting++;
    try {
      // undici's Request/Response are the WHATWG ones Node's global fetch also returns;
      // only their TypeScript declarations differ.
      const response = await undiciFetch(url, { ...(init as object), dispatcher: g.agent } as Parameters<typeof undiciFetch>[1]);
      return response as unknown as Response;
    } finally {
      g.starting--;
      closeWhenStarted(g);
    }
  };

  return {
    fetch,
    get pooledOrigins() {
      let n = current.origins.size;
      for (const g of retiring) n += g.origins.size;
      return n;
    },
    get agents() {
      return 1 + retiring.size;
    },
    async settled() {
      // A retired Agent whose fetch() calls are still starting begins closing after them.
      while (closing.size > 0) await Promise.all([...closing]);
    },
    async close() {
      closed = true;
      const all = [current, ...retiring];
      retiring.clear();
      current.origins.clear();
      // destroy, not close: a connect that never completes (a TLS handshake left
      // unanswered) would otherwise keep the process alive until its connect timeout.
      await Promise.all(all.map((g) => g.agent.destroy().catch(() => undefined)));
    },
  };
}

function checkCount(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new RangeError(`${name} must be an integer >= 1, got ${describe(value)}`);
  }
  return value;
}

function checkMs(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > 0x7fffffff) {
    throw new RangeError(`${name} must be a number of ms in (0, 2147483647], got ${describe(value)}`);
  }
  return value;
}
