// ACAP 1.0 evaluation: §2.4.5 conflicts, §2.2 record precedence, present/other usages, purposes, §2.9 interplay.
import { describe, expect, it } from 'vitest';
import { Robots } from '../src/index.js';
import { ACAP_USAGES, type AcapPolicy, type AcapUsage } from '../src/acap/index.js';

/** The ACAP policy of a robots.txt body, as the public API exposes it. */
function parseAcap(body: string): AcapPolicy | null {
  return Robots.parse(body).acap;
}

const lines = (...l: string[]): string => `${l.join('\n')}\n`;
type Source = 'acap' | 'conventional' | 'default';
/** [robots.txt, crawler, url, usage, allowed, line, source, note] */
type Row = [body: string, crawler: string, url: string, usage: AcapUsage, allowed: boolean, line: number, source: Source, note: string];

function run(rows: readonly Row[], purpose?: string): void {
  it.each(rows)('%#: %s → %s %s %s', (body, crawler, url, usage, allowed, line, source) => {
    const p = parseAcap(body)!;
    const v = p.check(url, crawler, usage, purpose === undefined ? {} : { purpose });
    expect([v.allowed, v.line, v.source]).toEqual([allowed, line, source]);
    // permissions() answers the same for every usage.
    expect(p.permissions(url, crawler, purpose === undefined ? {} : { purpose })[usage]).toEqual(v);
  });
}

describe('§2.4.5 conflict resolution: the narrowest scope wins, by the character-by-character method', () => {
  const s = (...l: string[]): string => lines('ACAP-crawler: *', ...l);
  run([
    [s('ACAP-disallow-crawl: /', 'ACAP-allow-crawl: /public/'), 'bot', '/public/a', 'crawl', true, 3, 'acap', 'the shorter pattern ran out'],
    [s('ACAP-allow-crawl: /public/', 'ACAP-disallow-crawl: /'), 'bot', '/public/a', 'crawl', true, 2, 'acap', 'file order is irrelevant'],
    [s('ACAP-allow-crawl: /', 'ACAP-disallow-crawl: /private/'), 'bot', '/private/a', 'crawl', false, 3, 'acap', 'narrower prohibition'],
    [s('ACAP-disallow-crawl: /a', 'ACAP-allow-crawl: /a$'), 'bot', '/a', 'crawl', true, 3, 'acap', '"/a" ran out where "/a$" has "$"'],
    [s('ACAP-disallow-crawl: /a', 'ACAP-allow-crawl: /a$'), 'bot', '/ab', 'crawl', false, 2, 'acap', '"/a$" does not match /ab'],
    [s('ACAP-allow-crawl: /a$', 'ACAP-disallow-crawl: /a*'), 'bot', '/a', 'crawl', false, 3, 'acap', '"$" against "*": the "*" pattern is narrower'],
    [s('ACAP-disallow-crawl: /*.gif', 'ACAP-allow-crawl: /images/'), 'bot', '/images/a.gif', 'crawl', true, 3, 'acap', '"*" against "i": /images/ is narrower'],
    [s('ACAP-disallow-crawl: /a*', 'ACAP-allow-crawl: /ab'), 'bot', '/abc', 'crawl', true, 3, 'acap', '"*" against "b"'],
    [s('ACAP-disallow-crawl: /*.gif$', 'ACAP-allow-crawl: /*.gif'), 'bot', '/x.gif', 'crawl', false, 2, 'acap', 'same up to "$", the other ran out: "$" pattern narrower'],
    [s('ACAP-allow-crawl: /a*x', 'ACAP-disallow-crawl: /a*y'), 'bot', '/axy', 'crawl', false, 3, 'acap', '"x" against "y": undecidable, so prohibited'],
    [s('ACAP-disallow-crawl: /a*y', 'ACAP-allow-crawl: /a*x'), 'bot', '/axy', 'crawl', false, 2, 'acap', 'undecidable regardless of order'],
    [s('ACAP-allow-index: /news/', 'ACAP-disallow-index: /news/'), 'bot', '/news/a', 'index', false, 3, 'acap', 'the same pattern both ways: prohibited'],
    [s('ACAP-allow-index: /news/ time-limit=3-days', 'ACAP-disallow-index: /news/'), 'bot', '/news/a', 'index', false, 3, 'acap', 'qualifiers take no part'],
    [s('ACAP-disallow-index: /news/', 'ACAP-allow-index: /news/2007/ time-limit=3-days'), 'bot', '/news/2007/a', 'index', true, 3, 'acap', 'a qualified narrower permission'],
    [s('ACAP-disallow-crawl: /News/', 'ACAP-allow-crawl: /news/a'), 'bot', '/NEWS/A', 'crawl', true, 3, 'acap', 'compared case-insensitively (§2.8)'],
    [s('ACAP-disallow-crawl: /', 'ACAP-allow-crawl: /a', 'ACAP-disallow-crawl: /a/b'), 'bot', '/a/b/c', 'crawl', false, 4, 'acap', 'three candidates'],
    [s('ACAP-allow-crawl: /a*', 'ACAP-allow-crawl: /*b'), 'bot', '/ab', 'crawl', true, 2, 'acap', 'undecidable but agreeing: earliest line'],
    [s('ACAP-disallow-crawl: /x', 'ACAP-disallow-crawl: /x'), 'bot', '/x', 'crawl', false, 2, 'acap', 'agreeing duplicates'],
  ]);

  it('agreeing permissions of equal scope contribute all their qualifiers', () => {
    const p = parseAcap(lines('ACAP-crawler: *', 'ACAP-allow-index: /a/ time-limit=3-days', 'ACAP-allow-index: /a/ must-use-resource=/idx.txt'))!;
    expect(p.check('/a/1', 'bot', 'index').qualifiers.map((q) => q.text)).toEqual(['time-limit=3-days', 'must-use-resource=/idx.txt']);
  });

  it('the narrowest permission alone gives the qualifiers', () => {
    const p = parseAcap(lines('ACAP-crawler: *', 'ACAP-allow-present: / time-limit=until-recrawled', 'ACAP-allow-present: /archive/'))!;
    expect(p.check('/archive/1', 'bot', 'present')).toMatchObject({ allowed: true, line: 3, qualifiers: [] });
    expect(p.check('/news/1', 'bot', 'present').qualifiers.map((q) => q.text)).toEqual(['time-limit=until-recrawled']);
  });

  it('a prohibition carries no qualifiers', () => {
    const p = parseAcap(lines('ACAP-crawler: *', 'ACAP-allow-index: / time-limit=3-days', 'ACAP-disallow-index: /private/'))!;
    expect(p.check('/private/1', 'bot', 'index').qualifiers).toEqual([]);
  });
});

describe('§2.2 a record naming the crawler overrides the * record for the usages and resources it covers', () => {
  const body = lines(
    'ACAP-crawler: *',
    'ACAP-disallow-crawl: /',
    'ACAP-allow-index: /',
    'ACAP-allow-crawl: /public/a/',
    'ACAP-crawler: bot',
    'ACAP-allow-crawl: /public/',
    'ACAP-disallow-crawl: /public/b/',
  );
  run([
    [body, 'bot', '/public/x', 'crawl', true, 6, 'acap', 'covered by the named record'],
    [body, 'BOT', '/public/x', 'crawl', true, 6, 'acap', 'crawler names are case-insensitive'],
    [body, 'bot', '/public/a/x', 'crawl', true, 6, 'acap', 'the named record wins even where * is narrower'],
    [body, 'bot', '/public/b/x', 'crawl', false, 7, 'acap', 'conflict inside the named record'],
    [body, 'bot', '/private', 'crawl', false, 2, 'acap', 'resource not covered by the named record'],
    [body, 'bot', '/public/x', 'index', true, 3, 'acap', 'usage not covered by the named record'],
    [body, 'otherbot', '/public/x', 'crawl', false, 2, 'acap', 'another crawler: only *'],
    [body, 'otherbot', '/public/a/x', 'crawl', true, 4, 'acap', 'another crawler: narrowest in *'],
    [body, 'bo', '/public/x', 'crawl', false, 2, 'acap', 'names are compared whole, not as prefixes'],
  ]);

  const merged = lines('ACAP-crawler: bot', 'ACAP-disallow-index: /', 'ACAP-crawler: other', 'ACAP-allow-index: /', 'ACAP-crawler: bot', 'ACAP-allow-index: /news/');
  run([
    [merged, 'bot', '/news/a', 'index', true, 6, 'acap', 'records naming the same crawler are read together'],
    [merged, 'bot', '/sport/a', 'index', false, 2, 'acap', 'records naming the same crawler are read together'],
  ]);
});

describe('§2.5.5 present-* usages fall back to present; §2.5.6 other covers what is not explicitly decided', () => {
  const presentBody = lines(
    'ACAP-crawler: *',
    'ACAP-allow-present-snippet: /',
    'ACAP-crawler: bot',
    'ACAP-allow-present: /news/a/',
    'ACAP-disallow-present-snippet: /news/',
    'ACAP-disallow-present: /private/',
  );
  run([
    [presentBody, 'bot', '/news/a/1', 'present-snippet', false, 5, 'acap', 'a present-snippet field decides before present fields, whatever their scope'],
    [presentBody, 'bot', '/news/a/1', 'present-thumbnail', true, 4, 'acap', 'present decides present-thumbnail'],
    [presentBody, 'bot', '/news/a/1', 'present', true, 4, 'acap', 'present itself'],
    [presentBody, 'bot', '/private/1', 'present-snippet', false, 6, 'acap', 'the named present field overrides * present-snippet'],
    [presentBody, 'bot', '/other', 'present-snippet', true, 2, 'acap', 'nothing named applies: *'],
    [presentBody, 'other', '/news/1', 'present', true, 0, 'default', 'present-* fields never decide present'],
    [presentBody, 'bot', '/news/b', 'present-link', true, 0, 'default', 'no field'],
  ]);

  const otherBody = lines(
    'ACAP-crawler: *',
    'ACAP-allow-index: /',
    'ACAP-disallow-other: /private/',
    'ACAP-crawler: bot',
    'ACAP-disallow-other: /',
    'ACAP-allow-follow: /',
  );
  run([
    [otherBody, 'bot', '/a', 'index', false, 5, 'acap', 'the named record prohibits everything it does not permit'],
    [otherBody, 'bot', '/a', 'follow', true, 6, 'acap', 'explicitly permitted'],
    [otherBody, 'bot', '/a', 'crawl', false, 5, 'acap', 'other covers crawl too'],
    [otherBody, 'bot', '/a', 'present-snippet', false, 5, 'acap', 'other after present-snippet and present'],
    [otherBody, 'x', '/private/1', 'index', true, 2, 'acap', 'the usage field decides before other'],
    [otherBody, 'x', '/private/1', 'preserve', false, 3, 'acap', 'other'],
    [otherBody, 'x', '/public/1', 'preserve', true, 0, 'default', 'other does not match'],
    [otherBody, 'x', '/private/1', 'other', false, 3, 'acap', 'checking other itself'],
    [lines('ACAP-crawler: *', 'ACAP-allow-other: /'), 'x', '/a', 'present-oldcopy', true, 2, 'acap', 'a permission for other (§2.5.6 NOTE: possible, no known use)'],
  ]);
});

describe('§2.3.3 usage purposes: sub-records apply when the crawler states a matching purpose', () => {
  const body = lines(
    'ACAP-crawler: *',
    'ACAP-disallow-index: /',
    'ACAP-usage-purpose: news$',
    'ACAP-usage-purpose: http://news.search.*/*',
    'ACAP-allow-index: /',
    'ACAP-usage-purpose: image',
    'ACAP-allow-index: /img/',
    'ACAP-disallow-present: /',
    'ACAP-crawler: bot',
    'ACAP-allow-present: /',
  );
  const purposeRows = (purpose: string, rows: [crawler: string, url: string, usage: AcapUsage, allowed: boolean, line: number, source: Source][]): void => {
    describe(`purpose ${JSON.stringify(purpose)}`, () => run(rows.map(([c, u, us, a, l, s]): Row => [body, c, u, us, a, l, s, purpose]), purpose));
  };
  purposeRows('news', [
    ['x', '/a', 'index', true, 5, 'acap'],
    ['x', '/a', 'present', true, 0, 'default'],
  ]);
  purposeRows('NEWS', [['x', '/a', 'index', true, 5, 'acap']]);
  purposeRows('newsletter', [['x', '/a', 'index', false, 2, 'acap']]);
  purposeRows('http://news.search.example/today', [['x', '/a', 'index', true, 5, 'acap']]);
  purposeRows('imagery', [
    ['x', '/img/1', 'index', true, 7, 'acap'],
    ['x', '/a', 'index', false, 2, 'acap'],
    ['x', '/a', 'present', false, 8, 'acap'],
    ['bot', '/a', 'present', true, 10, 'acap'],
  ]);
  describe('no purpose: sub-records do not apply', () => {
    run([
      [body, 'x', '/img/1', 'index', false, 2, 'acap', ''],
      [body, 'x', '/a', 'present', true, 0, 'default', ''],
    ]);
  });
});

describe('§2.9 interplay with conventional records', () => {
  const conventional = lines('User-agent: *', 'Disallow: /private/', 'Allow: /private/open/', '', 'User-agent: bot', 'Disallow: /', '');
  run([
    [conventional + lines('ACAP-crawler: *', 'ACAP-disallow-index: /'), 'x', '/private/a', 'crawl', false, 2, 'conventional', 'no ACAP crawl field: REP decides'],
    [conventional + lines('ACAP-crawler: *', 'ACAP-disallow-index: /'), 'x', '/private/open/a', 'crawl', true, 3, 'conventional', 'REP allow with its line'],
    [conventional + lines('ACAP-crawler: *', 'ACAP-disallow-index: /'), 'x', '/public', 'crawl', true, 0, 'default', 'no rule anywhere'],
    [conventional + lines('ACAP-crawler: *', 'ACAP-disallow-index: /'), 'bot', '/public', 'crawl', false, 6, 'conventional', 'REP selects groups by the same crawler name'],
    [conventional + lines('ACAP-crawler: *', 'ACAP-allow-crawl: /private/'), 'x', '/private/a', 'crawl', true, 9, 'acap', 'ACAP wins where both decide'],
    [conventional + lines('ACAP-crawler: *', 'ACAP-allow-crawl: /'), 'x', '/private/a', 'crawl', true, 9, 'acap', 'an ACAP field that decides wins even over a narrower REP rule'],
    [conventional + lines('ACAP-crawler: *', 'ACAP-disallow-index: /'), 'x', '/private/a', 'index', false, 9, 'acap', 'only crawl falls back'],
    [conventional + lines('ACAP-crawler: *', 'ACAP-disallow-index: /x'), 'x', '/private/a', 'follow', true, 0, 'default', 'only crawl falls back'],
    [`ACAP-ignore-conventional-records\n${conventional}${lines('ACAP-crawler: *', 'ACAP-disallow-index: /')}`, 'x', '/private/a', 'crawl', true, 0, 'default', 'conventional records ignored (§2.9.1)'],
    [lines('ACAP-crawler: *', 'Disallow: /x', 'ACAP-allow-index: /'), 'y', '/x', 'index', true, 3, 'acap', 'a conventional field inside an ACAP record is ignored and does not end it'],
    [lines('ACAP-crawler: a', 'User-agent: b', 'Disallow: /', 'ACAP-disallow-index: /'), 'a', '/x', 'index', false, 4, 'acap', 'a user-agent line does not end an ACAP record'],
  ]);
});

describe('URLs: path + query, percent-normalized and case-folded like the Wasm matcher sees them', () => {
  const s = (...l: string[]): string => lines('ACAP-crawler: *', ...l);
  run([
    [s('ACAP-disallow-index: /a?print=1'), 'x', 'https://example.com/a?print=1&x=2#top', 'index', false, 2, 'acap', 'absolute URL with query and fragment'],
    [s('ACAP-disallow-index: /a?print=1'), 'x', '/a#?print=1', 'index', true, 0, 'default', 'the fragment is not matched'],
    [s('ACAP-disallow-index: /~joe/'), 'x', '/%7Ejoe/page', 'index', false, 2, 'acap', '%7E is ~ (RFC 9309 §2.2.2 normalization)'],
    [s('ACAP-disallow-index: /caf%C3%A9/'), 'x', '/café/menu', 'index', false, 2, 'acap', 'non-ASCII is compared percent-encoded'],
    [s('ACAP-disallow-index: /a%2fb'), 'x', '/a%2Fb', 'index', false, 2, 'acap', 'escape hex digits in any case'],
    [s('ACAP-disallow-index: /*.PDF$'), 'x', 'http://h/doc/A.pdf', 'index', false, 2, 'acap', 'case-insensitive with an anchor'],
    [s('ACAP-disallow-index: /*.pdf$'), 'x', '/a.pdf?x', 'index', true, 0, 'default', 'the query is part of the path'],
    [s('ACAP-disallow-index: /'), 'x', 'https://example.com', 'index', false, 2, 'acap', 'an empty path is /'],
  ]);
});

describe('API', () => {
  const p = parseAcap(lines('ACAP-crawler: *', 'ACAP-allow-present-snippet: /news/ max-length=250-chars', 'ACAP-disallow-crawl: /private/'))!;

  it('permissions() gives every usage', () => {
    const all = p.permissions('/news/1', 'bot');
    expect(Object.keys(all)).toEqual([...ACAP_USAGES]);
    expect(all['present-snippet']).toEqual({ allowed: true, line: 2, source: 'acap', qualifiers: [{ type: 'max-length', text: 'max-length=250-chars', count: 250, unit: 'chars' }] });
    expect(all.crawl).toEqual({ allowed: true, line: 0, qualifiers: [], source: 'default' });
    for (const usage of ACAP_USAGES) expect(all[usage]).toEqual(p.check('/news/1', 'bot', usage));
  });

  it('alternating URLs and crawlers do not leak state between checks', () => {
    expect(p.check('/private/1', 'bot', 'crawl').allowed).toBe(false);
    expect(p.check('/news/1', 'bot', 'crawl').allowed).toBe(true);
    expect(p.check('/private/1', 'other', 'crawl').allowed).toBe(false);
    expect(p.check('/news/1', 'bot', 'present-snippet').allowed).toBe(true);
  });

  it('answers correctly for many crawler names (the per-crawler cache is bounded)', () => {
    const q = parseAcap(lines('ACAP-crawler: *', 'ACAP-disallow-index: /', 'ACAP-crawler: bot7', 'ACAP-allow-index: /'))!;
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 200; i++) expect(q.check('/a', `bot${i}`, 'index').allowed).toBe(i === 7);
    }
  });

  it('rejects wrong argument types with errors naming the argument', () => {
    const anyP = p as unknown as { check(...a: unknown[]): unknown; permissions(...a: unknown[]): unknown; references(a: unknown): unknown };
    expect(() => anyP.check(42, 'bot', 'crawl')).toThrow(new TypeError('url must be a string, got number'));
    expect(() => anyP.check('/a', null, 'crawl')).toThrow(new TypeError('crawler must be a string, got null'));
    expect(() => anyP.check('/a', 'bot', 'store')).toThrow(RangeError);
    expect(() => anyP.check('/a', 'bot', 'store')).toThrow(/usage must be one of crawl, follow, .*present-link; got 'store'/);
    expect(() => anyP.check('/a', 'bot', 'Crawl')).toThrow(/got 'Crawl'/);
    expect(() => anyP.check('/a', 'bot', 'crawl', { purpose: 5 })).toThrow(new TypeError('options.purpose must be a string, got number'));
    expect(() => anyP.check('/a', 'bot', 'crawl', 'news')).toThrow(new TypeError('options must be an object, got string'));
    expect(() => anyP.permissions('/a', 7)).toThrow(new TypeError('crawler must be a string, got number'));
    expect(() => anyP.references(undefined)).toThrow(new TypeError('crawler must be a string, got undefined'));
  });

  it('returns null for a file without ACAP fields and a policy for one with only broken ones', () => {
    expect(parseAcap('User-agent: *\nDisallow: /\n# ACAP-crawler: *\n')).toBeNull();
    expect(parseAcap('')).toBeNull();
    const broken = parseAcap('ACAP-crawlr: *\n')!;
    expect(broken.diagnostics.map((d) => d.code)).toEqual(['unknown-field']);
    expect(broken.check('/a', 'bot', 'index').source).toBe('default');
  });

  it('requests and references: named records first, then *', () => {
    const r = parseAcap(lines(
      'ACAP-crawler: *', 'ACAP-request-re-crawl: /all.htm', 'ACAP-request-take-down: /gone.htm',
      'ACAP-crawler: bot', 'ACAP-request-re-crawl: /mine.htm',
      'ACAP-crawler: bot2', 'ACAP-permissions-reference: http://example.com/acap/bot2.txt',
      'ACAP-crawler: *', 'ACAP-permissions-reference: /acap.txt',
    ))!;
    expect(r.reCrawlRequests('bot').map((q) => q.path)).toEqual(['/mine.htm', '/all.htm']);
    expect(r.reCrawlRequests('other').map((q) => q.path)).toEqual(['/all.htm']);
    expect(r.takeDownRequests('bot').map((q) => [q.path, q.line])).toEqual([['/gone.htm', 3]]);
    expect(r.references('BOT2')).toEqual([{ value: 'http://example.com/acap/bot2.txt', line: 7 }, { value: '/acap.txt', line: 9 }]);
    expect(r.references('bot')).toEqual([{ value: '/acap.txt', line: 9 }]);
  });
});
