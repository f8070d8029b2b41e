// Hostile URLs: 1 MB URLs, invalid percent escapes, raw control bytes, non-UTF-8 lines, empty lines, lines without a path.
//
// A crawler judges whatever its frontier holds. Every URL gets a verdict through every
// path (isAllowed, explain, matchBatch, decideBatch, matchLines, decideLines, toMatchPath),
// the paths agree with each other and with the reference matcher (test/reference/), and
// nothing throws from inside the Wasm module. RFC 9309 §2.2.2 fixes how escapes compare;
// a `%` not followed by two hex digits is not an escape, so it is matched as itself.
import { describe, expect, it } from 'vitest';
import { Robots, toMatchPath, type Profile } from '../src/index.js';
import { ReferenceRobots, referenceSplitLines } from './reference/index.js';
import { randomBytes } from './reference/prng.js';

const PROFILES: readonly Profile[] = ['rfc', 'google'];
const encoder = new TextEncoder();
const decoder = new TextDecoder();
const MB = 1 << 20;

const BODY = [
  'User-agent: *',
  'Disallow: /a',
  'Allow: /a/ok',
  'Disallow: /*b$',
  'Disallow: /%G1',
  'Disallow: /pct%',
  'Disallow: /p%4',
  'Disallow: /%41%42',
  'Disallow: /ctl\u0001',
  'Disallow: /*%FF',
  'Disallow: /tab\tx',
  'Disallow: /%2A',
  'Disallow: /q?',
].join('\n');

/** Asserts every path agrees with the reference for `urls` (strings) under `profile`. */
function expectAllPaths(body: string, urls: readonly string[], profile: Profile): void {
  const ref = ReferenceRobots.parse(body, { profile });
  const robots = Robots.parse(body, { profile });
  const m = robots.forAgent('bot');
  const want = urls.map((u) => ref.explain(u, 'bot'));
  const batch = m.matchBatch(urls);
  const decided = m.decideBatch(urls);
  urls.forEach((url, i) => {
    const name = `${profile} ${JSON.stringify(url.length > 80 ? `${url.slice(0, 40)}…(${url.length})` : url)}`;
    expect(m.explain(url), name).toEqual(want[i]);
    expect(robots.isAllowed(url, 'bot'), name).toBe(want[i]!.allowed);
    expect(batch[i], name).toBe(want[i]!.allowed ? 1 : 0);
    expect(decided.lines[i], name).toBe(want[i]!.line);
  });
  // The bytes path, for the URLs a line can carry (no LF; a CR at the end belongs to the break).
  const lineUrls = urls.filter((u) => !u.includes('\n') && !u.endsWith('\r'));
  const input = encoder.encode(lineUrls.map((u) => `${u}\r\n`).join(''));
  const lines = m.decideLines(input);
  expect(lines.verdicts.length).toBe(lineUrls.length);
  lineUrls.forEach((url, i) => {
    const expected = want[urls.indexOf(url)]!;
    expect({ allowed: lines.verdicts[i] === 1, line: lines.lines[i] }, `${profile} line ${JSON.stringify(url.slice(0, 40))}`).toEqual({
      allowed: expected.allowed, line: expected.line,
    });
  });
}

describe('1 MB URLs', () => {
  const urls = [
    `/a${'x'.repeat(MB)}`,
    `/${'x'.repeat(MB)}b`,
    `/${'x'.repeat(MB)}bc`,
    `/${'b'.repeat(MB)}`,
    `http://h/${'%41'.repeat(MB / 3)}`,
    `/${'é'.repeat(MB / 2)}`,
    `/${'\u00ff'.repeat(MB / 2)}%FF`,
    `;${'*'.repeat(MB)}`, // rfc: every byte becomes %2A, plus the leading '/': the 3 × len scratch worst case
    `?${'$'.repeat(MB)}`,
    `/${'%'.repeat(MB)}`,
    `/${'\u{1F600}'.repeat(MB / 4)}`,
    `${'h'.repeat(MB)}`, // no path at all: "/"
    `http://${'h'.repeat(MB)}/a`,
    `/a/ok${'#'.repeat(MB)}`,
  ];
  it.each(PROFILES)('%s: every path agrees with the reference', (profile) => {
    expectAllPaths(BODY, urls, profile);
  });
  it.each(PROFILES)('%s: a 1 MB URL among short ones in one batch and in one matchLines input', (profile) => {
    const m = Robots.parse(BODY, { profile }).forAgent('bot');
    const mixed = ['/a', `/${'x'.repeat(MB)}b`, '/z', `/a${'y'.repeat(MB)}`, '/a/ok'];
    expect(Array.from(m.matchBatch(mixed))).toEqual([0, 0, 1, 0, 1]);
    expect(Array.from(m.matchLines(encoder.encode(mixed.join('\n'))))).toEqual([0, 0, 1, 0, 1]);
  });
  it('toMatchPath of a 1 MB URL: google keeps it as given, rfc normalizes it', () => {
    expect(toMatchPath(`/${'é'.repeat(MB / 2)}`, 'google')).toBe(`/${'é'.repeat(MB / 2)}`);
    expect(toMatchPath(`/${'é'.repeat(MB / 2)}`, 'rfc')).toBe(`/${'%C3%A9'.repeat(MB / 2)}`);
    expect(toMatchPath(`;${'*'.repeat(MB)}`, 'rfc')).toBe(`/;${'%2A'.repeat(MB)}`);
  });
});

describe('invalid percent escapes', () => {
  // [url, rfc, google, note] against BODY.
  const rows: [url: string, rfc: boolean, google: boolean, note: string][] = [
    ['/%G1', false, false, '"%G1" is not an escape: matched as written'],
    ['/%g1', true, true, 'escapes are not case-folded when invalid'],
    ['/pct%', false, false, 'a trailing "%" matches a trailing "%"'],
    ['/pct%25', false, false, 'rule "/pct%" is a prefix of "/pct%25" (the escape is kept as written, uppercase)'],
    ['/p%4', false, false, '"%4" is too short to be an escape'],
    ['/p%41', true, false, 'rfc: the URL decodes to "/pA", which "/p%4" does not prefix; google compares text'],
    ['/AB', false, true, 'rfc: rule "/%41%42" decodes to "/AB"; google compares escapes as text'],
    ['/%41%42', false, false, 'the escaped form matches in both'],
    ['/%61%62', false, true, 'rfc: "/ab", caught by "Disallow: /a"; google compares text'],
    ['/%', true, true, 'a lone "%"'],
    ['/%%41', true, true, 'a "%" before an escape'],
    ['/%2a', false, true, 'rfc: "%2a" uppercases to "%2A" = the rule; google compares text'],
    ['/*', false, true, 'rfc: a literal "*" in a URL is "%2A"'],
  ];
  it.each(rows)('%j → rfc %s, google %s (%s)', (url, rfc, google) => {
    expect(Robots.parse(BODY, { profile: 'rfc' }).isAllowed(url, 'bot')).toBe(rfc);
    expect(Robots.parse(BODY, { profile: 'google' }).isAllowed(url, 'bot')).toBe(google);
  });
  it.each(PROFILES)('%s: escape edge cases agree with the reference on every path', (profile) => {
    const urls = rows.map((r) => r[0]);
    for (const tail of ['%', '%4', '%G', '%4G', '%%', '%%%', '%2', '%zz', '%0', '%00', '%7f', '%80', '%fF']) urls.push(`/x${tail}`, `/${tail}`, `/a${tail}b`);
    expectAllPaths(BODY, urls, profile);
  });
});

describe('raw control bytes', () => {
  const controls = Array.from({ length: 32 }, (_v, c) => String.fromCharCode(c)).concat('\u007f');
  it.each(PROFILES)('%s: C0 controls and DEL inside, before and after the path agree with the reference', (profile) => {
    const urls = controls.flatMap((c) => [`/ctl${c}`, `/a${c}`, `${c}/a`, `/x${c}y`, `http://h${c}/a`]);
    expectAllPaths(BODY, urls, profile);
  });
  it('a URL holding a line feed is one URL in matchBatch (lengths, not separators, delimit it)', () => {
    const m = Robots.parse(BODY).forAgent('bot');
    expect(Array.from(m.matchBatch(['/a\nb', '/z\n/a', '/z\r\n']))).toEqual([0, 1, 1]);
  });
  it('a CR inside a matchLines line is part of the URL; only a CR before the LF is dropped', () => {
    const m = Robots.parse('User-agent: *\nDisallow: /a\rb\nDisallow: /c$\n', { profile: 'google' }).forAgent('bot');
    // The robots.txt splits "/a\rb" into "Disallow: /a" and "b": so "/a…" is disallowed.
    expect(Array.from(m.matchLines(encoder.encode('/a\rx\n/c\r\n/c\r\r\n')))).toEqual([0, 0, 1]);
  });
});

describe('non-UTF-8 bytes on the bytes path (matchLines)', () => {
  const raw = (...parts: (string | number[])[]): Uint8Array =>
    Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? [...encoder.encode(p)] : p)));
  const lines = [
    raw('/', [0xff]), raw('/a', [0xff]), raw('/x', [0xff], 'b'), raw([0xff], '/a'), raw('/', [0xc3]), raw('/', [0xc3, 0x28]),
    raw('/', [0xed, 0xa0, 0x80]), raw('/', [0xf4, 0x90, 0x80, 0x80]), raw('/', [0xc0, 0xaf]), raw('/q?', [0xfe]),
    raw('/', [0x80, 0x80, 0x80]), raw('/', [0xe2, 0x82]), randomBytes(300, 7).map((b) => (b === 0x0a ? 0x20 : b)),
  ];
  for (const profile of PROFILES) {
    it(`${profile}: every line gets the reference's verdict and line`, () => {
      const ref = ReferenceRobots.parse(BODY, { profile });
      const m = Robots.parse(BODY, { profile }).forAgent('bot');
      const input = Uint8Array.from(lines.flatMap((l) => [...l, 0x0a]));
      const seen = referenceSplitLines(input);
      expect(seen).toHaveLength(lines.length);
      const decided = m.decideLines(input);
      const verdicts = m.matchLines(input);
      seen.forEach((url, i) => {
        const want = ref.explain(url, 'bot');
        const name = `${profile} ${Buffer.from(url).toString('hex').slice(0, 40)}`;
        expect({ allowed: decided.verdicts[i] === 1, line: decided.lines[i] }, name).toEqual({ allowed: want.allowed, line: want.line });
        expect(verdicts[i], name).toBe(want.allowed ? 1 : 0);
      });
    });
  }
  it('rfc: a raw 0xFF octet meets a rule written %FF; google compares it raw and does not', () => {
    const input = raw('/x', [0xff], '\n');
    expect(Robots.parse(BODY, { profile: 'rfc' }).forAgent('bot').matchLines(input)[0]).toBe(0);
    expect(Robots.parse(BODY, { profile: 'google' }).forAgent('bot').matchLines(input)[0]).toBe(1);
  });
  it('matchBatch sees a lone surrogate as U+FFFD (TextEncoder), the same as the reference', () => {
    for (const profile of PROFILES) expectAllPaths('User-agent: *\nDisallow: /\uFFFD\n', ['/\ud800', '/\udfff', '/\ud800x', '/\uFFFD'], profile);
  });
});

describe('empty lines and line structure (matchLines)', () => {
  const rows: [input: string, verdicts: number[], note: string][] = [
    ['', [], 'no bytes, no lines'],
    ['\n', [0], 'one empty line'],
    ['\n\n\n', [0, 0, 0], 'three empty lines'],
    ['\r\n\r\n', [0, 0], 'CRLF empty lines'],
    ['\r', [0], 'a lone CR is an empty last line'],
    ['/z', [1], 'a last line without a break'],
    ['/z\n', [1], 'a final LF ends the last line, it does not open one'],
    ['/z\n\n', [1, 0], 'an empty line after it'],
    ['/a\n/z\r\n\n/a', [0, 1, 0, 0], 'mixed'],
  ];
  it.each(rows)('%j → %j (%s)', (input, verdicts) => {
    // "Disallow: /" makes every empty line (URL "", path "/") a visible 0.
    const m = Robots.parse('User-agent: *\nDisallow: /a\nDisallow: /$\n').forAgent('bot');
    expect(Array.from(m.matchLines(encoder.encode(input)))).toEqual(verdicts);
    expect(Array.from(m.decideLines(encoder.encode(input)).verdicts)).toEqual(verdicts);
    expect(referenceSplitLines(encoder.encode(input)).length).toBe(verdicts.length);
  });
});

describe('URLs without a path', () => {
  // robots.cc GetPathParamsQuery: no path → "/"; a query or params right after the host get a "/".
  const rows: [url: string, path: string][] = [
    ['', '/'], ['http://example.com', '/'], ['example.com', '/'], ['http://h?q', '/?q'], ['http://h#f', '/'],
    ['#', '/'], ['?', '/?'], [';', '/;'], ['//h', '/'], ['http://', '/'], ['://', '/'], ['http:', '/'], [':', '/'],
    ['h:80', '/'], ['http://h:80;p', '/;p'], ['//h/a', '/a'], ['///a', '/a'], ['a/b', '/b'], ['?/a', '/?/a'],
    ['http://h#/a', '/'], ['mailto:x@y', '/'], ['http://u@h', '/'],
  ];
  it.each(rows)('%j → %j (both profiles, and the reference)', (url, path) => {
    expect(toMatchPath(url, 'google')).toBe(path);
    expect(toMatchPath(url, 'rfc')).toBe(path);
  });
  it.each(PROFILES)('%s: their verdicts agree with the reference', (profile) => {
    expectAllPaths('User-agent: *\nDisallow: /$\nDisallow: /?\nAllow: /;\n', rows.map((r) => r[0]), profile);
  });
  it('decoding the prepared path never fails: toMatchPath of non-UTF-8 is lossy text', () => {
    expect(decoder.decode(encoder.encode(toMatchPath('/\ud800', 'google')))).toBe('/\uFFFD');
  });
});
