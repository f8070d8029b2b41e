// Seeded pseudo-random bytes for hostile-input tests: the same "random" file on every run.

/**
 * xorshift32 bytes: deterministic, so a failure replays exactly.
 * @example randomBytes(4, 1) // the same 4 bytes every time
 */
export function randomBytes(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[i] = x & 0xff;
  }
  return out;
}
