// ACAP 1.0 §2.2–2.3, §2.7, §3: how fields become records, sub-records and definitions (names case-insensitive).
import { describe, expect, it } from 'vitest';
import { Robots, lexRobots } from '../src/index.js';
import { AcapCollector, type AcapPolicy } from '../src/acap/index.js';

/** The ACAP policy of a robots.txt body, as the public API exposes it. */
function parseAcap(body: string | Uint8Array): AcapPolicy | null {
  return Robots.parse(body).acap;
}

describe('§2.3 record and sub-record structure', () => {
  const body = [
    'ACAP-crawler: searchbot', //                     1
    'ACAP-crawler: newsbot', //                       2
    'ACAP-disallow-crawl: /private/', //              3
    'ACAP-request-re-crawl: /news/fixed.htm', //      4
    'ACAP-usage-purpose: news', //                    5
    'ACAP-usage-purpose: http://news.example/*', //   6
    'ACAP-allow-index: /news/', //                    7
    'ACAP-disallow-present-thumbnail: /news/', //     8
    'ACAP-usage-purpose: images', //                  9
    'ACAP-allow-present-thumbnail: /img/', //        10
    '', //                                           11
    'ACAP-crawler: *', //                            12
    '# a comment between fields', //                 13
    'ACAP-disallow-index: /drafts/', //              14
  ].join('\n');

  it('groups fields into records and sub-records in file order', () => {
    const p = parseAcap(body)!;
    expect(p.diagnostics).toEqual([]);
    expect(p.records).toHaveLength(2);
    const [named, any] = p.records;
    expect(named).toMatchObject({ line: 1, anyCrawler: false, crawlers: ['searchbot', 'newsbot'], reference: null });
    expect(named!.rules.map((r) => [r.allow, r.usage, r.pattern, r.line])).toEqual([[false, 'crawl', '/private/', 3]]);
    expect(named!.requests).toEqual([{ action: 're-crawl', path: '/news/fixed.htm', line: 4 }]);
    expect(named!.subRecords.map((s) => ({ line: s.line, purposes: s.purposes, rules: s.rules.map((r) => [r.allow, r.usage, r.line]) }))).toEqual([
      { line: 5, purposes: ['news', 'http://news.example/*'], rules: [[true, 'index', 7], [false, 'present-thumbnail', 8]] },
      { line: 9, purposes: ['images'], rules: [[true, 'present-thumbnail', 10]] },
    ]);
    expect(any).toMatchObject({ line: 12, anyCrawler: true, crawlers: [] });
    expect(any!.rules.map((r) => r.line)).toEqual([14]);
  });

  it('records a rule per pattern id, sharing ids between equal patterns', () => {
    const p = parseAcap('ACAP-resource-set: s /a/ /b/\nACAP-crawler: *\nACAP-allow-index: the-acap:resource-set:s\nACAP-disallow-crawl: /a/\n')!;
    const rules = p.records[0]!.rules;
    expect(rules.map((r) => [r.usage, r.pattern, r.patternId])).toEqual([['index', '/a/', 0], ['index', '/b/', 1], ['crawl', '/a/', 0]]);
  });
});

describe('§3 "All names are case-insensitive"; field names too', () => {
  it('reads keys, usages, local usage and resource set names in any case', () => {
    const p = parseAcap([
      'acap-RESOURCE-set: Crawlable /public/',
      'ACAP-Qualified-Usage: Cache PRESERVE TIME-LIMIT=until-recrawled',
      'ACAP-COMPOSITE-USAGE: Basic crawl INDEX (CACHE)',
      'Acap-Crawler: NamedBot',
      'ACAP-ALLOW-(basic): The-ACAP:Resource-Set:CRAWLABLE',
      'acap-disallow-PRESENT-Snippet: /public/x',
    ].join('\n'))!;
    expect(p.diagnostics).toEqual([]);
    expect([...p.resourceSets.keys()]).toEqual(['crawlable']);
    expect([...p.localUsages.keys()]).toEqual(['cache', 'basic']);
    expect(p.records[0]!.crawlers).toEqual(['namedbot']);
    expect(p.records[0]!.rules.map((r) => r.usage)).toEqual(['crawl', 'index', 'preserve', 'present-snippet']);
    expect(p.check('/PUBLIC/a', 'NAMEDBOT', 'preserve')).toMatchObject({ allowed: true, line: 5, qualifiers: [{ type: 'time-limit' }] });
  });
});

describe('AcapCollector: the lexer handler contract the core relies on', () => {
  it('on its own gives what Robots.parse(...).acap gives, falling back to the REP it is handed', () => {
    const body = 'User-agent: *\nDisallow: /private/\nACAP-crawler: *\nACAP-disallow-index: /drafts/\nACAP-allow-fly: /\n';
    const robots = Robots.parse(body);
    const collector = new AcapCollector();
    lexRobots(new TextEncoder().encode(body), collector, 'rfc');
    const alone = collector.finish(robots)!;
    expect(alone.records).toEqual(robots.acap!.records);
    expect(alone.diagnostics).toEqual(robots.acap!.diagnostics);
    expect(alone.check('/private/a', 'bot', 'crawl')).toEqual({ allowed: false, line: 2, qualifiers: [], source: 'conventional' });
    const stub = new AcapCollector();
    lexRobots(new TextEncoder().encode(body), stub, 'rfc');
    expect(stub.finish({ explain: () => ({ allowed: true, line: 0 }) })!.check('/private/a', 'bot', 'crawl').source).toBe('default');
  });

  it('returns null from finish() when no ACAP field was seen', () => {
    const collector = new AcapCollector();
    lexRobots(new TextEncoder().encode('##ACAP version=1.0\nUser-agent: *\nDisallow: /\n'), collector, 'rfc');
    expect(collector.finish({ explain: () => ({ allowed: true, line: 0 }) })).toBeNull();
  });
});

describe('lexical details come from the shared lexer', () => {
  it('CRLF and CR line endings, a BOM, trailing comments and whitespace', () => {
    const text = '\uFEFF##ACAP version=1.0\r\nACAP-crawler: *\rACAP-disallow-index:   /a/   # not /b/\r\n\tACAP-allow-index: /a/b/ time-limit=3-days # note\r\n';
    const p = parseAcap(text)!;
    expect(p.version).toBe('1.0');
    expect(p.diagnostics).toEqual([]);
    expect(p.records[0]!.rules.map((r) => [r.pattern, r.line, r.qualifiers.length])).toEqual([['/a/', 3, 0], ['/a/b/', 4, 1]]);
  });

  it('reads a Uint8Array body the same as a string', () => {
    const text = 'ACAP-crawler: *\nACAP-disallow-index: /a/\n';
    expect(parseAcap(new TextEncoder().encode(text))!.records).toEqual(parseAcap(text)!.records);
  });

  it('takes the version from the first ##ACAP comment only, anywhere in the file', () => {
    const p = parseAcap('User-agent: *\n##ACAP version=1.0\n##ACAP version=2.0\nACAP-crawler: *\nACAP-allow-index: /\n')!;
    expect(p.version).toBe('1.0');
    expect(p.diagnostics).toEqual([]);
    expect(parseAcap('##ACAPS are fun\nACAP-crawler: *\nACAP-allow-index: /\n')!.version).toBeNull();
    expect(parseAcap('# ##ACAP version=1.0\nACAP-crawler: *\nACAP-allow-index: /\n')!.version).toBeNull();
    expect(parseAcap('##acap  Version = 1.0\nACAP-crawler: *\nACAP-allow-index: /\n')!.version).toBe('1.0');
  });

  it('ignores conventional and other non-ACAP records entirely', () => {
    const p = parseAcap('User-agent: *\nDisallow: /\nCrawl-delay: 5\nSitemap: https://example.com/s.xml\nACAPish: 1\nACAP-crawler: *\nACAP-allow-index: /\n')!;
    expect(p.diagnostics).toEqual([]);
    expect(p.records).toHaveLength(1);
  });
});
