// Compiles the rules that apply to one crawler into a RuleTable, as the profile says: the one place that compiles.
import type { Profile } from '../parse/lexer.js';
import type { RuleRecord } from '../parse/groups.js';
import type { RuleOffsets } from '../parse/rule-offsets.js';
import { RFC_PATTERN_BYTE, writeEscapedGoogle, writeNormalizedRfc } from './normalize.js';
import { acquireRuleBuffer, releaseRuleBuffer, type RuleBuffer } from '../table/rule-buffer.js';
import { encodeRuleBuffer } from '../table/encode.js';
import { wrapCompiledTable, type AgentMatcher } from '../matcher.js';
import { expectBytes, expectProfile } from '../errors.js';
import { FLAG_IMPLICIT_ROBOTS_TXT, FLAG_NORMALIZE_URL } from '../table/format.js';

const SLASH = 0x2f;
const DOLLAR = 0x24;
const INDEX_HTM = new TextEncoder().encode('/index.htm');

/** Table flags for a profile: RFC normalizes URLs and allows /robots.txt; Google does neither. */
export function profileFlags(profile: Profile): number {
  return profile === 'rfc' ? FLAG_NORMALIZE_URL | FLAG_IMPLICIT_ROBOTS_TXT : 0;
}

const CLASS_REWRITE = 1;
const CLASS_STAR = 2;
const CLASS_DOLLAR = 4;
/** RFC_PATTERN_BYTE with `$` told apart from the other rewritten bytes. */
const RFC_CLASS = RFC_PATTERN_BYTE.map((kind, c) => (c === DOLLAR ? CLASS_DOLLAR : kind === 2 ? CLASS_STAR : kind === 1 ? CLASS_REWRITE : 0));
const STAR = 0x2a;

/**
 * The RuleTable for `records` under `profile`.
 * @example compileRules([{ allow: false, pattern: utf8('/private'), line: 2 }], 'rfc')
 */
export function compileRules(records: readonly RuleRecord[], profile: Profile): Uint8Array {
  expectProfile(profile, 'profile');
  const out = acquireRuleBuffer();
  try {
    if (profile === 'rfc') fillRfc(records, out);
    else fillGoogle(records, out);
    return encodeRuleBuffer(out, { flags: profileFlags(profile) });
  } finally {
    releaseRuleBuffer(out);
  }
}

/** Google byte classes: 1 = escapePatternGoogle rewrites from here (≥ 0x80, `%`), 2 = `*`. */
const GOOGLE_CLASS = Uint8Array.from({ length: 256 }, (_, c) => (c >= 0x80 || c === 0x25 ? 1 : c === STAR ? 2 : 0));

/** Whether bytes[at, end) starts with `/index.htm`. */
function indexHtmAt(bytes: Uint8Array, at: number, end: number): boolean {
  if (end - at < INDEX_HTM.length) return false;
  for (let k = 0; k < INDEX_HTM.length; k++) if (bytes[at + k] !== INDEX_HTM[k]) return false;
  return true;
}

/**
 * Appends the google profile's rules for `records` (file order) to `out`: each pattern
 * escaped as escapePatternGoogle does, in the same scan that copies it (most need no
 * escaping), plus the index allowance below.
 */
function fillGoogle(records: readonly RuleRecord[], out: RuleBuffer): void {
  for (let k = 0; k < records.length; k++) {
    const r = records[k]!;
    const p = r.pattern;
    // As in fillRfc: expectBytes in full only where it can fail past instanceof.
    if (!(p instanceof Uint8Array) || p.length === 0) expectBytes(p, 'pattern');
    pushGoogle(p, 0, p.length, r.allow, r.line, out);
  }
}

/** Appends the google profile's rule(s) for the pattern src[from, from + n) (see fillGoogle). */
function pushGoogle(src: Uint8Array, from: number, n: number, allow: boolean, line: number, out: RuleBuffer): void {
  // Room for the escaped pattern (3 bytes per byte at most) and a derived `<dir>/$`.
  const bytes = out.openPattern(6 * n + 8, 2);
  const at = out.patternAt;
  let classes = 0;
  for (let i = 0; i < n; i++) {
    const c = src[from + i]!;
    bytes[at + i] = c;
    classes |= GOOGLE_CLASS[c]!;
  }
  const length = (classes & 1) === 0 ? n : writeEscapedGoogle(viewOf(src, from, n), bytes, at) - at;
  let star = -1;
  if ((classes & 2) !== 0) {
    for (let j = 0; j < length; j++) {
      if (bytes[at + j] === STAR) {
        star = j;
        break;
      }
    }
  }
  // Google-compat: an empty pattern matches with priority 0; it never disallows
  // but robots.cc still reports its line.
  out.closePattern(length, star, allow, line);
  if (!allow) return;
  // Google-compat (robots.cc HandleAllow): an allow pattern whose last segment starts
  // with `/index.htm` also allows the directory itself, as `<dir>/$` (a rule of its own,
  // same line).
  let slash = at + length - 1;
  while (slash >= at && bytes[slash] !== SLASH) slash--;
  if (slash < at || !indexHtmAt(bytes, slash, at + length)) return;
  const keep = slash + 1 - at;
  // (Room was opened for both rules above: the array is still the one written.)
  const derived = out.patternAt;
  bytes.copyWithin(derived, at, at + keep);
  bytes[derived + keep] = DOLLAR;
  out.closePattern(keep + 1, star < keep ? star : -1, true, line);
}

/** src[from, from + n) as an array of its own length: src itself when it is exactly that. */
function viewOf(src: Uint8Array, from: number, n: number): Uint8Array {
  return from === 0 && n === src.length ? src : src.subarray(from, from + n);
}

/**
 * Appends the rfc profile's rules for `records` (file order) to `out`: each pattern
 * normalized as normalizePatternRfc does, in the same scan that copies it (most need no
 * normalization); empty patterns dropped.
 */
function fillRfc(records: readonly RuleRecord[], out: RuleBuffer): void {
  for (let k = 0; k < records.length; k++) {
    const r = records[k]!;
    const p = r.pattern;
    // expectBytes reads byteLength (a getter V8 does not inline) for its detached-buffer
    // test, which only an empty view can fail: cheap instanceof first, the rest when empty.
    if (!(p instanceof Uint8Array)) expectBytes(p, 'pattern');
    if (p.length === 0) {
      expectBytes(p, 'pattern');
      // RFC 9309 §2.2.2: an empty pattern is no rule; it matches nothing.
      continue;
    }
    pushRfc(p, 0, p.length, r.allow, r.line, out);
  }
}

/**
 * Appends the rfc profile's rule for the pattern src[from, from + n), n > 0 (an empty
 * pattern is no rule, RFC 9309 §2.2.2: callers drop it).
 */
function pushRfc(src: Uint8Array, from: number, n: number, allow: boolean, line: number, out: RuleBuffer): void {
  const bytes = out.openPattern(n);
  const at = out.patternAt;
  // OR of the byte classes, no branch per byte: a final `$` (the end anchor) is the
  // only byte of class 1 or 4 that normalizePatternRfc keeps.
  let classes = 0;
  const last = n - 1;
  let i = 0;
  // Four bytes per turn: a quarter of the loop overhead, for the bulk of the bytes.
  for (; i + 4 <= last; i += 4) {
    const c0 = src[from + i]!;
    const c1 = src[from + i + 1]!;
    const c2 = src[from + i + 2]!;
    const c3 = src[from + i + 3]!;
    bytes[at + i] = c0;
    bytes[at + i + 1] = c1;
    bytes[at + i + 2] = c2;
    bytes[at + i + 3] = c3;
    classes |= RFC_CLASS[c0]! | RFC_CLASS[c1]! | RFC_CLASS[c2]! | RFC_CLASS[c3]!;
  }
  for (; i < last; i++) {
    const c = src[from + i]!;
    bytes[at + i] = c;
    classes |= RFC_CLASS[c]!;
  }
  const end = src[from + last]!;
  bytes[at + last] = end;
  if (end !== DOLLAR) classes |= RFC_CLASS[end]!;
  if ((classes & (CLASS_REWRITE | CLASS_DOLLAR)) === 0) {
    let star = -1;
    if ((classes & CLASS_STAR) !== 0) for (let j = 0; star < 0; j++) if (bytes[at + j] === STAR) star = j;
    out.closePattern(n, star, allow, line);
    return;
  }
  // Normalized in place of the copy (at most 3 bytes per byte).
  const normalized = out.openPattern(3 * n);
  const stop = writeNormalizedRfc(viewOf(src, from, n), normalized, at);
  let star = -1;
  for (let j = at; j < stop; j++) {
    if (normalized[j] === STAR) {
      star = j - at;
      break;
    }
  }
  out.closePattern(stop - at, star, allow, line);
}

/**
 * The RuleTable for the rules of `groups` (indexes into the parse's groups, file order)
 * under `profile`, read from the parsed body through `offsets`: compileRules without a
 * RuleRecord or a view per rule.
 */
function compileRuleOffsets(offsets: RuleOffsets, groups: readonly number[], profile: Profile): Uint8Array {
  expectProfile(profile, 'profile');
  const body = offsets.body;
  const out = acquireRuleBuffer();
  try {
    for (const g of groups) {
      for (let i = offsets.first(g), stop = offsets.stop(g); i < stop; i++) {
        const from = offsets.start(i);
        const n = offsets.end(i) - from;
        const line = offsets.signedLine(i);
        const allow = line > 0;
        if (profile === 'google') pushGoogle(body, from, n, allow, allow ? line : -line, out);
        // RFC 9309 §2.2.2: an empty pattern is no rule; it matches nothing.
        else if (n > 0) pushRfc(body, from, n, allow, allow ? line : -line, out);
      }
    }
    return encodeRuleBuffer(out, { flags: profileFlags(profile) });
  } finally {
    releaseRuleBuffer(out);
  }
}

/**
 * Compiles `rules` (the lines that apply to `userAgent`, in file order) into a RuleTable
 * and wraps it in an AgentMatcher without the constructor's validation and copy: the
 * table was encoded right here and nothing else holds it. Internal (used by
 * `Robots.forAgent`, not re-exported by src/index.ts).
 * @example
 * const m = compileAgentMatcher('ExampleBot', 'rfc', robots.rulesFor('ExampleBot'));
 * m.isAllowed('/private/x'); // false when a `disallow: /private` applies
 */
export function compileAgentMatcher(userAgent: string, profile: Profile, rules: readonly RuleRecord[]): AgentMatcher {
  return wrapCompiledTable(userAgent, profile, compileRules(rules, profile), rules);
}

/**
 * compileAgentMatcher for the rules of `groups` (indexes, file order) read through
 * `offsets`: the matcher makes the RuleRecords only if `ruleText` or `explain` asks.
 * Internal (used by `Robots.forAgent`).
 * @example compileOffsetsMatcher('ExampleBot', 'rfc', collector.ruleOffsets, [0]).isAllowed('/x')
 */
export function compileOffsetsMatcher(userAgent: string, profile: Profile, offsets: RuleOffsets, groups: readonly number[]): AgentMatcher {
  const table = compileRuleOffsets(offsets, groups, profile);
  return wrapCompiledTable(userAgent, profile, table, { count: offsets.countOf(groups), records: () => offsets.records(groups) });
}
