// RFC 9309 §2.5 (limits): the parsing limit (maxBytes, default 512,000 bytes), truncation, and what survives the cut.
//
// §2.5: "Crawlers SHOULD impose a parsing limit to protect their systems; see Section 3.
//   The parsing limit MUST be at least 500 kibibytes [KiB]."
// §2.4: "Crawlers MUST try to parse each line of the robots.txt file. Crawlers MUST use
//   the parseable rules." A line cut by the limit is not parseable as written, so it is
//   dropped entirely rather than read as a shorter (wider) rule.
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_BYTES, Robots } from '../src/index.js';
import { evaluateAllPaths } from './helpers/all-paths.js';
import { utf8 } from './helpers/cases.js';

const PROFILES = ['rfc', 'google'] as const;
const HEAD = 'User-agent: *\nDisallow: /early\n';

/** `HEAD`, then comment lines, padded so that exactly `bytes` bytes precede `tail`. */
function padTo(bytes: number, tail: string): string {
  let filler = bytes - HEAD.length;
  const lines: string[] = [];
  while (filler > 0) {
    const n = Math.min(filler, 100);
    // Each line is "#" + spaces + "\n": n bytes in all (a lone "\n" when n is 1).
    lines.push(n === 1 ? '\n' : `#${' '.repeat(n - 2)}\n`);
    filler -= n;
  }
  return HEAD + lines.join('') + tail;
}

describe('RFC 9309 §2.5: the default limit is 512,000 bytes (500 KiB)', () => {
  it('DEFAULT_MAX_BYTES is at least 500 KiB', () => {
    expect(DEFAULT_MAX_BYTES).toBe(512_000);
    expect(DEFAULT_MAX_BYTES).toBeGreaterThanOrEqual(500 * 1024);
  });
  for (const profile of PROFILES) {
    it(`${profile}: a body of exactly the limit is read whole`, () => {
      const body = padTo(DEFAULT_MAX_BYTES - 'Disallow: /late\n'.length, 'Disallow: /late\n');
      expect(utf8(body).length).toBe(DEFAULT_MAX_BYTES);
      const robots = Robots.parse(body, { profile });
      expect(robots.truncated).toBe(false);
      expect(robots.byteLength).toBe(DEFAULT_MAX_BYTES);
      expect(evaluateAllPaths(body, 'bot', '/late', profile).allowed).toBe(false);
      expect(evaluateAllPaths(body, 'bot', '/early', profile).allowed).toBe(false);
    });
    it(`${profile}: a rule beyond the limit is ignored and truncated is set`, () => {
      const body = padTo(DEFAULT_MAX_BYTES, 'Disallow: /late\n');
      const robots = Robots.parse(body, { profile });
      expect(robots.truncated).toBe(true);
      expect(robots.byteLength).toBe(DEFAULT_MAX_BYTES);
      expect(evaluateAllPaths(body, 'bot', '/late', profile)).toEqual({ allowed: true, line: 0, rule: null });
      expect(evaluateAllPaths(body, 'bot', '/early', profile)).toMatchObject({ allowed: false, line: 2 });
    });
    it(`${profile}: a rule line cut by the limit is dropped entirely, not half-read`, () => {
      // The limit falls inside "Disallow: /late-and-long": reading the cut line would give
      // a shorter pattern such as "/la" that disallows more than the author wrote.
      const body = padTo(DEFAULT_MAX_BYTES - 'Disallow: /la'.length, 'Disallow: /late-and-long\nDisallow: /after\n');
      const robots = Robots.parse(body, { profile });
      expect(robots.truncated).toBe(true);
      expect(robots.byteLength).toBeLessThanOrEqual(DEFAULT_MAX_BYTES);
      expect(robots.byteLength).toBe(DEFAULT_MAX_BYTES - 'Disallow: /la'.length);
      for (const url of ['/la', '/late', '/late-and-long', '/after']) {
        expect(evaluateAllPaths(body, 'bot', url, profile).allowed, url).toBe(true);
      }
      expect(robots.groups.flatMap((g) => g.rules).map((r) => r.line)).toEqual([2]);
    });
  }
});

describe('maxBytes option', () => {
  const body = 'User-agent: *\nDisallow: /a\nDisallow: /b\nDisallow: /c\n'; // lines end at 14, 27, 40, 53
  const cases: [maxBytes: number, truncated: boolean, byteLength: number, blocked: string[], note: string][] = [
    [53, false, 53, ['/a', '/b', '/c'], 'limit equal to the body'],
    [1000, false, 53, ['/a', '/b', '/c'], 'limit above the body'],
    [52, true, 52, ['/a', '/b', '/c'], 'limit just before the final LF: the byte at the limit ends the line'],
    [40, true, 40, ['/a', '/b'], 'cut just after a LF'],
    [39, true, 39, ['/a', '/b'], 'cut just before a LF: the byte at the limit ends the line'],
    [33, true, 27, ['/a'], 'cut inside "Disallow: /b"'],
    [50, true, 40, ['/a', '/b'], 'cut inside "Disallow: /c", one byte short of its LF'],
    [20, true, 14, [], 'cut inside the first rule'],
    [5, true, 0, [], 'cut inside the user-agent line'],
    [0, true, 0, [], 'zero: nothing is read'],
  ];
  for (const profile of PROFILES) {
    for (const [maxBytes, truncated, byteLength, blocked, note] of cases) {
      it(`${profile}: maxBytes ${maxBytes}: ${note}`, () => {
        const robots = Robots.parse(body, { profile, maxBytes });
        expect({ truncated: robots.truncated, byteLength: robots.byteLength }).toEqual({ truncated, byteLength });
        for (const url of ['/a', '/b', '/c']) {
          const verdict = evaluateAllPaths(body, 'bot', url, profile, { maxBytes });
          expect(verdict.allowed, url).toBe(!blocked.includes(url));
        }
      });
    }
  }
  it('CR and CRLF line endings also end a line at the limit', () => {
    const crlf = 'User-agent: *\r\nDisallow: /a\r\nDisallow: /b\r\n';
    // Cut between CR and LF of the second line: "Disallow: /a" is complete.
    const cut = crlf.indexOf('/a\r\n') + 3;
    const robots = Robots.parse(crlf, { maxBytes: cut });
    expect(robots.truncated).toBe(true);
    expect(robots.isAllowed('/a', 'bot')).toBe(false);
    expect(robots.isAllowed('/b', 'bot')).toBe(true);
    const cr = 'User-agent: *\rDisallow: /a\rDisallow: /b\r';
    expect(Robots.parse(cr, { maxBytes: cr.indexOf('/b') }).isAllowed('/a', 'bot')).toBe(false);
  });
  it('the limit counts UTF-8 bytes, also for string bodies', () => {
    const text = 'User-agent: *\nDisallow: /ツ\nDisallow: /z\n'; // ツ is 3 bytes
    const bytes = utf8(text);
    expect(Robots.parse(text, { maxBytes: bytes.length }).truncated).toBe(false);
    expect(Robots.parse(text, { maxBytes: bytes.length - 1 }).truncated).toBe(true);
    // A cut inside the 3-byte character drops that line.
    const inside = bytes.indexOf(0xe3) + 1;
    const robots = Robots.parse(text, { maxBytes: inside });
    expect(robots.byteLength).toBe(text.indexOf('Disallow: /ツ'));
    expect(robots.isAllowed('/%E3%83%84', 'bot')).toBe(true);
    expect(Robots.parse(bytes, { maxBytes: inside }).byteLength).toBe(robots.byteLength);
  });
  it('byteLength of a string body is its UTF-8 length', () => {
    expect(Robots.parse('User-agent: *\nDisallow: /ツ\n').byteLength).toBe(utf8('User-agent: *\nDisallow: /ツ\n').length);
  });
  it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('maxBytes %s is a RangeError naming the option', (maxBytes) => {
    expect(() => Robots.parse('', { maxBytes })).toThrow(RangeError);
    expect(() => Robots.parse('', { maxBytes })).toThrow(/maxBytes/);
  });
});

describe('Google-compat: 16,663-byte lines (robots.cc line buffer), not an RFC limit', () => {
  const long = 'a'.repeat(17_000);
  const body = `user-agent: FooBot\ndisallow: /x/${long}/qux\n`;
  it('google reads a prefix of an over-long rule, rfc the whole rule', () => {
    expect(evaluateAllPaths(body, 'FooBot', `/x/${long}/fux`, 'google').allowed).toBe(false);
    expect(evaluateAllPaths(body, 'FooBot', `/x/${long}/fux`, 'rfc').allowed).toBe(true);
    expect(evaluateAllPaths(body, 'FooBot', `/x/${long}/qux`, 'rfc').allowed).toBe(false);
    expect(evaluateAllPaths(body, 'FooBot', '/fux', 'google').allowed).toBe(true);
  });
});
