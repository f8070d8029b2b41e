// Two builds on the sweep's workloads: each (file, agent)'s matchLines cost in this build ÷ in another checkout's, summed up per matcher kind.
//
// `node bench/compare.mjs --against DIR [--corpus DIR] [--only KIND,…] [--rounds N] [--control] [--smoke]`
// (build both trees first). Why: an A/B on one chosen file says little about the world. A
// change to the DFA's scan loop measured 0.87–0.97 on the retail file in same-process A/Bs
// and 1.00 (geometric mean) over the corpus's 427 tables of 32 or more wildcard rules.
//
// Each (file, agent) of the sweep (bench/sweep.mjs: every corpus file × {Googlebot, a generic
// agent}, its real URLs plus 20,000 made from its rules) is compiled by both builds, whose
// verdicts must agree (a difference is an error: this tool also catches a change that
// alters a verdict). Then both are timed in alternating rounds of one matchLines call each
// (sweep.mjs pairedRatio: a call's time is the lesser of its CPU and wall time): the pair's
// ratio is the median of its rounds. Each matcher kind gets the geometric mean of its
// ratios and their p10, p50 and p90.
// `--control` also times this build against a second matcher of its own on the same
// bytes: that A/A ratio should be 1, and how far its geometric mean strays is this run's
// noise (1.000–1.005 per kind in a full run on the 2-core machine of docs/PERFORMANCE.md,
// whose single-file A/Bs moved 5–10%).
// `--only` keeps the kinds whose name starts with one of the given prefixes ("DFA", "crowd").
import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Robots } from '../dist/index.js';
import { machine, siblingCorpus } from './lib.mjs';
import { AGENTS, MATCHERS, loadFiles, matcherOf, pairedRatio, quantile, sweepUrls } from './sweep.mjs';
import { toLines } from './fixtures.mjs';

function parseArgs(argv) {
  const args = { against: null, corpus: null, only: null, rounds: 5, control: false, smoke: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--against') args.against = argv[++i] ?? null;
    else if (a === '--corpus') args.corpus = argv[++i] ?? null;
    else if (a === '--only') args.only = (argv[++i] ?? '').split(',').filter((k) => k.length > 0);
    else if (a === '--rounds') args.rounds = Number(argv[++i]);
    else if (a === '--control') args.control = true;
    else if (a === '--smoke') args.smoke = true;
    else throw new Error(`bench: unknown argument ${a} (expected --against DIR, --corpus DIR, --only KIND,…, --rounds N, --control, --smoke)`);
  }
  if (args.against === null) throw new Error('bench: compare needs --against DIR, a built checkout to compare this one with');
  if (!Number.isInteger(args.rounds) || args.rounds < 1 || args.rounds > 99) throw new Error('bench: --rounds takes a whole number from 1 to 99');
  return args;
}

/** Geometric mean, p10, p50 and p90 of ratios, as table cells. */
function summary(ratios) {
  const sorted = [...ratios].sort((a, b) => a - b);
  const mean = Math.exp(sorted.reduce((n, r) => n + Math.log(r), 0) / sorted.length);
  return [mean, quantile(sorted, 0.1), quantile(sorted, 0.5), quantile(sorted, 0.9)].map((r) => r.toFixed(3));
}

const args = parseArgs(process.argv.slice(2));
if (args.corpus === null && !args.smoke) args.corpus = siblingCorpus();
if (args.corpus !== null && !existsSync(join(args.corpus, 'robots'))) throw new Error(`bench: --corpus ${args.corpus} has no robots/ folder`);
const otherEntry = join(resolve(args.against), 'dist', 'index.js');
if (!existsSync(otherEntry)) throw new Error(`bench: --against ${args.against} is not a built checkout (no dist/index.js: run npm run build there)`);
const other = (await import(pathToFileURL(otherEntry).href)).Robots;

const files = loadFiles(args);
if (files === null) {
  console.log('compare: skipped, no corpus (expected ../shared/corpus next to the repository, or --corpus DIR; --smoke uses stand-ins)');
  process.exit(0);
}
const generated = args.smoke ? 200 : 20_000;
console.log(`# compare: this build ÷ ${relative(process.cwd(), resolve(args.against)) || '.'}, raw matchLines time (the lesser of CPU and wall time), ${args.rounds} alternating rounds per (file, agent)`);
console.log(`machine: ${machine()}`);
console.log(`workloads: ${args.corpus === null ? 'smoke stand-ins' : relative(process.cwd(), args.corpus) || '.'}, ${files.length} files × {${AGENTS.join(', ')}}, real URLs + ${generated} from each file's rules`);

const ratios = new Map(MATCHERS.map((m) => [m, []]));
const controls = new Map(MATCHERS.map((m) => [m, []]));
const started = performance.now();
for (const [k, f] of files.entries()) {
  const ours = Robots.parse(f.body);
  const theirs = other.parse(f.body);
  let lines = null;
  for (const agent of AGENTS) {
    const mine = ours.forAgent(agent);
    const kind = matcherOf(mine.table);
    if (args.only !== null && !args.only.some((prefix) => kind.startsWith(prefix))) continue;
    lines ??= toLines(sweepUrls(f, k, generated));
    const out = new Uint8Array(lines.length);
    const theirMatcher = theirs.forAgent(agent);
    const a = Buffer.from(mine.matchLines(lines));
    if (!a.equals(Buffer.from(theirMatcher.matchLines(lines)))) throw new Error(`bench: the two builds' verdicts differ on ${f.name} for ${agent}`);
    ratios.get(kind).push(pairedRatio(() => mine.matchLines(lines, out), () => theirMatcher.matchLines(lines, out), args.rounds).ratio);
    if (args.control) {
      // A second matcher of this build, with its own copy of the table in the engine.
      const twin = Robots.parse(f.body).forAgent(agent);
      controls.get(kind).push(pairedRatio(() => mine.matchLines(lines, out), () => twin.matchLines(lines, out), args.rounds).ratio);
    }
  }
}

const head = ['matcher', 'tables', 'geomean', 'p10', 'p50', 'p90', ...(args.control ? ['A/A geomean'] : [])];
const rows = [];
for (const kind of MATCHERS) {
  const own = ratios.get(kind);
  if (own.length === 0) continue;
  rows.push([kind, String(own.length), ...summary(own), ...(args.control ? [summary(controls.get(kind))[0]] : [])]);
}
const every = [...ratios.values()].flat();
if (every.length === 0) {
  console.log('compare: no table of the kinds asked for (--only)');
  process.exit(0);
}
rows.push(['all', String(every.length), ...summary(every), ...(args.control ? [summary([...controls.values()].flat())[0]] : [])]);
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const fmt = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
console.log(`ratio: time of this build ÷ the other's (below 1: this build is faster); ${((performance.now() - started) / 1000).toFixed(0)} s`);
console.log(fmt(head));
for (const r of rows) console.log(fmt(r));
