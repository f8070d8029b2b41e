// Rule-table encoder: normalized rules → the byte layout described in format.ts.
import * as F from './format.js';

/** One rule ready for the table: pattern already normalized for its profile. */
export interface TableRule {
  readonly allow: boolean;
  /** Normalized pattern: `*` is a wildcard, a final `$` anchors; its length is its priority. */
  readonly pattern: Uint8Array;
  /** 1-based source line; lower lines win ties between rules of equal priority. */
  readonly line: number;
  /** Caller's id reported for wildcard matches (ACAP field index); defaults to the rule's index. */
  readonly id?: number;
}

export interface EncodeOptions {
  /** FLAG_* bits from format.ts. */
  readonly flags: number;
  /** Put every rule in the wildcard list (each rule evaluated on its own, for callers that need every match). */
  readonly allWildcard?: boolean;
}

const STAR = 0x2a;
const DOLLAR = 0x24;

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
const WILDCARD_SIZE = F.WILDCARD_SIZE;
const W_LINE = F.W_LINE / 4;
const W_PRIORITY = F.W_PRIORITY / 4;
const W_FIRST_SEGMENT = F.W_FIRST_SEGMENT / 4;
const W_SEGMENT_COUNT = F.W_SEGMENT_COUNT / 4;
const W_KIND = F.W_KIND;
const W_ANCHORED = F.W_ANCHORED;
const W_ID = F.W_ID / 4;
const SEGMENT_WORDS = F.SEGMENT_SIZE / 4;
const S_BYTES_OFFSET = F.S_BYTES_OFFSET / 4;
const S_LENGTH = F.S_LENGTH / 4;
const S_FAIL_OFFSET = F.S_FAIL_OFFSET / 4;

/**
 * Rules laid out for the encoder, patterns back to back in one byte array: every later
 * pass (prefix sharing, trie walk, label and segment copies) then reads one array, not
 * a view per rule (each view costs V8 a setup per loop over it). Rule i's pattern is
 * bytes[start[i], end[i]); star[i] is its first `*` as an offset from start[i], or -1.
 * compile.ts fills one while it scans patterns, encodeRuleTable from TableRules; both
 * reuse one instance (acquireRuleBuffer).
 * @example
 * const rules = new RuleBuffer();
 * rules.push(new TextEncoder().encode('/private'), false, 2, 0);
 * encodeRuleBuffer(rules, { flags: 0 }); // same table as encodeRuleTable gives
 */
export class RuleBuffer {
  bytes: Uint8Array = new Uint8Array(1 << 16);
  /** `bytes` as 32-bit words (the same buffer). */
  words: Int32Array = new Int32Array(this.bytes.buffer);
  /** Bytes of `bytes` in use. */
  size = 0;
  /** Rules in use. */
  count = 0;
  start: Int32Array = new Int32Array(1024);
  end: Int32Array = new Int32Array(1024);
  star: Int32Array = new Int32Array(1024);
  allow: Uint8Array = new Uint8Array(1024);
  line: Int32Array = new Int32Array(1024);
  id: Int32Array = new Int32Array(1024);

  reset(): void {
    this.size = 0;
    this.count = 0;
  }

  /** Room for `rules` more rules and `bytes` more pattern bytes. */
  reserve(rules: number, bytes: number): void {
    // (+ 3: commit pads each pattern to a 4-byte boundary.)
    if (this.size + bytes + 3 > this.bytes.length) {
      const grown = new Uint8Array(Math.max(this.size + bytes + 3, this.bytes.length * 2));
      grown.set(this.bytes.subarray(0, this.size));
      this.bytes = grown;
      this.words = new Int32Array(grown.buffer);
    }
    const need = this.count + rules;
    if (need > this.start.length) {
      const capacity = Math.max(need, this.start.length * 2);
      this.start = grow(this.start, capacity);
      this.end = grow(this.end, capacity);
      this.star = grow(this.star, capacity);
      this.line = grow(this.line, capacity);
      this.id = grow(this.id, capacity);
      const allow = new Uint8Array(capacity);
      allow.set(this.allow);
      this.allow = allow;
    }
  }

  /**
   * Appends a rule whose pattern bytes are already at bytes[size, size + length) (the
   * caller wrote them after `reserve`); `star` as for `star[i]`.
   */
  commit(length: number, star: number, allow: boolean, line: number, id: number): void {
    const i = this.count++;
    const start = this.size;
    this.start[i] = start;
    this.end[i] = start + length;
    // Patterns start 4-aligned, so two of them compare a word at a time.
    this.size = (start + length + 3) & ~3;
    this.star[i] = star;
    this.allow[i] = allow ? 1 : 0;
    this.line[i] = line;
    this.id[i] = id;
  }

  /** Appends a rule, copying its pattern and finding its first `*`. */
  push(pattern: Uint8Array, allow: boolean, line: number, id: number): void {
    const n = pattern.length;
    this.reserve(1, n);
    const bytes = this.bytes;
    const at = this.size;
    let star = -1;
    for (let i = 0; i < n; i++) {
      const c = pattern[i]!;
      bytes[at + i] = c;
      if (c === STAR && star < 0) star = i;
    }
    this.commit(n, star, allow, line, id);
  }
}

function grow(a: Int32Array, capacity: number): Int32Array {
  const grown = new Int32Array(capacity);
  grown.set(a);
  return grown;
}

const sharedBuffer = new RuleBuffer();
let sharedInUse = false;

/**
 * The encoder's input for one compile: the shared, reused RuleBuffer, emptied, or a new
 * one while the shared one is in use (a getter on a caller's rule object could re-enter
 * a compile from inside the loop that fills it). Pair with releaseRuleBuffer.
 * @example const rules = acquireRuleBuffer(); try { rules.push(p, false, 2, 0); encodeRuleBuffer(rules, { flags: 0 }); } finally { releaseRuleBuffer(rules); }
 */
export function acquireRuleBuffer(): RuleBuffer {
  if (sharedInUse) return new RuleBuffer();
  sharedInUse = true;
  sharedBuffer.reset();
  return sharedBuffer;
}

/**
 * Hands back a buffer from acquireRuleBuffer.
 * @example releaseRuleBuffer(rules)
 */
export function releaseRuleBuffer(rules: RuleBuffer): void {
  if (rules === sharedBuffer) sharedInUse = false;
}

/**
 * The radix trie of plain rules, as parallel fields in one reused Int32Array (node i's
 * fields start at i * T_STRIDE): a corpus file makes hundreds of nodes per compile, and
 * objects for them cost an allocation each plus the collector's time. Fields:
 * label = src[T_START, T_END) of the RuleBuffer's bytes; T_FIRST its first byte;
 * children as a list sorted by first byte (T_CHILD, T_NEXT, T_COUNT); T_WIDE the node's
 * slot in `byteIndex` or -1; the four earliest lines (0 = none) in the order of
 * format.ts's NODE.
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
const T_STRIDE = 11;

/**
 * A node with this many children gets a 256-entry child index by byte: a long sorted
 * list (the `/` node of a large file has dozens of children) would be walked by every
 * rule passing through it.
 */
const WIDE_CHILDREN = 8;

/** Trie scratch, reused across calls (encoding is synchronous and never re-entered); grown by doubling. */
let trie = new Int32Array(1024 * T_STRIDE);
/** Child by byte for wide nodes: slot s holds entries [256 s, 256 s + 256), -1 = none. */
let byteIndex = new Int32Array(16 * 256);
let wideCount = 0;
/** Breadth-first node order, reused likewise. */
let orderScratch = new Int32Array(1024);

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
}

/**
 * Records a rule ending at node `at` (a field offset). Earliest line wins: RFC 9309
 * leaves equal rules to us; robots.cc keeps the first.
 */
function mark(t: Int32Array, at: number, anchored: boolean, allow: boolean, line: number): void {
  const field = at + (anchored ? (allow ? T_EXACT_ALLOW : T_EXACT_DISALLOW) : allow ? T_PREFIX_ALLOW : T_PREFIX_DISALLOW);
  const current = t[field]!;
  if (current === 0 || line < current) t[field] = line;
}

/** The child of wide node `at` (a field offset) just before byte `c` in its list, or -1. */
function widePredecessor(t: Int32Array, at: number, c: number): number {
  const base = t[at + T_WIDE]! << 8;
  for (let b = c - 1; b >= 0; b--) {
    const x = byteIndex[base + b]!;
    if (x >= 0) return x;
  }
  return -1;
}

/** Puts `node` (its byte `c`) after `prev` (-1: first) in the child list of `parent`. */
function link(t: Int32Array, parent: number, prev: number, node: number, c: number): void {
  const pa = parent * T_STRIDE;
  if (prev < 0) {
    t[node * T_STRIDE + T_NEXT] = t[pa + T_CHILD]!;
    t[pa + T_CHILD] = node;
  } else {
    t[node * T_STRIDE + T_NEXT] = t[prev * T_STRIDE + T_NEXT]!;
    t[prev * T_STRIDE + T_NEXT] = node;
  }
  const wide = t[pa + T_WIDE]!;
  if (wide >= 0) byteIndex[(wide << 8) + c] = node;
}

/** Gives `parent` (a field offset) a child index by byte, from its list. */
function widen(t: Int32Array, at: number): void {
  const slot = wideCount++;
  if (byteIndex.length < (slot + 1) << 8) {
    const grown = new Int32Array(byteIndex.length * 2);
    grown.set(byteIndex);
    byteIndex = grown;
  }
  const base = slot << 8;
  byteIndex.fill(-1, base, base + 256);
  for (let x = t[at + T_CHILD]!; x >= 0; x = t[x * T_STRIDE + T_NEXT]!) byteIndex[base + t[x * T_STRIDE + T_FIRST]!] = x;
  t[at + T_WIDE] = slot;
}

/**
 * The previous insertion's path: pathNode[d] is its d-th node from the root and
 * pathDepth[d] the pattern bytes matched at that node's end (the root: 0), for
 * d < pathLength. Rules often share a prefix with the rule before them (files list
 * `/a/b/c`, `/a/b/d`, …): the next insertion resumes there instead of at the root.
 */
let pathNode = new Int32Array(256);
let pathDepth = new Int32Array(256);
let pathLength = 0;
/** Label bytes of the trie being built. */
let labelTotal = 0;

/**
 * Inserts a plain rule, pattern src[base, base + len), into the trie `t` holding `count`
 * nodes, node 0 the root; returns the new node count. `shared` is how many leading bytes
 * the pattern has in common with the previous plain rule inserted. The walk consumes the
 * rule's bytes left to right and splits at most one label, so building the trie costs
 * O(total pattern bytes) plus the child lookups (short lists, or an index for wide nodes).
 */
function insertRule(t: Int32Array, count: number, src: Uint8Array, base: number, len: number, shared: number, anchored: boolean, allow: boolean, line: number): number {
  if (pathNode.length < len + 2) {
    pathNode = new Int32Array(Math.max(len + 2, pathNode.length * 2));
    pathDepth = new Int32Array(pathNode.length);
    pathLength = 0;
    shared = 0;
  }
  // The previous rule's path spells its own pattern, so its deepest node ending within
  // the shared bytes spells this pattern's prefix too: nothing above it changes here.
  let d = pathLength - 1;
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
      pathLength = d;
      mark(t, na, anchored, allow, line);
      return count;
    }
    const c = src[base + i]!;
    // Children stay sorted by first byte (a split keeps its head's first byte). In a
    // short list the walk stops at the first child whose byte is not smaller, so `prev`
    // is where a new leaf goes; a wide node finds it in its index when it is needed.
    let prev = -1;
    let child: number;
    const wide = t[na + T_WIDE]!;
    if (wide >= 0) {
      child = byteIndex[(wide << 8) + c]!;
      if (child < 0) prev = widePredecessor(t, na, c);
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
      labelTotal += len - i;
      mark(t, leaf * T_STRIDE, anchored, allow, line);
      link(t, node, prev, leaf, c);
      pathNode[d] = leaf;
      pathDepth[d] = len;
      pathLength = d + 1;
      const children = t[na + T_COUNT]! + 1;
      t[na + T_COUNT] = children;
      if (children === WIDE_CHILDREN) widen(t, na);
      return count + 1;
    }
    const at = child * T_STRIDE;
    const start = t[at + T_START]!;
    const labelLength = t[at + T_END]! - start;
    let k = 1;
    while (k < labelLength && i + k < len && src[start + k] === src[base + i + k]) k++;
    if (k < labelLength) {
      // The rule leaves the label part-way: a new head takes the child's place in the
      // list and the child keeps the tail (and its own children, whose links name it).
      const head = count++;
      newNode(t, head, start, start + k, c);
      // Unlink the child: it is the entry after `prev`.
      if (wide >= 0) prev = widePredecessor(t, na, c);
      if (prev < 0) t[na + T_CHILD] = t[at + T_NEXT]!;
      else t[prev * T_STRIDE + T_NEXT] = t[at + T_NEXT]!;
      link(t, node, prev, head, c);
      const h = head * T_STRIDE;
      t[h + T_CHILD] = child;
      t[h + T_COUNT] = 1;
      t[at + T_START] = start + k;
      t[at + T_FIRST] = src[start + k]!;
      t[at + T_NEXT] = -1;
      node = head;
    } else {
      node = child;
    }
    i += k;
  }
}

/** Writes KMP failure links of seg = src[start, end) as u32 at words[at …] (a word index). */
function writeFailureLinks(src: Uint8Array, start: number, end: number, words: Uint32Array, at: number): void {
  const m = end - start;
  if (m === 0) return;
  words[at] = 0;
  let k = 0;
  for (let q = 1; q < m; q++) {
    const c = src[start + q];
    while (k > 0 && c !== src[start + k]) k = words[at + k - 1]!;
    if (c === src[start + k]) k++;
    words[at + q] = k;
  }
}

/**
 * Whether wildcard rule `a` comes before `b`: priority (pattern length, `*` and `$`
 * included) descending, then line, then list order (what a stable sort gives).
 */
function wildcardBefore(rules: RuleBuffer, a: number, b: number): boolean {
  const pa = rules.end[a]! - rules.start[a]!;
  const pb = rules.end[b]! - rules.start[b]!;
  if (pa !== pb) return pa > pb;
  const la = rules.line[a]!;
  const lb = rules.line[b]!;
  return la !== lb ? la < lb : a < b;
}

/** Counting-sort scratch: a count per priority, and the sorted indexes. */
let priorityCounts = new Int32Array(256);
let sortedScratch = new Int32Array(256);

/**
 * Sorts wild[0, n) (rule indexes, in list order) in wildcard order. Most files have a
 * handful: insertion sort spares Array#sort's per-call setup. Longer lists whose lines
 * never decrease (file order, as compile.ts gives them) only need a stable sort by
 * priority, which counting does in linear time; anything else goes to Array#sort.
 */
function sortWildcards(wild: Int32Array, n: number, rules: RuleBuffer): void {
  if (n <= 16) {
    for (let i = 1; i < n; i++) {
      const w = wild[i]!;
      let j = i;
      for (; j > 0 && wildcardBefore(rules, w, wild[j - 1]!); j--) wild[j] = wild[j - 1]!;
      wild[j] = w;
    }
    return;
  }
  const starts = rules.start;
  const ends = rules.end;
  const lines = rules.line;
  let maxPriority = 0;
  let linesInOrder = true;
  for (let i = 0; i < n; i++) {
    const w = wild[i]!;
    const priority = ends[w]! - starts[w]!;
    if (priority > maxPriority) maxPriority = priority;
    if (i > 0 && lines[w]! < lines[wild[i - 1]!]!) linesInOrder = false;
  }
  if (!linesInOrder || maxPriority > 1 << 16) {
    const sorted = Array.from(wild.subarray(0, n)).sort((a, b) => (wildcardBefore(rules, a, b) ? -1 : wildcardBefore(rules, b, a) ? 1 : 0));
    wild.set(sorted);
    return;
  }
  if (priorityCounts.length < maxPriority + 2) priorityCounts = new Int32Array(Math.max(maxPriority + 2, priorityCounts.length * 2));
  if (sortedScratch.length < n) sortedScratch = new Int32Array(Math.max(n, sortedScratch.length * 2));
  const counts = priorityCounts;
  const sorted = sortedScratch;
  counts.fill(0, 0, maxPriority + 2);
  // counts[maxPriority - p + 1] counts priority p, so prefix sums give descending slots.
  for (let i = 0; i < n; i++) {
    const w = wild[i]!;
    const slot = maxPriority - (ends[w]! - starts[w]!) + 1;
    counts[slot] = counts[slot]! + 1;
  }
  for (let p = 1; p <= maxPriority + 1; p++) counts[p] = counts[p]! + counts[p - 1]!;
  for (let i = 0; i < n; i++) {
    const w = wild[i]!;
    const slot = maxPriority - (ends[w]! - starts[w]!);
    sorted[counts[slot]!] = w;
    counts[slot] = counts[slot]! + 1;
  }
  wild.set(sorted.subarray(0, n));
}

/**
 * Encodes rules into a RuleTable (format.ts). Rules must come in file order; equal
 * patterns keep the earliest line.
 * @example
 * const table = encodeRuleTable([{ allow: false, pattern: utf8('/private'), line: 2 }], { flags: 0 });
 * table.length; // 48-byte header + nodes + pool
 */
export function encodeRuleTable(rules: readonly TableRule[], options: EncodeOptions): Uint8Array {
  const buffer = acquireRuleBuffer();
  try {
    for (let index = 0; index < rules.length; index++) {
      const rule = rules[index]!;
      buffer.push(rule.pattern, rule.allow, rule.line, rule.id ?? index);
    }
    return encodeRuleBuffer(buffer, options);
  } finally {
    releaseRuleBuffer(buffer);
  }
}

/** Wildcard scratch: rule indexes, then the segment pairs of each ([start, end) in bytes). */
let wildScratch = new Int32Array(256);
let segmentScratch = new Int32Array(1024);
/** Per wildcard (by rule index order of `wildScratch`): first pair in segmentScratch, pair count. */
let wildSegments = new Int32Array(512);

/**
 * Encodes the rules in `rules` (file order; see RuleBuffer) into a RuleTable.
 * @example encodeRuleBuffer(rules, { flags: FLAG_NORMALIZE_URL }) // see RuleBuffer
 */
export function encodeRuleBuffer(rules: RuleBuffer, options: EncodeOptions): Uint8Array {
  const count = rules.count;
  const src = rules.bytes;
  const words = rules.words;
  const starts = rules.start;
  const ends = rules.end;
  const stars = rules.star;
  // Options are read first: from here on no caller code runs, so the scratch below is
  // never shared by two encodes.
  const allWildcard = options.allWildcard === true;
  const flags = options.flags;
  // A rule adds at most two nodes (a leaf and the head of a split label).
  if (trie.length < (1 + 2 * count) * T_STRIDE) trie = new Int32Array(Math.max((1 + 2 * count) * T_STRIDE, trie.length * 2));
  if (wildScratch.length < count) wildScratch = new Int32Array(Math.max(count, wildScratch.length * 2));
  if (wildSegments.length < 2 * count) wildSegments = new Int32Array(Math.max(2 * count, wildSegments.length * 2));
  const t = trie;
  const wild = wildScratch;
  wideCount = 0;
  pathLength = 0;
  labelTotal = 0;
  newNode(t, 0, 0, 0, 0);
  let nodeCount = 1;
  let wildCount = 0;
  let segmentCount = 0;
  let previousStart = 0;
  let previousLength = -1;
  for (let index = 0; index < count; index++) {
    const start = starts[index]!;
    const end = ends[index]!;
    const anchored = end > start && src[end - 1] === DOLLAR;
    const length = (anchored ? end - 1 : end) - start;
    // A final `$` is not a `*`: the first `*` of the pattern is the first before it.
    const star = stars[index]!;
    if (star < 0 && !allWildcard) {
      let shared = 0;
      if (previousLength >= 0) {
        const m = length < previousLength ? length : previousLength;
        // Word by word while the words agree (both starts are 4-aligned), then bytes.
        const a = start >> 2;
        const b = previousStart >> 2;
        const wordsToCompare = m >> 2;
        let w = 0;
        while (w < wordsToCompare && words[a + w] === words[b + w]) w++;
        shared = w << 2;
        while (shared < m && src[start + shared] === src[previousStart + shared]) shared++;
      }
      nodeCount = insertRule(t, nodeCount, src, start, length, shared, anchored, rules.allow[index] === 1, rules.line[index]!);
      previousStart = start;
      previousLength = length;
      continue;
    }
    // Segments (see format.ts): the text before the first `*`, the non-empty middle
    // pieces, the text after the last `*`; a plain rule forced into the list
    // (allWildcard) is a single segment, a prefix.
    if (segmentScratch.length < 2 * (segmentCount + length + 2)) {
      const grown = new Int32Array(Math.max(2 * (segmentCount + length + 2), segmentScratch.length * 2));
      grown.set(segmentScratch);
      segmentScratch = grown;
    }
    const segments = segmentScratch;
    const first = segmentCount;
    const stop = start + length;
    if (star < 0) {
      segments[2 * segmentCount] = start;
      segments[2 * segmentCount + 1] = stop;
      segmentCount++;
    } else {
      segments[2 * segmentCount] = start;
      segments[2 * segmentCount + 1] = start + star;
      segmentCount++;
      let pieceStart = start + star + 1;
      for (let i = pieceStart; i < stop; i++) {
        if (src[i] !== STAR) continue;
        if (i > pieceStart) {
          segments[2 * segmentCount] = pieceStart;
          segments[2 * segmentCount + 1] = i;
          segmentCount++;
        }
        pieceStart = i + 1;
      }
      segments[2 * segmentCount] = pieceStart;
      segments[2 * segmentCount + 1] = stop;
      segmentCount++;
    }
    wildSegments[2 * index] = first;
    wildSegments[2 * index + 1] = segmentCount - first;
    wild[wildCount++] = index;
  }

  // Shared prefixes are stored once: the labels take what the leaves added (a split
  // only moves bytes from a label to its new head).
  const labelBytes = labelTotal;

  sortWildcards(wild, wildCount, rules);

  const segments = segmentScratch;
  const nodesOffset = F.HEADER_SIZE;
  const firstBytesOffset = nodesOffset + nodeCount * F.NODE_SIZE;
  const wildcardsOffset = (firstBytesOffset + nodeCount + 3) & ~3;
  const segmentsOffset = wildcardsOffset + wildCount * WILDCARD_SIZE;
  const poolOffset = segmentsOffset + segmentCount * F.SEGMENT_SIZE;
  // Pool: labels, then each segment's bytes followed by its 4-aligned failure links.
  // Sizing the table exactly spares the caller a trimming copy.
  // (Padding depends on where each segment lands: walk them in table order.)
  let byteLength = poolOffset + labelBytes;
  for (let k = 0; k < wildCount; k++) {
    const first = wildSegments[2 * wild[k]!]!;
    const stop = first + wildSegments[2 * wild[k]! + 1]!;
    for (let s = first; s < stop; s++) {
      const m = segments[2 * s + 1]! - segments[2 * s]!;
      byteLength = ((byteLength + m + 3) & ~3) + m * 4;
    }
  }
  byteLength = (byteLength + 3) & ~3;
  const table = new Uint8Array(byteLength);
  // Every u32 field of the format is 4-aligned: one platform-order view writes them all
  // (typed arrays use the platform's byte order, little-endian wherever Wasm runs).
  const u32 = new Uint32Array(table.buffer);

  // One pass per node in breadth-first order, which keeps every node's children
  // contiguous (and sorted by first byte, as inserted) for the matcher's binary search:
  // the node's label into the pool, its record, its first byte; its children join the
  // queue, so childCursor is the number the first of them gets.
  if (orderScratch.length < nodeCount) orderScratch = new Int32Array(Math.max(nodeCount, orderScratch.length * 2));
  const order = orderScratch;
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
    u32[w + N_CHILD_COUNT] = childCount;
    u32[w + N_PREFIX_ALLOW] = t[at + T_PREFIX_ALLOW]!;
    u32[w + N_PREFIX_DISALLOW] = t[at + T_PREFIX_DISALLOW]!;
    u32[w + N_EXACT_ALLOW] = t[at + T_EXACT_ALLOW]!;
    u32[w + N_EXACT_DISALLOW] = t[at + T_EXACT_DISALLOW]!;
    table[firstBytesOffset + k] = t[at + T_FIRST]!;
    childCursor += childCount;
    for (let i = start; i < end; i++) table[pool++] = src[i]!;
  }
  // Segments are numbered in wildcard order.
  let segIndex = 0;
  for (let k = 0; k < wildCount; k++) {
    const index = wild[k]!;
    const at = wildcardsOffset + k * WILDCARD_SIZE;
    const w = at >> 2;
    const first = wildSegments[2 * index]!;
    const segCount = wildSegments[2 * index + 1]!;
    const anchored = ends[index]! > starts[index]! && src[ends[index]! - 1] === DOLLAR;
    u32[w + W_LINE] = rules.line[index]!;
    u32[w + W_PRIORITY] = ends[index]! - starts[index]!;
    u32[w + W_FIRST_SEGMENT] = segIndex;
    u32[w + W_SEGMENT_COUNT] = segCount;
    table[at + W_KIND] = rules.allow[index] === 1 ? F.KIND_ALLOW : F.KIND_DISALLOW;
    table[at + W_ANCHORED] = anchored ? 1 : 0;
    u32[w + W_ID] = rules.id[index]!;
    for (let s = 0; s < segCount; s++) {
      const start = segments[2 * (first + s)]!;
      const end = segments[2 * (first + s) + 1]!;
      const bytesAt = pool;
      for (let i = start; i < end; i++) table[pool++] = src[i]!;
      pool = (pool + 3) & ~3;
      writeFailureLinks(src, start, end, u32, pool >> 2);
      const rec = (segmentsOffset >> 2) + (segIndex + s) * SEGMENT_WORDS;
      u32[rec + S_BYTES_OFFSET] = bytesAt;
      u32[rec + S_LENGTH] = end - start;
      u32[rec + S_FAIL_OFFSET] = pool;
      pool += (end - start) * 4;
    }
    segIndex += segCount;
  }

  // Header through the same u32 view; version and flags are the two u16 halves of word 1.
  u32[F.H_MAGIC >> 2] = F.TABLE_MAGIC;
  u32[F.H_VERSION >> 2] = (F.FORMAT_VERSION & 0xffff) | ((flags & 0xffff) << 16);
  u32[F.H_BYTE_LENGTH >> 2] = byteLength;
  u32[F.H_NODE_COUNT >> 2] = nodeCount;
  u32[F.H_NODES_OFFSET >> 2] = nodesOffset;
  u32[F.H_FIRST_BYTES_OFFSET >> 2] = firstBytesOffset;
  u32[F.H_WILDCARD_COUNT >> 2] = wildCount;
  u32[F.H_WILDCARDS_OFFSET >> 2] = wildcardsOffset;
  u32[F.H_SEGMENT_COUNT >> 2] = segmentCount;
  u32[F.H_SEGMENTS_OFFSET >> 2] = segmentsOffset;
  u32[F.H_POOL_OFFSET >> 2] = poolOffset;
  u32[F.H_POOL_LENGTH >> 2] = byteLength - poolOffset;
  return table;
}
