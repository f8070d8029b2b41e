// RFC 9309 §2.2.2 percent-encoding before comparison, and which part of a URL is compared (path+params+query).
//
// §2.2.2: "Octets in the URI and robots.txt paths outside the range of the ASCII coded
//   character set, and those in the reserved range defined by [RFC3986], MUST be
//   percent-encoded as defined by [RFC3986] prior to comparison. If a percent-encoded
//   ASCII octet is encountered in the URI, it MUST be unencoded prior to comparison,
//   unless it is a reserved character in the URI as defined by [RFC3986] or the
//   character is outside the unreserved character range."
//
// The rfc profile normalizes BOTH sides (rule patterns and URLs): octets ≥ 0x80 encoded,
// %XX of unreserved characters decoded, remaining escapes uppercased. Deliberately, it
// does NOT percent-encode reserved characters such as ":" and "/" that appear literally
// inside a query (docs/PROFILES.md explains why: rewriting a URL's own delimiters would change
// which rules match ordinary URLs): so "https%3A%2F%2F" in a rule does not match
// "https://" in a URL, and each spelling matches itself.
// The google profile normalizes only patterns (robots.cc MaybeEscapePattern: octets ≥ 0x80
// encoded, escape hex uppercased, nothing decoded) and compares the URL as given.
import { describe, expect, it } from 'vitest';
import { toMatchPath } from '../src/index.js';
import { describeRows, type Row } from './helpers/cases.js';

const allowOnly = (pattern: string): string => `User-agent: FooBot\nDisallow: /\nAllow: ${pattern}\n`;

// The table of RFC 9309 §2.2.2, one row per line of it, plus the reverse spellings.
const tableRows: Row[] = [
  [allowOnly('/foo/bar?baz=quz'), 'FooBot', '/foo/bar?baz=quz', true, 'table row 1: plain path and query'],
  [allowOnly('/foo/bar?baz=https://foo.bar'), 'FooBot', '/foo/bar?baz=https://foo.bar', true, 'table row 2: literal https:// in both'],
  [allowOnly('/foo/bar?baz=https%3A%2F%2Ffoo.bar'), 'FooBot', '/foo/bar?baz=https%3A%2F%2Ffoo.bar', true, 'table row 2: encoded in both'],
  [allowOnly('/foo/bar?baz=https%3A%2F%2Ffoo.bar'), 'FooBot', '/foo/bar?baz=https://foo.bar', false, 'reserved chars are not encoded: encoded rule vs literal URL'],
  [allowOnly('/foo/bar?baz=https://foo.bar'), 'FooBot', '/foo/bar?baz=https%3A%2F%2Ffoo.bar', false, 'reserved escapes are not decoded: literal rule vs encoded URL'],
  [allowOnly('/foo/bar?baz=https%3a%2f%2ffoo.bar'), 'FooBot', '/foo/bar?baz=https%3A%2F%2Ffoo.bar', true, 'rule escapes uppercased'],
  [allowOnly('/foo/bar?baz=https%3A%2F%2Ffoo.bar'), 'FooBot', '/foo/bar?baz=https%3a%2f%2ffoo.bar', { rfc: true, google: false }, 'URL escapes uppercased (rfc only)'],
  [allowOnly('/foo/bar/ツ'), 'FooBot', '/foo/bar/%E3%83%84', true, 'table row 3: UTF-8 rule vs encoded URL'],
  [allowOnly('/foo/bar/ツ'), 'FooBot', '/foo/bar/ツ', { rfc: true, google: false }, 'UTF-8 rule vs UTF-8 URL: URL encoded (rfc only)'],
  [allowOnly('/foo/bar/%E3%83%84'), 'FooBot', '/foo/bar/%E3%83%84', true, 'table row 4: encoded in both'],
  [allowOnly('/foo/bar/%E3%83%84'), 'FooBot', '/foo/bar/ツ', { rfc: true, google: false }, 'encoded rule vs UTF-8 URL (rfc only)'],
  [allowOnly('/foo/bar/%e3%83%84'), 'FooBot', '/foo/bar/%E3%83%84', true, 'lowercase escapes in the rule are uppercased'],
  [allowOnly('/foo/bar/%E3%83%84'), 'FooBot', '/foo/bar/%e3%83%84', { rfc: true, google: false }, 'lowercase escapes in the URL (rfc only)'],
  [allowOnly('/foo/bar/%62%61%7A'), 'FooBot', '/foo/bar/baz', { rfc: true, google: false }, 'table row 5: unreserved escapes decoded (rfc only)'],
  [allowOnly('/foo/bar/%62%61%7A'), 'FooBot', '/foo/bar/%62%61%7A', true, 'unreserved escapes on both sides'],
  [allowOnly('/foo/bar/%62%61%7a'), 'FooBot', '/foo/bar/%62%61%7A', true, 'mixed-case unreserved escapes'],
  [allowOnly('/foo/bar/baz'), 'FooBot', '/foo/bar/%62%61%7A', { rfc: true, google: false }, 'URL escapes of unreserved chars decoded (rfc only)'],
  [allowOnly('/foo/bar/%62%61%7A'), 'FooBot', '/foo/bar/%62%61%7a', { rfc: true, google: false }, 'URL lowercase escape of an unreserved char'],
];

const unreservedRows: Row[] = [
  // RFC 3986 §2.3 unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~": escapes of these are decoded (rfc).
  [allowOnly('/%7Euser'), 'FooBot', '/~user', { rfc: true, google: false }, '%7E ≡ ~'],
  [allowOnly('/~user'), 'FooBot', '/%7euser', { rfc: true, google: false }, '~ ≡ %7e'],
  [allowOnly('/a%2Db%2Ec%5Fd'), 'FooBot', '/a-b.c_d', { rfc: true, google: false }, '%2D %2E %5F'],
  [allowOnly('/%41%5A%30%39'), 'FooBot', '/AZ09', { rfc: true, google: false }, 'letters and digits'],
  [allowOnly('/%41'), 'FooBot', '/a', false, 'decoding keeps case: %41 is A, not a'],
  // Reserved characters stay encoded: %2F is not "/", %3F is not "?".
  [allowOnly('/a%2Fb'), 'FooBot', '/a/b', false, '%2F does not match /'],
  [allowOnly('/a/b'), 'FooBot', '/a%2Fb', false, '/ does not match %2F'],
  [allowOnly('/a%2fb'), 'FooBot', '/a%2Fb', true, '%2f in the rule is uppercased'],
  [allowOnly('/a%2Fb'), 'FooBot', '/a%2fb', { rfc: true, google: false }, '%2f in the URL is uppercased (rfc only)'],
  [allowOnly('/a%3Fb'), 'FooBot', '/a?b', false, '%3F does not match ?'],
  // Not an escape: a "%" without two hex digits is a literal percent sign; the rfc profile
  // encodes it as %25 on both sides (RFC 3986 §2.4), so it matches itself and %25.
  [allowOnly('/100%'), 'FooBot', '/100%', true, 'trailing %'],
  [allowOnly('/100%'), 'FooBot', '/100%25', true, 'a lone % is %25 in rfc (in google it is just a prefix)'],
  [allowOnly('/100%25'), 'FooBot', '/100%', { rfc: true, google: false }, '%25 in the rule matches a lone % (rfc only)'],
  [allowOnly('/a%zz'), 'FooBot', '/a%zz', true, '% followed by non-hex'],
  [allowOnly('/a%4'), 'FooBot', '/a%4', true, '% followed by one hex digit at the end'],
  [allowOnly('/a%2'), 'FooBot', '/a%2F', { rfc: false, google: true }, 'an incomplete escape is %25 in rfc, so no longer a prefix of %2F'],
  // Octets RFC 3986 never allows in a URI compare in their percent-encoded form (rfc only).
  [allowOnly('/my file'), 'FooBot', '/my%20file', { rfc: true, google: false }, 'a space in the rule matches %20'],
  [allowOnly('/my%20file'), 'FooBot', '/my file', { rfc: true, google: false }, '%20 in the rule matches a raw space'],
  [allowOnly('/a"b'), 'FooBot', '/a%22b', { rfc: true, google: false }, '" ≡ %22'],
  [allowOnly('/a{b}|c'), 'FooBot', '/a%7Bb%7D%7Cc', { rfc: true, google: false }, '{ } | ≡ %7B %7D %7C'],
  [allowOnly('/a^b`c\\d'), 'FooBot', '/a%5Eb%60c%5Cd', { rfc: true, google: false }, '^ ` \\ ≡ %5E %60 %5C'],
  [allowOnly('/a<b>'), 'FooBot', '/a%3cb%3e', { rfc: true, google: false }, '< > ≡ %3C %3E, URL escapes uppercased'],
  [allowOnly('/a~b'), 'FooBot', '/a%7Eb', { rfc: true, google: false }, 'unreserved ~ still decoded, not encoded'],
  // Non-ASCII octets of other scripts.
  [allowOnly('/é'), 'FooBot', '/%C3%A9', true, 'é (U+00E9) as UTF-8 escapes'],
  [allowOnly('/%C3%A9'), 'FooBot', '/é', { rfc: true, google: false }, 'é in the URL encoded (rfc only)'],
  [allowOnly('/😀'), 'FooBot', '/%F0%9F%98%80', true, 'astral-plane character'],
];

describeRows('RFC 9309 §2.2.2: the percent-encoding table', tableRows);
describeRows('RFC 9309 §2.2.2: unreserved decoded, reserved kept, non-ASCII encoded', unreservedRows);

// robots.cc GetPathParamsQuery, which both profiles use to cut a URL down to what is compared.
const extraction: [url: string, path: string, note: string][] = [
  ['', '/', 'empty URL'],
  ['http://www.example.com', '/', 'no path: "/"'],
  ['http://www.example.com/', '/', 'root'],
  ['https://www.example.com/a/b', '/a/b', 'absolute https URL'],
  ['ftp://ftp.example.com/pub/x', '/pub/x', 'another scheme'],
  ['http://user:pw@www.example.com:8080/a', '/a', 'userinfo and port dropped'],
  ['/a/b?c=d', '/a/b?c=d', 'relative URL'],
  ['/a#frag', '/a', 'fragment dropped (relative)'],
  ['http://h/a/b?c=d&e=f#fragment', '/a/b?c=d&e=f', 'fragment dropped (absolute)'],
  ['http://h#frag/x', '/', 'fragment before any path'],
  ['http://h?q=1', '/?q=1', 'query without path gets a "/"'],
  ['http://h;p=1', '/;p=1', 'params without path get a "/"'],
  ['http://h/a;p=1?q', '/a;p=1?q', 'params kept'],
  ['http://h/a/b?c=http://d.e/', '/a/b?c=http://d.e/', 'a URL inside the query'],
  ['//h/a', '/a', 'scheme-relative URL'],
  ['example.com/a', '/a', 'no scheme'],
];

describe('URL → path+params+query (toMatchPath)', () => {
  for (const profile of ['rfc', 'google'] as const) {
    for (const [url, path, note] of extraction) {
      it(`${profile}: ${note}: ${JSON.stringify(url)} → ${path}`, () => {
        expect(toMatchPath(url, profile)).toBe(path);
      });
    }
  }
  it('rfc normalizes the URL, google keeps it as given', () => {
    expect(toMatchPath('http://h/foo/%62%61%7a/ツ?x=%2f', 'rfc')).toBe('/foo/baz/%E3%83%84?x=%2F');
    expect(toMatchPath('http://h/foo/%62%61%7a/ツ?x=%2f', 'google')).toBe('/foo/%62%61%7a/ツ?x=%2f');
  });
  it('the default profile is rfc', () => {
    expect(toMatchPath('/%7Euser')).toBe('/~user');
  });
});

// The extracted path is exactly what rules see: "allow: <path>$" must decide for the URL.
const extractionRows: Row[] = extraction.map(([url, path, note]) => [
  `user-agent: *\ndisallow: /\nallow: ${path}$\n`,
  'FooBot',
  url,
  true,
  `rules see ${path} (${note})`,
]);
describeRows('URL extraction as the matcher sees it', [
  ...extractionRows,
  ['user-agent: *\ndisallow: /a$\n', 'FooBot', '/a#frag', false, 'a fragment does not defeat an anchored rule'],
  ['user-agent: *\ndisallow: /a?\n', 'FooBot', 'http://h/a?', false, 'an empty query is kept'],
  // Google-compat: robots.cc hands the matcher path.c_str(), so a NUL byte ends the path.
  ['user-agent: *\ndisallow: /a$\n', 'FooBot', '/a\u0000b', { rfc: true, google: false }, 'NUL in the URL ends the path (google)'],
]);
