// The wildcard DFA (assembly/dfa.ts) against the reference matcher and the rule-by-rule path: generated groups, both profiles, verdict and line, a full cache and the per-path budget.
//
// Tables with at least DFA_MIN_RULES wildcard rules (and no FLAG_WILDCARD_AUTOMATON) are
// matched through a DFA built lazily in their RuleIndex. Each check runs the same URLs in a
// fresh module instance twice, DFA on and off (`useDfa`), then in a second instance whose
// DFA starts in step mode (`dfaStepMode`: states hold a step's matches, as after a first
// flush), and compares all three to the reference: the groups mix overlapping pieces over
// a small alphabet, `$`, `**`, patterns that start with `*`, empty patterns and plain
// rules. The cache-limit tests make the DFA flush, change mode, give up, or stop a path at
// its state budget, and the verdicts stay the same; one test covers the packed sets' three
// widths. The plain rules (the trie's) are taken into the DFA when they fit, so that its
// verdicts are whole: tests count them, cross FOLD_POSITIONS, and make a folded DFA whose
// states outgrow the cache lay itself out again without them.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Robots, type Profile } from '../src/index.js';
import { instantiate } from '../src/wasm/instance.js';
import { PlacedTable as Placed } from './helpers/placed-table.js';
import { ReferenceRobots } from './reference/index.js';
import { random, randomWord } from './reference/prng.js';

const RUNS = Number(process.env.PROPERTY_RUNS ?? 60);
/**
 * The trial property's seed (PROPERTY_SEED overrides it). Whether a random group's workload
 * is costly enough to switch is chance, and that property asserts a switch happened: with
 * seed 1 its default 15 runs switch 10 of their 30 tables (the first runs' small groups
 * rarely do).
 */
const TRIAL_SEED = process.env.PROPERTY_SEED === undefined ? 1 : Number(process.env.PROPERTY_SEED);
/** Wildcard rules from which a table uses the DFA from its first path (assembly/dfa.ts DFA_MIN_RULES). */
const DFA_MIN_RULES = instantiate().dfaMinRules.value as number;
/** Wildcard rules from which a table gets a DFA on trial, and the trial's window in paths (DFA_TRIAL_RULES, TRIAL_PATHS). */
const DFA_TRIAL_RULES = instantiate().dfaTrialRules.value as number;
const TRIAL_PATHS = instantiate().dfaTrialPaths.value as number;
/** Rule matches per path from which a trial's window turns the DFA on (TRIAL_CALLS_X2 / 2). */
const TRIAL_CALLS = (instantiate().dfaTrialCallsX2.value as number) / 2;
/** Most positions (pattern bytes plus one per rule) of the plain rules a DFA takes in (FOLD_POSITIONS). */
const FOLD_POSITIONS = instantiate().dfaFoldPositions.value as number;
/** Region bytes per trie node, and the most nodes that get them (DFA_PER_NODE, DFA_FOLD_NODES). */
const DFA_PER_NODE = instantiate().dfaPerNode.value as number;
const DFA_FOLD_NODES = instantiate().dfaFoldNodes.value as number;
// Not a multiple of 4: the last few paths of a batch are judged without the four-lane scan.
const URLS_PER_RUN = 203;
const PROFILES: readonly Profile[] = ['rfc', 'google'];
const PIECES = ['a', 'b', 'ab', 'ba', 'aab', 'abab', '?', '=', '&', '/', '.php', 'x%41', '%2F', 'é', 'A', 'sort=', 'a?b', '/abab/', '/ab/ba', '-p', 'q='];
const FIRSTS = ['/', '/a', '/ab', '/ab/', '/ru/', '', '/?', '/b'];

/**
 * Every path (the DFA in both modes, rule by rule, strings, explain) gives the reference's
 * verdict and line for every URL; returns the placed table (the DFA in its own mode).
 */
function expectReference(body: string, urls: readonly string[], profile: Profile, agent = 'bot'): Placed {
  const table = Robots.parse(body, { profile }).forAgent(agent).table;
  const placed = new Placed(table);
  const ref = ReferenceRobots.parse(body, { profile });
  const dfa = placed.judge(urls, true);
  const oneByOne = placed.judge(urls, false);
  // The same table in a second instance whose DFA starts in the mode a first flush takes:
  // states hold the matches of the step into them, not the bests so far.
  const stepped = new Placed(table);
  stepped.exports.dfaStepMode(stepped.at, stepped.index);
  const step = stepped.judge(urls, true);
  // The public batch of strings (matchUrls, four paths at a time) and one URL per call.
  const matcher = Robots.parse(body, { profile }).forAgent(agent);
  const batch = matcher.decideBatch(urls);
  for (let i = 0; i < urls.length; i++) {
    const r = ref.explain(urls[i]!, agent);
    const want = { allowed: r.allowed, line: r.line };
    const strings = { allowed: batch.verdicts[i] === 1, line: batch.lines[i]! };
    const single = matcher.explain(urls[i]!);
    const one = { allowed: single.allowed, line: single.line };
    for (const [path, got] of [['DFA', dfa[i]!], ['DFA, step mode', step[i]!], ['rule by rule', oneByOne[i]!], ['decideBatch', strings], ['explain', one]] as const) {
      if (got.allowed !== want.allowed || got.line !== want.line) {
        throw new Error(`${path} disagrees with the reference\n  profile: ${profile}\n  url: ${urls[i]}\n  body: ${JSON.stringify(body)}\n  expected: ${JSON.stringify(want)}\n  got: ${JSON.stringify(got)}`);
      }
    }
  }
  return placed;
}

const piece = fc.constantFrom(...PIECES);
const pattern = fc.record({
  first: fc.constantFrom(...FIRSTS),
  pieces: fc.array(piece, { minLength: 0, maxLength: 3 }),
  anchored: fc.boolean(),
  doubled: fc.boolean(),
  tail: fc.boolean(),
}).map(({ first, pieces, anchored, doubled, tail }) =>
  `${first}${pieces.map((p) => (doubled ? `**${p}` : `*${p}`)).join('')}${pieces.length === 0 || tail ? '*' : ''}${anchored ? '$' : ''}`);
const plain = fc.constantFrom('', '/', '/a', '/ab$', '/ru/', '/a?b', '/abab', '/b-p');
const rule = (p: fc.Arbitrary<string>): fc.Arbitrary<string> => fc.tuple(fc.boolean(), p).map(([allow, text]) => `${allow ? 'Allow' : 'Disallow'}: ${text}`);
const group = fc.tuple(fc.array(rule(pattern), { minLength: DFA_MIN_RULES, maxLength: DFA_MIN_RULES + 60 }), fc.array(rule(plain), { maxLength: 6 }))
  .map(([wild, plains]) => `User-agent: bot\n${[...wild, ...plains].join('\n')}\n`);
const url = fc.array(fc.constantFrom(...PIECES, 'c', '/', 'a', 'b', '?', 'p'), { maxLength: 16 })
  .map((parts) => `https://example.com/${parts.join('')}`);

describe('wildcard DFA: generated groups against the reference and the rule-by-rule path (both profiles, verdict and line)', () => {
  it(`${RUNS} generated groups × ${URLS_PER_RUN} URLs`, () => {
    fc.assert(
      fc.property(group, fc.array(url, { minLength: URLS_PER_RUN, maxLength: URLS_PER_RUN }), (body, urls) => {
        for (const profile of PROFILES) expectReference(body, urls, profile);
      }),
      { numRuns: RUNS },
    );
  }, 120_000);

  it('a table with DFA_MIN_RULES wildcard rules builds states as it matches; one with fewer starts on trial, one with fewer than DFA_TRIAL_RULES has no DFA', () => {
    const base = ['/*.pdf$', '/*?*sort=', '/*/print$', '/a*b*c', '/*&page=', '/*;jsessionid='];
    const rules = Array.from({ length: DFA_MIN_RULES }, (_v, i) => (i < base.length ? base[i]! : `/*?*f${i}=`));
    const urls = ['/x.pdf', '/y?sort=1', '/z/print', '/a-b-c', '/p?x=1&page=2', '/q;jsessionid=1', '/plain', '/r?f9=1', '/s?f99=2'].map((u) => `https://example.com${u}`);
    const body = (n: number): string => `User-agent: bot\n${rules.slice(0, n).map((r) => `Disallow: ${r}`).join('\n')}\n`;
    const enough = expectReference(body(DFA_MIN_RULES), urls, 'rfc');
    expect(enough.status().enabled).toBe(true);
    expect(enough.status().states).toBeGreaterThan(1);
    expect(enough.status().trialLeft).toBe(0);
    // Judged twice (DFA on, then off), each path counted by the trial.
    const fewer = expectReference(body(DFA_MIN_RULES - 1), urls, 'rfc');
    expect(fewer.status()).toMatchObject({ states: 0, flushes: 0, enabled: false, trialLeft: TRIAL_PATHS - 2 * urls.length });
    const trial = expectReference(body(DFA_TRIAL_RULES), urls, 'rfc');
    expect(trial.status()).toMatchObject({ states: 0, enabled: false, trialLeft: TRIAL_PATHS - 2 * urls.length });
    const none = expectReference(body(DFA_TRIAL_RULES - 1), urls, 'rfc');
    expect(none.status()).toEqual({ states: 0, flushes: 0, enabled: false, trialLeft: 0, trialCalls: 0, mode: 'carry', plainRules: 0 });
  });
});

describe('wildcard DFA on trial: tables of DFA_TRIAL_RULES to DFA_MIN_RULES − 1 wildcard rules switch when rule by rule costs more, or when the DFA folds', () => {
  // Rules that share their bytes, so that the prefilter passes many of them on a path
  // holding "str" (a real file's shape: `/*str1` … `/*/*/str9*`).
  const costly = [
    ...Array.from({ length: 9 }, (_v, i) => `Disallow: /*str${i + 1}`),
    ...Array.from({ length: 9 }, (_v, i) => `Disallow: /*/str${i + 1}*`),
    ...Array.from({ length: 9 }, (_v, i) => `Allow: /*/*/str${i + 1}x`),
  ];
  const body = `User-agent: bot\n${costly.join('\n')}\nDisallow: /private\n`;
  // Without a plain rule the DFA has none to fold: only the rule matches a window counts decide.
  const unfolded = `User-agent: bot\n${costly.join('\n')}\n`;
  const heavy = (i: number): string => `https://example.com/news/${i % 7}/str${(i % 9) + 1}${i % 3 === 0 ? 'x' : ''}?p=${i}`;
  // A path of one byte: shorter than every rule, so no rule is matched in full.
  const light = 'https://example.com/';

  it(`rule matches are counted per path; a window averaging TRIAL_CALLS_X2 / 2 (${TRIAL_CALLS}) or more turns the DFA on, one just below opens the next window`, () => {
    expect(costly.length).toBeGreaterThanOrEqual(DFA_TRIAL_RULES);
    expect(costly.length).toBeLessThan(DFA_MIN_RULES);
    const table = Robots.parse(unfolded).forAgent('bot').table;
    const probe = new Placed(table);
    expect(probe.status().plainRules).toBe(0);
    probe.judge([light], true);
    expect(probe.status().trialCalls).toBe(0);
    probe.judge([heavy(1)], true);
    const perHeavy = probe.status().trialCalls;
    expect(perHeavy).toBeGreaterThanOrEqual(2);
    // The fewest heavy paths whose matches reach TRIAL_CALLS per path over a window.
    expect(TRIAL_CALLS).toBeGreaterThan(0);
    const needed = Math.ceil((TRIAL_CALLS * TRIAL_PATHS) / perHeavy);
    const window = (heavyPaths: number): string[] => Array.from({ length: TRIAL_PATHS }, (_v, i) => (i < heavyPaths ? heavy(1) : light));

    const below = new Placed(table);
    below.judge(window(needed - 1).slice(0, TRIAL_PATHS - 1), true);
    expect(below.status()).toMatchObject({ enabled: false, trialLeft: 1, trialCalls: (needed - 1) * perHeavy });
    below.judge([light], true);
    expect(below.status()).toMatchObject({ enabled: false, states: 0, trialLeft: TRIAL_PATHS, trialCalls: 0 });

    const at = new Placed(table);
    at.judge(window(needed), true);
    expect(at.status()).toMatchObject({ enabled: true, trialLeft: 0 });
    // (A batch of LANES paths or more: fewer are each judged alone, rule by rule, below.)
    at.judge([heavy(2), heavy(3), heavy(4), heavy(5)], true);
    expect(at.status().states).toBeGreaterThan(1);
    // The window that follows a failed one counts afresh and can still turn the DFA on.
    below.judge(window(needed), true);
    expect(below.status()).toMatchObject({ enabled: true, trialLeft: 0 });
  });

  it('a workload that switches mid-batch gives the reference\'s verdict and line before and after, in both profiles and through every path', () => {
    const urls = Array.from({ length: TRIAL_PATHS + 200 }, (_v, i) => (i % 5 === 4 ? `https://example.com/private/${i}` : heavy(i)));
    for (const profile of PROFILES) {
      const placed = expectReference(body, urls, profile);
      expect(placed.status().enabled).toBe(true);
      // The batch that switched judged its other paths one by one (the DFA is for queued
      // batches in a trial table): the next batch reads the DFA.
      placed.judge(urls.slice(0, 64), true);
      expect(placed.status().states).toBeGreaterThan(1);
    }
  });

  it('a path judged alone: rule by rule in a trial table whose DFA is on, through the DFA in a table of DFA_MIN_RULES rules; batches of LANES paths through it in both', () => {
    const wide = `User-agent: bot\n${costly.join('\n')}\n${Array.from({ length: DFA_MIN_RULES - costly.length }, (_v, i) => `Disallow: /*zz${i}*`).join('\n')}\n`;
    const trial = new Placed(Robots.parse(unfolded).forAgent('bot').table);
    trial.judge(Array.from({ length: TRIAL_PATHS }, (_v, i) => heavy(i)), true);
    trial.judge(Array.from({ length: 8 }, (_v, i) => heavy(i)), true);
    const full = new Placed(Robots.parse(wide).forAgent('bot').table);
    full.judge(Array.from({ length: 8 }, (_v, i) => heavy(i)), true);
    for (const placed of [trial, full]) expect(placed.status().enabled).toBe(true);
    const fresh = ['https://example.com/a/b/str4x/fresh', 'https://example.com/q/str7?z=1', 'https://example.com/w/w/w/str2'];
    const trialStates = trial.status().states;
    const fullStates = full.status().states;
    // One, two and three paths: fewer than LANES, so each alone; none seen before, so a DFA
    // reading them builds states.
    for (let n = 1; n <= 3; n++) {
      trial.judge(fresh.slice(0, n), true);
      full.judge(fresh.slice(0, n).map((u) => `${u}/${n}`), true);
    }
    expect(trial.status().states).toBe(trialStates);
    expect(full.status().states).toBeGreaterThan(fullStates);
    trial.judge([...fresh, 'https://example.com/str9/new'], true);
    expect(trial.status().states).toBeGreaterThan(trialStates);
    const ref = ReferenceRobots.parse(unfolded, { profile: 'rfc' });
    fresh.forEach((u) => {
      const want = ref.explain(u, 'bot');
      expect(trial.judge([u], true)[0], u).toEqual({ allowed: want.allowed, line: want.line });
    });
  });

  const cheap = Array.from({ length: 2 * TRIAL_PATHS + 100 }, (_v, i) => `https://example.com/news/${i}/page-${i % 13}`);

  it('a workload whose paths cost few matches stays rule by rule, window after window, when the DFA holds no plain rule', () => {
    const placed = new Placed(Robots.parse(unfolded).forAgent('bot').table);
    const verdicts = placed.judge(cheap, true);
    expect(placed.status()).toMatchObject({ enabled: false, states: 0, trialLeft: TRIAL_PATHS - 100, plainRules: 0 });
    expect(verdicts.every((v) => v.allowed)).toBe(true);
  });

  it('the same workload turns the DFA on after its first window when the DFA holds the plain rules too (no trie walk), exactly', () => {
    for (const profile of PROFILES) {
      const placed = new Placed(Robots.parse(body, { profile }).forAgent('bot').table);
      expect(placed.status()).toMatchObject({ enabled: false, plainRules: 1, trialLeft: TRIAL_PATHS });
      const first = placed.judge(cheap.slice(0, TRIAL_PATHS - 1), true);
      expect(placed.status()).toMatchObject({ enabled: false, trialLeft: 1 });
      placed.judge(cheap.slice(TRIAL_PATHS - 1, TRIAL_PATHS), true);
      expect(placed.status()).toMatchObject({ enabled: true, trialLeft: 0, plainRules: 1 });
      const rest = placed.judge([...cheap.slice(TRIAL_PATHS), 'https://example.com/private/1', 'https://example.com/news/str3x'], true);
      expect(placed.status().states).toBeGreaterThan(1);
      const ref = ReferenceRobots.parse(body, { profile });
      const all = [...cheap.slice(0, TRIAL_PATHS - 1), ...cheap.slice(TRIAL_PATHS), 'https://example.com/private/1', 'https://example.com/news/str3x'];
      const got = [...first, ...rest];
      all.forEach((u, i) => {
        const want = ref.explain(u, 'bot');
        expect(got[i], u).toEqual({ allowed: want.allowed, line: want.line });
      });
    }
  });

  it('a DFA on for its fold alone that drops the fold (its states outgrow the cache) is back on trial, and a later window with enough matches turns it on unfolded', () => {
    // PREFIXES plain prefixes (a trie past DFA_FOLD_NODES nodes, so the region gets no room
    // for them), each followed by query strings that walk the wildcard states (`?`, `f`,
    // digits) but never hold `=`, so rule by rule the prefilter passes no rule: folded,
    // ~PREFIXES copies of those states, past the trial region's cache (DFA_TRIAL_PER_RULE
    // a wildcard rule: the most a trial table has, so that the prefixes' positions fit).
    const r = random(43);
    const PREFIXES = DFA_FOLD_NODES + 100;
    const wild = Array.from({ length: DFA_MIN_RULES - 1 }, (_v, i) => `Disallow: /*?*f${i}=`);
    const lines = ['User-agent: bot', ...wild];
    for (let i = 0; i < PREFIXES; i++) lines.push(`${i % 3 === 0 ? 'Allow' : 'Disallow'}: /d${i}/`);
    const folding = `${lines.join('\n')}\n`;
    const urls = Array.from({ length: 6000 }, (_v, i) => `https://example.com/d${i % PREFIXES}/${randomWord(r, 'abf1', 8)}?${randomWord(r, 'f0123456789&', 12)}`);
    const placed = new Placed(Robots.parse(folding).forAgent('bot').table);
    expect(placed.status()).toMatchObject({ plainRules: PREFIXES, enabled: false, trialLeft: TRIAL_PATHS });
    // Two batches: the first window turns the DFA on (its paths judged one by one, in the
    // same batch, rule by rule), then the rest reads it.
    const got = [...placed.judge(urls.slice(0, TRIAL_PATHS), true), ...placed.judge(urls.slice(TRIAL_PATHS), true)];
    expect(placed.status()).toMatchObject({ plainRules: 0, flushes: 1, enabled: false });
    expect(placed.status().trialLeft).toBeGreaterThan(0);
    expect(got).toEqual(placed.judge(urls, false));
    const matcher = Robots.parse(folding).forAgent('bot');
    expect(urls.slice(0, 400).map((u) => matcher.isAllowed(u))).toEqual(got.slice(0, 400).map((v) => v.allowed));
    // Now rule by rule; a window of paths that each match rules in full turns the DFA on, unfolded.
    const costlyPaths = Array.from({ length: TRIAL_PATHS }, (_v, i) => `https://example.com/x${i}?f1=&f2=&f3=`);
    const after = placed.judge(costlyPaths, true);
    expect(placed.status()).toMatchObject({ enabled: true, plainRules: 0 });
    expect(after).toEqual(placed.judge(costlyPaths, false));
  }, 120_000);

  it('the DFA region gets DFA_PER_NODE bytes a trie node, up to DFA_FOLD_NODES nodes and none past them', () => {
    const exports = instantiate();
    // 8 wildcard rules against 7 (no DFA region; the same 16-rule block): the difference is the region.
    const region = (nodes: number): number => exports.indexBytesFor(0, DFA_TRIAL_RULES, nodes, DFA_TRIAL_RULES, 64, 0) - exports.indexBytesFor(0, DFA_TRIAL_RULES - 1, nodes, DFA_TRIAL_RULES - 1, 64, 0);
    expect(region(100) - region(0)).toBe(100 * DFA_PER_NODE);
    expect(region(DFA_FOLD_NODES)).toBeGreaterThan(region(100));
    expect(region(DFA_FOLD_NODES + 1)).toBe(region(0));
  });

  it('a DFA region past DFA_CAP takes what AGENT_BYTES leaves beside the table and the rest of its RuleIndex, in whole KiB, and never less than DFA_CAP', () => {
    const exports = instantiate();
    const DFA_CAP = exports.dfaCap.value as number;
    const AGENT_BYTES = exports.agentBytes.value as number;
    // The table's bytes as the encoder lays them out (src/table/format.ts): header, nodes and
    // their first bytes (4-aligned), wildcard records, segment records, pool.
    const tableBytes = (w: number, nodes: number, segments: number, pool: number): number => ((48 + 33 * nodes + 3) & ~3) + 24 * w + 12 * segments + pool;
    const full = (w: number, nodes: number, segments: number, pool: number): number => exports.indexBytesFor(0, w, nodes, segments, pool, 0);
    // The lean RuleIndex holds a 128-byte mark where the full one holds the region.
    const region = (w: number, nodes: number, segments: number, pool: number): number => full(w, nodes, segments, pool) - exports.indexBytesFor(0, w, nodes, segments, pool, 1) + 128;
    // 91 wildcard rules and a small trie (pornhub.com's shape): past DFA_CAP, to the agent budget.
    for (const [w, nodes, segments, pool] of [[91, 5, 200, 3_000], [200, 40, 500, 20_000], [60, 1_000, 130, 30_000]] as const) {
      expect(region(w, nodes, segments, pool)).toBeGreaterThan(DFA_CAP);
      expect(region(w, nodes, segments, pool) % 1024).toBe(0);
      const agent = tableBytes(w, nodes, segments, pool) + full(w, nodes, segments, pool);
      expect(agent).toBeLessThanOrEqual(AGENT_BYTES);
      expect(agent).toBeGreaterThan(AGENT_BYTES - 1024);
    }
    // A table that leaves less than DFA_CAP of the budget: DFA_CAP, as for every table; so
    // too for header fields at 2^31 and 2^32 − 1 (their products must not wrap into room).
    expect(region(91, 5, 200, 400_000)).toBe(DFA_CAP);
    expect(region(91, 2 ** 31, 10, 10)).toBe(DFA_CAP);
    // 33 bytes a node (record and first byte) × 1,041,204,196 nodes is 100 modulo 2^32.
    expect(region(91, 1_041_204_196, 10, 10)).toBe(DFA_CAP);
    expect(region(91, 5, 2 ** 31, 10)).toBe(DFA_CAP);
    expect(region(91, 5, 200, 2 ** 32 - 1)).toBe(DFA_CAP);
    // Below DFA_CAP, the region is what its rules and nodes ask for, whatever the budget.
    expect(region(40, 10, 80, 500_000)).toBe(64 * 1024 + 40 * 12 * 1024 + 10 * DFA_PER_NODE);
  });

  it('a trial table of 150 plain prefixes keeps them folded through a workload its wildcard rules alone would cache in a tenth of the region', () => {
    // Each prefix is followed by query strings that walk the wildcard states: ~150 copies of
    // them, more than the region of its wildcard rules alone holds, within what its nodes add.
    const r = random(47);
    const wild = Array.from({ length: DFA_TRIAL_RULES }, (_v, i) => `Disallow: /*?*f${i}=`);
    const lines = ['User-agent: bot', ...wild];
    for (let i = 0; i < 150; i++) lines.push(`${i % 3 === 0 ? 'Allow' : 'Disallow'}: /d${i}/`);
    const body = `${lines.join('\n')}\n`;
    const urls = Array.from({ length: 6000 }, (_v, i) => `https://example.com/d${i % 150}/${randomWord(r, 'abf1=', 8)}?${randomWord(r, 'f0123456789=&', 12)}`);
    const placed = new Placed(Robots.parse(body).forAgent('bot').table);
    const got = placed.judge(urls, true);
    expect(placed.status()).toMatchObject({ plainRules: 150, flushes: 0, enabled: true, mode: 'carry' });
    expect(got).toEqual(placed.judge(urls, false));
    const ref = ReferenceRobots.parse(body, { profile: 'rfc' });
    urls.slice(0, 600).forEach((u, i) => {
      const want = ref.explain(u, 'bot');
      expect(got[i], u).toEqual({ allowed: want.allowed, line: want.line });
    });
  }, 120_000);

  it(`${Math.ceil(RUNS / 4)} generated groups of ${DFA_TRIAL_RULES}–${DFA_MIN_RULES - 1} wildcard rules × ${TRIAL_PATHS + 103} URLs: exact before and after any switch`, () => {
    const trialGroup = fc.tuple(fc.array(rule(pattern), { minLength: DFA_TRIAL_RULES, maxLength: DFA_MIN_RULES - 1 }), fc.array(rule(plain), { maxLength: 6 }))
      .map(([wild, plains]) => `User-agent: bot\n${[...wild, ...plains].join('\n')}\n`);
    let switched = 0;
    fc.assert(
      fc.property(trialGroup, fc.array(url, { minLength: TRIAL_PATHS + 103, maxLength: TRIAL_PATHS + 103 }), (generated, urls) => {
        for (const profile of PROFILES) if (expectReference(generated, urls, profile).status().enabled) switched++;
      }),
      { numRuns: Math.ceil(RUNS / 4), seed: TRIAL_SEED },
    );
    // The small alphabet makes most generated groups costly: the switch itself was exercised.
    expect(switched).toBeGreaterThan(0);
  }, 120_000);
});

describe('wildcard DFA: at its limits the verdicts stay exact', () => {
  const ALPHABET = 'abcdefghij/?=&.-';
  const word = (r: () => number, n: number): string => randomWord(r, ALPHABET, n);
  /** Many rules of several short pieces over a small alphabet: random paths reach a new state at almost every byte. */
  function dense(seed: number, count: number): string {
    const r = random(seed);
    const lines = ['User-agent: bot'];
    for (let i = 0; i < count; i++) {
      const pieces = Array.from({ length: 2 + Math.floor(r() * 3) }, () => word(r, 1 + Math.floor(r() * 3)));
      lines.push(`${r() < 0.3 ? 'Allow' : 'Disallow'}: /${pieces.join('*')}${r() < 0.2 ? '$' : ''}`);
    }
    return `${lines.join('\n')}\n`;
  }

  it('a DFA region past DFA_CAP with plain rules folded in: the first flush lays the region out again in all of it, every verdict matches', () => {
    // 40 rules `/*…` of short pieces over a small alphabet, alive along any path (fewer than
    // AUTOMATON_CROWD: no crowd), and 150 plain prefixes the DFA takes in, whose trie nodes
    // take the region past DFA_CAP; long random paths below the prefixes outgrow the folded
    // cache, whose first flush drops the fold.
    const r = random(17);
    const lines = ['User-agent: bot'];
    for (let i = 0; i < 40; i++) {
      const pieces = Array.from({ length: 2 + Math.floor(r() * 3) }, () => word(r, 1 + Math.floor(r() * 3)));
      lines.push(`${r() < 0.3 ? 'Allow' : 'Disallow'}: /*${pieces.join('*')}${r() < 0.2 ? '$' : ''}`);
    }
    for (let i = 0; i < 150; i++) lines.push(`${i % 3 === 0 ? 'Allow' : 'Disallow'}: /p${i}/`);
    const body = `${lines.join('\n')}\n`;
    const placed = new Placed(Robots.parse(body).forAgent('bot').table);
    const DFA_CAP = placed.exports.dfaCap.value as number;
    const bytes = placed.dfaRegionBytes();
    expect(bytes).toBeGreaterThan(DFA_CAP);
    expect(placed.status()).toMatchObject({ enabled: true, plainRules: 150, flushes: 0 });
    const urls = Array.from({ length: 4000 }, (_v, i) => `https://example.com/p${i % 150}/${word(r, 60 + Math.floor(r() * 40))}`);
    const got = placed.judge(urls, true);
    const status = placed.status();
    expect(status.flushes).toBeGreaterThan(0);
    expect(status.plainRules).toBe(0);
    expect(placed.dfaRegionBytes()).toBe(bytes);
    expect(got).toEqual(placed.judge(urls, false));
    expectReference(body, urls.slice(0, 200), 'rfc');
  }, 120_000);

  it('a workload with more states than the cache holds: the cache flushes, the DFA gives up, every verdict matches', () => {
    const body = dense(7, 400);
    const r = random(11);
    // Long paths: each builds several states, so the cache fills within a few hundred paths, again and again.
    const urls = Array.from({ length: 8000 }, () => `https://example.com/${word(r, 80 + Math.floor(r() * 40))}`);
    // The reference is slow on 400 rules: it checks a sample, the rule-by-rule path (checked
    // against it by the property test above) every URL.
    expectReference(body, urls.slice(0, 300), 'rfc');
    const placed = new Placed(Robots.parse(body).forAgent('bot').table);
    const dfa = placed.judge(urls, true);
    const status = placed.status();
    // The first flush turns the DFA to step mode, whose cache fills too, STRIKE_LIMIT times.
    expect(status.flushes).toBeGreaterThanOrEqual(4);
    expect(status.mode).toBe('step');
    expect(status.enabled).toBe(false);
    expect(dfa).toEqual(placed.judge(urls, false));
    // Given up, the table is matched rule by rule: the same URLs again, the same answers.
    expect(placed.judge(urls, true)).toEqual(dfa);
  }, 120_000);

  it('fills that come too soon between slower ones: each counts two strikes and a slow one forgives one, so the DFA gives up where "in a row" never would', () => {
    const body = dense(7, 400);
    const r = random(13);
    const placed = new Placed(Robots.parse(body).forAgent('bot').table);
    // Long random paths build states: the cache fills within a few hundred of them.
    const fresh = (): string[] => Array.from({ length: 50 }, () => `https://example.com/${word(r, 80 + Math.floor(r() * 40))}`);
    // Fills the cache with fresh paths; returns the states it held before the flush.
    const fill = (): number => {
      const flushes = placed.status().flushes;
      let held = 0;
      while (placed.status().flushes === flushes && placed.status().enabled) {
        held = placed.status().states;
        placed.judge(fresh(), true);
      }
      return held;
    };
    fill(); // the first flush turns the DFA to step mode
    let pattern = '';
    for (let round = 0; round < 8 && placed.status().enabled; round++) {
      const held = fill(); // too soon: more than one state per PATHS_PER_STATE (8) paths
      pattern += 'S';
      if (!placed.status().enabled) break;
      // Slow: one cached path judged more than 8 times per state the cache holds, then fresh paths until it fills.
      placed.judge(Array.from({ length: 8 * held + 2000 }, () => 'https://example.com/zz'), true);
      fill();
      pattern += 'N';
    }
    // Strikes: S +2, N −1; given up at 2 × STRIKE_LIMIT (6): S N S N S N S N S.
    expect(pattern).toBe('SNSNSNSNS');
    expect(placed.status().enabled).toBe(false);
    const urls = fresh().concat(fresh());
    expect(placed.judge(urls, true)).toEqual(placed.judge(urls, false));
  }, 120_000);

  it('bests that multiply the states past the cache: the first flush turns the DFA to step mode, which holds the workload, every verdict matches', () => {
    // 1,000 rules `/*m<three digits>` of one priority: carried in the state, the best so far
    // (the earliest line matched) multiplies every later state, and prunes the rules after
    // it, so ~500 bests × the sets exceed the cache (200 such rules fit it: their
    // states share their LOOP positions). In step mode a state holds only the matches of
    // the step into it: about one state per rule, plus the few sets.
    const lines = ['User-agent: bot'];
    for (let i = 0; i < 1000; i++) lines.push(`Disallow: /*m${String(i % 500).padStart(3, '0')}${i < 500 ? '' : 'x'}`);
    const body = `${lines.join('\n')}\n`;
    const r = random(29);
    const urls = Array.from({ length: 6000 }, () => `https://example.com/${randomWord(r, 'm0123456789x', 40 + Math.floor(r() * 30))}`);
    expectReference(body, urls.slice(0, 300), 'rfc');
    const placed = new Placed(Robots.parse(body).forAgent('bot').table);
    const dfa = placed.judge(urls, true);
    const status = placed.status();
    expect(status.mode).toBe('step');
    expect(status.flushes).toBe(1);
    expect(status.enabled).toBe(true);
    expect(dfa).toEqual(placed.judge(urls, false));
    // The paths before the flush build their step-mode states on the second pass; after it
    // the cache holds the workload: a third pass builds nothing and flushes no more.
    expect(placed.judge(urls, true)).toEqual(dfa);
    const states = placed.status().states;
    expect(placed.judge(urls, true)).toEqual(dfa);
    expect(placed.status()).toMatchObject({ states, flushes: 1, enabled: true, mode: 'step' });
  }, 120_000);

  it('states that hold the same LOOP positions share one LOOPS record, read back merged with each state\'s own positions', () => {
    // 200 rules `/*m<two digits>`: a state's LOOPs are the rules still in play (each `/*`
    // rule waits in its LOOP from the first byte on), its own positions the few inside a
    // piece. In the first mode the bests prune rules, so the LOOP sets follow the bests;
    // in step mode every state past the first byte keeps every rule's LOOP: one record.
    const lines = ['User-agent: bot'];
    for (let i = 0; i < 200; i++) lines.push(`${i % 7 === 0 ? 'Allow' : 'Disallow'}: /*m${String(i % 100).padStart(2, '0')}${i < 100 ? '' : 'x'}${i % 5 === 0 ? '$' : ''}`);
    const body = `${lines.join('\n')}\n`;
    const r = random(37);
    const urls = Array.from({ length: 4000 }, () => `https://example.com/${randomWord(r, 'm0123456789x', 20 + Math.floor(r() * 40))}`);
    expectReference(body, urls.slice(0, 200), 'rfc');
    const table = Robots.parse(body).forAgent('bot').table;
    const carried = new Placed(table);
    const got = carried.judge(urls, true);
    expect(got).toEqual(carried.judge(urls, false));
    const carry = carried.status();
    expect(carry).toMatchObject({ flushes: 0, enabled: true, mode: 'carry' });
    expect(carried.loopRecords()).toBeGreaterThan(0);
    expect(carried.loopRecords() * 10).toBeLessThan(carry.states);
    const stepped = new Placed(table);
    stepped.exports.dfaStepMode(stepped.at, stepped.index);
    expect(stepped.judge(urls, true)).toEqual(got);
    const step = stepped.status();
    expect(step).toMatchObject({ flushes: 0, enabled: true, mode: 'step' });
    expect(step.states).toBeGreaterThan(100);
    expect(stepped.loopRecords()).toBe(1);
  }, 120_000);

  it('sets whose positions lie up to 2^7, 2^14 and 2^16 apart are stored packed (1, 2 and 3 bytes a distance) and read back exactly', () => {
    // Positions follow the wildcard list, longest pattern first: /c*w{700}, /a*q{600}, 17
    // rules /b*… of 510 bytes, /a*y{505}, 18 of 500 bytes, then the short /a… and /c…
    // rules. A path starting "/a" keeps the LOOPs of the three long /a rules and the short
    // ones (~9,300 and ~9,600 apart: 2 bytes, bit 13 set); one starting "/c" keeps /c*w{700}
    // and the short /c rules (~18,900 apart: 3 bytes); one starting "/b" the LOOPs of the
    // /b rules (~500 apart: 2 bytes) and, inside a piece, neighbours (1 byte).
    const r = random(31);
    const long = Array.from({ length: 35 }, (_v, i) => randomWord(r, 'ab', i < 17 ? 510 : 500));
    const longRules = long.map((w, i) => `${i % 2 === 0 ? 'Allow' : 'Disallow'}: /b*${w}`);
    const rules = [
      `Disallow: /a*${'q'.repeat(600)}`, `Allow: /c*${'w'.repeat(700)}`, ...longRules.slice(0, 17), `Disallow: /a*${'y'.repeat(505)}`, ...longRules.slice(17),
      'Disallow: /a*x', 'Allow: /a*xy$', 'Disallow: /c*z', 'Allow: /c*zw$',
    ];
    const body = `User-agent: bot\n${rules.join('\n')}\n`;
    const urls = [
      ...Array.from({ length: 40 }, () => `https://example.com/a${randomWord(r, 'axy', 1 + Math.floor(r() * 12))}`),
      ...Array.from({ length: 40 }, () => `https://example.com/c${randomWord(r, 'czw', 1 + Math.floor(r() * 12))}`),
      ...Array.from({ length: 40 }, (_v, i) => `https://example.com/b${randomWord(r, 'ab', 2)}${long[i % 35]!.slice(0, 4 + (i % 12))}`),
    ];
    for (const profile of PROFILES) {
      const placed = expectReference(body, urls, profile);
      expect(placed.status()).toMatchObject({ enabled: true, mode: 'carry', flushes: 0 });
      expect(placed.status().states).toBeGreaterThan(40);
    }
  });

  it('one long path with a cold cache stops at the per-path budget and is judged rule by rule', () => {
    const body = dense(3, 300);
    const r = random(5);
    const long = `https://example.com/${word(r, 4000)}`;
    const placed = expectReference(body, [long], 'rfc');
    // The path gave up after MISS_BUDGET new states (assembly/dfa.ts), so the cache holds
    // no more than that many, plus the start state, for both runs (DFA on, then off).
    const { states, enabled } = placed.status();
    expect(enabled).toBe(true);
    expect(states).toBeGreaterThan(10);
    expect(states).toBeLessThanOrEqual(97);
  });

  it('the queue: batches of 1 to 600 paths of 1 to 300 bytes, some DEAD after two bytes, give the reference\'s verdict and line', () => {
    // Lanes take the next queued path when theirs ends or goes DEAD (assembly/dfa.ts
    // scanDfaQueue): lengths and DEAD points differ from path to path, and each batch size
    // ends on a partial queue of its own.
    const rules = ['Disallow: /x*.pdf$', 'Allow: /x*?*a=', 'Disallow: /x*/y/*z', 'Allow: /x/*$', 'Disallow: /xx'];
    for (let i = 0; i < DFA_MIN_RULES; i++) rules.push(`Disallow: /x*?*f${i}=`);
    const body = `User-agent: bot\n${rules.join('\n')}\n`;
    const r = random(17);
    const tails = ['.pdf', '?a=1', '/y/z', '', '?f9=2', '?f31=&a='];
    const urls = Array.from({ length: 600 }, (_, i) => {
      const head = i % 3 === 0 ? 'y' : 'x'; // "/y…" holds no position after two bytes: DEAD
      return `https://example.com/${head}${word(r, Math.floor(r() * 290))}${tails[i % tails.length]}`;
    });
    // Around QUEUE_CAP (256, assembly/dfa.ts): a full queue, one path over, and two and a bit queues.
    for (const n of [1, 3, 4, 5, 31, 32, 33, 255, 256, 257, 600]) {
      for (const profile of PROFILES) expect(expectReference(body, urls.slice(0, n), profile).status().enabled).toBe(true);
    }
  });

  it('the queue: one path that spends the per-path budget among short ones is judged rule by rule, the others through the DFA', () => {
    const body = dense(3, 300);
    const r = random(23);
    const short = (): string => `https://example.com/${word(r, 2 + Math.floor(r() * 10))}`;
    const urls = [...Array.from({ length: 9 }, short), `https://example.com/${word(r, 4000)}`, ...Array.from({ length: 40 }, short)];
    const placed = expectReference(body, urls, 'rfc');
    expect(placed.status().enabled).toBe(true);
    expect(placed.judge(urls, true)).toEqual(placed.judge(urls, false));
  });

  it('a path of 2^16 + 1 bytes through a warm DFA: the same verdict as rule by rule', () => {
    const rules = ['Disallow: /*.pdf$', 'Allow: /*?*a=', 'Disallow: /*/x/*y', 'Disallow: /*-p*/z', 'Allow: /*&q', 'Disallow: /b*$'];
    for (let i = rules.length; i < DFA_MIN_RULES; i++) rules.push(`Disallow: /*?*f${i}=`);
    const body = `User-agent: bot\n${rules.join('\n')}\n`;
    const tail = ['.pdf', '?a=', '/x/y', '-p/z', '&q', '', '?f9='];
    const urls = tail.map((t) => `https://example.com/${'ab/'.repeat(21845)}${t}`);
    for (const profile of PROFILES) expect(expectReference(body, urls, profile).status().states).toBeGreaterThan(1);
  });
});

describe('wildcard DFA: the plain rules taken in (their verdicts need no trie walk)', () => {
  const wildcards = Array.from({ length: DFA_MIN_RULES }, (_v, i) => `Disallow: /*?*f${i}=`);
  const bodyOf = (plain: readonly string[]): string => `User-agent: bot\n${[...wildcards, ...plain].join('\n')}\n`;

  it('one rule per node and kind: prefix rules end in a match, exact ones at the path\'s end; the earliest line of a pattern decides', () => {
    // Nodes /, /a (prefix and exact disallow), /a/b, /ab (exact allow), /ab/c?d: six
    // rules; the second `Disallow: /a` is the same rule (its node keeps the earlier line).
    const plain = ['Allow: /', 'Disallow: /a', 'Disallow: /a$', 'Allow: /a/b', 'Disallow: /a', 'Allow: /ab$', 'Disallow: /ab/c?d'];
    const urls = ['/', '/a', '/a/', '/a/b', '/a/bc', '/ab', '/abc', '/ab/c?d', '/ab/c?d&f3=1', '/a?f3=', '/x'].map((u) => `https://example.com${u}`);
    for (const profile of PROFILES) {
      const placed = expectReference(bodyOf(plain), urls, profile);
      expect(placed.status()).toMatchObject({ plainRules: 6, enabled: true, mode: 'carry', flushes: 0 });
      // The second `Disallow: /a` (line 38) never decides: its node holds line 35's rule.
      expect(placed.judge(['https://example.com/a/x'], true)).toEqual([{ allowed: false, line: DFA_MIN_RULES + 3 }]);
    }
  });

  const plainPattern = fc.tuple(fc.array(fc.constantFrom(...PIECES, 'c', 'x/'), { minLength: 0, maxLength: 4 }), fc.boolean())
    .map(([parts, exact]) => `/${parts.join('')}${exact ? '$' : ''}`);
  it(`${RUNS} generated groups of up to 80 plain rules (shared prefixes, exact, empty) and ${DFA_MIN_RULES}+ wildcard rules × ${URLS_PER_RUN} URLs`, () => {
    let folded = 0;
    fc.assert(
      fc.property(
        fc.tuple(fc.array(rule(pattern), { minLength: DFA_MIN_RULES, maxLength: DFA_MIN_RULES + 20 }), fc.array(rule(fc.oneof(plainPattern, plain)), { minLength: 1, maxLength: 80 })),
        fc.array(url, { minLength: URLS_PER_RUN, maxLength: URLS_PER_RUN }),
        ([wild, plains], urls) => {
          const body = `User-agent: bot\n${[...plains, ...wild].join('\n')}\n`;
          for (const profile of PROFILES) if (expectReference(body, urls, profile).status().plainRules > 0) folded++;
        },
      ),
      { numRuns: RUNS },
    );
    expect(folded).toBeGreaterThan(RUNS);
  }, 120_000);

  it(`FOLD_POSITIONS (${FOLD_POSITIONS}) plain positions are taken in, one more is not; both give the reference's verdicts`, () => {
    // 512 plain rules of 15 bytes: 512 × (15 + 1) positions.
    expect(FOLD_POSITIONS).toBe(512 * 16);
    const plain = (last: number): string[] => Array.from({ length: 512 }, (_v, i) => `Disallow: /p${String(i).padStart(4, '0')}${'x'.repeat(i === 511 ? last : 9)}`);
    const urls = ['/p0000xxxxxxxxx', '/p0511xxxxxxxxx', '/p0511xxxxxxxxxx', '/p0511xxxxxxxxxx?f1=', '/p0007', '/q?f2=', '/p0100xxxxxxxxxyz'].map((u) => `https://example.com${u}`);
    for (const profile of PROFILES) {
      expect(expectReference(bodyOf(plain(9)), urls, profile).status().plainRules).toBe(512);
      expect(expectReference(bodyOf(plain(10)), urls, profile).status().plainRules).toBe(0);
    }
  });

  it('a folded DFA whose states outgrow the cache (each plain rule matched starts its own copy of the wildcard states) lays itself out again without them, exactly', () => {
    // PREFIXES plain prefixes (a trie past DFA_FOLD_NODES nodes: no region bytes for them),
    // each followed by query strings that walk the wildcard states: folded, ~PREFIXES
    // copies of them; laid out again, about a hundred states in all.
    const r = random(41);
    const PREFIXES = DFA_FOLD_NODES + 100;
    const lines = ['User-agent: bot', ...wildcards];
    for (let i = 0; i < PREFIXES; i++) lines.push(`${i % 3 === 0 ? 'Allow' : 'Disallow'}: /d${i}/`);
    const body = `${lines.join('\n')}\n`;
    const urls = Array.from({ length: 6000 }, (_v, i) => `https://example.com/d${i % PREFIXES}/${randomWord(r, 'abf1=', 8)}?${randomWord(r, 'f0123456789=&', 12)}`);
    expectReference(body, urls.slice(0, 300), 'rfc');
    const placed = new Placed(Robots.parse(body).forAgent('bot').table);
    expect(placed.status()).toMatchObject({ plainRules: PREFIXES, states: 0 });
    const dfa = placed.judge(urls, true);
    expect(placed.status()).toMatchObject({ plainRules: 0, flushes: 1, enabled: true, mode: 'carry' });
    expect(dfa).toEqual(placed.judge(urls, false));
    // Laid out again, the table's paths need the walk: the same answers through the DFA.
    expect(placed.judge(urls, true)).toEqual(dfa);
    const matcher = Robots.parse(body).forAgent('bot');
    expect(urls.slice(0, 500).map((u) => matcher.isAllowed(u))).toEqual(dfa.slice(0, 500).map((v) => v.allowed));
  }, 120_000);
});
