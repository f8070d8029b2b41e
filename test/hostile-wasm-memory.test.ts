// Wasm memory safety: every call's regions are placed inside memory, disjoint, and the module writes nowhere else; sizes pushed around every region boundary.
//
// src/wasm/ places the regions (arena of resident tables + indexes, input, lengths, out,
// lines, scratch) and grows memory before each call; assembly/ trusts them. This suite
// checks that contract from outside, on a private WasmEngine whose exports are wrapped:
//   - before each call, every region the call will read or write (derived from the call's
//     own arguments and the bytes they point at, SIMD slack included) lies inside memory,
//     and the regions it writes are disjoint from every other region (its scratch, sized
//     for its longest URL, within the scratch region the host placed);
//   - after each call, memory outside the written regions (and the module's own static
//     data below heapBase) is byte-for-byte unchanged;
//   - the answers equal the reference matcher's.
// Sizes straddle the engine's constants: the initial 4 KiB input / 1,024-result layout,
// the string chunks (2^14 URLs, 2^18 chars), the 2^18-byte matchLines chunk, the 1 MiB
// table arena, and memory growth in between. No timing is asserted.
import { describe, expect, it } from 'vitest';
import { Robots, type Profile } from '../src/index.js';
import { WasmEngine } from '../src/wasm/index.js';
import { encodeRuleTable } from '../src/table/encode.js';
import * as F from '../src/table/format.js';
import { ReferenceRobots, referenceSplitLines } from './reference/index.js';
import { randomBytes } from './reference/prng.js';

const encoder = new TextEncoder();
const SLACK = 16; // bytes a SIMD load may read past a region (src/table/abi.ts SIMD_SLACK)
const PROFILES: readonly Profile[] = ['rfc', 'google'];

interface Region {
  readonly name: string;
  readonly start: number;
  readonly end: number;
}

interface RawExports {
  readonly memory: WebAssembly.Memory;
  heapBase(): number;
  indexBytes(table: number, lean: number): number;
  indexTable(table: number, index: number, lean: number): void;
  leanCounter(table: number, index: number): number;
  matchUrls(table: number, index: number, input: number, lengths: number, count: number, out: number, lines: number, scratch: number): void;
  matchOnOrigin(table: number, index: number, input: number, len: number, origin: number, originLen: number, lines: number, scratch: number): number;
  matchLines(table: number, index: number, input: number, len: number, out: number, lines: number, scratch: number, final: number): number;
  consumed(): number;
  prepareUrl(flags: number, url: number, len: number, scratch: number): number;
  preparedPtr(): number;
  collectMatches(table: number, url: number, len: number, out: number, scratch: number): number;
}

/** The parameter count of each export this suite knows how to check: a changed ABI fails loudly here. */
const ARITY: Record<string, number> = { indexTable: 3, matchUrls: 8, matchOnOrigin: 8, matchLines: 8, prepareUrl: 4, collectMatches: 5 };

/** Calls seen by the guard, per export, to prove the boundaries were actually exercised. */
type CallLog = Record<string, number>;

/** A WasmEngine whose exports check every call's regions and diff memory around it. */
function guardedEngine(): { engine: WasmEngine; calls: CallLog; maxMemory: () => number } {
  const engine = new WasmEngine();
  const holder = (engine as unknown as { memory: { exports: RawExports; rowsAt: number } }).memory;
  const real = holder.exports;
  for (const [name, arity] of Object.entries(ARITY)) {
    const fn = (real as unknown as Record<string, (...a: number[]) => unknown>)[name];
    if (typeof fn !== 'function' || fn.length !== arity) {
      throw new Error(`Wasm ABI changed: ${name} has ${fn?.length} parameters, this suite checks ${arity}; update test/hostile-wasm-memory.test.ts`);
    }
  }
  const calls: CallLog = {};
  let maxMemory = 0;
  const memory = real.memory;
  const heapBase = real.heapBase();

  const check = (name: string, reads: Region[], writes: Region[], call: () => unknown): unknown => {
    calls[name] = (calls[name] ?? 0) + 1;
    const size = memory.buffer.byteLength;
    maxMemory = Math.max(maxMemory, size);
    for (const r of [...reads, ...writes]) {
      if (r.start < heapBase || r.end > size || r.start > r.end) {
        throw new Error(`${name}: region ${r.name} [${r.start}, ${r.end}) is outside the host memory [${heapBase}, ${size})`);
      }
    }
    // Scratch is sized by the host for the call's longest URL: it must end before the rows region.
    for (const w of writes) {
      if (w.name === 'scratch' && w.end > holder.rowsAt) {
        throw new Error(`${name}: scratch [${w.start}, ${w.end}) runs past its region into rows (at ${holder.rowsAt})`);
      }
    }
    for (const w of writes) {
      for (const o of [...reads, ...writes]) {
        if (o === w || o.start === o.end || w.start === w.end) continue;
        if (w.start < o.end && o.start < w.end) throw new Error(`${name}: written region ${w.name} [${w.start}, ${w.end}) overlaps ${o.name} [${o.start}, ${o.end})`);
      }
    }
    const before = new Uint8Array(memory.buffer).slice();
    const result = call();
    const after = new Uint8Array(memory.buffer);
    expect(after.length, `${name} must not grow memory`).toBe(before.length);
    // Everything outside the written regions is unchanged. The module's own static data
    // below heapBase (e.g. a 16-byte SIMD spill buffer) is its to use; the host never is.
    const sorted = [{ name: 'module static data', start: 0, end: heapBase }, ...writes].sort((a, b) => a.start - b.start);
    let at = 0;
    for (const w of [...sorted, { name: 'end', start: before.length, end: before.length }]) {
      if (w.start > at && Buffer.compare(before.subarray(at, w.start), after.subarray(at, w.start)) !== 0) {
        let first = at;
        while (before[first] === after[first]) first++;
        throw new Error(`${name}: byte ${first} changed outside every written region (${sorted.map((r) => `${r.name} [${r.start}, ${r.end})`).join(', ')})`);
      }
      at = Math.max(at, w.end);
    }
    return result;
  };

  const view = (): DataView => new DataView(memory.buffer);
  // The bytes of the RuleIndex built at `index`, lean or full (the module tells which).
  const indexBytesAt = (table: number, index: number): number => real.indexBytes(table, real.leanCounter(table, index) !== 0 ? 1 : 0);
  const tableRegions = (table: number, index: number | null): Region[] => {
    const byteLength = view().getUint32(table + F.H_BYTE_LENGTH, true);
    const regions = [{ name: 'table', start: table, end: table + byteLength + SLACK }];
    if (index !== null) regions.push({ name: 'index', start: index, end: index + indexBytesAt(table, index) + SLACK });
    return regions;
  };
  const scratchFor = (scratch: number, maxLen: number): Region => ({ name: 'scratch', start: scratch, end: scratch + 3 * maxLen + 1 + SLACK });
  // A match call may write its table's RuleIndex, and only that: the wildcard DFA builds its
  // states and counts its trial there (assembly/dfa.ts).
  const indexWrites = (table: number, index: number): Region => ({ name: 'index', start: index, end: index + indexBytesAt(table, index) });

  holder.exports = {
    ...real,
    memory,
    indexTable: (table, index, lean) =>
      check('indexTable', tableRegions(table, null), [{ name: 'index', start: index, end: index + real.indexBytes(table, lean) }], () => real.indexTable(table, index, lean)) as void,
    matchUrls: (table, index, input, lengths, count, out, lines, scratch) => {
      const dv = view();
      let total = 0;
      let maxLen = 0;
      for (let k = 0; k < count; k++) {
        const len = dv.getUint32(lengths + 4 * k, true);
        total += len;
        maxLen = Math.max(maxLen, len);
      }
      const reads = [...tableRegions(table, null), { name: 'input', start: input, end: input + total + SLACK }, { name: 'lengths', start: lengths, end: lengths + 4 * count }];
      const writes = [{ name: 'out', start: out, end: out + count }, scratchFor(scratch, maxLen), indexWrites(table, index)];
      if (lines !== 0) writes.push({ name: 'lines', start: lines, end: lines + 4 * count });
      return check('matchUrls', reads, writes, () => real.matchUrls(table, index, input, lengths, count, out, lines, scratch)) as void;
    },
    matchOnOrigin: (table, index, input, len, origin, originLen, lines, scratch) => {
      const reads = [...tableRegions(table, null), { name: 'input', start: input, end: input + len + SLACK }, { name: 'origin', start: origin, end: origin + originLen + SLACK }];
      const writes = [scratchFor(scratch, len), indexWrites(table, index)];
      if (lines !== 0) writes.push({ name: 'lines', start: lines, end: lines + 4 });
      return check('matchOnOrigin', reads, writes, () => real.matchOnOrigin(table, index, input, len, origin, originLen, lines, scratch)) as number;
    },
    matchLines: (table, index, input, len, out, lines, scratch, final) => {
      const bytes = new Uint8Array(memory.buffer, input, len);
      let count = 1;
      let maxLine = 0;
      let start = 0;
      for (let i = 0; i < len; i++) {
        if (bytes[i] !== 0x0a) continue;
        count++;
        maxLine = Math.max(maxLine, i - start);
        start = i + 1;
      }
      maxLine = Math.max(maxLine, len - start);
      const reads = [...tableRegions(table, null), { name: 'input', start: input, end: input + len + SLACK }];
      const writes = [{ name: 'out', start: out, end: out + count }, scratchFor(scratch, maxLine), indexWrites(table, index)];
      if (lines !== 0) writes.push({ name: 'lines', start: lines, end: lines + 4 * count });
      return check('matchLines', reads, writes, () => real.matchLines(table, index, input, len, out, lines, scratch, final)) as number;
    },
    prepareUrl: (flags, url, len, scratch) =>
      check('prepareUrl', [{ name: 'url', start: url, end: url + len + SLACK }], [scratchFor(scratch, len)], () => real.prepareUrl(flags, url, len, scratch)) as number,
    collectMatches: (table, url, len, out, scratch) => {
      const wildcards = view().getUint32(table + F.H_WILDCARD_COUNT, true);
      const reads = [...tableRegions(table, null), { name: 'url', start: url, end: url + len + SLACK }];
      const writes = [{ name: 'ids', start: out, end: out + 4 * wildcards }, scratchFor(scratch, len)];
      return check('collectMatches', reads, writes, () => real.collectMatches(table, url, len, out, scratch)) as number;
    },
  };
  return { engine, calls, maxMemory: () => maxMemory };
}

const BODY = 'User-agent: *\nDisallow: /*z\nAllow: /*zz$\nDisallow: /p\nAllow: /p/ok\nDisallow: /*é\nDisallow: /*%41\n';
const ALPHABET = ['a', 'p', 'z', '/', 'é', '%41', 'o', 'k', '*', '$', '?'];

/** Deterministic URLs of exactly `length` UTF-16 units (mostly ASCII) from the alphabet. */
function makeUrl(length: number, seed: number): string {
  const noise = randomBytes(length, seed);
  let url = '/';
  for (let i = 0; url.length < length; i++) url += ALPHABET[noise[i % noise.length]! % ALPHABET.length]!;
  return url.slice(0, length);
}

function compiled(profile: Profile, body = BODY): { table: Uint8Array; ref: ReferenceRobots } {
  return { table: Robots.parse(body, { profile, maxBytes: body.length + 1 }).forAgent('bot').table, ref: ReferenceRobots.parse(body, { profile, maxBytes: body.length + 1 }) };
}

/** Reference answers per ReferenceRobots and URL: tables are re-checked many times in the arena tests. */
const answers = new WeakMap<ReferenceRobots, Map<string, ReturnType<ReferenceRobots['explain']>>>();

function referenceAnswer(ref: ReferenceRobots, url: string): ReturnType<ReferenceRobots['explain']> {
  let known = answers.get(ref);
  if (known === undefined) answers.set(ref, (known = new Map()));
  let answer = known.get(url);
  if (answer === undefined) known.set(url, (answer = ref.explain(url, 'bot')));
  return answer;
}

function expectBatch(engine: WasmEngine, table: Uint8Array, ref: ReferenceRobots, urls: readonly string[]): void {
  const verdicts = new Uint8Array(urls.length);
  const lines = new Uint32Array(urls.length);
  engine.matchStrings(table, urls, verdicts, lines);
  urls.forEach((url, i) => {
    const want = referenceAnswer(ref, url);
    if (verdicts[i] !== (want.allowed ? 1 : 0) || lines[i] !== want.line) {
      expect({ i, length: url.length, allowed: verdicts[i] === 1, line: lines[i] }).toEqual({ i, length: url.length, allowed: want.allowed, line: want.line });
    }
  });
}

function expectLines(engine: WasmEngine, table: Uint8Array, ref: ReferenceRobots, input: Uint8Array): void {
  const seen = referenceSplitLines(input);
  // Many lines repeat (empty lines, fillers): ask the reference once per distinct short line.
  const memo = new Map<string, ReturnType<ReferenceRobots['explain']>>();
  const explain = (url: Uint8Array): ReturnType<ReferenceRobots['explain']> => {
    if (url.length > 64) return ref.explain(url, 'bot');
    const key = Buffer.from(url).toString('latin1');
    let hit = memo.get(key);
    if (hit === undefined) memo.set(key, (hit = ref.explain(url, 'bot')));
    return hit;
  };
  const verdicts = new Uint8Array(seen.length + 1);
  const lines = new Uint32Array(seen.length + 1);
  const all = engine.matchAllLines(table, input, true);
  const { count, consumed } = all;
  verdicts.set(all.verdicts);
  lines.set(all.lines!);
  expect({ count, consumed }).toEqual({ count: seen.length, consumed: input.length });
  seen.forEach((url, i) => {
    const want = explain(url);
    if (verdicts[i] !== (want.allowed ? 1 : 0) || lines[i] !== want.line) {
      expect({ i, length: url.length, allowed: verdicts[i] === 1, line: lines[i] }).toEqual({ i, length: url.length, allowed: want.allowed, line: want.line });
    }
  });
}

describe('URL lengths around the input and scratch boundaries (matchStrings, matchOne)', () => {
  // The first layout holds 4,096 input bytes; a string chunk holds 2^18 chars; scratch is 3 × input.
  const lengths = [0, 1, 15, 16, 17, 1365, 1366, 1367, 4095, 4096, 4097, 65535, 65536, 65537, (1 << 18) - 1, 1 << 18, (1 << 18) + 1, 1 << 20];
  for (const profile of PROFILES) {
    it(`${profile}: single URLs of ${lengths.length} boundary lengths, growing then shrinking`, () => {
      const { engine, calls } = guardedEngine();
      const { table, ref } = compiled(profile);
      for (const n of [...lengths, ...[...lengths].reverse()]) {
        const url = makeUrl(n, n + 1);
        expectBatch(engine, table, ref, [url]);
        const line = new Uint32Array(1);
        expect(engine.matchOne(table, url, line), `matchOne ${n}`).toBe(referenceAnswer(ref, url).allowed ? 1 : 0);
      }
      expect(calls.matchUrls).toBe(4 * lengths.length);
    });
  }
  for (const profile of PROFILES) {
    it(`${profile}: matchOnOrigin on URLs of boundary lengths, origins of 0 to ORIGIN_MAX_BYTES bytes`, () => {
      const { engine, calls } = guardedEngine();
      const { table, ref } = compiled(profile);
      const line = new Uint32Array(1);
      let judged = 0;
      for (const originLength of [0, 1, 15, 16, 17, 255, 511, 512]) {
        const host = 'h'.repeat(Math.max(0, originLength - 'http://'.length));
        const origin = encoder.encode(`http://${host}`.slice(0, originLength));
        for (const n of [0, 1, 15, 16, 17, 1365, 1366, 4095, 4096, 4097, 65537]) {
          const url = `http://${host}`.slice(0, originLength) + makeUrl(n, n + originLength).replace(/[^a-z/]/g, 'a');
          const verdict = engine.matchOnOrigin(table, url, origin, line);
          if (verdict === 2) continue; // too long for the regions as they are: the caller's general path
          judged++;
          const want = referenceAnswer(ref, url);
          expect({ n, originLength, verdict, line: line[0] }).toEqual({ n, originLength, verdict: want.allowed ? 1 : 0, line: want.line });
        }
      }
      expect(judged).toBeGreaterThan(30);
      expect(calls.matchOnOrigin).toBe(judged);
    });
  }
  it('rfc: the scratch worst case, every byte tripled (";" + "*"…), at every boundary', () => {
    const { engine } = guardedEngine();
    const { table, ref } = compiled('rfc');
    for (const n of lengths) expectBatch(engine, table, ref, [`;${'*'.repeat(n)}`, `?${'\u0080'.repeat(n >> 1)}`, `/${'\u{10FFFF}'.repeat(n >> 2)}`]);
  });
});

describe('batch sizes around the count and chunk boundaries (matchStrings)', () => {
  it.each([1023, 1024, 1025, 16383, 16384, 16385, 40000])('%i URLs in one batch', (count) => {
    const { engine, calls } = guardedEngine();
    const { table, ref } = compiled('google');
    const urls = Array.from({ length: count }, (_v, i) => makeUrl(1 + (i % 23), i));
    expectBatch(engine, table, ref, urls);
    expect(calls.matchUrls).toBe(Math.ceil(count / 16384));
  });
  it('chunks that cut at the 2^18-char limit, with a non-ASCII URL at each edge', () => {
    const { engine, calls } = guardedEngine();
    const { table, ref } = compiled('rfc');
    const urls: string[] = [];
    for (let i = 0; i < 700; i++) urls.push(i % 97 === 0 ? `/é${makeUrl(998, i)}` : makeUrl(1000, i));
    expectBatch(engine, table, ref, urls);
    expect(calls.matchUrls).toBeGreaterThan(2);
  });
  it('one URL longer than a whole chunk between short ones', () => {
    const { engine } = guardedEngine();
    const { table, ref } = compiled('rfc');
    expectBatch(engine, table, ref, ['/a', makeUrl(3 << 18, 5), '/z', makeUrl(1 << 18, 6), '/p/ok']);
  });
  it('scratch for the longest URL of a chunk: its UTF-16 length when all are ASCII, its UTF-8 length otherwise', () => {
    // rfc writes '*', '$' and each byte of 'é' as %XX: the prepared path is 3 × the URL's bytes.
    for (const long of [5_000, 70_000, (1 << 18) - 2]) {
      const { table, ref } = compiled('rfc');
      for (const urls of [
        ['/a', `/${'*'.repeat(long)}`, '/p', `/${'$'.repeat(long >> 1)}`, '/z'],
        ['/a', `/${'*'.repeat(long >> 1)}`, `/${'é'.repeat(long >> 1)}`, '/z'],
      ]) {
        const { engine, calls } = guardedEngine();
        expectBatch(engine, table, ref, urls);
        expect(calls.matchUrls).toBeGreaterThan(0);
      }
    }
  });
  it('LF, CR, empty, non-ASCII and lone-surrogate strings on both sides of the 512-string pieces and of the chunk edge', () => {
    const specials = ['/a\nb', '', '/p\r', '/z\r\n/a', '/é', '/\ud800', '/\u{1F600}z', '\n', '/ok\u0000z'];
    const urls = Array.from({ length: 16384 + 700 }, (_v, i) => makeUrl(1 + (i % 23), i % 41));
    for (const at of [0, 510, 511, 512, 513, 1023, 1024, 16383, 16384, 16385, urls.length - 1]) {
      urls[at] = specials[at % specials.length]!;
    }
    for (const profile of PROFILES) {
      const { engine, calls } = guardedEngine();
      const { table, ref } = compiled(profile);
      expectBatch(engine, table, ref, urls);
      expect(calls.matchUrls).toBe(2);
      // The same strings one at a time (matchOne encodes each on its own) agree.
      for (const at of [510, 511, 512, 16383, 16384]) {
        expect(engine.matchOne(table, urls[at]!, null), `${profile} ${JSON.stringify(urls[at])}`).toBe(referenceAnswer(ref, urls[at]!).allowed ? 1 : 0);
      }
    }
  });
});

describe('matchLines around the 2^18-byte chunk', () => {
  const CHUNK = 1 << 18;
  /** Lines of `width` bytes (line break included) so that breaks fall at chosen offsets. */
  function filler(total: number, width: number, crlf: boolean): string {
    const out: string[] = [];
    let used = 0;
    for (let i = 0; used < total; i++) {
      const w = Math.min(width, total - used);
      const body = makeUrl(Math.max(0, w - (crlf ? 2 : 1)), i);
      out.push(w >= (crlf ? 2 : 1) ? `${body}${crlf ? '\r\n' : '\n'}` : body);
      used += w;
    }
    return out.join('');
  }
  const cases: [name: string, input: () => string][] = [
    ['a line ending one byte before the chunk end', () => `${filler(CHUNK - 1, 100, false)}/z\n/a`],
    ['a line ending exactly at the chunk end', () => `${filler(CHUNK, 100, false)}/z\n/a`],
    ['a line ending one byte after the chunk end', () => `${filler(CHUNK + 1, 100, false)}/z\n/a`],
    ['CRLF split by the chunk end (CR last, LF first)', () => `${filler(CHUNK - 3, 100, true)}/z\r\n/p\r\n`],
    ['a single line of exactly one chunk', () => `${makeUrl(CHUNK, 1)}\n/z\n`],
    ['a single line of one chunk + 1, no final break', () => makeUrl(CHUNK + 1, 2)],
    ['a 1 MiB line between short lines (the chunk doubles to reach its end)', () => `/a\n${makeUrl(1 << 20, 3)}\n/p/ok\n`],
    ['3 chunks of empty lines', () => '\n'.repeat(3 * CHUNK)],
    ['3 chunks of CRLF empty lines', () => '\r\n'.repeat((3 * CHUNK) / 2)],
  ];
  for (const profile of PROFILES) {
    it.each(cases)(`${profile}: %s`, (_name, input) => {
      const { engine, calls } = guardedEngine();
      const { table, ref } = compiled(profile);
      expectLines(engine, table, ref, encoder.encode(input()));
      expect(calls.matchLines).toBeGreaterThan(0);
    });
  }
  it('random bytes (no UTF-8 at all) across several chunks', () => {
    const { engine } = guardedEngine();
    const { table, ref } = compiled('rfc');
    expectLines(engine, table, ref, randomBytes(5 * CHUNK + 7, 11));
  });
});

describe('tables around the 1 MiB arena, switched between calls', () => {
  /** A robots.txt whose compiled table is about `bytes` long (plain and wildcard rules). */
  function bodyOfTableSize(bytes: number, seed: number): string {
    const lines = ['User-agent: *', 'Disallow: /*z'];
    for (let i = 0, size = 0; size < bytes / 1.6; i++) {
      const line = i % 5 === 0 ? `Disallow: /w${seed}x${i}*q` : `Disallow: /r${seed}x${i}/`;
      lines.push(line);
      size += line.length + 1;
    }
    return `${lines.join('\n')}\n`;
  }
  it('small, just-below-arena, beyond-arena and small tables, interleaved, stay correct', () => {
    const { engine, calls, maxMemory } = guardedEngine();
    const tables = [4_000, 900_000, 1_100_000, 3_000_000, 10_000].map((size, seed) => {
      const body = bodyOfTableSize(size, seed);
      return { ...compiled('google', body), seed };
    });
    expect(tables.map((t) => t.table.length).some((n) => n > 1 << 20)).toBe(true);
    const urls = (seed: number): string[] => ['/z', `/r${seed}x7/a`, `/w${seed}x5/q`, `/w${seed}x5/`, makeUrl(5000, seed), '/none'];
    for (let round = 0; round < 3; round++) {
      for (const order of [[0, 1, 2, 3, 4], [4, 3, 2, 1, 0], [1, 3, 1, 3, 0]]) {
        for (const k of order) expectBatch(engine, tables[k]!.table, tables[k]!.ref, urls(tables[k]!.seed));
      }
    }
    expect(calls.indexTable).toBeGreaterThan(5); // tables were evicted and re-admitted
    expect(maxMemory()).toBeGreaterThan(3_000_000);
  });
  it('300 distinct small tables cycle the arena through several epochs', () => {
    const { engine, calls } = guardedEngine();
    const all = Array.from({ length: 300 }, (_v, i) => compiled(i % 2 ? 'rfc' : 'google', `User-agent: *\nDisallow: /t${i}\n${'Disallow: /*pad*\n'.repeat(200)}`));
    for (let pass = 0; pass < 2; pass++) {
      all.forEach(({ table, ref }, i) => expectBatch(engine, table, ref, [`/t${i}`, `/t${i + 1}`, '/x']));
    }
    expect(calls.indexTable).toBeGreaterThanOrEqual(300);
  });
});

describe('the other exports', () => {
  it('prepareUrl at boundary lengths (toMatchPath’s engine call)', () => {
    const { engine, calls } = guardedEngine();
    for (const n of [0, 1, 4095, 4096, 4097, 1 << 18, (1 << 20) + 1]) {
      const url = `;${'*'.repeat(n)}`;
      expect(engine.preparePath(url, F.FLAG_NORMALIZE_URL).length).toBe(1 + 1 + 3 * n);
      expect(engine.preparePath(url, 0).length).toBe(1 + 1 + n);
    }
    expect(calls.prepareUrl).toBe(14);
  });
  it('collectMatches with more ids than the count region first held', () => {
    const { engine, calls } = guardedEngine();
    const rules = Array.from({ length: 5000 }, (_v, i) => ({ allow: false, pattern: encoder.encode(i % 2 ? `/*${i % 7}` : '/'), line: i + 1, id: i }));
    const table = encodeRuleTable(rules, { flags: F.FLAG_NORMALIZE_URL | F.FLAG_CASE_INSENSITIVE, allWildcard: true });
    const ids = engine.collectMatches(table, '/0123456');
    expect(ids.length).toBe(5000);
    expect(new Set(ids).size).toBe(5000);
    expect(engine.collectMatches(table, '/9').length).toBe(2500);
    expect(calls.collectMatches).toBe(2);
  });
});

describe('a hostile array cannot make the host write lengths it did not copy', () => {
  // matchBatch reads urls[i] more than once (validation, join, lengths). An array whose
  // elements are getters (or a Proxy) can answer differently each time; the host must
  // snapshot each URL once, or the Wasm reads past the bytes it was given.
  it('a getter that lengthens the URL after its first read gives that first URL\'s verdict, not a Wasm trap', () => {
    const m = Robots.parse('User-agent: *\nDisallow: /private\n').forAgent('bot');
    let reads = 0;
    const urls: string[] = [];
    Object.defineProperty(urls, 0, { get: () => (++reads <= 1 ? '/private' : `/${'x'.repeat(50_000_000)}`), enumerable: true });
    urls.length = 1;
    let error: unknown = null;
    let verdict: number | undefined;
    try {
      verdict = m.matchBatch(urls)[0];
    } catch (e) {
      error = e;
    }
    expect(error, String(error)).toBe(null);
    // The host reads the element once (a second read would see the 50 MB URL, whose
    // verdict is 1): /private → 0.
    expect(reads).toBe(1);
    expect(verdict).toBe(0);
  });
  it('a Proxy array whose elements change between reads judges one consistent snapshot', () => {
    const m = Robots.parse('User-agent: *\nDisallow: /private\n').forAgent('bot');
    const base = Array.from({ length: 10 }, () => '/private');
    let reads = 0;
    const proxy = new Proxy(base, {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) return ++reads <= 10 ? '/private' : `/${'y'.repeat(1_000)}`;
        return Reflect.get(target, key, receiver);
      },
    });
    // Each call reads each element exactly once (the ten URLs fit one string chunk): the
    // first call sees ten '/private' (disallowed), the second ten '/yyy…' URLs (allowed,
    // 10 kB together: more than the first input layout holds). A host that read an element
    // twice (say, once for its length and once for its bytes) would mix them.
    expect(Array.from(m.matchBatch(proxy))).toEqual(new Array(10).fill(0));
    expect(reads).toBe(10);
    expect(Array.from(m.matchBatch(proxy))).toEqual(new Array(10).fill(1));
    expect(reads).toBe(20);
  });
});
