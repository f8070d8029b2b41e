// ACAP 1.0 §2.8 pattern matching and §2.4.5 scope comparison: reference matcher, Wasm agreement, scope order.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareScope, narrowestRules, type AcapRule } from '../src/acap/index.js';
import {
  RESOURCE_TABLE_FLAGS,
  compilePurposePatterns,
  compileResourcePatterns,
  matchPatternReference,
} from '../src/acap/match.js';
import { lowerAsciiBytes, normalizePatternRfc } from '../src/rules/normalize.js';
import { getEngine } from '../src/wasm/index.js';

const decoder = new TextDecoder();
const encoder = new TextEncoder();

describe('§2.8 reference matcher: "*" any run, final "$" anchors, otherwise a prefix; case-insensitive', () => {
  it.each<[pattern: string, path: string, expected: boolean]>([
    ['/', '/', true],
    ['/', '/anything', true],
    ['/news/', '/news/a', true],
    ['/news/', '/news', false],
    ['/News/', '/NEWS/x', true],
    ['/a$', '/a', true],
    ['/a$', '/ab', false],
    ['*.gif', '/img/a.gif', true],
    ['*.gif', '/img/a.gif?x', true],
    ['*.gif$', '/img/a.gif?x', false],
    ['/*.GIF$', '/a.gif', true],
    ['/special/*.htm', '/special/a/b.htm', true],
    ['/special/*.htm', '/special/b.html', true],
    ['/special/*.htm', '/other/b.htm', false],
    ['/a*b*c', '/aXbYc', true],
    ['/a*b*c', '/aXcYb', false],
    ['/a*b*c$', '/abcbc', true],
    ['/a*b*c$', '/abcb', false],
    ['/a**b', '/ab', true],
    ['/*', '/', true],
    ['*', '', true],
    ['$', '', true],
    ['$', '/', false],
    ['/aab', '/aaab', false],
    ['/*aab', '/aaab', true], // needs KMP's fall-back: a naive restart would skip the match
    ['/*abab$', '/ababab', true],
  ])('%j against %j → %s', (pattern, path, expected) => {
    expect(matchPatternReference(pattern, path)).toBe(expected);
  });
});

describe('§2.4.5 compareScope (1: first narrower, -1: second narrower, 0: cannot tell)', () => {
  it.each<[a: string, b: string, expected: -1 | 0 | 1, rule: string]>([
    ['/news/2007/', '/news/', 1, 'the other pattern ran out'],
    ['/news/', '/news/2007/', -1, 'this pattern ran out'],
    ['/a$', '/a', 1, 'ran out against "$"'],
    ['/a$', '/a*', -1, '"$" against "*": the other is narrower'],
    ['/a$', '/ab', -1, '"$" against a character'],
    ['/a*', '/ab', -1, '"*" against a character'],
    ['/*.gif', '/images/', -1, '"*" against a character'],
    ['/a*', '/a*', 0, 'identical'],
    ['/A/b', '/a/B', 0, 'identical up to case (§2.8)'],
    ['/a*x', '/a*y', 0, 'two different characters'],
    ['/x', '/y', 0, 'two different characters'],
    ['/a', '/a*', -1, 'ran out against "*" (literal application of the method)'],
  ])('%j vs %j → %s (%s)', (a, b, expected) => {
    expect(compareScope(a, b)).toBe(expected);
    expect(compareScope(b, a)).toBe(-expected || 0);
  });

  it('is a strict partial order (irreflexive, antisymmetric, transitive) on random patterns', () => {
    const pattern = fc.string({ unit: fc.constantFrom('a', 'b', '/', '*', '$'), maxLength: 6 });
    fc.assert(
      fc.property(pattern, pattern, pattern, (a, b, c) => {
        expect(compareScope(a, a)).toBe(0);
        expect(compareScope(a, b)).toBe(-compareScope(b, a) || 0);
        if (compareScope(a, b) === 1 && compareScope(b, c) === 1) expect(compareScope(a, c)).toBe(1);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('narrowestRules: the linear trie walk equals the pairwise definition', () => {
  const rule = (pattern: string, i: number): AcapRule => ({ allow: i % 2 === 0, usage: 'crawl', pattern, patternId: i, qualifiers: [], line: i + 1 });
  it('on random pattern sets', () => {
    const pattern = fc.string({ unit: fc.constantFrom('a', 'B', 'b', '/', '*', '$'), maxLength: 6 });
    fc.assert(
      fc.property(fc.array(pattern, { maxLength: 12 }), (patterns) => {
        const rules = patterns.map(rule);
        const pairwise = rules.filter((c) => !rules.some((d) => d !== c && compareScope(d.pattern, c.pattern) === 1));
        expect(narrowestRules(rules)).toEqual(pairwise);
      }),
      { numRuns: 3000 },
    );
  });

  it('keeps every copy of an equal narrowest pattern', () => {
    expect(narrowestRules(['/a', '/A', '/'].map(rule)).map((r) => r.line)).toEqual([1, 2]);
  });
});

describe('the Wasm matcher agrees with the reference on every pattern of a set', () => {
  const engine = getEngine();
  /** What the Wasm side compares: the URL's path+query after RFC 9309 normalization and ASCII case folding. */
  const prepared = (url: string): string => decoder.decode(engine.preparePath(url, RESOURCE_TABLE_FLAGS));
  const normalized = (pattern: string): string => decoder.decode(lowerAsciiBytes(normalizePatternRfc(encoder.encode(pattern))));

  it('resource path patterns (random sets and URLs)', () => {
    const body = fc.string({ unit: fc.constantFrom('a', 'b', 'A', '/', '.', '%', '2', 'f', 'F', '~', 'é', '*'), maxLength: 8 });
    const pattern = fc.tuple(fc.constantFrom('/', '*', '/a'), body, fc.boolean()).map(([head, mid, anchored]) => head + mid + (anchored ? '$' : ''));
    const url = fc.tuple(fc.constantFrom('/', 'https://h.test/', 'http://h.test'), fc.string({ unit: fc.constantFrom('a', 'b', 'A', 'B', '/', '.', '%', '2', 'f', 'F', '~', 'é', '?', '=', '*', '$'), maxLength: 12 }));
    fc.assert(
      fc.property(fc.array(pattern, { minLength: 1, maxLength: 6 }), url, (patterns, [prefix, rest]) => {
        const u = prefix + rest;
        const hits = compileResourcePatterns(patterns).matches(u);
        const path = prepared(u);
        patterns.forEach((p, i) => expect([p, u, hits[i] === 1]).toEqual([p, u, matchPatternReference(normalized(p), path)]));
      }),
      { numRuns: 1500 },
    );
  });

  it('usage purpose patterns are compared as text, case-insensitively', () => {
    const text = fc.string({ unit: fc.constantFrom('n', 'e', 'W', 's', ':', '/', '.', '?', ';', '%', '*'), maxLength: 8 });
    const pattern = fc.tuple(text, fc.boolean()).map(([t, anchored]) => t + (anchored ? '$' : ''));
    const purpose = fc.string({ unit: fc.constantFrom('n', 'N', 'e', 'w', 's', ':', '/', '.', '?', ';', '%'), maxLength: 10 });
    fc.assert(
      fc.property(fc.array(pattern, { minLength: 1, maxLength: 5 }), purpose, (patterns, p) => {
        const hits = compilePurposePatterns(patterns).matches(p);
        patterns.forEach((pat, i) => expect([pat, p, hits[i] === 1]).toEqual([pat, p, matchPatternReference(pat, p)]));
      }),
      { numRuns: 1500 },
    );
  });

  it('purposes that look like URLs are still compared whole', () => {
    const set = compilePurposePatterns(['http://news.search.*/*', '//x', 'news$', '/news']);
    expect([...set.matches('http://news.search.example/today')]).toEqual([1, 0, 0, 0]);
    expect([...set.matches('//x/y')]).toEqual([0, 1, 0, 0]);
    expect([...set.matches('News')]).toEqual([0, 0, 1, 0]);
    expect([...set.matches('/news?x')]).toEqual([0, 0, 0, 1]);
  });

  it('an empty pattern set matches nothing without touching Wasm', () => {
    expect(compileResourcePatterns([]).matches('/a')).toEqual(new Uint8Array(0));
  });

  it('reuses a caller buffer and clears it', () => {
    const set = compileResourcePatterns(['/a', '/b']);
    const out = new Uint8Array([1, 1]);
    expect(set.matches('/a', out)).toBe(out);
    expect([...out]).toEqual([1, 0]);
  });
});
