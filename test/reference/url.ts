// Reference URL and pattern handling: robots.cc GetPathParamsQuery/MaybeEscapePattern and RFC 9309 §2.2.2 normalization.

const SLASH = 0x2f;
const PERCENT = 0x25;
const HEX_DIGITS = '0123456789ABCDEF';

function indexOfAny(bytes: Uint8Array, set: readonly number[], from: number): number {
  for (let i = from; i < bytes.length; i++) if (set.includes(bytes[i]!)) return i;
  return -1;
}

function indexOfSequence(bytes: Uint8Array, seq: readonly number[], from: number): number {
  outer: for (let i = from; i + seq.length <= bytes.length; i++) {
    for (let k = 0; k < seq.length; k++) if (bytes[i + k] !== seq[k]) continue outer;
    return i;
  }
  return -1;
}

/**
 * robots.cc GetPathParamsQuery: drops scheme, authority and fragment; the result always
 * starts with `/` and is `/` when the URL has no path.
 * @example referencePathParamsQuery(utf8('https://h/a?q#f')) // '/a?q'
 */
export function referencePathParamsQuery(url: Uint8Array): Uint8Array {
  const PATH_START = [0x2f, 0x3f, 0x3b]; // '/', '?', ';'
  const searchStart = url.length >= 2 && url[0] === SLASH && url[1] === SLASH ? 2 : 0;
  const earlyPath = indexOfAny(url, PATH_START, searchStart);
  let protocolEnd = indexOfSequence(url, [0x3a, 0x2f, 0x2f], searchStart);
  // "://" after the first '/', '?' or ';' is part of the path, not a scheme separator.
  if (earlyPath >= 0 && (protocolEnd < 0 || earlyPath < protocolEnd)) protocolEnd = -1;
  protocolEnd = protocolEnd < 0 ? searchStart : protocolEnd + 3;
  const pathStart = indexOfAny(url, PATH_START, protocolEnd);
  if (pathStart < 0) return Uint8Array.of(SLASH);
  const hash = url.indexOf(0x23, searchStart);
  if (hash >= 0 && hash < pathStart) return Uint8Array.of(SLASH);
  const pathEnd = hash < 0 ? url.length : hash;
  const piece = url.slice(pathStart, pathEnd);
  if (url[pathStart] === SLASH) return piece;
  return Uint8Array.from([SLASH, ...piece]);
}

/**
 * The path robots.cc's matcher compares: GetPathParamsQuery, then read as a C string
 * (RobotsMatcher keeps `path.c_str()`), so a NUL byte ends it.
 * @example referenceGooglePath(utf8('/a\u0000b')) // '/a'
 */
export function referenceGooglePath(url: Uint8Array): Uint8Array {
  const path = referencePathParamsQuery(url);
  const nul = path.indexOf(0);
  return nul < 0 ? path : path.slice(0, nul);
}

function hexDigitValue(c: number | undefined): number {
  if (c === undefined) return -1;
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10;
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10;
  return -1;
}

function escapeOctet(out: number[], c: number): void {
  out.push(PERCENT, HEX_DIGITS.charCodeAt(c >> 4), HEX_DIGITS.charCodeAt(c & 15));
}

/**
 * robots.cc MaybeEscapePattern: uppercase the hex of `%XX`, percent-encode octets ≥ 0x80.
 * @example referenceEscapeGoogle(utf8('/ä%2f')) // '/%C3%A4%2F'
 */
export function referenceEscapeGoogle(pattern: Uint8Array): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    const hi = hexDigitValue(pattern[i + 1]);
    const lo = hexDigitValue(pattern[i + 2]);
    if (c === PERCENT && hi >= 0 && lo >= 0) {
      out.push(PERCENT, HEX_DIGITS.charCodeAt(hi), HEX_DIGITS.charCodeAt(lo));
      i += 2;
    } else if (c >= 0x80) {
      escapeOctet(out, c);
    } else {
      out.push(c);
    }
  }
  return Uint8Array.from(out);
}

/** RFC 3986 §2.3: ALPHA / DIGIT / "-" / "." / "_" / "~". */
function isUnreservedOctet(c: number): boolean {
  const alpha = (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
  const digit = c >= 0x30 && c <= 0x39;
  return alpha || digit || c === 0x2d || c === 0x2e || c === 0x5f || c === 0x7e;
}

/**
 * RFC 9309 §2.2.2/§2.2.3 normalization shared by patterns and URL paths:
 * `%XX` of an unreserved character is decoded, any other valid `%XX` has its hex
 * uppercased, a `%` without two hex digits becomes `%25`, octets ≥ 0x80 and octets
 * outside URIs (controls, space, DEL, `"<>\\^`{|}`) are encoded. `$` is
 * encoded except a pattern's final one (the anchor); a URL's `*` is encoded so that
 * only a rule's `%2A` matches it, a pattern's `*` stays the wildcard.
 */
function normalizeRfc(bytes: Uint8Array, side: 'pattern' | 'url'): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]!;
    const hi = hexDigitValue(bytes[i + 1]);
    const lo = hexDigitValue(bytes[i + 2]);
    if (c === PERCENT && hi >= 0 && lo >= 0) {
      const v = hi * 16 + lo;
      if (isUnreservedOctet(v)) out.push(v);
      else escapeOctet(out, v);
      i += 2;
      continue;
    }
    const finalAnchor = side === 'pattern' && c === 0x24 && i === bytes.length - 1;
    // Octets RFC 3986 never allows in a URI, and a '%' that starts no escape, are encoded.
    const outsideUri = c <= 0x20 || c === 0x7f || '"<>\\^`{|}%'.includes(String.fromCharCode(c));
    if (c >= 0x80 || outsideUri || (c === 0x24 && !finalAnchor) || (c === 0x2a && side === 'url')) escapeOctet(out, c);
    else out.push(c);
  }
  return Uint8Array.from(out);
}

/** @example referenceNormalizePatternRfc(utf8('/%7Ea$b$')) // '/~a%24b$' */
export function referenceNormalizePatternRfc(pattern: Uint8Array): Uint8Array {
  return normalizeRfc(pattern, 'pattern');
}

/** @example referenceNormalizePathRfc(utf8('/a*b$')) // '/a%2Ab%24' */
export function referenceNormalizePathRfc(path: Uint8Array): Uint8Array {
  return normalizeRfc(path, 'url');
}
