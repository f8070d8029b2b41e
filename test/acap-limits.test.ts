// ACAP expansion limits: hostile resource-set × composite-usage files parse in linear space, the budget and its conservative result.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Robots, DEFAULT_ACAP_MAX_EXPANDED_RULES, ACAP_USAGES, type AcapPolicy, type AcapUsage } from '../src/index.js';

/** The 11 usages of the hostile composite (§2.7.2 allows any number of constituents). */
const ELEVEN: readonly AcapUsage[] = ACAP_USAGES.slice(0, 11);

/**
 * The body of issue #17 point 3: one `paths`-pattern resource set, one 11-usage composite,
 * and `fields` permissions naming both. Line 1 is the set, 2 the composite, 3 the crawler,
 * field k (1-based) is on line 3 + k. It stands for paths × 11 × fields rules.
 */
function hostileBody(paths: number, fields: number, extra = ''): string {
  const set = Array.from({ length: paths }, (_, i) => `/p${i}`).join(' ');
  return `ACAP-resource-set: s ${set}\nACAP-composite-usage: c ${ELEVEN.join(' ')}\nACAP-crawler: *\n${'ACAP-allow-(c): the-acap:resource-set:s\n'.repeat(fields)}${extra}`;
}

function heapUsed(): number {
  return process.memoryUsage().heapUsed;
}

function listedRules(acap: AcapPolicy): number {
  let n = 0;
  for (const r of acap.records) {
    n += r.rules.length;
    for (const s of r.subRecords) n += s.rules.length;
  }
  return n;
}

/** A small, ordinary file, checked after each hostile one: the engine still answers correctly. */
function expectEngineHealthy(): void {
  const robots = Robots.parse('User-agent: *\nDisallow: /private/\nACAP-crawler: *\nACAP-disallow-index: /drafts/\nACAP-allow-index: /drafts/public/\n');
  expect(robots.isAllowed('https://example.com/private/a', 'bot')).toBe(false);
  expect(robots.isAllowed('https://example.com/open', 'bot')).toBe(true);
  expect(robots.acap!.withinBudget).toBe(true);
  expect(robots.acap!.check('/drafts/a', 'bot', 'index')).toEqual({ allowed: false, line: 4, qualifiers: [], source: 'acap' });
  expect(robots.acap!.check('/drafts/public/a', 'bot', 'index')).toEqual({ allowed: true, line: 5, qualifiers: [], source: 'acap' });
}

describe.each([
  // [paths, fields]: 143 KB (issue: 5 GB then a heap OOM) and 47 KB (issue: 7.7 s, 1.1 GB).
  [3000, 3000],
  [1000, 1000],
])('hostile body: a %i-pattern resource set × 11 usages × %i fields', (paths, fields) => {
  const body = hostileBody(paths, fields, 'User-agent: *\nDisallow: /private/\n');
  const perField = paths * ELEVEN.length;
  // The first field whose running total passes the default budget.
  const crossing = Math.floor(DEFAULT_ACAP_MAX_EXPANDED_RULES / perField) + 1;
  const crossingLine = 3 + crossing;

  it('parses without expanding: counted rules, bounded heap, the budget diagnostic', () => {
    expect(body.length).toBeGreaterThan(paths === 3000 ? 140_000 : 45_000);
    const before = heapUsed();
    const robots = Robots.parse(body);
    const acap = robots.acap!;
    // Generous: the body itself is ≤ 150 KB; the expansion the old code built was 1–5 GB.
    expect(heapUsed() - before).toBeLessThan(64 * 1024 * 1024);
    expect(acap.expandedRuleCount).toBe(paths * ELEVEN.length * fields);
    expect(acap.maxExpandedRules).toBe(DEFAULT_ACAP_MAX_EXPANDED_RULES);
    expect(acap.withinBudget).toBe(false);
    const over = acap.diagnostics.filter((d) => d.code === 'expansion-budget-exceeded');
    expect(over).toHaveLength(1);
    expect(over[0]!.line).toBe(crossingLine);
    expect(over[0]!.message).toContain(`over the budget of ${DEFAULT_ACAP_MAX_EXPANDED_RULES}`);
    expect(acap.diagnostics).toHaveLength(1);
  });

  it('answers the conservative result: every usage prohibited at the crossing line', () => {
    const robots = Robots.parse(body);
    const acap = robots.acap!;
    const denied = { allowed: false, line: crossingLine, qualifiers: [], source: 'acap' };
    expect(acap.check('/p5', 'searchbot', 'index')).toEqual(denied);
    expect(acap.check('https://example.com/elsewhere', 'otherbot', 'crawl', { purpose: 'news' })).toEqual(denied);
    const all = acap.permissions('/p1', 'searchbot');
    for (const usage of ACAP_USAGES) expect(all[usage]).toEqual(denied);
    // The listing stops before the crossing field: never more than the budget.
    expect(listedRules(acap)).toBe((crossing - 1) * perField);
    expect(listedRules(acap)).toBeLessThanOrEqual(DEFAULT_ACAP_MAX_EXPANDED_RULES);
    // The conventional records are untouched by the ACAP budget.
    expect(robots.isAllowed('/private/x', 'bot')).toBe(false);
    expect(robots.isAllowed('/p5', 'bot')).toBe(true);
    expectEngineHealthy();
  });

  it('with a budget that admits it, checks are exact without crossing usages and patterns', () => {
    const before = heapUsed();
    const acap = Robots.parse(body, { acapMaxExpandedRules: Number.MAX_SAFE_INTEGER }).acap!;
    expect(acap.withinBudget).toBe(true);
    expect(acap.diagnostics).toEqual([]);
    // Every field allows /p7 for all 11 usages; the earliest field's line decides.
    expect(acap.check('/p7', 'searchbot', 'index')).toEqual({ allowed: true, line: 4, qualifiers: [], source: 'acap' });
    expect(acap.check(`/p${paths - 1}/x`, 'searchbot', 'present-snippet')).toEqual({ allowed: true, line: 4, qualifiers: [], source: 'acap' });
    // 'present-oldthumbnail' is not in the composite: present (a constituent) decides it.
    expect(acap.check('/p7', 'searchbot', 'present-oldthumbnail')).toMatchObject({ allowed: true, line: 4 });
    // No pattern matches: crawl falls back to the conventional records.
    expect(acap.check('/private/x', 'searchbot', 'crawl')).toEqual({ allowed: false, line: fields + 5, qualifiers: [], source: 'conventional' });
    expect(heapUsed() - before).toBeLessThan(64 * 1024 * 1024);
    expectEngineHealthy();
  });
});

describe('acapMaxExpandedRules: exactly at the budget and one past', () => {
  // 3 patterns × 2 usages = 6 rules per field; two fields = 12 rules.
  const body = [
    'ACAP-resource-set: docs /docs/ /docs/*.pdf$ /manual/', // 1
    'ACAP-composite-usage: basic index present', //           2
    'ACAP-crawler: *', //                                     3
    'ACAP-allow-(basic): the-acap:resource-set:docs', //      4
    'ACAP-crawler: searchbot', //                             5
    'ACAP-disallow-index: /docs/secret/', //                  6
    'ACAP-allow-(basic): the-acap:resource-set:docs', //      7
  ].join('\n');

  it('at the budget: no diagnostic, full listing, ordinary verdicts', () => {
    const acap = Robots.parse(body, { acapMaxExpandedRules: 13 }).acap!;
    expect(acap.expandedRuleCount).toBe(13);
    expect(acap.withinBudget).toBe(true);
    expect(acap.diagnostics).toEqual([]);
    expect(listedRules(acap)).toBe(13);
    expect(acap.records[0]!.rules.map((r) => [r.usage, r.pattern])).toEqual([
      ['index', '/docs/'], ['index', '/docs/*.pdf$'], ['index', '/manual/'],
      ['present', '/docs/'], ['present', '/docs/*.pdf$'], ['present', '/manual/'],
    ]);
    expect(acap.check('/docs/secret/a', 'searchbot', 'index')).toEqual({ allowed: false, line: 6, qualifiers: [], source: 'acap' });
    expect(acap.check('/docs/a.pdf', 'searchbot', 'index')).toEqual({ allowed: true, line: 7, qualifiers: [], source: 'acap' });
    expect(acap.check('/manual/x', 'otherbot', 'present-snippet')).toEqual({ allowed: true, line: 4, qualifiers: [], source: 'acap' });
    // The same verdicts as with the default budget.
    const dflt = Robots.parse(body).acap!;
    for (const url of ['/docs/secret/a', '/docs/a.pdf', '/manual/x', '/other']) {
      for (const bot of ['searchbot', 'otherbot']) expect(acap.permissions(url, bot)).toEqual(dflt.permissions(url, bot));
    }
  });

  it('one past the budget: the diagnostic at the crossing field, every usage prohibited', () => {
    const acap = Robots.parse(body, { acapMaxExpandedRules: 12 }).acap!;
    expect(acap.withinBudget).toBe(false);
    expect(acap.diagnostics.map((d) => [d.line, d.code])).toEqual([[7, 'expansion-budget-exceeded']]);
    expect(acap.diagnostics[0]!.message).toContain('stand for 13 rules');
    // Fields before line 7 are listed (7 rules), the crossing field is not.
    expect(listedRules(acap)).toBe(7);
    expect(acap.records[1]!.rules.map((r) => r.line)).toEqual([6]);
    for (const url of ['/docs/a.pdf', '/manual/x', '/other']) {
      expect(acap.check(url, 'otherbot', 'follow')).toEqual({ allowed: false, line: 7, qualifiers: [], source: 'acap' });
    }
    // Requests and references are not expansions: still answered.
    expect(acap.references('searchbot')).toEqual([]);
  });

  it('budget 0: any rule is past it', () => {
    const acap = Robots.parse('ACAP-crawler: *\nACAP-allow-crawl: /', { acapMaxExpandedRules: 0 }).acap!;
    expect(acap.diagnostics.map((d) => [d.line, d.code])).toEqual([[2, 'expansion-budget-exceeded']]);
    expect(acap.check('/', 'bot', 'crawl').allowed).toBe(false);
    // A file without rules is within any budget.
    expect(Robots.parse('ACAP-crawler: *\nACAP-request-take-down: /a', { acapMaxExpandedRules: 0 }).acap!.withinBudget).toBe(true);
  });

  it('rejects a budget that is not a non-negative integer, with what came', () => {
    expect(() => Robots.parse('', { acapMaxExpandedRules: -1 })).toThrow(new RangeError('options.acapMaxExpandedRules must be a non-negative integer, got -1'));
    expect(() => Robots.parse('', { acapMaxExpandedRules: 1.5 })).toThrow(RangeError);
    expect(() => Robots.parse('', { acapMaxExpandedRules: Infinity })).toThrow(RangeError);
    // @ts-expect-error: a string where a number belongs
    expect(() => Robots.parse('', { acapMaxExpandedRules: '10' })).toThrow(new TypeError('options.acapMaxExpandedRules must be a non-negative integer, got string'));
  });
});

/** A seeded PRNG (mulberry32), so the differential cases are the same on every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('resource sets and composites decide as the same rules written one per field', () => {
  // File A uses definitions; file B spells each (usage, pattern) out as its own field, in
  // expansion order (usage-major), with a map from B's lines back to A's. Conflict
  // resolution (§2.4.5) must give the same verdict, the same field and the same qualifiers.
  const PATTERNS = ['/', '/a', '/a/', '/a*', '/a/*.pdf$', '/a/b', '/*b', '/*c', '/a$', '/b/', '*.pdf', '/A/B'];
  const URLS = ['/', '/a', '/a/', '/a/b', '/a/x.pdf', '/b/1', '/xc', '/A/b/c', '/zzz', '/a/b/c.pdf'];
  const USAGES: readonly AcapUsage[] = ['crawl', 'index', 'present', 'present-snippet', 'other', 'preserve'];

  it.each(Array.from({ length: 40 }, (_, i) => i + 1))('seed %i', (seed) => {
    const rand = prng(seed);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
    const sets = [0, 1, 2].map(() => Array.from({ length: 1 + Math.floor(rand() * 4) }, () => pick(PATTERNS)));
    const composites = [0, 1].map(() => Array.from({ length: 1 + Math.floor(rand() * 3) }, () => pick(USAGES)));
    const a: string[] = [
      ...sets.map((s, i) => `ACAP-resource-set: s${i} ${s.join(' ')}`),
      'ACAP-qualified-usage: snip present-snippet max-length=100-chars',
      ...composites.map((c, i) => `ACAP-composite-usage: c${i} ${c.join(' ')}`),
      'ACAP-composite-usage: q (snip) index',
    ];
    const b: string[] = [];
    const bToA: number[] = [];
    for (const crawler of ['*', 'searchbot']) {
      a.push(`ACAP-crawler: ${crawler}`);
      b.push(`ACAP-crawler: ${crawler}`);
      bToA.push(a.length);
      for (let f = 0; f < 6; f++) {
        const allow = rand() < 0.6;
        const kind = rand();
        let usageKey: string;
        let parts: readonly { usage: AcapUsage; quals: string }[];
        if (kind < 0.4) {
          const ci = Math.floor(rand() * 2);
          usageKey = `(c${ci})`; // a prohibition naming it is read as prohibiting its usages
          parts = composites[ci]!.map((u) => ({ usage: u, quals: '' }));
        } else if (kind < 0.55 && allow) {
          usageKey = '(q)';
          parts = [{ usage: 'present-snippet', quals: ' max-length=100-chars' }, { usage: 'index', quals: '' }];
        } else {
          const usage = pick(USAGES);
          usageKey = usage;
          parts = [{ usage, quals: '' }];
        }
        const setIndex = rand() < 0.7 ? Math.floor(rand() * 3) : -1;
        const patterns = setIndex >= 0 ? sets[setIndex]! : [pick(PATTERNS)];
        const resource = setIndex >= 0 ? `the-acap:resource-set:s${setIndex}` : patterns[0]!;
        a.push(`ACAP-${allow ? 'allow' : 'disallow'}-${usageKey}: ${resource}`);
        const aLine = a.length;
        for (const p of parts) {
          for (const pattern of patterns) {
            b.push(`ACAP-${allow ? 'allow' : 'disallow'}-${p.usage}: ${pattern}${allow ? p.quals : ''}`);
            bToA.push(aLine);
          }
        }
      }
    }
    const acapA = Robots.parse(a.join('\n')).acap!;
    const acapB = Robots.parse(b.join('\n')).acap!;
    expect(acapA.diagnostics.filter((d) => d.code !== 'local-usage-prohibition')).toEqual([]);
    expect(acapB.diagnostics).toEqual([]);
    expect(acapA.expandedRuleCount).toBe(acapB.expandedRuleCount);
    for (const url of URLS) {
      for (const bot of ['searchbot', 'otherbot']) {
        for (const usage of ACAP_USAGES) {
          const va = acapA.check(url, bot, usage);
          const vb = acapB.check(url, bot, usage);
          const mapped = vb.source === 'acap' ? { ...vb, line: bToA[vb.line - 1]! } : vb;
          expect([url, bot, usage, va]).toEqual([url, bot, usage, mapped]);
        }
      }
    }
  });
});

describe('bench/acap-expansion.mjs, smoke mode', () => {
  it('exits 0 and prints its table and slopes', () => {
    const root = fileURLToPath(new URL('..', import.meta.url));
    const run = spawnSync(process.execPath, [join(root, 'bench', 'acap-expansion.mjs'), '--smoke'], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^\|\s+100 \|/m);
    expect(run.stdout).toMatch(/^slope vs body bytes: rules [\d.]+, parse -?[\d.]+/m);
  });
});
