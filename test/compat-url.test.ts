// Compat's plain-URL path (a byte comparison with the origin) answers exactly as its WHATWG URL path, on generated and hand-picked tricky URLs.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { RobotsOrigin } from '../src/compat-url.js';
import robotsParser, { reduceUserAgent } from '../src/compat.js';
import { matcherForReducedName } from '../src/robots.js';
import { toMatchPath } from '../src/paths.js';
import { getEngine, MATCH_NOT_PLAIN } from '../src/wasm/index.js';

const ROBOTS_URLS = [
  'https://a.test/robots.txt',
  'http://a.test:8080/robots.txt',
  'https://user:pw@a.test/robots.txt',
  'https://café.test/robots.txt',
  'http://[::1]/robots.txt',
  'http://127.0.0.1/robots.txt',
  'HTTPS://A.TEST:443/robots.txt',
  '/robots.txt',
  'ftp://a.test/robots.txt',
  'file:///robots.txt',
  'not a url',
];

// Spellings of (and near) the origins above: only the exact serialization may take the plain path.
const ORIGINS = [
  'https://a.test', 'http://a.test', 'https://A.test', 'https://a.test:443', 'https://a.test:8443', 'http://a.test:8080',
  'https://user@a.test', 'https://a.test.', 'HTTPS://a.test', ' https://a.test', '\thttps://a.test', 'https:\\\\a.test',
  'https:a.test', 'https:///a.test', 'https://xn--caf-dma.test', 'https://café.test', 'https://CAFÉ.test', 'http://[::1]',
  'http://[0::1]', 'http://127.0.0.1', 'http://0x7f.0.0.1', 'http://127.1', 'https://a.test.evil', 'https://a.tes', '',
  '//a.test', 'file://', 'ftp://a.test',
];

// Pieces of paths, queries and fragments, each a way WHATWG URL may rewrite what follows the origin.
const PIECES = [
  '/', '/', '/', 'a', 'Z', '0', '-', '_', '~', '.', '..', '%2e', '%2E', '.%2e', '%2', '%', '%41', '%7e', '%zz', '?', '?', '#',
  '\\', '\t', '\n', '\r', ' ', '\u0000', '\u001f', '\u007f', "'", '"', '<', '>', '`', '{', '}', '|', '^', '[', ']', ';', ':',
  '@', '&', '=', '+', '*', '$', '!', '(', ')', ',', 'é', '日本', '\uD800', '\uDC00', '\uFFFD', 'robots.txt',
];

// Pieces of a path WHATWG keeps as written; tails built mostly of them reach the plain path often.
const PLAIN_PIECES = ['/', '/', 'a', 'Z', '0', '-', '_', '~', '.', '%41', '%7e', ';', ':', '@', '&', '=', '+', '*', '$', '!', 'x.html'];

const trickyTail = fc.array(fc.constantFrom(...PIECES), { maxLength: 12 }).map((p) => p.join(''));
const nearlyPlainTail = fc
  .tuple(fc.array(fc.constantFrom(...PLAIN_PIECES), { maxLength: 10 }), fc.option(fc.constantFrom(...PIECES)), fc.nat(10))
  .map(([p, odd, at]) => `/${(odd === null ? p : [...p.slice(0, at), odd, ...p.slice(at)]).join('')}`);
const tail = fc.oneof(trickyTail, nearlyPlainTail);

/** Generated robots.txt URL and crawl URL: half of the crawl URLs start with the robots.txt URL's own origin. */
const robotsAndUrl = fc.constantFrom(...ROBOTS_URLS).chain((robotsUrl) => {
  const own = URL.canParse(robotsUrl) ? new URL(robotsUrl).origin : 'null';
  const origin = own === 'null' ? fc.constantFrom(...ORIGINS) : fc.oneof(fc.constant(own), fc.constantFrom(...ORIGINS));
  return fc.tuple(fc.constant(robotsUrl), fc.tuple(origin, tail).map(([o, t]) => o + t));
});

describe('RobotsOrigin: plain path vs WHATWG URL path', () => {
  it('a URL taken as plain is on the origin and the matcher reads the same path and query from it', () => {
    const runs = 20_000;
    let plainCount = 0;
    fc.assert(
      fc.property(robotsAndUrl, ([robotsUrl, u]) => {
        const origin = new RobotsOrigin(robotsUrl);
        const plain = origin.plainMatchUrl(u);
        const parsed = origin.parsedMatchUrl(u);
        if (plain === undefined) {
          expect(origin.matchUrl(u)).toBe(parsed);
          return;
        }
        plainCount++;
        expect(parsed, `${robotsUrl} ${JSON.stringify(u)}`).not.toBeNull();
        expect(toMatchPath(plain), `${robotsUrl} ${JSON.stringify(u)}`).toBe(toMatchPath(parsed!));
        expect(origin.matchUrl(u)).toBe(plain);
      }),
      { numRuns: runs },
    );
    // The generator must reach the plain path often, or the property says little.
    expect(plainCount).toBeGreaterThan(runs / 20);
  });

  it('the Wasm check (matchOnOrigin) takes exactly the URLs the pattern takes, and judges them as the matcher does', () => {
    const encoder = new TextEncoder();
    const matcher = matcherForReducedName(robotsParser('https://a.test/robots.txt', BODY).robots, 'googlebot');
    let plainCount = 0;
    fc.assert(
      fc.property(robotsAndUrl, ([robotsUrl, u]) => {
        const origin = new RobotsOrigin(robotsUrl);
        if (origin.plainOrigin === null) return;
        const label = `${robotsUrl} ${JSON.stringify(u)}`;
        const line = new Uint32Array(1);
        const verdict = getEngine().matchOnOrigin(matcher.table, u, encoder.encode(origin.plainOrigin), line);
        const plain = origin.plainMatchUrl(u);
        expect(verdict !== MATCH_NOT_PLAIN, label).toBe(plain !== undefined);
        if (plain === undefined) return;
        plainCount++;
        const want = matcher.explain(plain);
        expect({ verdict, line: line[0] }, label).toEqual({ verdict: want.allowed ? 1 : 0, line: want.line });
      }),
      { numRuns: 20_000 },
    );
    expect(plainCount).toBeGreaterThan(1000);
  });

  it.each([
    ['https://a.test/x', true],
    ['https://a.test', true],
    ['https://a.test/a/b;c?d=1&e=f|g#h i', true],
    ['https://a.test/.well-known/x', false], // a segment starting with '.': maybe a dot segment
    ['https://a.test/a/%2E%2e/b', false],
    ['https://a.test/a/../b', false],
    ['https://a.test/a\\b', false], // backslash is '/' in special URLs
    ['https://a.test/a\tb', false], // tabs and newlines are removed
    ['https://a.test/a b', false], // percent-encoded by WHATWG
    ['https://a.test/caf%C3%A9', true],
    ['https://a.test/café', false],
    ['https://a.test/x?', false], // WHATWG drops an empty query
    ['https://a.test/x?#f', false],
    ["https://a.test/x?it's", false], // `'` is percent-encoded in special queries
    ['https://a.test:443/x', false],
    ['https://A.test/x', false],
    ['https://a.test.evil/x', false],
    ['https://user@a.test/x', false],
  ])('%s takes the plain path: %s', (u, plain) => {
    const origin = new RobotsOrigin('https://a.test/robots.txt');
    expect(origin.plainMatchUrl(u) !== undefined).toBe(plain);
  });

  it('relative and non-http(s) robots.txt URLs always parse', () => {
    for (const robotsUrl of ['/robots.txt', 'ftp://a.test/robots.txt', 'file:///robots.txt', 'not a url']) {
      const origin = new RobotsOrigin(robotsUrl);
      for (const u of ['/x', 'ftp://a.test/x', 'file:///x', 'http://relative.invalid/x']) expect(origin.plainMatchUrl(u)).toBeUndefined();
    }
  });
});

const BODY = [
  'User-agent: *', 'Disallow: /a', 'Allow: /a/b', 'Disallow: /*.php$', 'Disallow: /q?x', 'Disallow: /%7e', 'Disallow: /c%20d',
  '', 'User-agent: googlebot', 'Disallow: /g', 'Disallow: /a/..', 'Disallow: /x$', '',
  'User-agent: other-bot', 'Disallow: /',
].join('\n');
const AGENTS = [undefined, '*', 'Googlebot', 'Googlebot/2.1', 'googlebot', 'Other-Bot/1.0', 'Mozilla/5.0 (compatible; Googlebot/2.1)', 'unknown', '', '/1.0'];

describe('compat answers as the WHATWG path decides', () => {
  it('isAllowed and getMatchingLineNumber match the parsed match URL, for every agent', () => {
    fc.assert(
      fc.property(robotsAndUrl, fc.constantFrom(...AGENTS), ([robotsUrl, u], ua) => {
        const compat = robotsParser(robotsUrl, BODY);
        const parsed = new RobotsOrigin(robotsUrl).parsedMatchUrl(u);
        const label = `${robotsUrl} ${JSON.stringify(u)} ${String(ua)}`;
        if (parsed === null) {
          expect(compat.isAllowed(u, ua), label).toBeUndefined();
          expect(compat.getMatchingLineNumber(u, ua), label).toBe(-1);
          return;
        }
        const verdict = matcherForReducedName(compat.robots, reduceUserAgent(ua)).explain(parsed);
        expect(compat.isAllowed(u, ua), label).toBe(verdict.allowed);
        expect(compat.getMatchingLineNumber(u, ua), label).toBe(verdict.line > 0 ? verdict.line : -1);
      }),
      { numRuns: 5_000 },
    );
  });

  it('remembers each User-Agent string apart, also past the memo size and for undefined', () => {
    const compat = robotsParser('https://a.test/robots.txt', BODY);
    const ask = (ua: string | undefined): boolean | undefined => compat.isAllowed('https://a.test/g', ua);
    expect([ask(undefined), ask('Googlebot'), ask(undefined), ask('Other-Bot/1'), ask('Googlebot')]).toEqual([true, false, true, false, false]);
    for (let i = 0; i < 200; i++) expect(ask(`bot${i}`)).toBe(true); // `bot` + digits reads as `bot`: the `*` group
    expect([ask('Googlebot'), ask('googlebot/9'), ask(undefined)]).toEqual([false, false, true]);
    expect(() => compat.isAllowed('https://a.test/g', 42 as unknown as string)).toThrow(/ua must be a string or undefined, got/);
    expect(compat.isAllowed('https://a.test/g', null as unknown as string)).toBe(true);
  });
});
