// The linear-time matcher: one rule table (table.ts layout) against one prepared path.
//
// Why linear: plain rules sit in a radix trie that is walked once, each path byte
// compared at most once (pos only grows). A wildcard rule `s0*s1*…*sk[$]` is matched
// greedily: s0 must be a prefix, each middle piece is found at its leftmost occurrence
// after the previous one with KMP (O(bytes scanned + piece length), and the scans of
// successive pieces cover disjoint stretches of the path), and the last piece is either
// found the same way or, when anchored, compared against the path's end. Leftmost
// placement is always safe for `*`-only globs: any match can be shifted left to it. So a
// table with W wildcard rules costs O(L + W·L + total pattern bytes) per path of L bytes,
// never the O(L·P) of robots.cc's position-set matcher, and nothing backtracks.
import {
  H_FIRST_BYTES_OFFSET, H_NODES_OFFSET, H_SEGMENTS_OFFSET, H_WILDCARD_COUNT, H_WILDCARDS_OFFSET,
  KIND_ALLOW, NODE_SIZE, N_CHILD_COUNT, N_EXACT_ALLOW, N_EXACT_DISALLOW, N_FIRST_CHILD,
  N_LABEL_LENGTH, N_LABEL_OFFSET, N_PREFIX_ALLOW, N_PREFIX_DISALLOW, SEGMENT_SIZE, S_BYTES_OFFSET,
  S_FAIL_OFFSET, S_LENGTH, WILDCARD_SIZE, W_ANCHORED, W_FIRST_SEGMENT, W_ID, W_KIND, W_LINE,
  W_PRIORITY, W_SEGMENT_COUNT,
} from './table';

/** Line of the rule that decided the last `decide` call (0 = none). */
export let decidedLine: u32 = 0;

/** Finds the child of `node` whose label starts with byte `c`; returns its record or 0. */
@inline function findChild(nodes: usize, firstBytes: usize, node: usize, c: u32): usize {
  const count = load<u32>(node, N_CHILD_COUNT);
  let lo = load<u32>(node, N_FIRST_CHILD);
  let hi = lo + count;
  // Children are sorted by first byte; a binary search bounds the cost at 8 probes.
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const b = <u32>load<u8>(firstBytes + mid);
    if (b == c) return nodes + <usize>mid * NODE_SIZE;
    if (b < c) lo = mid + 1;
    else hi = mid;
  }
  return 0;
}

/**
 * Leftmost occurrence of segment `seg` in path[from, len); returns the index just past
 * it, or -1. KMP: the text index never moves back, the state drops along failure links,
 * so the loop runs at most 2 * (len - from) times.
 */
function findSegment(table: usize, seg: usize, path: usize, from: u32, len: u32): i32 {
  const m = load<u32>(seg, S_LENGTH);
  if (m == 0) return <i32>from;
  if (m > len - from) return -1;
  const bytes = table + load<u32>(seg, S_BYTES_OFFSET);
  const fail = table + load<u32>(seg, S_FAIL_OFFSET);
  let q: u32 = 0;
  for (let i = from; i < len; i++) {
    const c = load<u8>(path + i);
    while (q > 0 && load<u8>(bytes + q) != c) q = load<u32>(fail + ((q - 1) << 2));
    if (load<u8>(bytes + q) == c) q++;
    if (q == m) return <i32>(i + 1);
  }
  return -1;
}

@inline function equalBytes(a: usize, b: usize, n: u32): bool {
  for (let k: u32 = 0; k < n; k++) if (load<u8>(a + k) != load<u8>(b + k)) return false;
  return true;
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

/**
 * Decides one prepared path: 1 = allowed, 0 = disallowed; sets `decidedLine`.
 * The longest matching allow and disallow are found (earliest line on ties); disallow
 * wins only when strictly longer (RFC 9309 §2.2.2: allow wins ties) and longer than an
 * empty pattern (robots.cc gives `disallow:` priority 0, which never disallows).
 */
export function decide(table: usize, path: usize, len: u32): u32 {
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

  const wildCount = load<u32>(table, H_WILDCARD_COUNT);
  const wild = table + load<u32>(table, H_WILDCARDS_OFFSET);
  // Sorted by priority descending: once a rule cannot beat either best, none after can.
  for (let i: u32 = 0; i < wildCount; i++) {
    const rule = wild + <usize>i * WILDCARD_SIZE;
    const prio = <i32>load<u32>(rule, W_PRIORITY);
    if (prio < aPrio && prio < dPrio) break;
    const line = load<u32>(rule, W_LINE);
    if (<u32>load<u8>(rule, W_KIND) == KIND_ALLOW) {
      if (prio < aPrio || (prio == aPrio && line >= aLine)) continue;
      if (wildcardMatches(table, rule, path, len)) { aPrio = prio; aLine = line; }
    } else {
      if (prio < dPrio || (prio == dPrio && line >= dLine)) continue;
      if (wildcardMatches(table, rule, path, len)) { dPrio = prio; dLine = line; }
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
