// Helpers for crawlers and the CLI: the concurrency limiter, per-host politeness (crawl-delay) and the LRU map.
import { describe, expect, it } from 'vitest';
import { Robots } from '../src/index.js';
import { createFetchLimiter, createHostPoliteness } from '../src/fetch/index.js';
import { LruMap } from '../src/fetch/lru.js';

function deferred<T>(): { promise: Promise<T>; resolve(value: T): void; reject(error: unknown): void } {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('createFetchLimiter', () => {
  it('runs at most `concurrency` tasks, in FIFO order, and passes results and errors through', async () => {
    const limiter = createFetchLimiter({ concurrency: 2 });
    const gates = Array.from({ length: 5 }, () => deferred<number>());
    const started: number[] = [];
    const runs = gates.map((gate, i) =>
      limiter.run(() => {
        started.push(i);
        return gate.promise;
      }),
    );
    const settledAll = Promise.allSettled(runs); // observe every outcome from the start
    await flush();
    expect(started).toEqual([0, 1]);
    expect([limiter.active, limiter.pending]).toEqual([2, 3]);
    gates[1]!.resolve(1);
    await flush();
    expect(started).toEqual([0, 1, 2]);
    gates[0]!.reject(new Error('boom'));
    await flush();
    expect(started).toEqual([0, 1, 2, 3]);
    gates[2]!.resolve(2);
    gates[3]!.resolve(3);
    gates[4]!.resolve(4);
    const settled = await settledAll;
    expect(settled.map((s) => (s.status === 'fulfilled' ? s.value : (s.reason as Error).message))).toEqual(['boom', 1, 2, 3, 4]);
    expect([limiter.active, limiter.pending]).toEqual([0, 0]);
  });

  it('releases the slot when a task throws synchronously', async () => {
    const limiter = createFetchLimiter({ concurrency: 1 });
    await expect(
      limiter.run(() => {
        throw new Error('sync');
      }),
    ).rejects.toThrow('sync');
    expect(await limiter.run(async () => 'next')).toBe('next');
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses concurrency %s', (concurrency) => {
    expect(() => createFetchLimiter({ concurrency })).toThrow(/options.concurrency must be an integer >= 1/);
  });
});

describe('createHostPoliteness', () => {
  function fakeTime(): { now: () => number; sleep: (ms: number) => Promise<void>; slept: number[] } {
    let t = 0;
    const slept: number[] = [];
    return {
      now: () => t,
      slept,
      sleep: async (ms) => {
        slept.push(ms);
        t += ms;
      },
    };
  }

  it('spaces requests to one origin by crawl-delay and leaves other origins alone', async () => {
    const time = fakeTime();
    const polite = createHostPoliteness({ now: time.now, sleep: time.sleep });
    const robots = Robots.parse('User-agent: *\nCrawl-delay: 2\n');
    expect(polite.delayFor(robots, 'TestBot')).toBe(2000);
    expect(await polite.waitFor('http://a.test/1', robots, 'TestBot')).toBe(0);
    expect(await polite.waitFor('http://a.test/2', robots, 'TestBot')).toBe(2000);
    expect(await polite.waitFor('http://b.test/1', robots, 'TestBot')).toBe(0);
    expect(await polite.waitFor('http://A.test:80/3', robots, 'TestBot')).toBe(2000); // same origin
    expect(time.slept).toEqual([2000, 2000]);
  });

  it('books slots for concurrent callers one after another', async () => {
    const slept: number[] = [];
    const polite = createHostPoliteness({ now: () => 0, sleep: async (ms) => void slept.push(ms) });
    const waits = await Promise.all([0, 1, 2].map(() => polite.wait('http://a.test/', 500)));
    expect(waits).toEqual([0, 500, 1000]);
  });

  it.each([
    ['no crawl-delay: defaultDelayMs', 'User-agent: *\n', 250],
    ['a huge crawl-delay is clamped to maxDelayMs', 'User-agent: *\nCrawl-delay: 86400\n', 10_000],
    ['fractional seconds', 'User-agent: *\nCrawl-delay: 0.5\n', 500],
    ['the agent-specific group wins', 'User-agent: TestBot\nCrawl-delay: 1\n\nUser-agent: *\nCrawl-delay: 9\n', 1000],
  ])('%s', (_name, body, expected) => {
    const polite = createHostPoliteness({ defaultDelayMs: 250, maxDelayMs: 10_000 });
    expect(polite.delayFor(Robots.parse(body), 'TestBot')).toBe(expected);
  });

  it('cancels a real wait (and its timer) when the signal aborts', async () => {
    const polite = createHostPoliteness();
    await polite.wait('http://a.test/', 60_000);
    const controller = new AbortController();
    const waiting = polite.wait('http://a.test/', 0, { signal: controller.signal });
    controller.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
  });

  it('refuses bad delays and URLs', async () => {
    expect(() => createHostPoliteness({ maxDelayMs: -1 })).toThrow(RangeError);
    const polite = createHostPoliteness();
    await expect(polite.wait('http://a.test/', Number.NaN)).rejects.toThrow(/delayMs/);
    await expect(polite.wait('a.test', 0)).rejects.toThrow(/url must be an absolute http\(s\) URL/);
  });
});

describe('LruMap', () => {
  it('evicts the least recently used key; get touches, peek does not', () => {
    const lru = new LruMap<string, number>(2);
    lru.set('a', 1).set('b', 2);
    lru.get('a');
    lru.set('c', 3);
    expect([...lru.keys()]).toEqual(['a', 'c']);
    lru.peek('a');
    lru.set('d', 4);
    expect([...lru.keys()]).toEqual(['c', 'd']);
    expect(lru.size).toBe(2);
    expect(() => new LruMap(0)).toThrow(RangeError);
  });
});
