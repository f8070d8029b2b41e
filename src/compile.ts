// Compiles the rules that apply to one crawler into a RuleTable, as the profile says.
import type { Profile } from './parse.js';
import type { RuleRecord } from './groups.js';
import { normalizePattern, normalizePatternRfc, RFC_PATTERN_BYTE } from './normalize.js';
import { encodeRuleTable, encodeScannedRules, type TableRule } from './table/encode.js';
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

const STAR = 0x2a;

function indexOfStar(pattern: Uint8Array): number {
  for (let i = 0; i < pattern.length; i++) if (pattern[i] === STAR) return i;
  return -1;
}

/** Reused across calls (compileRules is synchronous and never re-entered). */
let starScratch = new Int32Array(256);

/**
 * The RuleTable for `records` under `profile`.
 * @example compileRules([{ allow: false, pattern: utf8('/private'), line: 2 }], 'rfc')
 */
export function compileRules(records: readonly RuleRecord[], profile: Profile): Uint8Array {
  if (profile !== 'rfc') return encodeRuleTable(tableRules(records, profile), { flags: profileFlags(profile) });
  // The rfc profile's tableRules, with one scan per pattern that both decides whether it
  // needs normalization (most do not) and finds its first `*` for the encoder.
  const out: TableRule[] = [];
  if (starScratch.length < records.length) starScratch = new Int32Array(Math.max(records.length, starScratch.length * 2));
  const stars = starScratch;
  for (const r of records) {
    const p = r.pattern;
    expectBytes(p, 'pattern');
    const n = p.length;
    // RFC 9309 §2.2.2: an empty pattern is no rule; it matches nothing.
    if (n === 0) continue;
    let star = -1;
    let plain = true;
    for (let i = 0; i < n; i++) {
      const kind = RFC_PATTERN_BYTE[p[i]!];
      if (kind === 0) continue;
      if (kind === 2) {
        if (star < 0) star = i;
      } else if (p[i] !== DOLLAR || i !== n - 1) {
        // normalizePatternRfc keeps a final `$` (the end anchor) and rewrites the rest.
        plain = false;
        break;
      }
    }
    if (plain) {
      stars[out.length] = star;
      out.push(r);
      continue;
    }
    const pattern = normalizePatternRfc(p);
    if (pattern.length === 0) continue;
    stars[out.length] = indexOfStar(pattern);
    out.push({ allow: r.allow, pattern, line: r.line });
  }
  return encodeScannedRules(out, stars, { flags: profileFlags('rfc') });
}
