// Seeded pseudo-random bytes, numbers and words for tests: the same "random" input on every run.

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

/**
 * An xorshift32 stream of numbers in [0, 1), for seeded generated inputs.
 * @example const r = random(7); r() // the same sequence on every run
 */
export function random(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

/**
 * n characters drawn from `alphabet` with the stream `r`.
 * @example randomWord(random(7), 'ab/', 5) // e.g. 'a/bba', the same on every run
 */
export function randomWord(r: () => number, alphabet: string, n: number): string {
  return Array.from({ length: n }, () => alphabet[Math.floor(r() * alphabet.length)]).join('');
}
