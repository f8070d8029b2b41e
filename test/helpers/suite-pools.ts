// MatchPools a test suite opens, all closed when the suite ends.
import { afterAll } from 'vitest';
import type * as PoolModule from '../../src/pool/index.js';

/**
 * A `pool(options)` that makes pools of `Pool` (the built dist/ class: workers run built
 * JavaScript) and closes every one of them after the calling suite.
 */
export function suitePools(Pool: typeof PoolModule.MatchPool): (options: PoolModule.MatchPoolOptions) => PoolModule.MatchPool {
  const pools: PoolModule.MatchPool[] = [];
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.close()));
  });
  return (options) => {
    const p = new Pool(options);
    pools.push(p);
    return p;
  };
}
