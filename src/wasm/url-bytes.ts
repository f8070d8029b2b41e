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
 * element must be a string (callers check). ASCII runs are copied in one `encodeInto` per
 * piece; a piece holding any non-ASCII URL is re-encoded per URL to learn its lengths.
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
    if (written === piece.length) {
      offset += written;
    } else {
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

/** The TypeError for a batch element that is not a string (matchBatch and MatchPool agree on it). */
export function notAString(index: number, value: unknown): TypeError {
  return new TypeError(`urls[${index}] must be a string, got ${value === null ? 'null' : typeof value}`);
}
