// MatchPool (robotstxt-wasm/pool): results byte-identical to matchLines/decideLines on every split, work really on workers, errors, lifecycle.
//
// Worker threads run built JavaScript, so this suite loads dist/ (build first; `npm test`
// does) and type-checks against the sources. Most pools here use minParallelBytes: 0 so
// that even tiny inputs are split, which puts line breaks at, before and after every cut.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
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
// The pool checks `instanceof AgentMatcher`: matchers must come from the same dist/ build.
const { MatchPool, DEFAULT_MIN_PARALLEL_BYTES } = (await import(pathToFileURL(distPool).href)) as typeof PoolModule;
const { Robots } = (await import(pathToFileURL(join(root, 'dist', 'index.js')).href)) as typeof IndexModule;
type MatchPool = PoolModule.MatchPool;

const BODY = [
  'User-agent: *',
  'Disallow: /a',
  'Allow: /a/b',
  'Disallow: /*.pdf$',
  'Disallow: /*?s=',
  'Disallow: /%7Ex',
  'Disallow: /é',
  'Allow: /$',
  'Disallow: /',
].join('\n');
const encoder = new TextEncoder();
const matchers = {
  rfc: Robots.parse(BODY).forAgent('FooBot'),
  google: Robots.parse(BODY, { profile: 'google' }).forAgent('FooBot'),
  other: Robots.parse('User-agent: *\nDisallow: /b\nAllow: /*.html$\n').forAgent('FooBot'),
};

/** A pool closed after the suite. */
const pool = suitePools(MatchPool);

/** Pool results equal matchLines/decideLines, and the split is sound: whole lines, in order, nothing lost. */
async function agrees(p: MatchPool, m: AgentMatcher, bytes: Uint8Array, note = ''): Promise<void> {
  const want = m.decideLines(bytes);
  const verdicts = await p.matchLines(m, bytes);
  expect(Buffer.from(verdicts).equals(Buffer.from(m.matchLines(bytes))), `matchLines ${note}`).toBe(true);
  checkSplit(p.lastSplit, bytes, want.verdicts.length);
  const decided = await p.decideLines(m, bytes);
  expect(Buffer.from(decided.verdicts).equals(Buffer.from(want.verdicts)), `decideLines verdicts ${note}`).toBe(true);
  expect(Buffer.from(decided.lines.buffer).equals(Buffer.from(want.lines.buffer)), `decideLines lines ${note}`).toBe(true);
  checkSplit(p.lastSplit, bytes, want.verdicts.length);
}

function checkSplit(split: readonly PoolModule.PoolShare[], bytes: Uint8Array, lines: number): void {
  expect(split.reduce((n, s) => n + s.byteLength, 0)).toBe(bytes.length);
  expect(split.reduce((n, s) => n + s.lines, 0)).toBe(lines);
  let at = 0;
  for (const [i, share] of split.entries()) {
    at += share.byteLength;
    // Every share but the last ends just after a '\n' and none is empty.
    if (i < split.length - 1) {
      expect(share.byteLength).toBeGreaterThan(0);
      expect(bytes[at - 1]).toBe(0x0a);
    }
  }
}

const LINE = fc.oneof(
  fc.constantFrom('', '/', '/a', '/a/b', '/x.pdf', '/x.pdf?s=1', '/~x', '/%7ex', 'https://h.test/a/b', 'http://h/', 'http:/a', '/é', '/%C3%A9', '\r', '/a\r', ' /a '),
  fc.string({ unit: fc.constantFrom('/', 'a', 'b', '?', 's', '=', '.', 'p', 'd', 'f', '$', '*', '%', '7', 'e', 'é', '日', '\r', ' ', '#') }),
);

describe('MatchPool: byte-identical to matchLines/decideLines', () => {
  const split2 = pool({ threads: 2, minParallelBytes: 0 });
  const split3 = pool({ threads: 3, minParallelBytes: 0 });
  const single = pool({ threads: 1 });

  it.each([
    ['0 bytes', ''],
    ['one empty line', '\n'],
    ['CRLF only', '\r\n'],
    ['a lone CR', '\r'],
    ['1 line, no final newline', '/a'],
    ['1 line', '/a\n'],
    ['empty lines', '\n\n\n/a\n\n'],
    ['no final newline', '/a\n/b\n/a/b'],
    ['CRLF', '/a\r\n/b\r\n/x.pdf\r\n'],
    ['CRLF, no final newline', '/a\r\n/b\r\n/a/b'],
    ['line break exactly at len/2', '/aaa\n/bbb'],
    ['line break one before len/2', '/aa\n/bbbb'],
    ['line break one after len/2', '/aaaa\n/bb'],
    ['CR at a cut', '/aaa\r\n/bb\r\n'],
    ['non-ASCII', '/é\n/日本\n/%C3%A9\nhttps://h.test/é?s=1\n'],
    ['one long line then short ones', `/${'a'.repeat(5000)}\n/b\n/a\n`],
    ['short lines then one long line without newline', `/b\n/a\n/${'x'.repeat(5000)}.pdf`],
  ])('%s', async (note, text) => {
    const bytes = encoder.encode(text);
    for (const p of [split2, split3, single]) {
      for (const m of Object.values(matchers)) await agrees(p, m, bytes, `${note}, ${p.threads} threads, ${m.profile}`);
    }
  });

  it('every input over {/, a, CR, LF} up to 6 bytes, with 2 and 3 threads (all calls in flight at once)', async () => {
    const alphabet = ['/', 'a', '\r', '\n'];
    const inputs: string[] = [''];
    for (let k = 0, from = 0; k < 6; k++) {
      const to = inputs.length;
      for (let i = from; i < to; i++) for (const c of alphabet) inputs.push(inputs[i]! + c);
      from = to;
    }
    const m = matchers.rfc;
    for (const p of [split2, split3]) {
      const got = await Promise.all(inputs.map((t) => p.decideLines(m, encoder.encode(t))));
      inputs.forEach((t, i) => {
        const want = m.decideLines(encoder.encode(t));
        expect({ verdicts: [...got[i]!.verdicts], lines: [...got[i]!.lines] }, JSON.stringify(t)).toEqual({ verdicts: [...want.verdicts], lines: [...want.lines] });
      });
    }
  });

  it('random line mixes (LF/CRLF, empty lines, non-ASCII, with and without a final newline), both profiles', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(LINE, { maxLength: 40 }), fc.boolean(), fc.boolean(), fc.constantFrom<'rfc' | 'google'>('rfc', 'google'), async (lines, crlf, final, profile) => {
        const bytes = encoder.encode(lines.join(crlf ? '\r\n' : '\n') + (final ? '\n' : ''));
        await agrees(split2, matchers[profile], bytes);
        await agrees(split3, matchers[profile], bytes);
      }),
      { numRuns: 150 },
    );
  });

  it('inputs above the default threshold (1 MiB, 2 and 3 threads), from a Buffer and from a SharedArrayBuffer view', async () => {
    const urls: string[] = [];
    for (let i = 0, length = 0; length < 1 << 20; i++) {
      urls.push(['/a/b', '/a/x', `/p/${i}.pdf`, `/q?s=${i}`, `https://h.test/é/${i}`, '', `/${'z'.repeat(i % 300)}`][i % 7]!);
      length += urls[i]!.length + 2;
    }
    const text = urls.join('\r\n');
    const buffer = Buffer.from(text);
    const shared = new Uint8Array(new SharedArrayBuffer(buffer.length + 7), 7);
    shared.set(buffer);
    const defaults2 = pool({ threads: 2 });
    const defaults3 = pool({ threads: 3 });
    for (const p of [defaults2, defaults3]) {
      for (const bytes of [buffer, shared]) {
        await agrees(p, matchers.rfc, bytes, `${p.threads} threads`);
        await agrees(p, matchers.google, bytes, `${p.threads} threads`);
        expect(p.lastSplit.length).toBe(p.threads);
      }
    }
  });

  it('a line longer than a share: fewer, whole-line shares', async () => {
    const bytes = encoder.encode(`/a\n/${'b'.repeat(300_000)}\n/a\n`);
    for (const p of [split2, split3]) {
      await agrees(p, matchers.rfc, bytes);
      expect(p.lastSplit.length).toBeLessThanOrEqual(3);
    }
    const one = encoder.encode(`/${'b'.repeat(300_000)}`);
    await agrees(split3, matchers.rfc, one);
    expect(split3.lastSplit.length).toBe(1);
  });

  it('several tables and both profiles in flight at once', async () => {
    const text = Array.from({ length: 20_000 }, (_, i) => ['/a', '/a/b', '/b.html', '/x.pdf', '/é', '/b'][i % 6]).join('\n');
    const bytes = encoder.encode(text);
    const ms = [matchers.rfc, matchers.google, matchers.other, matchers.rfc, matchers.other];
    const got = await Promise.all(ms.map((m) => split3.matchLines(m, bytes)));
    got.forEach((v, i) => expect(Buffer.from(v).equals(Buffer.from(ms[i]!.matchLines(bytes))), `call ${i}`).toBe(true));
  });

  it('shares sized by a learnt speed ratio: still whole lines and identical results, edge inputs included', async () => {
    for (const [threads, ownMs] of [[2, 1000], [2, 1], [3, 1000], [3, 1]] as const) {
      const p = pool({ threads, minParallelBytes: 0 });
      // Private, to stand in for calls that measured the calling thread 2 times slower (or faster) than a worker.
      const skew = (q: MatchPool): void => {
        const balance = (q as unknown as { balance: { sample(ownBytes: number, ownMs: number, bytes: number[], ms: number[]): void } }).balance;
        balance.sample(1 << 20, ownMs, Array<number>(threads - 1).fill(1 << 20), Array<number>(threads - 1).fill(50));
      };
      skew(p);
      for (const text of ['', '\n', '/a', '/a\r\n/b', `/${'x'.repeat(5000)}`, '/a\n/b\n/c\n/d\n/e\n/f', '/a\r\n/b\r\n/x.pdf\r\n']) {
        await agrees(p, matchers.rfc, encoder.encode(text), `${threads} threads, ${JSON.stringify(text)}`);
      }
      const big = encoder.encode('/a/b\n/x.pdf\n/q?s=1\n'.repeat(30_000));
      // Samples of real calls of this size may since have brought the split back to even.
      for (const withLines of [false, true]) {
        const fresh = pool({ threads, minParallelBytes: 0 });
        skew(fresh);
        if (withLines) await fresh.decideLines(matchers.google, big);
        else await fresh.matchLines(matchers.google, big);
        const own = fresh.lastSplit[0]!.byteLength / big.length;
        // Fraction 1/(1 + (threads - 1)·ratio) with the ratio held at 2 or 1/2.
        const want = 1 / (1 + (threads - 1) * (ownMs > 50 ? 2 : 0.5));
        expect(Math.abs(own - want), `${threads} threads: own share ${own}`).toBeLessThan(0.01);
      }
      await agrees(p, matchers.google, big, `${threads} threads, big`);
    }
  });

  it('views of a SharedArrayBuffer at every offset modulo 8 (read in place by every thread)', async () => {
    const text = Array.from({ length: 3000 }, (_, i) => ['/a', '/a/b', '/x.pdf', `/q?s=${i}`, '/é', ''][i % 6]).join('\r\n');
    const plain = encoder.encode(text);
    const shared = new SharedArrayBuffer(plain.length + 16);
    for (const p of [split2, split3]) {
      for (let offset = 0; offset < 8; offset++) {
        const view = new Uint8Array(shared, offset, plain.length);
        view.set(plain);
        await agrees(p, matchers.google, view, `offset ${offset}, ${p.threads} threads`);
        expect(p.lastSplit.length).toBe(p.threads);
      }
    }
  });

  it('calls of growing and shrinking sizes (shared input memory reused, grown and dropped)', async () => {
    const p = pool({ threads: 3, minParallelBytes: 0 });
    for (const n of [10, 5000, 200, 20_000, 1, 20_000, 3000]) {
      await agrees(p, matchers.other, encoder.encode(Array.from({ length: n }, (_, i) => ['/b', '/a', '/b.html', '/é'][i % 4]).join('\n')), `${n} lines`);
    }
  });

  it('keeps the shared memory of a call out of reuse until its worker has answered', async () => {
    const p = pool({ threads: 2, minParallelBytes: 0 });
    const bytes = encoder.encode(Array.from({ length: 20_000 }, (_, i) => `/a/${i}`).join('\n'));
    await agrees(p, matchers.rfc, bytes);
    await expectArenaHeldUntilAnswered(p, () => p.matchLines(matchers.rfc, bytes));
  });

  it('writes into `out` like matchLines: returns it, leaves the rest alone', async () => {
    const bytes = encoder.encode('/a\n/a/b\n/x');
    const out = new Uint8Array(5).fill(9);
    expect(await split2.matchLines(matchers.rfc, bytes, out)).toBe(out);
    expect([...out]).toEqual([...matchers.rfc.matchLines(bytes), 9, 9]);
  });
});

describe('MatchPool: where the work runs', () => {
  it('splits a large batch between the calling thread and a worker', async () => {
    const p = pool({ threads: 2 });
    const bytes = encoder.encode('/a/b\n/x.pdf\n'.repeat(40_000));
    await p.matchLines(matchers.rfc, bytes);
    const [own, other] = p.lastSplit;
    expect(p.lastSplit.length).toBe(2);
    expect(own!.threadId).toBe(threadId);
    expect(other!.threadId).not.toBe(threadId);
    expect(own!.lines).toBeGreaterThan(0);
    expect(other!.lines).toBeGreaterThan(0);
  });

  it(`keeps inputs under minParallelBytes (default ${DEFAULT_MIN_PARALLEL_BYTES}) and threads: 1 on the calling thread`, async () => {
    const p = pool({ threads: 2 });
    expect(p.minParallelBytes).toBe(256 * 1024);
    const small = encoder.encode('/a\n'.repeat(1000));
    await p.matchLines(matchers.rfc, small);
    expect(p.lastSplit).toEqual([{ threadId, byteLength: small.length, lines: 1000 }]);
    const one = pool({ threads: 1, minParallelBytes: 0 });
    await one.matchLines(matchers.rfc, small);
    expect(one.lastSplit).toEqual([{ threadId, byteLength: small.length, lines: 1000 }]);
  });

  it('three threads: two workers, each with a share', async () => {
    const p = pool({ threads: 3, minParallelBytes: 0 });
    await p.decideLines(matchers.google, encoder.encode('/a\n/b\n/c\n/d\n/e\n/f\n'));
    const ids = p.lastSplit.map((s) => s.threadId);
    expect(new Set(ids).size).toBe(3);
    expect(ids[0]).toBe(threadId);
  });

  it('defaults threads to os.availableParallelism()', async () => {
    const { availableParallelism } = await import('node:os');
    expect(pool({}).threads).toBe(availableParallelism());
    expect(new MatchPool().threads).toBe(availableParallelism());
  });

  /** A module script that judges with a 2-thread pool (`call` an expression over `pool` and matcher `m`) and prints the verdicts and split. */
  const poolScript = (call: string): string => [
    `import { Robots } from ${JSON.stringify(pathToFileURL(join(root, 'dist', 'index.js')).href)};`,
    `import { MatchPool } from ${JSON.stringify(pathToFileURL(distPool).href)};`,
    `const m = Robots.parse('User-agent: *\\nDisallow: /x\\n').forAgent('bot');`,
    'const pool = new MatchPool({ threads: 2, minParallelBytes: 0 });',
    `const v = await ${call};`,
    'console.log(JSON.stringify([...v]), pool.lastSplit.length);',
  ].join('\n');

  it('an unclosed pool does not keep the process alive, and a call in flight does', () => {
    const script = poolScript(`pool.matchLines(m, new TextEncoder().encode('/x\\n/y\\n/x\\n/y\\n'))`);
    const stdout = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
    expect(stdout.trim()).toBe('[0,1,0,1] 2');
  });

  it('starts workers when the process has options a worker refuses (V8 flags such as --max-old-space-size)', () => {
    const script = poolScript(`pool.matchBatch(m, ['/x', '/y', '/x/z', '/'])`);
    for (const flag of ['--max-old-space-size=512', '--stack-size=900']) {
      const stdout = execFileSync(process.execPath, [flag, '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
      expect(stdout.trim(), flag).toBe('[0,1,0,1] 2');
    }
  });
});

describe('MatchPool: errors and lifecycle', () => {
  it.each([
    [{ threads: 0 }, RangeError, 'options.threads must be a positive integer, got 0'],
    [{ threads: -1 }, RangeError, 'options.threads must be a positive integer, got -1'],
    [{ threads: 1.5 }, RangeError, 'options.threads must be a positive integer, got 1.5'],
    [{ threads: 'x' }, TypeError, 'options.threads must be a positive integer, got string'],
    [{ minParallelBytes: -1 }, RangeError, 'options.minParallelBytes must be a non-negative integer, got -1'],
    [{ workers: 2 }, TypeError, 'options.workers is not an option (expected threads, minParallelBytes)'],
    [2, TypeError, 'options must be an object, got number'],
  ])('new MatchPool(%j) throws', (options, type, message) => {
    expect(() => new MatchPool(options as never)).toThrow(type);
    expect(() => new MatchPool(options as never)).toThrow(message);
  });

  const p = pool({ threads: 2, minParallelBytes: 0 });
  const bytes = encoder.encode('/a\n/b\n/c\n');

  it('rejects a matcher that is not an AgentMatcher, bytes that are not a Uint8Array, a wrong `out`', async () => {
    await expect(p.matchLines({} as never, bytes)).rejects.toThrow(new TypeError('matcher must be an AgentMatcher, got object'));
    await expect(p.decideLines(null as never, bytes)).rejects.toThrow(new TypeError('matcher must be an AgentMatcher, got null'));
    await expect(p.matchLines(matchers.rfc, '/a\n' as never)).rejects.toThrow(new TypeError('bytes must be a Uint8Array, got string'));
    await expect(p.decideLines(matchers.rfc, [47, 97] as never)).rejects.toThrow(new TypeError('bytes must be a Uint8Array, got array'));
    await expect(p.matchLines(matchers.rfc, bytes, [] as never)).rejects.toThrow(new TypeError('out must be a Uint8Array, got array'));
  });

  it('rejects an `out` too small with the RangeError matchLines throws, and leaves it untouched', async () => {
    const out = new Uint8Array(2).fill(9);
    let want: unknown;
    try {
      matchers.rfc.matchLines(bytes, out);
    } catch (error) {
      want = error;
    }
    expect(want).toBeInstanceOf(RangeError);
    await expect(p.matchLines(matchers.rfc, bytes, out)).rejects.toThrow(want as RangeError);
    expect([...out]).toEqual([9, 9]);
  });

  it('a worker that fails rejects the call with the cause, and the pool stays usable', async () => {
    const m = Robots.parse('User-agent: *\nDisallow: /q\n').forAgent('Broken');
    const input = encoder.encode('/q\n/r\n/q\n/r\n');
    const want = [...m.matchLines(input)]; // the table is now resident on this thread
    const saved = m.table.slice();
    // The worker rebuilds the matcher from these bytes and validates them: a wrong magic.
    (m.table as Uint8Array)[0]! ^= 0xff;
    await expect(p.matchLines(m, input)).rejects.toThrow(/^MatchPool worker \(thread \d+\) failed: RangeError: .*rule table/i);
    (m.table as Uint8Array).set(saved);
    expect([...(await p.matchLines(m, input))]).toEqual(want);
    await agrees(p, matchers.rfc, bytes);
  });

  it('a worker that exits before answering: its share runs on a new worker, and the call resolves (test/pool-faults.test.ts)', async () => {
    const q = pool({ threads: 2, minParallelBytes: 0 });
    await q.matchLines(matchers.rfc, bytes);
    const first = q.lastSplit[1]!.threadId;
    // Private, to stand in for a crash: the worker is terminated before it can answer.
    const worker = (q as unknown as { workers: { slots: { worker: { terminate(): Promise<number> } }[] } }).workers.slots[0]!.worker;
    void worker.terminate();
    expect(Buffer.from(await q.matchLines(matchers.rfc, bytes)).equals(Buffer.from(matchers.rfc.matchLines(bytes)))).toBe(true);
    expect(q.lastSplit[1]!.threadId).not.toBe(first);
    await agrees(q, matchers.rfc, bytes);
  });

  it('rejects use after close; close twice is fine; a call in flight at close rejects', async () => {
    const q = new MatchPool({ threads: 2, minParallelBytes: 0 });
    await q.matchLines(matchers.rfc, bytes);
    const inFlight = expect(q.matchLines(matchers.rfc, encoder.encode('/a\n'.repeat(100_000)))).rejects.toThrow('MatchPool was closed while this call was in flight');
    await q.close();
    await inFlight;
    await expect(q.matchLines(matchers.rfc, bytes)).rejects.toThrow('MatchPool is closed: create a new MatchPool to judge more batches');
    await expect(q.decideLines(matchers.rfc, bytes)).rejects.toThrow('MatchPool is closed');
    await expect(q.close()).resolves.toBeUndefined();
    const never = new MatchPool({ threads: 2 });
    await never.close();
    await never.close();
  });
});
