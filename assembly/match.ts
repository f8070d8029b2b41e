// The linear-time matcher: one rule table (table.ts layout) against one prepared path.
//
// Why linear: plain rules sit in a radix trie that is walked once, each path byte
// compared at most once (pos only grows). A wildcard rule `s0*s1*…*sk[$]` is matched
// greedily: s0 must be a prefix, each middle piece is found at its leftmost occurrence
// after the previous one (SIMD filter with a KMP fallback, O(bytes scanned + piece
// length); the scans of successive pieces cover disjoint stretches of the path), and the
// last piece is either found the same way or, when anchored, compared against the path's
// end. Leftmost placement is always safe for `*`-only globs: any match can be shifted
// left to it. So a table with W wildcard rules costs O(L + W·L + total pattern bytes)
// per path of L bytes, never the O(L·P) of robots.cc's position-set matcher, and
// nothing backtracks.
//
// Why fast: a per-table RuleIndex (assembly/rule-index.ts, built once per table, kept next to it)
// adds, for a table of at most COMPACT_NODES trie nodes, a 32-byte record per node (its
// children's first bytes, its first label bytes), so that a step of the walk is one
// dependent load from the parent's record to the child's, plus a 16-byte reach record
// holding the best prefix rules on the way to the node, so that the walk loop keeps no
// bookkeeping (assembly/trie-walk.ts; a larger table is walked through its own nodes);
// and it turns each wildcard rule into
// necessary conditions laid out so that 16 rules are tested in a handful of vector
// operations: its pieces contain certain "classes" (16 per table, the rarest its rules
// contain: pairs of adjacent bytes, or single bytes when the table has more rules than
// classes, since a byte is shared between rules far more often than a pair), the path is
// at least as long as its pieces, the path's second and third bytes are its first
// piece's, and an anchored rule's last two bytes end the path. One pass over the path
// builds its class set (nibble-table lookups of each byte and of the byte after it, per
// 16 bytes). Only the rules passing them all are matched for real: 0.26 per URL on the
// bench's 100-rule file (0.75 with byte classes only), and on the corpus's real URLs
// 0.34 rules per URL that then fail to match (0.46 with byte classes only).
//
// Tables with many wildcard rules skip the prefilter: one with DFA_MIN_RULES or more goes
// through the lazy DFA of dfa.ts, one with DFA_TRIAL_RULES or more too once a window of its
// paths proved costly rule by rule (dfa.ts `notePath`), and a crowd sharing a prefix
// through the DFA until it gives up, then through the Aho–Corasick automaton of
// wildcards.ts built in its place; both find the same best allow and disallow as the loop
// below, which stays the fallback. A DFA that took the plain rules in too (dfa.ts
// `dfaFolds`) gives the whole verdict, and the path skips the trie walk.

import { outranks } from './rank';
import { equalBytes, lanesBelow } from './scan';
import {
  BLOCK_SIZE, B_LAST, B_MIN_LENGTH, B_PENULT, B_PRIOS, B_REQUIRED, B_SECOND, B_THIRD, I_CLASS_COUNT, I_CLASS_HIGH,
  I_CLASS_LOW, I_HEADER, I_SECOND_HIGH, I_SECOND_LOW, I_SINGLES, MIN_LENGTH_CAP, R_ALLOW_LINE, R_ALLOW_PRIO,
  R_DISALLOW_LINE, R_DISALLOW_PRIO, noteLean, switchToAutomaton, wildcardRegion,
} from './rule-index';
import {
  FLAG_WILDCARD_AUTOMATON, H_FLAGS, H_SEGMENTS_OFFSET, H_WILDCARD_COUNT, H_WILDCARDS_OFFSET,
  KIND_ALLOW, SEGMENT_SIZE, S_BYTES_OFFSET, S_FAIL_OFFSET, S_LENGTH, WILDCARD_SIZE, W_ANCHORED, W_FIRST_SEGMENT, W_ID, W_KIND, W_LINE, W_SEGMENT_COUNT,
} from './table';
import { walkTrie } from './trie-walk';
import {
  automatonEnabled, matchedAllowLine, matchedAllowPrio, matchedDisallowLine, matchedDisallowPrio, scanAutomaton,
} from './wildcards';
import { DECIDED, DFA_MIN_RULES, DFA_TRIAL_RULES, LANES, PATH_ENDS, QUEUE_CAP, dfaEnabled, dfaFolds, dfaGivenUp, hasDfaRegion, notePath, scanDfa, scanDfaQueue } from './dfa';

/** Line of the rule that decided the last `decide` call (0 = none). */
export let decidedLine: u32 = 0;

/** 0xff in lanes i < n (n ≤ 16) and 0 after: TAIL_MASKS + 16 − n holds that vector. */
const TAIL_MASKS: usize = memory.data<u8>([
  255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
]);

/**
 * The classes found in p[0, n): class b when its byte occurs, or, for a pair class, its two
 * bytes occur next to each other. Each 16-byte step looks up the nibbles of every lane
 * (which classes it can start) and of the lane after it (which pairs it can end), per
 * group of 8 classes, and ORs the lanes into an accumulator; in the last step, lanes past
 * `n` are masked, and so is a pair's second byte past `n`. Reads up to 16 bytes past p + n.
 * With `both` false, only classes 0‥7 (the only ones of a table with at most 8).
 */
@inline function classSet(index: usize, p: usize, n: u32, both: bool): u32 {
  const low0 = v128.load(index, I_CLASS_LOW);
  const high0 = v128.load(index, I_CLASS_HIGH);
  const low1 = v128.load(index, I_CLASS_LOW + 16);
  const high1 = v128.load(index, I_CLASS_HIGH + 16);
  const secondLow0 = v128.load(index, I_SECOND_LOW);
  const secondHigh0 = v128.load(index, I_SECOND_HIGH);
  const secondLow1 = v128.load(index, I_SECOND_LOW + 16);
  const secondHigh1 = v128.load(index, I_SECOND_HIGH + 16);
  const singles0 = i8x16.splat(load<u8>(index, I_SINGLES));
  const singles1 = i8x16.splat(load<u8>(index, I_SINGLES + 1));
  const all = i8x16.splat(-1);
  let acc0 = i8x16.splat(0);
  let acc1 = i8x16.splat(0);
  // Invariant: acc0, acc1 hold the classes of p[0, i) (a pair counted where it starts).
  // A step whose 16 lanes and the bytes after them all lie in p[0, n) needs no masks, so
  // the loop loads none (its masks are `all`, a constant): at most ⌈n / 16⌉ such steps,
  // then at most one masked step.
  let i: u32 = 0;
  for (; i + 17 <= n; i += 16) {
    const v = v128.load(p + i);
    const w = v128.load(p + i + 1);
    acc0 = v128.or(acc0, groupClasses(v, w, all, all, low0, high0, secondLow0, secondHigh0, singles0));
    if (both) acc1 = v128.or(acc1, groupClasses(v, w, all, all, low1, high1, secondLow1, secondHigh1, singles1));
  }
  if (i < n) {
    const v = v128.load(p + i);
    const w = v128.load(p + i + 1);
    const tail = v128.load(TAIL_MASKS + 16 - (n - i));
    const tail2 = v128.load(TAIL_MASKS + 16 - (n - i - 1));
    acc0 = v128.or(acc0, groupClasses(v, w, tail, tail2, low0, high0, secondLow0, secondHigh0, singles0));
    if (both) acc1 = v128.or(acc1, groupClasses(v, w, tail, tail2, low1, high1, secondLow1, secondHigh1, singles1));
  }
  return both ? orBytes(acc0) | (orBytes(acc1) << 8) : orBytes(acc0);
}

/**
 * Per lane of v, the classes of one group of 8 (its nibble tables) that the lane's byte
 * starts and, for a pair class, the byte after it (that lane of w) ends; lanes outside
 * `tail`, and pairs whose second byte is outside `tail2`, count none.
 */
@inline function groupClasses(v: v128, w: v128, tail: v128, tail2: v128, low: v128, high: v128, secondLow: v128, secondHigh: v128, singles: v128): v128 {
  const nibble = i8x16.splat(15);
  const ends = v128.or(v128.and(v128.and(i8x16.swizzle(secondHigh, i8x16.shr_u(w, 4)), i8x16.swizzle(secondLow, v128.and(w, nibble))), tail2), singles);
  return v128.and(v128.and(v128.and(i8x16.swizzle(high, i8x16.shr_u(v, 4)), i8x16.swizzle(low, v128.and(v, nibble))), ends), tail);
}

/** The OR of the 16 bytes of `v`. */
@inline function orBytes(v: v128): u32 {
  let x = i64x2.extract_lane(v, 0) | i64x2.extract_lane(v, 1);
  x |= x >> 32;
  x |= x >> 16;
  x |= x >> 8;
  return <u32>x & 0xff;
}

/** 0xff in the lanes of `block` whose byte at `field` is `c` or whose `any` lane is set. */
@inline function byteOk(block: usize, field: u32, c: v128): v128 {
  return v128.or(i8x16.eq(v128.load(block + field), c), v128.load(block + field + 16));
}

/**
 * Bit j set when rule 16 × block + j passes every RuleIndex condition on a path whose
 * classes are the complement of `notClasses0`, `notClasses1` (classes 0‥7, 8‥15), with length `len` (capped) and the bytes
 * `second`, `third` (path[1], path[2]), `penult`, `last` (path[len − 2], path[len − 1]).
 */
@inline function blockCandidates(block: usize, notClasses0: v128, notClasses1: v128, len: v128, second: v128, third: v128, penult: v128, last: v128): u32 {
  const missing = v128.or(v128.and(v128.load(block, B_REQUIRED), notClasses0), v128.and(v128.load(block, B_REQUIRED + 16), notClasses1));
  const ok = v128.and(
    v128.and(
      v128.and(i8x16.eq(missing, i8x16.splat(0)), i8x16.le_u(v128.load(block, B_MIN_LENGTH), len)),
      v128.and(byteOk(block, B_SECOND, second), byteOk(block, B_THIRD, third)),
    ),
    v128.and(byteOk(block, B_LAST, last), byteOk(block, B_PENULT, penult)),
  );
  return <u32>i8x16.bitmask(ok);
}

/**
 * KMP from path[from]: leftmost occurrence of the m-byte segment in path[from, len);
 * returns the index just past it, or -1. The text index never moves back and the state
 * drops along failure links, so the loop runs at most 2 * (len - from) times.
 */
function findSegmentKmp(bytes: usize, fail: usize, m: u32, path: usize, from: u32, len: u32): i32 {
  let q: u32 = 0;
  for (let i = from; i < len; i++) {
    const c = load<u8>(path + i);
    while (q > 0 && load<u8>(bytes + q) != c) q = load<u32>(fail + ((q - 1) << 2));
    if (load<u8>(bytes + q) == c) q++;
    if (q == m) return <i32>(i + 1);
  }
  return -1;
}

/**
 * Leftmost occurrence of segment `seg` in path[from, len); returns the index just past
 * it, or -1.
 *
 * Fast path (SIMD filter): 16 candidate starts at a time are kept only when both the
 * segment's first and last byte are in place, and each candidate is then compared in
 * full. Real paths rarely produce candidates, so a 40-byte path costs two or three
 * vector steps. Adversarial text (`aaaa…` against `aa…ab`) could make the comparisons
 * quadratic, so they share a budget of 2 * (len - from) + 64 bytes; once it is spent the
 * search continues with KMP from the first start not yet ruled out, which keeps the
 * whole call O(len - from + m). Reads up to 15 bytes past the path.
 */
function findSegment(table: usize, seg: usize, path: usize, from: u32, len: u32): i32 {
  const m = load<u32>(seg, S_LENGTH);
  if (m == 0) return <i32>from;
  if (m > len - from) return -1;
  const bytes = table + load<u32>(seg, S_BYTES_OFFSET);
  const first = i8x16.splat(load<u8>(bytes));
  const last = i8x16.splat(load<u8>(bytes + m - 1));
  const lastStart = len - m; // the last start at which the segment still fits
  // i64: twice a prepared path past 1 GiB (a URL near the host's 512 MiB ceiling) overflows 32 bits.
  let budget: i64 = (<i64>(len - from) << 1) + 64;
  // Invariant: no occurrence starts in [from, i). At most ⌈(lastStart − from + 1) / 16⌉ steps.
  for (let i = from; i <= lastStart; i += 16) {
    let mask = <u32>i8x16.bitmask(v128.and(
      i8x16.eq(v128.load(path + i), first),
      i8x16.eq(v128.load(path + i + m - 1), last),
    )) & lanesBelow(lastStart - i + 1);
    while (mask != 0) {
      const at = i + ctz(mask);
      if (m <= 2 || equalBytes(bytes + 1, path + at + 1, m - 2)) return <i32>(at + m);
      budget -= <i64>m;
      if (budget < 0) return findSegmentKmp(bytes, table + load<u32>(seg, S_FAIL_OFFSET), m, path, at + 1, len);
      mask &= mask - 1;
    }
  }
  return -1;
}

/**
 * Whether the wildcard rule at `rule` matches path[0, len). Inlined into its callers: around
 * a call, V8's compiled rule loop of `decideFrom` stores the values it holds to the stack
 * and loads them back.
 */
@inline export function wildcardMatches(table: usize, rule: usize, path: usize, len: u32): bool {
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

@inline function max32(a: i32, b: i32): i32 {
  return a > b ? a : b;
}

/**
 * Decides one prepared path: 1 = allowed, 0 = disallowed; sets `decidedLine`.
 * The longest matching allow and disallow are found (earliest line on ties); disallow
 * wins only when strictly longer (RFC 9309 §2.2.2: allow wins ties) and longer than an
 * empty pattern (robots.cc gives `disallow:` priority 0, which never disallows).
 * `index` is the table's RuleIndex (indexTable).
 */
export function decide(table: usize, index: usize, path: usize, len: u32): u32 {
  return decideFrom(table, index, path, len, DFA_MIN_RULES);
}

/**
 * `decide`, reading the DFA when it is on in a table of `dfaFrom` wildcard rules or more:
 * DFA_MIN_RULES for a path judged alone, DFA_TRIAL_RULES for a queued path the queue's
 * scan left undecided (its cache full: this scan flushes it, or the path spent its budget).
 */
function decideFrom(table: usize, index: usize, path: usize, len: u32, dfaFrom: u32): u32 {
  const count = load<u32>(index);
  const automaton = wildcardRegion(table, index);
  const dfa = hasDfaRegion(count);
  // (dfaFrom is at least DFA_TRIAL_RULES: a table it lets through has a DFA region.)
  if (count >= dfaFrom && dfaEnabled(automaton) && scanDfa(table, automaton, path, len)) {
    // Every wildcard rule at once (dfa.ts, its verdict in entry 0 of PATH_ENDS; checked
    // first so that a table on trial makes no call), and the plain rules too when the DFA
    // took them in (dfaFolds, read after the scan: a flush may have laid it out again).
    // A path judged alone reads it only in tables of DFA_MIN_RULES wildcard rules or more:
    // one dependent load a byte, without the lanes of scanDfaQueue, and in the sweep's
    // tables of 8–31 rules whose DFA was on, `isAllowed` cost 1.10–1.20× (geometric means;
    // p90 1.22) what it cost rule by rule, in tables of 32 or more 0.95–1.07×, in crowds
    // 0.85–0.92×. Batches queue their paths (decideQueued) and read it in any table.
    return dfaFolds(automaton) ? laneVerdict(0) : mergeLane(0, walkTrie(table, index, path, len));
  }
  // The plain rules (assembly/trie-walk.ts).
  const best = walkTrie(table, index, path, len);
  let aPrio = load<i32>(best, R_ALLOW_PRIO);
  let aLine = load<u32>(best, R_ALLOW_LINE);
  let dPrio = load<i32>(best, R_DISALLOW_PRIO);
  let dLine = load<u32>(best, R_DISALLOW_LINE);
  // Wildcard rules are sorted by priority descending. A rule below both bests can change
  // nothing: an allow below dPrio never outranks the disallow, a disallow at or below
  // aPrio never beats the allow. So the work stops at the first priority below both.
  const firstBlock = index + I_HEADER;
  const crowd = (<u32>load<u16>(table, H_FLAGS) & FLAG_WILDCARD_AUTOMATON) != 0;
  // Full rule matches (wildcardMatches calls) this path cost, for the DFA's trial.
  let calls: u32 = 0;
  if (crowd && (automatonEnabled(automaton) || (dfaGivenUp(automaton) && switchToAutomaton(table, index, automaton)))) {
    // Every wildcard rule at once (wildcards.ts): a crowd whose DFA gave up (or never
    // got one) takes its automaton into the same region, once.
    scanAutomaton(automaton, path, len);
    return mergedVerdict(aPrio, aLine, dPrio, dLine, matchedAllowPrio, matchedAllowLine, matchedDisallowPrio, matchedDisallowLine);
  } else if (count != 0 && load<i32>(firstBlock, B_PRIOS) >= max32(aPrio, dPrio)) {
    const wild = table + load<u32>(table, H_WILDCARDS_OFFSET);
    // Every condition of the RuleIndex holds for any path a rule matches, so a rule
    // failing one is skipped; 16 rules are tested per block.
    // (A predictable branch: it goes the same way for every URL of a table.)
    // One or two rules cost less matched on their other conditions than the class pass
    // over the whole path (corpus tables of one rule: 8% less per URL, of two: 5%, of
    // three: no gain; same-run A/B, CPU time).
    const classes = count <= 2 ? 0 : ~(load<u16>(index, I_CLASS_COUNT) > 8 ? classSet(index, path, len, true) : classSet(index, path, len, false));
    const notClasses0 = i8x16.splat(<u8>classes);
    const notClasses1 = i8x16.splat(<u8>(classes >> 8));
    const lenSplat = i8x16.splat(<u8>min<u32>(len, MIN_LENGTH_CAP));
    // Past a short path these bytes are junk, but harmlessly so: a rule that tests
    // path[k] or path[len − 1 − k] has at least k + 1 bytes, which minLength demands.
    const second = i8x16.splat(load<u8>(path, 1));
    const third = i8x16.splat(load<u8>(path, 2));
    const last = i8x16.splat(load<u8>(path + len - 1));
    const penult = i8x16.splat(load<u8>(path + len - 2));
    const blocks = load<u32>(index, 4);
    for (let b: u32 = 0; b < blocks; b++) {
      const block = firstBlock + <usize>b * BLOCK_SIZE;
      if (load<i32>(block, B_PRIOS) < max32(aPrio, dPrio)) break;
      let candidates = blockCandidates(block, notClasses0, notClasses1, lenSplat, second, third, penult, last) & lanesBelow(count - (b << 4));
      while (candidates != 0) {
        const j = ctz(candidates);
        candidates &= candidates - 1;
        const prio = load<i32>(block + B_PRIOS + (<usize>j << 2));
        if (prio < max32(aPrio, dPrio)) break;
        const rule = wild + <usize>((b << 4) + j) * WILDCARD_SIZE;
        const line = load<u32>(rule, W_LINE);
        if (<u32>load<u8>(rule, W_KIND) == KIND_ALLOW) {
          if (prio < dPrio || prio < aPrio || (prio == aPrio && line >= aLine)) continue;
          calls++;
          if (wildcardMatches(table, rule, path, len)) { aPrio = prio; aLine = line; }
        } else {
          if (prio <= aPrio || prio < dPrio || (prio == dPrio && line >= dLine)) continue;
          calls++;
          if (wildcardMatches(table, rule, path, len)) { dPrio = prio; dLine = line; }
        }
      }
    }
  }
  if (dfa) {
    if (!crowd) notePath(automaton, calls);
    noteLean(automaton);
  }

  return verdictOf(aPrio, aLine, dPrio, dLine);
}

/**
 * The verdict of the best allow and disallow (priority, -1: none; line), setting
 * decidedLine: disallow wins only when strictly longer and longer than an empty pattern.
 */
@inline function verdictOf(aPrio: i32, aLine: u32, dPrio: i32, dLine: u32): u32 {
  decidedLine = dPrio > aPrio ? dLine : aLine;
  return dPrio > aPrio && dPrio > 0 ? 0 : 1;
}

/**
 * verdictOf the bests a, d merged with the bests an automaton found (allow…, disallow…),
 * ranked as the rule-by-rule loop of `decide` ranks them: the higher priority, then the
 * earlier line.
 */
@inline function mergedVerdict(aPrio: i32, aLine: u32, dPrio: i32, dLine: u32, allowPrio: i32, allowLine: u32, disallowPrio: i32, disallowLine: u32): u32 {
  if (outranks(allowPrio, allowLine, aPrio, aLine)) { aPrio = allowPrio; aLine = allowLine; }
  if (outranks(disallowPrio, disallowLine, dPrio, dLine)) { dPrio = disallowPrio; dLine = disallowLine; }
  return verdictOf(aPrio, aLine, dPrio, dLine);
}

/**
 * Merges entry k of the DFA's path verdicts (dfa.ts PATH_ENDS) into the plain rules' bests
 * (`best`, walkTrie's record; ties: the earlier line, as the rule-by-rule loop ranks them)
 * and returns the verdict, setting decidedLine.
 */
function mergeLane(k: u32, best: usize): u32 {
  const ends = PATH_ENDS + (<usize>k << 4);
  return mergedVerdict(
    load<i32>(best, R_ALLOW_PRIO), load<u32>(best, R_ALLOW_LINE), load<i32>(best, R_DISALLOW_PRIO), load<u32>(best, R_DISALLOW_LINE),
    load<i32>(ends), load<u32>(ends, 4), load<i32>(ends, 8), load<u32>(ends, 12),
  );
}

/** The verdict of entry k of the DFA's path verdicts alone (a DFA that took the plain rules in), setting decidedLine. */
@inline function laneVerdict(k: u32): u32 {
  const ends = PATH_ENDS + (<usize>k << 4);
  return verdictOf(load<i32>(ends), load<u32>(ends, 4), load<i32>(ends, 8), load<u32>(ends, 12));
}

// Paths waiting for decideQueued: up to QUEUE_CAP (u32 address, length and output slot each).
const QUEUE_PATHS: usize = memory.data(4 * QUEUE_CAP, 16);
const QUEUE_LENGTHS: usize = memory.data(4 * QUEUE_CAP, 16);
const QUEUE_SLOTS: usize = memory.data(4 * QUEUE_CAP, 16);
let queued: u32 = 0;

/**
 * Whether the batch loops should queue this table's paths (queuePath, decideQueued): it
 * matches through the DFA (dfa.ts), whose queue scan overlaps four paths' loads at a time.
 */
export function queues(table: usize, index: usize): bool {
  const count = load<u32>(index);
  if (!hasDfaRegion(count)) return false;
  return dfaEnabled(wildcardRegion(table, index));
}

/**
 * Queues path[0, len) for decideQueued, its verdict to go to output slot `slot`; true when
 * the queue is full. The path's bytes must stay in place until decideQueued runs.
 */
@inline export function queuePath(path: usize, len: u32, slot: u32): bool {
  const k = <usize>queued << 2;
  store<u32>(QUEUE_PATHS + k, <u32>path);
  store<u32>(QUEUE_LENGTHS + k, len);
  store<u32>(QUEUE_SLOTS + k, slot);
  queued++;
  return queued == QUEUE_CAP;
}

/**
 * Decides the queued paths as `decide` would, through one scanDfaQueue (a path it could
 * not take is decided on its own), and empties the queue: verdicts to out[slot], deciding
 * lines to linesOut[slot] when linesOut is not 0. Paths go in queue order: `decide` writes
 * entry 0 of PATH_ENDS (scanDfa), which path 0 has read by then.
 */
export function decideQueued(table: usize, index: usize, out: usize, linesOut: usize): void {
  const n = queued;
  queued = 0;
  const dfa = wildcardRegion(table, index);
  // Fewer paths than lanes gain nothing from the scan: each is judged alone (`decide`).
  // The paths the scan left undecided are read again on their own, in any table with a DFA.
  const alone = n < LANES;
  if (!alone) scanDfaQueue(table, dfa, QUEUE_PATHS, QUEUE_LENGTHS, n);
  const dfaFrom = alone ? DFA_MIN_RULES : DFA_TRIAL_RULES;
  // A DFA that holds the plain rules too (dfa.ts dfaFolds) gives whole verdicts: no walk.
  const folds = dfaFolds(dfa);
  for (let k: u32 = 0; k < n; k++) {
    const path = <usize>load<u32>(QUEUE_PATHS + (<usize>k << 2));
    const len = load<u32>(QUEUE_LENGTHS + (<usize>k << 2));
    const slot = <usize>load<u32>(QUEUE_SLOTS + (<usize>k << 2));
    let verdict: u32;
    if (!alone && load<u8>(DECIDED + k) != 0) {
      verdict = folds ? laneVerdict(k) : mergeLane(k, walkTrie(table, index, path, len));
    } else {
      verdict = decideFrom(table, index, path, len, dfaFrom);
    }
    store<u8>(out + slot, verdict);
    if (linesOut != 0) store<u32>(linesOut + (slot << 2), decidedLine);
  }
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
