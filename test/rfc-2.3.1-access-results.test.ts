// RFC 9309 §2.3.1.3-4 (access results): the allow-all and disallow-all stand-ins for "unavailable" and "unreachable".
//
// §2.3.1.3: "If a server status code indicates that the robots.txt file is unavailable to
//   the crawler, then the crawler MAY access any resources on the server."
// §2.3.1.4: "If the robots.txt file is unreachable due to server or network errors, this
//   means the robots.txt file is undefined and the crawler MUST assume complete disallow."
// §2.2.2: "The /robots.txt URI is implicitly allowed." (rfc profile, also under disallow-all)
import { describe, expect, it } from 'vitest';
import { Robots } from '../src/index.js';

const URLS = ['/', '/x', 'https://example.com/a/b?c#d', '', '/%E3%83%84', '/robots.txt'];
const encoder = new TextEncoder();

describe('RFC 9309 §2.3.1.3: Robots.allowAll() — "unavailable" (4xx)', () => {
  for (const profile of ['rfc', 'google'] as const) {
    it(`${profile}: every URL is allowed for every agent, no rule is cited`, () => {
      const robots = Robots.allowAll({ profile });
      expect(robots.profile).toBe(profile);
      expect(robots.groups).toEqual([]);
      expect(robots.truncated).toBe(false);
      for (const agent of ['FooBot', '*']) {
        for (const url of URLS) {
          expect(robots.explain(url, agent), `${agent} ${url}`).toEqual({ allowed: true, line: 0, rule: null, agentLines: [] });
        }
        expect([...robots.forAgent(agent).matchBatch(URLS)]).toEqual(URLS.map(() => 1));
      }
    });
  }
  it('the default profile is rfc', () => {
    expect(Robots.allowAll().profile).toBe('rfc');
  });
});

describe('RFC 9309 §2.3.1.4: Robots.disallowAll() — "unreachable" (5xx, network)', () => {
  it('rfc: everything is disallowed except the implicitly allowed /robots.txt', () => {
    const robots = Robots.disallowAll({ profile: 'rfc' });
    const expected = URLS.map((u) => (u === '/robots.txt' ? 1 : 0));
    for (const agent of ['FooBot', 'x']) {
      expect([...robots.forAgent(agent).matchBatch(URLS)], agent).toEqual(expected);
      expect([...robots.forAgent(agent).matchLines(encoder.encode(URLS.join('\n')))], agent).toEqual(expected);
      expect(robots.isAllowed('/x', agent)).toBe(false);
    }
  });
  it('google: everything is disallowed, /robots.txt included', () => {
    const robots = Robots.disallowAll({ profile: 'google' });
    expect([...robots.forAgent('FooBot').matchBatch(URLS)]).toEqual(URLS.map(() => 0));
  });
  it('the deciding rule is cited like any other', () => {
    const e = Robots.disallowAll().explain('/x', 'FooBot');
    expect(e.allowed).toBe(false);
    expect(e.line).toBeGreaterThan(0);
    expect(e.rule).toBe('disallow: /');
  });
});
