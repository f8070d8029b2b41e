// Scenario: every corpus robots.txt × {Googlebot, a generic agent}, raw-path cost per URL ÷ the empty-table floor on the same bytes.
//
// Why not tinybench here: 2 × 2,343 (file, agent) pairs at tinybench's minimum of ~3 s
// each would take hours. Each pair is timed instead around single matchLines calls
// (process.cpuUsage and process.hrtime), the table's call and the empty table's call
// alternating (which goes first alternates too), so a phase of this shared machine slows
// both sides of a pair alike; the pair's ratio is the median of its per-round ratios.
// The headline times each call by the lesser of its process CPU time and its wall time:
// the matcher runs on one thread, so each bounds that thread's time from above, CPU time
// leaving out the time other processes held the core, wall time the work of the
// process's other threads in parallel (V8's background compiles and collector; the CPU
// ratio alone put agoda.com's Googlebot table at 6.76× where its wall ratio read 2.32×).
// The CPU-time and wall-time ratios are printed beside it.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Robots } from '../dist/index.js';
import { FLAG_WILDCARD_AUTOMATON, H_FLAGS, H_WILDCARD_COUNT } from '../dist/table/format.js';
import { rng, syntheticRobots, toLines } from './fixtures.mjs';
import { wildcardCount } from './lib.mjs';
import { retailRobots } from './retail-gen.mjs';

export const AGENTS = ['Googlebot', 'ExampleBot'];

const WORDS = [
  'news', 'shop', 'product', 'category', 'search', 'user', 'account', 'video', 'blog', 'page',
  'en', 'item', 'list', 'view', 'print', 'tag', 'sale', 'help', 'a1', 'x', 'red', 'large', '2019',
];
const PARAMS = ['id', 'page', 'sort', 'q', 'ref', 'utm_source', 'color', 'size', 'sessionid', 'lang', 'p'];

function pick(r, list) {
  return list[Math.floor(r() * list.length)];
}

/** The allow/disallow patterns of a robots.txt body, every group's, as written (path part). */
export function rulePatterns(body) {
  const out = [];
  for (const line of body.split(/\r\n|\r|\n/)) {
    const m = /^\s*(?:dis)?allow\s*:\s*([^#\s]*)/i.exec(line);
    if (m && m[1].length > 0) out.push(m[1]);
  }
  return out;
}

/** Query parameter names a rule mentions (`?sort=`, `&size=`), so that made-up queries reach its rules. */
function ruleParams(patterns) {
  const names = new Set();
  for (const p of patterns) for (const m of p.matchAll(/[?&]([A-Za-z0-9_.-]+)=/g)) names.add(m[1]);
  return [...names];
}

/**
 * One path made from `pattern`: each `*` filled with 0–3 words, a trailing `$` honoured
 * (nothing appended), otherwise sometimes more segments and a query string.
 */
function pathFrom(r, pattern, params) {
  const anchored = pattern.endsWith('$');
  let p = anchored ? pattern.slice(0, -1) : pattern;
  if (!p.startsWith('/')) p = `/${p}`;
  p = p.replace(/\*/g, () => {
    const n = Math.floor(r() * 4);
    let s = '';
    for (let i = 0; i < n; i++) s += (i > 0 ? pick(r, ['/', '-', '']) : '') + pick(r, WORDS);
    return s;
  });
  if (anchored) return p;
  if (r() < 0.5) p += (p.endsWith('/') ? '' : '/') + `${pick(r, WORDS)}-${Math.floor(r() * 1000)}`;
  if (r() < 0.35) {
    const n = 1 + Math.floor(r() * 3);
    const qs = [];
    for (let i = 0; i < n; i++) qs.push(`${params.length > 0 && r() < 0.5 ? pick(r, params) : pick(r, PARAMS)}=${pick(r, WORDS)}`);
    p += (p.includes('?') ? '&' : '?') + qs.join('&');
  }
  return p;
}

/**
 * `count` URLs on `origin` made from the rules of `body` (seeded): 85% from a random
 * rule's pattern, 15% from plain words (paths no rule mentions).
 */
export function urlsFromRules(body, origin, count, seed) {
  const r = rng(seed);
  const patterns = rulePatterns(body);
  const params = ruleParams(patterns);
  const urls = new Array(count);
  for (let i = 0; i < count; i++) {
    const path = patterns.length > 0 && r() < 0.85
      ? pathFrom(r, pick(r, patterns), params)
      : pathFrom(r, `/${pick(r, WORDS)}/*`, params);
    urls[i] = origin + path;
  }
  return urls;
}

/**
 * Which matcher serves a table's wildcard rules (assembly/match.ts), read off its header: the
 * trie alone, rule by rule, the DFA on trial (8–31 rules: rule by rule until its paths
 * prove costly), the DFA, or, for crowds, the DFA until it gives up, then the Aho–Corasick
 * automaton (the header cannot tell which of the two a crowd's workload ended on).
 */
export function matcherOf(table) {
  const view = new DataView(table.buffer, table.byteOffset, table.byteLength);
  const wildcards = view.getUint32(H_WILDCARD_COUNT, true);
  if ((view.getUint16(H_FLAGS, true) & FLAG_WILDCARD_AUTOMATON) !== 0) return 'crowd (DFA, then A–C)';
  if (wildcards >= 32) return 'DFA (32+ rules)';
  if (wildcards >= 8) return 'DFA on trial (8–31)';
  if (wildcards > 0) return 'rule by rule (1–7)';
  return 'trie only';
}
export const MATCHERS = ['trie only', 'rule by rule (1–7)', 'DFA on trial (8–31)', 'DFA (32+ rules)', 'crowd (DFA, then A–C)'];

export function quantile(sorted, q) {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/**
 * Median over `rounds` alternating rounds of (time of a) ÷ (time of b), after one warm-up
 * call each: `ratio` by the lesser of each call's process CPU time and wall time (a bound
 * of the calling thread's time: see the file header), `cpuRatio` and `wallRatio` by each
 * alone; `aNs`, `bNs` the mean of that lesser time per call.
 */
export function pairedRatio(a, b, rounds) {
  a();
  b();
  const wall = [];
  const cpu = [];
  const least = [];
  let aNs = 0;
  let bNs = 0;
  const time = (fn) => {
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    fn();
    const ns = Number(process.hrtime.bigint() - t0);
    const c = process.cpuUsage(c0);
    return [ns, (c.user + c.system) * 1000];
  };
  for (let i = 0; i < rounds; i++) {
    let ta;
    let tb;
    if (i % 2 === 0) { ta = time(a); tb = time(b); } else { tb = time(b); ta = time(a); }
    const la = Math.min(ta[0], ta[1]);
    const lb = Math.min(tb[0], tb[1]);
    aNs += la;
    bNs += lb;
    wall.push(ta[0] / Math.max(1, tb[0]));
    cpu.push(ta[1] / Math.max(1000, tb[1]));
    least.push(la / Math.max(1, lb));
  }
  const median = (xs) => xs.sort((x, y) => x - y)[xs.length >> 1];
  return { ratio: median(least), cpuRatio: median(cpu), wallRatio: median(wall), aNs: aNs / rounds, bNs: bNs / rounds };
}

/** The URLs a sweep judges for file `f` (the k-th of loadFiles): its real URLs, then `generated` made from its rules. */
export function sweepUrls(f, k, generated) {
  return f.real.concat(urlsFromRules(new TextDecoder().decode(f.body), f.origin, generated, 1000 + k));
}

/** robots/<site>.txt of the corpus with the site's real URLs (urls/<site>.txt) when it has any. */
export function loadFiles({ corpus, smoke }) {
  if (corpus) {
    const names = readdirSync(join(corpus, 'robots')).sort();
    return names.map((name) => {
      const urlPath = join(corpus, 'urls', name);
      const real = existsSync(urlPath) ? readFileSync(urlPath, 'utf8').split('\n').filter((u) => u.length > 0) : [];
      const site = name.replace(/\.txt$/, '');
      return { name: `robots/${name}`, body: readFileSync(join(corpus, 'robots', name)), real, origin: real.length > 0 ? new URL(real[0]).origin : `https://www.${site}` };
    });
  }
  if (!smoke) return null;
  // Smoke only: a few generated files stand in for the corpus, so the code path runs in CI.
  const bodies = [syntheticRobots(1, 20), syntheticRobots(2, 100), retailRobots(3)];
  return bodies.map((text, i) => ({ name: `synthetic-${i}`, body: new TextEncoder().encode(text), real: [], origin: 'https://www.example.com' }));
}

export async function run(args) {
  const { corpus, smoke } = args;
  const files = loadFiles(args);
  if (files === null) {
    console.log('\n## sweep: skipped: no corpus (expected ../shared/corpus next to the repository, or --corpus DIR)');
    return [];
  }
  const generated = smoke ? 200 : 20_000;
  const rounds = smoke ? 3 : 9;
  const where = corpus ? relative(process.cwd(), corpus) || '.' : 'no corpus: smoke stand-ins';
  const empties = new Map(AGENTS.map((a) => [a, Robots.parse('User-agent: *\n').forAgent(a)]));
  const results = [];
  let urlTotal = 0;
  const started = performance.now();
  for (const [k, f] of files.entries()) {
    const robots = Robots.parse(f.body);
    const urls = sweepUrls(f, k, generated);
    const lines = toLines(urls);
    urlTotal += urls.length;
    const out = new Uint8Array(urls.length);
    for (const agent of AGENTS) {
      const m = robots.forAgent(agent);
      const empty = empties.get(agent);
      const { ratio, cpuRatio, wallRatio, aNs, bNs } = pairedRatio(() => m.matchLines(lines, out), () => empty.matchLines(lines, out), rounds);
      results.push({
        file: f.name, agent, ratio, cpuRatio, wallRatio, ns: aNs / urls.length, floorNs: bNs / urls.length,
        rules: m.ruleCount, wild: wildcardCount(robots.rulesFor(agent)), urls: urls.length, real: f.real.length, matcher: matcherOf(m.table),
      });
    }
  }
  const seconds = (performance.now() - started) / 1000;
  const sorted = results.map((r) => r.ratio).sort((a, b) => a - b);
  const floors = results.map((r) => r.floorNs).sort((a, b) => a - b);
  const walls = results.map((r) => r.wallRatio).sort((a, b) => a - b);
  const cpus = results.map((r) => r.cpuRatio).sort((a, b) => a - b);
  const dist = (xs) => ['p50', 'p90', 'p99', 'max'].map((q, i) => `${q} ${quantile(xs, [0.5, 0.9, 0.99, 1][i]).toFixed(2)}×`).join('  ');
  console.log(`\n## sweep: ${files.length} files (${where}) × {${AGENTS.join(', ')}}, ${urlTotal} URLs (real + ${generated} from each file's rules), raw matchLines ÷ empty-table floor`);
  console.log(`timing: ${rounds} alternating rounds per (file, agent), median ratio; a call's time is the lesser of its CPU and wall time; floor median ${quantile(floors, 0.5).toFixed(1)} ns/URL; ${seconds.toFixed(0)} s`);
  console.log(`ratio               ${dist(sorted)}`);
  console.log(`ratio by CPU time   ${dist(cpus)}`);
  console.log(`ratio by wall time  ${dist(walls)}`);
  console.log('by matcher (ratio):');
  const width = Math.max(...MATCHERS.map((m) => m.length));
  for (const matcher of MATCHERS) {
    const own = results.filter((r) => r.matcher === matcher).map((r) => r.ratio).sort((a, b) => a - b);
    if (own.length > 0) console.log(`  ${matcher.padEnd(width)}  ${String(own.length).padStart(5)} ${own.length === 1 ? 'table ' : 'tables'}  ${dist(own)}`);
  }
  const worst = [...results].sort((a, b) => b.ratio - a.ratio).slice(0, 5);
  const head = ['file', 'agent', 'ratio', 'CPU ratio', 'wall ratio', 'ns/URL', 'floor ns', 'rules', 'wildcards', 'URLs (real)'];
  const rows = worst.map((w) => [w.file, w.agent, `${w.ratio.toFixed(2)}×`, `${w.cpuRatio.toFixed(2)}×`, `${w.wallRatio.toFixed(2)}×`, w.ns.toFixed(0), w.floorNs.toFixed(1), String(w.rules), String(w.wild), `${w.urls} (${w.real})`]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const fmt = (cells) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ').trimEnd();
  console.log('worst five:');
  console.log(fmt(head));
  for (const r of rows) console.log(fmt(r));
  return results;
}
