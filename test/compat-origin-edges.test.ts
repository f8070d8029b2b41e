// Compat's fast origin check (the JS pattern and the Wasm one, matchOnOrigin) on the spellings WHATWG URL rejects or rewrites: each must take the WHATWG path and answer as robots-parser does.
import { describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { RobotsOrigin } from '../src/compat-url.js';
import robotsParser from '../src/compat.js';
import { Robots } from '../src/robots.js';
import { getEngine, MATCH_NOT_PLAIN, ORIGIN_MAX_BYTES } from '../src/wasm/index.js';

type Parser = (url: string, body: string) => { isAllowed(url: string, ua?: string): boolean | undefined; getMatchingLineNumber(url: string, ua?: string): number };
const theirParser = createRequire(import.meta.url)('robots-parser') as Parser;

const BODY = 'User-agent: *\nDisallow: /x\nAllow: /\n';

// [robots.txt URL, crawl URL, takes the plain (unparsed) path, isAllowed]
const CASES: Array<[string, string, boolean, boolean | undefined]> = [
  ['http://example.com/robots.txt', 'http://example.com/x', true, false],
  ['http://example.com/robots.txt', 'http://example.com/y', true, true],
  ['http://example.com/robots.txt', 'http://example.com', true, true], // no path: '/'
  ['http://example.com/robots.txt', 'http://example.com?q', true, true],
  ['http://example.com/robots.txt', 'http://example.com#x', true, true], // the fragment is no path
  ['http://example.com/robots.txt', 'HTTP://Example.com/x', false, false], // scheme and host lowercased
  ['http://example.com/robots.txt', 'http://EXAMPLE.COM/x', false, false],
  ['http://example.com/robots.txt', 'http://example.com:80/x', false, false], // default port dropped
  ['http://example.com/robots.txt', 'http://example.com:080/x', false, false],
  ['http://example.com/robots.txt', 'http://example.com:8080/x', false, undefined],
  ['http://example.com/robots.txt', 'http://user@example.com/x', false, false], // userinfo is not part of the origin
  ['http://example.com/robots.txt', 'http://user:pw@example.com/y', false, true],
  ['http://example.com/robots.txt', 'http://example.com.evil/x', false, undefined], // a longer host
  ['http://example.com/robots.txt', 'http://example.com./x', false, undefined],
  ['http://example.com/robots.txt', 'http://example.co/x', false, undefined],
  ['http://example.com/robots.txt', 'https://example.com/x', false, undefined],
  ['http://example.com/robots.txt', 'http://example.com\\x/', false, false], // '\' is '/' in special URLs
  ['http://example.com/robots.txt', 'http:\\\\example.com/x', false, false],
  ['http://example.com/robots.txt', 'http://example.com/\tx', false, false], // tabs and newlines are removed
  ['http://example.com/robots.txt', 'http://exam\nple.com/x', false, false],
  ['http://example.com/robots.txt', ' http://example.com/x', false, false], // leading space trimmed
  ['http://example.com/robots.txt', 'http://%65xample.com/x', false, false], // percent-encoded host decoded
  ['http://example.com/robots.txt', 'http://example.com/./x', false, false], // dot segments resolved
  ['http://example.com/robots.txt', 'http://example.com/y/../x', false, false],
  ['http://example.com/robots.txt', 'http://example.com/%2e/x', false, false],
  ['http://bücher.example/robots.txt', 'http://xn--bcher-kva.example/x', true, false], // IDN: the origin is punycode
  ['http://bücher.example/robots.txt', 'http://bücher.example/x', false, false],
  ['http://bücher.example/robots.txt', 'http://BÜCHER.example/y', false, true],
  ['http://xn--bcher-kva.example/robots.txt', 'http://bücher.example/x', false, false],
  // WHATWG keeps ';' in a host; the matcher would end the authority there and read '/;b.test/x'.
  ['http://a;b.test/robots.txt', 'http://a;b.test/x', false, false],
  ['http://a;b.test/robots.txt', 'http://a;b.test/y', false, true],
  // What follows the origin, byte by byte (the Wasm check reads UTF-8 bytes, the pattern UTF-16 units).
  ['http://example.com/robots.txt', 'http://example.com/x?', false, false], // an empty query: WHATWG drops the '?'
  ['http://example.com/robots.txt', 'http://example.com/x?#f', false, false],
  ['http://example.com/robots.txt', 'http://example.com/x?a=1&b=/c?d#f', true, false],
  ['http://example.com/robots.txt', 'http://example.com/x?a"b', false, false], // '"' is percent-encoded in a query
  ['http://example.com/robots.txt', "http://example.com/y?a'b", false, true],
  ['http://example.com/robots.txt', 'http://example.com/x?a b', false, false],
  ['http://example.com/robots.txt', 'http://example.com/y/a.b/c./%2f;p=1:@!$&()*+,~_-', true, true], // dots inside segments
  ['http://example.com/robots.txt', 'http://example.com/y/%2E%2E/x', false, false],
  ['http://example.com/robots.txt', 'http://example.com/y/.hidden', false, true], // a segment starting with '.' may be a dot segment
  ['http://example.com/robots.txt', 'http://example.com/y/%2', true, true], // '%2' then the end: no dot escape
  ['http://example.com/robots.txt', 'http://example.com/y/x%2ey', true, true],
  ['http://example.com/robots.txt', 'http://example.com/xé', false, false], // non-ASCII is percent-encoded
  ['http://example.com/robots.txt', 'http://example.com/x\uD800', false, false], // a lone surrogate (U+FFFD in UTF-8)
  ['http://example.com/robots.txt', 'http://example.com/x|y', false, false],
  ['http://example.com/robots.txt', 'http://example.com/x\u0000', false, false],
  ['http://example.com/robots.txt', 'http://example.com/x#frag with spaces\tand\u00e9', true, false], // the fragment is not read
  ['http://example.com/robots.txt', 'http://example.com//x', true, true], // an empty first segment: path '//x'
  ['http://example.com/robots.txt', 'http://example.co', false, undefined], // a prefix of the origin
  ['http://example.com/robots.txt', 'http://example.comx/x', false, undefined],
  ['http://example.com:8080/robots.txt', 'http://example.com:8080/x', true, false],
  ['http://example.com:8080/robots.txt', 'http://example.com:8080', true, true],
  ['http://example.com:8080/robots.txt', 'http://example.com:80800/x', false, undefined],
  ['http://[::1]/robots.txt', 'http://[::1]/x', true, false],
  ['http://[::1]/robots.txt', 'http://[0::1]/x', false, false],
  ['https://example.com/robots.txt', 'https://example.com/x', true, false],
  ['/robots.txt', '/x', false, false], // relative: always parsed
];

const encoder = new TextEncoder();
const table = Robots.parse(BODY, { profile: 'rfc' }).forAgent('examplebot').table;

/** Whether the Wasm check (matchOnOrigin) takes `url` as plainly on the origin of `robotsUrl`. */
function wasmPlain(robotsUrl: string, url: string): boolean {
  const origin = new RobotsOrigin(robotsUrl).plainOrigin;
  if (origin === null) return false;
  return getEngine().matchOnOrigin(table, url, encoder.encode(origin), null) !== MATCH_NOT_PLAIN;
}

describe('compat fast origin check: edge spellings', () => {
  it.each(CASES)('%s: %j (plain %s) → %s', (robotsUrl, url, plain, allowed) => {
    expect(new RobotsOrigin(robotsUrl).plainMatchUrl(url) !== undefined).toBe(plain);
    expect(wasmPlain(robotsUrl, url), 'the Wasm check').toBe(plain);
    const ours = robotsParser(robotsUrl, BODY);
    const theirs = theirParser(robotsUrl, BODY);
    expect(ours.isAllowed(url, 'ExampleBot/1.0')).toBe(allowed);
    expect(ours.isAllowed(url, 'ExampleBot/1.0')).toBe(theirs.isAllowed(url, 'ExampleBot/1.0'));
    expect(ours.getMatchingLineNumber(url, 'ExampleBot/1.0')).toBe(theirs.getMatchingLineNumber(url, 'ExampleBot/1.0'));
  });
});

describe('compat fast origin check: what the Wasm check declines', () => {
  const origin = encoder.encode('http://example.com');

  it('a URL the io regions would have to grow for, and one over maxUrlBytes, go the general way', () => {
    const long = `http://example.com/${'a'.repeat(1 << 16)}`;
    expect(getEngine().matchOnOrigin(table, long, origin, null)).toBe(MATCH_NOT_PLAIN);
    expect(robotsParser('http://example.com/robots.txt', BODY).isAllowed(long, 'ExampleBot')).toBe(true);
  });

  it('answers the deciding line with the verdict, and keeps up when the origin array changes', () => {
    const line = new Uint32Array(1);
    expect(getEngine().matchOnOrigin(table, 'http://example.com/x1', origin, line)).toBe(0);
    expect(line[0]).toBe(2);
    expect(getEngine().matchOnOrigin(table, 'http://example.com/x1', encoder.encode('http://example.org'), line)).toBe(MATCH_NOT_PLAIN);
    expect(getEngine().matchOnOrigin(table, 'http://example.org/y', encoder.encode('http://example.org'), line)).toBe(1);
    expect(line[0]).toBe(3);
    expect(getEngine().matchOnOrigin(table, 'http://example.org/y', origin, line)).toBe(MATCH_NOT_PLAIN);
  });

  it('every ASCII byte after the origin, at a segment start, inside a segment and in a query: the Wasm check agrees with the pattern', () => {
    const robotsOrigin = new RobotsOrigin('http://example.com/robots.txt');
    const shapes = (ch: string): string[] => [
      `http://example.com${ch}`, `http://example.com${ch}x`, `http://example.com/${ch}`, `http://example.com/${ch}x/y`, `http://example.com/a${ch}b`,
      `http://example.com/a/${ch}`, `http://example.com/a?${ch}`, `http://example.com/a?b${ch}c#d`, `http://example.com/a#${ch}`,
      `http://example.com/%2${ch}`, `http://example.com/a/%2${ch}/b`, `http://example.com/${'a'.repeat(15)}/${ch}`,
    ];
    let plain = 0;
    for (let code = 0; code < 0x80; code++) {
      for (const url of shapes(String.fromCharCode(code))) {
        const byPattern = robotsOrigin.plainMatchUrl(url) !== undefined;
        if (byPattern) plain++;
        expect(getEngine().matchOnOrigin(table, url, origin, null) !== MATCH_NOT_PLAIN, JSON.stringify(url)).toBe(byPattern);
      }
    }
    expect(plain).toBeGreaterThan(500);
  });

  it('a User-Agent of another type still gets undefined for a foreign URL, and its TypeError for one on the origin', () => {
    const ours = robotsParser('http://example.com/robots.txt', BODY);
    expect(ours.isAllowed('http://other.test/x', 42 as unknown as string)).toBeUndefined();
    expect(() => ours.isAllowed('http://example.com/x', 42 as unknown as string)).toThrow(/ua must be a string or undefined, got/);
  });

  it('refuses an origin longer than its region', () => {
    expect(() => getEngine().matchOnOrigin(table, '/x', new Uint8Array(ORIGIN_MAX_BYTES + 1), null)).toThrow(/at most 512 bytes expected, got 513/);
  });

  it('an origin too long for the region keeps compat on the JS path, with the same answers', () => {
    const host = `${'a'.repeat(63)}.`.repeat(9) + 'test';
    const robotsUrl = `http://${host}/robots.txt`;
    expect(new RobotsOrigin(robotsUrl).plainOrigin!.length).toBeGreaterThan(ORIGIN_MAX_BYTES);
    const ours = robotsParser(robotsUrl, BODY);
    const theirs = theirParser(robotsUrl, BODY);
    for (const url of [`http://${host}/x`, `http://${host}/y`, `http://${host.toUpperCase()}/x`, 'http://example.com/x']) {
      expect(ours.isAllowed(url, 'ExampleBot/1.0'), url).toBe(theirs.isAllowed(url, 'ExampleBot/1.0'));
    }
  });
});
