// TrieBuilder: the radix trie of plain rules (no `*` but trailing ones), built from a RuleBuffer and written as format.ts NODE records.
import * as F from './format.js';

/**
 * The trie lives as parallel fields in one reused Int32Array (node i's fields start at
 * i * T_STRIDE): a corpus file makes hundreds of nodes per compile, and objects for them
 * cost an allocation each plus the collector's time. Fields: label = src[T_START, T_END)
 * of the RuleBuffer's bytes; T_FIRST its first byte; children as a list sorted by first
 * byte (T_CHILD, T_NEXT, T_COUNT); T_WIDE the node's slot in `byteIndex` or -1; the four
 * lines (0 = none) in the order of format.ts's NODE, then the extra priority of each
 * prefix rule (format.ts allowExtra, disallowExtra).
 */
const T_START = 0;
const T_END = 1;
const T_FIRST = 2;
const T_CHILD = 3;
const T_NEXT = 4;
const T_COUNT = 5;
const T_WIDE = 6;
const T_PREFIX_ALLOW = 7;
const T_PREFIX_DISALLOW = 8;
const T_EXACT_ALLOW = 9;
const T_EXACT_DISALLOW = 10;
const T_ALLOW_EXTRA = 11;
const T_DISALLOW_EXTRA = 12;
const T_STRIDE = 13;

/**
 * A node with this many children gets a 256-entry child index by byte: a long sorted
 * list (the `/` node of a large file has dozens of children) would be walked by every
 * rule passing through it.
 */
const WIDE_CHILDREN = 8;

// Format offsets as u32 word indexes, in module constants: V8 folds these, while each
// read of an imported binding stays a load (measured: twice the cost of these stores).
const NODE_WORDS = F.NODE_SIZE / 4;
const N_LABEL_OFFSET = F.N_LABEL_OFFSET / 4;
const N_LABEL_LENGTH = F.N_LABEL_LENGTH / 4;
const N_FIRST_CHILD = F.N_FIRST_CHILD / 4;
const N_CHILD_COUNT = F.N_CHILD_COUNT / 4;
const N_PREFIX_ALLOW = F.N_PREFIX_ALLOW / 4;
const N_PREFIX_DISALLOW = F.N_PREFIX_DISALLOW / 4;
const N_EXACT_ALLOW = F.N_EXACT_ALLOW / 4;
const N_EXACT_DISALLOW = F.N_EXACT_DISALLOW / 4;

/** Sets node `index` to a label src[start, end) starting with `first`, no children, no lines. */
function newNode(t: Int32Array, index: number, start: number, end: number, first: number): void {
  const at = index * T_STRIDE;
  t[at + T_START] = start;
  t[at + T_END] = end;
  t[at + T_FIRST] = first;
  t[at + T_CHILD] = -1;
  t[at + T_NEXT] = -1;
  t[at + T_COUNT] = 0;
  t[at + T_WIDE] = -1;
  t[at + T_PREFIX_ALLOW] = 0;
  t[at + T_PREFIX_DISALLOW] = 0;
  t[at + T_EXACT_ALLOW] = 0;
  t[at + T_EXACT_DISALLOW] = 0;
  t[at + T_ALLOW_EXTRA] = 0;
  t[at + T_DISALLOW_EXTRA] = 0;
}

/**
 * Records a rule ending at node `at` (a field offset); a prefix rule with `extra` priority
 * beyond the node's depth (its trailing `*`s and `$`). Two prefix rules of a kind at one
 * node match the same paths, so only the one of highest priority can decide: it is kept,
 * and between equals the earliest line (RFC 9309 leaves equal rules to us; robots.cc
 * keeps the first).
 */
function mark(t: Int32Array, at: number, anchored: boolean, allow: boolean, line: number, extra: number): void {
  if (anchored) {
    const field = at + (allow ? T_EXACT_ALLOW : T_EXACT_DISALLOW);
    const current = t[field]!;
    if (current === 0 || line < current) t[field] = line;
    return;
  }
  const field = at + (allow ? T_PREFIX_ALLOW : T_PREFIX_DISALLOW);
  const extraField = at + (allow ? T_ALLOW_EXTRA : T_DISALLOW_EXTRA);
  const current = t[field]!;
  const currentExtra = t[extraField]!;
  if (current === 0 || extra > currentExtra || (extra === currentExtra && line < current)) {
    t[field] = line;
    t[extraField] = extra;
  }
}

/**
 * Builds one trie at a time; its arrays are kept and grown by doubling from one build to
 * the next (an encoder owns one builder and never re-enters it).
 * @example
 * const trie = new TrieBuilder();
 * trie.reset(ruleCount);
 * trie.insert(rules.bytes, start, length, 0, false, false, line, 0);
 * trie.nodeCount; // 2: the root and one leaf
 */
export class TrieBuilder {
  private t = new Int32Array(1024 * T_STRIDE);
  /** Child by byte for wide nodes: slot s holds entries [256 s, 256 s + 256), -1 = none. */
  private byteIndex = new Int32Array(16 * 256);
  private wideCount = 0;
  /** Breadth-first node order, for writeNodes. */
  private order = new Int32Array(1024);
  /**
   * The previous insertion's path: pathNode[d] is its d-th node from the root and
   * pathDepth[d] the pattern bytes matched at that node's end (the root: 0), for
   * d < pathLength. Rules often share a prefix with the rule before them (files list
   * `/a/b/c`, `/a/b/d`, …): the next insertion resumes there instead of at the root.
   */
  private pathNode = new Int32Array(256);
  private pathDepth = new Int32Array(256);
  private pathLength = 0;
  /** Nodes of the trie being built, node 0 the root. */
  nodeCount = 1;
  /**
   * Label bytes of the trie being built. Shared prefixes are stored once: the labels
   * take what the leaves added (a split only moves bytes from a label to its new head).
   */
  labelBytes = 0;

  /** Starts an empty trie with room for `ruleCount` rules (a rule adds at most two nodes: a leaf and a split head). */
  reset(ruleCount: number): void {
    const need = (1 + 2 * ruleCount) * T_STRIDE;
    if (this.t.length < need) this.t = new Int32Array(Math.max(need, this.t.length * 2));
    this.wideCount = 0;
    this.pathLength = 0;
    this.labelBytes = 0;
    newNode(this.t, 0, 0, 0, 0);
    this.nodeCount = 1;
  }

  /** The child of wide node `at` (a field offset) just before byte `c` in its list, or -1. */
  private widePredecessor(at: number, c: number): number {
    const byteIndex = this.byteIndex;
    const base = this.t[at + T_WIDE]! << 8;
    for (let b = c - 1; b >= 0; b--) {
      const x = byteIndex[base + b]!;
      if (x >= 0) return x;
    }
    return -1;
  }

  /** Puts `node` (its byte `c`) after `prev` (-1: first) in the child list of `parent`. */
  private link(parent: number, prev: number, node: number, c: number): void {
    const t = this.t;
    const pa = parent * T_STRIDE;
    if (prev < 0) {
      t[node * T_STRIDE + T_NEXT] = t[pa + T_CHILD]!;
      t[pa + T_CHILD] = node;
    } else {
      t[node * T_STRIDE + T_NEXT] = t[prev * T_STRIDE + T_NEXT]!;
      t[prev * T_STRIDE + T_NEXT] = node;
    }
    const wide = t[pa + T_WIDE]!;
    if (wide >= 0) this.byteIndex[(wide << 8) + c] = node;
  }

  /** Gives the node at field offset `at` a child index by byte, from its list. */
  private widen(at: number): void {
    const t = this.t;
    const slot = this.wideCount++;
    if (this.byteIndex.length < (slot + 1) << 8) {
      const grown = new Int32Array(this.byteIndex.length * 2);
      grown.set(this.byteIndex);
      this.byteIndex = grown;
    }
    const byteIndex = this.byteIndex;
    const base = slot << 8;
    byteIndex.fill(-1, base, base + 256);
    for (let x = t[at + T_CHILD]!; x >= 0; x = t[x * T_STRIDE + T_NEXT]!) byteIndex[base + t[x * T_STRIDE + T_FIRST]!] = x;
    t[at + T_WIDE] = slot;
  }

  /**
   * Inserts a plain rule, pattern src[base, base + len): for `/p*`, `/p` with `extra` 1 (its
   * priority beyond `len`; 0 for a rule without `*`). `shared` is how many leading bytes the
   * pattern has in common with the previous plain rule inserted. The walk
   * consumes the rule's bytes left to right and splits at most one label, so building
   * the trie costs O(total pattern bytes) plus the child lookups (short lists, or an
   * index for wide nodes).
   */
  insert(src: Uint8Array, base: number, len: number, shared: number, anchored: boolean, allow: boolean, line: number, extra: number): void {
    const t = this.t;
    let count = this.nodeCount;
    if (this.pathNode.length < len + 2) {
      this.pathNode = new Int32Array(Math.max(len + 2, this.pathNode.length * 2));
      this.pathDepth = new Int32Array(this.pathNode.length);
      this.pathLength = 0;
      shared = 0;
    }
    const pathNode = this.pathNode;
    const pathDepth = this.pathDepth;
    // The previous rule's path spells its own pattern, so its deepest node ending within
    // the shared bytes spells this pattern's prefix too: nothing above it changes here.
    const previousPath = this.pathLength;
    let d = previousPath - 1;
    while (d > 0 && pathDepth[d]! > shared) d--;
    let node = d > 0 ? pathNode[d]! : 0;
    let i = d > 0 ? pathDepth[d]! : 0;
    if (d < 0) d = 0;
    for (;;) {
      pathNode[d] = node;
      pathDepth[d] = i;
      d++;
      const na = node * T_STRIDE;
      if (i === len) {
        this.pathLength = d;
        mark(t, na, anchored, allow, line, extra);
        this.nodeCount = count;
        return;
      }
      let child: number;
      let k: number;
      if (i < shared && d < previousPath) {
        // Still on the previous rule's path (pathNode[d] is its next node, not yet
        // overwritten): that node's label starts with this pattern's next byte and agrees
        // with it up to `shared`, and it reaches past `shared` (the node resumed at is
        // the deepest one within it), so no lookup and no comparing before `shared`.
        child = pathNode[d]!;
        k = shared - i;
      } else {
        const c = src[base + i]!;
        // Children stay sorted by first byte (a split keeps its head's first byte). In a
        // short list the walk stops at the first child whose byte is not smaller, so
        // `prev` is where a new leaf goes; a wide node finds it in its index when needed.
        let prev = -1;
        const wide = t[na + T_WIDE]!;
        if (wide >= 0) {
          child = this.byteIndex[(wide << 8) + c]!;
          if (child < 0) prev = this.widePredecessor(na, c);
        } else {
          child = t[na + T_CHILD]!;
          while (child >= 0 && t[child * T_STRIDE + T_FIRST]! < c) {
            prev = child;
            child = t[child * T_STRIDE + T_NEXT]!;
          }
          if (child >= 0 && t[child * T_STRIDE + T_FIRST] !== c) child = -1;
        }
        if (child < 0) {
          const leaf = count;
          newNode(t, leaf, base + i, base + len, c);
          this.labelBytes += len - i;
          mark(t, leaf * T_STRIDE, anchored, allow, line, extra);
          this.link(node, prev, leaf, c);
          pathNode[d] = leaf;
          pathDepth[d] = len;
          this.pathLength = d + 1;
          const children = t[na + T_COUNT]! + 1;
          t[na + T_COUNT] = children;
          if (children === WIDE_CHILDREN) this.widen(na);
          this.nodeCount = count + 1;
          return;
        }
        k = 1;
      }
      const at = child * T_STRIDE;
      const start = t[at + T_START]!;
      const labelLength = t[at + T_END]! - start;
      while (k < labelLength && i + k < len && src[start + k] === src[base + i + k]) k++;
      if (k < labelLength) {
        // The rule leaves the label part-way. The child stays where it is in its parent's
        // list (and index) as the head, src[start, start + k); a new node takes the tail
        // with everything below and on the child (children, index, lines).
        const tail = count++;
        const ta = tail * T_STRIDE;
        t[ta + T_START] = start + k;
        t[ta + T_END] = t[at + T_END]!;
        t[ta + T_FIRST] = src[start + k]!;
        t[ta + T_CHILD] = t[at + T_CHILD]!;
        t[ta + T_NEXT] = -1;
        t[ta + T_COUNT] = t[at + T_COUNT]!;
        t[ta + T_WIDE] = t[at + T_WIDE]!;
        t[ta + T_PREFIX_ALLOW] = t[at + T_PREFIX_ALLOW]!;
        t[ta + T_PREFIX_DISALLOW] = t[at + T_PREFIX_DISALLOW]!;
        t[ta + T_EXACT_ALLOW] = t[at + T_EXACT_ALLOW]!;
        t[ta + T_EXACT_DISALLOW] = t[at + T_EXACT_DISALLOW]!;
        t[ta + T_ALLOW_EXTRA] = t[at + T_ALLOW_EXTRA]!;
        t[ta + T_DISALLOW_EXTRA] = t[at + T_DISALLOW_EXTRA]!;
        t[at + T_END] = start + k;
        t[at + T_CHILD] = tail;
        t[at + T_COUNT] = 1;
        t[at + T_WIDE] = -1;
        t[at + T_PREFIX_ALLOW] = 0;
        t[at + T_PREFIX_DISALLOW] = 0;
        t[at + T_EXACT_ALLOW] = 0;
        t[at + T_EXACT_DISALLOW] = 0;
        t[at + T_ALLOW_EXTRA] = 0;
        t[at + T_DISALLOW_EXTRA] = 0;
      }
      node = child;
      i += k;
    }
  }

  /**
   * Writes the trie into `table` (whose u32 view is `u32`, DataView `tableView`): NODE
   * records at nodesOffset, first bytes at firstBytesOffset, labels into the pool from
   * poolOffset, labels read from `src` (DataView `srcView`). Returns the pool offset
   * after the labels. One pass per node in breadth-first order, which keeps every node's
   * children contiguous and sorted by first byte, as inserted (the matcher compares a
   * child's first byte with 16 children's at once; validate.ts checks the order): the
   * node's label into the pool, its first byte; its children join the queue, so
   * childCursor is the number the first of them gets.
   */
  writeNodes(table: Uint8Array, u32: Uint32Array, tableView: DataView, src: Uint8Array, srcView: DataView, nodesOffset: number, firstBytesOffset: number, poolOffset: number): number {
    const t = this.t;
    const nodeCount = this.nodeCount;
    if (this.order.length < nodeCount) this.order = new Int32Array(Math.max(nodeCount, this.order.length * 2));
    const order = this.order;
    order[0] = 0;
    let filled = 1;
    let pool = poolOffset;
    let childCursor = 1;
    for (let k = 0; k < nodeCount; k++) {
      const at = order[k]! * T_STRIDE;
      for (let c = t[at + T_CHILD]!; c >= 0; c = t[c * T_STRIDE + T_NEXT]!) order[filled++] = c;
      const start = t[at + T_START]!;
      const end = t[at + T_END]!;
      const w = (nodesOffset >> 2) + k * NODE_WORDS;
      const childCount = t[at + T_COUNT]!;
      u32[w + N_LABEL_OFFSET] = pool;
      u32[w + N_LABEL_LENGTH] = end - start;
      u32[w + N_FIRST_CHILD] = childCount > 0 ? childCursor : 0;
      // childCount (u16) and the two extras (u8) share a word, little-endian.
      u32[w + N_CHILD_COUNT] = childCount | (t[at + T_ALLOW_EXTRA]! << 16) | (t[at + T_DISALLOW_EXTRA]! << 24);
      u32[w + N_PREFIX_ALLOW] = t[at + T_PREFIX_ALLOW]!;
      u32[w + N_PREFIX_DISALLOW] = t[at + T_PREFIX_DISALLOW]!;
      u32[w + N_EXACT_ALLOW] = t[at + T_EXACT_ALLOW]!;
      u32[w + N_EXACT_DISALLOW] = t[at + T_EXACT_DISALLOW]!;
      table[firstBytesOffset + k] = t[at + T_FIRST]!;
      childCursor += childCount;
      // Four bytes a turn through the views (labels start anywhere: unaligned words).
      let i = start;
      for (; i + 4 <= end; i += 4, pool += 4) tableView.setInt32(pool, srcView.getInt32(i, true), true);
      for (; i < end; i++) table[pool++] = src[i]!;
    }
    return pool;
  }
}
