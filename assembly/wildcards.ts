// Every wildcard rule of a table as one automaton read once per path: an Aho–Corasick automaton over the rules' pieces and a trie of piece sequences.
//
// Why: a rule `s0*s1*…*sk[$]` matches a path when s0 is a prefix and each later piece
// occurs after the previous one (leftmost placement is always safe for `*`-only globs,
// see match.ts). Matching rules one at a time costs a scan per rule, so a group of
// hundreds of facet rules (`/*?*color=`, `/*?*size=`…) costs hundreds of scans per URL.
// Here the cost does not grow with the number of rules:
//   - one Aho–Corasick automaton over every distinct first piece s0 and later piece s1‥sk
//     reads each path byte once (amortized: a failure link never climbs back up);
//   - the rules' piece sequences form a trie, the "piece trie": a node is a sequence
//     s0, s1, …, si shared by every rule that starts with it, an edge is labelled by the
//     next piece. A node is reached when its sequence has been found in order, at the
//     index just past its last piece;
//   - the automaton's prefix walk (while its state has followed no failure link, its depth
//     is the bytes read and it spells path[0, i)) reaches the roots whose s0 it spells;
//     after that, each occurrence of a piece p ending at `end` reaches the children across
//     p-edges of nodes reached at or before `end − |p|`. Occurrences come in order, so the
//     first one that counts is the leftmost: the greedy placement, exact;
//   - a node's rules end there (their last piece is not anchored) and match when it is
//     reached; an anchored last piece q (`…*q$`) labels an "anchored edge", checked once
//     at the end: q ends the path and its parent was reached at or before len − |q|.
// The result is the best allow and the best disallow among the matched rules (priority,
// then earliest line), as match.ts's rule-by-rule loop finds them.
//
// Why it is fast: each state is a block, addressed by its offset. A state of depth
// ≤ DENSE_DEPTH or with several children is "dense": its block holds its transition for
// each byte class (failures folded in), so its step is one load. Any other state has at
// most one child, laid out right after it: the step is a compare with the expected byte
// and `offset + 16`, which the CPU predicts and runs ahead of; only a mismatch follows
// failure links (to a shallower state; the root is dense). Rows exist only for the few
// dense states, so the automaton stays small in the cache, and a transition carries the
// target's OUTPUT bit, so a step reads no other memory.
//
// Bound: each byte is one step plus failure links, and failure links only go up what
// steps went down, so at most 2 × L record reads for a path of L bytes; at each byte where
// pieces end, one pass over the suffix chain's pieces, each costing min(its edges, nodes
// reached so far) lookups. So O(L × E) in the worst case (E: edges), O(L) plus the
// matches in practice; nothing backtracks and nothing is allocated. Building is
// O(piece bytes × (256 + classes)).
//
// Memory: the automaton lives in the RuleIndex, in a region of at most AUTOMATON_CAP bytes
// sized from the table's header (`automatonBytesFor`), read-only once built (which nodes
// a path reached lives in this module's static MARKS, so at most MAX_NODES nodes). It is
// built only for tables whose encoder set FLAG_WILDCARD_AUTOMATON (many wildcard rules the
// prefilter of match.ts cannot tell apart; the policy is src/table/encode.ts's), and only
// once such a crowd's DFA (dfa.ts), which its region holds first, gives up or cannot be
// built: then match.ts builds it in the same region (rule-index.ts `switchToAutomaton`).
// When it would not fit its region or MAX_NODES, or the table holds a rule without `*` that
// is anchored (only in tables encoded with every rule in the wildcard list), `enabled` says
// AUTOMATON_NONE and match.ts matches rule by rule, also linear.
//
// Why one file of ~800 lines: the region's layout, the build that writes it and the scan
// that reads it are one format; apart, each would restate the other's offsets and the
// invariants (block order, entry bits) that make the scan's step one load.
//
// Region layout (offsets from its 16-aligned start; arrays are placed as the build goes,
// their offsets in the header):
//    0 u32 enabled        AUTOMATON_ON (2) when built, AUTOMATON_NONE (3) when tried and it did
//                         not fit (a crowd's region holding its DFA has dfa.ts's word: 0 or 1)
//    4 u32 stateCount     automaton states (state 0, at block offset 0, is the root)
//    8 u32 nodeCount      piece-trie nodes
//   12 i32 emptyRoot      the root of an empty s0 (a pattern starting with `*`), -1: none
//   16 u32 blocksAt       the states' BLOCKs, depth first
//   20 u32 infoAt         INFO per state id, stateCount × 32
//   24 u32 nodesAt        NODE per piece-trie node
//   28 u32 edgesAt        EDGE, grouped by the piece (state id) labelling them
//   32 u32 anchoredAt     ANCHORED edges, grouped likewise
//   36 u32 childrenAt     CHILD hash slots: (parent, piece) → child
//   40 u32 childMask      slots − 1 (a power of two)
//   44 u32 classCount     row entries per dense block (a multiple of 4)
//   64 u8 classOf[256]    byte → class of the rows (0: a byte no piece has)
// BLOCK: 0 u16 expected   the one child's byte, 0x100: none (dense states: 0x100)
//        2 u8 flags       DENSE
//        3 u8 childBits   the entry bits (below) of the step to the child right after
//        4 u32 fail       the failure state's block offset (non-dense states)
//        8 u32 id         12 u32 0
//       16 (dense) u32 row[classCount]: the target's block offset | entry bits
// Entry bits (block offsets are multiples of 16): OUTPUT (1), a piece labelling edges ends
// in the target (its own or a suffix's); DOWN (2), the step goes to a child (so the target
// spells the path so far while every step went down); ROOT (4), the target spells an s0.
// INFO:  0 i32 edgeLink (the longest proper suffix state labelling edges, -1), 4 u32 edgeStart,
//        8 u32 edgeEnd (its own edges), 12 i32 anchoredLink (likewise for anchored edges),
//        16 u32 anchoredStart, 20 u32 anchoredEnd, 24 u32 depth, 28 i32 root (the
//        piece-trie root whose s0 the state spells, -1)
// NODE:  0 i32 allowPrio, 4 u32 allowLine, 8 i32 disallowPrio, 12 u32 disallowLine
//        (the best rules ending at the node; -1 / 0: none)
// EDGE: 0 u32 parent, 4 u32 child. ANCHORED: 0 u32 parent, 4 i32 priority, 8 u32 line, 12 u32 kind.
// CHILD: 0 u32 parent (0xffffffff: empty), 4 u32 piece state, 8 u32 child, 12 u32 0.

import { outranks, rankInto } from './rank';
import {
  FLAG_WILDCARD_AUTOMATON, KIND_ALLOW, SEGMENT_SIZE, S_BYTES_OFFSET, S_LENGTH, WILDCARD_SIZE, W_ANCHORED, W_FIRST_SEGMENT, W_KIND, W_LINE,
  W_PRIORITY, W_SEGMENT_COUNT, H_SEGMENTS_OFFSET, H_WILDCARD_COUNT, H_WILDCARDS_OFFSET,
} from './table';

/** Most bytes an automaton region takes. */
export const AUTOMATON_CAP: u32 = 768 << 10;
/** States up to this depth get a row even with one child: near the root, mismatches are the rule. */
const DENSE_DEPTH: u32 = 2;
/** Most states (a bound on the build's work; block offsets are u32). */
const MAX_STATES: u32 = 0xffff;
/** Most piece-trie nodes (the size of MARKS and REACHED). */
const MAX_NODES: u32 = 4096;

const A_ENABLED: u32 = 0;
/**
 * `enabled` once built. A crowd's region holds its DFA first (dfa.ts), whose `enabled` word
 * sits at the same offset with another value, so the word tells which one the region holds.
 */
const AUTOMATON_ON: u32 = 2;
/** `enabled` when the automaton was tried and does not fit: the table is matched rule by rule. */
export const AUTOMATON_NONE: u32 = 3;
const A_STATE_COUNT: u32 = 4;
const A_NODE_COUNT: u32 = 8;
const A_EMPTY_ROOT: u32 = 12;
const A_BLOCKS_AT: u32 = 16;
const A_INFO_AT: u32 = 20;
const A_NODES_AT: u32 = 24;
const A_EDGES_AT: u32 = 28;
const A_ANCHORED_AT: u32 = 32;
const A_CHILDREN_AT: u32 = 36;
const A_CHILD_MASK: u32 = 40;
const A_CLASS_COUNT: u32 = 44;
const A_CLASS_OF: u32 = 64;
const A_HEADER: u32 = A_CLASS_OF + 256;

const BLOCK_HEAD: u32 = 16;
const K_FAIL: u32 = 4;
const K_ID: u32 = 8;
const NO_CHILD: u32 = 0x100;
const DENSE: u32 = 1;
/** The flags as bits of the block's first u32 (expected | flags << 16 | childBits << 24). */
const DENSE_BIT: u32 = DENSE << 16;
const CHILD_BITS_SHIFT: u32 = 24;
const OUTPUT: u32 = 1;
const DOWN: u32 = 2;
const ROOT: u32 = 4;
const ENTRY_BITS: u32 = 15;

const INFO_SIZE: u32 = 32;
const I_EDGE_LINK: u32 = 0;
const I_EDGE_START: u32 = 4;
const I_EDGE_END: u32 = 8;
const I_ANCHORED_LINK: u32 = 12;
const I_ANCHORED_START: u32 = 16;
const I_ANCHORED_END: u32 = 20;
const I_DEPTH: u32 = 24;
const I_ROOT: u32 = 28;

const NODE_BYTES: u32 = 16;
const P_ALLOW_PRIO: u32 = 0;
const P_ALLOW_LINE: u32 = 4;
const P_DISALLOW_PRIO: u32 = 8;
const P_DISALLOW_LINE: u32 = 12;

const EDGE_SIZE: u32 = 8;
const ANCHORED_SIZE: u32 = 16;
const CHILD_SIZE: u32 = 16;

// Build-time only. A trie state (old numbering): 0 i32 firstChild, 4 i32 nextSibling,
// 8 u32 byte, 12 u32 depth, 16 u32 fail, 20 i32 edgeLink, 24 i32 root, 28 u32 edgeCount,
// 32 u32 anchoredCount, 36 u32 newId, 40 u32 childCount, 44 i32 anchoredLink, 48 u32 block
// offset, 52 u32 0.
const BUILD_SIZE: u32 = 56;
const B_FIRST_CHILD: u32 = 0;
const B_NEXT_SIBLING: u32 = 4;
const B_BYTE: u32 = 8;
const B_DEPTH: u32 = 12;
const B_FAIL: u32 = 16;
const B_EDGE_LINK: u32 = 20;
const B_ROOT: u32 = 24;
const B_EDGE_COUNT: u32 = 28;
const B_ANCHORED_COUNT: u32 = 32;
const B_NEW_ID: u32 = 36;
const B_CHILD_COUNT: u32 = 40;
const B_ANCHORED_LINK: u32 = 44;
const B_OFFSET: u32 = 48;
/** An edge before placement: 0 u32 piece state (old), 4 u32 parent, 8 u32 child / priority, 12 u32 line, 16 u32 kind. */
const PENDING_SIZE: u32 = 20;

/** Per piece-trie node of the table being matched: u32 stamp (== generation: reached by this path), u32 at. */
const MARKS: usize = memory.data(<i32>(MAX_NODES * 8), 16);
/** The nodes the current path reached, in order (reachedCount of them). */
const REACHED: usize = memory.data(<i32>(MAX_NODES * 4), 16);
/** Stamp of the current path; bumped per scan, so the marks of earlier paths and other tables are stale. */
let generation: u32 = 0;
/** Nodes reached by the current path. */
let reachedCount: u32 = 0;

/** Best rules matched by the last `scanAutomaton` (priority -1: none). */
export let matchedAllowPrio: i32 = -1;
export let matchedAllowLine: u32 = 0;
export let matchedDisallowPrio: i32 = -1;
export let matchedDisallowLine: u32 = 0;

@inline function align16(n: u32): u32 {
  return (n + 15) & ~15;
}

/**
 * Bytes of the automaton region of a table with these header fields, 0 when it gets none.
 * States are estimated from the pool (each segment byte comes with a 4-byte failure link
 * there); a table whose automaton turns out bigger gets none.
 */
export function automatonBytesFor(flags: u32, wildcardCount: u32, segmentCount: u32, poolLength: u32): u32 {
  if ((flags & FLAG_WILDCARD_AUTOMATON) == 0 || wildcardCount == 0) return 0;
  // As buildAutomaton takes them. Per piece reference: a node, a pending edge, a build
  // hash slot pair, an edge, a child slot pair; per rule an anchored edge and its pending
  // record; per state a build record, a block head, an info, a stack entry and about a
  // quarter of a 64-class row; the header and alignment.
  const refs = <u64>segmentCount + <u64>wildcardCount;
  const states = <u64>poolLength / 5 + 2;
  const bytes = <u64>A_HEADER + 16 * 16 + refs * (NODE_BYTES + PENDING_SIZE + 16 + EDGE_SIZE + 2 * CHILD_SIZE)
    + <u64>wildcardCount * (ANCHORED_SIZE + PENDING_SIZE) + states * (BUILD_SIZE + BLOCK_HEAD + INFO_SIZE + 4 + 64) + 3 * 64 * 4;
  return align16(<u32>min<u64>(bytes, <u64>AUTOMATON_CAP));
}

// The build's bump allocator over the region (offsets from its start; 0: out of room).
let top: u32 = 0;
let end: u32 = 0;
function take(bytes: u64): u32 {
  const at = align16(top);
  if (<u64>at + bytes > <u64>end) return 0;
  top = at + <u32>bytes;
  return at;
}

// Build state shared by the helpers below.
let bRegion: usize = 0;
let bStatesAt: u32 = 0;
let bStates: u32 = 0;

@inline function bState(s: u32): usize {
  return bRegion + bStatesAt + <usize>s * BUILD_SIZE;
}

/** The goto child of build state s on byte c, or -1. */
function gotoChild(s: u32, c: u32): i32 {
  let child = load<i32>(bState(s), B_FIRST_CHILD);
  // At most 256 siblings.
  while (child >= 0) {
    const at = bState(<u32>child);
    if (load<u32>(at, B_BYTE) == c) return child;
    child = load<i32>(at, B_NEXT_SIBLING);
  }
  return -1;
}

/** The build state spelling bytes[0, length), created as needed; -1 when out of room. */
function insertString(bytes: usize, length: u32): i32 {
  let state: u32 = 0;
  for (let k: u32 = 0; k < length; k++) {
    const c = <u32>load<u8>(bytes + k);
    let next = gotoChild(state, c);
    if (next < 0) {
      if (<u64>(bStatesAt + (bStates + 1) * BUILD_SIZE) > <u64>end || bStates >= MAX_STATES) return -1;
      next = <i32>bStates;
      bStates++;
      top = bStatesAt + bStates * BUILD_SIZE;
      const at = bState(<u32>next);
      const parent = bState(state);
      memory.fill(at, 0, BUILD_SIZE);
      store<i32>(at, -1, B_FIRST_CHILD);
      store<i32>(at, load<i32>(parent, B_FIRST_CHILD), B_NEXT_SIBLING);
      store<u32>(at, c, B_BYTE);
      store<u32>(at, load<u32>(parent, B_DEPTH) + 1, B_DEPTH);
      store<i32>(at, -1, B_EDGE_LINK);
      store<i32>(at, -1, B_ANCHORED_LINK);
      store<i32>(at, -1, B_ROOT);
      store<i32>(parent, next, B_FIRST_CHILD);
      store<u32>(parent, load<u32>(parent, B_CHILD_COUNT) + 1, B_CHILD_COUNT);
    }
    state = <u32>next;
  }
  return <i32>state;
}

/** The automaton's transition from build state s on byte c (failure links followed). */
function transition(s: u32, c: u32): u32 {
  // Each round moves to a shallower state: at most depth(s) + 1 rounds.
  while (true) {
    const child = gotoChild(s, c);
    if (child >= 0) return <u32>child;
    if (s == 0) return 0;
    s = load<u32>(bState(s), B_FAIL);
  }
  return 0;
}

@inline function isDense(s: u32): bool {
  const at = bState(s);
  return s == 0 || load<u32>(at, B_DEPTH) <= DENSE_DEPTH || load<u32>(at, B_CHILD_COUNT) >= 2;
}

@inline function hashPair(a: u32, b: u32): u32 {
  return (a * 0x9e3779b1) ^ (b * 0x85ebca77) ^ ((a ^ b) >> 15);
}

function initNode(nodes: usize, n: u32): void {
  const at = nodes + <usize>n * NODE_BYTES;
  store<i32>(at, -1, P_ALLOW_PRIO);
  store<u32>(at, 0, P_ALLOW_LINE);
  store<i32>(at, -1, P_DISALLOW_PRIO);
  store<u32>(at, 0, P_DISALLOW_LINE);
}

/**
 * Builds the automaton of `table` into the region at `region` of `bytes` bytes (bytes from
 * automatonBytesFor). Leaves `enabled` 0 when the table gets none.
 */
export function buildAutomaton(table: usize, region: usize, bytes: u32): void {
  if (bytes == 0) return;
  store<u32>(region, 0, A_ENABLED);
  const count = load<u32>(table, H_WILDCARD_COUNT);
  const wild = table + load<u32>(table, H_WILDCARDS_OFFSET);
  const segments = table + load<u32>(table, H_SEGMENTS_OFFSET);

  // Byte classes of the rows: each byte some piece uses gets its own, every other byte class 0.
  const classOf = region + A_CLASS_OF;
  memory.fill(classOf, 0, 256);
  let refs: u64 = 0;
  for (let i: u32 = 0; i < count; i++) {
    const rule = wild + <usize>i * WILDCARD_SIZE;
    const pieces = load<u32>(rule, W_SEGMENT_COUNT);
    if (pieces == 1 && load<u8>(rule, W_ANCHORED) != 0) return;
    refs += pieces;
    const segs = segments + <usize>load<u32>(rule, W_FIRST_SEGMENT) * SEGMENT_SIZE;
    for (let s: u32 = 0; s < pieces; s++) {
      const seg = segs + <usize>s * SEGMENT_SIZE;
      const at = table + load<u32>(seg, S_BYTES_OFFSET);
      const m = load<u32>(seg, S_LENGTH);
      for (let k: u32 = 0; k < m; k++) store<u8>(classOf + load<u8>(at + k), 1);
    }
  }
  let classes: u32 = 1;
  for (let c: u32 = 0; c < 256; c++) {
    if (load<u8>(classOf + c) != 0) { store<u8>(classOf + c, <u8>classes); classes++; }
  }
  if (classes > 256 || refs > <u64>MAX_NODES * 4) return;
  const rowClasses = (classes + 3) & ~3;

  top = A_HEADER;
  end = bytes;
  bRegion = region;
  const nodesAt = take(refs * NODE_BYTES + NODE_BYTES);
  const pendingAt = take(refs * PENDING_SIZE);
  const anchoredPendingAt = take(<u64>count * PENDING_SIZE);
  // (parent, piece state) → pending record of the child, open addressing, while the piece trie is built.
  let buildSlots: u32 = 16;
  while (<u64>buildSlots < 2 * refs) buildSlots <<= 1;
  const buildHashAt = take(<u64>buildSlots * 8);
  if (nodesAt == 0 || pendingAt == 0 || anchoredPendingAt == 0 || buildHashAt == 0) return;
  memory.fill(region + buildHashAt, 0xff, <usize>buildSlots * 8);
  bStatesAt = align16(top);
  bStates = 1;
  if (<u64>bStatesAt + BUILD_SIZE > <u64>end) return;
  const root = bState(0);
  memory.fill(root, 0, BUILD_SIZE);
  store<i32>(root, -1, B_FIRST_CHILD);
  store<i32>(root, -1, B_NEXT_SIBLING);
  store<i32>(root, -1, B_EDGE_LINK);
  store<i32>(root, -1, B_ANCHORED_LINK);
  store<i32>(root, -1, B_ROOT);
  top = bStatesAt + BUILD_SIZE;

  // The piece trie, one rule at a time, and the strings of the automaton's trie.
  const nodes = region + nodesAt;
  let nodeCount: u32 = 0;
  let pending: u32 = 0;
  let anchoredPending: u32 = 0;
  let emptyRoot: i32 = -1;
  for (let i: u32 = 0; i < count; i++) {
    const rule = wild + <usize>i * WILDCARD_SIZE;
    const pieces = load<u32>(rule, W_SEGMENT_COUNT);
    const anchored = load<u8>(rule, W_ANCHORED) != 0;
    const segs = segments + <usize>load<u32>(rule, W_FIRST_SEGMENT) * SEGMENT_SIZE;
    const prio = <i32>load<u32>(rule, W_PRIORITY);
    const line = load<u32>(rule, W_LINE);
    const allow = <u32>load<u8>(rule, W_KIND) == KIND_ALLOW;
    const first = insertString(table + load<u32>(segs, S_BYTES_OFFSET), load<u32>(segs, S_LENGTH));
    if (first < 0) return;
    const firstAt = bState(<u32>first);
    let node = load<i32>(firstAt, B_ROOT);
    if (node < 0) {
      if (nodeCount >= MAX_NODES) return;
      node = <i32>nodeCount;
      nodeCount++;
      initNode(nodes, <u32>node);
      store<i32>(firstAt, node, B_ROOT);
      if (first == 0) emptyRoot = node;
    }
    let endsAtNode = true;
    for (let s: u32 = 1; s < pieces; s++) {
      const seg = segs + <usize>s * SEGMENT_SIZE;
      const m = load<u32>(seg, S_LENGTH);
      if (m == 0) continue; // an empty last piece (`s0*`, `…*$`): the rule ends at the node so far
      const state = insertString(table + load<u32>(seg, S_BYTES_OFFSET), m);
      if (state < 0) return;
      const stateAt = bState(<u32>state);
      if (anchored && s + 1 == pieces) {
        const rec = region + anchoredPendingAt + <usize>anchoredPending * PENDING_SIZE;
        anchoredPending++;
        store<u32>(rec, <u32>state);
        store<u32>(rec, <u32>node, 4);
        store<i32>(rec, prio, 8);
        store<u32>(rec, line, 12);
        store<u32>(rec, allow ? KIND_ALLOW : 0, 16);
        store<u32>(stateAt, load<u32>(stateAt, B_ANCHORED_COUNT) + 1, B_ANCHORED_COUNT);
        endsAtNode = false;
        break;
      }
      // The child of `node` across this piece, found or made. At most 2 × refs slots probed.
      let h = hashPair(<u32>node, <u32>state) & (buildSlots - 1);
      let child: i32 = -1;
      while (true) {
        const slot = region + buildHashAt + (<usize>h << 3);
        const key = load<u32>(slot);
        if (key == 0xffffffff) {
          if (nodeCount >= MAX_NODES) return;
          child = <i32>nodeCount;
          nodeCount++;
          initNode(nodes, <u32>child);
          const rec = region + pendingAt + <usize>pending * PENDING_SIZE;
          store<u32>(rec, <u32>state);
          store<u32>(rec, <u32>node, 4);
          store<u32>(rec, <u32>child, 8);
          store<u32>(slot, <u32>node);
          store<u32>(slot, pending, 4);
          pending++;
          store<u32>(stateAt, load<u32>(stateAt, B_EDGE_COUNT) + 1, B_EDGE_COUNT);
          break;
        }
        const rec = region + pendingAt + <usize>load<u32>(slot, 4) * PENDING_SIZE;
        if (key == <u32>node && load<u32>(rec) == <u32>state) {
          child = <i32>load<u32>(rec, 8);
          break;
        }
        h = (h + 1) & (buildSlots - 1);
      }
      node = child;
    }
    if (endsAtNode) {
      const at = nodes + <usize>node * NODE_BYTES;
      rankInto(at + (allow ? P_ALLOW_PRIO : P_DISALLOW_PRIO), prio, line);
    }
  }
  const states = bStates;

  // Failure and output links, breadth-first (a state's fail is shallower, so done before it).
  const queueAt = take(<u64>states * 4);
  if (queueAt == 0) return;
  const queue = region + queueAt;
  let head: u32 = 0;
  let tail: u32 = 1;
  store<u32>(queue, 0);
  // Invariant: the states before `head` have their failure and output links. Each state is queued once.
  while (head < tail) {
    const u = load<u32>(queue + (<usize>head << 2));
    head++;
    const uAt = bState(u);
    let child = load<i32>(uAt, B_FIRST_CHILD);
    while (child >= 0) {
      const vAt = bState(<u32>child);
      const fail = u == 0 ? 0 : transition(load<u32>(uAt, B_FAIL), load<u32>(vAt, B_BYTE));
      store<u32>(vAt, fail, B_FAIL);
      const failAt = bState(fail);
      store<i32>(vAt, load<u32>(failAt, B_EDGE_COUNT) != 0 ? <i32>fail : load<i32>(failAt, B_EDGE_LINK), B_EDGE_LINK);
      store<i32>(vAt, load<u32>(failAt, B_ANCHORED_COUNT) != 0 ? <i32>fail : load<i32>(failAt, B_ANCHORED_LINK), B_ANCHORED_LINK);
      store<u32>(queue + (<usize>tail << 2), <u32>child);
      tail++;
      child = load<i32>(vAt, B_NEXT_SIBLING);
    }
  }

  // Blocks depth first, a state's one child (if it has only one) right after it: the step
  // along a chain is `offset + 16`. Ids are the order too. The queue serves as the stack.
  let blockBytes: u64 = 0;
  let id: u32 = 0;
  let sp: u32 = 1;
  store<u32>(queue, 0);
  // Each state is pushed once (the trie is a tree).
  while (sp > 0) {
    sp--;
    const s = load<u32>(queue + (<usize>sp << 2));
    const at = bState(s);
    store<u32>(at, id, B_NEW_ID);
    store<u32>(at, <u32>blockBytes, B_OFFSET);
    id++;
    blockBytes += BLOCK_HEAD + (isDense(s) ? rowClasses << 2 : 0);
    if (blockBytes > 0x7fffffff) return;
    let child = load<i32>(at, B_FIRST_CHILD);
    while (child >= 0) {
      store<u32>(queue + (<usize>sp << 2), <u32>child);
      sp++;
      child = load<i32>(bState(<u32>child), B_NEXT_SIBLING);
    }
  }

  // The final arrays.
  const blocksAt = take(blockBytes);
  const infoAt = take(<u64>states * INFO_SIZE);
  const edgesAt = take(<u64>pending * EDGE_SIZE);
  const anchoredAt = take(<u64>anchoredPending * ANCHORED_SIZE + 16);
  let childSlots: u32 = 16;
  while (childSlots < 2 * pending) childSlots <<= 1;
  const childrenAt = take(<u64>childSlots * CHILD_SIZE);
  if (blocksAt == 0 || infoAt == 0 || edgesAt == 0 || anchoredAt == 0 || childrenAt == 0) return;
  const blocks = region + blocksAt;

  // Blocks and info (edge ranges as counts for now).
  for (let s: u32 = 0; s < states; s++) {
    const at = bState(s);
    const info = region + infoAt + <usize>load<u32>(at, B_NEW_ID) * INFO_SIZE;
    const block = blocks + load<u32>(at, B_OFFSET);
    const edgeLink = load<i32>(at, B_EDGE_LINK);
    const anchoredLink = load<i32>(at, B_ANCHORED_LINK);
    store<i32>(info, edgeLink >= 0 ? <i32>load<u32>(bState(<u32>edgeLink), B_NEW_ID) : -1, I_EDGE_LINK);
    store<u32>(info, load<u32>(at, B_EDGE_COUNT), I_EDGE_START);
    store<i32>(info, anchoredLink >= 0 ? <i32>load<u32>(bState(<u32>anchoredLink), B_NEW_ID) : -1, I_ANCHORED_LINK);
    store<u32>(info, load<u32>(at, B_ANCHORED_COUNT), I_ANCHORED_START);
    store<u32>(info, load<u32>(at, B_DEPTH), I_DEPTH);
    store<i32>(info, load<i32>(at, B_ROOT), I_ROOT);
    store<u32>(block, load<u32>(at, B_NEW_ID), K_ID);
    store<u32>(block, 0, 12);
    if (isDense(s)) {
      store<u16>(block, <u16>NO_CHILD);
      store<u8>(block, <u8>DENSE, 2);
      store<u8>(block, 0, 3);
      store<u32>(block, 0, K_FAIL);
      const row = block + BLOCK_HEAD;
      memory.fill(row, 0, <usize>rowClasses << 2);
      // Class 0, a byte no piece has, leads back to the root from anywhere.
      const depth = load<u32>(at, B_DEPTH);
      store<u32>(row, entryOf(0, depth));
      for (let c: u32 = 0; c < 256; c++) {
        const k = <u32>load<u8>(classOf + c);
        if (k != 0) store<u32>(row + (<usize>k << 2), entryOf(transition(s, c), depth));
      }
    } else {
      const child = load<i32>(at, B_FIRST_CHILD);
      store<u16>(block, <u16>(child >= 0 ? load<u32>(bState(<u32>child), B_BYTE) : NO_CHILD));
      store<u8>(block, 0, 2);
      store<u8>(block, <u8>(child >= 0 ? entryOf(<u32>child, load<u32>(at, B_DEPTH)) & ENTRY_BITS : 0), 3);
      store<u32>(block, load<u32>(bState(load<u32>(at, B_FAIL)), B_OFFSET), K_FAIL);
    }
  }
  let edgeSum: u32 = 0;
  let anchoredSum: u32 = 0;
  for (let s: u32 = 0; s < states; s++) {
    const info = region + infoAt + <usize>s * INFO_SIZE;
    const e = load<u32>(info, I_EDGE_START);
    store<u32>(info, edgeSum, I_EDGE_START);
    store<u32>(info, edgeSum, I_EDGE_END);
    edgeSum += e;
    const a = load<u32>(info, I_ANCHORED_START);
    store<u32>(info, anchoredSum, I_ANCHORED_START);
    store<u32>(info, anchoredSum, I_ANCHORED_END);
    anchoredSum += a;
  }
  // Edges grouped by piece (a counting sort on the ids), and the child hash.
  memory.fill(region + childrenAt, 0xff, <usize>childSlots * CHILD_SIZE);
  for (let k: u32 = 0; k < pending; k++) {
    const rec = region + pendingAt + <usize>k * PENDING_SIZE;
    const piece = load<u32>(bState(load<u32>(rec)), B_NEW_ID);
    const edge = region + edgesAt + <usize>placeIn(region + infoAt + <usize>piece * INFO_SIZE, I_EDGE_END) * EDGE_SIZE;
    const parent = load<u32>(rec, 4);
    const child = load<u32>(rec, 8);
    store<u32>(edge, parent);
    store<u32>(edge, child, 4);
    let h = hashPair(parent, piece) & (childSlots - 1);
    while (load<u32>(region + childrenAt + (<usize>h << 4)) != 0xffffffff) h = (h + 1) & (childSlots - 1);
    const hs = region + childrenAt + (<usize>h << 4);
    store<u32>(hs, parent);
    store<u32>(hs, piece, 4);
    store<u32>(hs, child, 8);
    store<u32>(hs, 0, 12);
  }
  for (let k: u32 = 0; k < anchoredPending; k++) {
    const rec = region + anchoredPendingAt + <usize>k * PENDING_SIZE;
    const piece = load<u32>(bState(load<u32>(rec)), B_NEW_ID);
    const edge = region + anchoredAt + <usize>placeIn(region + infoAt + <usize>piece * INFO_SIZE, I_ANCHORED_END) * ANCHORED_SIZE;
    store<u32>(edge, load<u32>(rec, 4));
    store<i32>(edge, load<i32>(rec, 8), 4);
    store<u32>(edge, load<u32>(rec, 12), 8);
    store<u32>(edge, load<u32>(rec, 16), 12);
  }

  store<u32>(region, states, A_STATE_COUNT);
  store<u32>(region, nodeCount, A_NODE_COUNT);
  store<i32>(region, emptyRoot, A_EMPTY_ROOT);
  store<u32>(region, blocksAt, A_BLOCKS_AT);
  store<u32>(region, infoAt, A_INFO_AT);
  store<u32>(region, nodesAt, A_NODES_AT);
  store<u32>(region, edgesAt, A_EDGES_AT);
  store<u32>(region, anchoredAt, A_ANCHORED_AT);
  store<u32>(region, childrenAt, A_CHILDREN_AT);
  store<u32>(region, childSlots - 1, A_CHILD_MASK);
  store<u32>(region, rowClasses, A_CLASS_COUNT);
  store<u32>(region, AUTOMATON_ON, A_ENABLED);
}

/** The counting sort's placing step: the next free slot of a piece's range, whose end field (at `endField` of its info) moves past it. */
@inline function placeIn(info: usize, endField: u32): u32 {
  const slot = load<u32>(info + endField);
  store<u32>(info + endField, slot + 1);
  return slot;
}

/** Whether build state s ends a piece labelling edges: its own or a suffix's. */
@inline function hasOutput(s: u32): bool {
  const at = bState(s);
  return load<u32>(at, B_EDGE_COUNT) != 0 || load<i32>(at, B_EDGE_LINK) >= 0;
}

/** The entry of a step to build state s from a state of depth `from`: its block offset and entry bits. */
function entryOf(s: u32, from: u32): u32 {
  const at = bState(s);
  const down = load<u32>(at, B_DEPTH) == from + 1;
  return load<u32>(at, B_OFFSET) | (hasOutput(s) ? OUTPUT : 0) | (down ? DOWN : 0) | (down && load<i32>(at, B_ROOT) >= 0 ? ROOT : 0);
}

/** Whether the table at this region got an automaton. */
@inline export function automatonEnabled(region: usize): bool {
  return load<u32>(region, A_ENABLED) == AUTOMATON_ON;
}

/** States of the automaton at this region, 0 when it has none (a diagnostic for tests and benches). */
export function automatonStateCount(region: usize): u32 {
  return automatonEnabled(region) ? load<u32>(region, A_STATE_COUNT) : 0;
}

/** Marks piece-trie node `n` reached at `at` and takes its rules into the matched bests. */
@inline function reach(nodes: usize, n: u32, at: u32): void {
  const mark = MARKS + (<usize>n << 3);
  store<u32>(mark, generation);
  store<u32>(mark, at, 4);
  store<u32>(REACHED + (<usize>reachedCount << 2), n);
  reachedCount++;
  const node = nodes + <usize>n * NODE_BYTES;
  const a = load<i32>(node, P_ALLOW_PRIO);
  const aLine = load<u32>(node, P_ALLOW_LINE);
  if (outranks(a, aLine, matchedAllowPrio, matchedAllowLine)) {
    matchedAllowPrio = a;
    matchedAllowLine = aLine;
  }
  const d = load<i32>(node, P_DISALLOW_PRIO);
  const dLine = load<u32>(node, P_DISALLOW_LINE);
  if (outranks(d, dLine, matchedDisallowPrio, matchedDisallowLine)) {
    matchedDisallowPrio = d;
    matchedDisallowLine = dLine;
  }
}

/** Whether node n was reached by this path at or before `start`. */
@inline function reachedBy(n: u32, start: u32): bool {
  const mark = MARKS + (<usize>n << 3);
  return load<u32>(mark) == generation && load<u32>(mark, 4) <= start;
}

/** Whether node n was reached by this path. */
@inline function isReached(n: u32): bool {
  return load<u32>(MARKS + (<usize>n << 3)) == generation;
}

/**
 * The pieces labelling edges that end in state `id` after `at` path bytes (its own and its
 * suffix chain's): each reaches the children across its edges of nodes reached at or
 * before its start, found from whichever side is shorter: the piece's edges, or the nodes
 * reached so far looked up in the child hash.
 */
function takeOutputs(region: usize, infos: usize, nodes: usize, id: u32, at: u32): void {
  let q: i32 = <i32>id;
  // At most depth(id) + 1 rounds: each suffix on the chain is shorter.
  while (q >= 0) {
    const info = infos + <usize>q * INFO_SIZE;
    const first = load<u32>(info, I_EDGE_START);
    const last = load<u32>(info, I_EDGE_END);
    if (first != last) {
      const start = at - load<u32>(info, I_DEPTH);
      const reached = reachedCount;
      if (last - first <= reached) {
        const edges = region + load<u32>(region, A_EDGES_AT);
        for (let e = first; e < last; e++) {
          const edge = edges + <usize>e * EDGE_SIZE;
          const child = load<u32>(edge, 4);
          if (reachedBy(load<u32>(edge), start) && !isReached(child)) reach(nodes, child, at);
        }
      } else {
        const slots = region + load<u32>(region, A_CHILDREN_AT);
        const mask = load<u32>(region, A_CHILD_MASK);
        // Only the nodes reached before this piece (reach appends to the list).
        for (let r: u32 = 0; r < reached; r++) {
          const parent = load<u32>(REACHED + (<usize>r << 2));
          if (load<u32>(MARKS + (<usize>parent << 3), 4) > start) continue;
          let h = hashPair(parent, <u32>q) & mask;
          // Probes end at an empty slot: the hash is at most half full.
          while (true) {
            const slot = slots + (<usize>h << 4);
            const key = load<u32>(slot);
            if (key == 0xffffffff) break;
            if (key == parent && load<u32>(slot, 4) == <u32>q) {
              const child = load<u32>(slot, 8);
              if (!isReached(child)) reach(nodes, child, at);
              break;
            }
            h = (h + 1) & mask;
          }
        }
      }
    }
    q = load<i32>(info, I_EDGE_LINK);
  }
}

/**
 * The row entry (block offset | OUTPUT) after reading byte c in the non-dense state whose
 * failure state is at block offset `fail`: failure links followed up to a dense state or a
 * state whose child expects c.
 */
function fallBack(blocks: usize, classOf: usize, fail: u32, c: u32): u32 {
  let o = fail;
  // Each round goes to a shallower state; the root is dense.
  while (true) {
    const block = blocks + o;
    const head = load<u32>(block);
    // DOWN and ROOT describe the step from this (failure) state, not from the state the
    // byte was read in: that step went up.
    if ((head & DENSE_BIT) != 0) return load<u32>(block + BLOCK_HEAD + (<usize>load<u8>(classOf + c) << 2)) & ~(DOWN | ROOT);
    if ((head & 0xffff) == c) return (o + BLOCK_HEAD) | ((head >> CHILD_BITS_SHIFT) & OUTPUT);
    o = load<u32>(block, K_FAIL);
  }
  return 0;
}

/** The row entry after reading byte c in the state at block offset o. */
@inline function step(blocks: usize, classOf: usize, o: u32, c: u32): u32 {
  const block = blocks + o;
  const head = load<u32>(block);
  if ((head & DENSE_BIT) != 0) return load<u32>(block + BLOCK_HEAD + (<usize>load<u8>(classOf + c) << 2));
  if ((head & 0xffff) == c) return (o + BLOCK_HEAD) | (head >> CHILD_BITS_SHIFT);
  return fallBack(blocks, classOf, load<u32>(block, K_FAIL), c);
}

/**
 * Matches every wildcard rule of the automaton at `region` against path[0, len) at once;
 * the best matches are left in matchedAllowPrio/Line and matchedDisallowPrio/Line.
 */
export function scanAutomaton(region: usize, path: usize, len: u32): void {
  matchedAllowPrio = -1;
  matchedAllowLine = 0;
  matchedDisallowPrio = -1;
  matchedDisallowLine = 0;
  const blocks = region + load<u32>(region, A_BLOCKS_AT);
  const infos = region + load<u32>(region, A_INFO_AT);
  const nodes = region + load<u32>(region, A_NODES_AT);
  const classOf = region + A_CLASS_OF;
  generation++;
  if (generation == 0) {
    // Stamps wrapped: clear them, once per 2^32 paths.
    memory.fill(MARKS, 0, MAX_NODES * 8);
    generation = 1;
  }
  reachedCount = 0;
  const emptyRoot = load<i32>(region, A_EMPTY_ROOT);
  if (emptyRoot >= 0) reach(nodes, <u32>emptyRoot, 0);

  // The prefix walk: while each step goes one deeper, the state spells path[0, i) and
  // reaches the root of the s0 it spells, if any. At most len steps.
  let o: u32 = 0;
  let i: u32 = 0;
  while (i < len) {
    const entry = step(blocks, classOf, o, <u32>load<u8>(path + i));
    i++;
    o = entry & ~ENTRY_BITS;
    if ((entry & OUTPUT) != 0 && reachedCount != 0) takeOutputs(region, infos, nodes, load<u32>(blocks + o, K_ID), i);
    if ((entry & DOWN) == 0) break;
    if ((entry & ROOT) != 0) reach(nodes, <u32>load<i32>(infos + <usize>load<u32>(blocks + o, K_ID) * INFO_SIZE, I_ROOT), i);
  }
  if (reachedCount == 0) return; // no s0 prefixes the path: no wildcard rule can match

  // The rest. Invariant: `o` is the block of the automaton's state after path[0, i), and
  // every piece ending at or before i has been taken. At most 2 × (len − i) block reads
  // (see the header).
  while (i < len) {
    const entry = step(blocks, classOf, o, <u32>load<u8>(path + i));
    i++;
    o = entry & ~ENTRY_BITS;
    if ((entry & OUTPUT) != 0) takeOutputs(region, infos, nodes, load<u32>(blocks + o, K_ID), i);
  }

  // Anchored last pieces: those ending the path (the final state and its suffix chain).
  const anchoredEdges = region + load<u32>(region, A_ANCHORED_AT);
  let q: i32 = <i32>load<u32>(blocks + o, K_ID);
  while (q >= 0) {
    const info = infos + <usize>q * INFO_SIZE;
    const start = len - load<u32>(info, I_DEPTH);
    const last = load<u32>(info, I_ANCHORED_END);
    for (let e = load<u32>(info, I_ANCHORED_START); e < last; e++) {
      const edge = anchoredEdges + <usize>e * ANCHORED_SIZE;
      if (!reachedBy(load<u32>(edge), start)) continue;
      const prio = load<i32>(edge, 4);
      const line = load<u32>(edge, 8);
      if (load<u32>(edge, 12) == KIND_ALLOW) {
        if (outranks(prio, line, matchedAllowPrio, matchedAllowLine)) { matchedAllowPrio = prio; matchedAllowLine = line; }
      } else if (outranks(prio, line, matchedDisallowPrio, matchedDisallowLine)) {
        matchedDisallowPrio = prio;
        matchedDisallowLine = line;
      }
    }
    q = load<i32>(info, I_ANCHORED_LINK);
  }
}
