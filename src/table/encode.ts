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
  label: Uint8Array;
  children: TrieNode[];
  prefixAllow: number;
  prefixDisallow: number;
  exactAllow: number;
  exactDisallow: number;
}

interface PlainRule {
  body: Uint8Array;
  anchored: boolean;
  allow: boolean;
  line: number;
}

interface WildcardRule {
  segments: Uint8Array[];
  anchored: boolean;
  allow: boolean;
  line: number;
  priority: number;
  id: number;
}

const STAR = 0x2a;
const DOLLAR = 0x24;
const EMPTY = new Uint8Array(0);

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = a[i]! - b[i]!;
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

function newNode(label: Uint8Array): TrieNode {
  return { label, children: [], prefixAllow: 0, prefixDisallow: 0, exactAllow: 0, exactDisallow: 0 };
}

/** Earliest line wins: RFC 9309 leaves equal rules to us; robots.cc keeps the first. */
function mark(node: TrieNode, rule: PlainRule): void {
  if (rule.anchored) {
    if (rule.allow) node.exactAllow = node.exactAllow === 0 ? rule.line : Math.min(node.exactAllow, rule.line);
    else node.exactDisallow = node.exactDisallow === 0 ? rule.line : Math.min(node.exactDisallow, rule.line);
  } else if (rule.allow) {
    node.prefixAllow = node.prefixAllow === 0 ? rule.line : Math.min(node.prefixAllow, rule.line);
  } else {
    node.prefixDisallow = node.prefixDisallow === 0 ? rule.line : Math.min(node.prefixDisallow, rule.line);
  }
}

/**
 * Builds the radix trie from rules sorted by body. Each call handles the rules of
 * sorted[lo, hi), all sharing the first `depth` bytes; the work is proportional to the
 * total pattern bytes because every rule is visited once per node on its path.
 */
function buildTrie(sorted: PlainRule[], lo: number, hi: number, depth: number, node: TrieNode): void {
  let i = lo;
  while (i < hi && sorted[i]!.body.length === depth) mark(node, sorted[i++]!);
  while (i < hi) {
    const first = sorted[i]!.body[depth]!;
    let j = i + 1;
    while (j < hi && sorted[j]!.body[depth] === first) j++;
    // The group's common prefix is the LCP of its first and last member (the list is sorted).
    const a = sorted[i]!.body;
    const b = sorted[j - 1]!.body;
    let end = depth + 1;
    const limit = Math.min(a.length, b.length);
    while (end < limit && a[end] === b[end]) end++;
    const child = newNode(a.subarray(depth, end));
    node.children.push(child);
    buildTrie(sorted, i, j, end, child);
    i = j;
  }
}

/** KMP failure links: link[k] = length of the longest proper border of seg[0..k]. */
function failureLinks(seg: Uint8Array): Uint32Array {
  const link = new Uint32Array(seg.length);
  let k = 0;
  for (let q = 1; q < seg.length; q++) {
    while (k > 0 && seg[q] !== seg[k]) k = link[k - 1]!;
    if (seg[q] === seg[k]) k++;
    link[q] = k;
  }
  return link;
}

class Pool {
  bytes = new Uint8Array(256);
  length = 0;
  reserve(n: number): void {
    if (this.length + n <= this.bytes.length) return;
    let cap = this.bytes.length * 2;
    while (cap < this.length + n) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.bytes.subarray(0, this.length));
    this.bytes = next;
  }
  /** Appends bytes, returns their pool offset. */
  add(data: Uint8Array): number {
    this.reserve(data.length);
    const at = this.length;
    this.bytes.set(data, at);
    this.length += data.length;
    return at;
  }
  addU32(data: Uint32Array): number {
    this.length = (this.length + 3) & ~3;
    this.reserve(data.length * 4);
    const at = this.length;
    const view = new DataView(this.bytes.buffer);
    for (let i = 0; i < data.length; i++) view.setUint32(at + i * 4, data[i]!, true);
    this.length += data.length * 4;
    return at;
  }
}

/** Splits a pattern at `*` into first, non-empty middle pieces, last (see format.ts). */
function splitSegments(body: Uint8Array): Uint8Array[] {
  const parts: Uint8Array[] = [];
  let start = 0;
  for (let i = 0; i <= body.length; i++) {
    if (i === body.length || body[i] === STAR) {
      parts.push(body.subarray(start, i));
      start = i + 1;
    }
  }
  const first = parts[0]!;
  const last = parts[parts.length - 1]!;
  const middle = parts.slice(1, -1).filter((p) => p.length > 0);
  return [first, ...middle, last];
}

/**
 * Encodes rules into a RuleTable (format.ts). Rules must come in file order; equal
 * patterns keep the earliest line.
 * @example
 * const table = encodeRuleTable([{ allow: false, pattern: utf8('/private'), line: 2 }], { flags: 0 });
 * table.length; // 48-byte header + nodes + pool
 */
export function encodeRuleTable(rules: readonly TableRule[], options: EncodeOptions): Uint8Array {
  const plain: PlainRule[] = [];
  const wild: WildcardRule[] = [];
  rules.forEach((rule, index) => {
    const p = rule.pattern;
    const anchored = p.length > 0 && p[p.length - 1] === DOLLAR;
    const body = anchored ? p.subarray(0, p.length - 1) : p;
    if (!options.allWildcard && body.indexOf(STAR) < 0) {
      plain.push({ body, anchored, allow: rule.allow, line: rule.line });
    } else {
      // A plain rule forced into the list (allWildcard) is a single segment: a prefix.
      const segments = body.indexOf(STAR) < 0 ? [body] : splitSegments(body);
      wild.push({ segments, anchored, allow: rule.allow, line: rule.line, priority: p.length, id: rule.id ?? index });
    }
  });

  plain.sort((a, b) => compareBytes(a.body, b.body));
  const root = newNode(EMPTY);
  buildTrie(plain, 0, plain.length, 0, root);

  // Breadth-first numbering keeps every node's children contiguous.
  const order: TrieNode[] = [root];
  for (let k = 0; k < order.length; k++) for (const c of order[k]!.children) order.push(c);

  wild.sort((a, b) => b.priority - a.priority || a.line - b.line);

  const pool = new Pool();
  const labelAt = order.map((n) => pool.add(n.label));
  const segRecords: number[] = [];
  for (const w of wild) {
    for (const seg of w.segments) {
      const bytesAt = pool.add(seg);
      const failAt = pool.addU32(failureLinks(seg));
      segRecords.push(bytesAt, seg.length, failAt);
    }
  }

  const nodesOffset = F.HEADER_SIZE;
  const firstBytesOffset = nodesOffset + order.length * F.NODE_SIZE;
  const wildcardsOffset = (firstBytesOffset + order.length + 3) & ~3;
  const segmentCount = segRecords.length / 3;
  const segmentsOffset = wildcardsOffset + wild.length * F.WILDCARD_SIZE;
  const poolOffset = segmentsOffset + segmentCount * F.SEGMENT_SIZE;
  const byteLength = poolOffset + ((pool.length + 3) & ~3);

  const table = new Uint8Array(byteLength);
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
  v.setUint32(F.H_POOL_LENGTH, pool.length, true);

  let childCursor = 1;
  order.forEach((node, k) => {
    const at = nodesOffset + k * F.NODE_SIZE;
    v.setUint32(at + F.N_LABEL_OFFSET, poolOffset + labelAt[k]!, true);
    v.setUint32(at + F.N_LABEL_LENGTH, node.label.length, true);
    v.setUint32(at + F.N_FIRST_CHILD, node.children.length > 0 ? childCursor : 0, true);
    v.setUint32(at + F.N_CHILD_COUNT, node.children.length, true);
    v.setUint32(at + F.N_PREFIX_ALLOW, node.prefixAllow, true);
    v.setUint32(at + F.N_PREFIX_DISALLOW, node.prefixDisallow, true);
    v.setUint32(at + F.N_EXACT_ALLOW, node.exactAllow, true);
    v.setUint32(at + F.N_EXACT_DISALLOW, node.exactDisallow, true);
    table[firstBytesOffset + k] = node.label.length > 0 ? node.label[0]! : 0;
    childCursor += node.children.length;
  });

  let segIndex = 0;
  wild.forEach((w, k) => {
    const at = wildcardsOffset + k * F.WILDCARD_SIZE;
    v.setUint32(at + F.W_LINE, w.line, true);
    v.setUint32(at + F.W_PRIORITY, w.priority, true);
    v.setUint32(at + F.W_FIRST_SEGMENT, segIndex, true);
    v.setUint32(at + F.W_SEGMENT_COUNT, w.segments.length, true);
    v.setUint8(at + F.W_KIND, w.allow ? F.KIND_ALLOW : F.KIND_DISALLOW);
    v.setUint8(at + F.W_ANCHORED, w.anchored ? 1 : 0);
    v.setUint32(at + F.W_ID, w.id, true);
    segIndex += w.segments.length;
  });
  for (let s = 0; s < segmentCount; s++) {
    const at = segmentsOffset + s * F.SEGMENT_SIZE;
    v.setUint32(at + F.S_BYTES_OFFSET, poolOffset + segRecords[s * 3]!, true);
    v.setUint32(at + F.S_LENGTH, segRecords[s * 3 + 1]!, true);
    v.setUint32(at + F.S_FAIL_OFFSET, poolOffset + segRecords[s * 3 + 2]!, true);
  }
  table.set(pool.bytes.subarray(0, pool.length), poolOffset);
  return table;
}
