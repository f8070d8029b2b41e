// RFC 9309 §2.2.4 (other records): sitemap, crawl-delay, host and unknown keys never end a group and are reported.
//
// §2.2.4: "Crawlers MAY interpret other records that are not part of the robots.txt
//   protocol -- for example, "Sitemaps" [SITEMAPS]. [...] Parsing of other records MUST
//   NOT interfere with the parsing of explicitly defined records in Section 2. For
//   example, a "Sitemaps" record MUST NOT terminate a group."
import { describe, expect, it } from 'vitest';
import { Robots } from '../src/index.js';
import { parseCached } from './helpers/all-paths.js';
import { describeRows, type Row } from './helpers/cases.js';

const between = (record: string): string => `User-agent: BarBot\n${record}\nUser-agent: *\nDisallow: /\n`;
const inside = (record: string): string => `User-agent: FooBot\n${record}\nDisallow: /x\n`;

const RECORDS = [
  'Sitemap: https://foo.bar/sitemap',
  'Crawl-delay: 5',
  'Host: www.foo.bar',
  'Clean-param: ref /articles/',
  'Invalid-Unknown-Line: unknown',
  'ACAP-crawler: *',
  'Noindex: /x',
];

const rows: Row[] = [
  // robots_test.cc ID_LineSyntax_Groups_OtherRules: the record sits between two user-agent
  // lines, which therefore still form one group.
  ...RECORDS.map((r): Row => [between(r), 'BarBot', 'http://foo.bar/', false, `"${r}" between user-agent lines`]),
  ...RECORDS.map((r): Row => [between(r), 'FooBot', 'http://foo.bar/', false, `"${r}" between user-agent lines (* side)`]),
  // The record sits between a user-agent line and its rules.
  ...RECORDS.map((r): Row => [inside(r), 'FooBot', '/x', false, `"${r}" before the rules`]),
  // The record sits between two rules of the same group.
  ...RECORDS.map((r): Row => [`User-agent: FooBot\nDisallow: /a\n${r}\nDisallow: /b\n`, 'FooBot', '/b', false, `"${r}" between rules`]),
  ['Sitemap: https://foo.bar/s.xml\nUser-agent: FooBot\nDisallow: /\n', 'FooBot', '/', false, 'a sitemap before the first group'],
  ['Crawl-delay: 5\nUser-agent: FooBot\nDisallow: /\n', 'FooBot', '/', false, 'an other record before the first group'],
];

describeRows('RFC 9309 §2.2.4: other records MUST NOT terminate a group', rows);

describe('RFC 9309 §2.2.4: sitemaps', () => {
  const body = [
    'Sitemap: https://example.com/a.xml', //   1  before any group
    'User-agent: FooBot',
    'SITEMAP: https://example.com/b.xml # c', // 3  inside a group, key case, comment
    'Disallow: /',
    'sitemap:https://example.com/c.xml', //     5  no space after the colon
    'Sitemap:', //                              6  empty: ignored
    'site-map: https://example.com/d.xml', //   7  Google-compat spelling
  ].join('\n');
  it('rfc: every non-empty Sitemap value in file order, as written', () => {
    expect(parseCached(body, 'rfc').sitemaps).toEqual([
      'https://example.com/a.xml',
      'https://example.com/b.xml',
      'https://example.com/c.xml',
    ]);
  });
  it('google: also "site-map" (robots.cc accepts the misspelling)', () => {
    expect(parseCached(body, 'google').sitemaps).toEqual([
      'https://example.com/a.xml',
      'https://example.com/b.xml',
      'https://example.com/c.xml',
      'https://example.com/d.xml',
    ]);
  });
  it('rfc: "site-map" is an other record instead', () => {
    expect(parseCached(body, 'rfc').others).toContainEqual({ key: 'site-map', value: 'https://example.com/d.xml', line: 7 });
  });
  it('a sitemap does not change any verdict', () => {
    expect(parseCached(body, 'rfc').isAllowed('/x', 'FooBot')).toBe(false);
    expect(parseCached(body, 'rfc').isAllowed('/x', 'BarBot')).toBe(true);
  });
});

describe('other records: keys as written, values trimmed, lines, file order', () => {
  const body = [
    'Host: example.com', //                   1  before any group
    'User-agent: FooBot',
    'Crawl-delay: 2.5 # seconds', //           3
    'Disallow: /x',
    'X-Unknown :  some value  ', //            5
    'User-agent: *',
    'crawl-delay: 10', //                      7
  ].join('\n');
  for (const profile of ['rfc', 'google'] as const) {
    it(`${profile}: robots.others`, () => {
      expect(parseCached(body, profile).others).toEqual([
        { key: 'Host', value: 'example.com', line: 1 },
        { key: 'Crawl-delay', value: '2.5', line: 3 },
        { key: 'X-Unknown', value: 'some value', line: 5 },
        { key: 'crawl-delay', value: '10', line: 7 },
      ]);
    });
    it(`${profile}: group.others holds the records inside each group`, () => {
      const groups = parseCached(body, profile).groups;
      expect(groups.map((g) => g.others.map((o) => o.line))).toEqual([[3, 5], [7]]);
    });
    it(`${profile}: crawlDelay() reads the groups that apply to the agent`, () => {
      const robots = parseCached(body, profile);
      expect(robots.crawlDelay('FooBot')).toBe(2.5);
      expect(robots.crawlDelay('foobot')).toBe(2.5);
      expect(robots.crawlDelay('OtherBot')).toBe(10);
    });
  }
  it('crawlDelay() is undefined without a record, or with an unreadable one', () => {
    expect(Robots.parse('User-agent: *\nDisallow: /\n').crawlDelay('bot')).toBeUndefined();
    expect(Robots.parse('User-agent: *\nCrawl-delay: soon\n').crawlDelay('bot')).toBeUndefined();
    expect(Robots.parse('User-agent: *\nCrawl-delay: -1\n').crawlDelay('bot')).toBeUndefined();
    expect(Robots.parse('Crawl-delay: 5\nUser-agent: *\n').crawlDelay('bot')).toBeUndefined();
    expect(Robots.parse('User-agent: a\nCrawl-delay: 5\n').crawlDelay('b')).toBeUndefined();
  });
  it('crawlDelay() of merged groups', () => {
    const robots = Robots.parse('User-agent: a\nDisallow: /\nUser-agent: a\nCrawl-delay: 3\n');
    expect(robots.crawlDelay('A')).toBe(3);
    expect(Robots.parse('User-agent: *\nCrawl-delay: 0\n').crawlDelay('x')).toBe(0);
  });
});
