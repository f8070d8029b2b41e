// MatchPool string batches (matchBatch, decideBatch): identical to AgentMatcher.matchBatch/decideBatch on every split, errors, read-once snapshot.
//
// Worker threads run built JavaScript, so this suite loads dist/ (build first; `npm test`
// does). Most pools use minParallelBytes: 0 so that even tiny batches are split.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { threadId } from 'node:worker_threads';
import type * as PoolModule from '../src/pool/index.js';
import type * as IndexModule from '../src/index.js';
import type { AgentMatcher } from '../src/index.js';
import { suitePools } from './helpers/suite-pools.js';
import { expectArenaHeldUntilAnswered } from './helpers/arena-hold.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const distPool = join(root, 'dist', 'pool', 'index.js');
if (!existsSync(distPool)) throw new Error('dist/pool/index.js is missing: run `npm run build` first');
const { MatchPool } = (await import(pathToFileURL(distPool).href)) as typeof PoolModule;
const { Robots } = (await import(pathToFileURL(join(root, 'dist', 'index.js')).href)) as typeof IndexModule;
type MatchPool = PoolModule.MatchPool;

const BODY = ['User-agent: *', 'Disallow: /a', 'Allow: /a/b', 'Disallow: /*.pdf$', 'Disallow: /*?s=', 'Disallow: /é', 'Allow: /$', 'Disallow: /'].join('\n');
const rfc = Robots.parse(BODY).forAgent('FooBot');
const google = Robots.parse(BODY, { profile: 'google' }).forAgent('FooBot');

/** A pool closed after the suite. */
const pool = suitePools(MatchPool);

const utf8 = new TextEncoder();

/** Pool results equal matchBatch/decideBatch, and lastSplit accounts for every URL and byte. */
async function agrees(p: MatchPool, m: AgentMatcher, urls: string[], note = ''): Promise<void> {
  const want = m.decideBatch(urls);
  const verdicts = await p.matchBatch(m, urls);
  expect(Buffer.from(verdicts).equals(Buffer.from(m.matchBatch(urls))), `matchBatch ${note}`).toBe(true);
  checkSplit(p.lastSplit, urls);
  const decided = await p.decideBatch(m, urls);
  expect(Buffer.from(decided.verdicts).equals(Buffer.from(want.verdicts)), `decideBatch verdicts ${note}`).toBe(true);
  expect(Buffer.from(decided.lines.buffer).equals(Buffer.from(want.lines.buffer)), `decideBatch lines ${note}`).toBe(true);
  checkSplit(p.lastSplit, urls);
}

function checkSplit(split: readonly PoolModule.PoolShare[], urls: string[]): void {
  expect(split.reduce((n, s) => n + s.lines, 0)).toBe(urls.length);
  expect(split.reduce((n, s) => n + s.byteLength, 0)).toBe(urls.reduce((n, u) => n + utf8.encode(u).length, 0));
  for (const share of split) expect(share.lines).toBeGreaterThan(0);
}

const URL_TEXT = fc.oneof(
  fc.constantFrom('', '/', '/a', '/a/b', '/x.pdf', '/x.pdf?s=1', 'https://h.test/a/b', 'http:/a', '/é', '/%C3%A9', '/a\n/b', '/a\r', '\ud800', '/\udfff/a', '😀'),
  fc.string({ unit: fc.constantFrom('/', 'a', 'b', '?', 's', '=', '.', 'p', 'd', 'f', '$', '*', '%', 'é', '日', '\n', '\r', ' ', '#', '\ud83d') }),
);

describe('MatchPool string batches: identical to matchBatch/decideBatch', () => {
  it('random batches (non-ASCII, lone surrogates, line breaks inside URLs, empty strings), 2 and 3 threads, both profiles', async () => {
    const two = pool({ threads: 2, minParallelBytes: 0 });
    const three = pool({ threads: 3, minParallelBytes: 0 });
    await fc.assert(
      fc.asyncProperty(fc.array(URL_TEXT, { minLength: 1, maxLength: 40 }), async (urls) => {
        for (const p of [two, three]) for (const m of [rfc, google]) await agrees(p, m, urls);
      }),
      { numRuns: 60 },
    );
  });

  it('a large batch (above the default threshold) is split between the calling thread and a worker', async () => {
    const p = pool({ threads: 2 });
    const urls = Array.from({ length: 60_000 }, (_, i) => `https://h.test/${i % 3 === 0 ? 'a' : 'a/b'}/${i}${i % 7 === 0 ? '.pdf' : ''}${i % 1000 === 5 ? 'é' : ''}`);
    await agrees(p, rfc, urls);
    expect(p.lastSplit).toHaveLength(2);
    expect(p.lastSplit[0]!.threadId).toBe(threadId);
    expect(p.lastSplit[1]!.threadId).not.toBe(threadId);
    // Later calls follow the learnt speed ratio: still every URL, in order.
    for (let k = 0; k < 3; k++) await agrees(p, google, urls);
  });

  it('calls of growing and shrinking sizes, ASCII and not, several in flight at once (each call its own shared memory)', async () => {
    const p = pool({ threads: 3, minParallelBytes: 0 });
    const batch = (n: number, tail: string): string[] => Array.from({ length: n }, (_, i) => `/${['a', 'a/b', 'x.pdf', 'q?s='][i % 4]}${i}${i % 5 === 0 ? tail : ''}`);
    // Grown for non-ASCII (3 bytes per UTF-16 unit at worst) after ASCII-sized memory ran out.
    for (const [n, tail] of [[10, ''], [5000, ''], [5000, '日本'], [200, 'é'], [20_000, ''], [1, '😀'], [20_000, '\ud800']] as const) {
      await agrees(p, rfc, batch(n, tail), `${n} URLs, tail ${tail}`);
    }
    const batches = [batch(3000, ''), batch(4000, 'é'), batch(100, ''), batch(8000, '日'), batch(60_000, ''), batch(5000, ''), batch(7000, 'é')];
    const calls: Promise<Uint8Array>[] = [];
    for (const [k, urls] of batches.entries()) {
      calls.push(p.matchBatch(k % 2 === 0 ? rfc : google, urls));
      // Some calls start in the same tick, others once earlier ones have run on (the
      // workers still reading their input): memory a call still needs is never reused.
      if (k >= 3) await new Promise((resolve) => setImmediate(resolve));
    }
    const got = await Promise.all(calls);
    for (const [k, urls] of batches.entries()) {
      expect(Buffer.from(got[k]!).equals(Buffer.from((k % 2 === 0 ? rfc : google).matchBatch(urls))), `batch ${k}`).toBe(true);
    }
  });

  it('keeps the shared memory of a call out of reuse until its worker has answered', async () => {
    const p = pool({ threads: 2, minParallelBytes: 0 });
    const urls = Array.from({ length: 20_000 }, (_, i) => `/a/${i}`);
    await agrees(p, rfc, urls);
    await expectArenaHeldUntilAnswered(p, () => p.matchBatch(rfc, urls));
  });

  it('fewer URLs than threads: one share per URL; a batch under minParallelBytes stays on the calling thread', async () => {
    const p = pool({ threads: 3, minParallelBytes: 0 });
    await agrees(p, rfc, ['/a']);
    expect(p.lastSplit).toHaveLength(1);
    await agrees(p, rfc, ['/a', '/b']);
    expect(p.lastSplit).toHaveLength(2);
    const q = pool({ threads: 2 });
    await agrees(q, rfc, ['/a', '/a/b', '/c']);
    expect(q.lastSplit).toEqual([{ threadId, byteLength: 8, lines: 3 }]);
    await expect(q.matchBatch(rfc, [])).resolves.toEqual(new Uint8Array(0));
  });

  it('writes into `out`: returns it, leaves the rest alone', async () => {
    const p = pool({ threads: 2, minParallelBytes: 0 });
    const out = new Uint8Array(5).fill(9);
    expect(await p.matchBatch(rfc, ['/a', '/a/b', '/'], out)).toBe(out);
    expect([...out]).toEqual([0, 1, 1, 9, 9]);
  });
});

describe('MatchPool string batches: errors', () => {
  const p = pool({ threads: 2, minParallelBytes: 0 });

  /** What matchBatch throws for these arguments (it must throw). */
  function thrownBy(fn: () => unknown): Error {
    try {
      fn();
    } catch (error) {
      return error as Error;
    }
    throw new Error('expected a throw');
  }

  it('rejects what matchBatch rejects, with the same error, before any work', async () => {
    const bad: [unknown, Uint8Array | undefined][] = [
      ['/a', undefined],
      [null, undefined],
      [['/a', 3, '/b'], undefined],
      [['/a', null], undefined],
      [['/a', '/b', '/c'], new Uint8Array(2)],
      [['/a'], [] as unknown as Uint8Array],
    ];
    for (const [urls, out] of bad) {
      const want = thrownBy(() => rfc.matchBatch(urls as string[], out));
      await expect(p.matchBatch(rfc, urls as string[], out)).rejects.toThrow(want);
      if (out === undefined) await expect(p.decideBatch(rfc, urls as string[])).rejects.toThrow(thrownBy(() => rfc.decideBatch(urls as string[])));
    }
    await expect(p.matchBatch({} as never, ['/a'])).rejects.toThrow(new TypeError('matcher must be an AgentMatcher, got object'));
  });

  it('leaves `out` untouched when an element is not a string', async () => {
    const out = new Uint8Array(3).fill(9);
    await expect(p.matchBatch(rfc, ['/a', '/b', 7 as never], out)).rejects.toThrow(new TypeError('urls[2] must be a string, got number'));
    expect([...out]).toEqual([9, 9, 9]);
  });

  it('reads each element once: a Proxy whose elements change between reads is judged as first read', async () => {
    const reads = new Map<number, number>();
    const target = ['/a', '/a/b', '/x.pdf', '/'];
    const urls = new Proxy(target, {
      get(t, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) {
          const i = Number(key);
          reads.set(i, (reads.get(i) ?? 0) + 1);
          return (reads.get(i) ?? 0) > 1 ? '/a' : t[i];
        }
        return Reflect.get(t, key, receiver) as unknown;
      },
    });
    expect([...(await p.matchBatch(rfc, urls))]).toEqual([0, 1, 0, 1]);
    expect([...reads.values()]).toEqual([1, 1, 1, 1]);
  });

  it('rejects after close', async () => {
    const q = new MatchPool({ threads: 2, minParallelBytes: 0 });
    await q.matchBatch(rfc, ['/a', '/b']);
    await q.close();
    await expect(q.matchBatch(rfc, ['/a'])).rejects.toThrow('MatchPool is closed');
    await expect(q.decideBatch(rfc, ['/a'])).rejects.toThrow('MatchPool is closed');
  });
});
