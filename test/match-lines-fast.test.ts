// matchLines' and the check rows' single-pass line path (assembly/url.ts prepareLine) and the origin reuse it shares with the string path, against the reference, on lines built to hit every exit.
//
// prepareLine takes a line in one scan only when its path can be matched in place, and
// skips the scheme/authority search when the line repeats the previous line's origin and
// the '/' after it. Every other line must fall back to the split-then-prepare path with
// the same answer. The cases below put lines next to each other so that origins repeat,
// almost repeat (a longer host, '?' or '#' or a line end where the '/' was), and end
// exactly at chunk and input ends.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Robots, type Profile } from '../src/index.js';
import { getEngine } from '../src/wasm/index.js';
import { ReferenceRobots, referenceSplitLines } from './reference/index.js';

const PROFILES: readonly Profile[] = ['rfc', 'google'];
const BODY = [
  'User-agent: FooBot',
  'Disallow: /a',
  'Allow: /a/b',
  'Disallow: /*.pdf$',
  'Disallow: /*?s=',
  'Disallow: /%7Ex',
  'Allow: /',
  'Disallow: /$',
].join('\n');
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** matchLines, decideLines and the TSV check rows on `bytes` equal the reference on every line. */
function agrees(bytes: Uint8Array): void {
  const lines = referenceSplitLines(bytes);
  for (const profile of PROFILES) {
    const ref = ReferenceRobots.parse(BODY, { profile });
    const m = Robots.parse(BODY, { profile }).forAgent('FooBot');
    const want = lines.map((line) => ref.explain(line, 'FooBot'));
    const shown = (i: number) => `${profile} line ${i} ${JSON.stringify(decoder.decode(lines[i]))}`;
    const verdicts = m.matchLines(bytes);
    const decided = m.decideLines(bytes);
    expect(verdicts.length).toBe(lines.length);
    want.forEach((w, i) => {
      expect(verdicts[i] === 1, shown(i)).toBe(w.allowed);
      expect({ allowed: decided.verdicts[i] === 1, line: decided.lines[i] }, shown(i)).toEqual({ allowed: w.allowed, line: w.line });
    });
    // The string path (matchUrls) shares the origin reuse: same lines, as strings.
    const batch = m.decideBatch(lines.map((l) => decoder.decode(l)));
    want.forEach((w, i) => {
      expect({ allowed: batch.verdicts[i] === 1, line: batch.lines[i] }, `decideBatch ${shown(i)}`).toEqual({ allowed: w.allowed, line: w.line });
    });
    const rows = getEngine().formatLineRows(m.table, bytes, true, 0);
    const text = rows.rows.map((r) => decoder.decode(r)).join('');
    const got = text.split('\n').slice(0, -1).map((row) => row.split('\t'));
    expect(rows.count).toBe(lines.length);
    expect(got.length).toBe(lines.length);
    got.forEach(([verdict, line], i) => {
      expect({ verdict, line: Number(line) }, `rows ${shown(i)}`).toEqual({ verdict: want[i]!.allowed ? 'allow' : 'disallow', line: want[i]!.line });
    });
  }
}

const text = (lines: readonly string[]): Uint8Array => encoder.encode(lines.join('\n'));

describe('single-pass line path: crafted neighbours', () => {
  it.each([
    ['the same origin line after line', ['https://x.com/a', 'https://x.com/a/b', 'https://x.com/c.pdf', 'https://x.com/']],
    ['an origin that only almost repeats', ['https://x.com/a', 'https://x.comm/a', 'https://x.co/a', 'https://x.com?s=1', 'https://x.com#a', 'https://x.com', 'https://x.com/a']],
    ['a line break where the previous line had its path', ['https://x.com/a', 'https://x.com\n/a', 'https://x.com\r\n/a']],
    ['lines that must fall back: CR, fragment, escapes, NUL, non-ASCII, no slash', [
      'https://x.com/a\r', 'https://x.com/a#frag', 'https://x.com/%7ex', 'https://x.com/a\u0000b', 'https://x.com/é', 'https://x.com?s=2', 'https://x.com;p',
    ]],
    ['relative paths, scheme-relative and odd schemes', ['/a', '/a/b', '//x.com/a', '//x.com/a/b', 'http:/a', 'a:b/a', '', '/']],
    ['"scheme:/" then "scheme://": the same first bytes, another path start', ['http:/a', 'http://x/a', 'http:/a', 'http:/', 'http://x/a', 'http:', 'http://a']],
    ['the last line without a line break', ['https://x.com/a', 'https://x.com/a/b']],
    ['a last line shorter than the repeated origin', ['https://x.com/a', 'https://x.c']],
  ])('%s', (_name, lines) => {
    agrees(text(lines));
    agrees(text([...lines, '']));
  });

  it('a short last line over stale bytes that continue it into the repeated origin', () => {
    // The engine reuses its input region: after a longer batch, the bytes past a short
    // last line still spell the previous batch's URL. They are not part of this input.
    for (const profile of PROFILES) {
      const ref = ReferenceRobots.parse(BODY, { profile });
      const m = Robots.parse(BODY, { profile }).forAgent('FooBot');
      m.matchLines(text(['https://x.com/a', 'https://x.com/a', 'https://x.com/a', '']));
      const short = text(['https://x.com/a', 'https://x.c']);
      const want = referenceSplitLines(short).map((l) => (ref.explain(l, 'FooBot').allowed ? 1 : 0));
      expect([...m.matchLines(short)], profile).toEqual(want);
      m.decideLines(text(['https://x.com/a', 'https://x.com/a', 'https://x.com/a', '']));
      expect([...m.decideLines(short).verdicts], profile).toEqual(want);
    }
  });

  it('origins repeated across the 256 KiB chunk boundary of matchLines', () => {
    const lines: string[] = [];
    while (lines.join('\n').length < (1 << 18) + 4096) lines.push(`https://x.com/${lines.length % 3 === 0 ? 'a' : 'a/b'}/${'q'.repeat(lines.length % 50)}`);
    agrees(text(lines));
  });
});

describe('single-pass line path: random neighbours', () => {
  const origin = fc.constantFrom('https://x.com', 'https://x.com', 'https://x.comm', 'http://x.com', '//x.com', '', 'https://x.com:80', 'x.com', 'http:', 'http:/', 'http://');
  const sep = fc.constantFrom('/', '/', '/', '?', '#', ';', '');
  const path = fc.array(fc.constantFrom('a', 'b', '/', '.pdf', '?s=', '%7E', '%7e', 'x', '\r', '#', 'é', '\u0000', ' '), { maxLength: 6 }).map((p) => p.join(''));
  const line = fc.tuple(origin, sep, path).map(([o, s, p]) => `${o}${s}${p}`);
  it('400 batches of 1–40 lines, LF or CRLF, with and without a final line break', () => {
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 40 }), fc.constantFrom('\n', '\r\n'), fc.boolean(), (lines, eol, finalBreak) => {
        agrees(encoder.encode(lines.join(eol) + (finalBreak ? eol : '')));
      }),
      { numRuns: 400 },
    );
  }, 60_000);
});
