// MatchPool under worker deaths: a call that finds (or loses) a dead worker runs that share on a fresh one, results whole and in order.
//
// Issue #17 point 11: a call made right after a worker died, before its exit event, used
// to reject most of the time. A worker is killed here through the pool's private worker
// list (worker.terminate(), standing in for a crash), immediately before a call or right
// after it started, many times over; every call must resolve with exactly the verdicts the
// matcher gives on this thread, whichever of the reply and the exit event comes first.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as PoolModule from '../src/pool/index.js';
import type * as IndexModule from '../src/index.js';
import { suitePools } from './helpers/suite-pools.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const distPool = join(root, 'dist', 'pool', 'index.js');
if (!existsSync(distPool)) throw new Error('dist/pool/index.js is missing: run `npm run build` first');
// The pool checks `instanceof AgentMatcher`: matchers must come from the same dist/ build.
const { MatchPool } = (await import(pathToFileURL(distPool).href)) as typeof PoolModule;
const { Robots } = (await import(pathToFileURL(join(root, 'dist', 'index.js')).href)) as typeof IndexModule;
const pool = suitePools(MatchPool);

const matcher = Robots.parse('User-agent: *\nDisallow: /private\nAllow: /private/ok\nDisallow: /*.pdf$\n').forAgent('FaultBot');
const URLS = Array.from({ length: 6000 }, (_v, i) => ['/a', '/private/x', '/private/ok', `/f${i}.pdf`, `/p${i}`][i % 5]!);
const BYTES = new TextEncoder().encode(`${URLS.join('\n')}\n`);
const WANT_LINES = matcher.decideLines(BYTES);
const WANT_BATCH = matcher.decideBatch(URLS);

interface Killable {
  workers: { slots: readonly ({ worker: { terminate(): Promise<number>; postMessage(message: unknown): void; threadId: number } } | undefined)[] };
}

/** Terminates the pool's worker in `slot` (started), without waiting for its exit event. */
function kill(p: PoolModule.MatchPool, slot = 0): number {
  const w = (p as unknown as Killable).workers.slots[slot];
  if (w === undefined) throw new Error(`worker ${slot} was not started`);
  void w.worker.terminate();
  return w.worker.threadId;
}

function same(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  return a.length === b.length && Buffer.compare(Buffer.from(Uint32Array.from(a).buffer), Buffer.from(Uint32Array.from(b).buffer)) === 0;
}

describe('a worker that died before the call (its exit event not seen yet)', () => {
  it('matchLines and decideLines: 25 kills, every call resolves with the matcher’s own verdicts', async () => {
    const p = pool({ threads: 3, minParallelBytes: 0 });
    await p.matchLines(matcher, BYTES);
    for (let round = 0; round < 25; round++) {
      const dead = kill(p, round % 2);
      const verdicts = await p.matchLines(matcher, BYTES);
      expect(same(verdicts, WANT_LINES.verdicts), `round ${round} matchLines`).toBe(true);
      expect(p.lastSplit.map((s) => s.threadId)).not.toContain(dead);
      expect(p.lastSplit.reduce((n, s) => n + s.lines, 0)).toBe(URLS.length);
      kill(p, (round + 1) % 2);
      const decided = await p.decideLines(matcher, BYTES);
      expect(same(decided.verdicts, WANT_LINES.verdicts) && same(decided.lines, WANT_LINES.lines), `round ${round} decideLines`).toBe(true);
    }
  });

  it('matchBatch and decideBatch (strings encoded into the pool’s shared arenas): 25 kills', async () => {
    const p = pool({ threads: 2, minParallelBytes: 0 });
    await p.matchBatch(matcher, URLS);
    for (let round = 0; round < 25; round++) {
      kill(p);
      const out = new Uint8Array(URLS.length).fill(7);
      await p.matchBatch(matcher, URLS, out);
      expect(same(out, WANT_BATCH.verdicts), `round ${round} matchBatch`).toBe(true);
      kill(p);
      const decided = await p.decideBatch(matcher, URLS);
      expect(same(decided.verdicts, WANT_BATCH.verdicts) && same(decided.lines, WANT_BATCH.lines), `round ${round} decideBatch`).toBe(true);
    }
  });

  it('input in the caller’s own SharedArrayBuffer (read in place): 10 kills', async () => {
    const p = pool({ threads: 2, minParallelBytes: 0 });
    const shared = new Uint8Array(new SharedArrayBuffer(BYTES.length));
    shared.set(BYTES);
    await p.matchLines(matcher, shared);
    for (let round = 0; round < 10; round++) {
      kill(p);
      expect(same(await p.matchLines(matcher, shared), WANT_LINES.verdicts), `round ${round}`).toBe(true);
    }
  });
});

describe('a worker that dies while the call is in flight', () => {
  it('killed right after the call posted its share: 25 calls, none lost, none doubled', async () => {
    const p = pool({ threads: 2, minParallelBytes: 0 });
    await p.matchLines(matcher, BYTES);
    for (let round = 0; round < 25; round++) {
      const call = round % 2 === 0 ? p.decideLines(matcher, BYTES) : p.decideBatch(matcher, URLS);
      kill(p);
      const { verdicts, lines } = await call;
      const want = round % 2 === 0 ? WANT_LINES : WANT_BATCH;
      expect(same(verdicts, want.verdicts) && same(lines, want.lines), `round ${round}`).toBe(true);
    }
  });

  it('several calls in flight on one dying worker all resolve, in their own order', async () => {
    const p = pool({ threads: 2, minParallelBytes: 0 });
    await p.matchLines(matcher, BYTES);
    const calls = [p.matchLines(matcher, BYTES), p.matchBatch(matcher, URLS), p.matchLines(matcher, BYTES.subarray(0, 999))];
    kill(p);
    const [a, b, c] = await Promise.all(calls);
    expect(same(a!, WANT_LINES.verdicts)).toBe(true);
    expect(same(b!, WANT_BATCH.verdicts)).toBe(true);
    expect(same(c!, matcher.matchLines(BYTES.subarray(0, 999)))).toBe(true);
  });

  it('a share whose second worker dies too rejects with the cause (retried once, not forever)', async () => {
    const p = pool({ threads: 2, minParallelBytes: 0 });
    await p.matchLines(matcher, BYTES);
    const workers = (p as unknown as Killable).workers.slots;
    // The first worker may answer before terminate() takes effect; then the call simply
    // resolves and the round is tried again. Each round ends: either the call settles,
    // or the replacement the retry went to appears and is killed too.
    for (let round = 0; round < 50; round++) {
      const call = p.matchLines(matcher, BYTES);
      const settled = call.then(() => 'resolved' as const, () => 'rejected' as const);
      const first = kill(p);
      const replaced = await new Promise<boolean>((resolve) => {
        let done = false;
        void settled.then(() => {
          if (!done) (done = true), resolve(false);
        });
        const poll = (): void => {
          if (done) return;
          const w = workers[0];
          if (w !== undefined && w.worker.threadId !== first) {
            done = true;
            void w.worker.terminate();
            resolve(true);
          } else setImmediate(poll);
        };
        poll();
      });
      if (!replaced) {
        // Answered by the first worker (before it died) or by its replacement: correct either way.
        if ((await settled) === 'resolved') expect(same(await call, WANT_LINES.verdicts)).toBe(true);
        else await expect(call).rejects.toThrow(/\(the request's second worker\)$/);
        continue;
      }
      const outcome = await settled;
      if (outcome === 'resolved') {
        // The replacement answered before its own terminate() took effect.
        expect(same(await call, WANT_LINES.verdicts)).toBe(true);
        continue;
      }
      await expect(call).rejects.toThrow(/^MatchPool worker \(thread \d+\) exited with code \d+ before answering \(the request's second worker\)$/);
      // The pool goes on with a third worker.
      expect(same(await p.matchLines(matcher, BYTES), WANT_LINES.verdicts)).toBe(true);
      return;
    }
    throw new Error('in 50 rounds neither worker died before answering: the rejection path was never reached');
  });
});

describe('a worker that crashes (an uncaught error, not an exit) while a call is in flight', () => {
  /** Makes the pool's worker in `slot` throw in its message handler on the next message it reads. */
  function crash(p: PoolModule.MatchPool, slot = 0): number {
    const w = (p as unknown as Killable).workers.slots[slot];
    if (w === undefined) throw new Error(`worker ${slot} was not started`);
    // Messages are read in order: this one, before any request posted after it.
    w.worker.postMessage(null);
    return w.worker.threadId;
  }

  it('every call resolves on a new worker, with the matcher’s own verdicts', async () => {
    const p = pool({ threads: 2, minParallelBytes: 0 });
    await p.matchLines(matcher, BYTES);
    for (let round = 0; round < 5; round++) {
      const dead = crash(p);
      const decided = round % 2 === 0 ? await p.decideLines(matcher, BYTES) : await p.decideBatch(matcher, URLS);
      const want = round % 2 === 0 ? WANT_LINES : WANT_BATCH;
      expect(same(decided.verdicts, want.verdicts) && same(decided.lines, want.lines), `round ${round}`).toBe(true);
      expect(p.lastSplit.map((s) => s.threadId)).not.toContain(dead);
    }
  });

  it('a process whose pool worker crashed, closed or not, exits by itself (no thread left)', () => {
    const script = (close: boolean): string => [
      `const { MatchPool } = await import(${JSON.stringify(pathToFileURL(distPool).href)});`,
      `const { Robots } = await import(${JSON.stringify(pathToFileURL(join(root, 'dist', 'index.js')).href)});`,
      `const m = Robots.parse('User-agent: *\\nDisallow: /x\\n').forAgent('bot');`,
      'const pool = new MatchPool({ threads: 2, minParallelBytes: 0 });',
      `const bytes = new TextEncoder().encode('/x\\n/y\\n'.repeat(1000));`,
      'await pool.matchLines(m, bytes);',
      'pool.workers.slots[0].worker.postMessage(null);',
      'const v = await pool.matchLines(m, bytes);',
      close ? 'await pool.close();' : '',
      'console.log(v.length, v[0], v[1]);',
    ].join('\n');
    for (const close of [false, true]) {
      const stdout = execFileSync(process.execPath, ['--input-type=module', '-e', script(close)], { encoding: 'utf8', timeout: 20_000 });
      expect(stdout.trim(), `close: ${close}`).toBe('2000 0 1');
    }
  });
});
