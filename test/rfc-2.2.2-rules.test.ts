// RFC 9309 §2.2.2 (allow and disallow lines): prefix matching, the most specific match, ties, and /robots.txt.
//
// §2.2.2: "a crawler MUST match the paths in "allow" and "disallow" rules against the URI.
//   The matching SHOULD be case sensitive. The matching MUST start with the first octet of
//   the path. The most specific match found MUST be used. The most specific match is the
//   match that has the most octets. [...] If an "allow" rule and a "disallow" rule are
//   equivalent, then the "allow" rule SHOULD be used. If no match is found amongst the
//   rules in a group for a matching user-agent or there are no rules in the group, the
//   URI is allowed. The /robots.txt URI is implicitly allowed."
//
// Profile difference (asserted): Google's matcher has no implicit /robots.txt allowance,
// and it allows a directory when its "index.htm…" page is allowed (Google-only).
import { describe, expect, it } from 'vitest';
import { evaluateAllPaths } from './helpers/all-paths.js';
import { describeRows, type Row } from './helpers/cases.js';

const ua = (rules: string): string => `user-agent: FooBot\n${rules}`;

const prefixRows: Row[] = [
  [ua('disallow: /x/\n'), 'FooBot', 'http://foo.bar/x/y', false, 'prefix match'],
  [ua('disallow: /X/\n'), 'FooBot', 'http://foo.bar/x/y', true, 'matching is case sensitive'],
  [ua('disallow: /x/\n'), 'FooBot', 'http://foo.bar/X/y', true, 'URL case is kept'],
  [ua('disallow: /x\n'), 'FooBot', '/a/x', true, 'matching starts at the first octet of the path'],
  [ua('disallow: /x\n'), 'FooBot', '/x', false, 'a pattern equal to the path'],
  [ua('disallow: /x\n'), 'FooBot', '/xyz', false, 'a pattern is a prefix, not a segment'],
  [ua('disallow: /xyz\n'), 'FooBot', '/xy', true, 'a pattern longer than the path never matches'],
  [ua('disallow: /\n'), 'FooBot', 'http://foo.bar/', false, '"/" matches the root'],
  [ua('disallow: /\n'), 'FooBot', 'http://foo.bar', false, 'empty path is "/"'],
  [ua('disallow: /\n'), 'FooBot', 'http://foo.bar/any/thing?q=1', false, '"/" matches everything'],
  [ua('disallow: /fish\n'), 'FooBot', '/?id=fish', true, 'query is part of the path but matching starts at "/"'],
  [ua('disallow: /fish.html?id=\n'), 'FooBot', '/fish.html?id=anything', false, 'patterns may include the query'],
  [ua('disallow: /a;b\n'), 'FooBot', '/a;b=c', false, 'params are part of the path'],
  [ua('disallow:\n'), 'FooBot', '/x', true, 'empty disallow: no rule'],
  [ua('disallow: \nallow: \n'), 'FooBot', '/x/page.html', true, 'empty disallow and empty allow'],
  [ua('allow: /x\n'), 'FooBot', '/y', true, 'no rule matches → allowed'],
  [ua(''), 'FooBot', '/y', true, 'no rules in the group → allowed'],
];

// robots_test.cc ID_LongestMatch and spec-test most-specific-match / order-of-precedence.
const specificRows: Row[] = [
  [ua('disallow: /x/page.html\nallow: /x/\n'), 'FooBot', '/x/page.html', false, 'longer disallow wins'],
  [ua('allow: /x/page.html\ndisallow: /x/\n'), 'FooBot', '/x/page.html', true, 'longer allow wins'],
  [ua('allow: /x/page.html\ndisallow: /x/\n'), 'FooBot', '/x/', false, 'only the shorter rule matches'],
  [ua('disallow: /\nallow: /\n'), 'FooBot', '/x/page.html', true, 'equivalent rules: allow wins'],
  [ua('allow: /\ndisallow: /\n'), 'FooBot', '/x/page.html', true, 'equivalent rules, allow written first'],
  [ua('disallow: /x/page.html\nallow: /x/page.html\n'), 'FooBot', '/x/page.html', true, 'equivalent longer rules: allow wins'],
  [ua('allow: /folder\ndisallow: /folder\n'), 'FooBot', '/folder/page', true, 'spec-test order-of-precedence/1'],
  [ua('disallow: /x\nallow: /x/\n'), 'FooBot', '/x', false, 'only /x matches /x'],
  [ua('disallow: /x\nallow: /x/\n'), 'FooBot', '/x/', true, '/x/ is more specific than /x'],
  [ua('allow: /p\ndisallow: /\n'), 'FooBot', '/page', true, 'order-of-precedence/0'],
  [ua('allow: /page\ndisallow: /*.htm\n'), 'FooBot', '/page.htm', false, 'a wildcard pattern counts its octets'],
  [ua('allow: /page\ndisallow: /*.html\n'), 'FooBot', '/page', true, 'a non-matching longer rule is ignored'],
  [ua('allow: /x/page.\ndisallow: /*.html\n'), 'FooBot', '/x/page.html', true, 'longer allow beats wildcard disallow'],
  [ua('allow: /x/page.\ndisallow: /*.html\n'), 'FooBot', '/x/y.html', false, 'the wildcard disallow alone'],
  [ua('allow: /$\ndisallow: /\n'), 'FooBot', '/', true, 'order-of-precedence/3: /$ is longer than /'],
  [ua('allow: /$\ndisallow: /\n'), 'FooBot', '/page.html', false, 'order-of-precedence/3: /$ only matches /'],
  [ua('allow: /a*\ndisallow: /ab\n'), 'FooBot', '/abc', true, 'equal length, one with a wildcard: allow wins'],
  [ua('disallow: /a\ndisallow: /a\nallow: /a\n'), 'FooBot', '/a', true, 'duplicate rules change nothing'],
];

const robotsTxtRows: Row[] = [
  // RFC 9309 §2.2.2: "The /robots.txt URI is implicitly allowed." Google has no such rule.
  [ua('disallow: /\n'), 'FooBot', '/robots.txt', { rfc: true, google: false }, 'relative /robots.txt under disallow: /'],
  [ua('disallow: /\n'), 'FooBot', 'https://example.com/robots.txt', { rfc: true, google: false }, 'absolute /robots.txt'],
  [ua('disallow: /robots.txt\n'), 'FooBot', '/robots.txt', { rfc: true, google: false }, 'even when disallowed by name'],
  ['user-agent: *\ndisallow: /\n', 'AnyBot', 'http://example.com/robots.txt', { rfc: true, google: false }, 'through the * group'],
  [ua('disallow: /\n'), 'FooBot', '/robots.txt/x', false, 'only /robots.txt itself'],
  [ua('disallow: /\n'), 'FooBot', '/ROBOTS.TXT', false, 'the name is all lowercase (§2.3)'],
  [ua('disallow: /\n'), 'FooBot', '/dir/robots.txt', false, 'only in the top-level path (§2.3)'],
  [ua('disallow: /\n'), 'FooBot', '/robots.txtx', false, 'not a prefix allowance'],
  [ua('disallow: /\n'), 'FooBot', '/%72obots.txt', { rfc: true, google: false }, 'the normalized path is /robots.txt'],
  [ua('disallow: /\n'), 'FooBot', '/robots.txt#top', { rfc: true, google: false }, 'the fragment is not part of the path'],
  // Project choice (assembly/url.ts isRobotsTxtPath): a query does not change the file asked for.
  [ua('disallow: /\n'), 'FooBot', '/robots.txt?x=1', { rfc: true, google: false }, 'with a query'],
];

const indexRows: Row[] = [
  // Google-only (GoogleOnly_IndexHTMLisDirectory): "allow: /d/index.htm…" also allows "/d/".
  // RFC 9309 §2.2.2 has no such rule: "/d/" is simply not matched by "/d/index.html".
  ['User-Agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n', 'foobot', '/allowed-slash/', { rfc: false, google: true }, 'index.html allows its directory'],
  ['User-Agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n', 'foobot', '/allowed-slash/index.htm', false, 'index.htm is not matched'],
  ['User-Agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n', 'foobot', '/allowed-slash/index.html', true, 'the page itself'],
  ['User-Agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n', 'foobot', '/anyother-url', false, 'other URLs'],
];

describeRows('RFC 9309 §2.2.2: matching starts at the first octet, case-sensitive, no match → allowed', prefixRows);
describeRows('RFC 9309 §2.2.2: the most specific match MUST be used; allow wins ties', specificRows);
describeRows('RFC 9309 §2.2.2: /robots.txt is implicitly allowed (rfc profile only)', robotsTxtRows);
describeRows('Google-only: index.html allows its directory (not RFC 9309)', indexRows);

describe('explain(): the deciding rule, its 1-based line and its text', () => {
  const body = [
    '# header comment', //          1
    'User-agent: FooBot', //        2
    'Disallow: /private', //        3
    'Allow: /private/open  # ok', // 4
    '', //                          5
    'Disallow: /*.pdf$', //         6
  ].join('\n');
  const cases: [url: string, allowed: boolean, line: number, pattern: string | null][] = [
    ['/private/x', false, 3, '/private'],
    ['/private/open/y', true, 4, '/private/open'],
    ['/doc.pdf', false, 6, '/*.pdf$'],
    ['/public', true, 0, null],
  ];
  for (const profile of ['rfc', 'google'] as const) {
    for (const [url, allowed, line, pattern] of cases) {
      it(`${profile}: ${url} → line ${line}`, () => {
        const e = evaluateAllPaths(body, 'FooBot', url, profile);
        expect(e.allowed).toBe(allowed);
        expect(e.line).toBe(line);
        // The rule text is "allow: " / "disallow: " and the pattern as written (comment and padding stripped).
        expect(e.rule).toBe(pattern === null ? null : `${allowed ? 'allow' : 'disallow'}: ${pattern}`);
      });
    }
  }
  it('rfc: the implicit /robots.txt allowance cites no line', () => {
    expect(evaluateAllPaths(ua('disallow: /\n'), 'FooBot', '/robots.txt', 'rfc')).toEqual({
      allowed: true,
      line: 0,
      rule: null,
    });
  });
  it('lines count CR, LF and CRLF endings alike', () => {
    for (const nl of ['\n', '\r', '\r\n']) {
      const text = ['user-agent: *', '', 'disallow: /a', '', '', 'allow: /a/b'].join(nl);
      for (const profile of ['rfc', 'google'] as const) {
        expect(evaluateAllPaths(text, 'x', '/a/c', profile).line, JSON.stringify(nl)).toBe(3);
        expect(evaluateAllPaths(text, 'x', '/a/b', profile).line, JSON.stringify(nl)).toBe(6);
      }
    }
  });
  it('rule text keeps the pattern as written, before normalization', () => {
    const body = 'user-agent: *\ndisallow: /%7euser/ツ\n';
    for (const profile of ['rfc', 'google'] as const) {
      expect(evaluateAllPaths(body, 'x', '/%7Euser/%E3%83%84', profile).rule).toBe('disallow: /%7euser/ツ');
    }
  });
  it('equal priorities: the allow wins and is cited; among equals the first in file order', () => {
    for (const profile of ['rfc', 'google'] as const) {
      const tie = evaluateAllPaths(ua('disallow: /a\nallow: /a\n'), 'FooBot', '/a', profile);
      expect(tie, profile).toEqual({ allowed: true, line: 3, rule: 'allow: /a' });
      const same = evaluateAllPaths(ua('disallow: /ab\ndisallow: /a*\n'), 'FooBot', '/abc', profile);
      expect(same, profile).toEqual({ allowed: false, line: 2, rule: 'disallow: /ab' });
    }
  });
  it('google: an empty rule matches with priority 0 and is cited (robots.cc matching_line); rfc: it is no rule', () => {
    const body = ua('allow:\ndisallow:\n');
    expect(evaluateAllPaths(body, 'FooBot', '/x', 'google')).toEqual({ allowed: true, line: 2, rule: 'allow: ' });
    expect(evaluateAllPaths(body, 'FooBot', '/x', 'rfc')).toEqual({ allowed: true, line: 0, rule: null });
  });
  it('google: the index.html allowance cites the allow line it comes from', () => {
    const body = 'User-Agent: *\nAllow: /d/index.html\nDisallow: /\n';
    expect(evaluateAllPaths(body, 'x', '/d/', 'google')).toEqual({ allowed: true, line: 2, rule: 'allow: /d/index.html' });
    expect(evaluateAllPaths(body, 'x', '/d/', 'rfc')).toEqual({ allowed: false, line: 3, rule: 'disallow: /' });
  });
  it('a leading BOM does not shift line numbers', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('user-agent: *\ndisallow: /a\n')]);
    expect(evaluateAllPaths(bytes, 'x', '/a', 'rfc').line).toBe(2);
    expect(evaluateAllPaths(bytes, 'x', '/a', 'google').line).toBe(2);
  });
});
