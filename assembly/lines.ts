// Line splitting for the raw-bytes path: finds '\n' 16 bytes at a time with SIMD.

/** Index of the first '\n' in p[from, end), or `end`. Each byte is examined once. */
export function findNewline(p: usize, from: u32, end: u32): u32 {
  let i = from;
  const nl = i8x16.splat(0x0a);
  while (i + 16 <= end) {
    const mask = i8x16.bitmask(i8x16.eq(v128.load(p + i), nl));
    if (mask != 0) return i + <u32>ctz(mask);
    i += 16;
  }
  while (i < end && load<u8>(p + i) != 0x0a) i++;
  return i;
}
