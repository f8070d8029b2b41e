// The linear-time matcher: one rule table (table.ts layout) against one prepared path.
//
// Why linear: plain rules sit in a radix trie that is walked once, each path byte
// compared at most once (pos only grows). A wildcard rule `s0*s1*…*sk[$]` is matched
// greedily: s0 must be a prefix, each middle piece is found at its leftmost occurrence
// after the previous one (SIMD filter with a KMP fallback, O(bytes scanned + piece
// length); the scans of successive pieces cover disjoint stretches of the path), and the
// last piece is either found the same way or, when anchored, compared against the path's
// end. Leftmost placement is always safe for `*`-only globs: any match can be shifted
// left to it. So a table with W wildcard rules costs O(L + W·L + total pattern bytes)
// per path of L bytes, never the O(L·P) of robots.cc's position-set matcher, and
// nothing backtracks.
//
// Why fast: a per-table RuleIndex (built once by `indexTable`, kept next to the table)
// adds a 32-byte record per trie node (its children's first bytes, its first label
// bytes), so that a step of the walk is one dependent load from the parent's record to
// the child's, plus a 16-byte reach record holding the best prefix rules on the way to
// the node, so that the walk loop keeps no bookkeeping, and turns each wildcard rule into
// necessary conditions laid out so that 16 rules are tested in a handful of vector
// operations: its pieces contain certain "classes" (16 per table, the rarest its rules
// contain: pairs of adjacent bytes, or single bytes when the table has more rules than
// classes, since a byte is shared between rules far more often than a pair), the path is
// at least as long as its pieces, the path's second and third bytes are its first
// piece's, and an anchored rule's last two bytes end the path. One pass over the path
// builds its class set (nibble-table lookups of each byte and of the byte after it, per
// 16 bytes). Only the rules passing them all are matched for real: 0.26 per URL on the
// bench's 100-rule file (0.75 with byte classes only), and on the corpus's real URLs
// 0.34 rules per URL that then fail to match (0.46 with byte classes only).

import { equalBytes, lanesBelow } from './scan';
import {
  H_FIRST_BYTES_OFFSET, H_NODE_COUNT, H_NODES_OFFSET, H_SEGMENTS_OFFSET, H_WILDCARD_COUNT, H_WILDCARDS_OFFSET,
  KIND_ALLOW, NODE_SIZE, N_CHILD_COUNT, N_EXACT_ALLOW, N_EXACT_DISALLOW, N_FIRST_CHILD,
  N_LABEL_LENGTH, N_LABEL_OFFSET, N_PREFIX_ALLOW, N_PREFIX_DISALLOW, SEGMENT_SIZE, S_BYTES_OFFSET,
  S_FAIL_OFFSET, S_LENGTH, WILDCARD_SIZE, W_ANCHORED, W_FIRST_SEGMENT, W_ID, W_KIND, W_LINE,
  W_PRIORITY, W_SEGMENT_COUNT,
} from './table';

/** Line of the rule that decided the last `decide` call (0 = none). */
export let decidedLine: u32 = 0;

// RuleIndex: derived from a table by `indexTable`, kept next to it by the host (it is not
// part of the table format). src/wasm.ts sizes it with `indexBytesFor`.
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
//    … walk[nodeCount], WALK_SIZE bytes each: for each trie node, what a step of the walk
//      needs first, so that the step's chain of dependent loads is parent record → child
//      record (the table's node, at the same index, is read beside it for the counts and
//      rule lines, off that chain):
//        0 v128 childBytes  first label byte of the node's first 16 children (0 past them)
//       16 u64 label        label bytes 1‥8, zero past the label (the first is in childBytes)
//       24 u32 labelLength  as N_LABEL_LENGTH
//       28 u32 firstChild   as N_FIRST_CHILD
//    … reach[nodeCount], REACH_SIZE bytes each: the best plain prefix rules on the way
//      from the root to the node (itself included), so the walk needs no bookkeeping:
//        0 i32 allowPrio    depth (path bytes) of the deepest node with a prefix allow, -1: none
//        4 u32 allowLine    its N_PREFIX_ALLOW
//        8 i32 disallowPrio likewise for N_PREFIX_DISALLOW
//       12 u32 disallowLine
//    … depth[nodeCount], u32 each: path bytes from the root to the node (built with reach)
const I_HEADER: u32 = 176;
const I_SLASH_NODE: u32 = 8;
const I_SINGLES: u32 = 12;
const I_CLASS_COUNT: u32 = 14;
const I_CLASS_FIRST: u32 = 16;
const I_CLASS_SECOND: u32 = 32;
const I_CLASS_LOW: u32 = 48;
const I_CLASS_HIGH: u32 = 80;
const I_SECOND_LOW: u32 = 112;
const I_SECOND_HIGH: u32 = 144;
const BLOCK_SIZE: u32 = 240;
const B_REQUIRED: u32 = 0;
const B_MIN_LENGTH: u32 = 32;
const B_SECOND: u32 = 48;
const B_SECOND_ANY: u32 = 64;
const B_THIRD: u32 = 80;
const B_THIRD_ANY: u32 = 96;
const B_LAST: u32 = 112;
const B_LAST_ANY: u32 = 128;
const B_PENULT: u32 = 144;
const B_PENULT_ANY: u32 = 160;
const B_PRIOS: u32 = 176;
const WALK_SIZE: u32 = 32; // = NODE_SIZE: record i and table node i are found with the same offset
const K_CHILD_BYTES: u32 = 0;
const K_LABEL: u32 = 16;
const K_LABEL_LENGTH: u32 = 24;
const K_FIRST_CHILD: u32 = 28;
/** Label bytes after the first that a walk record holds. */
const K_LABEL_BYTES: u32 = 8;
const REACH_SIZE: u32 = 16;
const R_ALLOW_PRIO: u32 = 0;
const R_ALLOW_LINE: u32 = 4;
const R_DISALLOW_PRIO: u32 = 8;
const R_DISALLOW_LINE: u32 = 12;
const CLASS_COUNT: u32 = 16;
const MIN_LENGTH_CAP: u32 = 254;

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

/** 0xff in lanes i < n (n ≤ 16) and 0 after: TAIL_MASKS + 16 − n holds that vector. */
const TAIL_MASKS: usize = memory.data<u8>([
  255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
]);

/**
 * The classes found in p[0, n): class b when its byte occurs, or, for a pair class, its two
 * bytes occur next to each other. Each 16-byte step looks up the nibbles of every lane
 * (which classes it can start) and of the lane after it (which pairs it can end), per
 * group of 8 classes, and ORs the lanes into an accumulator; lanes past `n` are masked,
 * and so is a pair's second byte past `n`. Reads up to 16 bytes past p + n. With `both`
 * false, only classes 0‥7 (the only ones of a table with at most 8).
 */
@inline function classSet(index: usize, p: usize, n: u32, both: bool): u32 {
  const low0 = v128.load(index, I_CLASS_LOW);
  const high0 = v128.load(index, I_CLASS_HIGH);
  const low1 = v128.load(index, I_CLASS_LOW + 16);
  const high1 = v128.load(index, I_CLASS_HIGH + 16);
  const secondLow0 = v128.load(index, I_SECOND_LOW);
  const secondHigh0 = v128.load(index, I_SECOND_HIGH);
  const secondLow1 = v128.load(index, I_SECOND_LOW + 16);
  const secondHigh1 = v128.load(index, I_SECOND_HIGH + 16);
  const singles0 = i8x16.splat(load<u8>(index, I_SINGLES));
  const singles1 = i8x16.splat(load<u8>(index, I_SINGLES + 1));
  const nibble = i8x16.splat(15);
  let acc0 = i8x16.splat(0);
  let acc1 = i8x16.splat(0);
  // Invariant: acc0, acc1 hold the classes of p[0, i) (a pair counted where it starts). ⌈n / 16⌉ steps.
  for (let i: u32 = 0; i < n; i += 16) {
    const v = v128.load(p + i);
    const w = v128.load(p + i + 1);
    const hi = i8x16.shr_u(v, 4);
    const lo = v128.and(v, nibble);
    const hi2 = i8x16.shr_u(w, 4);
    const lo2 = v128.and(w, nibble);
    const tail = v128.load(TAIL_MASKS + 16 - min<u32>(16, n - i));
    const tail2 = v128.load(TAIL_MASKS + 16 - min<u32>(16, n - i - 1));
    const ends0 = v128.or(v128.and(v128.and(i8x16.swizzle(secondHigh0, hi2), i8x16.swizzle(secondLow0, lo2)), tail2), singles0);
    acc0 = v128.or(acc0, v128.and(v128.and(v128.and(i8x16.swizzle(high0, hi), i8x16.swizzle(low0, lo)), ends0), tail));
    if (both) {
      const ends1 = v128.or(v128.and(v128.and(i8x16.swizzle(secondHigh1, hi2), i8x16.swizzle(secondLow1, lo2)), tail2), singles1);
      acc1 = v128.or(acc1, v128.and(v128.and(v128.and(i8x16.swizzle(high1, hi), i8x16.swizzle(low1, lo)), ends1), tail));
    }
  }
  return both ? orBytes(acc0) | (orBytes(acc1) << 8) : orBytes(acc0);
}

/** The OR of the 16 bytes of `v`. */
@inline function orBytes(v: v128): u32 {
  let x = i64x2.extract_lane(v, 0) | i64x2.extract_lane(v, 1);
  x |= x >> 32;
  x |= x >> 16;
  x |= x >> 8;
  return <u32>x & 0xff;
}

/** Blocks of 16 rules in the RuleIndex of `count` rules. */
@inline function blockCount(count: u32): u32 {
  return (count + 15) >> 4;
}

/** Offset of walk[] in a RuleIndex of `blocks` blocks. */
@inline function walkOffset(blocks: u32): u32 {
  return I_HEADER + blocks * BLOCK_SIZE;
}

/** Bytes of the RuleIndex of a table with `wildcardCount` wildcard rules and `nodeCount` trie nodes. */
export function indexBytesFor(wildcardCount: u32, nodeCount: u32): u32 {
  return walkOffset(blockCount(wildcardCount)) + nodeCount * (WALK_SIZE + REACH_SIZE + 4);
}

/** Bytes `indexTable` writes for `table`. */
export function indexBytes(table: usize): u32 {
  return indexBytesFor(load<u32>(table, H_WILDCARD_COUNT), load<u32>(table, H_NODE_COUNT));
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
 * Builds the RuleIndex of `table` at `index`: O(total pattern bytes × CLASS_COUNT).
 * Classes are chosen greedily in priority order: in round k, every rule holding fewer
 * than k of the classes adds its rarest other one, until 16 are chosen.
 */
export function indexTable(table: usize, index: usize): void {
  const count = load<u32>(table, H_WILDCARD_COUNT);
  const blocks = blockCount(count);
  const wild = table + load<u32>(table, H_WILDCARDS_OFFSET);
  const segments = table + load<u32>(table, H_SEGMENTS_OFFSET);
  memory.fill(index, 0, indexBytes(table));
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
  for (let i: u32 = 0; i < nodeCount; i++) {
    const node = nodes + <usize>i * NODE_SIZE;
    const record = walk + <usize>i * WALK_SIZE;
    const firstChild = load<u32>(node, N_FIRST_CHILD);
    const childCount = load<u32>(node, N_CHILD_COUNT);
    const labelLength = load<u32>(node, N_LABEL_LENGTH);
    const labelOffset = load<u32>(node, N_LABEL_OFFSET);
    memory.copy(record + K_CHILD_BYTES, firstBytes + firstChild, min<u32>(childCount, 16));
    if (labelLength > 1) memory.copy(record + K_LABEL, table + labelOffset + 1, min<u32>(labelLength - 1, K_LABEL_BYTES));
    store<u32>(record, labelLength, K_LABEL_LENGTH);
    store<u32>(record, firstChild, K_FIRST_CHILD);
  }

  if (nodeCount > 1 && load<u32>(nodes, N_CHILD_COUNT) == 1) {
    const only = load<u32>(nodes, N_FIRST_CHILD);
    const child = nodes + <usize>only * NODE_SIZE;
    if (load<u32>(child, N_LABEL_LENGTH) == 1 && load<u8>(table + load<u32>(child, N_LABEL_OFFSET)) == 0x2f) store<u32>(index, only, I_SLASH_NODE);
  }

  // Children come after their parent (validate.ts), so one forward pass sees every
  // parent's reach and depth before its children's.
  const reach = walk + <usize>nodeCount * WALK_SIZE;
  const depth = reach + <usize>nodeCount * REACH_SIZE;
  for (let i: u32 = 0; i < nodeCount; i++) {
    const node = nodes + <usize>i * NODE_SIZE;
    const mine = reach + <usize>i * REACH_SIZE;
    let d: u32 = 0;
    if (i == 0) {
      store<i32>(mine, -1, R_ALLOW_PRIO);
      store<i32>(mine, -1, R_DISALLOW_PRIO);
    } else {
      d = load<u32>(depth + (<usize>i << 2));
    }
    let line = load<u32>(node, N_PREFIX_ALLOW);
    if (line != 0) { store<i32>(mine, <i32>d, R_ALLOW_PRIO); store<u32>(mine, line, R_ALLOW_LINE); }
    line = load<u32>(node, N_PREFIX_DISALLOW);
    if (line != 0) { store<i32>(mine, <i32>d, R_DISALLOW_PRIO); store<u32>(mine, line, R_DISALLOW_LINE); }
    const firstChild = load<u32>(node, N_FIRST_CHILD);
    const childCount = load<u32>(node, N_CHILD_COUNT);
    for (let k: u32 = 0; k < childCount; k++) {
      const child = firstChild + k;
      memory.copy(reach + <usize>child * REACH_SIZE, mine, REACH_SIZE);
      store<u32>(depth + (<usize>child << 2), d + load<u32>(nodes + <usize>child * NODE_SIZE, N_LABEL_LENGTH));
    }
  }
}

/** Sets `bit` for byte c in the nibble tables at `low` and `high`. */
@inline function setNibbles(low: usize, high: usize, c: u32, bit: u32): void {
  store<u8>(low + (c & 15), <u32>load<u8>(low + (c & 15)) | bit);
  store<u8>(high + (c >> 4), <u32>load<u8>(high + (c >> 4)) | bit);
}

/** 0xff in the lanes of `block` whose byte at `field` is `c` or whose `any` lane is set. */
@inline function byteOk(block: usize, field: u32, c: v128): v128 {
  return v128.or(i8x16.eq(v128.load(block + field), c), v128.load(block + field + 16));
}

/**
 * Bit j set when rule 16 × block + j passes every RuleIndex condition on a path whose
 * classes are the complement of `notClasses0`, `notClasses1` (classes 0‥7, 8‥15), with length `len` (capped) and the bytes
 * `second`, `third` (path[1], path[2]), `penult`, `last` (path[len − 2], path[len − 1]).
 */
@inline function blockCandidates(block: usize, notClasses0: v128, notClasses1: v128, len: v128, second: v128, third: v128, penult: v128, last: v128): u32 {
  const missing = v128.or(v128.and(v128.load(block, B_REQUIRED), notClasses0), v128.and(v128.load(block, B_REQUIRED + 16), notClasses1));
  const ok = v128.and(
    v128.and(
      v128.and(i8x16.eq(missing, i8x16.splat(0)), i8x16.le_u(v128.load(block, B_MIN_LENGTH), len)),
      v128.and(byteOk(block, B_SECOND, second), byteOk(block, B_THIRD, third)),
    ),
    v128.and(byteOk(block, B_LAST, last), byteOk(block, B_PENULT, penult)),
  );
  return <u32>i8x16.bitmask(ok);
}

/**
 * Index of the child of a node (children firstChild‥firstChild + count − 1) whose label
 * starts with `c`, among children 16 and up (the walk record holds the first 16), or -1.
 * Children have distinct first bytes, stored contiguously in `firstBytes`: 16 compared per
 * vector step, at most 15 steps (256 children).
 */
function findLaterChild(firstBytes: usize, firstChild: u32, count: u32, c: u32): i32 {
  const want = i8x16.splat(<u8>c);
  for (let k: u32 = 16; k < count; k += 16) {
    const mask = <u32>i8x16.bitmask(i8x16.eq(v128.load(firstBytes + firstChild + k), want)) & lanesBelow(count - k);
    if (mask != 0) return <i32>(firstChild + k + ctz(mask));
  }
  return -1;
}

/**
 * KMP from path[from]: leftmost occurrence of the m-byte segment in path[from, len);
 * returns the index just past it, or -1. The text index never moves back and the state
 * drops along failure links, so the loop runs at most 2 * (len - from) times.
 */
function findSegmentKmp(bytes: usize, fail: usize, m: u32, path: usize, from: u32, len: u32): i32 {
  let q: u32 = 0;
  for (let i = from; i < len; i++) {
    const c = load<u8>(path + i);
    while (q > 0 && load<u8>(bytes + q) != c) q = load<u32>(fail + ((q - 1) << 2));
    if (load<u8>(bytes + q) == c) q++;
    if (q == m) return <i32>(i + 1);
  }
  return -1;
}

/**
 * Leftmost occurrence of segment `seg` in path[from, len); returns the index just past
 * it, or -1.
 *
 * Fast path (SIMD filter): 16 candidate starts at a time are kept only when both the
 * segment's first and last byte are in place, and each candidate is then compared in
 * full. Real paths rarely produce candidates, so a 40-byte path costs two or three
 * vector steps. Adversarial text (`aaaa…` against `aa…ab`) could make the comparisons
 * quadratic, so they share a budget of 2 * (len - from) + 64 bytes; once it is spent the
 * search continues with KMP from the first start not yet ruled out, which keeps the
 * whole call O(len - from + m). Reads up to 15 bytes past the path.
 */
function findSegment(table: usize, seg: usize, path: usize, from: u32, len: u32): i32 {
  const m = load<u32>(seg, S_LENGTH);
  if (m == 0) return <i32>from;
  if (m > len - from) return -1;
  const bytes = table + load<u32>(seg, S_BYTES_OFFSET);
  const first = i8x16.splat(load<u8>(bytes));
  const last = i8x16.splat(load<u8>(bytes + m - 1));
  const lastStart = len - m; // the last start at which the segment still fits
  let budget: i32 = <i32>((len - from) << 1) + 64;
  // Invariant: no occurrence starts in [from, i). At most ⌈(lastStart − from + 1) / 16⌉ steps.
  for (let i = from; i <= lastStart; i += 16) {
    let mask = <u32>i8x16.bitmask(v128.and(
      i8x16.eq(v128.load(path + i), first),
      i8x16.eq(v128.load(path + i + m - 1), last),
    )) & lanesBelow(lastStart - i + 1);
    while (mask != 0) {
      const at = i + ctz(mask);
      if (m <= 2 || equalBytes(bytes + 1, path + at + 1, m - 2)) return <i32>(at + m);
      budget -= <i32>m;
      if (budget < 0) return findSegmentKmp(bytes, table + load<u32>(seg, S_FAIL_OFFSET), m, path, at + 1, len);
      mask &= mask - 1;
    }
  }
  return -1;
}

/** Whether the wildcard rule at `rule` matches path[0, len). */
export function wildcardMatches(table: usize, rule: usize, path: usize, len: u32): bool {
  const count = load<u32>(rule, W_SEGMENT_COUNT);
  const segs = table + load<u32>(table, H_SEGMENTS_OFFSET) + <usize>load<u32>(rule, W_FIRST_SEGMENT) * SEGMENT_SIZE;
  const anchored = load<u8>(rule, W_ANCHORED) != 0;
  const firstLen = load<u32>(segs, S_LENGTH);
  if (firstLen > len || !equalBytes(table + load<u32>(segs, S_BYTES_OFFSET), path, firstLen)) return false;
  let pos = firstLen;
  if (count == 1) return !anchored || pos == len;
  const last = segs + <usize>(count - 1) * SEGMENT_SIZE;
  for (let s: u32 = 1; s + 1 < count; s++) {
    const found = findSegment(table, segs + <usize>s * SEGMENT_SIZE, path, pos, len);
    if (found < 0) return false;
    pos = <u32>found;
  }
  if (anchored) {
    const lastLen = load<u32>(last, S_LENGTH);
    return lastLen <= len - pos && equalBytes(table + load<u32>(last, S_BYTES_OFFSET), path + len - lastLen, lastLen);
  }
  return findSegment(table, last, path, pos, len) >= 0;
}

@inline function max32(a: i32, b: i32): i32 {
  return a > b ? a : b;
}

/**
 * Decides one prepared path: 1 = allowed, 0 = disallowed; sets `decidedLine`.
 * The longest matching allow and disallow are found (earliest line on ties); disallow
 * wins only when strictly longer (RFC 9309 §2.2.2: allow wins ties) and longer than an
 * empty pattern (robots.cc gives `disallow:` priority 0, which never disallows).
 * `index` is the table's RuleIndex (indexTable).
 */
export function decide(table: usize, index: usize, path: usize, len: u32): u32 {
  const walk = index + walkOffset(load<u32>(index, 4));
  const nodes = table + load<u32>(table, H_NODES_OFFSET);
  // The root's step, taken without a lookup when it can only go to "/" (about 6 ns of
  // the 90 a URL takes on the bench's file): prepared paths start with '/'.
  const slash = load<u32>(index, I_SLASH_NODE);
  let node = walk;
  let pos: u32 = 0;
  if (slash != 0 && len != 0 && load<u8>(path) == 0x2f) {
    node = walk + <usize>slash * WALK_SIZE;
    pos = 1;
  }
  // Invariant: path[0, pos) equals the concatenated labels from the root to `node`.
  while (pos < len) {
    const c = <u32>load<u8>(path + pos);
    const count = load<u32>(nodes + (node - walk), N_CHILD_COUNT); // same index, same stride
    const mask = <u32>i8x16.bitmask(i8x16.eq(v128.load(node, K_CHILD_BYTES), i8x16.splat(<u8>c))) & lanesBelow(count);
    let childIndex: u32;
    if (mask != 0) {
      childIndex = load<u32>(node, K_FIRST_CHILD) + ctz(mask);
    } else {
      if (count <= 16) break;
      const later = findLaterChild(table + load<u32>(table, H_FIRST_BYTES_OFFSET), load<u32>(node, K_FIRST_CHILD), count, c);
      if (later < 0) break;
      childIndex = <u32>later;
    }
    const child = walk + <usize>childIndex * WALK_SIZE;
    const labelLen = load<u32>(child, K_LABEL_LENGTH);
    if (labelLen > len - pos) break;
    // Label bytes 1‥8 from the record (an 8-byte load of the path, within its slack), the
    // rest, if any, from the table's pool.
    const rest = labelLen - 1;
    const keep = select<u64>(<u64>-1, (<u64>1 << (<u64>rest << 3)) - 1, rest >= K_LABEL_BYTES);
    if (((load<u64>(child, K_LABEL) ^ load<u64>(path + pos + 1)) & keep) != 0) break;
    if (rest > K_LABEL_BYTES) {
      const labelAt = table + load<u32>(nodes + (child - walk), N_LABEL_OFFSET);
      if (!equalBytes(labelAt + 1 + K_LABEL_BYTES, path + pos + 1 + K_LABEL_BYTES, rest - K_LABEL_BYTES)) break;
    }
    pos += labelLen;
    node = child;
  }

  // The plain rules on the way to the last node reached (its reach record), and its
  // exact rules when the path ends there.
  const nodeCount = load<u32>(table, H_NODE_COUNT);
  const reach = walk + <usize>nodeCount * WALK_SIZE + (node - walk) / WALK_SIZE * REACH_SIZE;
  let aPrio = load<i32>(reach, R_ALLOW_PRIO);
  let aLine = load<u32>(reach, R_ALLOW_LINE);
  let dPrio = load<i32>(reach, R_DISALLOW_PRIO);
  let dLine = load<u32>(reach, R_DISALLOW_LINE);
  if (pos == len) {
    const tableNode = nodes + (node - walk);
    let line = load<u32>(tableNode, N_EXACT_ALLOW);
    if (line) { aPrio = <i32>pos + 1; aLine = line; }
    line = load<u32>(tableNode, N_EXACT_DISALLOW);
    if (line) { dPrio = <i32>pos + 1; dLine = line; }
  }

  // Wildcard rules are sorted by priority descending. A rule below both bests can change
  // nothing: an allow below dPrio never outranks the disallow, a disallow at or below
  // aPrio never beats the allow. So the work stops at the first priority below both.
  const count = load<u32>(index);
  const firstBlock = index + I_HEADER;
  if (count != 0 && load<i32>(firstBlock, B_PRIOS) >= max32(aPrio, dPrio)) {
    const wild = table + load<u32>(table, H_WILDCARDS_OFFSET);
    // Every condition of the RuleIndex holds for any path a rule matches, so a rule
    // failing one is skipped; 16 rules are tested per block.
    // (A predictable branch: it goes the same way for every URL of a table.)
    const classes = ~(load<u16>(index, I_CLASS_COUNT) > 8 ? classSet(index, path, len, true) : classSet(index, path, len, false));
    const notClasses0 = i8x16.splat(<u8>classes);
    const notClasses1 = i8x16.splat(<u8>(classes >> 8));
    const lenSplat = i8x16.splat(<u8>min<u32>(len, MIN_LENGTH_CAP));
    // Past a short path these bytes are junk, but harmlessly so: a rule that tests
    // path[k] or path[len − 1 − k] has at least k + 1 bytes, which minLength demands.
    const second = i8x16.splat(load<u8>(path, 1));
    const third = i8x16.splat(load<u8>(path, 2));
    const last = i8x16.splat(load<u8>(path + len - 1));
    const penult = i8x16.splat(load<u8>(path + len - 2));
    const blocks = load<u32>(index, 4);
    for (let b: u32 = 0; b < blocks; b++) {
      const block = firstBlock + <usize>b * BLOCK_SIZE;
      if (load<i32>(block, B_PRIOS) < max32(aPrio, dPrio)) break;
      let candidates = blockCandidates(block, notClasses0, notClasses1, lenSplat, second, third, penult, last) & lanesBelow(count - (b << 4));
      while (candidates != 0) {
        const j = ctz(candidates);
        candidates &= candidates - 1;
        const prio = load<i32>(block + B_PRIOS + (<usize>j << 2));
        if (prio < max32(aPrio, dPrio)) break;
        const rule = wild + <usize>((b << 4) + j) * WILDCARD_SIZE;
        const line = load<u32>(rule, W_LINE);
        if (<u32>load<u8>(rule, W_KIND) == KIND_ALLOW) {
          if (prio < dPrio || prio < aPrio || (prio == aPrio && line >= aLine)) continue;
          if (wildcardMatches(table, rule, path, len)) { aPrio = prio; aLine = line; }
        } else {
          if (prio <= aPrio || prio < dPrio || (prio == dPrio && line >= dLine)) continue;
          if (wildcardMatches(table, rule, path, len)) { dPrio = prio; dLine = line; }
        }
      }
    }
  }

  decidedLine = dPrio > aPrio ? dLine : aLine;
  return dPrio > aPrio && dPrio > 0 ? 0 : 1;
}

/**
 * Writes the ids of every wildcard rule matching path[0, len) to `out` (u32 each) and
 * returns how many. For tables encoded with every rule in the wildcard list (ACAP).
 */
export function collectMatches(table: usize, path: usize, len: u32, out: usize): u32 {
  const wildCount = load<u32>(table, H_WILDCARD_COUNT);
  const wild = table + load<u32>(table, H_WILDCARDS_OFFSET);
  let n: u32 = 0;
  for (let i: u32 = 0; i < wildCount; i++) {
    const rule = wild + <usize>i * WILDCARD_SIZE;
    if (wildcardMatches(table, rule, path, len)) {
      store<u32>(out + (<usize>n << 2), load<u32>(rule, W_ID));
      n++;
    }
  }
  return n;
}
