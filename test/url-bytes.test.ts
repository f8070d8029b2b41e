// encodeUrls (src/wasm/url-bytes.ts): URL strings to the UTF-8 bytes and lengths Wasm reads, across its pieces' boundaries.
import { describe, expect, it } from 'vitest';
import { ALONE_UNITS, PIECE_COUNT, PIECE_UNITS, byteLengths, encodeUrls } from '../src/wasm/url-bytes.js';

const utf8 = new TextEncoder();

/** What encodeUrls must write for urls[from, from + count): each URL's UTF-8, back to back, and its byte length. */
function expected(urls: readonly string[], from: number, count: number): { bytes: number[]; lengths: number[] } {
  const bytes: number[] = [];
  const lengths: number[] = [];
  for (const url of urls.slice(from, from + count)) {
    const b = utf8.encode(url);
    bytes.push(...b);
    lengths.push(b.length);
  }
  return { bytes, lengths };
}

/**
 * encodeUrls into fresh arrays with room for 3 bytes a unit; lengths written from index
 * `at`; the bytes a view `shift` bytes into its buffer (encodeUrls reads them back by words).
 */
function encoded(urls: readonly string[], from: number, count: number, at = 0, shift = 0): { bytes: number[]; lengths: number[] } {
  const units = urls.slice(from, from + count).reduce((n, u) => n + u.length, 0);
  const bytes = new Uint8Array(3 * units + 16 + shift).subarray(shift);
  const lengths = new Uint32Array(at + count);
  const written = encodeUrls(urls, from, count, bytes, lengths, at);
  expect(written).toBeGreaterThanOrEqual(0);
  return { bytes: [...bytes.subarray(0, written)], lengths: [...lengths.subarray(at)] };
}

/** A URL of exactly `units` UTF-16 units, its path filled with `fill`. */
function urlOf(units: number, fill = 'a'): string {
  const head = 'https://h.example/';
  return head + fill.repeat(Math.max(0, units - head.length)).slice(0, units - head.length);
}

/** A seeded generator of integers in [0, n): the same lists on every run. */
function seeded(seed: number): (n: number) => number {
  return (n) => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return (seed >>> 8) % n;
  };
}

describe('encodeUrls', () => {
  it(`URLs of ${ALONE_UNITS - 1}, ${ALONE_UNITS} and ${ALONE_UNITS + 1} units among short ones: the bytes and lengths of each`, () => {
    const urls = [urlOf(40), urlOf(ALONE_UNITS - 1), urlOf(60), urlOf(ALONE_UNITS), urlOf(ALONE_UNITS + 1), urlOf(30), urlOf(5000), '', urlOf(70)];
    expect(encoded(urls, 0, urls.length)).toEqual(expected(urls, 0, urls.length));
  });

  it('a non-ASCII URL in a piece cut short by a long URL: only that piece is encoded again URL by URL', () => {
    // The first piece ends before the long URL; its non-ASCII URL sends it down the per-URL path.
    const urls = ['https://h.example/caf\u00e9', urlOf(ALONE_UNITS + 10), 'https://h.example/\u{1F600}', urlOf(20), urlOf(3 * ALONE_UNITS, '\u00e9'), urlOf(25)];
    expect(encoded(urls, 0, urls.length)).toEqual(expected(urls, 0, urls.length));
    // A lone surrogate becomes U+FFFD (3 bytes), as TextEncoder writes it.
    const lone = ['https://h.example/\ud800x', urlOf(ALONE_UNITS), 'https://h.example/\udc00'];
    const got = encoded(lone, 0, lone.length);
    expect(got).toEqual(expected(lone, 0, lone.length));
    expect(got.lengths[0]).toBe('https://h.example/'.length + 3 + 1);
  });

  it('a surrogate pair split between two URLs: a lone surrogate (U+FFFD) in each, as each URL alone encodes', () => {
    const urls = [urlOf(30), 'https://h.example/a\ud83d', '\ude00b', 'https://h.example/\u{1F600}', urlOf(40, '\u00e9'), 'x\ud800', '\udc00', urlOf(20)];
    const got = encoded(urls, 0, urls.length);
    expect(got).toEqual(expected(urls, 0, urls.length));
    expect(got.lengths.slice(1, 3)).toEqual(['https://h.example/a'.length + 3, 3 + 1]);
  });

  it('pieces with non-ASCII URLs here and there: lengths read back from the bytes, at every alignment', () => {
    const chars = ['a', '/', '\u00e9', '\u20ac', '\u{1F600}', '\ud800', '\udfff', '?', '='];
    const next = seeded(7);
    for (let round = 0; round < 40; round++) {
      const urls = Array.from({ length: 1 + next(700) }, () => {
        const n = next(5) === 0 ? next(2 * ALONE_UNITS) : next(90);
        // Some start with a non-ASCII character, or are empty (relative references, junk).
        let s = next(6) === 0 ? '' : 'https://h.example/';
        for (let i = 0; i < n; i++) s += next(10) < 8 ? 'abcdefgh'[next(8)]! : chars[next(chars.length)]!;
        return s;
      });
      expect(encoded(urls, 0, urls.length, 0, round % 4)).toEqual(expected(urls, 0, urls.length));
    }
  });

  it('byteLengths reads every length back from the joined bytes itself, at every alignment; false for a split surrogate pair', () => {
    const next = seeded(11);
    const chars = ['a', 'b', '/', '\u00e9', '\u20ac', '\u{1F600}', '\ud800', '\udfff'];
    for (let round = 0; round < 200; round++) {
      const urls = Array.from({ length: 1 + next(40) }, () => Array.from({ length: next(30) }, () => chars[next(chars.length)]!).join(''));
      const joined = urls.join('');
      const split = urls.some((u, i) => i + 1 < urls.length && /[\ud800-\udbff]$/.test(u) && /^[\udc00-\udfff]/.test(urls[i + 1]!));
      const shift = round % 4;
      const bytes = new Uint8Array(3 * joined.length + 8 + shift).subarray(shift);
      const written = utf8.encodeInto(joined, bytes).written;
      const lengths = Uint32Array.from([0, ...urls.map((u) => u.length)]);
      const ok = byteLengths(bytes, 0, written, lengths, 1, lengths.length);
      expect(ok).toBe(!split);
      if (ok) expect([...lengths.subarray(1)]).toEqual(urls.map((u) => utf8.encode(u).length));
    }
  });

  it(`more than ${PIECE_COUNT} URLs and more than ${PIECE_UNITS} units of short ones: several pieces, the same bytes`, () => {
    const many = Array.from({ length: 3 * PIECE_COUNT + 7 }, (_v, i) => urlOf(30 + (i % 50)));
    expect(encoded(many, 0, many.length)).toEqual(expected(many, 0, many.length));
    // Pieces cut by units: URLs just under ALONE_UNITS, so that PIECE_UNITS ends a piece first.
    const wide = Array.from({ length: Math.ceil((3 * PIECE_UNITS) / (ALONE_UNITS - 1)) }, (_v, i) => urlOf(ALONE_UNITS - 1 - (i % 3), i % 17 === 0 ? '\u00e9' : 'a'));
    expect(wide.reduce((n, u) => n + u.length, 0)).toBeGreaterThan(2 * PIECE_UNITS);
    expect(encoded(wide, 0, wide.length)).toEqual(expected(wide, 0, wide.length));
  });

  it('a range of the array, its lengths from index `at`', () => {
    const urls = Array.from({ length: 40 }, (_v, i) => (i % 7 === 0 ? urlOf(ALONE_UNITS + i) : urlOf(20 + i, i % 5 === 0 ? '\u00fc' : 'b')));
    expect(encoded(urls, 5, 30, 9)).toEqual(expected(urls, 5, 30));
  });

  it('-1 when the bytes run out, in a piece of short URLs and in a long URL alone', () => {
    for (const urls of [[urlOf(40), urlOf(50), urlOf(60)], [urlOf(40), urlOf(2 * ALONE_UNITS)], [urlOf(2 * ALONE_UNITS, '\u00e9')]]) {
      const need = expected(urls, 0, urls.length).bytes.length;
      expect(encodeUrls(urls, 0, urls.length, new Uint8Array(need - 1), new Uint32Array(urls.length), 0)).toBe(-1);
      expect(encodeUrls(urls, 0, urls.length, new Uint8Array(need), new Uint32Array(urls.length), 0)).toBe(need);
    }
  });
});
