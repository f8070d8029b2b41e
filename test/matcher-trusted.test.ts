// The trusted construction path (Robots.forAgent → compileAgentMatcher) versus the validating public constructor.
import { describe, expect, it } from 'vitest';
import { AgentMatcher, Robots } from '../src/index.js';
import { compileAgentMatcher } from '../src/rules/compile.js';
import { H_NODES_OFFSET } from '../src/table/format.js';

const body = [
  'User-agent: *',
  'Disallow: /private',
  'Allow: /private/ok',
  'Disallow: /*.pdf$',
  'Disallow: /a*b*c',
  'User-agent: Other',
  'Disallow: /',
].join('\n');
const urls = ['/', '/private', '/private/ok/1', '/x.pdf', '/x.pdf?q', '/aXbYc', '/acb', 'https://h/private?x'];

describe('compileAgentMatcher (the path Robots.forAgent takes)', () => {
  for (const profile of ['rfc', 'google'] as const) {
    it(`gives the table and verdicts the validating constructor gives (${profile})`, () => {
      const robots = Robots.parse(body, { profile });
      const rules = robots.rulesFor('ExampleBot');
      const trusted = compileAgentMatcher('ExampleBot', profile, rules);
      const checked = new AgentMatcher('ExampleBot', profile, trusted.table.slice(), rules);
      expect(Array.from(trusted.table)).toEqual(Array.from(checked.table));
      expect(Array.from(trusted.matchBatch(urls))).toEqual(Array.from(checked.matchBatch(urls)));
      expect(urls.map((u) => trusted.explain(u))).toEqual(urls.map((u) => checked.explain(u)));
      expect(Array.from(robots.forAgent('ExampleBot').matchBatch(urls))).toEqual([1, 0, 1, 0, 1, 0, 1, 0]);
    });
  }

  it('leaves the public constructor validating: a corrupted table is rejected', () => {
    const robots = Robots.parse(body);
    const table = robots.forAgent('ExampleBot').table.slice();
    new DataView(table.buffer).setUint32(H_NODES_OFFSET, 0xfffffff0, true);
    expect(() => new AgentMatcher('ExampleBot', 'rfc', table, robots.rulesFor('ExampleBot'))).toThrow(RangeError);
  });
});
