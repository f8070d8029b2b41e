// The Wasm ABI: plain numbers in and out, one call per batch; layouts in src/table/abi.ts, regions in src/wasm/memory.ts.
import { decide, decidedLine, decideQueued, queuePath, queues, collectMatches as collect } from './match';
import { QUEUE_CAP } from './dfa';
export { automatonStates, dfaStatus, dfaStepMode, dropDfa, indexBytes, indexBytesFor, indexTable, leanCounter } from './rule-index';
export { useDfa } from './dfa';
/** Wildcard rules from which a table uses the DFA from the start, from which it gets one on trial, and the trial's window (diagnostics for tests). */
export { DFA_MIN_RULES as dfaMinRules, DFA_TRIAL_RULES as dfaTrialRules, TRIAL_PATHS as dfaTrialPaths, TRIAL_CALLS_X2 as dfaTrialCallsX2, FOLD_POSITIONS as dfaFoldPositions, DFA_PER_NODE as dfaPerNode, DFA_FOLD_NODES as dfaFoldNodes, DFA_CAP as dfaCap } from './dfa';
export { AGENT_BYTES as agentBytes } from './rule-index';
import { findNewline } from './scan';
import { FLAG_IMPLICIT_ROBOTS_TXT, H_FLAGS } from './table';
import { PREPARE_FLAGS, forgetOrigin, isPlainOnOrigin, isRobotsTxtPath, pathLen, pathPtr, prepareLine, preparePath } from './url';
import { putColumn, putMultiEnd, putMultiStart, putRow, rowBound, rowWanted } from './rows';
import {
  OUTCOME_NO_ORIGIN, OUTCOME_NONE, OUTCOME_OK, OUTCOME_UNAVAILABLE, OUTCOME_UNREACHABLE,
  ROW_MISSING_DISALLOW, ROW_OUTCOME, ROW_UNAVAILABLE, ROW_UNREACHABLE, SPAN_SIZE, SP_HOST_HASH, SP_HOST_ID, SP_HOST_LENGTH, SP_HOST_START, SP_LINE_LENGTH, SP_LINE_START,
  CL_ALLOWED, CL_KEY_AT, MATCH_NOT_PLAIN, CL_KEY_LENGTH, CL_RESULT, COLUMN_SIZE, GE_SAME_AS, GE_SLOT, GROUP_ENTRY_SIZE, ROW_COLUMN_BYTES,
  TABLE_NONE, TABLE_SLOT_SIZE, TABLE_UNAVAILABLE, TABLE_UNREACHABLE, TS_INDEX_AT, TS_TABLE_AT,
} from './abi';
import { findHost, hostHash, hostLen, hostStart, lookupHost } from './host';

/** Bytes of the input consumed by the last `matchLines`, `formatLines` or `scanHosts` call. */
let consumedBytes: u32 = 0;
/** Output bytes written and verdicts counted by the last `formatLines` / `formatSpans` call. */
let writtenBytes: u32 = 0;
let allowedCount: u32 = 0;
let disallowedCount: u32 = 0;

/** First byte the host may use: everything below holds this module's static data. */
export function heapBase(): usize {
  return __heap_base;
}

/** Format version this module reads (mirrors FORMAT_VERSION in src/table/format.ts). */
export { FORMAT_VERSION as formatVersion } from './table';
/** ABI version this module speaks (mirrors ABI_VERSION in src/table/abi.ts). */
export { ABI_VERSION as abiVersion } from './abi';

/** The verdict on the path preparePath or prepareLine left in pathPtr/pathLen. */
@inline function judgePrepared(table: usize, index: usize, flags: u32): u32 {
  if ((flags & FLAG_IMPLICIT_ROBOTS_TXT) != 0 && isRobotsTxtPath(pathPtr, pathLen)) {
    decidedLine = 0;
    return 1;
  }
  return decide(table, index, pathPtr, pathLen);
}

@inline function judge(table: usize, index: usize, flags: u32, url: usize, len: u32, scratch: usize): u32 {
  preparePath(url, len, scratch, flags);
  return judgePrepared(table, index, flags);
}

/** Sentinel of `judgeLine`: the line at `start` is unterminated and not final. */
const NOT_YET: u32 = 2;

/** Where the line judged by the last `judgeLine` call ends: its '\n' (or the input's end). */
let lineEndAt: u32 = 0;
/** Its length, a CR before the '\n' dropped. */
let lineLength: u32 = 0;

/**
 * Prepares the line of input[0, len) starting at `start` (pathPtr, pathLen): false when it
 * has no '\n' and `final` is 0. Sets lineEndAt and lineLength. Most lines take
 * prepareLine's single pass; the rest are split first and then prepared.
 */
@inline function prepareLineAt(flags: u32, input: usize, start: u32, len: u32, final: u32, scratch: usize): bool {
  const fast = prepareLine(input + start, len - start, flags);
  if (fast >= 0) {
    lineEndAt = start + <u32>fast;
    lineLength = <u32>fast;
    return true;
  }
  const nl = findNewline(input, start, len);
  if (nl == len && final == 0) return false;
  const end = lineEnd(input, start, nl);
  lineEndAt = nl;
  lineLength = end - start;
  preparePath(input + start, end - start, scratch, flags);
  return true;
}

/**
 * Judges the line of input[0, len) starting at `start`: 1 allow, 0 disallow, or NOT_YET
 * when it has no '\n' and `final` is 0. Sets lineEndAt and lineLength.
 */
@inline function judgeLine(table: usize, index: usize, flags: u32, input: usize, start: u32, len: u32, final: u32, scratch: usize): u32 {
  if (!prepareLineAt(flags, input, start, len, final, scratch)) return NOT_YET;
  return judgePrepared(table, index, flags);
}

/**
 * The prepared path (pathPtr, pathLen) judged into out[slot] (and its line into
 * linesOut[slot]) now, or queued for decideQueued when its bytes lie in
 * input[0, inputEnd) and so stay put (a path rewritten into scratch does not).
 */
@inline function judgeOrQueue(table: usize, index: usize, flags: u32, input: usize, inputEnd: usize, slot: u32, out: usize, linesOut: usize): void {
  if ((flags & FLAG_IMPLICIT_ROBOTS_TXT) == 0 || !isRobotsTxtPath(pathPtr, pathLen)) {
    if (pathPtr >= input && pathPtr + pathLen <= inputEnd) {
      if (queuePath(pathPtr, pathLen, slot)) decideQueued(table, index, out, linesOut);
      return;
    }
  }
  store<u8>(out + slot, judgePrepared(table, index, flags));
  if (linesOut != 0) store<u32>(linesOut + (<usize>slot << 2), decidedLine);
}

/**
 * Judges `count` URLs stored back to back at `input`, their byte lengths as u32 at
 * `lengths`. Writes one verdict byte per URL to `out` (1 allow, 0 disallow) and, when
 * `linesOut` is not 0, the deciding line (u32) per URL. `index` is the table's RuleIndex
 * (`indexTable`); `scratch` holds 3 × the longest URL + 1 bytes.
 */
export function matchUrls(table: usize, index: usize, input: usize, lengths: usize, count: u32, out: usize, linesOut: usize, scratch: usize): void {
  forgetOrigin();
  const flags = <u32>load<u16>(table, H_FLAGS);
  let url = input;
  if (queues(table, index)) {
    // Paths queued for the DFA, four read at a time (match.ts decideQueued).
    for (let i: u32 = 0; i < count; i++) {
      const len = load<u32>(lengths + (<usize>i << 2));
      preparePath(url, len, scratch, flags);
      judgeOrQueue(table, index, flags, url, url + len, i, out, linesOut);
      url += len;
    }
    decideQueued(table, index, out, linesOut);
    return;
  }
  for (let i: u32 = 0; i < count; i++) {
    const len = load<u32>(lengths + (<usize>i << 2));
    store<u8>(out + i, judge(table, index, flags, url, len, scratch));
    if (linesOut != 0) store<u32>(linesOut + (<usize>i << 2), decidedLine);
    url += len;
  }
}

/**
 * One URL of `len` bytes at `input` on the origin at [origin, origin + originLen)
 * (src/table/abi.ts MATCH_NOT_PLAIN): 1 allow or 0 disallow, as `matchUrls` judges it,
 * the deciding line to linesOut[0] when `linesOut` is not 0; MATCH_NOT_PLAIN, having
 * written nothing, when the URL is not plainly on that origin (isPlainOnOrigin). The
 * check reads only bytes the path scan would read anyway, so compat's origin test costs
 * no second pass in JS. `scratch` holds 3 × len + 1 bytes.
 */
export function matchOnOrigin(table: usize, index: usize, input: usize, len: u32, origin: usize, originLen: u32, linesOut: usize, scratch: usize): u32 {
  if (!isPlainOnOrigin(input, len, origin, originLen)) return MATCH_NOT_PLAIN;
  forgetOrigin();
  const verdict = judge(table, index, <u32>load<u16>(table, H_FLAGS), input, len, scratch);
  if (linesOut != 0) store<u32>(linesOut, decidedLine);
  return verdict;
}

/**
 * The verdict of table number `t` of a TABLE_SLOT array for the URL prepared last (under
 * `preparedFlags`, its flags' PREPARE_FLAGS bits): a table whose preparation flags differ
 * prepares the URL again for itself. Every table of one Robots shares its profile's, so
 * that happens only for mixed tables.
 */
let preparedFlags: u32 = 0;
@inline function judgeSlot(slots: usize, t: u32, url: usize, len: u32, scratch: usize): u32 {
  const slot = slots + <usize>t * TABLE_SLOT_SIZE;
  const table = <usize>load<u32>(slot, TS_TABLE_AT);
  const flags = <u32>load<u16>(table, H_FLAGS);
  if ((flags & PREPARE_FLAGS) != preparedFlags) {
    preparePath(url, len, scratch, flags);
    preparedFlags = flags & PREPARE_FLAGS;
  }
  return judgePrepared(table, load<u32>(slot, TS_INDEX_AT), flags);
}

/**
 * Many agents (MULTI results, src/table/abi.ts): judges `count` URLs stored back to back
 * at `input` (u32 lengths at `lengths`) against the `tableCount` tables of the TABLE_SLOT
 * array at `slots`, preparing each URL once. Verdict of URL i under table t at
 * out[i × tableCount + t], its line (when `linesOut` is not 0) at the same u32 index.
 */
export function matchUrlsMulti(slots: usize, tableCount: u32, input: usize, lengths: usize, count: u32, out: usize, linesOut: usize, scratch: usize): void {
  forgetOrigin();
  let url = input;
  let r: usize = 0;
  for (let i: u32 = 0; i < count; i++) {
    const len = load<u32>(lengths + (<usize>i << 2));
    const flags = <u32>load<u16>(<usize>load<u32>(slots, TS_TABLE_AT), H_FLAGS);
    preparePath(url, len, scratch, flags);
    preparedFlags = flags & PREPARE_FLAGS;
    for (let t: u32 = 0; t < tableCount; t++, r++) {
      store<u8>(out + r, judgeSlot(slots, t, url, len, scratch));
      if (linesOut != 0) store<u32>(linesOut + (r << 2), decidedLine);
    }
    url += len;
  }
}

/**
 * Many agents over LF-separated URLs, as `matchLines` reads them (a CR before the LF
 * dropped, an unterminated last line only when `final` is 1): each line is split and
 * prepared once, then judged against the `tableCount` tables at `slots`; results as
 * `matchUrlsMulti` lays them out. Returns the lines judged; `consumed()` their bytes.
 * `out`/`linesOut` need room for (len + 1) × tableCount entries; `scratch` 3 × len + 1 bytes.
 */
export function matchLinesMulti(slots: usize, tableCount: u32, input: usize, len: u32, out: usize, linesOut: usize, scratch: usize, final: u32): u32 {
  forgetOrigin();
  const table0 = <usize>load<u32>(slots, TS_TABLE_AT);
  const index0 = load<u32>(slots, TS_INDEX_AT);
  const flags0 = <u32>load<u16>(table0, H_FLAGS);
  let start: u32 = 0;
  let n: u32 = 0;
  let r: usize = 0;
  while (start < len) {
    const verdict = judgeLine(table0, index0, flags0, input, start, len, final, scratch);
    if (verdict == NOT_YET) break;
    store<u8>(out + r, verdict);
    if (linesOut != 0) store<u32>(linesOut + (r << 2), decidedLine);
    r++;
    preparedFlags = flags0 & PREPARE_FLAGS;
    for (let t: u32 = 1; t < tableCount; t++, r++) {
      store<u8>(out + r, judgeSlot(slots, t, input + start, lineLength, scratch));
      if (linesOut != 0) store<u32>(linesOut + (r << 2), decidedLine);
    }
    n++;
    start = lineEndAt + 1;
  }
  consumedBytes = start < len ? start : len;
  return n;
}

/**
 * Judges the LF-separated URLs in input[0, len) (a CR before the LF is dropped). Stops
 * before an unterminated last line unless `final` is 1. Returns the number of lines
 * judged; `consumed()` tells how many input bytes they covered. `out`/`linesOut` need
 * room for len + 1 entries; `scratch` 3 × len + 1 bytes.
 */
export function matchLines(table: usize, index: usize, input: usize, len: u32, out: usize, linesOut: usize, scratch: usize, final: u32): u32 {
  forgetOrigin();
  const flags = <u32>load<u16>(table, H_FLAGS);
  let start: u32 = 0;
  let n: u32 = 0;
  if (queues(table, index)) {
    // Paths queued for the DFA, four read at a time (match.ts decideQueued).
    while (start < len && prepareLineAt(flags, input, start, len, final, scratch)) {
      judgeOrQueue(table, index, flags, input, input + len, n, out, linesOut);
      n++;
      start = lineEndAt + 1;
    }
    decideQueued(table, index, out, linesOut);
    consumedBytes = start < len ? start : len;
    return n;
  }
  while (start < len) {
    const verdict = judgeLine(table, index, flags, input, start, len, final, scratch);
    if (verdict == NOT_YET) break;
    store<u8>(out + n, verdict);
    if (linesOut != 0) store<u32>(linesOut + (<usize>n << 2), decidedLine);
    n++;
    start = lineEndAt + 1;
  }
  consumedBytes = start < len ? start : len;
  return n;
}

export function consumed(): u32 {
  return consumedBytes;
}

export function written(): u32 {
  return writtenBytes;
}

export function allowed(): u32 {
  return allowedCount;
}

export function disallowed(): u32 {
  return disallowedCount;
}

/** End of the line starting at `start`: the '\n' at `nl` excluded, and a CR before it. */
@inline function lineEnd(input: usize, start: u32, nl: u32): u32 {
  return nl > start && load<u8>(input + nl - 1) == 0x0d ? nl - 1 : nl;
}

/**
 * `check`: judges the LF-separated URLs of input[0, len) against one table and writes
 * their rows (rows.ts, `options` ROW_*) to out[0, outCap). Stops before an unterminated
 * last line unless `final`, and before a row that might not fit. Returns the lines
 * judged; `consumed()`, `written()`, `allowed()` and `disallowed()` tell the rest.
 * ROW_UNAVAILABLE / ROW_UNREACHABLE: the table stands in for a robots.txt that could not
 * be fetched (allow-all / disallow-all), so no line of a file decides: rows get line 0.
 */
export function formatLines(table: usize, index: usize, input: usize, len: u32, final: u32, out: usize, outCap: u32, options: u32, scratch: usize): u32 {
  forgetOrigin();
  const flags = <u32>load<u16>(table, H_FLAGS);
  const fixed = (options & (ROW_UNAVAILABLE | ROW_UNREACHABLE)) != 0;
  const outcome = (options & ROW_OUTCOME) == 0
    ? OUTCOME_NONE
    : (options & ROW_UNREACHABLE) != 0 ? OUTCOME_UNREACHABLE : (options & ROW_UNAVAILABLE) != 0 ? OUTCOME_UNAVAILABLE : OUTCOME_OK;
  allowedCount = 0;
  disallowedCount = 0;
  if (queues(table, index)) return formatQueued(table, index, flags, input, len, final, out, outCap, options, scratch, fixed, outcome);
  let start: u32 = 0;
  let n: u32 = 0;
  let o = out;
  while (start < len) {
    const judged = judgeLine(table, index, flags, input, start, len, final, scratch);
    // Judging has no effect beyond decidedLine, so a row that does not fit is just left for the next call.
    if (judged == NOT_YET || rowBound(lineLength, 0) > outCap - <u32>(o - out)) break;
    o = countRow(o, options, fixed, judged != 0, decidedLine, 0, 0, input + start, lineLength, outcome);
    n++;
    start = lineEndAt + 1;
  }
  consumedBytes = start < len ? start : len;
  writtenBytes = <u32>(o - out);
  return n;
}

// A round of formatQueued: each line's start and length, then its verdict and deciding line (the queue's out and linesOut).
const ROUND_STARTS: usize = memory.data(4 * QUEUE_CAP, 16);
const ROUND_LENGTHS: usize = memory.data(4 * QUEUE_CAP, 16);
const ROUND_VERDICTS: usize = memory.data(QUEUE_CAP, 16);
const ROUND_LINES: usize = memory.data(4 * QUEUE_CAP, 16);

/**
 * Counts a row's verdict (allowedCount, disallowedCount) and writes the row at `o` when
 * `options` want it (a host column from `host`, `hostLen` with ROW_HOST); returns the end
 * of what was written. A `fixed` table is Robots.allowAll() / disallowAll(): its verdicts
 * stand, its lines do not.
 */
@inline function countRow(o: usize, options: u32, fixed: bool, verdict: bool, line: u32, host: usize, hostLen: u32, url: usize, urlLen: u32, outcome: u32): usize {
  if (verdict) allowedCount++;
  else disallowedCount++;
  return rowWanted(options, verdict) ? putRow(o, options, verdict, fixed ? 0 : line, host, hostLen, url, urlLen, outcome) : o;
}

/**
 * formatLines for a table whose paths the batch loops queue for the DFA (match.ts
 * `queues`): lines are judged in rounds of up to QUEUE_CAP, their paths queued as
 * matchLines queues them, and each round's rows written once its verdicts are in. A round
 * takes a line only while the rows' bounds (rowBound) fit what is left of `out`, so every
 * row of a round is written; a line without its '\n' (and not final) ends the call, as in
 * formatLines. At most ⌈lines / QUEUE_CAP⌉ rounds, each line prepared once and written once.
 */
function formatQueued(table: usize, index: usize, flags: u32, input: usize, len: u32, final: u32, out: usize, outCap: u32, options: u32, scratch: usize, fixed: bool, outcome: u32): u32 {
  let start: u32 = 0;
  let n: u32 = 0;
  let o = out;
  let reserved: u64 = 0;
  let more = true;
  // Invariant: the lines before `start` have their rows written (or left unwanted), and
  // `reserved` bounds the bytes of those rows and of the current round's.
  while (more && start < len) {
    let k: u32 = 0;
    while (k < QUEUE_CAP && start < len) {
      if (!prepareLineAt(flags, input, start, len, final, scratch)) { more = false; break; }
      const bound = <u64>rowBound(lineLength, 0);
      if (reserved + bound > <u64>outCap) { more = false; break; }
      reserved += bound;
      store<u32>(ROUND_STARTS + (<usize>k << 2), start);
      store<u32>(ROUND_LENGTHS + (<usize>k << 2), lineLength);
      judgeOrQueue(table, index, flags, input, input + len, k, ROUND_VERDICTS, ROUND_LINES);
      k++;
      start = lineEndAt + 1;
    }
    decideQueued(table, index, ROUND_VERDICTS, ROUND_LINES);
    for (let j: u32 = 0; j < k; j++) {
      const at = <usize>j << 2;
      o = countRow(o, options, fixed, load<u8>(ROUND_VERDICTS + j) != 0, load<u32>(ROUND_LINES + at), 0, 0, input + load<u32>(ROUND_STARTS + at), load<u32>(ROUND_LENGTHS + at), outcome);
      n++;
    }
  }
  consumedBytes = start < len ? start : len;
  writtenBytes = <u32>(o - out);
  return n;
}

/**
 * `classify`, step 1: splits input[0, len) into lines and writes one span record per
 * line (at most `maxCount`), with the line's host, its hash and the id the HostIndex at
 * `hosts` (hostMask + 1 slots; 0 = none) has for it. Stops before an unterminated last
 * line unless `final`. Returns the records written; `consumed()` the bytes they cover.
 */
export function scanHosts(input: usize, len: u32, final: u32, spans: usize, maxCount: u32, hosts: usize, hostMask: u32): u32 {
  let start: u32 = 0;
  let n: u32 = 0;
  while (start < len && n < maxCount) {
    const nl = findNewline(input, start, len);
    if (nl == len && final == 0) break;
    const end = lineEnd(input, start, nl);
    findHost(input + start, end - start);
    const rec = spans + <usize>n * SPAN_SIZE;
    store<u32>(rec, start, SP_LINE_START);
    store<u32>(rec, end - start, SP_LINE_LENGTH);
    store<u32>(rec, start + hostStart, SP_HOST_START);
    store<u32>(rec, hostLen, SP_HOST_LENGTH);
    const hash = hostHash(input + start + hostStart, hostLen);
    store<u32>(rec, hash, SP_HOST_HASH);
    store<u64>(rec, 0, SP_HOST_HASH + 4); // the two reserved words
    store<u32>(rec, hosts == 0 ? 0 : lookupHost(hosts, hostMask, input + start + hostStart, hostLen, hash), SP_HOST_ID);
    n++;
    start = nl + 1;
  }
  consumedBytes = start < len ? start : len;
  return n;
}


/**
 * `classify`, step 2: judges span records [first, count) and writes rows with a host
 * column. Line i uses table number ids[i] (i32; a TABLE_* code when negative), whose
 * table and RuleIndex addresses are the u32 pair slots[2 × id]. A line without a table
 * gets line 0 and the verdict of its code: TABLE_NONE is RFC 9309 §2.3.1.3 "unavailable",
 * allowed, unless ROW_MISSING_DISALLOW. `options` bits 16-31 hold the profile's table flags
 * (TABLE_UNREACHABLE lines apply its /robots.txt rule). With ROW_OUTCOME, JSONL rows say which (a table:
 * "ok"). Stops before a row that might not fit; returns the spans judged.
 */
export function formatSpans(input: usize, spans: usize, first: u32, count: u32, ids: usize, slots: usize, out: usize, outCap: u32, options: u32, scratch: usize): u32 {
  forgetOrigin();
  let o = out;
  let i = first;
  allowedCount = 0;
  disallowedCount = 0;
  while (i < count) {
    const id = load<i32>(ids + (<usize>i << 2));
    let table: usize = 0;
    let index: usize = 0;
    if (id >= 0) {
      const slot = slots + <usize>id * TABLE_SLOT_SIZE;
      table = <usize>load<u32>(slot, TS_TABLE_AT);
      index = <usize>load<u32>(slot, TS_INDEX_AT);
      if (i + 1 < count && load<i32>(ids + (<usize>(i + 1) << 2)) == id && queues(table, index)) {
        // A run of lines of this table (a host's lines often come together): queued for
        // its DFA, as check rows are (formatQueued). A line alone takes the path below.
        const k = formatSpanRound(input, spans, i, count, ids, id, table, index, o, outCap - <u32>(o - out), options, scratch);
        if (k == 0) break;
        o = roundEnd;
        i += k;
        continue;
      }
    }
    const rec = spans + <usize>i * SPAN_SIZE;
    const url = input + load<u32>(rec, SP_LINE_START);
    const urlLen = load<u32>(rec, SP_LINE_LENGTH);
    const hostLength = load<u32>(rec, SP_HOST_LENGTH);
    if (rowBound(urlLen, hostLength) > outCap - <u32>(o - out)) break;
    let verdict: bool;
    let outcome = OUTCOME_OK;
    if (id < 0) {
      verdict = codeVerdict(id, options, url, urlLen, scratch);
      outcome = codeOutcome(id);
    } else {
      verdict = judge(table, index, <u32>load<u16>(table, H_FLAGS), url, urlLen, scratch) != 0;
    }
    if ((options & ROW_OUTCOME) == 0) outcome = OUTCOME_NONE;
    o = countRow(o, options, false, verdict, decidedLine, input + load<u32>(rec, SP_HOST_START), hostLength, url, urlLen, outcome);
    i++;
  }
  writtenBytes = <u32>(o - out);
  return i - first;
}

/** Where the rows of the last formatSpanRound end. */
let roundEnd: usize = 0;

/**
 * formatSpans for the run of span records from `i` (below `count`) whose table id is
 * `id`, a table the batch loops queue for the DFA (match.ts `queues`): at most QUEUE_CAP
 * of them, and only while their rows' bounds fit `room` bytes, their paths queued, then
 * their rows written from `o` (roundEnd: where they end) once the verdicts are in.
 * Returns the lines judged, 0 when the first row might not fit. Each line is prepared
 * once and written once.
 */
function formatSpanRound(input: usize, spans: usize, i: u32, count: u32, ids: usize, id: i32, table: usize, index: usize, o: usize, room: u32, options: u32, scratch: usize): u32 {
  const flags = <u32>load<u16>(table, H_FLAGS);
  let reserved: u64 = 0;
  let k: u32 = 0;
  // Invariant: spans [i, i + k) are queued or judged into ROUND_*, their rows' bounds
  // summed in `reserved` ≤ room.
  while (k < QUEUE_CAP && i + k < count && load<i32>(ids + (<usize>(i + k) << 2)) == id) {
    const rec = spans + <usize>(i + k) * SPAN_SIZE;
    const urlLen = load<u32>(rec, SP_LINE_LENGTH);
    const bound = <u64>rowBound(urlLen, load<u32>(rec, SP_HOST_LENGTH));
    if (reserved + bound > <u64>room) break;
    reserved += bound;
    const url = input + load<u32>(rec, SP_LINE_START);
    preparePath(url, urlLen, scratch, flags);
    judgeOrQueue(table, index, flags, url, url + urlLen, k, ROUND_VERDICTS, ROUND_LINES);
    k++;
  }
  decideQueued(table, index, ROUND_VERDICTS, ROUND_LINES);
  const outcome = (options & ROW_OUTCOME) == 0 ? OUTCOME_NONE : OUTCOME_OK;
  for (let j: u32 = 0; j < k; j++) {
    const rec = spans + <usize>(i + j) * SPAN_SIZE;
    o = countRow(
      o, options, false, load<u8>(ROUND_VERDICTS + j) != 0, load<u32>(ROUND_LINES + (<usize>j << 2)), input + load<u32>(rec, SP_HOST_START), load<u32>(rec, SP_HOST_LENGTH),
      input + load<u32>(rec, SP_LINE_START), load<u32>(rec, SP_LINE_LENGTH), outcome,
    );
  }
  roundEnd = o;
  return k;
}

/**
 * The verdict of a line whose table id is a TABLE_* code (no table): TABLE_NONE is RFC
 * 9309 §2.3.1.3 "unavailable", allowed unless ROW_MISSING_DISALLOW; TABLE_UNAVAILABLE
 * allowed; TABLE_UNREACHABLE disallowed (§2.3.1.4), /robots.txt itself as the profile
 * says (§2.2.2, Robots.disallowAll()), the profile's table flags read from `options`
 * bits 16-31. Sets decidedLine to 0: no line of a file decides. May prepare the URL.
 */
function codeVerdict(id: i32, options: u32, url: usize, urlLen: u32, scratch: usize): bool {
  decidedLine = 0;
  if (id == TABLE_UNREACHABLE) {
    const standIn = options >>> 16;
    if ((standIn & FLAG_IMPLICIT_ROBOTS_TXT) == 0) return false;
    preparePath(url, urlLen, scratch, standIn);
    preparedFlags = standIn & PREPARE_FLAGS;
    return isRobotsTxtPath(pathPtr, pathLen);
  }
  if (id == TABLE_UNAVAILABLE) return true;
  return (options & ROW_MISSING_DISALLOW) == 0;
}

/** The OUTCOME_* of a TABLE_* code. */
@inline function codeOutcome(id: i32): u32 {
  return id == TABLE_UNREACHABLE ? OUTCOME_UNREACHABLE : id == TABLE_UNAVAILABLE ? OUTCOME_UNAVAILABLE : OUTCOME_NO_ORIGIN;
}

/**
 * `check`/`classify --agents` (MULTI rows, src/table/abi.ts): judges span records
 * [first, count) for every agent and writes one row per line, a verdict column per
 * agent. Line i reads group ids[i]: `width` GROUP_ENTRY records at groups, each a
 * TABLE_SLOT number (table and RuleIndex at slots) or a TABLE_* code, or the column
 * whose verdict it copies (agents sharing a table are judged once). Each URL is prepared
 * once per table flags. Lines whose group's first entry is a code get that code's outcome
 * (ROW_OUTCOME); ROW_UNAVAILABLE / ROW_UNREACHABLE give every line line 0 and that outcome.
 * Per-agent allowed counts go to the COLUMN records at `columns`; `allowed()` counts the
 * lines every agent may fetch. Stops before a row that might not fit; returns the spans judged.
 */
export function formatSpansMulti(
  input: usize, spans: usize, first: u32, count: u32, ids: usize, groups: usize, width: u32, columns: usize, slots: usize,
  out: usize, outCap: u32, options: u32, scratch: usize,
): u32 {
  forgetOrigin();
  const fixed = (options & (ROW_UNAVAILABLE | ROW_UNREACHABLE)) != 0;
  const fixedOutcome = (options & ROW_UNREACHABLE) != 0 ? OUTCOME_UNREACHABLE : OUTCOME_UNAVAILABLE;
  let columnBytes: u32 = 0;
  for (let j: u32 = 0; j < width; j++) {
    const column = columns + <usize>j * COLUMN_SIZE;
    columnBytes += load<u32>(column, CL_KEY_LENGTH) + ROW_COLUMN_BYTES;
    store<u32>(column, 0, CL_ALLOWED);
  }
  let o = out;
  let i = first;
  allowedCount = 0;
  disallowedCount = 0;
  for (; i < count; i++) {
    const rec = spans + <usize>i * SPAN_SIZE;
    const url = input + load<u32>(rec, SP_LINE_START);
    const urlLen = load<u32>(rec, SP_LINE_LENGTH);
    const host = input + load<u32>(rec, SP_HOST_START);
    const hostLength = load<u32>(rec, SP_HOST_LENGTH);
    if (rowBound(urlLen, hostLength) + columnBytes > outCap - <u32>(o - out)) break;
    const group = groups + <usize>load<i32>(ids + (<usize>i << 2)) * width * GROUP_ENTRY_SIZE;
    // No preparation flags are 0xffffffff: the first table prepares the URL.
    preparedFlags = 0xffffffff;
    let all = true;
    o = putMultiStart(o, options, host, hostLength, url, urlLen);
    for (let j: u32 = 0; j < width; j++) {
      const entry = group + <usize>j * GROUP_ENTRY_SIZE;
      const column = columns + <usize>j * COLUMN_SIZE;
      const same = load<u32>(entry, GE_SAME_AS);
      let result: u32;
      if (same != j) {
        result = load<u32>(columns + <usize>same * COLUMN_SIZE, CL_RESULT);
      } else {
        const id = load<i32>(entry, GE_SLOT);
        const verdict = id < 0 ? codeVerdict(id, options, url, urlLen, scratch) : judgeSlot(slots, <u32>id, url, urlLen, scratch) != 0;
        result = (fixed ? 0 : decidedLine & 0x7fffffff) | (verdict ? 0x80000000 : 0);
      }
      store<u32>(column, result, CL_RESULT);
      const verdict = (result >>> 31) != 0;
      if (verdict) store<u32>(column, load<u32>(column, CL_ALLOWED) + 1, CL_ALLOWED);
      else all = false;
      o = putColumn(o, options, <usize>load<u32>(column, CL_KEY_AT), load<u32>(column, CL_KEY_LENGTH), verdict, result & 0x7fffffff);
    }
    if (all) allowedCount++;
    else disallowedCount++;
    let outcome = OUTCOME_NONE;
    if ((options & ROW_OUTCOME) != 0) {
      const id0 = load<i32>(group, GE_SLOT);
      outcome = fixed ? fixedOutcome : id0 < 0 ? codeOutcome(id0) : OUTCOME_OK;
    }
    o = putMultiEnd(o, options, host, hostLength, url, urlLen, outcome);
  }
  writtenBytes = <u32>(o - out);
  return i - first;
}

/** Prepares one URL as the table's flags say; the result is at `preparedPtr()`. */
export function prepareUrl(flags: u32, url: usize, len: u32, scratch: usize): u32 {
  forgetOrigin();
  preparePath(url, len, scratch, flags);
  return pathLen;
}

export function preparedPtr(): usize {
  return pathPtr;
}

/** Ids of every wildcard rule matching the URL, written as u32 to `out`; returns the count. */
export function collectMatches(table: usize, url: usize, len: u32, out: usize, scratch: usize): u32 {
  forgetOrigin();
  preparePath(url, len, scratch, <u32>load<u16>(table, H_FLAGS));
  return collect(table, pathPtr, pathLen, out);
}
