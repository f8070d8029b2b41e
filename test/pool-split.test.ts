// Where MatchPool cuts a batch (src/pool/split.ts): whole-line shares at weighted targets, and the speed estimate behind the weights.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ShareBalance, shareTargets, splitAtLines } from '../src/pool/split.js';

const encoder = new TextEncoder();

/** Cuts are 0, ascending, end at the length, and every inner cut follows a '\n'. */
function checkCuts(bytes: Uint8Array, cuts: readonly number[]): void {
  expect(cuts[0]).toBe(0);
  expect(cuts[cuts.length - 1]).toBe(bytes.length);
  for (let i = 1; i < cuts.length - 1; i++) {
    expect(cuts[i]!).toBeGreaterThan(cuts[i - 1]!);
    expect(cuts[i]!).toBeLessThan(bytes.length);
    expect(bytes[cuts[i]! - 1]).toBe(0x0a);
  }
}

describe('splitAtLines', () => {
  it('cuts just after the line break nearest each target, on either side', () => {
    const bytes = encoder.encode('/a\n/bb\n/ccc\n/d\n'); // breaks at 2, 6, 11, 14
    expect(splitAtLines(bytes, [3])).toEqual([0, 3, 15]);
    expect(splitAtLines(bytes, [6])).toEqual([0, 7, 15]); // at a '\n': just after it
    expect(splitAtLines(bytes, [9])).toEqual([0, 7, 15]); // 2 back, 3 ahead
    expect(splitAtLines(bytes, [10])).toEqual([0, 12, 15]);
    expect(splitAtLines(bytes, [1, 8, 13])).toEqual([0, 3, 7, 12, 15]);
  });

  it('no targets, empty input, targets at the ends: one share', () => {
    const bytes = encoder.encode('/a\n/b\n');
    expect(splitAtLines(bytes, [])).toEqual([0, 6]);
    expect(splitAtLines(new Uint8Array(0), [0, 0])).toEqual([0, 0]);
    expect(splitAtLines(bytes, [0])).toEqual([0, 3, 6]); // the nearest break inside the input
    expect(splitAtLines(encoder.encode('/a\n'), [0, 3])).toEqual([0, 3]); // the only break ends the input
  });

  it('one huge line, with or without a final line break: no cut inside it', () => {
    const line = `/${'x'.repeat(10_000)}`;
    for (const text of [line, `${line}\n`, `${line}\r\n`]) {
      const bytes = encoder.encode(text);
      expect(splitAtLines(bytes, [1, 5000, 9999])).toEqual([0, bytes.length]);
    }
    // A huge line between short ones: the cuts land around it, never twice at one place.
    const bytes = encoder.encode(`/a\n${line}\n/b\n`);
    expect(splitAtLines(bytes, [4000, 6000, 8000])).toEqual([0, 3, 10_005, bytes.length]);
  });

  it('CRLF: cuts after the LF, so the CR stays with its line', () => {
    const bytes = encoder.encode('/a\r\n/b\r\n/c');
    expect(splitAtLines(bytes, [3])).toEqual([0, 4, 10]);
    expect(splitAtLines(bytes, [5, 9])).toEqual([0, 4, 8, 10]);
  });

  it('any input and ascending targets: whole-line shares covering the input, at most targets + 1', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('/', 'a', '\r', '\n', 'é') }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 5 }),
        (text, fractions) => {
          const bytes = encoder.encode(text);
          const targets = fractions.map((f) => Math.floor(f * bytes.length)).sort((a, b) => a - b);
          const cuts = splitAtLines(bytes, targets);
          checkCuts(bytes, cuts);
          expect(cuts.length).toBeLessThanOrEqual(targets.length + 2);
        },
      ),
    );
  });
});

describe('shareTargets', () => {
  it('gives the first share its fraction and the others equal parts of the rest', () => {
    expect(shareTargets(100, 2, 0.5)).toEqual([50]);
    expect(shareTargets(100, 2, 0.3)).toEqual([30]);
    expect(shareTargets(100, 3, 0.2)).toEqual([20, 60]);
    expect(shareTargets(100, 4, 0.25)).toEqual([25, 50, 75]);
    expect(shareTargets(0, 3, 0.4)).toEqual([0, 0]);
    expect(shareTargets(7, 1, 0.5)).toEqual([]);
  });
});

describe('ShareBalance', () => {
  const MB = 1 << 20;

  it('splits evenly until it has measured anything', () => {
    const b = new ShareBalance();
    expect(b.first(1)).toBe(1);
    expect(b.first(2)).toBe(0.5);
    expect(b.first(4)).toBe(0.25);
  });

  it('gives the calling thread less when it judges slower than the workers, more when faster', () => {
    const slow = new ShareBalance();
    slow.sample(MB, 30, [MB], [20]); // 1.5 times a worker's time per byte
    expect(slow.first(2)).toBeCloseTo(1 / (1 + 1.5), 12);
    const fast = new ShareBalance();
    fast.sample(MB, 16, [MB, 2 * MB], [20, 40]);
    expect(fast.first(3)).toBeCloseTo(1 / (1 + 2 * 0.8), 12);
  });

  it('takes the fastest of the last 8 calls on each side: one disturbed call does not move the split', () => {
    const b = new ShareBalance();
    for (let i = 0; i < 8; i++) b.sample(MB, 20, [MB], [20]);
    b.sample(MB, 200, [MB], [20]); // the calling thread descheduled for most of a call
    expect(b.first(2)).toBe(0.5);
    b.sample(MB, 20, [MB], [150]);
    expect(b.first(2)).toBe(0.5);
    // Once the calling thread has been slower for 8 calls in a row, the split follows.
    for (let i = 0; i < 7; i++) b.sample(MB, 25, [MB], [20]);
    expect(b.first(2)).toBe(0.5); // one call at 20 ms is still remembered
    b.sample(MB, 25, [MB], [20]);
    expect(b.first(2)).toBeCloseTo(1 / (1 + 1.25), 12);
  });

  it('stays within a factor 2 of even, or the slow-side bound it is given', () => {
    const b = new ShareBalance();
    b.sample(MB, 1000, [MB], [1]);
    expect(b.first(2)).toBeCloseTo(1 / 3, 12);
    expect(b.first(3)).toBeCloseTo(1 / 5, 12);
    const c = new ShareBalance();
    c.sample(MB, 1, [MB], [1000]);
    expect(c.first(2)).toBeCloseTo(2 / 3, 12);
    // A wider bound on the slow side when asked for (string batches).
    const d = new ShareBalance(4);
    d.sample(MB, 30, [MB], [10]);
    expect(d.first(2)).toBeCloseTo(1 / 4, 12);
    d.sample(MB, 1000, [MB], [1]);
    expect(d.first(2)).toBeCloseTo(1 / 5, 12); // the fastest of each side's samples: 30 over 1, capped at 4
    expect(d.first(3)).toBeCloseTo(1 / 9, 12);
  });

  it('counts the calling thread\'s hand-off time (string encoding) against the workers, robustly', () => {
    const b = new ShareBalance(8);
    // Own 30 ms per MB judging; a worker 20 ms per MB, of which the caller spent 10 encoding.
    b.sample(MB, 30, [MB], [20], 10);
    expect(b.first(2)).toBeCloseTo(1 / (1 + 30 / (20 - 10)), 12);
    // A call whose encoding was slowed (a collection in the middle) does not move the split.
    b.sample(MB, 30, [MB], [20], 19);
    expect(b.first(2)).toBeCloseTo(1 / 4, 12);
    // Two workers: each counts as judging at 20 − 2 × 5 ms per MB.
    const c = new ShareBalance(8);
    c.sample(MB, 30, [MB, MB], [20, 20], 10);
    expect(c.first(3)).toBeCloseTo(1 / (1 + 2 * (30 / (20 - 2 * 5))), 12);
    // Encoding as slow as judging: the worker side is floored, the ratio bounded.
    const d = new ShareBalance(8);
    d.sample(MB, 30, [MB], [20], 25);
    expect(d.first(2)).toBeCloseTo(1 / 9, 12);
  });

  it('ignores samples from small shares or without a usable time', () => {
    const b = new ShareBalance();
    b.sample(1000, 50, [MB], [1]);
    b.sample(MB, 50, [MB, 1000], [1, 1]);
    b.sample(MB, 0, [MB], [1]);
    b.sample(MB, 50, [MB], [0]);
    b.sample(MB, 50, [], []);
    expect(b.first(2)).toBe(0.5);
  });
});
