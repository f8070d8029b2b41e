// URL strings → the bytes the Wasm matcher reads (assembly/index.ts matchUrls): UTF-8 back to back, one u32 byte length per URL.

const encoder = new TextEncoder();

/**
 * URLs joined into one string per `encodeInto`. A short rope is flattened while its
 * strings are still in cache; one rope per chunk (up to 16,384 strings) made matchBatch
 * 25% slower on the bench machine.
 */
const PIECE_COUNT = 512;

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
    let piece = '';
    for (; k < stop; k++) {
      const url = urls[k]!;
      piece += url;
      lengths[at + k - from] = url.length;
    }
    const { read, written } = encoder.encodeInto(piece, bytes.subarray(offset));
    if (read !== piece.length) return -1;
    if (written === piece.length) {
      offset += written;
    } else {
      for (let j = first; j < stop; j++) {
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
