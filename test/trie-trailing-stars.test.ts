// Rules whose `*`s all end the pattern (`/p*`, `/p**`, `/p*$`) are trie prefix rules with an extra priority: encoded there, and ranked as written on every path that reads the trie.
//
// format.ts: such a rule matches exactly the paths a prefix rule matches, with the priority
// of its pattern as written (RFC 9309 §2.2.2: `*` and `$` count), so a shallower node's rule
// may outrank a deeper one's. Each table below is judged through the trie's two walks (walk
// records, and the table's own nodes above COMPACT_NODES), the DFA that folds the plain
// rules in, and a crowd's automaton, against the reference matcher in both profiles.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Robots, type Profile } from '../src/index.js';
import { profileFlags } from '../src/rules/compile.js';
import { PREFIX_STARS_BELOW, encodeRuleTable, type TableRule } from '../src/table/encode.js';
import * as F from '../src/table/format.js';
import { instantiate } from '../src/wasm/instance.js';
import { utf8 } from './helpers/cases.js';
import { PlacedTable } from './helpers/placed-table.js';
import { ReferenceRobots } from './reference/index.js';

const PROFILES: readonly Profile[] = ['rfc', 'google'];
const RUNS = Math.max(20, Math.ceil(Number(process.env.PROPERTY_RUNS ?? 2000) / 10));

const rule = (allow: boolean, pattern: string, line: number): TableRule => ({ allow, pattern: utf8(pattern), line });

/** Every prefix rule of the table's trie as [kind, line, extra], sorted by line. */
function prefixRules(table: Uint8Array): [string, number, number][] {
  const view = new DataView(table.buffer, table.byteOffset, table.byteLength);
  const nodes = view.getUint32(F.H_NODES_OFFSET, true);
  const out: [string, number, number][] = [];
  for (let k = 0; k < view.getUint32(F.H_NODE_COUNT, true); k++) {
    const at = nodes + k * F.NODE_SIZE;
    const allow = view.getUint32(at + F.N_PREFIX_ALLOW, true);
    const disallow = view.getUint32(at + F.N_PREFIX_DISALLOW, true);
    if (allow !== 0) out.push(['allow', allow, table[at + F.N_ALLOW_EXTRA]!]);
    if (disallow !== 0) out.push(['disallow', disallow, table[at + F.N_DISALLOW_EXTRA]!]);
  }
  return out.sort((a, b) => a[1] - b[1]);
}

describe('encoding: trailing `*`s make a trie prefix rule', () => {
  it('`/p*`, `/q**`, `/r*$` and `*` are prefix rules with extra 1, 2, 2, 1; `/s*t` and 256 trailing `*`s stay wildcard rules', () => {
    const table = encodeRuleTable(
      [
        rule(false, '/p*', 1), rule(true, '/q**', 2), rule(false, '/r*$', 3), rule(true, '*', 4), rule(false, '/s*t', 5),
        rule(true, `/v${'*'.repeat(F.MAX_EXTRA)}`, 6), rule(false, `/w${'*'.repeat(F.MAX_EXTRA + 1)}`, 7),
      ],
      { flags: 0 },
    );
    // `/v` and 255 `*`s: 255 beyond its depth, the most a node holds; `/w` and 256: a wildcard rule.
    expect(prefixRules(table)).toEqual([['disallow', 1, 1], ['allow', 2, 2], ['disallow', 3, 2], ['allow', 4, 1], ['allow', 6, F.MAX_EXTRA]]);
    expect(new DataView(table.buffer).getUint32(F.H_WILDCARD_COUNT, true)).toBe(2);
  });
  it('one rule per node and kind: the highest priority, then the earliest line', () => {
    const forward = encodeRuleTable([rule(false, '/a', 1), rule(false, '/a*', 2), rule(false, '/a**', 3), rule(false, '/a**', 4), rule(false, '/a*', 5)], { flags: 0 });
    expect(prefixRules(forward)).toEqual([['disallow', 3, 2]]);
    const backward = encodeRuleTable([rule(true, '/a**', 1), rule(true, '/a*', 2), rule(true, '/a', 3)], { flags: 0 });
    expect(prefixRules(backward)).toEqual([['allow', 1, 2]]);
  });
  it('a rule splitting a label keeps the extras on the tail node', () => {
    const table = encodeRuleTable([rule(false, '/abc**', 1), rule(true, '/ab', 2)], { flags: 0 });
    expect(prefixRules(table)).toEqual([['disallow', 1, 2], ['allow', 2, 0]]);
  });
  it('where a DFA runs (8 or more rules with `*`), `/p*` rules stay wildcard rules unless none other has a `*`', () => {
    const wildcards = (rules: TableRule[]): number => new DataView(encodeRuleTable(rules, { flags: 0 }).buffer).getUint32(F.H_WILDCARD_COUNT, true);
    const others = (n: number): TableRule[] => Array.from({ length: n }, (_v, i) => rule(false, `/*x${i}`, 10 + i));
    expect(PREFIX_STARS_BELOW).toBe(instantiate().dfaTrialRules.value);
    expect(wildcards([rule(false, '/p*', 1), ...others(PREFIX_STARS_BELOW - 2)])).toBe(PREFIX_STARS_BELOW - 2);
    expect(wildcards([rule(false, '/p*', 1), ...others(PREFIX_STARS_BELOW - 1)])).toBe(PREFIX_STARS_BELOW);
    expect(wildcards(Array.from({ length: 40 }, (_v, i) => rule(i % 2 === 0, `/p${i}*`, i + 1)))).toBe(0);
    // The option overrides the policy both ways (the verdicts below use it to reach the DFA's fold and the automaton).
    const mixed = [rule(false, '/p*', 1), ...others(PREFIX_STARS_BELOW)];
    expect(new DataView(encodeRuleTable(mixed, { flags: 0, prefixStars: true }).buffer).getUint32(F.H_WILDCARD_COUNT, true)).toBe(PREFIX_STARS_BELOW);
    expect(new DataView(encodeRuleTable([rule(false, '/p*', 1)], { flags: 0, prefixStars: false }).buffer).getUint32(F.H_WILDCARD_COUNT, true)).toBe(1);
  });
  it('every rule in the wildcard list (ACAP tables) keeps trailing `*` rules there', () => {
    const table = encodeRuleTable([rule(false, '/p*', 1), rule(true, '/q', 2)], { flags: 0, allWildcard: true });
    expect(new DataView(table.buffer).getUint32(F.H_WILDCARD_COUNT, true)).toBe(2);
    expect(prefixRules(table)).toEqual([]);
  });
});

/**
 * Padding that sends a table down one matcher path without matching the test URLs (which
 * start with /a, /b or /x). With wildcard rules, the encoder keeps `/p*` rules in the
 * wildcard list (prefixStarsToTrie): those tables are encoded with them in the trie
 * (`prefixStars: true`), so that the DFA's fold and the automaton's merge meet extras.
 */
const SETUPS: readonly { name: string; pad: () => string[]; forced?: boolean; dropDfa?: boolean }[] = [
  { name: 'walk records', pad: () => [] },
  // More nodes than COMPACT_NODES (8,192): the walk reads the table's nodes.
  { name: 'the table\'s own nodes', pad: () => Array.from({ length: 8300 }, (_v, i) => `Disallow: /z${i}/`) },
  // 32 wildcard rules: the DFA, with the plain rules folded in.
  { name: 'the DFA (plain rules folded)', pad: () => Array.from({ length: 32 }, (_v, i) => `Disallow: /*?*f${i}=`), forced: true },
  // 48 wildcard rules sharing their first bytes: a crowd, its DFA dropped for the automaton.
  { name: 'a crowd\'s automaton', pad: () => Array.from({ length: 48 }, (_v, i) => `Disallow: /*?*f${i}=`), forced: true, dropDfa: true },
];

/** The table of `lines` (rule lines of one group, from line 2) with the `/p*` rules in the trie; patterns need no normalization. */
function forcedTable(lines: readonly string[], profile: Profile): Uint8Array {
  const rules = lines.map((text, i) => {
    const [key, pattern] = text.split(': ') as [string, string];
    return { allow: key === 'Allow', pattern: utf8(pattern), line: i + 2 };
  }).filter((r) => profile === 'google' || r.pattern.length > 0);
  return encodeRuleTable(rules, { flags: profileFlags(profile), prefixStars: true });
}

/** Judges `urls` on every path against the reference; returns the engine's answers. */
function judge(rules: readonly string[], urls: readonly string[], profile: Profile, setup: (typeof SETUPS)[number], foldExpected = false): { allowed: boolean; line: number }[] {
  const lines = [...rules, ...setup.pad()];
  const body = `User-agent: bot\n${lines.join('\n')}\n`;
  const table = setup.forced === true ? forcedTable(lines, profile) : Robots.parse(body, { profile }).forAgent('bot').table;
  const placed = new PlacedTable(table);
  if (setup.dropDfa === true) placed.exports.dropDfa(placed.at, placed.index);
  const full = urls.map((u) => `https://example.com${u}`);
  const dfa = placed.judge(full, true);
  // The path the setup names was the one taken.
  if (setup.dropDfa === true) expect(placed.exports.automatonStates(placed.at, placed.index)).toBeGreaterThan(0);
  else if (setup.forced === true) {
    expect(placed.status().enabled).toBe(true);
    if (foldExpected) expect(placed.status().plainRules).toBeGreaterThan(0);
  }
  const oneByOne = placed.judge(full, false);
  const batch = Robots.parse(body, { profile }).forAgent('bot').decideBatch(full);
  const ref = ReferenceRobots.parse(body, { profile });
  return full.map((url, i) => {
    const r = ref.explain(url, 'bot');
    const want = { allowed: r.allowed, line: r.line };
    const strings = { allowed: batch.verdicts[i] === 1, line: batch.lines[i]! };
    for (const [path, answer] of [['placed', dfa[i]!], ['rule by rule', oneByOne[i]!], ['decideBatch', strings]] as const) {
      if (answer.allowed !== want.allowed || answer.line !== want.line) {
        throw new Error(`${setup.name}, ${path}, ${profile}: ${url} → ${JSON.stringify(answer)}, reference ${JSON.stringify(want)}\nrules: ${JSON.stringify(rules)}`);
      }
    }
    return dfa[i]!;
  });
}

// [rules (lines 2…), url, allowed, deciding line]: priorities by hand (the pattern's length,
// `*` and `$` included; allow wins ties).
const CASES: [string[], string, boolean, number][] = [
  [['Allow: /a', 'Disallow: /a*'], '/a/x', false, 3],
  [['Disallow: /a*', 'Allow: /ab'], '/abc', true, 3],
  [['Disallow: /a*', 'Allow: /ab'], '/a/x', false, 2],
  [['Allow: /ab', 'Disallow: /a**'], '/abc', false, 3],
  [['Disallow: /a$', 'Allow: /a*'], '/a', true, 3],
  [['Allow: /a*', 'Disallow: /ab$'], '/ab', false, 3],
  [['Disallow: /ab$', 'Allow: /a**'], '/ab', true, 3],
  [['Allow: /a*$', 'Disallow: /abc'], '/abcd', true, 2],
  [['Disallow: /a', 'Disallow: /a*'], '/ab', false, 3],
  [['Disallow: /a**', 'Disallow: /a*'], '/ab', false, 2],
  [['Disallow: /a***', 'Disallow: /ab$'], '/ab', false, 2],
  [['Allow: /', 'Disallow: *'], '/x', true, 2],
  [['Allow: /', 'Disallow: **'], '/x', false, 3],
  [['Disallow: /b**', 'Allow: /bcd'], '/bcde', true, 3],
  [['Disallow: /b***', 'Allow: /bcd'], '/bcde', false, 2],
];

describe('verdicts: trailing `*` rules ranked as written, on every matcher path, both profiles', () => {
  for (const setup of SETUPS) {
    it(`${setup.name}: ${CASES.length} hand-ranked cases`, () => {
      for (const profile of PROFILES) {
        for (const [rules, url, allowed, line] of CASES) {
          expect(judge(rules, [url], profile, setup, true)[0], `${JSON.stringify(rules)} ${url} (${profile})`).toEqual({ allowed, line });
        }
      }
    });
  }

  // Escapes only where the reference parses the body itself (a forced table's patterns are
  // not normalized).
  const body = (escapes: boolean): fc.Arbitrary<string[]> => {
    const tiny = fc.tuple(fc.array(fc.constantFrom('/', 'a', 'b', 'a', 'b', ...(escapes ? ['%61'] : [])), { maxLength: 4 }), fc.constantFrom('', '', '*', '*', '**', '***', '*$', '$'))
      .map(([parts, end]) => `/${parts.join('')}${end}`);
    return fc.array(fc.tuple(fc.boolean(), fc.oneof(tiny, fc.constantFrom('*', '**', '*$', '/', ...(escapes ? [''] : [])))), { minLength: 1, maxLength: 24 })
      .map((rules) => rules.map(([allow, p]) => `${allow ? 'Allow' : 'Disallow'}: ${p}`));
  };
  const url = fc.array(fc.constantFrom('/', 'a', 'b', '%61', 'x'), { maxLength: 6 }).map((p) => `/${p.join('')}`);
  for (const setup of SETUPS) {
    const runs = setup.name.startsWith('the table') ? 10 : RUNS;
    it(`${setup.name}: ${runs} generated groups of prefix, exact and trailing-\`*\` rules × 24 URLs`, () => {
      fc.assert(
        fc.property(body(setup.forced !== true), fc.array(url, { minLength: 24, maxLength: 24 }), (rules, urls) => {
          for (const profile of PROFILES) judge(rules, urls, profile, setup);
        }),
        { numRuns: runs },
      );
    }, 120_000);
  }
});
