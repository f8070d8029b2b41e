// The RuleIndex: the per-table prefilter and walk records that assembly/match.ts reads, built by `indexTable`.
//
// The host only places it (src/table/abi.ts, RuleIndex); its layout is this file's own.

import { AUTOMATON_NONE, automatonBytesFor, automatonEnabled, automatonStateCount, buildAutomaton } from './wildcards';
import { rankInto } from './rank';
import { buildDfa, dfaBytesFor, dfaInfo, giveUpDfa, hasDfaRegion, stepDfa } from './dfa';
import {
  H_FIRST_BYTES_OFFSET, H_FLAGS, H_NODE_COUNT, H_POOL_LENGTH, H_SEGMENT_COUNT, H_NODES_OFFSET, H_SEGMENTS_OFFSET, H_WILDCARD_COUNT, H_WILDCARDS_OFFSET,
  NODE_SIZE, N_CHILD_COUNT, N_FIRST_CHILD, N_LABEL_LENGTH, N_LABEL_OFFSET, N_PREFIX_ALLOW, N_PREFIX_DISALLOW, N_ALLOW_EXTRA, N_DISALLOW_EXTRA,
  HEADER_SIZE, SEGMENT_SIZE, S_BYTES_OFFSET, S_LENGTH, WILDCARD_SIZE, W_ANCHORED, W_FIRST_SEGMENT, W_PRIORITY, W_SEGMENT_COUNT,
} from './table';

// RuleIndex: derived from a table by `indexTable`, kept next to it by the host (it is not
// part of the table format). The host sizes it with `indexBytesFor` (src/wasm/arena.ts).
//    0 u32 count          wildcard rules
//    4 u32 blockCount     ⌈count / 16⌉
//    8 u32 slashNode      the root's child when it is its only one and its label is "/" (as
//                         when every rule starts with '/'), else 0: where a walk starts
//   12 u16 singles        bit b set: class b is one byte; clear: a pair of adjacent bytes
//   14 u16 classCount     classes in use (0‥16)
//   16 u8[16] classFirst  the (first) byte of classes 0‥15 (class b is bit b of a rule's
//                         required set); 0 when unused
//   32 u8[16] classSecond the second byte of pair classes
//   48 v128 classLow[2]   nibble tables of the first bytes of classes 0‥7 and 8‥15: byte c
//   80 v128 classHigh[2]  can start class 8h + b when bit b is set in classHigh[h][c >> 4]
//                         and classLow[h][c & 15]
//  112 v128 secondLow[2]  likewise for the second byte of pair classes (single-byte classes
//  144 v128 secondHigh[2] have no bits here)
//  176 blocks[blockCount], BLOCK_SIZE bytes each, rules 16 × block … 16 × block + 15
//      (in table order, so priorities descend across blocks), one byte lane per rule:
//        0 v128 required[2] bits of classes 0‥7, then 8‥15, that the rule's pieces contain
//       32 v128 minLength   bytes of its pieces, capped at 254
//       48 v128 second      second byte of its first piece …
//       64 v128 secondAny   … or 0xff in this lane when the first piece is shorter than 2
//       80 v128 third       third byte of its first piece …
//       96 v128 thirdAny    … or 0xff when the first piece is shorter than 3
//      112 v128 last        last byte of an anchored rule's last piece …
//      128 v128 lastAny     … or 0xff when the rule is not anchored or the piece is empty
//      144 v128 penult      the byte before it …
//      160 v128 penultAny   … or 0xff when that piece is shorter than 2
//      176 i32 prios[16]    W_PRIORITY of each rule (lanes past `count`: -1)
//    … walk[nodeCount], WALK_SIZE bytes each (walk, reach and depth only for a table of at
//      most COMPACT_NODES nodes, hasWalkRecords; else none of the three, 0 bytes): for each
//      trie node, what a step of the walk needs first, so that the step's chain of dependent loads is parent record → child
//      record (the table's node, at the same index, is read beside it for the counts and
//      rule lines, off that chain):
//        0 v128 childBytes  first label byte of the node's first 16 children (0 past them)
//       16 u64 label        label bytes 1‥8, zero past the label (the first is in childBytes)
//       24 u32 labelLength  as N_LABEL_LENGTH
//       28 u32 firstChild   as N_FIRST_CHILD
//    … reach[nodeCount], REACH_SIZE bytes each: the best plain prefix rules on the way
//      from the root to the node (itself included), so the walk needs no bookkeeping:
//        0 i32 allowPrio    priority (depth + N_ALLOW_EXTRA) of the best prefix allow, -1: none
//        4 u32 allowLine    its N_PREFIX_ALLOW
//        8 i32 disallowPrio likewise for N_PREFIX_DISALLOW
//       12 u32 disallowLine
//    … depth[nodeCount], u32 each: path bytes from the root to the node (built with reach)
//    … at the next multiple of 16 (automatonOffset): one region of the larger of
//      automatonBytesFor bytes (0 without FLAG_WILDCARD_AUTOMATON) and dfaBytesFor bytes
//      (0 below DFA_TRIAL_RULES wildcard rules; past DFA_CAP only within AGENT_BYTES,
//      dfaCapFor). It holds the DFA (assembly/dfa.ts) when
//      the table gets one, else the wildcard automaton (assembly/wildcards.ts); a crowd's
//      region holds its DFA first and its automaton once the DFA gives up
//      (switchToAutomaton). Its first u32 tells which: see the two files. A lean
//      RuleIndex (`lean` 1, for a host short of room) has LEAN_REGION_BYTES there
//      instead, when the table would get a region at all:
//        0 u32 enabled      REGION_LEAN: neither a DFA nor an automaton; the table is
//                           matched rule by rule
//        4 u32 paths        paths judged so far, saturating (decide counts them: `leanCounter`), so
//                           that the host can place the table again with its region
//                           once it sees enough of them
//        … zeroes (the DFA's trial word among them: no trial)
export const I_HEADER: u32 = 176;
export const I_SLASH_NODE: u32 = 8;
export const I_SINGLES: u32 = 12;
export const I_CLASS_COUNT: u32 = 14;
export const I_CLASS_FIRST: u32 = 16;
export const I_CLASS_SECOND: u32 = 32;
export const I_CLASS_LOW: u32 = 48;
export const I_CLASS_HIGH: u32 = 80;
export const I_SECOND_LOW: u32 = 112;
export const I_SECOND_HIGH: u32 = 144;
export const BLOCK_SIZE: u32 = 240;
export const B_REQUIRED: u32 = 0;
export const B_MIN_LENGTH: u32 = 32;
export const B_SECOND: u32 = 48;
export const B_SECOND_ANY: u32 = 64;
export const B_THIRD: u32 = 80;
export const B_THIRD_ANY: u32 = 96;
export const B_LAST: u32 = 112;
export const B_LAST_ANY: u32 = 128;
export const B_PENULT: u32 = 144;
export const B_PENULT_ANY: u32 = 160;
export const B_PRIOS: u32 = 176;
export const WALK_SIZE: u32 = 32; // = NODE_SIZE: record i and table node i are found with the same offset
export const K_CHILD_BYTES: u32 = 0;
export const K_LABEL: u32 = 16;
export const K_LABEL_LENGTH: u32 = 24;
export const K_FIRST_CHILD: u32 = 28;
/** Label bytes after the first that a walk record holds. */
export const K_LABEL_BYTES: u32 = 8;
export const REACH_SIZE: u32 = 16;
export const R_ALLOW_PRIO: u32 = 0;
export const R_ALLOW_LINE: u32 = 4;
export const R_DISALLOW_PRIO: u32 = 8;
export const R_DISALLOW_LINE: u32 = 12;
export const CLASS_COUNT: u32 = 16;
/** Bytes of a lean RuleIndex's region (header): the DFA's words up to its trial's read as 0. */
export const LEAN_REGION_BYTES: u32 = 128;
/**
 * The `enabled` word of a lean region: neither DFA_ON (dfa.ts) nor the automaton's words
 * (wildcards.ts), nor 0, which would let a crowd build its automaton in a region this small.
 */
export const REGION_LEAN: u32 = 4;
const L_PATHS: u32 = 4;
export const MIN_LENGTH_CAP: u32 = 254;

/**
 * How rare byte c is in URL paths (higher: rarer), the class-byte choice's only prior.
 * Letters follow their rough frequency in English words; '/' and digits are everywhere;
 * query and escape punctuation is rare.
 */
function rarity(c: u32): u32 {
  if (c == 0x2f) return 0;                  // '/'
  if (c - 0x30 < 10) return 4;              // digits
  if (c - 0x61 < 26) return 10 + <u32>load<u8>(LETTER_RARITY + c - 0x61);
  if (c - 0x41 < 26) return 30;             // uppercase
  if (c == 0x2d) return 8;                  // '-'
  if (c == 0x2e) return 12;                 // '.'
  if (c == 0x5f) return 24;                 // '_'
  if (c == 0x3d) return 40;                 // '='
  if (c == 0x3f) return 44;                 // '?'
  if (c == 0x26) return 48;                 // '&'
  return 56;                                // '%', other punctuation, bytes ≥ 0x80
}

/** Rank of each letter a‥z from the most to the least common in English (e: 0 … q: 25). */
const LETTER_RARITY: usize = memory.data<u8>([
  1, 18, 9, 10, 0, 17, 15, 14, 4, 24, 20, 8, 12, 5, 3, 11, 25, 7, 6, 2, 13, 19, 16, 22, 21, 23,
]);

/** Blocks of 16 rules in the RuleIndex of `count` rules. */
@inline export function blockCount(count: u32): u32 {
  return (count + 15) >> 4;
}

/** Offset of walk[] in a RuleIndex of `blocks` blocks. */
@inline export function walkOffset(blocks: u32): u32 {
  return I_HEADER + blocks * BLOCK_SIZE;
}

/**
 * Most trie nodes a table can have and still get walk, reach and depth records (52 bytes a
 * node, so at most 425,984 bytes); a larger table is walked through its own NODE records
 * (assembly/trie-walk.ts) and its RuleIndex has no per-node part. The records make a walk
 * 5–15% faster on the corpus's files of 1,000 to 7,000 nodes, and not at all on its one
 * file past 8,192 (25,459 nodes, whose records outgrow the caches); docs/PERFORMANCE.md,
 * "Memory per agent".
 */
export const COMPACT_NODES: u32 = 8192;

/** Whether a table of `nodeCount` trie nodes gets walk, reach and depth records. */
@inline export function hasWalkRecords(nodeCount: u32): bool {
  return nodeCount <= COMPACT_NODES;
}

/** Offset of the wildcard automaton's region (assembly/wildcards.ts) in a RuleIndex. */
@inline export function automatonOffset(blocks: u32, nodeCount: u32): u32 {
  return (walkOffset(blocks) + select<u32>(nodeCount * (WALK_SIZE + REACH_SIZE + 4), 0, hasWalkRecords(nodeCount)) + 15) & ~15;
}

/** The address of the wildcard region (the DFA or the automaton) of `table`'s RuleIndex at `index`. */
@inline export function wildcardRegion(table: usize, index: usize): usize {
  return index + automatonOffset(load<u32>(index, 4), load<u32>(table, H_NODE_COUNT));
}

/**
 * The region of `table`'s RuleIndex at `index` when it holds a DFA (dfa.ts), else 0: the
 * table has no DFA region, or it is a crowd's region that took its automaton.
 */
@inline function dfaRegion(table: usize, index: usize): usize {
  if (!hasDfaRegion(load<u32>(table, H_WILDCARD_COUNT))) return 0;
  const region = wildcardRegion(table, index);
  const word = load<u32>(region);
  return automatonEnabled(region) || word == AUTOMATON_NONE || word == REGION_LEAN ? 0 : region;
}

/**
 * Counts a path judged rule by rule against a table whose region is `region` (any table
 * with hasDfaRegion), when that region is lean; else nothing.
 */
@inline export function noteLean(region: usize): void {
  if (load<u32>(region) != REGION_LEAN) return;
  // Saturating: a count that wrapped would read as too few paths.
  const paths = load<u32>(region, L_PATHS);
  store<u32>(region, paths + <u32>(paths != u32.MAX_VALUE), L_PATHS);
}

/**
 * The address of the paths counter of `table`'s RuleIndex at `index` when that index is
 * lean (a u32 the host reads to decide when to place the table with its region), else 0.
 */
export function leanCounter(table: usize, index: usize): usize {
  if (!hasDfaRegion(load<u32>(table, H_WILDCARD_COUNT))) return 0;
  const region = wildcardRegion(table, index);
  return load<u32>(region) == REGION_LEAN ? region + L_PATHS : 0;
}

/**
 * Bytes a compiled agent may take, its table and RuleIndex together (issue #18's bound):
 * a DFA region larger than DFA_CAP (dfa.ts) is given only within it.
 */
export const AGENT_BYTES: u32 = 1 << 20;

/**
 * The most bytes a DFA region may take beside a table with these header fields: what
 * AGENT_BYTES leaves after the table (as format.ts lays it out) and the RuleIndex before its
 * region, in whole KiB, and never less than DFA_CAP (dfaBytesFor), the bound of every
 * table. A DFA that outgrows DFA_CAP's cache flushes and may end in its slower step mode
 * (pornhub.com's 91 wildcard rules: 0.69–0.70× the cost of a 768 KiB region at 960 KiB).
 */
function dfaCapFor(wildcardCount: u32, nodeCount: u32, segmentCount: u32, poolLength: u32): u32 {
  // (u64: header fields near 2^32 must not wrap into a small table.)
  const nodes = (<u64>HEADER_SIZE + <u64>nodeCount * (NODE_SIZE + 1) + 3) & ~(<u64>3);
  const table = nodes + <u64>wildcardCount * WILDCARD_SIZE + <u64>segmentCount * SEGMENT_SIZE + poolLength;
  const used = table + automatonOffset(blockCount(wildcardCount), nodeCount);
  return used >= <u64>AGENT_BYTES ? 0 : (AGENT_BYTES - <u32>used) & ~1023;
}

/** Bytes of the DFA region of a table with these header fields: dfaBytesFor within dfaCapFor's budget (0: none). */
function dfaRegionBytes(flags: u32, wildcardCount: u32, nodeCount: u32, segmentCount: u32, poolLength: u32): u32 {
  return dfaBytesFor(flags, wildcardCount, nodeCount, dfaCapFor(wildcardCount, nodeCount, segmentCount, poolLength));
}

/**
 * Bytes of the RuleIndex of a table with these header fields (flags, wildcard rules, trie
 * nodes, segments, pool bytes); with `lean` 1, of its lean RuleIndex (header), which is
 * smaller exactly when the table gets a region.
 */
export function indexBytesFor(flags: u32, wildcardCount: u32, nodeCount: u32, segmentCount: u32, poolLength: u32, lean: u32): u32 {
  // One region at automatonOffset, holding the Aho–Corasick automaton or the DFA, one at a time.
  const region = max(automatonBytesFor(flags, wildcardCount, segmentCount, poolLength), dfaRegionBytes(flags, wildcardCount, nodeCount, segmentCount, poolLength));
  return automatonOffset(blockCount(wildcardCount), nodeCount) + (lean != 0 && region != 0 ? LEAN_REGION_BYTES : region);
}

/** Bytes `indexTable` writes for `table` (`lean` as indexBytesFor's). */
export function indexBytes(table: usize, lean: u32): u32 {
  return indexBytesFor(<u32>load<u16>(table, H_FLAGS), load<u32>(table, H_WILDCARD_COUNT), load<u32>(table, H_NODE_COUNT), load<u32>(table, H_SEGMENT_COUNT), load<u32>(table, H_POOL_LENGTH), lean);
}

/**
 * A class as `classKey` spells it: the first byte, the second byte << 8, or SINGLE for a
 * one-byte class.
 */
const SINGLE: u32 = 1 << 16;

/** Whether class b of `index` is one byte (else a pair). */
@inline function isSingle(index: usize, b: u32): bool {
  return ((<u32>load<u16>(index, I_SINGLES) >> b) & 1) != 0;
}

/** The key of class b of `index`. */
@inline function classKey(index: usize, b: u32): u32 {
  const first = <u32>load<u8>(index + I_CLASS_FIRST + b);
  return isSingle(index, b) ? first | SINGLE : first | (<u32>load<u8>(index + I_CLASS_SECOND + b) << 8);
}

/**
 * Whether byte k of a piece of m bytes proves that a path the rule matches holds class
 * `key`: a one-byte class of that byte, or the pair that byte starts when the piece goes
 * on past it (a pair across a `*` proves nothing).
 */
@inline function holds(key: u32, bytes: usize, k: u32, m: u32): bool {
  if ((key & 0xff) != <u32>load<u8>(bytes + k)) return false;
  return (key & SINGLE) != 0 || (k + 1 < m && (key >> 8) == <u32>load<u8>(bytes + k + 1));
}

/** Class bits (of the first `classCount` classes in `index`) that the pieces of `rule` hold. */
function ruleClasses(table: usize, index: usize, rule: usize, classCount: u32): u32 {
  const segs = table + load<u32>(table, H_SEGMENTS_OFFSET) + <usize>load<u32>(rule, W_FIRST_SEGMENT) * SEGMENT_SIZE;
  const pieces = load<u32>(rule, W_SEGMENT_COUNT);
  let bits: u32 = 0;
  for (let b: u32 = 0; b < classCount; b++) {
    const key = classKey(index, b);
    for (let s: u32 = 0; s < pieces && (bits & (1 << b)) == 0; s++) {
      const seg = segs + <usize>s * SEGMENT_SIZE;
      const bytes = table + load<u32>(seg, S_BYTES_OFFSET);
      const m = load<u32>(seg, S_LENGTH);
      for (let k: u32 = 0; k < m; k++) if (holds(key, bytes, k, m)) { bits |= 1 << b; break; }
    }
  }
  return bits;
}

/**
 * The rarest class of `rule` not yet among the first `classCount`, as a key, or -1. With
 * `pairs`, a pair of adjacent bytes of one piece (rarer than either byte) or a one-byte
 * piece's byte; else one byte. A pair's rarity is the sum of its bytes' (a sum of ranks,
 * as of log-frequencies).
 */
function rarestNewClass(table: usize, index: usize, rule: usize, classCount: u32, pairs: bool): i32 {
  const segs = table + load<u32>(table, H_SEGMENTS_OFFSET) + <usize>load<u32>(rule, W_FIRST_SEGMENT) * SEGMENT_SIZE;
  const pieces = load<u32>(rule, W_SEGMENT_COUNT);
  let best: i32 = -1;
  let bestRarity: u32 = 0;
  for (let s: u32 = 0; s < pieces; s++) {
    const seg = segs + <usize>s * SEGMENT_SIZE;
    const bytes = table + load<u32>(seg, S_BYTES_OFFSET);
    const m = load<u32>(seg, S_LENGTH);
    const pair = pairs && m >= 2;
    const starts = pair ? m - 1 : m;
    for (let k: u32 = 0; k < starts; k++) {
      const c = <u32>load<u8>(bytes + k);
      const key = pair ? c | (<u32>load<u8>(bytes + k + 1) << 8) : c | SINGLE;
      const r = pair ? rarity(c) + rarity(key >> 8) : rarity(c);
      if (best >= 0 && r <= bestRarity) continue;
      let known = false;
      for (let b: u32 = 0; b < classCount; b++) if (classKey(index, b) == key) known = true;
      if (!known) { best = <i32>key; bestRarity = r; }
    }
  }
  return best;
}

/**
 * Builds the RuleIndex of `table` at `index`, lean (`lean` 1: no DFA or automaton, header)
 * or not: O(total pattern bytes × CLASS_COUNT). Classes are chosen greedily in priority
 * order: in round k, every rule holding fewer than k of the classes adds its rarest other
 * one, until 16 are chosen.
 */
export function indexTable(table: usize, index: usize, lean: u32): void {
  const count = load<u32>(table, H_WILDCARD_COUNT);
  const blocks = blockCount(count);
  const wild = table + load<u32>(table, H_WILDCARDS_OFFSET);
  const segments = table + load<u32>(table, H_SEGMENTS_OFFSET);
  const bytes = indexBytes(table, lean);
  memory.fill(index, 0, bytes);
  store<u32>(index, count);
  store<u32>(index, blocks, 4);

  let classCount: u32 = 0;
  for (let round: u32 = 1; round <= 3 && classCount < CLASS_COUNT; round++) {
    for (let i: u32 = 0; i < count && classCount < CLASS_COUNT; i++) {
      const rule = wild + <usize>i * WILDCARD_SIZE;
      if (<u32>popcnt(ruleClasses(table, index, rule, classCount)) >= round) continue;
      // A pair rarely serves another rule, a rare byte often does: pairs only while every
      // rule left could still get a class of its own.
      const key = rarestNewClass(table, index, rule, classCount, count - i <= CLASS_COUNT - classCount);
      if (key < 0) continue;
      store<u8>(index + I_CLASS_FIRST + classCount, <u8>key);
      if ((<u32>key & SINGLE) != 0) store<u16>(index, <u32>load<u16>(index, I_SINGLES) | (<u32>1 << classCount), I_SINGLES);
      else store<u8>(index + I_CLASS_SECOND + classCount, <u8>(key >> 8));
      classCount++;
    }
  }
  store<u16>(index, classCount, I_CLASS_COUNT);
  for (let b: u32 = 0; b < classCount; b++) {
    const group = <usize>(b >> 3) << 4;
    const bit = <u32>1 << (b & 7);
    setNibbles(index + I_CLASS_LOW + group, index + I_CLASS_HIGH + group, load<u8>(index + I_CLASS_FIRST + b), bit);
    if (!isSingle(index, b)) {
      setNibbles(index + I_SECOND_LOW + group, index + I_SECOND_HIGH + group, load<u8>(index + I_CLASS_SECOND + b), bit);
    }
  }

  for (let i: u32 = 0; i < blocks * 16; i++) {
    const block = index + I_HEADER + <usize>(i >> 4) * BLOCK_SIZE;
    const lane = <usize>(i & 15);
    if (i >= count) {
      store<i32>(block + B_PRIOS + (lane << 2), -1);
      continue;
    }
    const rule = wild + <usize>i * WILDCARD_SIZE;
    const segs = segments + <usize>load<u32>(rule, W_FIRST_SEGMENT) * SEGMENT_SIZE;
    const pieces = load<u32>(rule, W_SEGMENT_COUNT);
    let total: u32 = 0;
    for (let s: u32 = 0; s < pieces; s++) total += load<u32>(segs + <usize>s * SEGMENT_SIZE, S_LENGTH);
    const required = ruleClasses(table, index, rule, classCount);
    store<u8>(block + B_REQUIRED + lane, <u8>required);
    store<u8>(block + B_REQUIRED + 16 + lane, <u8>(required >> 8));
    store<u8>(block + B_MIN_LENGTH + lane, <u8>min<u32>(total, MIN_LENGTH_CAP));
    const firstBytes = table + load<u32>(segs, S_BYTES_OFFSET);
    const firstLen = load<u32>(segs, S_LENGTH);
    if (firstLen >= 2) store<u8>(block + B_SECOND + lane, load<u8>(firstBytes, 1));
    else store<u8>(block + B_SECOND_ANY + lane, 0xff);
    if (firstLen >= 3) store<u8>(block + B_THIRD + lane, load<u8>(firstBytes, 2));
    else store<u8>(block + B_THIRD_ANY + lane, 0xff);
    const last = segs + <usize>(pieces - 1) * SEGMENT_SIZE;
    const lastEnd = table + load<u32>(last, S_BYTES_OFFSET) + load<u32>(last, S_LENGTH);
    const anchoredLen = load<u8>(rule, W_ANCHORED) != 0 ? load<u32>(last, S_LENGTH) : 0;
    if (anchoredLen >= 1) store<u8>(block + B_LAST + lane, load<u8>(lastEnd - 1));
    else store<u8>(block + B_LAST_ANY + lane, 0xff);
    if (anchoredLen >= 2) store<u8>(block + B_PENULT + lane, load<u8>(lastEnd - 2));
    else store<u8>(block + B_PENULT_ANY + lane, 0xff);
    store<i32>(block + B_PRIOS + (lane << 2), <i32>load<u32>(rule, W_PRIORITY));
  }

  const nodeCount = load<u32>(table, H_NODE_COUNT);
  const nodes = table + load<u32>(table, H_NODES_OFFSET);
  const firstBytes = table + load<u32>(table, H_FIRST_BYTES_OFFSET);
  const walk = index + walkOffset(blocks);
  const records = hasWalkRecords(nodeCount);
  for (let i: u32 = 0; records && i < nodeCount; i++) {
    const node = nodes + <usize>i * NODE_SIZE;
    const record = walk + <usize>i * WALK_SIZE;
    const firstChild = load<u32>(node, N_FIRST_CHILD);
    const childCount = <u32>load<u16>(node, N_CHILD_COUNT);
    const labelLength = load<u32>(node, N_LABEL_LENGTH);
    const labelOffset = load<u32>(node, N_LABEL_OFFSET);
    memory.copy(record + K_CHILD_BYTES, firstBytes + firstChild, min<u32>(childCount, 16));
    if (labelLength > 1) memory.copy(record + K_LABEL, table + labelOffset + 1, min<u32>(labelLength - 1, K_LABEL_BYTES));
    store<u32>(record, labelLength, K_LABEL_LENGTH);
    store<u32>(record, firstChild, K_FIRST_CHILD);
  }

  if (nodeCount > 1 && <u32>load<u16>(nodes, N_CHILD_COUNT) == 1) {
    const only = load<u32>(nodes, N_FIRST_CHILD);
    const child = nodes + <usize>only * NODE_SIZE;
    if (load<u32>(child, N_LABEL_LENGTH) == 1 && load<u8>(table + load<u32>(child, N_LABEL_OFFSET)) == 0x2f) store<u32>(index, only, I_SLASH_NODE);
  }

  // Children come after their parent (validate.ts), so one forward pass sees every
  // parent's reach and depth before its children's.
  const reach = walk + <usize>nodeCount * WALK_SIZE;
  const depth = reach + <usize>nodeCount * REACH_SIZE;
  for (let i: u32 = 0; records && i < nodeCount; i++) {
    const node = nodes + <usize>i * NODE_SIZE;
    const mine = reach + <usize>i * REACH_SIZE;
    let d: u32 = 0;
    if (i == 0) {
      store<i32>(mine, -1, R_ALLOW_PRIO);
      store<i32>(mine, -1, R_DISALLOW_PRIO);
    } else {
      d = load<u32>(depth + (<usize>i << 2));
    }
    // A prefix rule's priority is its depth plus its extra (format.ts): an ancestor's rule
    // with trailing `*`s may still outrank this node's.
    let line = load<u32>(node, N_PREFIX_ALLOW);
    if (line != 0) rankInto(mine + R_ALLOW_PRIO, <i32>(d + <u32>load<u8>(node, N_ALLOW_EXTRA)), line);
    line = load<u32>(node, N_PREFIX_DISALLOW);
    if (line != 0) rankInto(mine + R_DISALLOW_PRIO, <i32>(d + <u32>load<u8>(node, N_DISALLOW_EXTRA)), line);
    const firstChild = load<u32>(node, N_FIRST_CHILD);
    const childCount = <u32>load<u16>(node, N_CHILD_COUNT);
    for (let k: u32 = 0; k < childCount; k++) {
      const child = firstChild + k;
      memory.copy(reach + <usize>child * REACH_SIZE, mine, REACH_SIZE);
      store<u32>(depth + (<usize>child << 2), d + load<u32>(nodes + <usize>child * NODE_SIZE, N_LABEL_LENGTH));
    }
  }

  // The wildcard automaton or the DFA, when the table gets one (a lean index: a mark).
  const region = automatonOffset(blocks, nodeCount);
  const dfaBytes = dfaRegionBytes(<u32>load<u16>(table, H_FLAGS), count, nodeCount, load<u32>(table, H_SEGMENT_COUNT), load<u32>(table, H_POOL_LENGTH));
  if (lean != 0 && bytes - region == LEAN_REGION_BYTES) store<u32>(index + region, REGION_LEAN);
  else if (dfaBytes != 0) buildDfa(table, index + region, dfaBytes);
  else if (automatonBytesFor(<u32>load<u16>(table, H_FLAGS), count, load<u32>(table, H_SEGMENT_COUNT), load<u32>(table, H_POOL_LENGTH)) != 0) {
    switchToAutomaton(table, index, index + region);
  }
}

/**
 * Builds the wildcard automaton of a crowd (FLAG_WILDCARD_AUTOMATON) into its region
 * (`region`, automatonOffset from `index`): at indexTable for a crowd that gets no DFA,
 * else once its DFA gave up or never got enabled, over what the DFA held. True when it is
 * built; otherwise the region is marked AUTOMATON_NONE, so that no path tries again, and
 * the table is matched rule by rule from then on. Called once per table: the region then
 * holds one or the other for good. O(region bytes + piece bytes × (256 + classes)).
 */
export function switchToAutomaton(table: usize, index: usize, region: usize): bool {
  const bytes = indexBytes(table, 0) - <u32>(region - index);
  memory.fill(region, 0, bytes);
  buildAutomaton(table, region, bytes);
  if (automatonEnabled(region)) return true;
  store<u32>(region, AUTOMATON_NONE);
  return false;
}

/** Sets `bit` for byte c in the nibble tables at `low` and `high`. */
@inline function setNibbles(low: usize, high: usize, c: u32, bit: u32): void {
  store<u8>(low + (c & 15), <u32>load<u8>(low + (c & 15)) | bit);
  store<u8>(high + (c >> 4), <u32>load<u8>(high + (c >> 4)) | bit);
}

/**
 * States of the wildcard automaton that `indexTable` (or, for a crowd, `switchToAutomaton`)
 * built for `table` at `index`, 0 when the table has none (no FLAG_WILDCARD_AUTOMATON, a
 * crowd still on its DFA, or it did not fit; see wildcards.ts).
 */
export function automatonStates(table: usize, index: usize): u32 {
  if (automatonBytesFor(<u32>load<u16>(table, H_FLAGS), load<u32>(table, H_WILDCARD_COUNT), load<u32>(table, H_SEGMENT_COUNT), load<u32>(table, H_POOL_LENGTH)) == 0) return 0;
  return automatonStateCount(wildcardRegion(table, index));
}

/**
 * The DFA of `table`'s RuleIndex at `index` (dfa.ts): its cached states (`what` 0), its
 * flushes (1), whether it is in use (2), the paths its trial's window still counts (3),
 * the rule matches counted in it (4), its mode (5: 0 the bests carried in states, 1 a
 * step's matches), the plain rules it took in (6), its region's bytes (7) and the LOOPS
 * records in its cache (8: the LOOP positions its states share); 0 when the table has none.
 */
export function dfaStatus(table: usize, index: usize, what: u32): u32 {
  const region = dfaRegion(table, index);
  return region == 0 ? 0 : dfaInfo(region, what);
}

/**
 * Gives up the DFA of `table`'s RuleIndex at `index` now, as a cache that keeps filling
 * does (a diagnostic for tests: a crowd then takes its automaton at its next path).
 */
export function dropDfa(table: usize, index: usize): void {
  const region = dfaRegion(table, index);
  if (region != 0) giveUpDfa(region);
}

/**
 * Empties the DFA cache of `table`'s RuleIndex at `index` and turns it to MODE_STEP, as its
 * first flush does (a diagnostic for tests: both modes give the same verdicts).
 */
export function dfaStepMode(table: usize, index: usize): void {
  const region = dfaRegion(table, index);
  if (region != 0) stepDfa(region);
}
