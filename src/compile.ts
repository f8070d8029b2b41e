// Compiles the rules that apply to one crawler into a RuleTable, as the profile says.
import type { Profile } from './parse.js';
import type { RuleRecord } from './groups.js';
import { normalizePattern, RFC_PATTERN_BYTE, writeNormalizedRfc } from './normalize.js';
import { acquireRuleBuffer, encodeRuleBuffer, encodeRuleTable, releaseRuleBuffer, type RuleBuffer, type TableRule } from './table/encode.js';
import { expectBytes } from './errors.js';
import { FLAG_IMPLICIT_ROBOTS_TXT, FLAG_NORMALIZE_URL } from './table/format.js';

const SLASH = 0x2f;
const DOLLAR = 0x24;
const INDEX_HTM = new TextEncoder().encode('/index.htm');

/** Table flags for a profile: RFC normalizes URLs and allows /robots.txt; Google does neither. */
export function profileFlags(profile: Profile): number {
  return profile === 'rfc' ? FLAG_NORMALIZE_URL | FLAG_IMPLICIT_ROBOTS_TXT : 0;
}

function startsWithAt(bytes: Uint8Array, at: number, prefix: Uint8Array): boolean {
  if (bytes.length - at < prefix.length) return false;
  for (let k = 0; k < prefix.length; k++) if (bytes[at + k] !== prefix[k]) return false;
  return true;
}

/**
 * Google-compat (robots.cc HandleAllow): an allow pattern whose last segment starts with
 * `/index.htm` also allows the directory itself, as `<dir>/$`.
 */
function googleIndexAllowance(pattern: Uint8Array): Uint8Array | null {
  const slash = pattern.lastIndexOf(SLASH);
  if (slash < 0 || !startsWithAt(pattern, slash, INDEX_HTM)) return null;
  const derived = new Uint8Array(slash + 2);
  derived.set(pattern.subarray(0, slash + 1));
  derived[slash + 1] = DOLLAR;
  return derived;
}

/** Normalized rules of `records` (file order) ready for the encoder. */
export function tableRules(records: readonly RuleRecord[], profile: Profile): TableRule[] {
  const out: TableRule[] = [];
  for (const r of records) {
    const pattern = normalizePattern(r.pattern, profile);
    if (profile === 'rfc') {
      // RFC 9309 §2.2.2: an empty pattern is no rule; it matches nothing.
      if (pattern.length === 0) continue;
      // Most patterns need no normalization: the record itself is a valid TableRule.
      out.push(pattern === r.pattern ? r : { allow: r.allow, pattern, line: r.line });
      continue;
    }
    // Google-compat: an empty pattern matches with priority 0; it never disallows
    // but robots.cc still reports its line.
    out.push(pattern === r.pattern ? r : { allow: r.allow, pattern, line: r.line });
    if (r.allow) {
      const derived = googleIndexAllowance(pattern);
      if (derived) out.push({ allow: true, pattern: derived, line: r.line });
    }
  }
  return out;
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
  if (profile !== 'rfc') return encodeRuleTable(tableRules(records, profile), { flags: profileFlags(profile) });
  const out = acquireRuleBuffer();
  try {
    fillRfc(records, out);
    return encodeRuleBuffer(out, { flags: profileFlags('rfc') });
  } finally {
    releaseRuleBuffer(out);
  }
}

/**
 * The rfc profile's tableRules, fused with the encoder's copy of each pattern: one scan
 * per pattern copies it into `out` and decides whether it needs normalization (most do not).
 */
function fillRfc(records: readonly RuleRecord[], out: RuleBuffer): void {
  for (let k = 0; k < records.length; k++) {
    const r = records[k]!;
    const p = r.pattern;
    // expectBytes reads byteLength (a getter V8 does not inline) for its detached-buffer
    // test, which only an empty view can fail: cheap instanceof first, the rest when empty.
    if (!(p instanceof Uint8Array)) expectBytes(p, 'pattern');
    const n = p.length;
    if (n === 0) {
      expectBytes(p, 'pattern');
      // RFC 9309 §2.2.2: an empty pattern is no rule; it matches nothing.
      continue;
    }
    out.reserve(1, n);
    const bytes = out.bytes;
    const at = out.size;
    // OR of the byte classes, no branch per byte: a final `$` (the end anchor) is the
    // only byte of class 1 or 4 that normalizePatternRfc keeps.
    let classes = 0;
    const last = n - 1;
    let i = 0;
    // Four bytes per turn: a quarter of the loop overhead, for the bulk of the bytes.
    for (; i + 4 <= last; i += 4) {
      const c0 = p[i]!;
      const c1 = p[i + 1]!;
      const c2 = p[i + 2]!;
      const c3 = p[i + 3]!;
      bytes[at + i] = c0;
      bytes[at + i + 1] = c1;
      bytes[at + i + 2] = c2;
      bytes[at + i + 3] = c3;
      classes |= RFC_CLASS[c0]! | RFC_CLASS[c1]! | RFC_CLASS[c2]! | RFC_CLASS[c3]!;
    }
    for (; i < last; i++) {
      const c = p[i]!;
      bytes[at + i] = c;
      classes |= RFC_CLASS[c]!;
    }
    const end = p[last]!;
    bytes[at + last] = end;
    if (end !== DOLLAR) classes |= RFC_CLASS[end]!;
    if ((classes & (CLASS_REWRITE | CLASS_DOLLAR)) === 0) {
      let star = -1;
      if ((classes & CLASS_STAR) !== 0) for (let j = 0; star < 0; j++) if (bytes[at + j] === STAR) star = j;
      out.commit(n, star, r.allow, r.line, out.count);
      continue;
    }
    // Normalized in place of the copy (at most 3 bytes per byte).
    out.reserve(1, 3 * n);
    const normalized = out.bytes;
    const stop = writeNormalizedRfc(p, normalized, at);
    let star = -1;
    for (let j = at; j < stop; j++) {
      if (normalized[j] === STAR) {
        star = j - at;
        break;
      }
    }
    out.commit(stop - at, star, r.allow, r.line, out.count);
  }
}
