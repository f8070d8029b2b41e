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

interface TrieNode {
  /** The label is src[start, end). */
  src: Uint8Array;
  start: number;
  end: number;
  /** src[start]: the byte children are sorted and found by (kept here: one load, not two). */
  first: number;
  /** Null for leaves, which are most nodes. */
  children: TrieNode[] | null;
  prefixAllow: number;
  prefixDisallow: number;
  exactAllow: number;
  exactDisallow: number;
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
const EMPTY = new Uint8Array(0);

function newNode(src: Uint8Array, start: number, end: number): TrieNode {
  return { src, start, end, first: start < end ? src[start]! : 0, children: null, prefixAllow: 0, prefixDisallow: 0, exactAllow: 0, exactDisallow: 0 };
}

/** Earliest line wins: RFC 9309 leaves equal rules to us; robots.cc keeps the first. */
function earliest(current: number, line: number): number {
  return current === 0 || line < current ? line : current;
}

function mark(node: TrieNode, anchored: boolean, allow: boolean, line: number): void {
  if (anchored) {
    if (allow) node.exactAllow = earliest(node.exactAllow, line);
    else node.exactDisallow = earliest(node.exactDisallow, line);
  } else if (allow) {
    node.prefixAllow = earliest(node.prefixAllow, line);
  } else {
    node.prefixDisallow = earliest(node.prefixDisallow, line);
  }
}

/**
 * Inserts a plain rule into the radix trie rooted at `root`. The walk consumes the
 * rule's bytes left to right and splits at most one label, so building the trie costs
 * O(total pattern bytes) plus the scans of small child lists.
 */
function insertRule(root: TrieNode, p: Uint8Array, len: number, anchored: boolean, allow: boolean, line: number): number {
  let node = root;
  let i = 0;
  let created = 0;
  for (;;) {
    if (i === len) {
      mark(node, anchored, allow, line);
      return created;
    }
    const c = p[i]!;
    let children = node.children;
    let child: TrieNode | undefined;
    let at = 0;
    // Children stay sorted by first byte (a split keeps its head's first byte), so the
    // search finds the first child whose byte is not smaller, which is also where a new
    // leaf goes: a linear scan for short lists, a binary search for wide nodes (the
    // root's `/` node of a large file has dozens of children).
    if (children !== null) {
      let hi = children.length;
      if (hi > 8) {
        while (at < hi) {
          const mid = (at + hi) >>> 1;
          if (children[mid]!.first < c) at = mid + 1;
          else hi = mid;
        }
      } else {
        while (at < hi && children[at]!.first < c) at++;
      }
      if (at < children.length && children[at]!.first === c) child = children[at];
    } else {
      children = node.children = [];
    }
    if (child === undefined) {
      const leaf = newNode(p, i, len);
      mark(leaf, anchored, allow, line);
      // Open a slot at `at` by hand: cheaper than splice for these short lists.
      let j = children.length;
      children.push(leaf);
      for (; j > at; j--) children[j] = children[j - 1]!;
      children[at] = leaf;
      return created + 1;
    }
    const labelLength = child.end - child.start;
    let k = 1;
    while (k < labelLength && i + k < len && child.src[child.start + k] === p[i + k]) k++;
    if (k < labelLength) {
      // The rule leaves the label part-way: split it into a shared head and the old tail.
      const head = newNode(child.src, child.start, child.start + k);
      child.start += k;
      child.first = child.src[child.start]!;
      head.children = [child];
      children[at] = head;
      child = head;
      created++;
    }
    node = child;
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
  const root = newNode(EMPTY, 0, 0);
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
      nodeCount += insertRule(root, p, length, anchored, rule.allow, rule.line);
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
  const order: TrieNode[] = new Array<TrieNode>(nodeCount);
  order[0] = root;
  let filled = 1;
  let labelBytes = 0;
  for (let k = 0; k < filled; k++) {
    const node = order[k]!;
    labelBytes += node.end - node.start;
    const children = node.children;
    if (children === null) continue;
    for (let c = 0; c < children.length; c++) order[filled++] = children[c]!;
  }

  wild.sort((a, b) => b.priority - a.priority || a.line - b.line);

  const nodesOffset = F.HEADER_SIZE;
  const firstBytesOffset = nodesOffset + order.length * F.NODE_SIZE;
  const wildcardsOffset = (firstBytesOffset + order.length + 3) & ~3;
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
  for (let k = 0; k < order.length; k++) {
    const node = order[k]!;
    const src = node.src;
    const start = node.start;
    const end = node.end;
    const w = (nodesOffset + k * F.NODE_SIZE) >> 2;
    const childCount = node.children === null ? 0 : node.children.length;
    u32[w + F.N_LABEL_OFFSET / 4] = pool;
    u32[w + F.N_LABEL_LENGTH / 4] = end - start;
    u32[w + F.N_FIRST_CHILD / 4] = childCount > 0 ? childCursor : 0;
    u32[w + F.N_CHILD_COUNT / 4] = childCount;
    u32[w + F.N_PREFIX_ALLOW / 4] = node.prefixAllow;
    u32[w + F.N_PREFIX_DISALLOW / 4] = node.prefixDisallow;
    u32[w + F.N_EXACT_ALLOW / 4] = node.exactAllow;
    u32[w + F.N_EXACT_DISALLOW / 4] = node.exactDisallow;
    table[firstBytesOffset + k] = node.first;
    childCursor += childCount;
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
  v.setUint32(F.H_NODE_COUNT, order.length, true);
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
