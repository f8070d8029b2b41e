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

interface WildcardRule {
  /** Segment i is pattern[bounds[2i], bounds[2i+1]). */
  pattern: Uint8Array;
  bounds: number[];
  anchored: boolean;
  allow: boolean;
  line: number;
  priority: number;
  id: number;
}

const STAR = 0x2a;
const DOLLAR = 0x24;

/**
 * The radix trie of plain rules, as parallel fields in one reused Int32Array (node i's
 * fields start at i * T_STRIDE): a corpus file makes hundreds of nodes per compile, and
 * objects for them cost an allocation each plus the collector's time. Fields:
 * label = pattern of rule T_RULE, bytes [T_START, T_END) (the root has rule -1);
 * T_FIRST its first byte; children as a list sorted by first byte (T_CHILD, T_NEXT,
 * T_COUNT); the four earliest lines (0 = none) in the order of format.ts's NODE.
 */
const T_START = 0;
const T_END = 1;
const T_RULE = 2;
const T_FIRST = 3;
const T_CHILD = 4;
const T_NEXT = 5;
const T_COUNT = 6;
const T_PREFIX_ALLOW = 7;
const T_PREFIX_DISALLOW = 8;
const T_EXACT_ALLOW = 9;
const T_EXACT_DISALLOW = 10;
const T_STRIDE = 11;

/** Trie scratch, reused across calls (encoding is synchronous and never re-entered); grown by doubling. */
let trie = new Int32Array(1024 * T_STRIDE);
/** Breadth-first node order, reused likewise. */
let orderScratch = new Int32Array(1024);

/** Sets node `index` to a label rules[rule].pattern[start, end) starting with `first`, no children, no lines. */
function newNode(t: Int32Array, index: number, rule: number, start: number, end: number, first: number): void {
  const at = index * T_STRIDE;
  t[at + T_START] = start;
  t[at + T_END] = end;
  t[at + T_RULE] = rule;
  t[at + T_FIRST] = first;
  t[at + T_CHILD] = -1;
  t[at + T_NEXT] = -1;
  t[at + T_COUNT] = 0;
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

/**
 * Inserts plain rule `rule` (pattern p[0, len)) into the trie `t` holding `count` nodes,
 * node 0 the root; returns the new node count. The walk consumes the rule's bytes left
 * to right and splits at most one label, so building the trie costs O(total pattern
 * bytes) plus the scans of child lists (at most one entry per byte value).
 */
function insertRule(t: Int32Array, count: number, rules: readonly TableRule[], rule: number, p: Uint8Array, len: number, anchored: boolean, allow: boolean, line: number): number {
  let node = 0;
  let i = 0;
  for (;;) {
    if (i === len) {
      mark(t, node * T_STRIDE, anchored, allow, line);
      return count;
    }
    const c = p[i]!;
    // Children stay sorted by first byte (a split keeps its head's first byte): the walk
    // stops at the first child whose byte is not smaller, which is also where a new leaf goes.
    let prev = -1;
    let child = t[node * T_STRIDE + T_CHILD]!;
    while (child >= 0 && t[child * T_STRIDE + T_FIRST]! < c) {
      prev = child;
      child = t[child * T_STRIDE + T_NEXT]!;
    }
    if (child < 0 || t[child * T_STRIDE + T_FIRST] !== c) {
      const leaf = count;
      newNode(t, leaf, rule, i, len, c);
      mark(t, leaf * T_STRIDE, anchored, allow, line);
      t[leaf * T_STRIDE + T_NEXT] = child;
      if (prev < 0) t[node * T_STRIDE + T_CHILD] = leaf;
      else t[prev * T_STRIDE + T_NEXT] = leaf;
      t[node * T_STRIDE + T_COUNT] = t[node * T_STRIDE + T_COUNT]! + 1;
      return count + 1;
    }
    const at = child * T_STRIDE;
    const start = t[at + T_START]!;
    const labelLength = t[at + T_END]! - start;
    const src = rules[t[at + T_RULE]!]!.pattern;
    let k = 1;
    while (k < labelLength && i + k < len && src[start + k] === p[i + k]) k++;
    if (k < labelLength) {
      // The rule leaves the label part-way: a new head takes the child's place in the
      // list and the child keeps the tail (and its own children, whose links name it).
      const head = count++;
      newNode(t, head, t[at + T_RULE]!, start, start + k, c);
      const h = head * T_STRIDE;
      t[h + T_NEXT] = t[at + T_NEXT]!;
      t[h + T_CHILD] = child;
      t[h + T_COUNT] = 1;
      if (prev < 0) t[node * T_STRIDE + T_CHILD] = head;
      else t[prev * T_STRIDE + T_NEXT] = head;
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

/** Splits pattern[0, length) at `*` into first, non-empty middle pieces, last (see format.ts). */
function segmentBounds(pattern: Uint8Array, length: number): number[] {
  const bounds = [0];
  let firstStar = -1;
  let pieceStart = 0;
  for (let i = 0; i < length; i++) {
    if (pattern[i] !== STAR) continue;
    if (firstStar < 0) {
      firstStar = i;
      bounds.push(i);
    } else if (i > pieceStart) {
      bounds.push(pieceStart, i);
    }
    pieceStart = i + 1;
  }
  bounds.push(pieceStart, length);
  return bounds;
}

function indexOfStar(pattern: Uint8Array, length: number): number {
  for (let i = 0; i < length; i++) if (pattern[i] === STAR) return i;
  return -1;
}

/**
 * Encodes rules into a RuleTable (format.ts). Rules must come in file order; equal
 * patterns keep the earliest line.
 * @example
 * const table = encodeRuleTable([{ allow: false, pattern: utf8('/private'), line: 2 }], { flags: 0 });
 * table.length; // 48-byte header + nodes + pool
 */
export function encodeRuleTable(rules: readonly TableRule[], options: EncodeOptions): Uint8Array {
  return encodeScannedRules(rules, null, options);
}

/**
 * encodeRuleTable for a caller that has already scanned each pattern: `stars[i]` is the
 * index of the first `*` in `rules[i].pattern`, or -1 (null: scan here). compile.ts finds
 * it in the same pass that checks whether a pattern needs normalization.
 * @example encodeScannedRules([{ allow: false, pattern: utf8('/a*b'), line: 2 }], Int32Array.of(2), { flags: 0 })
 */
export function encodeScannedRules(rules: readonly TableRule[], stars: Int32Array | null, options: EncodeOptions): Uint8Array {
  // A rule adds at most two nodes (a leaf and the head of a split label).
  if (trie.length < (1 + 2 * rules.length) * T_STRIDE) trie = new Int32Array(Math.max((1 + 2 * rules.length) * T_STRIDE, trie.length * 2));
  const t = trie;
  newNode(t, 0, -1, 0, 0, 0);
  let nodeCount = 1;
  const wild: WildcardRule[] = [];
  let segmentCount = 0;
  for (let index = 0; index < rules.length; index++) {
    const rule = rules[index]!;
    const p = rule.pattern;
    const anchored = p.length > 0 && p[p.length - 1] === DOLLAR;
    const length = anchored ? p.length - 1 : p.length;
    // A final `$` is not a `*`: the first `*` of the pattern is the first before it.
    const star = stars === null ? indexOfStar(p, length) : stars[index]!;
    if (star < 0 && !options.allWildcard) {
      nodeCount = insertRule(t, nodeCount, rules, index, p, length, anchored, rule.allow, rule.line);
      continue;
    }
    // A plain rule forced into the list (allWildcard) is a single segment: a prefix.
    const bounds = star < 0 ? [0, length] : segmentBounds(p, length);
    segmentCount += bounds.length / 2;
    wild.push({ pattern: p, bounds, anchored, allow: rule.allow, line: rule.line, priority: p.length, id: rule.id ?? index });
  }

  // Breadth-first numbering keeps every node's children contiguous (and sorted by first
  // byte, as inserted): the matcher binary-searches them. The same walk totals the labels
  // (shared prefixes are stored once, so only the trie knows how many bytes they take).
  if (orderScratch.length < nodeCount) orderScratch = new Int32Array(Math.max(nodeCount, orderScratch.length * 2));
  const order = orderScratch;
  order[0] = 0;
  let filled = 1;
  let labelBytes = 0;
  for (let k = 0; k < filled; k++) {
    const at = order[k]! * T_STRIDE;
    labelBytes += t[at + T_END]! - t[at + T_START]!;
    for (let c = t[at + T_CHILD]!; c >= 0; c = t[c * T_STRIDE + T_NEXT]!) order[filled++] = c;
  }

  wild.sort((a, b) => b.priority - a.priority || a.line - b.line);

  const nodesOffset = F.HEADER_SIZE;
  const firstBytesOffset = nodesOffset + nodeCount * F.NODE_SIZE;
  const wildcardsOffset = (firstBytesOffset + nodeCount + 3) & ~3;
  const segmentsOffset = wildcardsOffset + wild.length * F.WILDCARD_SIZE;
  const poolOffset = segmentsOffset + segmentCount * F.SEGMENT_SIZE;
  // Pool: labels, then each segment's bytes followed by its 4-aligned failure links.
  // Sizing the table exactly spares the caller a trimming copy.
  let byteLength = poolOffset + labelBytes;
  for (let k = 0; k < wild.length; k++) {
    const bounds = wild[k]!.bounds;
    for (let s = 0; s < bounds.length; s += 2) {
      const m = bounds[s + 1]! - bounds[s]!;
      byteLength = ((byteLength + m + 3) & ~3) + m * 4;
    }
  }
  byteLength = (byteLength + 3) & ~3;
  const table = new Uint8Array(byteLength);
  // Every u32 field of the format is 4-aligned: one platform-order view writes them all
  // (typed arrays use the platform's byte order, little-endian wherever Wasm runs).
  const u32 = new Uint32Array(table.buffer);

  // One pass per node: its label into the pool, its record, its first byte.
  let pool = poolOffset;
  let childCursor = 1;
  for (let k = 0; k < nodeCount; k++) {
    const at = order[k]! * T_STRIDE;
    const start = t[at + T_START]!;
    const end = t[at + T_END]!;
    const w = (nodesOffset + k * F.NODE_SIZE) >> 2;
    const childCount = t[at + T_COUNT]!;
    u32[w + F.N_LABEL_OFFSET / 4] = pool;
    u32[w + F.N_LABEL_LENGTH / 4] = end - start;
    u32[w + F.N_FIRST_CHILD / 4] = childCount > 0 ? childCursor : 0;
    u32[w + F.N_CHILD_COUNT / 4] = childCount;
    u32[w + F.N_PREFIX_ALLOW / 4] = t[at + T_PREFIX_ALLOW]!;
    u32[w + F.N_PREFIX_DISALLOW / 4] = t[at + T_PREFIX_DISALLOW]!;
    u32[w + F.N_EXACT_ALLOW / 4] = t[at + T_EXACT_ALLOW]!;
    u32[w + F.N_EXACT_DISALLOW / 4] = t[at + T_EXACT_DISALLOW]!;
    table[firstBytesOffset + k] = t[at + T_FIRST]!;
    childCursor += childCount;
    if (end === start) continue;
    const src = rules[t[at + T_RULE]!]!.pattern;
    if (end - start > 16) {
      table.set(new Uint8Array(src.buffer, src.byteOffset + start, end - start), pool);
      pool += end - start;
    } else {
      for (let i = start; i < end; i++) table[pool++] = src[i]!;
    }
  }
  let segIndex = 0;
  for (let k = 0; k < wild.length; k++) {
    const w = wild[k]!;
    const at = wildcardsOffset + k * F.WILDCARD_SIZE;
    const count = w.bounds.length / 2;
    u32[(at + F.W_LINE) >> 2] = w.line;
    u32[(at + F.W_PRIORITY) >> 2] = w.priority;
    u32[(at + F.W_FIRST_SEGMENT) >> 2] = segIndex;
    u32[(at + F.W_SEGMENT_COUNT) >> 2] = count;
    table[at + F.W_KIND] = w.allow ? F.KIND_ALLOW : F.KIND_DISALLOW;
    table[at + F.W_ANCHORED] = w.anchored ? 1 : 0;
    u32[(at + F.W_ID) >> 2] = w.id;
    const pattern = w.pattern;
    for (let s = 0; s < count; s++) {
      const start = w.bounds[2 * s]!;
      const end = w.bounds[2 * s + 1]!;
      const bytesAt = pool;
      for (let i = start; i < end; i++) table[pool++] = pattern[i]!;
      pool = (pool + 3) & ~3;
      writeFailureLinks(pattern, start, end, u32, pool >> 2);
      const rec = (segmentsOffset + (segIndex + s) * F.SEGMENT_SIZE) >> 2;
      u32[rec + F.S_BYTES_OFFSET / 4] = bytesAt;
      u32[rec + F.S_LENGTH / 4] = end - start;
      u32[rec + F.S_FAIL_OFFSET / 4] = pool;
      pool += (end - start) * 4;
    }
    segIndex += count;
  }

  const v = new DataView(table.buffer);
  v.setUint32(F.H_MAGIC, F.TABLE_MAGIC, true);
  v.setUint16(F.H_VERSION, F.FORMAT_VERSION, true);
  v.setUint16(F.H_FLAGS, options.flags, true);
  v.setUint32(F.H_BYTE_LENGTH, byteLength, true);
  v.setUint32(F.H_NODE_COUNT, nodeCount, true);
  v.setUint32(F.H_NODES_OFFSET, nodesOffset, true);
  v.setUint32(F.H_FIRST_BYTES_OFFSET, firstBytesOffset, true);
  v.setUint32(F.H_WILDCARD_COUNT, wild.length, true);
  v.setUint32(F.H_WILDCARDS_OFFSET, wildcardsOffset, true);
  v.setUint32(F.H_SEGMENT_COUNT, segmentCount, true);
  v.setUint32(F.H_SEGMENTS_OFFSET, segmentsOffset, true);
  v.setUint32(F.H_POOL_OFFSET, poolOffset, true);
  v.setUint32(F.H_POOL_LENGTH, byteLength - poolOffset, true);
  return table;
}
