// ACAP 1.0 §2–3: every forbidden or malformed field yields one diagnostic { line, code, message }, the rest is used.
import { describe, expect, it } from 'vitest';
import { Robots } from '../src/index.js';
import { ACAP_DIAGNOSTIC_CODES, type AcapDiagnosticCode, type AcapPolicy } from '../src/acap/index.js';

/** The ACAP policy of a robots.txt body, as the public API exposes it. */
function parseAcap(body: string): AcapPolicy | null {
  return Robots.parse(body).acap;
}

/** A record at the end of every case: proves the rest of the file is still used. */
const TAIL = 'ACAP-crawler: tailbot\nACAP-disallow-crawl: /tail/';

type Case = [name: string, body: string, expected: [line: number, code: AcapDiagnosticCode, messagePart: string][]];

const CASES: Case[] = [
  // §2.9.3
  ['version without version=', '##ACAP 1.0', [[1, 'version-malformed', '##ACAP version=1.0']]],
  ['version with two values', '##ACAP version=1.0 2.0', [[1, 'version-malformed', '§2.9.3']]],
  ['version other than 1.0', '##ACAP version=2.0', [[1, 'version-unsupported', 'read as ACAP 1.0']]],
  // robots.txt records are `key: value`
  ['ACAP field without a colon', 'ACAP-crawler *', [[1, 'field-without-colon', "'ACAP-crawler' has no ':'"]]],
  ['unknown ACAP field', 'ACAP-crawl-delay: 10', [[1, 'unknown-field', 'ACAP-crawl-delay is not an ACAP 1.0 field']]],
  // §2.9.1
  ['ignore directive after definitions', 'ACAP-resource-set: a /a/\nACAP-ignore-conventional-records', [[2, 'ignore-conventional-late', 'first at line 1']]],
  ['ignore directive after a record', 'ACAP-crawler: x\nACAP-allow-crawl: /\nACAP-ignore-conventional-records', [[3, 'ignore-conventional-late', 'honoured anyway']]],
  ['ignore directive with a value', 'ACAP-ignore-conventional-records: yes', [[1, 'ignore-conventional-value', "'yes' ignored"]]],
  ['ignore directive twice', 'ACAP-ignore-conventional-records\nACAP-ignore-conventional-records', [[2, 'ignore-conventional-repeated', 'line 1']]],
  // §2.7
  ['definition after a record', 'ACAP-crawler: x\nACAP-allow-crawl: /\nACAP-resource-set: late /late/', [[3, 'definition-after-record', 'must precede all records']]],
  ['resource set without a name', 'ACAP-resource-set:', [[1, 'definition-malformed', 'needs a name']]],
  ['resource set name not starting with a letter', 'ACAP-resource-set: 1set /a/', [[1, 'definition-malformed', "got '1set'"]]],
  ['resource set without patterns', 'ACAP-resource-set: empty', [[1, 'definition-malformed', 'lists no resource path patterns']]],
  ['resource set defined twice', 'ACAP-resource-set: s /a/\nACAP-resource-set: S /b/', [[2, 'duplicate-name', "'s' is already defined at line 1"]]],
  ['qualified usage without usage', 'ACAP-qualified-usage: cache', [[1, 'definition-malformed', 'names no standard usage']]],
  ['qualified usage without qualifiers', 'ACAP-qualified-usage: cache preserve', [[1, 'definition-malformed', 'needs at least one']]],
  ['qualified usage of an unknown usage', 'ACAP-qualified-usage: cache store time-limit=3-days', [[1, 'unknown-usage', "'store' is not an ACAP 1.0 usage"]]],
  ['qualified usage with a bad qualifier', 'ACAP-qualified-usage: cache preserve time-limit=forever', [[1, 'invalid-qualifier', 'time-limit=forever']]],
  ['qualified and composite share a name', 'ACAP-qualified-usage: u preserve time-limit=1-days\nACAP-composite-usage: U crawl', [[2, 'duplicate-name', "usage 'u' is already defined at line 1"]]],
  ['composite without parts', 'ACAP-composite-usage: c', [[1, 'definition-malformed', 'lists no usages']]],
  ['composite with an unknown usage', 'ACAP-composite-usage: c crawl extract', [[1, 'unknown-usage', "'extract' is not an ACAP 1.0 usage"]]],
  ['composite naming a later qualified usage', 'ACAP-composite-usage: c (q)\nACAP-qualified-usage: q index time-limit=1-days', [[1, 'undefined-usage', 'usage (q) is not defined']]],
  ['composite inside a composite', 'ACAP-composite-usage: a crawl\nACAP-composite-usage: b (a)', [[2, 'definition-malformed', '(a) is a composite usage']]],
  // §2.4.1.3 / §2.4.2 / §2.5
  ['permission for an undefined local usage', 'ACAP-crawler: x\nACAP-allow-(nope): /', [[2, 'undefined-usage', 'usage (nope) is not defined']]],
  ['permission for a rejected local usage', 'ACAP-composite-usage: c extract\nACAP-crawler: x\nACAP-allow-(c): /', [
    [1, 'unknown-usage', "'extract'"],
    [3, 'undefined-usage', 'line 1 was ignored'],
  ]],
  ['unknown usage in a permission', 'ACAP-crawler: x\nACAP-allow-extract: /', [[2, 'unknown-usage', "'extract' is not an ACAP 1.0 usage"]]],
  ['unknown usage in a prohibition', 'ACAP-crawler: x\nACAP-disallow-present-image: /', [[2, 'unknown-usage', "'present-image'"]]],
  ['malformed qualifier text', 'ACAP-crawler: x\nACAP-allow-index: /a/ time-limit', [[2, 'invalid-qualifier', "'time-limit' is not a qualifier"]]],
  ['qualifier without value', 'ACAP-crawler: x\nACAP-allow-index: /a/ time-limit=', [[2, 'invalid-qualifier', "qualifier 'time-limit' has no value"]]],
  ['unknown qualifier type', 'ACAP-crawler: x\nACAP-allow-index: /a/ colour=red', [[2, 'invalid-qualifier', "'colour' is not an ACAP 1.0 qualifier type"]]],
  ['quote in a qualifier value', "ACAP-crawler: x\nACAP-allow-index: /a/ must-use-resource='/x'", [[2, 'invalid-qualifier', "''' is not allowed"]]],
  ['qualifier on crawl', 'ACAP-crawler: x\nACAP-allow-crawl: /a/ time-limit=3-days', [[2, 'qualifier-not-allowed', 'time-limit cannot qualify crawl']]],
  ['max-length on present', 'ACAP-crawler: x\nACAP-allow-present: /a/ max-length=10-words', [[2, 'qualifier-not-allowed', 'only present-snippet, present-oldsnippet']]],
  ['qualifier repeated', 'ACAP-crawler: x\nACAP-allow-index: /a/ time-limit=3-days time-limit=4-days', [[2, 'qualifier-repeated', 'only occur once']]],
  ['prohibited-modification=any with another', 'ACAP-crawler: x\nACAP-allow-present: /a/ prohibited-modification=any prohibited-modification=style', [[2, 'qualifier-repeated', 'cannot be combined']]],
  ['prohibited-modification repeated verbatim', 'ACAP-crawler: x\nACAP-allow-present: /a/ prohibited-modification=style prohibited-modification=style', [[2, 'qualifier-repeated', 'is repeated']]],
  ['qualifier on a prohibition', 'ACAP-crawler: x\nACAP-disallow-index: /a/ time-limit=3-days', [[2, 'prohibition-qualified', 'prohibition applied']]],
  ['qualifiers on a local usage permission', 'ACAP-composite-usage: c crawl index\nACAP-crawler: x\nACAP-allow-(c): /a/ time-limit=3-days', [[3, 'local-usage-qualified', '§2.4.1.3']]],
  ['prohibition of a local usage', 'ACAP-composite-usage: c crawl index\nACAP-crawler: x\nACAP-disallow-(c): /a/', [[3, 'local-usage-prohibition', 'read as prohibiting crawl, index']]],
  // §2.3
  ['permission before any crawler', 'ACAP-allow-crawl: /', [[1, 'field-outside-record', 'belongs to no record']]],
  ['usage purpose before any crawler', 'ACAP-usage-purpose: news', [[1, 'field-outside-record', 'ACAP-usage-purpose']]],
  ['empty crawler name', 'ACAP-crawler:', [[1, 'crawler-empty', 'needs a crawler name']]],
  ['second crawler in a * record', 'ACAP-crawler: *\nACAP-crawler: searchbot\nACAP-allow-index: /', [[2, 'crawler-any-mixed', 'must not contain other crawler fields']]],
  ['* joining a named record', 'ACAP-crawler: searchbot\nACAP-crawler: *\nACAP-allow-index: /', [[2, 'crawler-any-mixed', 'cannot join the record of line 1']]],
  ['same crawler twice in a record', 'ACAP-crawler: searchbot\nACAP-crawler: SearchBot\nACAP-allow-index: /', [[2, 'crawler-repeated', 'already named']]],
  ['field after a permissions reference', 'ACAP-crawler: x\nACAP-permissions-reference: /x.txt\nACAP-allow-index: /', [[3, 'reference-misplaced', 'line 2']]],
  ['permissions reference after other fields', 'ACAP-crawler: x\nACAP-allow-index: /\nACAP-permissions-reference: /x.txt', [[3, 'reference-misplaced', 'directly follow the ACAP-crawler fields']]],
  ['empty permissions reference', 'ACAP-crawler: x\nACAP-permissions-reference:', [[2, 'reference-empty', 'needs a path or URI']]],
  ['action request in a sub-record', 'ACAP-crawler: x\nACAP-usage-purpose: news\nACAP-allow-index: /\nACAP-request-re-crawl: /a.htm', [[4, 'request-in-sub-record', 'may not contain action request']]],
  ['unknown action', 'ACAP-crawler: x\nACAP-request-delete: /a.htm', [[2, 'request-unknown-action', "'delete'"]]],
  ['action request with a wildcard', 'ACAP-crawler: x\nACAP-request-take-down: /news/*', [[2, 'request-invalid-path', 'no * or $']]],
  ['action request with an absolute URI', 'ACAP-crawler: x\nACAP-request-re-crawl: http://example.com/a', [[2, 'request-invalid-path', 'single resource path']]],
  ['empty usage purpose', 'ACAP-crawler: x\nACAP-usage-purpose:\nACAP-allow-index: /', [[2, 'purpose-empty', 'needs a usage purpose']]],
  ['record without fields at the end', '@tail-first\nACAP-crawler: x', [[3, 'empty-record', 'no permission']]],
  ['sub-record without fields', 'ACAP-crawler: x\nACAP-allow-crawl: /\nACAP-usage-purpose: news\nACAP-crawler: y\nACAP-allow-crawl: /', [[3, 'empty-sub-record', 'no permission or prohibition']]],
  // §2.4.3 / §2.4.4 / §2.8
  ['no resource specification', 'ACAP-crawler: x\nACAP-allow-crawl:', [[2, 'resource-missing', 'has no resource specification']]],
  ['qualifier where the resource should be', 'ACAP-crawler: x\nACAP-allow-index: time-limit=3-days', [[2, 'resource-missing', "found the qualifier 'time-limit=3-days'"]]],
  ['undefined resource set', 'ACAP-crawler: x\nACAP-allow-index: the-acap:resource-set:nope', [[2, 'undefined-resource-set', "'nope' is not defined"]]],
  ['resource set whose definition was rejected', 'ACAP-resource-set: bad http://x/\nACAP-crawler: x\nACAP-allow-index: the-acap:resource-set:bad', [
    [1, 'resource-invalid', 'absolute URI'],
    [3, 'undefined-resource-set', 'line 1 was ignored'],
  ]],
  ['$ inside a pattern', 'ACAP-crawler: x\nACAP-allow-index: /a$b', [[2, 'resource-invalid', "'$' may only be the last character"]]],
  ['absolute URI as resource', 'ACAP-crawler: x\nACAP-disallow-crawl: http://example.com/private/', [[2, 'resource-invalid', 'absolute URI']]],
  ['other the-acap: URI as resource', 'ACAP-crawler: x\nACAP-allow-index: the-acap:extract:id:x', [[2, 'resource-invalid', 'not a resource path pattern']]],
  ['pattern not starting with / or *', 'ACAP-crawler: x\nACAP-disallow-crawl: private/', [[2, 'resource-unrooted', "read as '/private/'"]]],
  ['bad pattern inside a resource set keeps the others', 'ACAP-resource-set: s /a/ /b$c/\nACAP-crawler: x\nACAP-allow-index: the-acap:resource-set:s', [[1, 'resource-invalid', "'$' may only be the last character"]]],
];

describe('ACAP diagnostics: one row per forbidden or malformed field', () => {
  it.each(CASES)('%s', (_name, body, expected) => {
    // `@tail-first`: the case is about the end of the file, so the tail record goes first.
    const policy = parseAcap(body.startsWith('@tail-first\n') ? `${TAIL}\n${body.slice(12)}\n` : `${body}\n${TAIL}\n`);
    expect(policy).not.toBeNull();
    const got = policy!.diagnostics.map((d) => [d.line, d.code]);
    expect(got).toEqual(expected.map(([line, code]) => [line, code]));
    expected.forEach(([, , part], i) => expect(policy!.diagnostics[i]!.message).toContain(part));
    // The rest of the file is still used.
    expect(policy!.check('/tail/x', 'tailbot', 'crawl')).toMatchObject({ allowed: false, source: 'acap' });
  });

  it('covers every diagnostic code', () => {
    const codes = new Set(CASES.flatMap(([, , expected]) => expected.map(([, code]) => code)));
    // qualifier-spelling is covered by the spec example of §2.4.1.2 (acap-spec-examples),
    // expansion-budget-exceeded by acap-limits (its effect is the whole file's, not one field's).
    const all = ACAP_DIAGNOSTIC_CODES.filter((c) => c !== 'qualifier-spelling' && c !== 'expansion-budget-exceeded');
    expect([...codes].sort()).toEqual([...all].sort());
  });
});

describe('what happens to the offending field', () => {
  const parse = (body: string): AcapPolicy => parseAcap(body)!;

  it('a definition after a record is not defined', () => {
    const p = parse('ACAP-crawler: x\nACAP-allow-crawl: /\nACAP-resource-set: late /late/\nACAP-crawler: y\nACAP-allow-index: the-acap:resource-set:late\n');
    expect(p.resourceSets.has('late')).toBe(false);
    expect(p.diagnostics.map((d) => d.code)).toEqual(['definition-after-record', 'undefined-resource-set']);
  });

  it('the first of two same-named definitions is kept', () => {
    const p = parse('ACAP-resource-set: s /a/\nACAP-resource-set: s /b/\nACAP-crawler: x\nACAP-disallow-index: the-acap:resource-set:s\n');
    expect(p.resourceSets.get('s')?.patterns).toEqual(['/a/']);
    expect(p.check('/b/1', 'x', 'index').source).toBe('default');
  });

  it('a qualified prohibition still prohibits; an invalid qualified permission permits nothing', () => {
    const p = parse('ACAP-crawler: x\nACAP-disallow-index: /a/ time-limit=3-days\nACAP-allow-index: /b/ time-limit=soon\n');
    expect(p.check('/a/1', 'x', 'index')).toEqual({ allowed: false, line: 2, qualifiers: [], source: 'acap' });
    expect(p.check('/b/1', 'x', 'index')).toEqual({ allowed: true, line: 0, qualifiers: [], source: 'default' });
  });

  it('a prohibition of a local usage prohibits its standard usages', () => {
    const p = parse('ACAP-qualified-usage: cache preserve time-limit=until-recrawled\nACAP-crawler: x\nACAP-disallow-(cache): /a/\n');
    expect(p.check('/a/1', 'x', 'preserve')).toEqual({ allowed: false, line: 3, qualifiers: [], source: 'acap' });
  });

  it('an unrooted pattern is read from the document root', () => {
    const p = parse('ACAP-crawler: x\nACAP-disallow-crawl: private/\n');
    expect(p.records[0]!.rules[0]!.pattern).toBe('/private/');
    expect(p.check('/private/1', 'x', 'crawl').allowed).toBe(false);
  });

  it('a second crawler in a * record is ignored, not added', () => {
    const p = parse('ACAP-crawler: *\nACAP-crawler: searchbot\nACAP-disallow-index: /\n');
    expect(p.records[0]).toMatchObject({ anyCrawler: true, crawlers: [] });
  });

  it('fields after a reference are ignored and the reference kept', () => {
    const p = parse('ACAP-crawler: x\nACAP-permissions-reference: /x.txt\nACAP-disallow-index: /\n');
    expect(p.references('x')).toEqual([{ value: '/x.txt', line: 2 }]);
    expect(p.check('/a', 'x', 'index').source).toBe('default');
  });

  it('a late ignore directive is honoured', () => {
    const p = parse('User-agent: *\nDisallow: /\nACAP-crawler: x\nACAP-allow-index: /\nACAP-ignore-conventional-records\n');
    expect(p.ignoreConventionalRecords).toBe(true);
    expect(p.check('/a', 'x', 'crawl').source).toBe('default');
  });

  it('diagnostics come in line order, each with a 1-based line', () => {
    // The empty sub-record (line 3) is only known when line 5 closes the record.
    const p = parse('ACAP-crawler: a\nACAP-allow-crawl: /\nACAP-usage-purpose: news\nACAP-foo: x\nACAP-crawler: b\nACAP-allow-index: /\n');
    expect(p.diagnostics.map((d) => [d.line, d.code])).toEqual([[3, 'empty-sub-record'], [4, 'unknown-field']]);
  });

  it('a rejected field still ends the crawler list, so two records stay two', () => {
    const p = parse('ACAP-crawler: a\nACAP-allow-extract: /\nACAP-crawler: b\nACAP-disallow-index: /\n');
    expect(p.records.map((r) => r.crawlers)).toEqual([['a'], ['b']]);
    expect(p.check('/x', 'a', 'index').source).toBe('default');
  });

  it('fields after an empty usage purpose stay in their (purpose-less) sub-record', () => {
    const p = parse('ACAP-crawler: a\nACAP-usage-purpose:\nACAP-disallow-index: /\n');
    expect(p.records[0]!.subRecords).toHaveLength(1);
    expect(p.records[0]!.rules).toEqual([]);
    expect(p.check('/x', 'a', 'index', { purpose: 'news' }).source).toBe('default');
  });

  it('the google profile lexes ACAP fields the same way', () => {
    const body = 'ACAP-crawler: x\nACAP-allow-foo: /\nACAP-ignore-conventional-records\n';
    const p = Robots.parse(body, { profile: 'google' }).acap!;
    expect(p.diagnostics.map((d) => d.code)).toEqual(['unknown-usage', 'ignore-conventional-late']);
    expect(p.ignoreConventionalRecords).toBe(true);
  });
});
