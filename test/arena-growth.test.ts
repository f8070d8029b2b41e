// The resident-table arena (src/wasm/arena.ts) by default: a working set of tables larger than 64 MB stays resident, in full, once the arena has grown, so switching hosts costs no copy and no re-index.
import { describe, expect, it } from 'vitest';
import { Robots } from '../src/index.js';
import { ruleIndexBytes, type TableArena } from '../src/wasm/arena.js';
import { WasmEngine } from '../src/wasm/batches.js';
import { instantiate } from '../src/wasm/instance.js';

/** A trial table (8 wildcard rules) with 200 plain rules: its RuleIndex holds a DFA region of 768 KiB. */
const BODY = [
  'User-agent: *',
  ...Array.from({ length: 8 }, (_v, i) => `Disallow: /*?*f${i}=`),
  ...Array.from({ length: 200 }, (_v, i) => `Disallow: /d${i}/`),
].join('\n');

/** The arena of a fresh engine (private: the test reads its epoch, bumped whenever it is emptied). */
function arenaOf(engine: WasmEngine): TableArena {
  return (engine as unknown as { arena: TableArena }).arena;
}

describe('the resident-table arena with its default maximum', () => {
  it('110 tables of about 0.8 MB each, used in turn: resident in full after the arena has grown; with a 64 MB maximum, resident once placed lean', () => {
    const tables = Array.from({ length: 110 }, () => Robots.parse(BODY).forAgent('ExampleBot').table);
    const exports = instantiate();
    const workingSet = tables.reduce((n, table) => n + table.length + ruleIndexBytes(exports, table), 0);
    expect(workingSet).toBeGreaterThan(80 << 20);
    expect(workingSet).toBeLessThan(100 << 20);
    const epochsOfLastPass = (engine: WasmEngine): number => {
      const arena = arenaOf(engine);
      // The arena doubles at each fill once its tables are being used again: six passes
      // take it from 1 MB past the working set.
      for (let pass = 0; pass < 6; pass++) for (const table of tables) arena.slot(table);
      const before = arena.epoch;
      for (const table of tables) arena.slot(table);
      return arena.epoch - before;
    };
    const roomy = new WasmEngine();
    expect(epochsOfLastPass(roomy)).toBe(0);
    expect(arenaOf(roomy).lean).toBe(false);
    // Past a 64 MB maximum the same tables would be copied in and indexed again at every
    // switch: they are placed lean instead (test/arena-lean.test.ts), and stay resident.
    const small = new WasmEngine({ arenaMaxBytes: 64 << 20 });
    expect(epochsOfLastPass(small)).toBe(0);
    expect(arenaOf(small).lean).toBe(true);
    // The matchers still judge through an engine whose arena has grown.
    const engine = new WasmEngine();
    epochsOfLastPass(engine);
    const verdicts = new Uint8Array(2);
    engine.matchStrings(tables[0]!, ['/d7/x', '/e?f3='], verdicts, null);
    expect([...verdicts]).toEqual([0, 0]);
  }, 120_000);
});
