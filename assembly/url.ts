// URL → the path+params+query the matcher compares, normalized as the table's flags say.
import { FLAG_CASE_INSENSITIVE, FLAG_NORMALIZE_URL } from './table';
import { equalBytes, findDelimiter, lanesBelow, findPathSpecial, SPECIAL_ESCAPES, SPECIAL_LINE, SPECIAL_NUL, SPECIAL_UPPER } from './scan';

/** Start and length of the prepared path (inside the input or the scratch buffer). */
export let pathPtr: usize = 0;
export let pathLen: u32 = 0;

const SLASH: usize = memory.data<u8>([0x2f]);
const HEX_UPPER: usize = memory.data<u8>([
  0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46,
]);
// Case-insensitive tables store patterns fully lowercased, escapes included.
const HEX_LOWER: usize = memory.data<u8>([
  0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x61, 0x62, 0x63, 0x64, 0x65, 0x66,
]);

@inline function hexValue(c: u32): i32 {
  if (c - 0x30 < 10) return <i32>(c - 0x30);
  const l = c | 0x20;
  if (l - 0x61 < 6) return <i32>(l - 0x61 + 10);
  return -1;
}

/** RFC 3986 §2.3 unreserved: ALPHA / DIGIT / "-" / "." / "_" / "~". */
@inline function isUnreserved(c: u32): bool {
  return ((c | 0x20) - 0x61 < 26) || (c - 0x30 < 10) || c == 0x2d || c == 0x2e || c == 0x5f || c == 0x7e;
}

/**
 * Octets RFC 3986 never allows in a URI: controls, space, DEL and `"<>\\^`{|}`. RFC 9309
 * §2.2.2 compares percent-encoded forms, so both sides encode them (`/my file` ≡ `/my%20file`).
 */
@inline function isOutsideUri(c: u32): bool {
  return c <= 0x20 || c == 0x7f || c == 0x22 || c == 0x3c || c == 0x3e || c == 0x5c || c == 0x5e ||
    c == 0x60 || c - 0x7b < 3;
}

@inline function storeEscape(out: usize, c: u32, hex: usize): void {
  store<u8>(out, 0x25);
  store<u8>(out, load<u8>(hex + (c >> 4)), 1);
  store<u8>(out, load<u8>(hex + (c & 15)), 2);
}

/**
 * The "scheme://authority" of a recent URL of the current call, up to the delimiter its
 * path starts at: URLs of one site repeat it, and comparing it is cheaper than searching.
 * originLength 0: none.
 */
let originAt: usize = 0;
let originLength: u32 = 0;

/** Every export that prepares URLs calls this first: the bytes at originAt may have changed. */
export function forgetOrigin(): void {
  originLength = 0;
}

/**
 * Where the path of the URL at [url, url + len) starts, as robots.cc's GetPathParamsQuery
 * finds it: after "scheme://authority" when there is one, at the first '/', '?', ';' or
 * '#' (or `extra`: '\n' where a line ends the URL, '/' otherwise); `len` if none.
 *
 * A URL that repeats the remembered origin and the byte after it gets the same answer
 * without a search: the search reads only those bytes. Only an origin found through
 * "://" is remembered; without "://", the byte after the first delimiter decided the
 * answer and a later URL may differ there ("http:/a" vs "http://x/a").
 */
@inline function findPathStart(url: usize, len: u32, extra: u32): u32 {
  if (originLength != 0 && originLength < len && equalBytes(url, originAt, originLength + 1)) return originLength;
  const searchStart: u32 = len >= 2 && load<u8>(url) == 0x2f && load<u8>(url, 1) == 0x2f ? 2 : 0;
  let pathStart = findDelimiter(url, searchStart, len, extra);
  // robots.cc looks for "://" only before the first '/', '?' or ';', and its second
  // byte is itself such a delimiter: so the only place it can sit is right at it.
  if (
    pathStart > searchStart && pathStart + 1 < len && load<u8>(url + pathStart - 1) == 0x3a &&
    load<u8>(url + pathStart) == 0x2f && load<u8>(url + pathStart + 1) == 0x2f
  ) {
    pathStart = findDelimiter(url, pathStart + 2, len, extra);
    if (pathStart < len) {
      originAt = url;
      originLength = pathStart;
    }
  }
  return pathStart;
}

/**
 * The table flags preparePath and prepareLine read: two tables whose flags agree on these
 * prepare a URL alike (FLAG_IMPLICIT_ROBOTS_TXT and FLAG_WILDCARD_AUTOMATON only change how
 * a prepared path is judged).
 */
export const PREPARE_FLAGS: u32 = FLAG_NORMALIZE_URL | FLAG_CASE_INSENSITIVE;

/**
 * Finds path+params+query in the URL at [url, url + len) the way robots.cc's
 * GetPathParamsQuery does (scheme and authority dropped, fragment dropped, a missing
 * leading '/' added, empty → "/"), then, with FLAG_NORMALIZE_URL, applies RFC 9309
 * §2.2.2 (see normalizePatternRfc in src/rules/normalize.ts: same steps, plus '*' → %2A so a
 * URL's literal '*' can only be matched by a rule's %2A). Writes at most 3 * len + 1
 * bytes to `scratch`; reads up to 15 bytes past the URL (scan.ts).
 *
 * Google-compat: without FLAG_NORMALIZE_URL the URL is compared as robots.cc does, and
 * robots.cc hands its matcher `path.c_str()`: a NUL byte in the path ends it.
 *
 * Fast path: a URL whose path holds nothing to rewrite (no '%', '*', '$', byte ≥ 0x80 or
 * octet outside URIs; no uppercase for case-insensitive tables) is matched in place, found with two or three
 * SIMD scans and never copied. Every scan moves forward only: O(len).
 */
export function preparePath(url: usize, len: u32, scratch: usize, flags: u32): void {
  const pathStart = findPathStart(url, len, 0x2f);
  // No path, or a fragment ('#') before it: the path is "/".
  if (pathStart == len || load<u8>(url + pathStart) == 0x23) {
    pathPtr = SLASH;
    pathLen = 1;
    return;
  }
  const normalize = (flags & FLAG_NORMALIZE_URL) != 0;
  const lower = (flags & FLAG_CASE_INSENSITIVE) != 0;
  const ends = normalize ? 0 : SPECIAL_NUL; // what ends the path besides '#'
  const special = (normalize ? SPECIAL_ESCAPES : 0) | (lower ? SPECIAL_UPPER : 0) | ends;
  // url[pathStart] is '/', '?' or ';': never rewritten, so the scan starts after it.
  const stop = findPathSpecial(url, pathStart + 1, len, special);
  const needSlash = load<u8>(url + pathStart) != 0x2f;
  const stopByte = stop < len ? <u32>load<u8>(url + stop) : 0x23;
  if (stopByte == 0x23 || (stopByte == 0 && !normalize)) {
    if (!needSlash) {
      pathPtr = url + pathStart;
      pathLen = stop - pathStart;
      return;
    }
    store<u8>(scratch, 0x2f);
    memory.copy(scratch + 1, url + pathStart, stop - pathStart);
    pathPtr = scratch;
    pathLen = stop - pathStart + 1;
    return;
  }
  const end = findPathSpecial(url, stop, len, ends); // the fragment (or NUL), if any
  const hex = lower ? HEX_LOWER : HEX_UPPER;
  let o = scratch;
  if (needSlash) { store<u8>(o, 0x2f); o++; }
  memory.copy(o, url + pathStart, stop - pathStart);
  o += stop - pathStart;
  // Invariant: scratch[0, o) is the normalized form of url[pathStart, i). One pass.
  for (let i = stop; i < end; i++) {
    const c = <u32>load<u8>(url + i);
    if (normalize) {
      if (c == 0x25 && i + 2 < end) {
        const h = hexValue(load<u8>(url + i + 1));
        const l = hexValue(load<u8>(url + i + 2));
        if (h >= 0 && l >= 0) {
          const v = <u32>(h * 16 + l);
          if (isUnreserved(v)) {
            store<u8>(o, lower && v - 0x41 < 26 ? v | 0x20 : v);
            o++;
          } else {
            storeEscape(o, v, hex);
            o += 3;
          }
          i += 2;
          continue;
        }
      }
      // A '%' that starts no escape is itself encoded (RFC 3986 §2.4), as is every
      // octet a URI cannot hold.
      if (c >= 0x80 || c == 0x2a || c == 0x24 || c == 0x25 || isOutsideUri(c)) {
        storeEscape(o, c, hex);
        o += 3;
        continue;
      }
    }
    store<u8>(o, lower && c - 0x41 < 26 ? c | 0x20 : c);
    o++;
  }
  pathPtr = scratch;
  pathLen = <u32>(o - scratch);
}

/**
 * matchLines' fast path: the URL at `url` ends at the first '\n' among the next `avail`
 * bytes. When its path is already in prepared form (as preparePath's in-place case:
 * starts with '/', nothing to rewrite, no fragment, NUL or CR), sets pathPtr/pathLen and
 * returns the offset of that '\n', having read the line once, instead of once to split
 * it and again to prepare it. Returns -1 otherwise: the caller splits the line and calls
 * preparePath, which handles every case. Reads up to 15 bytes past the '\n' (or `avail`).
 */
export function prepareLine(url: usize, avail: u32, flags: u32): i32 {
  const pathStart = findPathStart(url, avail, 0x0a);
  if (pathStart == avail || load<u8>(url + pathStart) != 0x2f) return -1;
  const special = ((flags & FLAG_NORMALIZE_URL) != 0 ? SPECIAL_ESCAPES : SPECIAL_NUL) |
    ((flags & FLAG_CASE_INSENSITIVE) != 0 ? SPECIAL_UPPER : 0) | SPECIAL_LINE;
  const stop = findPathSpecial(url, pathStart + 1, avail, special);
  if (stop == avail || load<u8>(url + stop) != 0x0a) return -1;
  pathPtr = url + pathStart;
  pathLen = stop - pathStart;
  return <i32>stop;
}

/** RFC 9309 §2.2.2: "/robots.txt" (with or without a query) is implicitly allowed. */
export function isRobotsTxtPath(p: usize, len: u32): bool {
  if (len < 11) return false;
  if (len > 11 && load<u8>(p + 11) != 0x3f) return false;
  return load<u64>(p) == 0x2e73746f626f722f && // "/robots."
    load<u16>(p + 8) == 0x7874 && load<u8>(p + 10) == 0x74; // "txt"
}

// The bytes that end a plain path (findPlainPathStop): all but RFC 3986 unreserved,
// sub-delims but `'`, `:`, `@`, `%` (the bytes WHATWG URL copies unchanged into a path
// segment) and `/`. Nibble tables as findPathSpecial's (scan.ts): byte c is one when
// HI[c >> 4] & LO[c & 15] != 0; bit 0 is the rows 0x0_, 0x1_ and 0x8_‥0xF_, all of whose
// bytes are, bit h the row 0xh_ for h = 2‥7. Exact for all 256 bytes (checked when
// generated; test/compat-origin-edges.test.ts compares every ASCII byte with compat's
// regular expression).
const PLAIN_STOP_HI: usize = memory.data<u8>([
  0x01, 0x01, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01,
]);
const PLAIN_STOP_LO: usize = memory.data<u8>([
  0x45, 0x01, 0x05, 0x05, 0x01, 0x01, 0x01, 0x05, 0x01, 0x01, 0x01, 0xa1, 0xa9, 0xa1, 0x29, 0x89,
]);

/**
 * Index of the first byte in p[from, end) that ends a plain path (PLAIN_STOP), or of a
 * '/' followed by '.' or '%' (a segment that may be a dot segment), or `end`. Reads up to
 * 16 bytes past `end` (a '/' there may look suspect: the caller checks against `end`).
 */
@inline function findPlainPathStop(p: usize, from: u32, end: u32): u32 {
  const hi = v128.load(PLAIN_STOP_HI);
  const lo = v128.load(PLAIN_STOP_LO);
  // Invariant: p[from, i) holds no such byte. At most ⌈(end − from) / 16⌉ steps.
  for (let i = from; i < end; i += 16) {
    const v = v128.load(p + i);
    const next = v128.load(p + i + 1);
    const stop = v128.and(i8x16.swizzle(hi, i8x16.shr_u(v, 4)), i8x16.swizzle(lo, v128.and(v, i8x16.splat(15))));
    const dot = v128.and(i8x16.eq(v, i8x16.splat(0x2f)), v128.or(i8x16.eq(next, i8x16.splat(0x2e)), i8x16.eq(next, i8x16.splat(0x25))));
    const mask = (~<u32>i8x16.bitmask(i8x16.eq(stop, i8x16.splat(0))) | <u32>i8x16.bitmask(dot)) & lanesBelow(end - i);
    if (mask != 0) return i + ctz(mask);
  }
  return end;
}

/**
 * Index of the first byte in p[from, end) WHATWG URL would not copy unchanged into a
 * special URL's query (all but printable ASCII other than `"`, `#`, `'`, `<`, `>`, `\`),
 * or `end`. Reads up to 15 bytes past `end`.
 */
@inline function findPlainQueryStop(p: usize, from: u32, end: u32): u32 {
  for (let i = from; i < end; i += 16) {
    const v = v128.load(p + i);
    const outside = v128.or(i8x16.lt_u(v, i8x16.splat(0x21)), i8x16.gt_u(v, i8x16.splat(0x7e)));
    const quoted = v128.or(
      v128.or(v128.or(i8x16.eq(v, i8x16.splat(0x22)), i8x16.eq(v, i8x16.splat(0x23))), v128.or(i8x16.eq(v, i8x16.splat(0x27)), i8x16.eq(v, i8x16.splat(0x3c)))),
      v128.or(i8x16.eq(v, i8x16.splat(0x3e)), i8x16.eq(v, i8x16.splat(0x5c))),
    );
    const mask = <u32>i8x16.bitmask(v128.or(outside, quoted)) & lanesBelow(end - i);
    if (mask != 0) return i + ctz(mask);
  }
  return end;
}

/**
 * Whether the URL at [url, url + len) is plainly on the origin at [origin, origin +
 * originLen) (`scheme://host[:port]` as WHATWG URL serializes it): those bytes exactly,
 * then nothing, or a path whose segments hold only bytes WHATWG URL copies unchanged and
 * none starts with `.` or `%2e` (maybe a dot segment), then maybe a non-empty query that
 * WHATWG copies unchanged, then maybe a fragment (`#` and anything, never read). WHATWG
 * URL parsing would leave such a URL as written (compat's PLAIN_TAIL in
 * src/compat-url.ts states the same set as a regular expression). A few SIMD steps per
 * URL; reads up to 16 bytes past each (scan.ts).
 */
export function isPlainOnOrigin(url: usize, len: u32, origin: usize, originLen: u32): bool {
  if (len < originLen || !equalBytes(url, origin, originLen)) return false;
  let i = originLen;
  if (i == len) return true;
  let c = <u32>load<u8>(url + i);
  if (c == 0x2f) {
    for (;;) {
      i = findPlainPathStop(url, i, len);
      if (i == len) return true;
      c = load<u8>(url + i);
      if (c != 0x2f) break;
      // A '/' followed by '.' or '%' (or by the slack past the end).
      if (i + 1 < len) {
        const d = <u32>load<u8>(url + i + 1);
        if (d == 0x2e) return false;
        if (d == 0x25 && i + 3 < len && load<u8>(url + i + 2) == 0x32 && (<u32>load<u8>(url + i + 3) | 0x20) == 0x65) return false;
      }
      i++;
    }
  }
  if (c == 0x23) return true;
  if (c != 0x3f) return false;
  const start = i + 1;
  i = findPlainQueryStop(url, start, len);
  // An empty query: WHATWG drops the '?', the matcher would keep it.
  if (i == start) return false;
  return i == len || load<u8>(url + i) == 0x23;
}
