// Rule-table validation: proves a RuleTable from outside (disk, network, another build) safe for the Wasm matcher before it is used.
//
// The matcher (assembly/match.ts) trusts the table: it follows offsets without bounds
// checks and walks KMP failure links in a loop. A table that passes this check keeps
// every load inside the table's own bytes and every loop finite:
//   - all regions and pool references lie inside the table (byteLength === bytes.length);
//   - trie children are in range, come after their parent (no cycles), cover every
//     non-root node once, have non-empty labels, and are sorted by distinct first bytes
//     that equal their labels' first bytes (the matcher finds a child by comparing its
//     first byte with 16 children's at once, assembly/match.ts, so they must be distinct;
//     sorted, distinctness is one comparison with the previous child);
//   - wildcard rules name ≥ 1 segment inside the segment table, are sorted by priority
//     descending then line (decide() stops at the first rule that cannot win);
//   - each KMP link is a proper border length (link[k] ≤ k), so failure chains shrink.
// Cost: O(byteLength). Offsets are checked in JS numbers, so no u32 wrap-around hides.
import * as F from './format.js';

/**
 * A view of a detached buffer reads as empty. `ArrayBuffer#detached` is missing before
 * Node 22, but constructing a view on a detached buffer throws everywhere.
 */
function isDetached(bytes: Uint8Array): boolean {
  try {
    void new Uint8Array(bytes.buffer, 0, 0);
    return false;
  } catch {
    return true;
  }
}

function fail(what: string): never {
  throw new RangeError(`rule table: ${what}`);
}

/**
 * Checks that `bytes` is a well-formed RuleTable of this library's FORMAT_VERSION
 * (src/table/format.ts). Returns normally when it is; throws otherwise.
 *
 * @throws TypeError when `bytes` is not a Uint8Array (or its buffer is detached)
 * @throws RangeError naming the first problem found: bad magic, unsupported version,
 *   byteLength mismatch, unknown flags, a region or offset outside the table, a child
 *   index out of range, a bad segment or KMP failure table, an unknown rule kind…
 * @example
 * validateRuleTable(encodeRuleTable(rules, { flags: 0 })); // ok
 * validateRuleTable(new Uint8Array(8)); // RangeError: rule table: 8 bytes is shorter than the 48-byte header
 */
export function validateRuleTable(bytes: Uint8Array): void {
  if (!(bytes instanceof Uint8Array)) {
    throw new TypeError(`rule table must be a Uint8Array, got ${bytes === null ? 'null' : typeof bytes}`);
  }
  const size = bytes.length;
  if (size === 0 && isDetached(bytes)) throw new TypeError('rule table is a view of a detached ArrayBuffer');
  if (size < F.HEADER_SIZE) fail(`${size} bytes is shorter than the ${F.HEADER_SIZE}-byte header`);
  const v = new DataView(bytes.buffer, bytes.byteOffset, size);
  const u32 = (at: number): number => v.getUint32(at, true);

  const magic = u32(F.H_MAGIC);
  if (magic !== F.TABLE_MAGIC) {
    fail(`bad magic 0x${magic.toString(16).padStart(8, '0')}, expected 0x${F.TABLE_MAGIC.toString(16)} ("RTBL")`);
  }
  const version = v.getUint16(F.H_VERSION, true);
  if (version !== F.FORMAT_VERSION) fail(`unsupported version ${version}, this build reads version ${F.FORMAT_VERSION}`);
  const flags = v.getUint16(F.H_FLAGS, true);
  if ((flags & ~F.KNOWN_FLAGS) !== 0) {
    fail(`unknown flags 0x${(flags & ~F.KNOWN_FLAGS).toString(16)} (known: 0x${F.KNOWN_FLAGS.toString(16)})`);
  }
  const byteLength = u32(F.H_BYTE_LENGTH);
  if (byteLength !== size) fail(`header byteLength ${byteLength} does not match the ${size} bytes given`);

  /** [offset, offset + count × stride) must lie after the header and inside the table. */
  const region = (name: string, offset: number, count: number, stride: number): void => {
    const end = offset + count * stride;
    if (offset < F.HEADER_SIZE || end > size) {
      fail(`${name} [${offset}, ${end}) is outside the table body [${F.HEADER_SIZE}, ${size})`);
    }
  };

  const nodeCount = u32(F.H_NODE_COUNT);
  if (nodeCount < 1) fail('nodeCount is 0; node 0 (the trie root) is required');
  const nodesOffset = u32(F.H_NODES_OFFSET);
  region(`nodes (${nodeCount} × ${F.NODE_SIZE})`, nodesOffset, nodeCount, F.NODE_SIZE);
  const firstBytesOffset = u32(F.H_FIRST_BYTES_OFFSET);
  region(`firstBytes (${nodeCount} × 1)`, firstBytesOffset, nodeCount, 1);
  const wildcardCount = u32(F.H_WILDCARD_COUNT);
  const wildcardsOffset = u32(F.H_WILDCARDS_OFFSET);
  region(`wildcards (${wildcardCount} × ${F.WILDCARD_SIZE})`, wildcardsOffset, wildcardCount, F.WILDCARD_SIZE);
  const segmentCount = u32(F.H_SEGMENT_COUNT);
  const segmentsOffset = u32(F.H_SEGMENTS_OFFSET);
  region(`segments (${segmentCount} × ${F.SEGMENT_SIZE})`, segmentsOffset, segmentCount, F.SEGMENT_SIZE);
  const poolOffset = u32(F.H_POOL_OFFSET);
  const poolLength = u32(F.H_POOL_LENGTH);
  region('pool', poolOffset, poolLength, 1);
  const poolEnd = poolOffset + poolLength;

  /** A pool reference: [offset, offset + length) inside the pool. */
  const inPool = (name: string, offset: number, length: number): void => {
    if (offset < poolOffset || offset + length > poolEnd) {
      fail(`${name} [${offset}, ${offset + length}) is outside the pool [${poolOffset}, ${poolEnd})`);
    }
  };

  // Trie: children of node k are [firstChild, firstChild + childCount), after k, covering 1..nodeCount-1 once.
  const parentOf = new Int32Array(nodeCount).fill(-1);
  for (let k = 0; k < nodeCount; k++) {
    const at = nodesOffset + k * F.NODE_SIZE;
    const labelOffset = u32(at + F.N_LABEL_OFFSET);
    const labelLength = u32(at + F.N_LABEL_LENGTH);
    const firstChild = u32(at + F.N_FIRST_CHILD);
    const childCount = v.getUint16(at + F.N_CHILD_COUNT, true);
    // An extra priority belongs to a prefix rule: none without one.
    if (bytes[at + F.N_ALLOW_EXTRA] !== 0 && u32(at + F.N_PREFIX_ALLOW) === 0) fail(`node ${k} has allowExtra ${bytes[at + F.N_ALLOW_EXTRA]} but no prefix allow`);
    if (bytes[at + F.N_DISALLOW_EXTRA] !== 0 && u32(at + F.N_PREFIX_DISALLOW) === 0) fail(`node ${k} has disallowExtra ${bytes[at + F.N_DISALLOW_EXTRA]} but no prefix disallow`);
    if (k === 0 && labelLength !== 0) fail(`node 0 (root) has labelLength ${labelLength}, expected 0`);
    if (k > 0 && labelLength === 0) fail(`node ${k} has an empty label; only the root may`);
    inPool(`node ${k} label`, labelOffset, labelLength);
    if (k > 0 && bytes[firstBytesOffset + k] !== bytes[labelOffset]) {
      fail(`firstBytes[${k}] is ${bytes[firstBytesOffset + k]}, but node ${k}'s label starts with ${bytes[labelOffset]}`);
    }
    if (childCount === 0) continue;
    if (firstChild <= k || firstChild + childCount > nodeCount) {
      fail(`node ${k} children [${firstChild}, ${firstChild + childCount}) out of range (must lie in [${k + 1}, ${nodeCount}))`);
    }
    let previous = -1;
    for (let c = firstChild; c < firstChild + childCount; c++) {
      if (parentOf[c] !== -1) fail(`node ${c} is a child of both node ${parentOf[c]} and node ${k}`);
      parentOf[c] = k;
      const first = bytes[firstBytesOffset + c]!;
      if (first <= previous) fail(`children of node ${k} are not sorted by distinct first bytes (node ${c})`);
      previous = first;
    }
  }
  for (let k = 1; k < nodeCount; k++) if (parentOf[k] === -1) fail(`node ${k} is not a child of any node`);

  // Wildcard rules and their segments.
  let previousPriority = Infinity;
  let previousLine = -1;
  for (let w = 0; w < wildcardCount; w++) {
    const at = wildcardsOffset + w * F.WILDCARD_SIZE;
    const priority = u32(at + F.W_PRIORITY);
    const line = u32(at + F.W_LINE);
    const firstSegment = u32(at + F.W_FIRST_SEGMENT);
    const count = u32(at + F.W_SEGMENT_COUNT);
    const kind = bytes[at + F.W_KIND]!;
    const anchored = bytes[at + F.W_ANCHORED]!;
    if (kind !== F.KIND_ALLOW && kind !== F.KIND_DISALLOW) fail(`wildcard rule ${w} has unknown kind ${kind}`);
    if (anchored > 1) fail(`wildcard rule ${w} has anchored = ${anchored}, expected 0 or 1`);
    if (v.getUint16(at + F.W_ANCHORED + 1, true) !== 0) fail(`wildcard rule ${w} has non-zero reserved bytes`);
    // decide() reads the priority as i32 and stops at the first rule that cannot win.
    if (priority > 0x7fffffff) fail(`wildcard rule ${w} priority ${priority} exceeds 2^31 - 1`);
    if (priority > previousPriority || (priority === previousPriority && line < previousLine)) {
      fail(`wildcard rule ${w} is out of order (priority descending, then line ascending)`);
    }
    previousPriority = priority;
    previousLine = line;
    if (count < 1) fail(`wildcard rule ${w} has segmentCount 0, expected ≥ 1`);
    if (firstSegment + count > segmentCount) {
      fail(`wildcard rule ${w} segments [${firstSegment}, ${firstSegment + count}) out of range (${segmentCount} segments)`);
    }
  }
  for (let s = 0; s < segmentCount; s++) {
    const at = segmentsOffset + s * F.SEGMENT_SIZE;
    const offset = u32(at + F.S_BYTES_OFFSET);
    const length = u32(at + F.S_LENGTH);
    const failOffset = u32(at + F.S_FAIL_OFFSET);
    inPool(`segment ${s} bytes`, offset, length);
    inPool(`segment ${s} failure table`, failOffset, length * 4);
    // KMP: link[k] is the border of the prefix of length k + 1, so link[k] ≤ k; a larger
    // link would make findSegment's `while` loop revisit states forever.
    for (let k = 0; k < length; k++) {
      const link = u32(failOffset + k * 4);
      if (link > k) fail(`segment ${s} failure link [${k}] = ${link} exceeds ${k}`);
    }
  }
}
