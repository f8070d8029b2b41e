// Lean placing (src/wasm/arena.ts): past the arena's maximum, tables go in without their DFA or automaton region, stay resident, and get it back once busy.
import { describe, expect, it } from 'vitest';
import { Robots } from '../src/index.js';
import { PROMOTE_PATHS, RENEW_PATHS, ruleIndexBytes, type Slot, type TableArena } from '../src/wasm/arena.js';
import { WasmEngine } from '../src/wasm/batches.js';
import { instantiate, type WasmExports } from '../src/wasm/instance.js';

/** A trial table (8 wildcard rules) with 200 plain rules: its RuleIndex holds a DFA region of 768 KiB. */
const TRIAL = [
  'User-agent: *',
  ...Array.from({ length: 8 }, (_v, i) => `Disallow: /*?*f${i}=`),
  ...Array.from({ length: 200 }, (_v, i) => `Disallow: /d${i}/`),
].join('\n');

/** 40 overlapping wildcard rules, `$` among them: a DFA from the first path. */
const DFA = [
  'User-agent: *',
  ...Array.from({ length: 20 }, (_v, i) => `Disallow: /p${i}*x$\nAllow: /p${i}*/ok*`),
  'Disallow: /d',
].join('\n');

/** 60 facet rules whose first piece is `/`: a crowd (its DFA, then its automaton). */
const CROWD = [
  'User-agent: *',
  ...Array.from({ length: 30 }, (_v, i) => `Disallow: /*?*facet${i}=*\nAllow: /*?*facet${i}=ok$`),
  'Allow: /d/ok',
].join('\n');

/** Each kind, and whether its full RuleIndex is sure to be in use after this test's paths (a trial's DFA goes on only when they cost enough matches). */
const KINDS = [
  { kind: 'trial', body: TRIAL, regionInUse: false },
  { kind: 'dfa', body: DFA, regionInUse: true },
  { kind: 'crowd', body: CROWD, regionInUse: true },
];

/** `n` paths for those tables, seeded: plain, facet, `$`-anchored and `/ok` ones. */
function paths(n: number, seed: number): string[] {
  let x = seed;
  const next = (m: number): number => {
    x = (x * 1103515245 + 12345) >>> 0;
    return (x >>> 8) % m;
  };
  return Array.from({ length: n }, () => {
    switch (next(5)) {
      case 0: return `/d${next(250)}/page`;
      case 1: return `/shop?q=${next(9)}&facet${next(40)}=${next(3) === 0 ? 'ok' : 'v'}`;
      case 2: return `/p${next(25)}/a/b${next(2) === 0 ? 'x' : 'y'}`;
      case 3: return `/p${next(25)}/ok/${next(99)}`;
      default: return `/s${next(9)}?f${next(10)}=1`;
    }
  });
}

/** The private parts a test reads: the arena (its epoch, its mode) and the module's exports. */
function partsOf(engine: WasmEngine): { arena: TableArena; exports: WasmExports } {
  const e = engine as unknown as { arena: TableArena; memory: { exports: WasmExports } };
  return { arena: e.arena, exports: e.memory.exports };
}

/**
 * An engine whose arena places tables lean, as it does once a working set filled it at its
 * largest: here at `bytes` from the start.
 */
function leanEngine(bytes = 16 << 20): { engine: WasmEngine; arena: TableArena; exports: WasmExports } {
  const engine = new WasmEngine({ arenaBytes: bytes, arenaMaxBytes: bytes });
  const parts = partsOf(engine);
  parts.arena.lean = true;
  return { engine, ...parts };
}

/** Verdicts and lines of `urls` through `engine`, `chunk` URLs a call. */
function judge(engine: WasmEngine, table: Uint8Array, urls: readonly string[], chunk: number): { verdicts: number[]; lines: number[] } {
  const verdicts = new Uint8Array(urls.length);
  const lines = new Uint32Array(urls.length);
  for (let i = 0; i < urls.length; i += chunk) {
    const end = Math.min(urls.length, i + chunk);
    engine.matchStrings(table, urls, verdicts.subarray(i, end), lines.subarray(i, end), i, end);
  }
  return { verdicts: [...verdicts], lines: [...lines] };
}

/** Whether the RuleIndex of `slot` is lean (the module's own answer). */
function isLean(exports: WasmExports, slot: Slot): boolean {
  return exports.leanCounter(slot.tableAt, slot.indexAt) !== 0;
}

describe('lean placing', () => {
  it('a working set past the arena maximum: the arena turns lean, and the tables stay resident', () => {
    const tables = Array.from({ length: 110 }, () => Robots.parse(TRIAL).forAgent('ExampleBot').table);
    const exports = instantiate();
    const full = tables.reduce((n, table) => n + table.length + ruleIndexBytes(exports, table), 0);
    const lean = tables.reduce((n, table) => n + table.length + ruleIndexBytes(exports, table, true), 0);
    expect(full).toBeGreaterThan(64 << 20);
    expect(lean).toBeLessThan(4 << 20);
    const engine = new WasmEngine({ arenaMaxBytes: 32 << 20 });
    const { arena, exports: live } = partsOf(engine);
    for (let pass = 0; pass < 6; pass++) for (const table of tables) arena.slot(table);
    expect(arena.lean).toBe(true);
    const before = arena.epoch;
    for (let pass = 0; pass < 3; pass++) for (const table of tables) arena.slot(table);
    expect(arena.epoch - before).toBe(0);
    for (const table of tables) expect(isLean(live, arena.slot(table))).toBe(true);
    // The default maximum holds the same tables in full: never lean.
    const roomy = partsOf(new WasmEngine()).arena;
    for (let pass = 0; pass < 7; pass++) for (const table of tables) roomy.slot(table);
    expect(roomy.lean).toBe(false);
  }, 120_000);

  for (const { kind, body, regionInUse } of KINDS) {
    it(`${kind}: a lean table counts its paths exactly, is placed in full at ${PROMOTE_PATHS}, and judges as a full one throughout`, () => {
      const table = Robots.parse(body).forAgent('ExampleBot').table;
      const urls = paths(3000, 7);
      const reference = judge(new WasmEngine(), table, urls, urls.length);
      const { engine, arena, exports } = leanEngine();
      const first = judge(engine, table, urls.slice(0, 100), 100);
      const lean = arena.residentSlot(table)!;
      expect(isLean(exports, lean)).toBe(true);
      expect(new Uint32Array(exports.memory.buffer)[lean.counterAt >>> 2]).toBe(100);
      const rest = judge(engine, table, urls.slice(100), 50);
      expect([...first.verdicts, ...rest.verdicts]).toEqual(reference.verdicts);
      expect([...first.lines, ...rest.lines]).toEqual(reference.lines);
      const placed = arena.residentSlot(table)!;
      expect(placed.counterAt).toBe(0);
      expect(placed.epoch).toBe(lean.epoch);
      expect(placed.indexAt).not.toBe(lean.indexAt);
      expect(isLean(exports, placed)).toBe(false);
      // What the full index brings back: a DFA, or a crowd's DFA or automaton.
      const inUse = exports.dfaStatus(placed.tableAt, placed.indexAt, 2) !== 0 || exports.automatonStates(placed.tableAt, placed.indexAt) !== 0;
      if (regionInUse) expect(inUse).toBe(true);
    });
  }

  it('one matchLines call of many lines: the table is placed in full between its chunks', () => {
    const table = Robots.parse(CROWD).forAgent('ExampleBot').table;
    const urls = paths(200_000, 3);
    const bytes = new TextEncoder().encode(`${urls.join('\n')}\n`);
    const reference = new WasmEngine().matchAllLines(table, bytes, true);
    const want = { verdicts: [...reference.verdicts], lines: [...reference.lines!] };
    const { engine, arena, exports } = leanEngine();
    judge(engine, table, urls.slice(0, 1), 1);
    const lean = arena.residentSlot(table)!;
    expect(isLean(exports, lean)).toBe(true);
    const got = engine.matchAllLines(table, bytes, true);
    expect({ verdicts: [...got.verdicts], lines: [...got.lines!] }).toEqual(want);
    // The lean index judged the first chunk's lines (256 KiB of them), not the whole call's.
    const judgedLean = new Uint32Array(exports.memory.buffer)[lean.counterAt >>> 2]!;
    expect(judgedLean).toBeGreaterThanOrEqual(PROMOTE_PATHS);
    expect(judgedLean).toBeLessThan(urls.length / 4);
    expect(isLean(exports, arena.residentSlot(table)!)).toBe(false);
  });

  it('one call of many check rows: the table is placed in full between its chunks', () => {
    const table = Robots.parse(CROWD).forAgent('ExampleBot').table;
    const urls = paths(200_000, 4);
    const bytes = new TextEncoder().encode(`${urls.join('\n')}\n`);
    const text = (batch: { rows: Uint8Array[] }): string => Buffer.concat(batch.rows).toString('latin1');
    const want = text(new WasmEngine().formatLineRows(table, bytes, true, 0));
    const { engine, arena, exports } = leanEngine();
    judge(engine, table, urls.slice(0, 1), 1);
    const lean = arena.residentSlot(table)!;
    expect(text(engine.formatLineRows(table, bytes, true, 0))).toBe(want);
    const judgedLean = new Uint32Array(exports.memory.buffer)[lean.counterAt >>> 2]!;
    expect(judgedLean).toBeGreaterThanOrEqual(PROMOTE_PATHS);
    expect(judgedLean).toBeLessThan(urls.length / 4);
  });

  it('tables placed again in full take at most half the arena; the others stay lean, and nothing is evicted', () => {
    const cap = 8 << 20;
    const tables = Array.from({ length: 24 }, () => Robots.parse(DFA).forAgent('ExampleBot').table);
    const exports = instantiate();
    const fullBytes = tables[0]!.length + ruleIndexBytes(exports, tables[0]!);
    expect(fullBytes).toBeGreaterThan(256 << 10);
    const { engine, arena, exports: live } = leanEngine(cap);
    const urls = paths(PROMOTE_PATHS + 10, 11);
    for (const table of tables) judge(engine, table, urls, urls.length);
    const epoch = arena.epoch;
    // Each table judged PROMOTE_PATHS paths: the next use places it in full while room lasts.
    for (const table of tables) judge(engine, table, urls.slice(0, 1), 1);
    expect(arena.epoch).toBe(epoch);
    const slots = tables.map((table) => arena.residentSlot(table)!);
    const promoted = slots.filter((slot) => !isLean(live, slot)).length;
    expect(promoted).toBeGreaterThan(0);
    expect(promoted).toBeLessThan(tables.length);
    expect(promoted * fullBytes).toBeLessThanOrEqual(cap / 2);
    // A lean table that found no room is tried again only at RENEW_PATHS paths.
    for (const slot of slots) {
      if (isLean(live, slot)) expect(slot.ripeAt).toBe(RENEW_PATHS);
      else expect(slot.counterAt).toBe(0);
    }
  });

  /**
   * A lean engine of `cap` bytes whose half for placing tables again in full is spent on
   * copies of `hot` (each judges PROMOTE_PATHS paths of seed `seed`, then is placed in full).
   */
  function spentEngine(cap: number, hot: Uint8Array, seed: number): { engine: WasmEngine; arena: TableArena; exports: WasmExports; urls: string[] } {
    const parts = leanEngine(cap);
    const { engine, arena, exports } = parts;
    const urls = paths(PROMOTE_PATHS, seed);
    const full = hot.length + ruleIndexBytes(exports, hot);
    for (let k = 0; 2 * full * (k + 1) <= cap; k++) {
      const spender = hot.slice();
      judge(engine, spender, urls, urls.length);
      judge(engine, spender, urls.slice(0, 1), 1);
      expect(isLean(exports, arena.residentSlot(spender)!)).toBe(false);
    }
    return { ...parts, urls };
  }

  /**
   * spentEngine, then filled with lean copies of a plain table until the DFA table `hot`
   * no longer fits in full; `hot` is admitted lean and refused at PROMOTE_PATHS.
   */
  function crowdedEngine(cap: number, hot: Uint8Array): { engine: WasmEngine; arena: TableArena; exports: WasmExports; fillers: Uint8Array[] } {
    const { urls, ...parts } = spentEngine(cap, hot, 12);
    const { engine, arena, exports } = parts;
    const full = hot.length + ruleIndexBytes(exports, hot);
    const plain = Robots.parse('User-agent: *\nDisallow: /private\nAllow: /private/ok\n').forAgent('ExampleBot').table;
    const fillers: Uint8Array[] = [];
    const epoch = arena.epoch;
    const sizes = arena as unknown as { cap: number; used: number };
    // Until there is room for the lean copy of `hot` and none for its full one.
    while (sizes.cap - sizes.used >= full) {
      const filler = plain.slice();
      arena.slot(filler);
      fillers.push(filler);
    }
    expect(arena.fits(hot)).toBe(true);
    expect(arena.epoch).toBe(epoch);
    judge(engine, hot, urls, urls.length);
    judge(engine, hot, urls.slice(0, 1), 1);
    expect(arena.epoch).toBe(epoch);
    const slot = arena.residentSlot(hot)!;
    expect(isLean(exports, slot)).toBe(true);
    expect(slot.ripeAt).toBe(RENEW_PATHS);
    return { ...parts, fillers };
  }

  it(`a table refused a full place, once it judged ${RENEW_PATHS} paths, empties the arena for itself in a call that uses it alone`, () => {
    const hot = Robots.parse(DFA).forAgent('ExampleBot').table;
    const urls = paths(RENEW_PATHS + 4096, 13);
    const reference = judge(new WasmEngine(), hot, urls, urls.length);
    const { engine, arena, exports, fillers } = crowdedEngine(8 << 20, hot);
    const epoch = arena.epoch;
    // Calls of 4,096: the one after the count reaches RENEW_PATHS starts a new epoch.
    const got = judge(engine, hot, urls, 4096);
    expect(got).toEqual(reference);
    expect(arena.epoch).toBe(epoch + 1);
    const slot = arena.residentSlot(hot)!;
    expect(isLean(exports, slot)).toBe(false);
    expect(slot.counterAt).toBe(0);
    expect(exports.dfaStatus(slot.tableAt, slot.indexAt, 2)).not.toBe(0);
    // The emptied tables are stale, and copied in again (lean) on their next use.
    expect(arena.residentSlot(fillers[0]!)).toBeUndefined();
    const filler = judge(engine, fillers[0]!, ['https://example.com/private/x', 'https://example.com/private/ok'], 2);
    expect(filler.verdicts).toEqual([0, 1]);
    expect(arena.residentSlot(fillers[0]!)!.epoch).toBe(epoch + 1);
  });

  it('a call that holds several tables never empties the arena for a busy lean one; the next call that uses it alone does', () => {
    const hot = Robots.parse(DFA).forAgent('ExampleBot').table;
    const other = Robots.parse(TRIAL).forAgent('ExampleBot').table;
    const urls = paths(RENEW_PATHS + 100, 14);
    const { engine, arena, exports } = crowdedEngine(8 << 20, hot);
    const epoch = arena.epoch;
    // Two tables at once (residentTogether): `hot` counts its paths but stays lean.
    const verdicts = new Uint8Array(2 * urls.length);
    for (let i = 0; i < urls.length; i += 8192) engine.matchStringsMulti([hot, other], urls.slice(i, i + 8192), verdicts.subarray(2 * i), null);
    expect(arena.epoch).toBe(epoch);
    const slot = arena.residentSlot(hot)!;
    expect(isLean(exports, slot)).toBe(true);
    expect(new Uint32Array(exports.memory.buffer)[slot.counterAt >>> 2]).toBeGreaterThanOrEqual(RENEW_PATHS);
    const reference = judge(new WasmEngine(), hot, urls.slice(0, 64), 64);
    expect(judge(engine, hot, urls.slice(0, 64), 64)).toEqual(reference);
    expect(arena.epoch).toBe(epoch + 1);
    expect(isLean(exports, arena.residentSlot(hot)!)).toBe(false);
  });

  it('a busy lean table placed in full past the half-arena budget when the arena has room, without a new epoch', () => {
    const hot = Robots.parse(DFA).forAgent('ExampleBot').table;
    const { engine, arena, exports } = spentEngine(8 << 20, hot, 15);
    const epoch = arena.epoch;
    const many = paths(RENEW_PATHS + 64, 16);
    const reference = judge(new WasmEngine(), hot, many, many.length);
    expect(judge(engine, hot, many, 8192)).toEqual(reference);
    expect(arena.epoch).toBe(epoch);
    expect(isLean(exports, arena.residentSlot(hot)!)).toBe(false);
  });

  it('a busy lean table larger than the arena in full stays lean, and is not tried again', () => {
    const hot = Robots.parse(DFA).forAgent('ExampleBot').table;
    const exports0 = instantiate();
    const lean = hot.length + ruleIndexBytes(exports0, hot, true);
    const full = hot.length + ruleIndexBytes(exports0, hot);
    // An arena that holds the lean table, not the full one.
    const cap = 4 * lean + (64 << 10);
    expect(cap).toBeLessThan(full);
    const { engine, arena, exports } = leanEngine(cap);
    const urls = paths(RENEW_PATHS + 64, 17);
    const reference = judge(new WasmEngine(), hot, urls, urls.length);
    expect(judge(engine, hot, urls, 8192)).toEqual(reference);
    const slot = arena.residentSlot(hot)!;
    expect(isLean(exports, slot)).toBe(true);
    expect(slot.ripeAt).toBe(Infinity);
  });

  it('a table placed again in full is copied from its resident copy, not from the caller array changed since', () => {
    const table = Robots.parse(DFA).forAgent('ExampleBot').table;
    const urls = paths(PROMOTE_PATHS * 2, 5);
    const reference = judge(new WasmEngine(), table, urls, urls.length);
    const { engine, arena, exports } = leanEngine();
    const head = judge(engine, table, urls.slice(0, PROMOTE_PATHS), PROMOTE_PATHS);
    // Resident tables are judged from the engine's copy: the caller's bytes are not read again.
    table.fill(0xff);
    const tail = judge(engine, table, urls.slice(PROMOTE_PATHS), 64);
    expect(isLean(exports, arena.residentSlot(table)!)).toBe(false);
    expect([...head.verdicts, ...tail.verdicts]).toEqual(reference.verdicts);
    expect([...head.lines, ...tail.lines]).toEqual(reference.lines);
  });
});
