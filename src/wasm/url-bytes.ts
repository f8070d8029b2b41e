// URL strings → the bytes the Wasm matcher reads (assembly/index.ts matchUrls): UTF-8 back to back, one u32 byte length per URL.

const encoder = new TextEncoder();

/**
 * URLs joined into one string per `encodeInto`. A short rope is flattened while its
 * strings are still in cache; one rope per chunk (up to 16,384 strings) made matchBatch
 * 25% slower on the bench machine.
 */
export const PIECE_COUNT = 512;

/**
 * Most UTF-16 units in one piece, and the length from which a URL is encoded on its own.
 * Flattening a rope costs more per unit the longer its strings and the larger it grows:
 * on the bench machine, 512 URLs of 1,000 units in one piece cost about 900–1,140 ns a URL
 * against 119–123 ns encoded one by one (4,000 units: 3,250–3,950 against 257–262 ns),
 * while URLs of 40–100 units still cost 38–73 ns in pieces against 77–84 one by one.
 */
export const PIECE_UNITS = 1 << 15;
export const ALONE_UNITS = 256;

/**
 * Writes urls[from, from + count) as UTF-8, back to back, to `bytes`, and their byte
 * lengths to lengths[at, at + count); returns the bytes written, or -1 when `bytes` ran
 * out of room (3 bytes per UTF-16 unit always suffice; as many bytes as units, for
 * ASCII). Lone surrogates become U+FFFD, as `TextEncoder` makes them. Every
 * element must be a string (callers check). URLs are copied in one `encodeInto` per
 * piece; a piece holding non-ASCII gets its URLs' byte lengths from one pass over its bytes
 * (`byteLengths`), or, when a surrogate pair is split between two of its URLs, is encoded
 * again URL by URL.
 * `bytes` may be a view of a SharedArrayBuffer (MatchPool encodes for its workers).
 */
export function encodeUrls(urls: readonly string[], from: number, count: number, bytes: Uint8Array, lengths: Uint32Array, at: number): number {
  let offset = 0;
  for (let k = from, end = from + count; k < end;) {
    const stop = Math.min(end, k + PIECE_COUNT);
    const first = k;
    // Ropes built by += are flattened by encodeInto: faster than Array#join here.
    // Each length is written as if ASCII (one byte per UTF-16 unit), and again below if not.
    // A piece ends before PIECE_UNITS units and before a URL of ALONE_UNITS or more, which
    // is a piece of its own (then a flat string: nothing to flatten).
    let piece = '';
    for (; k < stop; k++) {
      const url = urls[k]!;
      const units = url.length;
      if (k > first && (units >= ALONE_UNITS || piece.length + units > PIECE_UNITS)) break;
      piece += url;
      lengths[at + k - from] = units;
      if (units >= ALONE_UNITS) {
        k++;
        break;
      }
    }
    const { read, written } = encoder.encodeInto(piece, bytes.subarray(offset));
    if (read !== piece.length) return -1;
    if (written === piece.length || byteLengths(bytes, offset, offset + written, lengths, at + first - from, at + k - from)) {
      offset += written;
    } else {
      // A surrogate pair across two URLs: each URL alone has a lone surrogate (U+FFFD).
      for (let j = first; j < k; j++) {
        const url = urls[j]!;
        const { read, written: n } = encoder.encodeInto(url, bytes.subarray(offset));
        if (read !== url.length) return -1;
        lengths[at + j - from] = n;
        offset += n;
      }
    }
  }
  return offset;
}

/**
 * Turns lengths[from, to) from the UTF-16 units of URLs encoded back to back at
 * bytes[start, end) into their UTF-8 byte lengths. A search for the next byte ≥ 0x80 (four
 * bytes a step where 4-aligned) passes runs of ASCII bytes, one unit each, across URLs; the
 * UTF-8 sequence there is 2 or 3 bytes for one unit (a lone surrogate included, as U+FFFD)
 * or 4 bytes for two. False when a 4-byte sequence spans two URLs (a surrogate pair split
 * between them, which the joined string encoded as one character): then the caller encodes
 * them one by one.
 */
export function byteLengths(bytes: Uint8Array, start: number, end: number, lengths: Uint32Array, from: number, to: number): boolean {
  // bytes[skew] is the first 4-aligned byte of the view's buffer.
  const skew = -bytes.byteOffset & 3;
  const words = new Int32Array(bytes.buffer, bytes.byteOffset + skew, Math.max(0, end - skew) >> 2);
  const wordCount = words.length;
  let p = start;
  let j = from;
  let first = p;
  let units = lengths[j]!;
  // Invariant: URLs before j are done; URL j starts at `first` and has `units` units left
  // from byte p. Each turn passes one non-ASCII sequence: at most (end − start) turns, and
  // the searches cover each byte once.
  while (j < to) {
    // The next byte ≥ 0x80 at or after p (end: none): bytes to the 4-alignment, words, bytes.
    let h = p;
    while (h < end && ((h - skew) & 3) !== 0 && bytes[h]! < 0x80) h++;
    if (h < end && bytes[h]! < 0x80) {
      let w = (h - skew) >> 2;
      while (w < wordCount && (words[w]! & 0x80808080) === 0) w++;
      h = w * 4 + skew;
      while (h < end && bytes[h]! < 0x80) h++;
    }
    // ASCII bytes [p, h): one unit each, ending every URL they reach the end of.
    let ascii = h - p;
    while (ascii >= units) {
      ascii -= units;
      p += units;
      lengths[j++] = p - first;
      if (j === to) return true;
      first = p;
      units = lengths[j]!;
    }
    // (Lengths that do not add up to the bytes: encode them one by one.)
    if (h >= end) return false;
    p += ascii;
    units -= ascii;
    // The sequence at h (= p), inside URL j.
    const lead = bytes[p]!;
    if (lead < 0xf0) {
      p += lead < 0xe0 ? 2 : 3;
      units -= 1;
    } else {
      if (units === 1) return false;
      p += 4;
      units -= 2;
    }
  }
  return true;
}

/** The TypeError for a batch element that is not a string (matchBatch and MatchPool agree on it). */
export function notAString(index: number, value: unknown): TypeError {
  return new TypeError(`urls[${index}] must be a string, got ${value === null ? 'null' : typeof value}`);
}
