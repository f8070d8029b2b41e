// The plain-rule half of a match: one walk down a table's radix trie, the best prefix and exact rules on the way.
//
// Two walks, one result. A table of at most COMPACT_NODES nodes has walk, reach and depth
// records in its RuleIndex (assembly/rule-index.ts): a step is one dependent load from the
// parent's walk record to the child's, and the best prefix rules of the last node reached
// are read from its reach record once. A larger table has none (they would cost 52 bytes a
// node, more than the table's own 32-byte node), and its walk reads the table's NODE records
// and labels directly, keeping the best prefix rules seen so far as it goes down. Both give
// the same priorities and lines: a prefix rule ending at depth d has priority d plus its
// extra (its trailing `*`s and `$`, format.ts), and a node holds the best rule of its kind,
// so the best of the nodes on the way (priority, then line: rank.ts) is the best allow
// either way.

import { outranks, rankInto } from './rank';
import { equalBytes, lanesBelow } from './scan';
import {
  I_SLASH_NODE, K_CHILD_BYTES, K_FIRST_CHILD, K_LABEL, K_LABEL_BYTES, K_LABEL_LENGTH, REACH_SIZE, R_ALLOW_LINE, R_ALLOW_PRIO,
  R_DISALLOW_LINE, R_DISALLOW_PRIO, WALK_SIZE, hasWalkRecords, walkOffset,
} from './rule-index';
import {
  H_FIRST_BYTES_OFFSET, H_NODE_COUNT, H_NODES_OFFSET, NODE_SIZE, N_CHILD_COUNT, N_EXACT_ALLOW, N_EXACT_DISALLOW, N_FIRST_CHILD,
  N_LABEL_LENGTH, N_LABEL_OFFSET, N_PREFIX_ALLOW, N_PREFIX_DISALLOW, N_ALLOW_EXTRA, N_DISALLOW_EXTRA,
} from './table';

/**
 * A reach record (rule-index.ts R_* layout) for the walks that cannot point into the
 * RuleIndex: the one without walk records, and a path ending on a node with exact rules.
 */
const WALKED: usize = memory.data(<i32>REACH_SIZE, 16);

/**
 * Index of the child of a node (children firstChild‥firstChild + count − 1) whose label
 * starts with `c`, among children 16 and up (both walks test the first 16 themselves), or -1.
 * Children have distinct first bytes, stored contiguously in `firstBytes`: 16 compared per
 * vector step, at most 15 steps (256 children). Reads up to 15 bytes past the node's
 * children (table slack).
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
 * Walks the trie of `table` along path[0, len) and returns a reach record (R_* layout in
 * rule-index.ts) of the best plain rules: the best prefix allow and disallow on the way
 * (priority: their depth plus extra), and the exact rules of the last node when the path
 * ends there (priority: depth + 1). Valid until the next call. `index` is the table's RuleIndex
 * (indexTable). Inlined: decide's hot path reads the reach record as if the walk were its own.
 */
@inline export function walkTrie(table: usize, index: usize, path: usize, len: u32): usize {
  const nodes = table + load<u32>(table, H_NODES_OFFSET);
  const nodeCount = load<u32>(table, H_NODE_COUNT);
  if (!hasWalkRecords(nodeCount)) return walkTable(table, nodes, load<u32>(index, I_SLASH_NODE), path, len);
  const walk = index + walkOffset(load<u32>(index, 4));
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
    const count = <u32>load<u16>(nodes + (node - walk), N_CHILD_COUNT); // same index, same stride
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
    // rest, if any, from the table's pool (off the chain of dependent loads).
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
  const reach = walk + <usize>nodeCount * WALK_SIZE + (node - walk) / WALK_SIZE * REACH_SIZE;
  if (pos != len) return reach;
  memory.copy(WALKED, reach, REACH_SIZE);
  exactRules(nodes + (node - walk), pos);
  return WALKED;
}

/**
 * Merges the exact rules of `node`, reached by a whole path of `pos` bytes (priority pos +
 * 1), into WALKED: a prefix rule with trailing `*`s on the way may tie or outrank them.
 */
@inline function exactRules(node: usize, pos: u32): void {
  const prio = <i32>pos + 1;
  let line = load<u32>(node, N_EXACT_ALLOW);
  if (line != 0) rankInto(WALKED + R_ALLOW_PRIO, prio, line);
  line = load<u32>(node, N_EXACT_DISALLOW);
  if (line != 0) rankInto(WALKED + R_DISALLOW_PRIO, prio, line);
}

/**
 * The walk of a table without walk records: each step reads the node's children's first
 * bytes from the table's firstBytes, the child's NODE record and its label in the pool.
 * `slash` is the RuleIndex's slash node (0: none). Returns WALKED, filled as walkTrie says.
 */
function walkTable(table: usize, nodes: usize, slash: u32, path: usize, len: u32): usize {
  const firstBytes = table + load<u32>(table, H_FIRST_BYTES_OFFSET);
  let aPrio: i32 = -1;
  let aLine: u32 = 0;
  let dPrio: i32 = -1;
  let dLine: u32 = 0;
  let node = nodes;
  let pos: u32 = 0;
  // The root's only child is "/": taken without a lookup (prepared paths start with '/'),
  // after the root's own rules (`disallow:` and `allow:`, priority 0).
  if (slash != 0 && len != 0 && load<u8>(path) == 0x2f) {
    if (load<u32>(nodes, N_PREFIX_ALLOW) != 0) { aPrio = <i32>load<u8>(nodes, N_ALLOW_EXTRA); aLine = load<u32>(nodes, N_PREFIX_ALLOW); }
    if (load<u32>(nodes, N_PREFIX_DISALLOW) != 0) { dPrio = <i32>load<u8>(nodes, N_DISALLOW_EXTRA); dLine = load<u32>(nodes, N_PREFIX_DISALLOW); }
    node = nodes + <usize>slash * NODE_SIZE;
    pos = 1;
  }
  // Invariant: path[0, pos) equals the concatenated labels from the root to `node`, and
  // the bests are those of the nodes on the way before `node`.
  while (true) {
    let line = load<u32>(node, N_PREFIX_ALLOW);
    let prio = <i32>(pos + <u32>load<u8>(node, N_ALLOW_EXTRA));
    if (line != 0 && outranks(prio, line, aPrio, aLine)) { aPrio = prio; aLine = line; }
    line = load<u32>(node, N_PREFIX_DISALLOW);
    prio = <i32>(pos + <u32>load<u8>(node, N_DISALLOW_EXTRA));
    if (line != 0 && outranks(prio, line, dPrio, dLine)) { dPrio = prio; dLine = line; }
    if (pos >= len) break;
    const c = <u32>load<u8>(path + pos);
    const count = <u32>load<u16>(node, N_CHILD_COUNT);
    const firstChild = load<u32>(node, N_FIRST_CHILD);
    const mask = <u32>i8x16.bitmask(i8x16.eq(v128.load(firstBytes + firstChild), i8x16.splat(<u8>c))) & lanesBelow(count);
    let childIndex: u32;
    if (mask != 0) {
      childIndex = firstChild + ctz(mask);
    } else {
      if (count <= 16) break;
      const later = findLaterChild(firstBytes, firstChild, count, c);
      if (later < 0) break;
      childIndex = <u32>later;
    }
    const child = nodes + <usize>childIndex * NODE_SIZE;
    const labelLen = load<u32>(child, N_LABEL_LENGTH);
    if (labelLen > len - pos) break;
    // Bytes 1‥8 of the label in one 8-byte load of each side (past the pool's end it reads
    // the table's SIMD slack; `keep` masks those bytes off), the rest, if any, by vectors.
    const label = table + load<u32>(child, N_LABEL_OFFSET);
    const rest = labelLen - 1;
    const keep = select<u64>(<u64>-1, (<u64>1 << (<u64>rest << 3)) - 1, rest >= K_LABEL_BYTES);
    if (((load<u64>(label, 1) ^ load<u64>(path + pos + 1)) & keep) != 0) break;
    if (rest > K_LABEL_BYTES && !equalBytes(label + 1 + K_LABEL_BYTES, path + pos + 1 + K_LABEL_BYTES, rest - K_LABEL_BYTES)) break;
    pos += labelLen;
    node = child;
  }
  store<i32>(WALKED, aPrio, R_ALLOW_PRIO);
  store<u32>(WALKED, aLine, R_ALLOW_LINE);
  store<i32>(WALKED, dPrio, R_DISALLOW_PRIO);
  store<u32>(WALKED, dLine, R_DISALLOW_LINE);
  if (pos == len) exactRules(node, pos);
  return WALKED;
}
