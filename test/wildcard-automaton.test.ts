// The wildcard automaton (assembly/wildcards.ts) against the reference matcher: crowded wildcard groups, both profiles, verdict and deciding line, and the tables it does not fit.
//
// The encoder asks for the automaton (FLAG_WILDCARD_AUTOMATON) when at least
// AUTOMATON_CROWD wildcard rules share the first three bytes of their first piece, so the
// generated groups always hold that many `/*…` rules, mixed with rules of other first
// pieces, anchored rules, plain rules and empty patterns, over a small alphabet so that
// pieces overlap, repeat and nest. A crowd starts with the DFA of assembly/dfa.ts and takes
// its automaton once the DFA gives up (assembly/rule-index.ts `switchToAutomaton`), so each
// table is checked four ways: the flag is set, the module builds an automaton for it once
// its DFA is dropped (`dropDfa`), and every URL gets the reference's verdict and line through
// the DFA (the engine's `decideBatch`), the automaton and the rule-by-rule path.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AgentMatcher, Robots, type Profile } from '../src/index.js';
import { AUTOMATON_CROWD } from '../src/table/encode.js';
import { FLAG_WILDCARD_AUTOMATON, H_BYTE_LENGTH, H_FLAGS } from '../src/table/format.js';
import { PlacedTable } from './helpers/placed-table.js';
import { ReferenceRobots } from './reference/index.js';
import { random, randomWord } from './reference/prng.js';

const RUNS = Number(process.env.PROPERTY_RUNS ?? 60);
const URLS_PER_RUN = 160;
const PROFILES: readonly Profile[] = ['rfc', 'google'];
const PIECES = ['a', 'b', 'ab', 'ba', 'aab', 'abab', '?', '=', '&', '/', '.php', 'x%41', '%2F', 'é', 'A', 'sort=', 'a?b', '/abab/', '/ab/ba', '/aba/b', 'sort=ab'];
const FIRSTS = ['/', '/a', '/ab', '/ab/', '/ru/', '', '/?'];

/** `table` placed in a fresh instance, its DFA dropped, so that its next path takes the automaton (if it is a crowd). */
function onAutomaton(table: Uint8Array): PlacedTable {
  const placed = new PlacedTable(table);
  placed.exports.dropDfa(placed.at, placed.index);
  return placed;
}

/** States of the automaton the module builds for `table` once its DFA is dropped (0: none), in a fresh instance. */
function automatonStates(table: Uint8Array): number {
  const placed = onAutomaton(table);
  placed.judge(['https://example.com/'], true);
  return placed.exports.automatonStates(placed.at, placed.index);
}

/** `table` with FLAG_WILDCARD_AUTOMATON cleared: the same rules, matched without the automaton. */
function withoutAutomaton(table: Uint8Array): Uint8Array {
  const copy = table.slice();
  const view = new DataView(copy.buffer);
  view.setUint16(H_FLAGS, view.getUint16(H_FLAGS, true) & ~FLAG_WILDCARD_AUTOMATON, true);
  expect(view.getUint32(H_BYTE_LENGTH, true)).toBe(copy.length);
  return copy;
}

const piece = fc.constantFrom(...PIECES);
const pattern = fc.record({
  first: fc.constantFrom(...FIRSTS),
  pieces: fc.array(piece, { minLength: 0, maxLength: 3 }),
  anchored: fc.boolean(),
  doubled: fc.boolean(),
}).map(({ first, pieces, anchored, doubled }) => `${first}${pieces.map((p) => (doubled ? `**${p}` : `*${p}`)).join('')}${pieces.length === 0 ? '*' : ''}${anchored ? '$' : ''}`);
const crowdPattern = fc.record({ pieces: fc.array(piece, { minLength: 1, maxLength: 3 }), anchored: fc.boolean(), tail: fc.boolean() })
  .map(({ pieces, anchored, tail }) => `/*${pieces.join('*')}${tail ? '*' : ''}${anchored ? '$' : ''}`);
const plain = fc.constantFrom('', '/', '/a', '/ab$', '/ru/', '/a?b', '/abab');
const rule = (p: fc.Arbitrary<string>): fc.Arbitrary<string> => fc.tuple(fc.boolean(), p).map(([allow, text]) => `${allow ? 'Allow' : 'Disallow'}: ${text}`);

const group = fc.tuple(
  fc.array(rule(crowdPattern), { minLength: AUTOMATON_CROWD, maxLength: AUTOMATON_CROWD + 40 }),
  fc.array(rule(pattern), { maxLength: 40 }),
  fc.array(rule(plain), { maxLength: 6 }),
  fc.nat(),
).map(([crowd, others, plains, seed]) => {
  // Interleave deterministically so that crowd rules are not all first.
  const all = [...crowd, ...others, ...plains];
  for (let i = all.length - 1; i > 0; i--) {
    const j = (seed + i * 7919) % (i + 1);
    [all[i], all[j]] = [all[j]!, all[i]!];
  }
  return `User-agent: bot\n${all.join('\n')}\n`;
});

const path = fc.array(fc.constantFrom(...PIECES, 'c', '/', 'a', 'b'), { maxLength: 14 }).map((parts) => `/${parts.join('')}`);

function check(body: string, urls: readonly string[], profile: Profile): void {
  const robots = Robots.parse(body, { profile });
  const matcher = robots.forAgent('bot');
  const table = matcher.table;
  expect(new DataView(table.buffer, table.byteOffset).getUint16(H_FLAGS, true) & FLAG_WILDCARD_AUTOMATON, 'encoder flag').not.toBe(0);
  const ref = ReferenceRobots.parse(body, { profile });
  const full = urls.map((u) => `https://example.com${u}`);
  // The engine's matcher: the crowd's DFA (or rule by rule, where a path runs out of budget).
  const decided = matcher.decideBatch(full);
  const onIt = onAutomaton(table);
  const automaton = onIt.judge(full, true);
  expect(onIt.exports.automatonStates(onIt.at, onIt.index), 'the module built an automaton').toBeGreaterThan(1);
  expect(onIt.status().states, 'the region holds no DFA any more').toBe(0);
  const oneByOne = new PlacedTable(table).judge(full, false);
  const unflagged = new AgentMatcher('bot', profile, withoutAutomaton(table), []).decideBatch(full);
  for (let i = 0; i < full.length; i++) {
    const want = ref.explain(full[i]!, 'bot');
    const answers = [
      ['DFA', { allowed: decided.verdicts[i] === 1, line: decided.lines[i] }],
      ['automaton', automaton[i]!],
      ['rule by rule', oneByOne[i]!],
      ['without the flag', { allowed: unflagged.verdicts[i] === 1, line: unflagged.lines[i] }],
    ] as const;
    for (const [path, answer] of answers) {
      if (answer.allowed !== want.allowed || answer.line !== want.line) {
        throw new Error(`${path} disagrees with the reference\n  profile: ${profile}\n  url: ${full[i]}\n  body: ${JSON.stringify(body)}\n  expected: ${JSON.stringify({ allowed: want.allowed, line: want.line })}\n  got: ${JSON.stringify(answer)}`);
      }
    }
  }
}

describe('wildcard automaton: crowded groups against the reference (both profiles, verdict and line)', () => {
  it(`${RUNS} generated groups × ${URLS_PER_RUN} URLs`, () => {
    fc.assert(
      fc.property(group, fc.array(path, { minLength: URLS_PER_RUN, maxLength: URLS_PER_RUN }), (body, urls) => {
        for (const profile of PROFILES) check(body, urls, profile);
      }),
      { numRuns: RUNS },
    );
  }, 120_000);
});

describe('wildcard automaton: a crowd starts with the DFA and takes its automaton when the DFA gives up', () => {
  const ALPHABET = 'abcdefgh/?=&.-';
  const word = (r: () => number, n: number): string => randomWord(r, ALPHABET, n);

  it('a crowd whose workload its DFA\'s cache holds keeps the DFA; one whose workload fills the cache switches mid-batch; every verdict and line matches', () => {
    const r = random(29);
    const rules = Array.from({ length: 300 }, (_v, i) => {
      const pieces = Array.from({ length: 1 + Math.floor(r() * 3) }, () => word(r, 1 + Math.floor(r() * 3)));
      return `${i % 4 === 0 ? 'Allow' : 'Disallow'}: /*${pieces.join('*')}${r() < 0.2 ? '$' : ''}`;
    });
    const body = `User-agent: bot\n${rules.join('\n')}\n`;
    const table = Robots.parse(body).forAgent('bot').table;
    expect(new DataView(table.buffer, table.byteOffset).getUint16(H_FLAGS, true) & FLAG_WILDCARD_AUTOMATON).not.toBe(0);
    // 30 distinct short paths, again and again: few states, the DFA stays.
    const few = Array.from({ length: 30 }, () => `https://example.com/${word(r, 1 + Math.floor(r() * 4))}`);
    const calm = Array.from({ length: 3000 }, (_v, i) => few[(i * 7) % few.length]!);
    const staying = new PlacedTable(table);
    expect(staying.judge(calm, true)).toEqual(staying.judge(calm, false));
    expect(staying.status()).toMatchObject({ enabled: true });
    expect(staying.exports.automatonStates(staying.at, staying.index)).toBe(0);
    // Long random paths: a new state at almost every byte, the cache fills again and again.
    const wild = Array.from({ length: 6000 }, () => `https://example.com/${word(r, 60 + Math.floor(r() * 60))}`);
    const switching = new PlacedTable(table);
    const got = switching.judge(wild, true);
    expect(switching.exports.automatonStates(switching.at, switching.index)).toBeGreaterThan(1);
    expect(switching.status()).toEqual({ states: 0, flushes: 0, enabled: false, trialLeft: 0, trialCalls: 0, mode: 'carry', plainRules: 0 });
    expect(got).toEqual(new PlacedTable(table).judge(wild, false));
    // The reference is slow on 300 rules: it checks a sample; rule by rule is checked against it above.
    const ref = ReferenceRobots.parse(body, { profile: 'rfc' });
    for (const i of [0, 1, 2, 500, 2999, 3000, 4500, 5999]) {
      const want = ref.explain(wild[i]!, 'bot');
      expect(got[i], wild[i]).toEqual({ allowed: want.allowed, line: want.line });
    }
    // The same URLs again, now through the automaton from the first: the same answers.
    expect(switching.judge(wild, true)).toEqual(got);
  }, 120_000);
});

describe('wildcard automaton: how big a group gets one', () => {
  /** `n` facet rules `/*?*<name>=`, names of three letters, plus a few others. */
  function facets(n: number): string {
    const lines = ['User-agent: bot', 'Disallow: /*?', 'Allow: /*?page=', 'Disallow: /private/*.pdf$'];
    for (let i = 0; i < n; i++) {
      const name = String.fromCharCode(97 + (i % 26), 97 + (Math.floor(i / 26) % 26), 97 + (Math.floor(i / 676) % 26));
      lines.push(`${i % 3 === 0 ? 'Allow' : 'Disallow'}: /*?*${name}=${i % 7 === 0 ? '$' : ''}`);
    }
    return `${lines.join('\n')}\n`;
  }
  const urls = (n: number): string[] => {
    const out = ['/', '/a?page=2', '/private/x.pdf', '/private/x.pdfz', '/x?zz=1'];
    for (let i = 0; i < n; i += Math.max(1, Math.floor(n / 40))) {
      const name = String.fromCharCode(97 + (i % 26), 97 + (Math.floor(i / 26) % 26), 97 + (Math.floor(i / 676) % 26));
      out.push(`/p/q?x=1&${name}=`, `/p/q?x=1&${name}=2`, `/p/${name}=?y`);
    }
    return out.map((u) => `https://example.com${u}`);
  };
  function expectReference(body: string, list: readonly string[], profile: Profile): void {
    const ref = ReferenceRobots.parse(body, { profile });
    const decided = Robots.parse(body, { profile }).forAgent('bot').decideBatch(list);
    const got = list.map((_u, i) => ({ allowed: decided.verdicts[i] === 1, line: decided.lines[i] }));
    const want = list.map((u) => {
      const r = ref.explain(u, 'bot');
      return { allowed: r.allowed, line: r.line };
    });
    expect(got).toEqual(want);
  }
  it('500 facet rules: built, and right', () => {
    const body = facets(500);
    expect(automatonStates(Robots.parse(body).forAgent('bot').table)).toBeGreaterThan(500);
    for (const profile of PROFILES) expectReference(body, urls(500), profile);
  });
  it('6,000 facet rules: past the region (AUTOMATON_CAP), none is built, and rule by rule is right', () => {
    const body = facets(6000);
    const table = Robots.parse(body).forAgent('bot').table;
    expect(new DataView(table.buffer, table.byteOffset).getUint16(H_FLAGS, true) & FLAG_WILDCARD_AUTOMATON).not.toBe(0);
    expect(automatonStates(table)).toBe(0);
    for (const profile of PROFILES) expectReference(body, urls(6000), profile);
  });
  it('fewer than AUTOMATON_CROWD rules sharing their first three bytes: no flag, no automaton', () => {
    const body = facets(AUTOMATON_CROWD - 4); // with `/*?` and `/*?page=`: AUTOMATON_CROWD − 2 `/*` rules
    const table = Robots.parse(body).forAgent('bot').table;
    expect(new DataView(table.buffer, table.byteOffset).getUint16(H_FLAGS, true) & FLAG_WILDCARD_AUTOMATON).toBe(0);
    expect(automatonStates(table)).toBe(0);
    const at = facets(AUTOMATON_CROWD - 2);
    expect(automatonStates(Robots.parse(at).forAgent('bot').table)).toBeGreaterThan(0);
  });
});

describe('wildcard automaton beside a table without one, in one many-agents pass', () => {
  it('each URL, prepared once for both tables, gets each agent\'s own verdict and line (both profiles, strings and lines)', () => {
    const crowd = Array.from({ length: AUTOMATON_CROWD + 2 }, (_v, i) => `Disallow: /*?*k${i}=`).join('\n');
    const body = `User-agent: bot\n${crowd}\nAllow: /*?*k1=$\n\nUser-agent: *\nDisallow: /*?\nAllow: /pub\n`;
    const urls = ['/', '/a?k1=', '/a?k1=2', '/a?k7=x', '/pub?k3=1', '/A%2fb?k9=', '/x?z=1'].map((u) => `https://example.com${u}`);
    const lines = new TextEncoder().encode(`${urls.join('\n')}\n`);
    for (const profile of PROFILES) {
      const robots = Robots.parse(body, { profile });
      const [withAutomaton, without] = [robots.forAgent('bot').table, robots.forAgent('other').table];
      expect(automatonStates(withAutomaton)).toBeGreaterThan(0);
      expect(automatonStates(without)).toBe(0);
      const agents = ['bot', 'other'];
      const each = agents.map((a) => robots.forAgent(a).decideBatch(urls));
      for (const both of [robots.forAgents(agents).decideBatch(urls), robots.forAgents(agents).decideLines(lines)]) {
        for (let i = 0; i < urls.length; i++) {
          for (let j = 0; j < agents.length; j++) {
            expect([both.verdicts[i * 2 + j], both.lines[i * 2 + j]], `${profile} ${urls[i]} ${agents[j]}`).toEqual([each[j]!.verdicts[i], each[j]!.lines[i]]);
          }
        }
      }
    }
  });
});
