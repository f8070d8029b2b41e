// URL → the path+params+query the matcher compares, normalized as the table's flags say.
import { FLAG_CASE_INSENSITIVE, FLAG_NORMALIZE_URL } from './table';

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

@inline function isPathStart(c: u32): bool {
  return c == 0x2f || c == 0x3f || c == 0x3b; // '/', '?', ';'
}

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

@inline function storeEscape(out: usize, c: u32, hex: usize): void {
  store<u8>(out, 0x25);
  store<u8>(out, load<u8>(hex + (c >> 4)), 1);
  store<u8>(out, load<u8>(hex + (c & 15)), 2);
}

/**
 * Finds path+params+query in the URL at [url, url + len) the way robots.cc's
 * GetPathParamsQuery does (scheme and authority dropped, fragment dropped, a missing
 * leading '/' added, empty → "/"), then, with FLAG_NORMALIZE_URL, applies RFC 9309
 * §2.2.2 (see normalizePatternRfc in src/normalize.ts: same steps, plus '*' → %2A so a
 * URL's literal '*' can only be matched by a rule's %2A). Writes at most 3 * len + 1
 * bytes to `scratch`. Every loop below moves forward only: O(len).
 */
export function preparePath(url: usize, len: u32, scratch: usize, flags: u32): void {
  let searchStart: u32 = 0;
  if (len >= 2 && load<u8>(url) == 0x2f && load<u8>(url, 1) == 0x2f) searchStart = 2;
  let early = len;
  for (let i = searchStart; i < len; i++) {
    if (isPathStart(load<u8>(url + i))) { early = i; break; }
  }
  // "://" only counts as a scheme separator before the first '/', '?' or ';'.
  let protocolEnd = searchStart;
  for (let i = searchStart; i + 2 < len && i < early; i++) {
    if (load<u8>(url + i) == 0x3a && load<u8>(url + i + 1) == 0x2f && load<u8>(url + i + 2) == 0x2f) {
      protocolEnd = i + 3;
      break;
    }
  }
  let pathStart = len;
  for (let i = protocolEnd; i < len; i++) {
    if (isPathStart(load<u8>(url + i))) { pathStart = i; break; }
  }
  let hash = len;
  for (let i = searchStart; i < len; i++) {
    if (load<u8>(url + i) == 0x23) { hash = i; break; }
  }
  if (pathStart == len || hash < pathStart) {
    pathPtr = SLASH;
    pathLen = 1;
    return;
  }
  const end = hash;
  const needSlash = load<u8>(url + pathStart) != 0x2f;
  if ((flags & (FLAG_NORMALIZE_URL | FLAG_CASE_INSENSITIVE)) == 0) {
    if (!needSlash) {
      pathPtr = url + pathStart;
      pathLen = end - pathStart;
      return;
    }
    store<u8>(scratch, 0x2f);
    memory.copy(scratch + 1, url + pathStart, end - pathStart);
    pathPtr = scratch;
    pathLen = end - pathStart + 1;
    return;
  }
  const normalize = (flags & FLAG_NORMALIZE_URL) != 0;
  const lower = (flags & FLAG_CASE_INSENSITIVE) != 0;
  const hex = lower ? HEX_LOWER : HEX_UPPER;
  let o = scratch;
  if (needSlash) { store<u8>(o, 0x2f); o++; }
  for (let i = pathStart; i < end; i++) {
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
      if (c >= 0x80 || c == 0x2a || c == 0x24) {
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

/** RFC 9309 §2.2.2: "/robots.txt" (with or without a query) is implicitly allowed. */
export function isRobotsTxtPath(p: usize, len: u32): bool {
  if (len < 11) return false;
  if (len > 11 && load<u8>(p + 11) != 0x3f) return false;
  return load<u64>(p) == 0x2e73746f626f722f && // "/robots."
    load<u16>(p + 8) == 0x7874 && load<u8>(p + 10) == 0x74; // "txt"
}
