// RFC 9309 §2.2 line syntax as the lexer reads it: line endings, BOM, comments, key case, whitespace, and Google-only leniency.
//
// §2.2 ABNF: startgroupline = *WS "user-agent" *WS ":" *WS product-token EOL
//            rule = *WS ("allow" / "disallow") *WS ":" *WS (path-pattern / empty-pattern) EOL
//            EOL = *WS [comment] NL;  NL = %x0D / %x0A / %x0D.0A;  WS = %x20 / %x09
//            comment = "#" *(UTF8-char-noctl / WS / "#")
// ABNF strings are case-insensitive (RFC 5234 §2.3), so keys match in any case.
// §2.4: "Crawlers MUST try to parse each line of the robots.txt file. Crawlers MUST use
//   the parseable rules."
// §2.2.4: "crawlers MAY be lenient when interpreting other records" — but user-agent,
//   allow and disallow are not other records, so misspellings of them, keys matched by
//   prefix, a missing colon, NUL ending a line and the 16,663-byte line cut are
//   Google-compat only; each difference is asserted below.
import { describe, expect, it } from 'vitest';
import { lexRobots, type Profile } from '../src/index.js';
import { describeRows, utf8, type Row } from './helpers/cases.js';

const BOM = [0xef, 0xbb, 0xbf];
const bytes = (prefix: number[], text: string): Uint8Array => new Uint8Array([...prefix, ...utf8(text)]);
const SPEC_BODY = ['User-Agent: foo', 'Allow: /some/path', 'User-Agent: bar', '', '', 'Disallow: /'];

const lineEndingRows: Row[] = [
  [SPEC_BODY.join('\n') + '\n', 'bar', 'http://example.com/page', false, 'LF (different-line-endings/0)'],
  [SPEC_BODY.join('\r\n') + '\r\n', 'bar', 'http://example.com/page', false, 'CRLF (different-line-endings/1)'],
  [SPEC_BODY.join('\r') + '\r', 'bar', 'http://example.com/page', false, 'CR (different-line-endings/2)'],
  [SPEC_BODY.join('\n'), 'bar', 'http://example.com/page', false, 'no final line ending (different-line-endings/3)'],
  ['User-Agent: foo\nAllow: /some/path\r\nUser-Agent: bar\n\r\n\nDisallow: /', 'bar', '/page', false, 'mixed (different-line-endings/4)'],
  [SPEC_BODY.join('\r') + '\r', 'foo', '/some/path', true, 'CR: the first group'],
  ['User-agent: FooBot\r\rDisallow: /x\r\n\r\nAllow: /x/y', 'FooBot', '/x/z', false, 'CR and CRLF blank lines'],
  ['User-agent: FooBot\rDisallow: /x\rAllow: /x/y\r', 'FooBot', '/x/y', true, 'CR separates rules'],
];

const bomRows: Row[] = [
  // spec-test BOM-characters and robots_test.cc ID_UTF8ByteOrderMarkIsSkipped.
  [bytes(BOM, 'User-Agent: foo\nDisallow: /AnyValue\n'), 'foo', '/AnyValue', false, 'a leading BOM is skipped'],
  ['\uFEFFUser-Agent: foo\nDisallow: /AnyValue\n', 'foo', '/AnyValue', false, 'a leading BOM in a string body'],
  [bytes([0xef, 0xbb], 'User-Agent: foo\nDisallow: /AnyValue\n'), 'foo', '/AnyValue', false, 'two bytes of a BOM are skipped'],
  [bytes([0xef], 'User-Agent: foo\nDisallow: /AnyValue\n'), 'foo', '/AnyValue', false, 'one byte of a BOM is skipped'],
  [bytes([0xef, 0x11, 0xbf], 'User-Agent: foo\nDisallow: /AnyValue\n'), 'foo', '/AnyValue', true, 'not a BOM: the first line is garbage'],
  ['User-Agent: foo\n\uFEFFDisallow: /AnyValue\n', 'foo', '/AnyValue', true, 'a BOM later in the file is not skipped'],
  [bytes([...BOM, ...BOM], 'User-Agent: foo\nDisallow: /AnyValue\n'), 'foo', '/AnyValue', true, 'only one BOM is skipped'],
  [bytes(BOM, '\nUser-Agent: foo\nDisallow: /AnyValue\n'), 'foo', '/AnyValue', false, 'a BOM on an empty first line'],
];

const syntaxRows: Row[] = [
  ['USER-AGENT: FooBot\nALLOW: /x/\nDISALLOW: /\n', 'FooBot', '/x/y', true, 'upper-case keys (directives-case-insensitivity/0)'],
  ['USER-AGENT: FooBot\nALLOW: /x/\nDISALLOW: /\n', 'FooBot', '/a/b', false, 'upper-case keys, disallow'],
  ['uSeR-aGeNt: FooBot\nAlLoW: /x/\ndIsAlLoW: /\n', 'FooBot', '/x/y', true, 'mixed-case keys (directives-case-insensitivity/2)'],
  ['uSeR-aGeNt: FooBot\nAlLoW: /x/\ndIsAlLoW: /\n', 'FooBot', '/a/b', false, 'mixed-case keys, disallow'],
  ['user-agent:FooBot\ndisallow:/\n', 'FooBot', '/x', false, 'no whitespace around ":"'],
  ['user-agent :FooBot\ndisallow : /\n', 'FooBot', '/x', false, 'whitespace before ":"'],
  ['user-agent \t:\t FooBot\t\ndisallow\t:\t/\t\n', 'FooBot', '/x', false, 'tabs and spaces around ":" and at the end'],
  ['   user-agent: FooBot\n\t\tdisallow: /\n', 'FooBot', '/x', false, 'leading whitespace before the key'],
  ['\n\n\nuser-agent: FooBot\n\n\ndisallow: /\n\n', 'FooBot', '/x', false, 'empty lines anywhere'],
  ['user-agent: FooBot\ndisallow: /a b\n', 'FooBot', '/a b', false, 'a space inside a value is kept'],
  ['user-agent: FooBot\ndisallow: /a b\n', 'FooBot', '/a', true, 'a space inside a value does not end it'],
  ['user-agent: FooBot\ndisallow#: /x\n', 'FooBot', '/x', true, '"#" before the colon comments out the value'],
  ['user-agent: FooBot\n: /x\n', 'FooBot', '/x', true, 'a line with no key'],
  ['foo: FooBot\nbar: /\n', 'FooBot', '/x/y', true, 'unknown keys only (accepted-mistakes/1)'],
  ['user-agent: FooBot\ndisallow: /x: y\n', 'FooBot', '/x: y', false, 'only the first colon separates'],
  ['user-agent: FooBot\ndisallow: /x: y\n', 'FooBot', '/x', true, 'only the first colon separates (prefix)'],
  ['user-agent: FooBot\ndisallow /x /y\n', 'FooBot', '/x', true, 'three tokens and no colon: not a record'],
  ['user-agent: FooBot\ndisallow\n', 'FooBot', '/', true, 'a key without colon or value'],
];

// Google-compat (robots.cc) leniency that RFC 9309 §2.2 does not allow for its own keys.
const googleOnlyRows: Row[] = [
  ['user-agent FooBot\ndisallow /\n', 'FooBot', '/x/y', { rfc: true, google: false }, 'missing colon (accepted-mistakes/2)'],
  ['user-agent: FooBot\ndisallow\t/x\n', 'FooBot', '/x', { rfc: true, google: false }, 'missing colon, tab separated'],
  ['useragent: FooBot\ndisallow: /\n', 'FooBot', '/x', { rfc: true, google: false }, '"useragent"'],
  ['user agent: FooBot\ndisallow: /\n', 'FooBot', '/x', { rfc: true, google: false }, '"user agent"'],
  ['user-agents: FooBot\ndisallow: /\n', 'FooBot', '/x', { rfc: true, google: false }, 'a key that starts with "user-agent"'],
  ...['dissallow', 'dissalow', 'disalow', 'diasllow', 'disallaw'].map(
    (key): Row => [`user-agent: FooBot\n${key}: /\n`, 'FooBot', '/x', { rfc: true, google: false }, `"${key}"`],
  ),
  ['user-agent: FooBot\ndisallowed: /\n', 'FooBot', '/x', { rfc: true, google: false }, 'a key that starts with "disallow"'],
  ['user-agent: FooBot\ndisallow: /\nallowance: /x\n', 'FooBot', '/x', { rfc: false, google: true }, 'a key that starts with "allow"'],
  // robots.cc GetKeyAndValueFrom: without a colon only SP and HT separate key and value
  // (kWhite = " \t"), while trimming uses the wider ASCII whitespace set (VT, FF too).
  ['user-agent: FooBot\ndisallow\u000b/x\n', 'FooBot', '/x', true, 'missing colon: VT is not a separator'],
  ['user-agent: FooBot\ndisallow\u000c/x\n', 'FooBot', '/x', true, 'missing colon: FF is not a separator'],
  ['user-agent: FooBot\ndisallow \u000b /x\n', 'FooBot', '/x', true, 'missing colon: SP VT SP splits three ways'],
  ['user-agent: FooBot\ndisallow /a\u000bb\n', 'FooBot', '/a\u000bb', { rfc: true, google: false }, 'missing colon: VT inside the value'],
  ['user-agent: FooBot\ndisallow: /a\u0000bc\n', 'FooBot', '/a', { rfc: true, google: false }, 'NUL ends the line (C string)'],
  ['user-agent: FooBot\ndisallow: /a\u0000bc\n', 'FooBot', '/abc', { rfc: true, google: false }, 'NUL ends the line: the rest is lost'],
];

describeRows('RFC 9309 §2.2: NL = CR / LF / CRLF', lineEndingRows);
describeRows('UTF-8 byte order mark (spec-test BOM-characters)', bomRows);
describeRows('RFC 9309 §2.2: keys are case-insensitive, WS around ":" optional, "#" starts a comment', syntaxRows);
describeRows('Google-compat only: misspelt keys, keys by prefix, missing colon, NUL', googleOnlyRows);

type Event = [kind: string, ...parts: (string | number)[]];

function events(body: string | Uint8Array, profile: Profile): { list: Event[]; lineCount: number } {
  const decoder = new TextDecoder();
  const list: Event[] = [];
  const text = (b: Uint8Array): string => decoder.decode(b);
  const lineCount = lexRobots(typeof body === 'string' ? utf8(body) : body, {
    userAgent: (v, line) => list.push(['userAgent', text(v), line]),
    allow: (v, line) => list.push(['allow', text(v), line]),
    disallow: (v, line) => list.push(['disallow', text(v), line]),
    sitemap: (v, line) => list.push(['sitemap', text(v), line]),
    other: (k, v, line) => list.push(['other', text(k), text(v), line]),
    comment: (t, line) => list.push(['comment', text(t), line]),
    invalid: (t, line) => list.push(['invalid', text(t), line]),
  }, profile);
  // File order across lines; within one line the order of comment vs record is free.
  const lineOf = (e: Event): number => e[e.length - 1] as number;
  list.sort((a, b) => lineOf(a) - lineOf(b) || a[0].localeCompare(b[0]));
  return { list, lineCount };
}

describe('lexRobots: events, values and 1-based lines', () => {
  const body = [
    '# top', //                               1
    'User-agent: FooBot # me', //             2
    'Disallow:/a', //                         3
    '  allow :  /b  ', //                     4
    'Sitemap: https://s.example/s.xml', //    5
    'Crawl-delay: 1', //                      6
    'junk line here', //                      7
    '', //                                    8
    'disallow:', //                           9
  ].join('\n') + '\n';
  for (const profile of ['rfc', 'google'] as const) {
    it(`${profile}: one event per record, comment text keeps its "#"`, () => {
      expect(events(body, profile)).toEqual({
        list: [
          ['comment', '# top', 1],
          ['comment', '# me', 2],
          ['userAgent', 'FooBot', 2],
          ['disallow', '/a', 3],
          ['allow', '/b', 4],
          ['sitemap', 'https://s.example/s.xml', 5],
          ['other', 'Crawl-delay', '1', 6],
          ['invalid', 'junk line here', 7],
          ['disallow', '', 9],
        ],
        lineCount: 9,
      });
    });
  }
  it('line numbers: CR, LF and CRLF each end one line; CR CR LF is two', () => {
    const { list, lineCount } = events('a: 1\r\nb: 2\rc: 3\nd: 4\r\r\ne: 5', 'rfc');
    expect(list.map((e) => [e[1], e[3]])).toEqual([['a', 1], ['b', 2], ['c', 3], ['d', 4], ['e', 6]]);
    expect(lineCount).toBe(6);
  });
  it('a leading BOM is not part of the first key and does not add a line', () => {
    expect(events(bytes(BOM, 'user-agent: x\n'), 'rfc').list).toEqual([['userAgent', 'x', 1]]);
  });
  it('rfc: misspelt keys are other records with the key as written; a missing colon is invalid', () => {
    expect(events('Useragent: x\nDisalow: /y\nuser-agent x\n', 'rfc').list).toEqual([
      ['other', 'Useragent', 'x', 1],
      ['other', 'Disalow', '/y', 2],
      ['invalid', 'user-agent x', 3],
    ]);
  });
  it('google: the same lines are read as user-agent, disallow and user-agent', () => {
    expect(events('Useragent: x\nDisalow: /y\nuser-agent x\n', 'google').list).toEqual([
      ['userAgent', 'x', 1],
      ['disallow', '/y', 2],
      ['userAgent', 'x', 3],
    ]);
  });
  it('google: NUL ends the line; rfc keeps the byte', () => {
    const body = 'disallow: /a\u0000b # c\n';
    expect(events(body, 'google').list).toEqual([['disallow', '/a', 1]]);
    expect(events(body, 'rfc').list).toEqual([
      ['comment', '# c', 1],
      ['disallow', '/a\u0000b', 1],
    ]);
  });
});
