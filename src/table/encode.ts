// Rule-table encoder: the rules of a RuleBuffer → the byte layout described in format.ts.
//
// Plain rules go into a radix trie (trie.ts), and so, in most tables, do rules whose `*`s
// all end them; other rules with `*` become WILDCARD records with their segments and KMP
// failure links, sorted by priority. The table is sized exactly and written through one
// u32 view.
import * as F from './format.js';
import { acquireRuleBuffer, releaseRuleBuffer, type RuleBuffer } from './rule-buffer.js';
import { TrieBuilder } from './trie.js';

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
  /**
   * Put the `/p*` rules (trailing `*`s only) in the trie (true) or the wildcard list
   * (false) whatever the table; by default, as prefixStarsToTrie says. Both give the same
   * verdicts. Ignored with allWildcard.
   */
  readonly prefixStars?: boolean;
}

const STAR = 0x2a;
const DOLLAR = 0x24;

// Format offsets as u32 word indexes, in module constants: V8 folds these, while each
// read of an imported binding stays a load (measured: twice the cost of these stores).
const WILDCARD_SIZE = F.WILDCARD_SIZE;
const W_LINE = F.W_LINE / 4;
const W_PRIORITY = F.W_PRIORITY / 4;
const W_FIRST_SEGMENT = F.W_FIRST_SEGMENT / 4;
const W_SEGMENT_COUNT = F.W_SEGMENT_COUNT / 4;
const W_KIND = F.W_KIND;
const W_ANCHORED = F.W_ANCHORED;
const W_ID = F.W_ID / 4;
const SEGMENT_WORDS = F.SEGMENT_SIZE / 4;
const MAX_EXTRA = F.MAX_EXTRA;
const S_BYTES_OFFSET = F.S_BYTES_OFFSET / 4;
const S_LENGTH = F.S_LENGTH / 4;
const S_FAIL_OFFSET = F.S_FAIL_OFFSET / 4;

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
 * Whether the pattern src[start, end), whose first `*` is at start + star, is `/p*`: its
 * `*`s all end it (then maybe `$`), at most MAX_EXTRA of them with the `$`. It matches
 * exactly the paths that start with `/p` (a `*` matches any rest), as a prefix rule does.
 */
function isPrefixStar(src: Uint8Array, start: number, end: number, star: number, anchored: boolean): boolean {
  if (end - start - star > MAX_EXTRA) return false;
  for (let i = start + star + 1, stop = anchored ? end - 1 : end; i < stop; i++) if (src[i] !== STAR) return false;
  return true;
}

/**
 * Below this many rules with `*` (both kinds), a table has no DFA (assembly/dfa.ts
 * DFA_TRIAL_RULES; a test checks they agree).
 */
export const PREFIX_STARS_BELOW = 8;

/**
 * Whether the `/p*` rules (isPrefixStar) of `rules` go into the trie as prefix rules with
 * their extra priority (format.ts), rather than into the wildcard list: when no other rule
 * has a `*`, or when too few rules have one for a DFA. A quarter of the corpus's rules
 * with `*` are `/p*` rules. In the trie they cost nothing beyond the walk every path takes,
 * while each wildcard rule adds to the prefilter; but where a DFA runs (8 or more rules
 * with `*`), it takes the plain rules in anyway (dfa.ts), and its region, its switch from
 * trial and the crowd flag are sized by the wildcard rules: moved there, they made those
 * tables slower (docs/PERFORMANCE.md, "Trailing-`*` rules"), so they stay.
 */
function prefixStarsToTrie(rules: RuleBuffer): boolean {
  const { bytes: src, start: starts, end: ends, star: stars, count } = rules;
  let prefixStars = 0;
  let others = 0;
  for (let index = 0; index < count; index++) {
    const star = stars[index]!;
    if (star < 0) continue;
    const start = starts[index]!;
    const end = ends[index]!;
    if (isPrefixStar(src, start, end, star, src[end - 1] === DOLLAR)) prefixStars++;
    else others++;
  }
  return prefixStars > 0 && (others === 0 || prefixStars + others < PREFIX_STARS_BELOW);
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

/**
 * The encoder's scratch (trie, wildcard lists, sort counts), kept and grown from one
 * encode to the next: encoding is synchronous, and once the options are read no caller
 * code runs, so one instance is never used by two encodes at once.
 */
class Encoder {
  private readonly trie = new TrieBuilder();
  /** Wildcard rule indexes, then the segment pairs of each ([start, end) in bytes). */
  private wildScratch = new Int32Array(256);
  private segmentScratch = new Int32Array(1024);
  /** Per wildcard (by rule index): first pair in segmentScratch, pair count. */
  private wildSegments = new Int32Array(512);
  /** Counting-sort scratch: a count per priority, and the sorted indexes. */
  private priorityCounts = new Int32Array(256);
  private sortedScratch = new Int32Array(256);

  /**
   * Sorts wild[0, n) (rule indexes, in list order) in wildcard order. Most files have a
   * handful: insertion sort spares Array#sort's per-call setup. Longer lists whose lines
   * never decrease (file order, as compile.ts gives them) only need a stable sort by
   * priority, which counting does in linear time; anything else goes to Array#sort.
   */
  private sortWildcards(wild: Int32Array, n: number, rules: RuleBuffer): void {
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
    if (this.priorityCounts.length < maxPriority + 2) this.priorityCounts = new Int32Array(Math.max(maxPriority + 2, this.priorityCounts.length * 2));
    if (this.sortedScratch.length < n) this.sortedScratch = new Int32Array(Math.max(n, this.sortedScratch.length * 2));
    const counts = this.priorityCounts;
    const sorted = this.sortedScratch;
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

  /** Encodes the rules in `rules` (file order) into a RuleTable. */
  encode(rules: RuleBuffer, options: EncodeOptions): Uint8Array {
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
    const prefixStarsOption = options.prefixStars;
    const trie = this.trie;
    trie.reset(count);
    if (this.wildScratch.length < count) this.wildScratch = new Int32Array(Math.max(count, this.wildScratch.length * 2));
    if (this.wildSegments.length < 2 * count) this.wildSegments = new Int32Array(Math.max(2 * count, this.wildSegments.length * 2));
    const wild = this.wildScratch;
    const wildSegments = this.wildSegments;
    const prefixStars = !allWildcard && (typeof prefixStarsOption === 'boolean' ? prefixStarsOption : prefixStarsToTrie(rules));
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
      const plainLength = star < 0 ? length : prefixStars && isPrefixStar(src, start, end, star, anchored) ? star : -1;
      if (plainLength >= 0 && !allWildcard) {
        const extra = star < 0 ? 0 : end - start - star;
        let shared = 0;
        if (previousLength >= 0) {
          const m = plainLength < previousLength ? plainLength : previousLength;
          // Word by word while the words agree (both starts are 4-aligned), then bytes.
          const a = start >> 2;
          const b = previousStart >> 2;
          const wordsToCompare = m >> 2;
          let w = 0;
          while (w < wordsToCompare && words[a + w] === words[b + w]) w++;
          shared = w << 2;
          while (shared < m && src[start + shared] === src[previousStart + shared]) shared++;
        }
        trie.insert(src, start, plainLength, shared, anchored && extra === 0, rules.allow[index] === 1, rules.line[index]!, extra);
        previousStart = start;
        previousLength = plainLength;
        continue;
      }
      // Segments (see format.ts): the text before the first `*`, the non-empty middle
      // pieces, the text after the last `*`; a plain rule forced into the list
      // (allWildcard) is a single segment, a prefix.
      if (this.segmentScratch.length < 2 * (segmentCount + length + 2)) {
        const grown = new Int32Array(Math.max(2 * (segmentCount + length + 2), this.segmentScratch.length * 2));
        grown.set(this.segmentScratch);
        this.segmentScratch = grown;
      }
      const segments = this.segmentScratch;
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

    const nodeCount = trie.nodeCount;
    const labelBytes = trie.labelBytes;
    const tableFlags = allWildcard ? flags : flags | automatonFlag(src, starts, stars, wild, wildCount);

    this.sortWildcards(wild, wildCount, rules);

    const segments = this.segmentScratch;
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

    const tableView = new DataView(table.buffer);
    const srcView = rules.view;
    let pool = trie.writeNodes(table, u32, tableView, src, srcView, nodesOffset, firstBytesOffset, poolOffset);
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
        // Four bytes a turn through the views, as trie.ts copies labels.
        let i = start;
        for (; i + 4 <= end; i += 4, pool += 4) tableView.setInt32(pool, srcView.getInt32(i, true), true);
        for (; i < end; i++) table[pool++] = src[i]!;
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
    u32[F.H_VERSION >> 2] = (F.FORMAT_VERSION & 0xffff) | ((tableFlags & 0xffff) << 16);
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
}

const encoder = new Encoder();

/**
 * Wildcard rules that the RuleIndex's prefilter cannot tell apart by position (assembly/
 * rule-index.ts tests a rule's second and third bytes): when at least this many share
 * their first three bytes (`/*` facet rules, a locale prefix), a URL passes the prefilter
 * for many of them and matching them one by one costs more than reading the path once
 * through the wildcard automaton (assembly/wildcards.ts). Measured per corpus file (both
 * ways, same run): with 32–47 such rules the automaton was faster on 35 of 77 tables, with
 * 48–63 on 16 of 23, from 64 on 32 of 36 (docs/PERFORMANCE.md).
 */
export const AUTOMATON_CROWD = 48;

/**
 * FLAG_WILDCARD_AUTOMATON when the largest crowd of wildcard rules sharing the first
 * three bytes of their first piece reaches AUTOMATON_CROWD, else 0.
 */
function automatonFlag(src: Uint8Array, starts: Int32Array, stars: Int32Array, wild: Int32Array, wildCount: number): number {
  if (wildCount < AUTOMATON_CROWD) return 0;
  const crowds = new Map<number, number>();
  let largest = 0;
  for (let k = 0; k < wildCount; k++) {
    const index = wild[k]!;
    const start = starts[index]!;
    const n = Math.min(3, stars[index]!);
    let key = n;
    for (let i = 0; i < n; i++) key = key * 256 + src[start + i]!;
    const crowd = (crowds.get(key) ?? 0) + 1;
    crowds.set(key, crowd);
    if (crowd > largest) largest = crowd;
  }
  return largest >= AUTOMATON_CROWD ? F.FLAG_WILDCARD_AUTOMATON : 0;
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

/**
 * Encodes the rules in `rules` (file order; see RuleBuffer) into a RuleTable.
 * @example encodeRuleBuffer(rules, { flags: FLAG_NORMALIZE_URL }) // see RuleBuffer
 */
export function encodeRuleBuffer(rules: RuleBuffer, options: EncodeOptions): Uint8Array {
  return encoder.encode(rules, options);
}
