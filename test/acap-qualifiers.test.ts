// ACAP 1.0 §2.4.1.2, §2.5, §3 qualifiers: every value form, which usages each may restrict, repetition rules.
import { describe, expect, it } from 'vitest';
import { Robots } from '../src/index.js';
import { ACAP_USAGES, type AcapPolicy, type AcapQualifier, type AcapQualifierType, type AcapUsage } from '../src/acap/index.js';
import { parseQualifiers, splitQualifierSpecs } from '../src/acap/qualifiers.js';

/** The ACAP policy of a robots.txt body, as the public API exposes it. */
function parseAcap(body: string): AcapPolicy | null {
  return Robots.parse(body).acap;
}

/** The one qualifier `spec` parses to for `usage`, or the problem codes. */
function one(spec: string, usage: AcapUsage): AcapQualifier | string[] {
  const r = parseQualifiers(spec, usage);
  if (r.problems.length > 0) return r.problems.map((p) => p.code);
  expect(r.qualifiers).toHaveLength(1);
  return r.qualifiers[0]!;
}

describe('time-limit (§2.5.3.1, §2.5.4.1, §2.5.5.2.1)', () => {
  it.each<[string, AcapQualifier | string[]]>([
    ['time-limit=until-recrawled', { type: 'time-limit', text: 'time-limit=until-recrawled', limit: { kind: 'until-recrawled' } }],
    ['time-limit=Until-Recrawled', { type: 'time-limit', text: 'time-limit=Until-Recrawled', limit: { kind: 'until-recrawled' } }],
    ['time-limit=until-2007-12-31', { type: 'time-limit', text: 'time-limit=until-2007-12-31', limit: { kind: 'until-date', date: '2007-12-31' } }],
    ['time-limit=until-2008-02-29', { type: 'time-limit', text: 'time-limit=until-2008-02-29', limit: { kind: 'until-date', date: '2008-02-29' } }],
    ['time-limit=3-days', { type: 'time-limit', text: 'time-limit=3-days', limit: { kind: 'days', days: 3 } }],
    ['time-limit=0-days', { type: 'time-limit', text: 'time-limit=0-days', limit: { kind: 'days', days: 0 } }],
    ['time-limit = 30-DAYS', { type: 'time-limit', text: 'time-limit=30-DAYS', limit: { kind: 'days', days: 30 } }],
    ['time-limit=until-2007-02-29', ['invalid-qualifier']],
    ['time-limit=until-2007-13-01', ['invalid-qualifier']],
    ['time-limit=until-07-12-31', ['invalid-qualifier']],
    ['time-limit=until-2007-1-31', ['invalid-qualifier']],
    ['time-limit=until-tomorrow', ['invalid-qualifier']],
    ['time-limit=-3-days', ['invalid-qualifier']],
    ['time-limit=3-day', ['invalid-qualifier']],
    ['time-limit=3.5-days', ['invalid-qualifier']],
    ['time-limit=99999999999999999999-days', ['invalid-qualifier']],
    ['time-limit=forever', ['invalid-qualifier']],
  ])('%s', (spec, expected) => {
    expect(one(spec, 'index')).toEqual(expected);
  });

  it('until-recrawl (the §2.4.1.2 example) is read as until-recrawled, with a note', () => {
    const r = parseQualifiers('time-limit=until-recrawl', 'preserve');
    expect(r.problems).toEqual([]);
    expect(r.qualifiers[0]).toMatchObject({ limit: { kind: 'until-recrawled' } });
    expect(r.notes.map((n) => n.code)).toEqual(['qualifier-spelling']);
  });
});

describe('max-length (§2.5.5.2.3)', () => {
  it.each<[string, AcapQualifier | string[]]>([
    ['max-length=250-chars', { type: 'max-length', text: 'max-length=250-chars', count: 250, unit: 'chars' }],
    ['max-length=30-words', { type: 'max-length', text: 'max-length=30-words', count: 30, unit: 'words' }],
    ['max-length=30-Words', { type: 'max-length', text: 'max-length=30-Words', count: 30, unit: 'words' }],
    ['max-length=30-lines', ['invalid-qualifier']],
    ['max-length=chars', ['invalid-qualifier']],
    ['max-length=-5-chars', ['invalid-qualifier']],
    ['max-length=250', ['invalid-qualifier']],
  ])('%s', (spec, expected) => {
    expect(one(spec, 'present-snippet')).toEqual(expected);
  });
});

describe('must-use-resource (§2.5.3.2, §2.5.5.2.2)', () => {
  it.each<[string, AcapQualifier | string[]]>([
    ['must-use-resource=/page-image-index.txt', { type: 'must-use-resource', text: 'must-use-resource=/page-image-index.txt', uri: '/page-image-index.txt', target: { kind: 'uri', uri: '/page-image-index.txt' } }],
    ['must-use-resource=http://example.com/i.txt', { type: 'must-use-resource', text: 'must-use-resource=http://example.com/i.txt', uri: 'http://example.com/i.txt', target: { kind: 'uri', uri: 'http://example.com/i.txt' } }],
    ['must-use-resource=the-acap:extract:id:main', { type: 'must-use-resource', text: 'must-use-resource=the-acap:extract:id:main', uri: 'the-acap:extract:id:main', target: { kind: 'id', name: 'main' } }],
    ['must-use-resource=the-acap:extract:class:abstract', { type: 'must-use-resource', text: 'must-use-resource=the-acap:extract:class:abstract', uri: 'the-acap:extract:class:abstract', target: { kind: 'class', name: 'abstract' } }],
    ['must-use-resource=The-ACAP:Extract:META:description', { type: 'must-use-resource', text: 'must-use-resource=The-ACAP:Extract:META:description', uri: 'The-ACAP:Extract:META:description', target: { kind: 'meta', name: 'description' } }],
    ['must-use-resource=the-acap:extract:xpath:/html', ['invalid-qualifier']],
    ['must-use-resource=the-acap:extract:id:', ['invalid-qualifier']],
    ['must-use-resource=the-acap:resource-set:x', ['invalid-qualifier']],
    ['must-use-resource="/x"', ['invalid-qualifier']],
  ])('%s', (spec, expected) => {
    expect(one(spec, 'index')).toEqual(expected);
  });
});

describe('must-include-resource (§2.5.5.2.5)', () => {
  it.each<[string, AcapQualifier | string[]]>([
    ['must-include-resource=http://example.com/credits.html', { type: 'must-include-resource', text: 'must-include-resource=http://example.com/credits.html', uri: 'http://example.com/credits.html', role: null, target: { kind: 'uri', uri: 'http://example.com/credits.html' } }],
    ['must-include-resource=the-acap:credit:id:photo-credit', { type: 'must-include-resource', text: 'must-include-resource=the-acap:credit:id:photo-credit', uri: 'the-acap:credit:id:photo-credit', role: 'credit', target: { kind: 'id', name: 'photo-credit' } }],
    ['must-include-resource=the-acap:credit:class:byline', { type: 'must-include-resource', text: 'must-include-resource=the-acap:credit:class:byline', uri: 'the-acap:credit:class:byline', role: 'credit', target: { kind: 'class', name: 'byline' } }],
    ['must-include-resource=the-acap:credit:meta:copyright', { type: 'must-include-resource', text: 'must-include-resource=the-acap:credit:meta:copyright', uri: 'the-acap:credit:meta:copyright', role: 'credit', target: { kind: 'meta', name: 'copyright' } }],
    ['must-include-resource=the-acap:credit:http://example.com/c.png', { type: 'must-include-resource', text: 'must-include-resource=the-acap:credit:http://example.com/c.png', uri: 'the-acap:credit:http://example.com/c.png', role: 'credit', target: { kind: 'uri', uri: 'http://example.com/c.png' } }],
    ['must-include-resource=the-acap:link:/terms.html', { type: 'must-include-resource', text: 'must-include-resource=the-acap:link:/terms.html', uri: 'the-acap:link:/terms.html', role: 'link', target: { kind: 'uri', uri: '/terms.html' } }],
    ['must-include-resource=the-acap:sponsor:id:x', ['invalid-qualifier']],
    ['must-include-resource=the-acap:credit:', ['invalid-qualifier']],
  ])('%s', (spec, expected) => {
    expect(one(spec, 'present')).toEqual(expected);
  });
});

describe('prohibited-modification, prohibited-context, required-context (§2.5.5.2.4, .6, .7)', () => {
  it.each(['any', 'format', 'style', 'translation', 'annotation'] as const)('prohibited-modification=%s', (m) => {
    expect(one(`prohibited-modification=${m}`, 'present')).toEqual({ type: 'prohibited-modification', text: `prohibited-modification=${m}`, modification: m });
  });
  it('rejects other values', () => {
    expect(one('prohibited-modification=colour', 'present')).toEqual(['invalid-qualifier']);
    expect(one('prohibited-context=within-original-frame', 'present-original')).toEqual(['invalid-qualifier']);
    expect(one('required-context=within-user-frame', 'present-original')).toEqual(['invalid-qualifier']);
  });
  it('reads the frame contexts', () => {
    expect(one('prohibited-context=within-user-frame', 'present-oldcopy')).toEqual({ type: 'prohibited-context', text: 'prohibited-context=within-user-frame', context: 'within-user-frame' });
    expect(one('required-context=Within-Original-Frame', 'present-currentcopy')).toEqual({ type: 'required-context', text: 'required-context=Within-Original-Frame', context: 'within-original-frame' });
  });
  it('repeats prohibited-modification, but never with any and never the same twice', () => {
    expect(parseQualifiers('prohibited-modification=format prohibited-modification=translation prohibited-modification=style', 'present').problems).toEqual([]);
    expect(parseQualifiers('prohibited-modification=any prohibited-modification=format', 'present').problems.map((p) => p.code)).toEqual(['qualifier-repeated']);
    expect(parseQualifiers('prohibited-modification=any prohibited-modification=any', 'present').problems.map((p) => p.code)).toEqual(['qualifier-repeated']);
  });
  it('allows every other qualifier once per field (§2.5.5.2)', () => {
    expect(parseQualifiers('max-length=1-words max-length=2-words', 'present-snippet').problems.map((p) => p.code)).toEqual(['qualifier-repeated']);
    expect(parseQualifiers('time-limit=1-days max-length=2-words must-use-resource=/a must-include-resource=/b', 'present-snippet').problems).toEqual([]);
  });
});

describe('which usages each qualifier may restrict (§2.4.1.2: only index, preserve, present and its derivatives)', () => {
  const PRESENT = ACAP_USAGES.filter((u) => u.startsWith('present'));
  const allowed: Record<AcapQualifierType, readonly AcapUsage[]> = {
    'time-limit': ['index', 'preserve', ...PRESENT],
    'must-use-resource': ['index', ...PRESENT],
    'max-length': ['present-snippet', 'present-oldsnippet'],
    'prohibited-modification': ['present', 'present-original', 'present-currentcopy', 'present-oldcopy'],
    'must-include-resource': PRESENT,
    'prohibited-context': ['present-original', 'present-currentcopy', 'present-oldcopy'],
    'required-context': ['present-original', 'present-currentcopy', 'present-oldcopy'],
  };
  const sample: Record<AcapQualifierType, string> = {
    'time-limit': 'time-limit=3-days',
    'must-use-resource': 'must-use-resource=/r',
    'max-length': 'max-length=30-words',
    'prohibited-modification': 'prohibited-modification=style',
    'must-include-resource': 'must-include-resource=/r',
    'prohibited-context': 'prohibited-context=within-user-frame',
    'required-context': 'required-context=within-original-frame',
  };
  const rows = (Object.keys(allowed) as AcapQualifierType[]).flatMap((type) => ACAP_USAGES.map((usage) => [type, usage, allowed[type].includes(usage)] as const));

  it.each(rows)('%s on %s: %s', (type, usage, ok) => {
    const codes = parseQualifiers(sample[type], usage).problems.map((p) => p.code);
    expect(codes).toEqual(ok ? [] : ['qualifier-not-allowed']);
  });

  it('the collector applies the same table to permission fields and qualified usage definitions', () => {
    const p = parseAcap([
      'ACAP-qualified-usage: q1 follow time-limit=3-days',
      'ACAP-qualified-usage: q2 present-original prohibited-context=within-user-frame',
      'ACAP-crawler: *',
      'ACAP-allow-other: /a/ time-limit=3-days',
      'ACAP-allow-present-oldsnippet: /a/ max-length=20-words',
    ].join('\n'))!;
    expect(p.diagnostics.map((d) => [d.line, d.code])).toEqual([[1, 'qualifier-not-allowed'], [4, 'qualifier-not-allowed']]);
    expect(p.localUsages.has('q1')).toBe(false);
    expect(p.localUsages.has('q2')).toBe(true);
    expect(p.check('/a/1', 'x', 'present-oldsnippet').qualifiers).toMatchObject([{ type: 'max-length', count: 20 }]);
  });
});

describe('qualifier text (§3 qualifier-specification)', () => {
  it.each<[string, { name: string; value: string }[], string | null]>([
    ['time-limit=3-days', [{ name: 'time-limit', value: '3-days' }], null],
    ['time-limit = 3-days\tmax-length= 9-chars', [{ name: 'time-limit', value: '3-days' }, { name: 'max-length', value: '9-chars' }], null],
    ['  ', [], null],
    ['time-limit', [], "'time-limit' is not a qualifier"],
    ['/b', [], "'/b' is not a qualifier"],
    ['a=1 =2', [{ name: 'a', value: '1' }], "'=2' is not a qualifier"],
    ['a=', [], "qualifier 'a' has no value"],
  ])('%j', (text, specs, error) => {
    const r = splitQualifierSpecs(text);
    expect(r.specs).toEqual(specs);
    if (error === null) expect(r.error).toBeNull();
    else expect(r.error).toContain(error);
  });

  it('rejects value characters §3 excludes, naming the character', () => {
    expect(parseQualifiers("must-use-resource=a'b", 'index').problems[0]!.message).toContain("''' is not allowed");
    expect(parseQualifiers('must-use-resource=a"b', 'index').problems[0]!.message).toContain("'\"' is not allowed");
    expect(parseQualifiers('must-use-resource=/café', 'index').problems[0]!.message).toContain("'é' is not allowed");
    expect(parseQualifiers('must-use-resource=/caf%C3%A9', 'index').problems).toEqual([]);
  });
});
