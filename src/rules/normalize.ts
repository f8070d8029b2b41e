// Pattern normalization per profile (the URL side of the same rules lives in assembly/url.ts).
import type { Profile } from '../parse/lexer.js';
import { expectBytes, expectProfile } from '../errors.js';

const HEX = '0123456789ABCDEF';
const PERCENT = 0x25;
const STAR = 0x2a;
const DOLLAR = 0x24;

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const l = c | 0x20;
  if (l >= 0x61 && l <= 0x66) return l - 0x61 + 10;
  return -1;
}

/** RFC 3986 §2.3 unreserved: ALPHA / DIGIT / "-" / "." / "_" / "~". */
function isUnreserved(c: number): boolean {
  return (c | 0x20) - 0x61 < 26 && (c | 0x20) >= 0x61 || c - 0x30 < 10 && c >= 0x30 ||
    c === 0x2d || c === 0x2e || c === 0x5f || c === 0x7e;
}

/**
 * Octets RFC 3986 never allows in a URI: controls, space, DEL and `"<>\\^`{|}`. RFC 9309
 * §2.2.2 compares percent-encoded forms, so both sides encode them (`/my file` ≡ `/my%20file`).
 * Mirrored by isOutsideUri in assembly/url.ts.
 */
function isOutsideUri(c: number): boolean {
  return c <= 0x20 || c === 0x7f || c === 0x22 || c === 0x3c || c === 0x3e || c === 0x5c || c === 0x5e ||
    c === 0x60 || c === 0x7b || c === 0x7c || c === 0x7d;
}

/**
 * Byte classes of an RFC pattern: 1 = normalizePatternRfc may rewrite it (≥ 0x80, `%`,
 * `$`, octets outside URIs), 2 = `*` (kept: the wildcard), 0 = kept as is. Shared with
 * compile.ts, whose one scan per rule both checks a pattern and finds its wildcard.
 * @example RFC_PATTERN_BYTE[0x2a] // 2: `*`
 */
export const RFC_PATTERN_BYTE = new Uint8Array(256);
for (let c = 0; c < 256; c++) {
  RFC_PATTERN_BYTE[c] = c >= 0x80 || c === PERCENT || c === DOLLAR || isOutsideUri(c) ? 1 : c === STAR ? 2 : 0;
}

/**
 * Google-compat (robots.cc MaybeEscapePattern): uppercases the hex digits of valid
 * `%XX` escapes and percent-encodes bytes ≥ 0x80; nothing is decoded.
 */
export function escapePatternGoogle(pattern: Uint8Array): Uint8Array {
  expectBytes(pattern, 'pattern');
  let plain = true;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c >= 0x80 || c === PERCENT) {
      plain = false;
      break;
    }
  }
  if (plain) return pattern;
  const out = new Uint8Array(pattern.length * 3);
  return out.subarray(0, writeEscapedGoogle(pattern, out, 0));
}

/**
 * The rewriting half of escapePatternGoogle: writes the escaped `pattern` to out[at, …)
 * (room for 3 × pattern.length bytes needed) and returns where it ends. compile.ts
 * writes straight into the encoder's buffer with it.
 * @example writeEscapedGoogle(utf8('/a%2f'), out, 0) // 5: out holds '/a%2F'
 */
export function writeEscapedGoogle(pattern: Uint8Array, out: Uint8Array, at: number): number {
  const n = pattern.length;
  let o = at;
  for (let i = 0; i < n; i++) {
    const c = pattern[i]!;
    if (c === PERCENT && i + 2 < n && hexValue(pattern[i + 1]!) >= 0 && hexValue(pattern[i + 2]!) >= 0) {
      out[o++] = PERCENT;
      out[o++] = upperHexDigit(pattern[i + 1]!);
      out[o++] = upperHexDigit(pattern[i + 2]!);
      i += 2;
    } else if (c >= 0x80) {
      out[o++] = PERCENT;
      out[o++] = HEX.charCodeAt(c >> 4);
      out[o++] = HEX.charCodeAt(c & 15);
    } else {
      out[o++] = c;
    }
  }
  return o;
}

function upperHexDigit(c: number): number {
  return c >= 0x61 && c <= 0x66 ? c - 0x20 : c;
}

/**
 * RFC 9309 §2.2.2 and §2.2.3, applied to a rule's path pattern:
 * - octets ≥ 0x80 are percent-encoded;
 * - `%XX` naming an unreserved ASCII character is decoded (`%62%61%7A` → `baz`);
 * - other valid escapes are uppercased (`%2f` → `%2F`); a `%` not followed by two hex
 *   digits becomes `%25`, and octets a URI cannot hold (controls, space, DEL,
 *   `"<>\\^`{|}`) are percent-encoded, as RFC 3986 requires;
 * - `*` stays a wildcard and a final `$` stays the end anchor; a `$` elsewhere is a
 *   literal and becomes `%24`, which is also what the URL side turns `$` into, so that
 *   `%2A`/`%24` in a rule match a literal `*`/`$` in the URL (§2.2.3).
 * The URL side (assembly/url.ts) applies the same steps and additionally encodes `*`.
 */
export function normalizePatternRfc(pattern: Uint8Array): Uint8Array {
  expectBytes(pattern, 'pattern');
  const n = pattern.length;
  let plain = true;
  // One table load per byte: most patterns are plain and returned as they are.
  for (let i = 0; i < n - 1; i++) {
    if (RFC_PATTERN_BYTE[pattern[i]!] === 1) {
      plain = false;
      break;
    }
  }
  const last = n === 0 ? 0x2f : pattern[n - 1]!;
  if (plain && (RFC_PATTERN_BYTE[last] !== 1 || last === DOLLAR)) return pattern;
  const out = new Uint8Array(n * 3);
  return out.subarray(0, writeNormalizedRfc(pattern, out, 0));
}

/**
 * The rewriting half of normalizePatternRfc: writes the normalized `pattern` to
 * out[at, …) (room for 3 × pattern.length bytes needed) and returns where it ends.
 * compile.ts writes straight into the encoder's buffer with it, sparing an array per rule.
 * @example writeNormalizedRfc(utf8('/a%7e'), out, 0) // 3: out holds '/a~'
 */
export function writeNormalizedRfc(pattern: Uint8Array, out: Uint8Array, at: number): number {
  const n = pattern.length;
  let o = at;
  for (let i = 0; i < n; i++) {
    const c = pattern[i]!;
    let escape = -1;
    if (c === PERCENT && i + 2 < n && hexValue(pattern[i + 1]!) >= 0 && hexValue(pattern[i + 2]!) >= 0) {
      const v = hexValue(pattern[i + 1]!) * 16 + hexValue(pattern[i + 2]!);
      i += 2;
      if (isUnreserved(v)) out[o++] = v;
      else escape = v;
    } else if (c >= 0x80 || c === PERCENT || isOutsideUri(c)) {
      // A '%' that starts no escape is itself encoded (RFC 3986 §2.4).
      escape = c;
    } else if (c === DOLLAR && i !== n - 1) {
      escape = c;
    } else {
      out[o++] = c;
    }
    if (escape >= 0) {
      out[o++] = PERCENT;
      out[o++] = HEX.charCodeAt(escape >> 4);
      out[o++] = HEX.charCodeAt(escape & 15);
    }
  }
  return o;
}

/** Normalizes an allow/disallow value as the profile requires. */
export function normalizePattern(pattern: Uint8Array, profile: Profile): Uint8Array {
  expectProfile(profile, 'profile');
  return profile === 'google' ? escapePatternGoogle(pattern) : normalizePatternRfc(pattern);
}

/** Lowercases ASCII letters (ACAP §2.8 compares resource paths case-insensitively). */
export function lowerAsciiBytes(bytes: Uint8Array): Uint8Array {
  let i = 0;
  while (i < bytes.length && !(bytes[i]! >= 0x41 && bytes[i]! <= 0x5a)) i++;
  if (i === bytes.length) return bytes;
  const out = bytes.slice();
  for (; i < out.length; i++) if (out[i]! >= 0x41 && out[i]! <= 0x5a) out[i] = out[i]! | 0x20;
  return out;
}

export { STAR as STAR_BYTE, DOLLAR as DOLLAR_BYTE };
