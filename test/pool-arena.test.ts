// The shared input memory of MatchPool's workers (src/pool/arena.ts): regions at the asked alignment, never overlapping within a call, reused after release.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Arena, WorkerArenas } from '../src/pool/arena.js';

describe('WorkerArenas', () => {
  it('places pieces one after the other at the asked alignment modulo 8, never overlapping, within the arena', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ length: fc.nat(5000), skew: fc.nat(7) }), { minLength: 1, maxLength: 12 }), fc.nat(20_000), (pieces, hint) => {
        const arenas = new WorkerArenas(() => undefined);
        const held: Arena[] = [];
        const taken = new Map<Arena, [number, number][]>();
        for (const { length, skew } of pieces) {
          const { arena, offset } = arenas.place(held, length, skew, hint);
          expect(offset % 8).toBe(skew);
          expect(offset + length).toBeLessThanOrEqual(arena.bytes.length);
          expect(arena.bytes.buffer).toBeInstanceOf(SharedArrayBuffer);
          expect(held).toContain(arena);
          for (const [start, end] of taken.get(arena) ?? []) expect(offset >= end || offset + length <= start).toBe(true);
          taken.set(arena, [...(taken.get(arena) ?? []), [offset, offset + length]]);
        }
        // A new arena is sized for the hint: pieces that fit in it share one arena.
        if (pieces.reduce((n, p) => n + p.length + 16, 0) <= hint) expect(held).toHaveLength(1);
      }),
      { numRuns: 50 },
    );
  });

  it('reuses released arenas (the smallest that fits), keeps the two largest and drops the rest it had sent', () => {
    const dropped: number[] = [];
    const arenas = new WorkerArenas((arena) => dropped.push(arena.id));
    const sizes = [100_000, 300_000, 200_000];
    const made = sizes.map((size) => {
      const held: Arena[] = [];
      arenas.place(held, size, 0, size);
      return held[0]!;
    });
    made[1]!.sent = true;
    made[2]!.sent = true;
    arenas.release([made[0]!]);
    arenas.release([made[1]!]);
    expect(dropped).toEqual([]);
    arenas.release([made[2]!]); // three idle: the smallest (never sent) goes without a message
    expect(dropped).toEqual([]);
    const held: Arena[] = [];
    expect(arenas.place(held, 150_000, 3, 0)).toEqual({ arena: made[2], offset: 3 });
    expect(arenas.place([], 250_000, 0, 0).arena).toBe(made[1]);
    // Nothing idle fits: a new arena, and once released the smallest sent one is dropped.
    const big: Arena[] = [];
    arenas.place(big, 1_000_000, 0, 0);
    expect(big[0]!.bytes.length).toBeGreaterThanOrEqual(1_000_000);
    arenas.release(held);
    arenas.release([made[1]!]);
    arenas.release(big);
    expect(dropped).toEqual([made[2]!.id]);
  });

  it('a piece that does not fit after the others goes to another arena of the call', () => {
    const arenas = new WorkerArenas(() => undefined);
    const held: Arena[] = [];
    const first = arenas.place(held, 1000, 0, 0);
    const second = arenas.place(held, first.arena.bytes.length, 5, 0);
    expect(second.arena).not.toBe(first.arena);
    expect(second.offset).toBe(5);
    expect(held).toEqual([first.arena, second.arena]);
  });
});
