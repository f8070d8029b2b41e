// Compat's fast origin check on the spellings WHATWG URL rejects or rewrites: each must take the WHATWG path and answer as robots-parser does.
import { describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { RobotsOrigin } from '../src/compat-url.js';
import robotsParser from '../src/compat.js';

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
];

describe('compat fast origin check: edge spellings', () => {
  it.each(CASES)('%s: %j (plain %s) → %s', (robotsUrl, url, plain, allowed) => {
    expect(new RobotsOrigin(robotsUrl).plainMatchUrl(url) !== undefined).toBe(plain);
    const ours = robotsParser(robotsUrl, BODY);
    const theirs = theirParser(robotsUrl, BODY);
    expect(ours.isAllowed(url, 'ExampleBot/1.0')).toBe(allowed);
    expect(ours.isAllowed(url, 'ExampleBot/1.0')).toBe(theirs.isAllowed(url, 'ExampleBot/1.0'));
    expect(ours.getMatchingLineNumber(url, 'ExampleBot/1.0')).toBe(theirs.getMatchingLineNumber(url, 'ExampleBot/1.0'));
  });
});
