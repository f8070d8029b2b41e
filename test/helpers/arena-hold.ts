// Checks that a MatchPool call keeps its worker's shared input memory (src/pool/arena.ts) out of reuse until the worker has answered.
import { expect } from 'vitest';
import type * as PoolModule from '../../src/pool/index.js';

/** Idle arenas of the pool's first worker (private state, read for the test only). */
function idleArenas(pool: PoolModule.MatchPool): number {
  return (pool as unknown as { workers: { slots: { extra: { arenas: { idle: unknown[] } } }[] } }).workers.slots[0]!.extra.arenas.idle.length;
}

/**
 * Runs `call` (a batch split with one worker) once to settle, then again: while the
 * second is in flight its arena is not idle, and once answered it is idle again.
 */
export async function expectArenaHeldUntilAnswered(pool: PoolModule.MatchPool, call: () => Promise<unknown>): Promise<void> {
  const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
  await call();
  await turn();
  expect(idleArenas(pool)).toBe(1);
  const inFlight = call();
  // The reply is a message event: it cannot arrive while only promise jobs run.
  for (let i = 0; i < 10; i++) await Promise.resolve();
  expect(idleArenas(pool)).toBe(0);
  await inFlight;
  await turn();
  expect(idleArenas(pool)).toBe(1);
}
