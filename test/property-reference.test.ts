// The oracle's own credentials: the reference matcher (test/reference/) reproduces Google's recorded vectors before it judges the Wasm path.
//
// test/property.test.ts trusts test/reference/ as the oracle, so the reference must first
// pass the same evidence the core does: every allowed-ness vector of google/robotstxt and
// robotstxt-spec-test in the google profile, robots.cc's GetPathParamsQuery and
// MaybeEscapePattern checks, and hand-checked RFC 9309 rows for the rfc profile.
import { describe, expect, it } from 'vitest';
import {
  ReferenceRobots, referenceEscapeGoogle, referenceGlobMatches, referenceGooglePath, referenceLimit, referenceNormalizePathRfc,
  referenceNormalizePatternRfc, referencePathParamsQuery, referenceRecords, referenceSplitLines,
} from './reference/index.js';
import { caseBody, loadGoogleCases, loadOtherCases, loadSpecCases, utf8 } from './helpers/cases.js';

const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

describe('reference, google profile: all 545 recorded vectors of robots.cc', () => {
  const cases = [...loadGoogleCases(), ...loadSpecCases()];
  it('has 545 vectors', () => expect(cases).toHaveLength(545));
  it.each(cases.map((c) => [c.id, c] as const))('%s', (_id, c) => {
    const robots = ReferenceRobots.parse(caseBody(c), { profile: 'google' });
    expect(robots.explain(c.url, c.useragent).allowed).toBe(c.expected_allowed);
  });
});

describe('reference helpers against robots.cc helper checks', () => {
  const other = loadOtherCases();
  it.each(other.GetPathParamsQuery.cases.map((c) => [c.url, c.expected_path] as const))('GetPathParamsQuery(%j) = %j', (url, expected) => {
    expect(text(referencePathParamsQuery(utf8(url)))).toBe(expected);
  });
  it.each(other.MaybeEscapePattern.cases.map((c) => [c.input, c.expected] as const))('MaybeEscapePattern(%j) = %j', (input, expected) => {
    expect(text(referenceEscapeGoogle(utf8(input)))).toBe(expected);
  });
});

// [pattern, path, matches, note]: RFC 9309 §2.2.3 special characters, by hand.
const globRows: [string, string, boolean, string][] = [
  ['/', '/', true, 'prefix'],
  ['/a', '/', false, 'pattern longer than path'],
  ['/*', '/', true, '* matches nothing'],
  ['/*.php$', '/x.php', true, 'anchored suffix'],
  ['/*.php$', '/x.php5', false, 'anchored suffix, more after'],
  ['/$', '/', true, 'bare anchor'],
  ['/$', '/a', false, 'bare anchor, more after'],
  ['/a$b', '/a$b', true, 'non-final $ is literal'],
  ['/a$b', '/ab', false, 'non-final $ is not an anchor'],
  ['*', '/anything', true, 'lone star'],
  ['/*a*a*b', '/aab', true, 'two stars'],
  ['/*a*a*b', '/ab', false, 'two stars need two a'],
  ['/**$', '/x', true, 'stars then anchor'],
];

describe('reference glob (position sets)', () => {
  it.each(globRows)('%j vs %j → %s (%s)', (pattern, path, matches) => {
    expect(referenceGlobMatches(utf8(path), utf8(pattern))).toBe(matches);
  });
});

describe('reference google path: robots.cc matches path.c_str()', () => {
  it.each([
    ['/a\u0000b', '/a'],
    ['http://h/\u0000z', '/'],
    ['/a?x\u0000y', '/a?x'],
    ['/plain', '/plain'],
  ])('%j → %j', (url, path) => {
    expect(text(referenceGooglePath(utf8(url)))).toBe(path);
  });
});

describe('reference RFC 9309 normalization', () => {
  it.each([
    ['/%62%61%7A', '/baz', 'unreserved decoded'],
    ['/a%2fb', '/a%2Fb', 'reserved kept, uppercased'],
    ['/%', '/%25', 'lone % encoded'],
    ['/%4', '/%254', 'short escape: its % encoded'],
    ['/%G1', '/%25G1', 'not hex: its % encoded'],
    ['/my file', '/my%20file', 'space encoded'],
    ['/a"<>\\^`{|}b', '/a%22%3C%3E%5C%5E%60%7B%7C%7Db', 'octets outside URIs encoded'],
    ['/a~_-.b', '/a~_-.b', 'unreserved punctuation kept'],
    ['/ツ', '/%E3%83%84', 'non-ASCII encoded'],
    ['/a$b$', '/a%24b$', 'final $ stays the anchor'],
    ['/a*b', '/a*b', '* stays the wildcard in a pattern'],
  ])('pattern %j → %j (%s)', (input, expected) => {
    expect(text(referenceNormalizePatternRfc(utf8(input)))).toBe(expected);
  });
  it.each([
    ['/a*b$', '/a%2Ab%24', 'a URL has no wildcard and no anchor'],
    ['/%7e%7E', '/~~', 'unreserved decoded'],
  ])('path %j → %j (%s)', (input, expected) => {
    expect(text(referenceNormalizePathRfc(utf8(input)))).toBe(expected);
  });
});

// [body, agent, url, allowed, line, note] for the rfc profile, checked by hand against RFC 9309.
const rfcRows: [string, string, string, boolean, number, string][] = [
  ['User-agent: *\nDisallow: /x\n', 'bot', '/x/y', false, 2, '§2.2.2 prefix match'],
  ['User-agent: *\nDisallow: /x\nAllow: /x\n', 'bot', '/x', true, 3, '§2.2.2 allow wins a tie'],
  ['User-agent: *\nDisallow: /x/\nAllow: /x\n', 'bot', '/x/y', false, 2, '§2.2.2 longest match'],
  ['User-agent: a\nDisallow: /\nUser-agent: *\nAllow: /\n', 'A', '/x', false, 2, '§2.2.1 case-insensitive token'],
  ['User-agent: a\nDisallow: /p\nUser-agent: a\nDisallow: /q\n', 'a', '/q', false, 4, '§2.2.1 groups merged'],
  ['User-agent: Foo Bar\nDisallow: /\n', 'foo', '/', false, 2, '§2.3.1.5 a value that is no token names its leading token'],
  ['User-agent: FooBot\nDisallow: /\n', 'foo', '/', true, 0, '§2.2.1 a product token is matched whole'],
  ['Disallow: /\nUser-agent: *\n', 'bot', '/', true, 0, '§2.2.2 rule before any group'],
  ['User-agent: *\nDisallow: /\n', 'bot', '/robots.txt', true, 0, '§2.2.2 /robots.txt implicitly allowed'],
  ['User-agent: *\nDisallow: /%7Ea\n', 'bot', '/~a', false, 2, '§2.2.2 unreserved decoded'],
  ['User-agent: *\nDisallow: /a%2A\n', 'bot', '/a*', false, 2, '§2.2.3 %2A is a literal *'],
  ['User-agent: *\nDisallow:\n', 'bot', '/', true, 0, '§2.2.2 empty pattern is no rule'],
  ['User-agent: *\ndisallow /x\n', 'bot', '/x', true, 0, '§2.2 missing colon is no record'],
];

describe('reference, rfc profile: hand-checked rows', () => {
  it.each(rfcRows)('%j %j %j → %s line %i (%s)', (body, agent, url, allowed, line) => {
    expect(ReferenceRobots.parse(body, { profile: 'rfc' }).explain(url, agent)).toMatchObject({ allowed, line });
  });
});

describe('reference lexer and limits', () => {
  it('numbers lines across CR, LF and CRLF and skips a BOM prefix', () => {
    const body = new Uint8Array([0xef, 0xbb, ...utf8('a:1\rb:2\r\nc:3\n\nd:4')]);
    expect(referenceRecords(body, 'rfc').map((r) => r.line)).toEqual([1, 2, 3, 5]);
  });
  it('google: NUL ends a line, missing colon needs SP/HT, lines keep 16,663 bytes', () => {
    const records = referenceRecords(utf8(`disallow: /a\u0000b\ndisallow /c\ndisallow\u000b/d\nallow: /${'x'.repeat(20000)}`), 'google');
    expect(records.map((r) => text(r.value).length)).toEqual([2, 2, 16663 - 'allow: '.length]);
  });
  it('keeps whole lines under maxBytes', () => {
    expect(referenceLimit(utf8('ab\ncd\n'), 4)).toMatchObject({ truncated: true, bytes: utf8('ab\n') });
    expect(referenceLimit(utf8('ab\ncd\n'), 5)).toMatchObject({ truncated: true, bytes: utf8('ab\ncd') });
  });
  it('splits matchLines input like the Wasm does', () => {
    expect(referenceSplitLines(utf8('a\r\nb\n\nc\r')).map(text)).toEqual(['a', 'b', '', 'c']);
    expect(referenceSplitLines(utf8(''))).toEqual([]);
    expect(referenceSplitLines(utf8('\n')).map(text)).toEqual(['']);
  });
});
