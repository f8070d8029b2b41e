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
// holds each wildcard rule's priority and a 64-bit set of the byte pairs its pieces
// contain. One pass over the path builds the same set for the path; a rule whose pairs
// are not all present cannot match, and two rules are tested per vector step. On the
// corpus's real URLs that rejects about 98% of (URL, wildcard rule) pairs.
import { lanesBelow } from './scan';
import {
  H_FIRST_BYTES_OFFSET, H_NODES_OFFSET, H_SEGMENTS_OFFSET, H_WILDCARD_COUNT, H_WILDCARDS_OFFSET,
  KIND_ALLOW, NODE_SIZE, N_CHILD_COUNT, N_EXACT_ALLOW, N_EXACT_DISALLOW, N_FIRST_CHILD,
  N_LABEL_LENGTH, N_LABEL_OFFSET, N_PREFIX_ALLOW, N_PREFIX_DISALLOW, SEGMENT_SIZE, S_BYTES_OFFSET,
  S_FAIL_OFFSET, S_LENGTH, WILDCARD_SIZE, W_ANCHORED, W_FIRST_SEGMENT, W_ID, W_KIND, W_LINE,
  W_PRIORITY, W_SEGMENT_COUNT,
} from './table';

/** Line of the rule that decided the last `decide` call (0 = none). */
export let decidedLine: u32 = 0;

// RuleIndex: derived from a table by `indexTable`, kept next to it by the host (it is not
// part of the table format). Mirrored by src/wasm.ts (indexBytesFor).
//    0 u32 count       wildcard rules
//    4 u32 reserved    (16-byte header)
//   16 u64 pairs[count rounded up to even]   byte-pair set of each rule's pieces (pairBit);
//                                            the padding entry is all ones
//    … u32 prios[count]                      copy of each W_PRIORITY, in table order
const I_HEADER: u32 = 16;

/** Offset of prios[] in a RuleIndex of `count` rules. */
@inline function priosOffset(count: u32): u32 {
  return I_HEADER + ((count + 1) & ~1) * 8;
}

/** The bit of the pair (a, b): a cheap hash into 6 bits (i64.shl takes its count mod 64). */
@inline function pairBit(a: u32, b: u32): u64 {
  return <u64>1 << <u64>(((a << 2) ^ b) & 63);
}

/** Lane numbers 0‥15, to tell the lanes of a vector step that hold real pairs. */
const LANE_IDS: usize = memory.data<u8>([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);

/**
 * The set of adjacent byte pairs of p[0, n): the 6-bit hashes of 16 pairs are computed
 * in one vector step and OR-ed into the set straight from two 64-bit lane words (i64.shl
 * takes its count mod 64, so each byte's hash is used as the word shifts down), with no
 * memory round trip and no per-lane branch. Lanes past the last pair repeat lane 0's
 * pair, so the set never holds a pair the path lacks. Reads up to 16 bytes past p + n.
 */
function pairSet(p: usize, n: u32): u64 {
  let set0: u64 = 0;
  let set1: u64 = 0;
  const ids = v128.load(LANE_IDS);
  // Invariant: set0 | set1 holds the pairs starting in p[0, i). ⌈(n − 1) / 16⌉ vector steps.
  for (let i: u32 = 0; i + 1 < n; i += 16) {
    const a = v128.load(p + i);
    const b = v128.load(p + i + 1);
    let h = v128.and(v128.xor(i8x16.shl(a, 2), b), i8x16.splat(63));
    const lanes = min<u32>(16, n - 1 - i);
    h = v128.bitselect(h, i8x16.swizzle(h, i8x16.splat(0)), i8x16.lt_u(ids, i8x16.splat(<u8>lanes)));
    let lo = i64x2.extract_lane(h, 0);
    let hi = i64x2.extract_lane(h, 1);
    set0 |= <u64>1 << lo; set1 |= <u64>1 << hi; lo >>= 8; hi >>= 8;
    set0 |= <u64>1 << lo; set1 |= <u64>1 << hi; lo >>= 8; hi >>= 8;
    set0 |= <u64>1 << lo; set1 |= <u64>1 << hi; lo >>= 8; hi >>= 8;
    set0 |= <u64>1 << lo; set1 |= <u64>1 << hi; lo >>= 8; hi >>= 8;
    set0 |= <u64>1 << lo; set1 |= <u64>1 << hi; lo >>= 8; hi >>= 8;
    set0 |= <u64>1 << lo; set1 |= <u64>1 << hi; lo >>= 8; hi >>= 8;
    set0 |= <u64>1 << lo; set1 |= <u64>1 << hi; lo >>= 8; hi >>= 8;
    set0 |= <u64>1 << lo; set1 |= <u64>1 << hi;
  }
  return set0 | set1;
}

/** Bytes `indexTable` writes for `table`. */
export function indexBytes(table: usize): u32 {
  const count = load<u32>(table, H_WILDCARD_COUNT);
  return priosOffset(count) + count * 4;
}

/** Builds the RuleIndex of `table` at `index`: O(total pattern bytes). */
export function indexTable(table: usize, index: usize): void {
  const count = load<u32>(table, H_WILDCARD_COUNT);
  const wild = table + load<u32>(table, H_WILDCARDS_OFFSET);
  const segments = table + load<u32>(table, H_SEGMENTS_OFFSET);
  const prios = index + priosOffset(count);
  store<u32>(index, count);
  store<u32>(index, 0, 4);
  store<u64>(index, 0, 8);
  for (let i: u32 = 0; i < count; i++) {
    const rule = wild + <usize>i * WILDCARD_SIZE;
    const first = segments + <usize>load<u32>(rule, W_FIRST_SEGMENT) * SEGMENT_SIZE;
    const pieces = load<u32>(rule, W_SEGMENT_COUNT);
    let pairs: u64 = 0;
    for (let s: u32 = 0; s < pieces; s++) {
      const seg = first + <usize>s * SEGMENT_SIZE;
      const bytes = table + load<u32>(seg, S_BYTES_OFFSET);
      const m = load<u32>(seg, S_LENGTH);
      for (let k: u32 = 1; k < m; k++) pairs |= pairBit(load<u8>(bytes + k - 1), load<u8>(bytes + k));
    }
    store<u64>(index + I_HEADER + (<usize>i << 3), pairs);
    store<u32>(prios + (<usize>i << 2), load<u32>(rule, W_PRIORITY));
  }
  if ((count & 1) != 0) store<u64>(index + I_HEADER + (<usize>count << 3), <u64>-1);
}

/**
 * Whether a[0, n) equals b[0, n): 16 bytes per step, reading up to 15 bytes past both
 * (tables and paths always have SIMD slack after them, see src/wasm.ts).
 */
@inline function equalBytes(a: usize, b: usize, n: u32): bool {
  // Invariant: a[0, k) == b[0, k). ⌈n / 16⌉ steps.
  for (let k: u32 = 0; k < n; k += 16) {
    const differ = <u32>i8x16.bitmask(v128.not(i8x16.eq(v128.load(a + k), v128.load(b + k)))) & lanesBelow(n - k);
    if (differ != 0) return false;
  }
  return true;
}

/**
 * Finds the child of `node` whose label starts with byte `c`; returns its record or 0.
 * Children have distinct first bytes stored contiguously in `firstBytes`, so 16 are
 * compared per vector step: at most 16 steps (256 children), no unpredictable branches.
 */
@inline function findChild(nodes: usize, firstBytes: usize, node: usize, c: u32): usize {
  const count = load<u32>(node, N_CHILD_COUNT);
  const lo = load<u32>(node, N_FIRST_CHILD);
  const want = i8x16.splat(<u8>c);
  // Most nodes have at most 16 children: one vector step, no loop.
  let mask = <u32>i8x16.bitmask(i8x16.eq(v128.load(firstBytes + lo), want)) & lanesBelow(count);
  if (mask != 0) return nodes + <usize>(lo + ctz(mask)) * NODE_SIZE;
  for (let k: u32 = 16; k < count; k += 16) {
    mask = <u32>i8x16.bitmask(i8x16.eq(v128.load(firstBytes + lo + k), want)) & lanesBelow(count - k);
    if (mask != 0) return nodes + <usize>(lo + k + ctz(mask)) * NODE_SIZE;
  }
  return 0;
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
  let aPrio: i32 = -1;
  let aLine: u32 = 0;
  let dPrio: i32 = -1;
  let dLine: u32 = 0;

  const nodes = table + load<u32>(table, H_NODES_OFFSET);
  const firstBytes = table + load<u32>(table, H_FIRST_BYTES_OFFSET);
  let node = nodes;
  let pos: u32 = 0;
  // Invariant: path[0, pos) equals the concatenated labels from the root to `node`.
  while (true) {
    let line = load<u32>(node, N_PREFIX_ALLOW);
    if (line) { aPrio = <i32>pos; aLine = line; }
    line = load<u32>(node, N_PREFIX_DISALLOW);
    if (line) { dPrio = <i32>pos; dLine = line; }
    if (pos == len) {
      line = load<u32>(node, N_EXACT_ALLOW);
      if (line) { aPrio = <i32>pos + 1; aLine = line; }
      line = load<u32>(node, N_EXACT_DISALLOW);
      if (line) { dPrio = <i32>pos + 1; dLine = line; }
      break;
    }
    const child = findChild(nodes, firstBytes, node, load<u8>(path + pos));
    if (child == 0) break;
    const labelLen = load<u32>(child, N_LABEL_LENGTH);
    if (labelLen > len - pos) break;
    if (!equalBytes(table + load<u32>(child, N_LABEL_OFFSET) + 1, path + pos + 1, labelLen - 1)) break;
    pos += labelLen;
    node = child;
  }

  // Wildcard rules are sorted by priority descending. A rule below both bests can change
  // nothing: an allow below dPrio never outranks the disallow, a disallow at or below
  // aPrio never beats the allow. So the work stops at the first priority below both.
  const count = load<u32>(index);
  const prios = index + priosOffset(count);
  if (count != 0 && load<i32>(prios) >= max32(aPrio, dPrio)) {
    const wild = table + load<u32>(table, H_WILDCARDS_OFFSET);
    // A rule's byte pairs all occur in any path it matches: rules whose pairs are not
    // all in the path's set are skipped, two per vector step, 32 rules per block.
    const missing = i64x2.splat(~pairSet(path, len));
    const pairs = index + I_HEADER;
    for (let base: u32 = 0; base < count; base += 32) {
      if (load<i32>(prios + (<usize>base << 2)) < max32(aPrio, dPrio)) break;
      const n = min<u32>(32, count - base);
      let candidates: u32 = 0;
      for (let k: u32 = 0; k < n; k += 2) {
        const absent = v128.and(v128.load(pairs + (<usize>(base + k) << 3)), missing);
        candidates |= <u32>i64x2.bitmask(i64x2.eq(absent, i64x2.splat(0))) << k;
      }
      candidates &= select<u32>(0xffffffff, (<u32>1 << (n & 31)) - 1, n >= 32); // not the padding entry
      while (candidates != 0) {
        const i = base + ctz(candidates);
        candidates &= candidates - 1;
        const prio = load<i32>(prios + (<usize>i << 2));
        if (prio < max32(aPrio, dPrio)) break;
        const rule = wild + <usize>i * WILDCARD_SIZE;
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
