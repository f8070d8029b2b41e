// SIMD byte scanners: the first byte of a class in a range, 16 bytes per step.
//
// Every scanner may load up to 15 bytes past `end` (the host keeps SIMD_SLACK = 16
// readable bytes after each region it hands in, see src/wasm/memory.ts) and masks those lanes
// off, so a short URL costs one or two vector steps and never a scalar tail loop.

/** Bit i set for lanes i < n (all 16 when n ≥ 16); a `select`, so no branch to mispredict. */
@inline export function lanesBelow(n: u32): u32 {
  return select<u32>(0xffff, (<u32>1 << (n & 31)) - 1, n >= 16);
}

/**
 * Whether a[0, n) equals b[0, n): 16 bytes per step, reading up to 15 bytes past both
 * (tables and paths always have SIMD slack after them, see src/wasm/memory.ts).
 */
@inline export function equalBytes(a: usize, b: usize, n: u32): bool {
  // Invariant: a[0, k) == b[0, k). ⌈n / 16⌉ steps.
  for (let k: u32 = 0; k < n; k += 16) {
    const differ = <u32>i8x16.bitmask(v128.not(i8x16.eq(v128.load(a + k), v128.load(b + k)))) & lanesBelow(n - k);
    if (differ != 0) return false;
  }
  return true;
}

/** Index of the first '\n' in p[from, end), or `end`. Each byte is examined once. */
export function findNewline(p: usize, from: u32, end: u32): u32 {
  const nl = i8x16.splat(0x0a);
  // Invariant: no '\n' in p[from, i). At most ⌈(end − from) / 16⌉ steps.
  for (let i = from; i < end; i += 16) {
    const mask = <u32>i8x16.bitmask(i8x16.eq(v128.load(p + i), nl)) & lanesBelow(end - i);
    if (mask != 0) return i + ctz(mask);
  }
  return end;
}

/**
 * Index of the first URL delimiter ('/', '?', ';' or '#') or `extra` in p[from, end), or
 * `end`: the bytes that end a scheme/authority (robots.cc GetPathParamsQuery) or start a
 * fragment. `extra` is '\n' where a line ends the URL, else '/' again.
 */
export function findDelimiter(p: usize, from: u32, end: u32, extra: u32 = 0x2f): u32 {
  const more = i8x16.splat(<u8>extra);
  // Invariant: p[from, i) holds none of them. At most ⌈(end − from) / 16⌉ steps.
  for (let i = from; i < end; i += 16) {
    const v = v128.load(p + i);
    const hit = v128.or(
      v128.or(v128.or(i8x16.eq(v, i8x16.splat(0x2f)), i8x16.eq(v, i8x16.splat(0x3f))), i8x16.eq(v, more)),
      v128.or(i8x16.eq(v, i8x16.splat(0x3b)), i8x16.eq(v, i8x16.splat(0x23))),
    );
    const mask = <u32>i8x16.bitmask(hit) & lanesBelow(end - i);
    if (mask != 0) return i + ctz(mask);
  }
  return end;
}

/** What `findPathSpecial` stops at, besides '#'. */
export const SPECIAL_ESCAPES: u32 = 1; // '%', '*', '$', bytes ≥ 0x80 and octets outside URIs (RFC 9309 §2.2.2 normalization)
export const SPECIAL_UPPER: u32 = 2;   // 'A'–'Z' (case-insensitive tables)
export const SPECIAL_NUL: u32 = 4;     // NUL, which ends a C-string path (Google-compat)
export const SPECIAL_LINE: u32 = 8;    // '\n' and '\r', which end a line of matchLines input

// The byte classes of findPathSpecial, one pair of 16-byte nibble tables per `special`
// value without SPECIAL_LINE (0‥7, 16 bytes each; LINE_LO adds SPECIAL_LINE): byte c is in the class when
// HI[c >> 4] & LO[c & 15] != 0. Each bit of HI names a group of high nibbles (bit h for
// 0x_h0‥0x_hF, h < 8; with SPECIAL_ESCAPES 0x1_ and 0x8_‥0xF_ share bit 0 with 0x0_,
// since every byte of those rows is in the class), and LO holds, per low nibble, the
// groups whose byte is in the class. The sets are exact, checked for all 256 bytes by the
// generator (and by test/hostile-urls + property tests through preparePath).
const SPECIAL_LO: usize = memory.data<u8>([
  0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  0x45, 0x05, 0x05, 0x05, 0x05, 0x05, 0x01, 0x01, 0x01, 0x01, 0x05, 0x81, 0xa9, 0x81, 0xa9, 0x81,
  0x20, 0x30, 0x30, 0x34, 0x30, 0x30, 0x30, 0x30, 0x30, 0x30, 0x30, 0x10, 0x10, 0x10, 0x10, 0x10,
  0x65, 0x35, 0x35, 0x35, 0x35, 0x35, 0x31, 0x31, 0x31, 0x31, 0x35, 0x91, 0xb9, 0x91, 0xb9, 0x91,
  0x01, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  0x45, 0x05, 0x05, 0x05, 0x05, 0x05, 0x01, 0x01, 0x01, 0x01, 0x05, 0x81, 0xa9, 0x81, 0xa9, 0x81,
  0x21, 0x30, 0x30, 0x34, 0x30, 0x30, 0x30, 0x30, 0x30, 0x30, 0x30, 0x10, 0x10, 0x10, 0x10, 0x10,
  0x65, 0x35, 0x35, 0x35, 0x35, 0x35, 0x31, 0x31, 0x31, 0x31, 0x35, 0x91, 0xb9, 0x91, 0xb9, 0x91,
]);
const SPECIAL_HI: usize = memory.data<u8>([
  0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  0x01, 0x01, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01,
  0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  0x01, 0x01, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01,
  0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  0x01, 0x01, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01,
  0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  0x01, 0x01, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01,
]);

/**
 * SPECIAL_LINE's part of a LO table: '\n' (0x0a) and '\r' (0x0d) in group bit 0, which
 * every table's HI gives to the high nibble 0x0_.
 */
const LINE_LO: usize = memory.data<u8>([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0]);

/**
 * Index of the first byte in p[from, end) that ends the path ('#', or NUL with
 * SPECIAL_NUL) or that the URL normalization would rewrite (per `special`), or `end`.
 * When it returns `end` or a path end, the path is already in its normalized form and
 * can be matched in place. Two table lookups (swizzle) per 16 bytes classify every byte.
 */
@inline export function findPathSpecial(p: usize, from: u32, end: u32, special: u32): u32 {
  const row = <usize>(special & ~SPECIAL_LINE) << 4;
  const line = (special & SPECIAL_LINE) != 0 ? v128.load(LINE_LO) : i8x16.splat(0);
  const lo = v128.or(v128.load(SPECIAL_LO + row), line);
  const hi = v128.load(SPECIAL_HI + row);
  // Invariant: p[from, i) holds no byte of the class. At most ⌈(end − from) / 16⌉ steps.
  for (let i = from; i < end; i += 16) {
    const v = v128.load(p + i);
    const hit = v128.and(i8x16.swizzle(hi, i8x16.shr_u(v, 4)), i8x16.swizzle(lo, v128.and(v, i8x16.splat(15))));
    const mask = ~<u32>i8x16.bitmask(i8x16.eq(hit, i8x16.splat(0))) & lanesBelow(end - i);
    if (mask != 0) return i + ctz(mask);
  }
  return end;
}
