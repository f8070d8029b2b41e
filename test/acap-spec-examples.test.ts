// ACAP 1.0 Part 1, every example printed in §2 and §3: parsed and evaluated as the text says.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Robots } from '../src/index.js';
import type { AcapPolicy, AcapUsage } from '../src/acap/index.js';

/** The ACAP policy of a robots.txt body, as the public API exposes it. */
function parseAcap(body: string): AcapPolicy | null {
  return Robots.parse(body).acap;
}

function acap(body: string): AcapPolicy {
  const policy = parseAcap(body);
  if (policy === null) throw new Error('expected ACAP fields');
  return policy;
}

const fixture = (name: string): string => readFileSync(new URL(`./fixtures/acap/${name}`, import.meta.url), 'utf8');

type Row = [url: string, crawler: string, usage: AcapUsage, allowed: boolean, line: number, source: 'acap' | 'conventional' | 'default'];

function expectVerdicts(policy: AcapPolicy, rows: readonly Row[], purpose?: string): void {
  for (const [url, crawler, usage, allowed, line, source] of rows) {
    const options = purpose === undefined ? {} : { purpose };
    const v = policy.check(url, crawler, usage, options);
    expect({ url, crawler, usage, allowed: v.allowed, line: v.line, source: v.source }).toEqual({ url, crawler, usage, allowed, line, source });
  }
}

describe('§2.1 overview example', () => {
  it('as printed: the set is defined as "crawlable" but referenced as "crawable"', () => {
    const p = acap(fixture('spec-overview.txt'));
    expect(p.version).toBe('1.0');
    expect(p.ignoreConventionalRecords).toBe(false);
    expect(p.diagnostics.map((d) => [d.line, d.code])).toEqual([[35, 'undefined-resource-set']]);
    expect(p.diagnostics[0]!.message).toContain("'crawable' is not defined");
    expect(p.resourceSets.get('crawlable')).toEqual({ name: 'crawlable', patterns: ['/public/', '/promotion/', '/news/'], line: 19 });
    expect(p.localUsages.get('cache')).toEqual({
      kind: 'qualified',
      name: 'cache',
      line: 22,
      parts: [{ usage: 'preserve', qualifiers: [{ type: 'time-limit', text: 'time-limit=until-recrawled', limit: { kind: 'until-recrawled' } }] }],
    });
    expect(p.localUsages.get('basic-usages')?.parts.map((x) => x.usage)).toEqual(['crawl', 'index', 'present']);
    expect(p.records.map((r) => [r.line, r.anyCrawler, r.crawlers, r.rules.length])).toEqual([
      [29, true, [], 1],
      [33, false, ['named-crawler'], 0],
    ]);
    // With its only permission ignored, named-crawler falls to the `*` record (§2.2).
    expectVerdicts(p, [
      ['/public/a.html', 'named-crawler', 'crawl', false, 30, 'acap'],
      ['/public/a.html', 'somebot', 'crawl', false, 30, 'acap'],
      // ACAP wins over the conventional `Allow: /index.html` for named-crawler (§2.9.2).
      ['/index.html', 'named-crawler', 'crawl', false, 30, 'acap'],
      ['/public/a.html', 'named-crawler', 'index', true, 0, 'default'],
    ]);
  });

  it('corrected: named-crawler may crawl, index, present and cache the resource set', () => {
    const p = acap(fixture('spec-overview-corrected.txt'));
    expect(p.diagnostics).toEqual([]);
    expect(p.ignoreConventionalRecords).toBe(true);
    const rows: Row[] = [];
    for (const path of ['/public/a.html', '/promotion/x', '/news/2007/story.htm', '/NEWS/Story']) {
      for (const usage of ['crawl', 'index', 'present', 'present-snippet', 'present-currentcopy'] as const) {
        rows.push([path, 'named-crawler', usage, true, 35, 'acap']);
      }
      rows.push([path, 'named-crawler', 'preserve', true, 43, 'acap']);
      rows.push([path, 'somebot', 'crawl', false, 30, 'acap']);
    }
    rows.push(['/index.html', 'named-crawler', 'crawl', false, 30, 'acap']);
    rows.push(['/private/x', 'Named-Crawler', 'crawl', false, 30, 'acap']);
    rows.push(['/public/a.html', 'named-crawler', 'follow', true, 0, 'default']);
    expectVerdicts(p, rows);
    expect(p.check('/public/a', 'named-crawler', 'preserve').qualifiers).toEqual([
      { type: 'time-limit', text: 'time-limit=until-recrawled', limit: { kind: 'until-recrawled' } },
    ]);
  });
});

describe('§2.3 records, crawler identification, references, usage purposes', () => {
  it('§2.3.1 ACAP-crawler: searchbot / ACAP-crawler: * (names are not case-sensitive)', () => {
    const p = acap('ACAP-crawler: searchbot\nACAP-disallow-crawl: /\n\nACAP-crawler: *\nACAP-allow-crawl: /\n');
    expect(p.records.map((r) => [r.anyCrawler, r.crawlers])).toEqual([[false, ['searchbot']], [true, []]]);
    expectVerdicts(p, [
      ['/a', 'searchbot', 'crawl', false, 2, 'acap'],
      ['/a', 'SearchBot', 'crawl', false, 2, 'acap'],
      ['/a', 'otherbot', 'crawl', true, 5, 'acap'],
    ]);
  });

  it('§2.3.1 several crawler fields address one record to several crawlers', () => {
    const p = acap('ACAP-crawler: searchbot\nACAP-crawler: NewsBot\nACAP-disallow-index: /\n');
    expect(p.records).toHaveLength(1);
    expect(p.records[0]!.crawlers).toEqual(['searchbot', 'newsbot']);
    expectVerdicts(p, [
      ['/x', 'newsbot', 'index', false, 3, 'acap'],
      ['/x', 'searchbot', 'index', false, 3, 'acap'],
      ['/x', 'other', 'index', true, 0, 'default'],
    ]);
  });

  it('§2.3.2 ACAP-permissions-reference: /searchbot.txt', () => {
    const p = acap('ACAP-crawler: searchbot\nACAP-permissions-reference: /searchbot.txt\n');
    expect(p.diagnostics).toEqual([]);
    expect(p.records[0]!.reference).toEqual({ value: '/searchbot.txt', line: 2 });
    expect(p.references('SEARCHBOT')).toEqual([{ value: '/searchbot.txt', line: 2 }]);
    expect(p.references('otherbot')).toEqual([]);
  });

  it('§2.3.3 ACAP-usage-purpose: news and ACAP-usage-purpose: http://news.search.*/*', () => {
    const body = [
      'ACAP-crawler: searchbot',
      'ACAP-disallow-index: /',
      'ACAP-usage-purpose: news',
      'ACAP-allow-index: /',
      'ACAP-usage-purpose: http://news.search.*/*',
      'ACAP-allow-present: /',
    ].join('\n');
    const p = acap(body);
    expect(p.diagnostics).toEqual([]);
    expect(p.records[0]!.subRecords.map((s) => [s.line, s.purposes, s.rules.map((r) => r.line)])).toEqual([
      [3, ['news'], [4]],
      [5, ['http://news.search.*/*'], [6]],
    ]);
    expectVerdicts(p, [['/a', 'searchbot', 'index', false, 2, 'acap']]);
    expectVerdicts(p, [['/a', 'searchbot', 'index', true, 4, 'acap']], 'news');
    expectVerdicts(p, [['/a', 'searchbot', 'index', true, 4, 'acap']], 'NEWS');
    expectVerdicts(p, [['/a', 'searchbot', 'index', false, 2, 'acap'], ['/a', 'searchbot', 'present', true, 6, 'acap']], 'http://news.search.example.com/today');
    expectVerdicts(p, [['/a', 'searchbot', 'index', false, 2, 'acap'], ['/a', 'searchbot', 'present', true, 0, 'default']], 'images');
  });
});

describe('§2.4 permissions, prohibitions, resource sets', () => {
  it('§2.4.1.1 ACAP-allow-index: /news/', () => {
    const p = acap('ACAP-crawler: *\nACAP-allow-index: /news/\n');
    expectVerdicts(p, [
      ['https://example.com/news/today.html', 'bot', 'index', true, 2, 'acap'],
      ['https://example.com/sport/', 'bot', 'index', true, 0, 'default'],
    ]);
  });

  it('§2.4.1.2 ACAP-allow-preserve: /news/ time-limit=until-recrawl (the spec\'s own spelling)', () => {
    const p = acap('ACAP-crawler: *\nACAP-allow-preserve: /news/ time-limit=until-recrawl\n');
    expect(p.diagnostics.map((d) => [d.line, d.code])).toEqual([[2, 'qualifier-spelling']]);
    const v = p.check('/news/a', 'bot', 'preserve');
    expect(v).toEqual({
      allowed: true,
      line: 2,
      source: 'acap',
      qualifiers: [{ type: 'time-limit', text: 'time-limit=until-recrawl', limit: { kind: 'until-recrawled' } }],
    });
  });

  it('§2.4.1.3 ACAP-allow-(local-usage): /special/*.htm', () => {
    const p = acap('ACAP-qualified-usage: local-usage present-snippet max-length=30-words\nACAP-crawler: *\nACAP-allow-(local-usage): /special/*.htm\n');
    expect(p.diagnostics).toEqual([]);
    expectVerdicts(p, [
      ['/special/a/b.htm', 'bot', 'present-snippet', true, 3, 'acap'],
      ['/SPECIAL/B.HTM', 'bot', 'present-snippet', true, 3, 'acap'],
      ['/special/b.html', 'bot', 'present-snippet', true, 3, 'acap'], // no `$`: a prefix match (§2.8)
      ['/special/b.txt', 'bot', 'present-snippet', true, 0, 'default'],
      ['/special/a/b.htm', 'bot', 'index', true, 0, 'default'],
    ]);
    expect(p.check('/special/b.htm', 'bot', 'present-snippet').qualifiers).toEqual([
      { type: 'max-length', text: 'max-length=30-words', count: 30, unit: 'words' },
    ]);
  });

  it('§2.4.2 / §2.5.1 ACAP-disallow-crawl: /private/', () => {
    const p = acap('ACAP-crawler: *\nACAP-disallow-crawl: /private/\n');
    expectVerdicts(p, [
      ['/private/x', 'bot', 'crawl', false, 2, 'acap'],
      ['/Private/x', 'bot', 'crawl', false, 2, 'acap'],
      ['/private', 'bot', 'crawl', true, 0, 'default'],
      ['/private/x', 'bot', 'index', true, 0, 'default'],
    ]);
  });

  it('§2.4.4 ACAP-allow-index: the-acap:resource-set:indexable', () => {
    const p = acap('ACAP-resource-set: indexable /public/ /news/ /promote/\nACAP-crawler: *\nACAP-allow-index: the-acap:resource-set:indexable\n');
    expect(p.records[0]!.rules.map((r) => r.pattern)).toEqual(['/public/', '/news/', '/promote/']);
    expectVerdicts(p, [
      ['/public/a', 'bot', 'index', true, 3, 'acap'],
      ['/news/a', 'bot', 'index', true, 3, 'acap'],
      ['/promote/a', 'bot', 'index', true, 3, 'acap'],
      ['/private/a', 'bot', 'index', true, 0, 'default'],
    ]);
  });
});

describe('§2.5 usage types and qualifiers, as printed', () => {
  it('§2.5.3.1 index time-limit: until-recrawled, until-2007-12-31, 3-days', () => {
    const p = acap([
      'ACAP-crawler: *',
      'ACAP-allow-index: /public/ time-limit=until-recrawled',
      'ACAP-allow-index: /news/2007/ time-limit=until-2007-12-31',
      'ACAP-allow-index: /current-news/ time-limit=3-days',
    ].join('\n'));
    expect(p.diagnostics).toEqual([]);
    expect(p.check('/public/a', 'bot', 'index').qualifiers).toEqual([{ type: 'time-limit', text: 'time-limit=until-recrawled', limit: { kind: 'until-recrawled' } }]);
    expect(p.check('/news/2007/a', 'bot', 'index').qualifiers).toEqual([{ type: 'time-limit', text: 'time-limit=until-2007-12-31', limit: { kind: 'until-date', date: '2007-12-31' } }]);
    expect(p.check('/current-news/a', 'bot', 'index').qualifiers).toEqual([{ type: 'time-limit', text: 'time-limit=3-days', limit: { kind: 'days', days: 3 } }]);
  });

  it('§2.5.3.2 index must-use-resource: a URI and the-acap:extract:class:abstract', () => {
    const p = acap([
      'ACAP-crawler: *',
      'ACAP-allow-index: /page-image.pdf must-use-resource=/page-image-index.txt',
      'ACAP-allow-index: /articles/ must-use-resource=the-acap:extract:class:abstract',
    ].join('\n'));
    expect(p.diagnostics).toEqual([]);
    expect(p.check('/page-image.pdf', 'bot', 'index').qualifiers).toEqual([
      { type: 'must-use-resource', text: 'must-use-resource=/page-image-index.txt', uri: '/page-image-index.txt', target: { kind: 'uri', uri: '/page-image-index.txt' } },
    ]);
    expect(p.check('/articles/1', 'bot', 'index').qualifiers).toEqual([
      { type: 'must-use-resource', text: 'must-use-resource=the-acap:extract:class:abstract', uri: 'the-acap:extract:class:abstract', target: { kind: 'class', name: 'abstract' } },
    ]);
  });

  it('§2.5.4.1 preserve time-limit: the three printed forms', () => {
    const p = acap([
      'ACAP-crawler: *',
      'ACAP-allow-preserve: /public/ time-limit=until-recrawled',
      'ACAP-allow-preserve: /news/2007/ time-limit=until-2007-12-31',
      'ACAP-allow-preserve: /current-news/ time-limit=3-days',
    ].join('\n'));
    expect(p.diagnostics).toEqual([]);
    expect(['/public/', '/news/2007/', '/current-news/'].map((u) => p.check(u, 'bot', 'preserve').qualifiers[0]?.text)).toEqual([
      'time-limit=until-recrawled',
      'time-limit=until-2007-12-31',
      'time-limit=3-days',
    ]);
  });

  it('§2.5.5 ACAP-allow-present: /public/ covers every present-* usage', () => {
    const p = acap('ACAP-crawler: *\nACAP-disallow-present: /\nACAP-allow-present: /public/\n');
    const presentUsages: AcapUsage[] = ['present', 'present-original', 'present-currentcopy', 'present-oldcopy', 'present-snippet', 'present-thumbnail', 'present-oldsnippet', 'present-oldthumbnail', 'present-link'];
    expectVerdicts(p, presentUsages.flatMap((u): Row[] => [['/public/a', 'bot', u, true, 3, 'acap'], ['/other', 'bot', u, false, 2, 'acap']]));
  });

  it('§2.5.5.1.1 ACAP-disallow-present-original: /', () => {
    const p = acap('ACAP-crawler: *\nACAP-disallow-present-original: /\n');
    expectVerdicts(p, [
      ['/a', 'bot', 'present-original', false, 2, 'acap'],
      ['/a', 'bot', 'present-snippet', true, 0, 'default'],
      ['/a', 'bot', 'present', true, 0, 'default'],
    ]);
  });

  it('§2.5.5.1.5 snippets but not thumbnails', () => {
    const p = acap('ACAP-crawler: *\nACAP-allow-present-snippet: /public/\nACAP-disallow-present-thumbnail: /public/\n');
    expectVerdicts(p, [
      ['/public/a', 'bot', 'present-snippet', true, 2, 'acap'],
      ['/public/a', 'bot', 'present-thumbnail', false, 3, 'acap'],
    ]);
  });

  it('§2.5.5.2.1 present time-limit, and present-snippet time-limit=3-days', () => {
    const p = acap('ACAP-crawler: *\nACAP-allow-present: /public/ time-limit=until-recrawled\nACAP-allow-present-snippet: /news/2007/ time-limit=3-days\n');
    expect(p.diagnostics).toEqual([]);
    expect(p.check('/public/a', 'bot', 'present-thumbnail')).toMatchObject({ allowed: true, line: 2, qualifiers: [{ limit: { kind: 'until-recrawled' } }] });
    expect(p.check('/news/2007/a', 'bot', 'present-snippet')).toMatchObject({ allowed: true, line: 3, qualifiers: [{ limit: { kind: 'days', days: 3 } }] });
  });

  it('§2.5.5.2.2 present-thumbnail must-use-resource=/book/cover.jpg', () => {
    const p = acap('ACAP-crawler: *\nACAP-allow-present-thumbnail: /book/pages/ must-use-resource=/book/cover.jpg\n');
    expect(p.check('/book/pages/12', 'bot', 'present-thumbnail').qualifiers).toEqual([
      { type: 'must-use-resource', text: 'must-use-resource=/book/cover.jpg', uri: '/book/cover.jpg', target: { kind: 'uri', uri: '/book/cover.jpg' } },
    ]);
  });

  it('§2.5.5.2.3 present-snippet max-length=250-chars', () => {
    const p = acap('ACAP-crawler: *\nACAP-allow-present-snippet: /news/ max-length=250-chars\n');
    expect(p.check('/news/a', 'bot', 'present-snippet').qualifiers).toEqual([{ type: 'max-length', text: 'max-length=250-chars', count: 250, unit: 'chars' }]);
  });

  it('§2.5.5.2.4 prohibited-modification: annotation; style; format + translation on one line', () => {
    const p = acap([
      'ACAP-crawler: a',
      'ACAP-allow-present: /public/ prohibited-modification=annotation',
      'ACAP-crawler: b',
      'ACAP-allow-present-currentcopy: /public/ prohibited-modification=style',
      'ACAP-crawler: c',
      'ACAP-allow-present-currentcopy: /public/ prohibited-modification=format prohibited-modification=translation',
    ].join('\n'));
    expect(p.diagnostics).toEqual([]);
    const mods = (crawler: string): unknown[] => p.check('/public/x', crawler, 'present-currentcopy').qualifiers.map((q) => (q.type === 'prohibited-modification' ? q.modification : q.type));
    expect(mods('a')).toEqual(['annotation']);
    expect(mods('b')).toEqual(['style']);
    expect(mods('c')).toEqual(['format', 'translation']);
  });

  it('§2.5.5.2.6 prohibited-context=within-user-frame, §2.5.5.2.7 required-context=within-original-frame', () => {
    const p = acap('ACAP-crawler: *\nACAP-allow-present-currentcopy: /public/ prohibited-context=within-user-frame\nACAP-allow-present-original: /public/ required-context=within-original-frame\n');
    expect(p.diagnostics).toEqual([]);
    expect(p.check('/public/a', 'bot', 'present-currentcopy').qualifiers).toEqual([{ type: 'prohibited-context', text: 'prohibited-context=within-user-frame', context: 'within-user-frame' }]);
    expect(p.check('/public/a', 'bot', 'present-original').qualifiers).toEqual([{ type: 'required-context', text: 'required-context=within-original-frame', context: 'within-original-frame' }]);
  });

  it('§2.5.6 ACAP-disallow-other: /public/ prohibits what is not explicitly permitted', () => {
    const p = acap('ACAP-crawler: *\nACAP-allow-crawl: /public/\nACAP-allow-index: /public/\nACAP-disallow-other: /public/\n');
    expectVerdicts(p, [
      ['/public/a', 'bot', 'crawl', true, 2, 'acap'],
      ['/public/a', 'bot', 'index', true, 3, 'acap'],
      ['/public/a', 'bot', 'follow', false, 4, 'acap'],
      ['/public/a', 'bot', 'preserve', false, 4, 'acap'],
      ['/public/a', 'bot', 'present-snippet', false, 4, 'acap'],
      ['/public/a', 'bot', 'other', false, 4, 'acap'],
      ['/private/a', 'bot', 'follow', true, 0, 'default'],
    ]);
  });
});

describe('§2.6 action requests, §2.7 definitions, §2.9 interplay', () => {
  it('§2.6 ACAP-request-take-down: /news/bad-story.htm', () => {
    const p = acap('ACAP-crawler: *\nACAP-request-take-down: /news/bad-story.htm\n');
    expect(p.diagnostics).toEqual([]);
    expect(p.takeDownRequests('anybot')).toEqual([{ action: 'take-down', path: '/news/bad-story.htm', line: 2 }]);
    expect(p.reCrawlRequests('anybot')).toEqual([]);
  });

  it('§2.7.1 my-present-snippet = present-snippet time-limit=5-days max-length=250-chars', () => {
    const p = acap('ACAP-qualified-usage: my-present-snippet present-snippet time-limit=5-days max-length=250-chars\nACAP-crawler: *\nACAP-allow-(my-present-snippet): /public/\n');
    expect(p.diagnostics).toEqual([]);
    expect(p.check('/public/a', 'bot', 'present-snippet')).toEqual({
      allowed: true,
      line: 3,
      source: 'acap',
      qualifiers: [
        { type: 'time-limit', text: 'time-limit=5-days', limit: { kind: 'days', days: 5 } },
        { type: 'max-length', text: 'max-length=250-chars', count: 250, unit: 'chars' },
      ],
    });
  });

  it('§2.7.2 my-default-present = (present-30-word-snippet) present-thumbnail', () => {
    const p = acap([
      'ACAP-qualified-usage: present-30-word-snippet present-snippet max-length=30-words',
      'ACAP-composite-usage: my-default-present (present-30-word-snippet) present-thumbnail',
      'ACAP-crawler: *',
      'ACAP-allow-(my-default-present): /public/',
    ].join('\n'));
    expect(p.diagnostics).toEqual([]);
    expect(p.records[0]!.rules.map((r) => [r.usage, r.pattern, r.qualifiers.map((q) => q.text)])).toEqual([
      ['present-snippet', '/public/', ['max-length=30-words']],
      ['present-thumbnail', '/public/', []],
    ]);
    expectVerdicts(p, [
      ['/public/a', 'bot', 'present-snippet', true, 4, 'acap'],
      ['/public/a', 'bot', 'present-thumbnail', true, 4, 'acap'],
      ['/public/a', 'bot', 'present-original', true, 0, 'default'],
    ]);
  });

  it('§2.7.1 / §2.7.2 definitions wrapped over two lines as the PDF prints them are rejected', () => {
    // "Each definition field must be a single line of text in a robots.txt file." (§2.7 NOTE)
    const p = acap('ACAP-qualified-usage:\nmy-present-snippet present-snippet time-limit=5-days max-length=250-chars\nACAP-crawler: *\nACAP-allow-(my-present-snippet): /public/\n');
    expect(p.diagnostics.map((d) => [d.line, d.code])).toEqual([
      [1, 'definition-malformed'],
      [4, 'undefined-usage'],
    ]);
  });

  it('§2.7.3 ACAP-resource-set: images *.gif *.jpg *.png / ACAP-disallow-index: the-acap:resource-set:images', () => {
    const p = acap('ACAP-resource-set: images *.gif *.jpg *.png\nACAP-crawler: *\nACAP-disallow-index: the-acap:resource-set:images\n');
    expect(p.diagnostics).toEqual([]);
    expectVerdicts(p, [
      ['/img/a.gif', 'bot', 'index', false, 3, 'acap'],
      ['/A.JPG', 'bot', 'index', false, 3, 'acap'],
      ['/x.png?size=2', 'bot', 'index', false, 3, 'acap'],
      ['/page.html', 'bot', 'index', true, 0, 'default'],
    ]);
  });

  it('§2.9.1 ACAP-ignore-conventional-records: the conventional Disallow no longer applies', () => {
    const conventional = 'User-agent: *\nDisallow: /private/\n\nACAP-crawler: *\nACAP-disallow-index: /private/\n';
    const withDirective = `ACAP-ignore-conventional-records\n${conventional}`;
    expectVerdicts(acap(conventional), [['/private/a', 'bot', 'crawl', false, 2, 'conventional']]);
    const p = acap(withDirective);
    expect(p.ignoreConventionalRecords).toBe(true);
    expect(p.diagnostics).toEqual([]);
    expectVerdicts(p, [['/private/a', 'bot', 'crawl', true, 0, 'default']]);
  });

  it('§2.9.3 ##ACAP version=1.0', () => {
    expect(acap('##ACAP version=1.0\nACAP-crawler: *\nACAP-allow-crawl: /\n').version).toBe('1.0');
    expect(acap('ACAP-crawler: *\nACAP-allow-crawl: /\n').version).toBeNull();
    // The comment alone is not an ACAP field.
    expect(parseAcap('##ACAP version=1.0\nUser-agent: *\nDisallow: /\n')).toBeNull();
  });
});
