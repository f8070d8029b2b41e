// Concurrency limiter and per-host politeness for callers that fetch many sites.
import type { Robots } from '../robots.js';
import { describe, originOf } from './http.js';
import { LruMap } from './lru.js';

/** Runs at most `concurrency` tasks at once; the rest wait in FIFO order. */
export interface FetchLimiter {
  readonly concurrency: number;
  /** Tasks running now. */
  readonly active: number;
  /** Tasks waiting for a slot. */
  readonly pending: number;
  /** Runs `task` when a slot is free and settles with its result. */
  run<T>(task: () => Promise<T>): Promise<T>;
}

/**
 * Creates a FIFO concurrency limiter (a counting semaphore without timers).
 *
 * @throws {RangeError} when `concurrency` is not an integer ≥ 1.
 * @example
 * const limiter = createFetchLimiter({ concurrency: 4 });
 * const results = await Promise.all(sites.map((s) => limiter.run(() => fetchRobots(s, { userAgent }))));
 */
export function createFetchLimiter(options: { concurrency: number }): FetchLimiter {
  const concurrency = options?.concurrency;
  if (typeof concurrency !== 'number' || !Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError(`options.concurrency must be an integer >= 1, got ${describe(concurrency)}`);
  }
  let active = 0;
  const queue: Array<() => void> = [];
  const release = (): void => {
    const next = queue.shift();
    if (next === undefined) active--;
    else next(); // the slot passes straight to the next task
  };
  return {
    concurrency,
    get active() {
      return active;
    },
    get pending() {
      return queue.length;
    },
    run<T>(task: () => Promise<T>): Promise<T> {
      if (typeof task !== 'function') {
        return Promise.reject(new TypeError(`task must be a function returning a promise, got ${describe(task)}`));
      }
      const start = (): Promise<T> => {
        let promise: Promise<T>;
        try {
          promise = Promise.resolve(task());
        } catch (error) {
          promise = Promise.reject(error);
        }
        return promise.finally(release);
      };
      if (active < concurrency) {
        active++;
        return start();
      }
      return new Promise<T>((resolve, reject) => {
        queue.push(() => {
          start().then(resolve, reject);
        });
      });
    },
  };
}

/** Options of {@link createHostPoliteness}. */
export interface HostPolitenessOptions {
  /** Gap between two requests to one host when robots.txt sets no crawl-delay, in ms. Default 0. */
  defaultDelayMs?: number;
  /** Upper bound on any gap, whatever crawl-delay says, in ms. Default 60 000. */
  maxDelayMs?: number;
  /** Hosts remembered (least recently used forgotten first). Default 10 000. */
  maxHosts?: number;
  /** Clock, ms since the epoch. Default `Date.now`. */
  now?: () => number;
  /** Waits `ms`; the default uses a `setTimeout` that is cleared when `signal` aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** Spaces out requests to the same origin. */
export interface HostPoliteness {
  /**
   * Waits for `url`'s origin's next free slot and books the one after it `delayMs` later,
   * so concurrent callers for one host queue up and different hosts never wait for each
   * other. Resolves with the ms waited.
   */
  wait(url: string | URL, delayMs: number, options?: { signal?: AbortSignal }): Promise<number>;
  /** The gap `robots` asks of `productToken` (crawl-delay seconds → ms), clamped to the options. */
  delayFor(robots: Robots, productToken: string): number;
  /** `wait(url, delayFor(robots, productToken))`. */
  waitFor(url: string | URL, robots: Robots, productToken: string, options?: { signal?: AbortSignal }): Promise<number>;
}

/**
 * Creates a per-origin scheduler honouring `robots.crawlDelay(agent)`. Crawl-delay is not
 * part of RFC 9309 (§2.2.4 lets crawlers interpret other records); it is read in seconds,
 * as Bing and Yandex define it, and clamped to `maxDelayMs` so a hostile value cannot stall
 * a crawler.
 *
 * @example
 * const polite = createHostPoliteness({ maxDelayMs: 10_000 });
 * await polite.waitFor(url, result.robots, 'ExampleBot'); // resolves at once the first time
 * await polite.waitFor(url, result.robots, 'ExampleBot'); // then crawl-delay seconds later
 */
export function createHostPoliteness(options: HostPolitenessOptions = {}): HostPoliteness {
  const defaultDelayMs = checkDelay(options.defaultDelayMs ?? 0, 'options.defaultDelayMs');
  const maxDelayMs = checkDelay(options.maxDelayMs ?? 60_000, 'options.maxDelayMs');
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? sleepWithTimer;
  // Next free slot per origin, ms since the epoch. Bounded: a forgotten host simply gets
  // an immediate slot, which at worst costs one early request to a long-idle host.
  const nextSlot = new LruMap<string, number>(options.maxHosts ?? 10_000);

  const wait: HostPoliteness['wait'] = async (url, delayMs, waitOptions = {}) => {
    const origin = originOf(url, 'url');
    const gap = Math.min(checkDelay(delayMs, 'delayMs'), maxDelayMs);
    const t = now();
    const slot = Math.max(t, nextSlot.get(origin) ?? t);
    nextSlot.set(origin, slot + gap);
    const waitMs = slot - t;
    if (waitMs > 0) await sleep(waitMs, waitOptions.signal);
    return waitMs;
  };
  const delayFor: HostPoliteness['delayFor'] = (robots, productToken) => {
    const seconds = robots.crawlDelay(productToken);
    if (seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return Math.min(defaultDelayMs, maxDelayMs);
    return Math.min(seconds * 1000, maxDelayMs);
  };
  return { wait, delayFor, waitFor: (url, robots, token, o) => wait(url, delayFor(robots, token), o) };
}

function checkDelay(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 0x7fffffff) {
    throw new RangeError(`${name} must be a number of ms in [0, 2147483647], got ${describe(value)}`);
  }
  return value;
}

function sleepWithTimer(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
