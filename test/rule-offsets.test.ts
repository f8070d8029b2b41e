// Robots compiles from its body's offsets (src/parse/rule-offsets.ts) and makes RuleRecords only when `groups` is read: same tables, same rules, same answers.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Robots, type Profile } from '../src/index.js';
import { compileRules } from '../src/rules/compile.js';
import { AGENTS, bodyChunks, chunkBytes, pathText } from './reference/arbitraries.js';

const PROFILES: readonly Profile[] = ['rfc', 'google'];
const RUNS = Number(process.env.PROPERTY_RUNS ?? 400);
const SEED = process.env.PROPERTY_SEED === undefined ? undefined : Number(process.env.PROPERTY_SEED);
const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
/** The generator's agents that forAgent takes (product tokens and '*'). */
const AGENT_TOKENS = AGENTS.filter((a) => a === '*' || /^[A-Za-z_-]+$/.test(a));
/** Bodies dense in groups and rules (patterns from the shared path grammar), beside the shared byte-level bodies. */
const denseLine = fc.oneof(
  fc.constantFrom('User-agent: *', 'User-agent: FooBot', 'user-agent: barbot', 'User-agent: foo', 'Crawl-delay: 2', '# note', '', 'Sitemap: https://example.com/s.xml', 'no colon here'),
  { weight: 3, arbitrary: fc.tuple(fc.constantFrom('Allow', 'Disallow', 'disallow', 'ALLOW', 'Disalow', 'Allow :'), pathText).map(([key, path]) => `${key}: ${path}`) },
);
const denseBody = fc
  .tuple(fc.constantFrom('User-agent: *', 'User-agent: foobot'), fc.array(denseLine, { minLength: 4, maxLength: 40 }), fc.constantFrom('\n', '\r\n', '\r'))
  .map(([first, lines, eol]) => utf8([first, ...lines].join(eol)));
const anyBody = fc.oneof(denseBody, bodyChunks.map(chunkBytes));

describe('compiling from offsets (Robots.forAgent before `groups` is read)', () => {
  it(`${RUNS} generated bodies × agents × both profiles: the table is byte for byte the one compiled from the RuleRecords`, () => {
    let rules = 0;
    fc.assert(
      fc.property(anyBody, fc.constantFrom(...AGENT_TOKENS), (body, agent) => {
        for (const profile of PROFILES) {
          const fromOffsets = Robots.parse(body, { profile }).forAgent(agent);
          const records = Robots.parse(body, { profile }).rulesFor(agent);
          expect(fromOffsets.table).toEqual(compileRules(records, profile));
          expect(fromOffsets.ruleCount).toBe(records.length);
          rules += records.length;
        }
      }),
      { numRuns: RUNS, seed: SEED },
    );
    // The generator must give the groups rules, or the property says little.
    expect(rules).toBeGreaterThan(RUNS);
  });

  it('groups read after forAgent hold every rule, in file order, as views of the parsed body', () => {
    const body = 'User-agent: a\nDisallow: /x\nAllow: /x/y\n\nUser-agent: *\nDisallow: /private\nDisallow:\nAllow: /*.css$\n';
    for (const profile of PROFILES) {
      const robots = Robots.parse(body, { profile });
      expect(robots.forAgent('bot').isAllowed('/private/1')).toBe(false);
      const seen = robots.groups.map((g) => g.rules.map((r) => [r.allow, new TextDecoder().decode(r.pattern), r.line]));
      expect(seen).toEqual([
        [[false, '/x', 2], [true, '/x/y', 3]],
        [[false, '/private', 6], [false, '', 7], [true, '/*.css$', 8]],
      ]);
      // The same arrays on every read, so that a change to one lasts.
      expect(robots.groups[1]!.rules).toBe(robots.groups[1]!.rules);
    }
  });

  it('a matcher compiled from offsets explains with the rule as written, before and after `groups` is read', () => {
    const robots = Robots.parse('User-agent: *\nDisallow: /a%7e\nAllow: /a%7e/ok$\n');
    const matcher = robots.forAgent('bot');
    expect(matcher.ruleCount).toBe(2);
    expect(matcher.explain('/a~/x')).toEqual({ allowed: false, line: 2, rule: 'disallow: /a%7e' });
    expect(robots.groups[0]!.rules).toHaveLength(2);
    expect(matcher.explain('/a~/ok')).toEqual({ allowed: true, line: 3, rule: 'allow: /a%7e/ok$' });
    expect(matcher.ruleText(3)).toBe('allow: /a%7e/ok$');
    expect(matcher.ruleText(4)).toBeNull();
  });

  it('once `groups` was read, forAgent compiles what its rule arrays hold (a change before the first compile applies)', () => {
    const robots = Robots.parse('User-agent: *\nDisallow: /private\n');
    const rules = robots.groups[0]!.rules;
    rules.push({ allow: false, pattern: utf8('/added'), line: 9 });
    const matcher = robots.forAgent('bot');
    expect(matcher.isAllowed('/added/1')).toBe(false);
    expect(matcher.explain('/added/1').rule).toBe('disallow: /added');
    expect(matcher.isAllowed('/private/1')).toBe(false);
    expect(matcher.ruleCount).toBe(2);
  });

  it('an empty file and a file of orphan rules compile to a table with no rules, through either path', () => {
    for (const body of ['', 'Disallow: /x\nAllow: /y\n']) {
      for (const profile of PROFILES) {
        const robots = Robots.parse(body, { profile });
        const matcher = robots.forAgent('bot');
        expect(matcher.ruleCount).toBe(0);
        expect(matcher.table).toEqual(compileRules([], profile));
        expect(robots.groups).toEqual([]);
      }
    }
  });
});
