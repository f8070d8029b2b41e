// validateRuleTable: every encoder output passes; every kind of corruption of a real table is rejected with an error naming what is wrong.
//
// The Wasm matcher follows table offsets without bounds checks (assembly/match.ts), so a
// table from outside (disk, network, another build) must pass validateRuleTable before
// it is used. Each row below takes a real encodeRuleTable output, corrupts one thing, and
// expects the error class and a message naming that thing.
import { describe, expect, it } from 'vitest';
import { Robots } from '../src/index.js';
import { encodeRuleTable, type TableRule } from '../src/table/encode.js';
import * as F from '../src/table/format.js';
import { validateRuleTable } from '../src/table/validate.js';
import { utf8 } from './helpers/cases.js';

const rule = (allow: boolean, pattern: string, line: number): TableRule => ({ allow, pattern: utf8(pattern), line });

/** Plain rules sharing prefixes (a trie with children) and wildcard rules (segments, KMP links). */
const RULES: TableRule[] = [
  rule(false, '/private', 2),
  rule(true, '/private/public', 3),
  rule(false, '/pr', 4),
  rule(false, '/a$', 5),
  rule(false, '/*.php$', 6),
  rule(true, '/*abab*x', 7),
  rule(false, '/aaaa*bbbb*cccc', 8),
  // Trailing `*`s: prefix rules in the trie, with an extra priority (format.ts).
  rule(true, '/pr**', 9),
  rule(false, '/q*$', 10),
];

function table(): Uint8Array {
  return encodeRuleTable(RULES, { flags: F.FLAG_NORMALIZE_URL | F.FLAG_IMPLICIT_ROBOTS_TXT });
}

const view = (t: Uint8Array): DataView => new DataView(t.buffer, t.byteOffset, t.byteLength);
const u32 = (t: Uint8Array, at: number): number => view(t).getUint32(at, true);
const setU32 = (t: Uint8Array, at: number, value: number): void => view(t).setUint32(at, value, true);
const childCount = (t: Uint8Array, k: number): number => view(t).getUint16(node(t, k) + F.N_CHILD_COUNT, true);
const setChildCount = (t: Uint8Array, k: number, n: number): void => view(t).setUint16(node(t, k) + F.N_CHILD_COUNT, n, true);
const flip = (t: Uint8Array, at: number, mask: number): void => void (t[at] = t[at]! ^ mask);
const node = (t: Uint8Array, k: number): number => u32(t, F.H_NODES_OFFSET) + k * F.NODE_SIZE;
const wildcard = (t: Uint8Array, w: number): number => u32(t, F.H_WILDCARDS_OFFSET) + w * F.WILDCARD_SIZE;
const segment = (t: Uint8Array, s: number): number => u32(t, F.H_SEGMENTS_OFFSET) + s * F.SEGMENT_SIZE;

/** The index of the first segment whose length is ≥ `min` (one with real KMP links). */
function segmentWithLength(t: Uint8Array, min: number): number {
  for (let s = 0; s < u32(t, F.H_SEGMENT_COUNT); s++) if (u32(t, segment(t, s) + F.S_LENGTH) >= min) return s;
  throw new Error('fixture has no such segment');
}

/** A node with at least two children, and the index of its first child. */
function parentWithChildren(t: Uint8Array): { parent: number; first: number } {
  for (let k = 0; k < u32(t, F.H_NODE_COUNT); k++) {
    if (childCount(t, k) >= 2) return { parent: k, first: u32(t, node(t, k) + F.N_FIRST_CHILD) };
  }
  throw new Error('fixture has no branching node');
}

describe('valid tables pass', () => {
  it('the fixture has what the corruption rows need', () => {
    const t = table();
    expect(u32(t, F.H_NODE_COUNT)).toBeGreaterThan(3);
    expect(u32(t, F.H_WILDCARD_COUNT)).toBe(3);
    expect(() => parentWithChildren(t)).not.toThrow();
    expect(() => segmentWithLength(t, 4)).not.toThrow();
    expect(() => validateRuleTable(t)).not.toThrow();
  });
  it.each([
    ['no rules', [] as TableRule[], 0, false],
    ['only plain rules', RULES.filter((r) => !r.pattern.includes(0x2a)), 0, false],
    ['only wildcard rules', RULES.filter((r) => r.pattern.includes(0x2a)), F.FLAG_NORMALIZE_URL, false],
    ['every rule in the wildcard list (ACAP), case-insensitive', RULES, F.FLAG_CASE_INSENSITIVE | F.FLAG_NORMALIZE_URL, true],
    ['empty and anchored-only patterns', [rule(false, '', 1), rule(true, '$', 2), rule(false, '*', 3), rule(false, '**$', 4)], 0, false],
  ])('%s', (_name, rules, flags, allWildcard) => {
    expect(() => validateRuleTable(encodeRuleTable(rules, { flags, allWildcard }))).not.toThrow();
  });
  it('a table inside a larger buffer (non-zero byteOffset) passes', () => {
    const t = table();
    const host = new Uint8Array(t.length + 13);
    host.set(t, 7);
    expect(() => validateRuleTable(host.subarray(7, 7 + t.length))).not.toThrow();
  });
  it('tables compiled by Robots for real files pass, both profiles', () => {
    const body = 'User-agent: *\nDisallow: /\nAllow: /index.html\nDisallow: /*?s=*&\nAllow: /ä*ö$\nDisallow:\n';
    for (const profile of ['rfc', 'google'] as const) {
      expect(() => validateRuleTable(Robots.parse(body, { profile }).forAgent('bot').table)).not.toThrow();
    }
  });
});

/** [name, corrupt, error class, message pattern]. */
type Corruption = [name: string, corrupt: (t: Uint8Array) => Uint8Array, error: typeof TypeError | typeof RangeError, message: RegExp];

const corruptions: Corruption[] = [
  // Header.
  ['shorter than the header', (t) => t.slice(0, 20), RangeError, /20 bytes is shorter than the 48-byte header/],
  ['empty', () => new Uint8Array(0), RangeError, /0 bytes is shorter than the 48-byte header/],
  ['bad magic', (t) => (t.set(utf8('JUNK'), 0), t), RangeError, /bad magic 0x4b4e554a, expected 0x4c425452/],
  ['unsupported version 4', (t) => (view(t).setUint16(F.H_VERSION, 4, true), t), RangeError, /unsupported version 4, this build reads version 3/],
  ['unsupported version 2 (before trailing-`*` rules in the trie)', (t) => (view(t).setUint16(F.H_VERSION, 2, true), t), RangeError, /unsupported version 2, this build reads version 3/],
  ['unsupported version 1 (before FLAG_WILDCARD_AUTOMATON)', (t) => (view(t).setUint16(F.H_VERSION, 1, true), t), RangeError, /unsupported version 1, this build reads version 3/],
  ['unsupported version 0', (t) => (view(t).setUint16(F.H_VERSION, 0, true), t), RangeError, /unsupported version 0/],
  ['unknown flags', (t) => (view(t).setUint16(F.H_FLAGS, 0x80 | F.FLAG_NORMALIZE_URL, true), t), RangeError, /unknown flags 0x80/],
  ['truncated table (last 8 bytes lost)', (t) => t.slice(0, t.length - 8), RangeError, /header byteLength \d+ does not match the \d+ bytes given/],
  ['trailing bytes', (t) => Uint8Array.from([...t, 0, 0, 0, 0]), RangeError, /does not match/],
  ['header byteLength larger', (t) => (setU32(t, F.H_BYTE_LENGTH, t.length + 4), t), RangeError, /byteLength \d+ does not match/],
  // Regions.
  ['nodeCount 0', (t) => (setU32(t, F.H_NODE_COUNT, 0), t), RangeError, /nodeCount is 0/],
  ['nodeCount huge', (t) => (setU32(t, F.H_NODE_COUNT, 0x0fffffff), t), RangeError, /nodes \(268435455 × 32\) \[48, \d+\) is outside the table body/],
  ['nodesOffset past the end', (t) => (setU32(t, F.H_NODES_OFFSET, t.length), t), RangeError, /nodes .* is outside the table body/],
  ['nodesOffset inside the header', (t) => (setU32(t, F.H_NODES_OFFSET, 8), t), RangeError, /nodes .*\[8, .* is outside the table body \[48,/],
  ['nodesOffset 0xFFFFFFF0 (u32 wrap)', (t) => (setU32(t, F.H_NODES_OFFSET, 0xfffffff0), t), RangeError, /nodes .*\[4294967280, .* outside/],
  ['firstBytesOffset past the end', (t) => (setU32(t, F.H_FIRST_BYTES_OFFSET, t.length - 1), t), RangeError, /firstBytes .* is outside the table body/],
  ['wildcardCount huge', (t) => (setU32(t, F.H_WILDCARD_COUNT, 1_000_000), t), RangeError, /wildcards \(1000000 × 24\)/],
  ['wildcardsOffset past the end', (t) => (setU32(t, F.H_WILDCARDS_OFFSET, t.length), t), RangeError, /wildcards .* is outside the table body/],
  ['segmentCount huge', (t) => (setU32(t, F.H_SEGMENT_COUNT, 0xffffffff), t), RangeError, /segments \(4294967295 × 12\)/],
  ['segmentsOffset past the end', (t) => (setU32(t, F.H_SEGMENTS_OFFSET, t.length), t), RangeError, /segments .* is outside the table body/],
  ['poolLength past the end', (t) => (setU32(t, F.H_POOL_LENGTH, u32(t, F.H_POOL_LENGTH) + 1), t), RangeError, /pool \[\d+, \d+\) is outside the table body/],
  // Trie nodes.
  ['root with a label', (t) => (setU32(t, node(t, 0) + F.N_LABEL_LENGTH, 1), t), RangeError, /node 0 \(root\) has labelLength 1/],
  ['child with an empty label', (t) => (setU32(t, node(t, 1) + F.N_LABEL_LENGTH, 0), t), RangeError, /node 1 has an empty label/],
  ['label offset outside the pool', (t) => (setU32(t, node(t, 1) + F.N_LABEL_OFFSET, 4), t), RangeError, /node 1 label \[4, \d+\) is outside the pool/],
  ['label length past the pool', (t) => (setU32(t, node(t, 1) + F.N_LABEL_LENGTH, 1 << 20), t), RangeError, /node 1 label .* is outside the pool/],
  ['first byte differs from the label', (t) => (flip(t, u32(t, F.H_FIRST_BYTES_OFFSET) + 1, 1), t), RangeError, /firstBytes\[1\] is \d+, but node 1's label starts with/],
  ['child index out of range', (t) => (setU32(t, node(t, 0) + F.N_FIRST_CHILD, u32(t, F.H_NODE_COUNT)), t), RangeError, /node 0 children \[\d+, \d+\) out of range/],
  ['child count out of range', (t) => (setChildCount(t, 0, 0xffff), t), RangeError, /node 0 children .* out of range/],
  ['an extra priority without its prefix allow', (t) => (setU32(t, node(t, 0) + F.N_PREFIX_ALLOW, 0), t[node(t, 0) + F.N_ALLOW_EXTRA] = 2, t), RangeError, /node 0 has allowExtra 2 but no prefix allow/],
  ['an extra priority without its prefix disallow', (t) => (setU32(t, node(t, 0) + F.N_PREFIX_DISALLOW, 0), t[node(t, 0) + F.N_DISALLOW_EXTRA] = 1, t), RangeError, /node 0 has disallowExtra 1 but no prefix disallow/],
  ['a node is its own child (cycle)', (t) => { const { parent } = parentWithChildren(t); setU32(t, node(t, parent) + F.N_FIRST_CHILD, parent); return t; }, RangeError, /children \[\d+, \d+\) out of range \(must lie in/],
  ['a node with two parents', (t) => { const { parent, first } = parentWithChildren(t); const leaf = node(t, u32(t, F.H_NODE_COUNT) - 1); setU32(t, leaf + F.N_FIRST_CHILD, first); setChildCount(t, u32(t, F.H_NODE_COUNT) - 1, 1); void parent; return t; }, RangeError, /out of range|is a child of both/],
  ['an orphan node', (t) => { const { parent } = parentWithChildren(t); setChildCount(t, parent, childCount(t, parent) - 1); return t; }, RangeError, /node \d+ is not a child of any node/],
  ['children not sorted by first byte', (t) => {
    const { first } = parentWithChildren(t);
    const fb = u32(t, F.H_FIRST_BYTES_OFFSET);
    // Swap the first bytes and the label pointers of two siblings: each node stays self-consistent.
    const [a, b] = [node(t, first), node(t, first + 1)];
    const la = u32(t, a + F.N_LABEL_OFFSET), lb = u32(t, b + F.N_LABEL_OFFSET);
    const na = u32(t, a + F.N_LABEL_LENGTH), nb = u32(t, b + F.N_LABEL_LENGTH);
    setU32(t, a + F.N_LABEL_OFFSET, lb); setU32(t, a + F.N_LABEL_LENGTH, nb);
    setU32(t, b + F.N_LABEL_OFFSET, la); setU32(t, b + F.N_LABEL_LENGTH, na);
    [t[fb + first], t[fb + first + 1]] = [t[fb + first + 1]!, t[fb + first]!];
    return t;
  }, RangeError, /children of node \d+ are not sorted by distinct first bytes/],
  // Wildcard rules.
  ['unknown rule kind', (t) => (t[wildcard(t, 0) + F.W_KIND] = 7, t), RangeError, /wildcard rule 0 has unknown kind 7/],
  ['anchored flag 2', (t) => (t[wildcard(t, 1) + F.W_ANCHORED] = 2, t), RangeError, /wildcard rule 1 has anchored = 2/],
  ['reserved bytes set', (t) => (t[wildcard(t, 0) + F.W_ANCHORED + 1] = 1, t), RangeError, /wildcard rule 0 has non-zero reserved bytes/],
  ['segmentCount 0', (t) => (setU32(t, wildcard(t, 0) + F.W_SEGMENT_COUNT, 0), t), RangeError, /wildcard rule 0 has segmentCount 0/],
  ['segments out of range', (t) => (setU32(t, wildcard(t, 2) + F.W_FIRST_SEGMENT, u32(t, F.H_SEGMENT_COUNT)), t), RangeError, /wildcard rule 2 segments \[\d+, \d+\) out of range/],
  ['segment count past the table', (t) => (setU32(t, wildcard(t, 0) + F.W_SEGMENT_COUNT, 0xffffffff), t), RangeError, /wildcard rule 0 segments .* out of range/],
  ['priorities out of order', (t) => (setU32(t, wildcard(t, 2) + F.W_PRIORITY, 1000), t), RangeError, /wildcard rule 2 is out of order/],
  ['priority beyond i32', (t) => (setU32(t, wildcard(t, 0) + F.W_PRIORITY, 0x80000000), t), RangeError, /wildcard rule 0 priority 2147483648 exceeds/],
  // Segments and KMP failure links.
  ['segment bytes outside the pool', (t) => (setU32(t, segment(t, 0) + F.S_BYTES_OFFSET, 0), t), RangeError, /segment 0 bytes \[0, \d+\) is outside the pool/],
  ['segment length past the pool', (t) => (setU32(t, segment(t, 0) + F.S_LENGTH, 1 << 24), t), RangeError, /segment 0 bytes .* is outside the pool/],
  ['failure table outside the pool', (t) => (setU32(t, segment(t, 0) + F.S_FAIL_OFFSET, t.length), t), RangeError, /segment 0 failure table .* is outside the pool/],
  ['failure link that loops (link[k] = k + 1)', (t) => {
    const s = segmentWithLength(t, 4);
    const fail = u32(t, segment(t, s) + F.S_FAIL_OFFSET);
    setU32(t, fail + 3 * 4, 4);
    return t;
  }, RangeError, /segment \d+ failure link \[3\] = 4 exceeds 3/],
];

describe('corrupted tables are rejected with a named error', () => {
  it.each(corruptions)('%s', (_name, corrupt, error, message) => {
    const t = corrupt(table());
    expect(() => validateRuleTable(t)).toThrow(error);
    expect(() => validateRuleTable(t)).toThrow(message);
  });
  it('every single-byte flip of the header either passes or is rejected, never crashes', () => {
    // Flipping one header bit gives a table that is valid (e.g. a line number) or a RangeError.
    const base = table();
    for (let at = 0; at < F.HEADER_SIZE; at++) {
      for (let bit = 0; bit < 8; bit++) {
        const t = base.slice();
        flip(t, at, 1 << bit);
        try {
          validateRuleTable(t);
        } catch (e) {
          expect(e, `byte ${at} bit ${bit}`).toBeInstanceOf(RangeError);
        }
      }
    }
  });
  it('every single-byte flip anywhere is either accepted or a RangeError (no TypeError, no hang)', () => {
    const base = table();
    let rejected = 0;
    for (let at = 0; at < base.length; at++) {
      const t = base.slice();
      flip(t, at, 0xff);
      try {
        validateRuleTable(t);
      } catch (e) {
        expect(e, `byte ${at}`).toBeInstanceOf(RangeError);
        rejected++;
      }
    }
    // Flips of line numbers, ids and pool text bytes are legal; structure flips are not.
    expect(rejected).toBeGreaterThan(F.HEADER_SIZE / 2);
  });
});

describe('argument errors', () => {
  it.each([
    ['a number', 42, /rule table must be a Uint8Array, got number/],
    ['null', null, /got null/],
    ['an ArrayBuffer', new ArrayBuffer(64), /got object/],
    ['a plain array', [1, 2, 3], /got object/],
  ])('%s is a TypeError', (_name, value, message) => {
    expect(() => validateRuleTable(value as unknown as Uint8Array)).toThrow(TypeError);
    expect(() => validateRuleTable(value as unknown as Uint8Array)).toThrow(message);
  });
  it('a view of a detached buffer is a TypeError', () => {
    const t = table().slice();
    const detached = new Uint8Array(t.buffer);
    structuredClone(t.buffer, { transfer: [t.buffer] });
    expect(() => validateRuleTable(detached)).toThrow(TypeError);
    expect(() => validateRuleTable(detached)).toThrow(/detached/);
  });
});
