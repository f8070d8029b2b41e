// SIMD byte scanners: the first byte of a class in a range, 16 bytes per step.
//
// Every scanner may load up to 15 bytes past `end` (the host keeps SIMD_SLACK = 16
// readable bytes after each region it hands in, see src/wasm.ts) and masks those lanes
// off, so a short URL costs one or two vector steps and never a scalar tail loop.

/** Bit i set for lanes i < n (all 16 when n ≥ 16); a `select`, so no branch to mispredict. */
@inline export function lanesBelow(n: u32): u32 {
  return select<u32>(0xffff, (<u32>1 << (n & 31)) - 1, n >= 16);
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
 * Index of the first URL delimiter ('/', '?', ';' or '#') in p[from, end), or `end`:
 * the bytes that end a scheme/authority (robots.cc GetPathParamsQuery) or start a fragment.
 */
export function findDelimiter(p: usize, from: u32, end: u32): u32 {
  // Invariant: p[from, i) holds none of the four. At most ⌈(end − from) / 16⌉ steps.
  for (let i = from; i < end; i += 16) {
    const v = v128.load(p + i);
    const hit = v128.or(
      v128.or(i8x16.eq(v, i8x16.splat(0x2f)), i8x16.eq(v, i8x16.splat(0x3f))),
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

/**
 * Index of the first byte in p[from, end) that ends the path ('#', or NUL with
 * SPECIAL_NUL) or that the URL normalization would rewrite (per `special`), or `end`.
 * When it returns `end` or a path end, the path is already in its normalized form and
 * can be matched in place.
 */
@inline export function findPathSpecial(p: usize, from: u32, end: u32, special: u32): u32 {
  const escapes = (special & SPECIAL_ESCAPES) != 0;
  const upper = (special & SPECIAL_UPPER) != 0;
  const nul = (special & SPECIAL_NUL) != 0;
  // Invariant: p[from, i) holds no byte of the class. At most ⌈(end − from) / 16⌉ steps.
  for (let i = from; i < end; i += 16) {
    const v = v128.load(p + i);
    let hit = i8x16.eq(v, i8x16.splat(0x23));
    if (escapes) {
      hit = v128.or(
        v128.or(hit, i8x16.eq(v, i8x16.splat(0x25))),
        v128.or(i8x16.eq(v, i8x16.splat(0x2a)), i8x16.eq(v, i8x16.splat(0x24))),
      );
      hit = v128.or(hit, i8x16.lt_s(v, i8x16.splat(0))); // ≥ 0x80
      // Octets outside URIs (url.ts isOutsideUri). Over-reporting is harmless (the slow
      // path copies such bytes unchanged), so ≤ 0x22 and 0x7B–0x7F are taken whole.
      hit = v128.or(hit, v128.or(
        i8x16.le_u(v, i8x16.splat(0x22)),
        i8x16.lt_u(i8x16.sub(v, i8x16.splat(0x7b)), i8x16.splat(5)),
      ));
      hit = v128.or(hit, v128.or(
        v128.or(i8x16.eq(v, i8x16.splat(0x3c)), i8x16.eq(v, i8x16.splat(0x3e))),
        v128.or(
          v128.or(i8x16.eq(v, i8x16.splat(0x5c)), i8x16.eq(v, i8x16.splat(0x5e))),
          i8x16.eq(v, i8x16.splat(0x60)),
        ),
      ));
    }
    if (upper) hit = v128.or(hit, i8x16.lt_u(i8x16.sub(v, i8x16.splat(0x41)), i8x16.splat(26)));
    if (nul) hit = v128.or(hit, i8x16.eq(v, i8x16.splat(0)));
    const mask = <u32>i8x16.bitmask(hit) & lanesBelow(end - i);
    if (mask != 0) return i + ctz(mask);
  }
  return end;
}
