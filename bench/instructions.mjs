// Instructions per pass of parse + compile over the corpus, counted by callgrind: a measure that a shared machine's timing noise does not move.
//
// `node bench/instructions.mjs [--corpus DIR] [--passes A,B] [--root DIR]` (build first).
// Each count is a fresh process under `valgrind --tool=callgrind` doing A or B passes over
// every robots.txt (`Robots.parse(body).forAgent('Googlebot')`, and `Robots.parse` alone);
// (count(B) − count(A)) / (B − A) is one pass's instructions, start-up, loading and the
// first passes' JIT work cancelling out. The child runs with V8's `--predictable` (one
// thread, GC and JIT at fixed points): without it the same build's count moved ±4% from
// run to run, with it two runs agree to 0.01%. Instructions are not time: a change that trades
// instructions for cache misses shows here as a gain it may not be. Use it beside the
// `compile` scenario's timings, for JS-side changes whose effect is under the timing noise
// (two builds: `--root` points at another checkout's built tree).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { corpusRobots, machine, siblingCorpus } from './lib.mjs';

const AGENT = 'Googlebot';
const here = fileURLToPath(import.meta.url);

function parseArgs(argv) {
  const args = { corpus: null, passes: [2, 5], root: resolve(here, '..', '..'), child: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--corpus') args.corpus = argv[++i] ?? null;
    else if (a === '--root') args.root = resolve(argv[++i] ?? '.');
    else if (a === '--passes') args.passes = (argv[++i] ?? '').split(',').map(Number);
    else if (a === '--child') args.child = { passes: Number(argv[++i]), mode: argv[++i] };
    else throw new Error(`bench: unknown argument ${a} (expected --corpus DIR, --passes A,B, --root DIR)`);
  }
  const [a, b] = args.passes;
  if (args.passes.length !== 2 || !Number.isInteger(a) || !Number.isInteger(b) || a < 1 || b <= a) {
    throw new Error('bench: --passes takes two whole numbers A,B with 1 ≤ A < B');
  }
  return args;
}

const args = parseArgs(process.argv.slice(2));
if (args.corpus === null) args.corpus = siblingCorpus();

if (args.child !== null) {
  // The counted process: the passes and nothing else.
  const { Robots } = await import(pathToFileURL(join(args.root, 'dist', 'index.js')).href);
  const bodies = corpusRobots(args.corpus);
  for (let p = 0; p < args.child.passes; p++) {
    if (args.child.mode === 'parse') for (const b of bodies) Robots.parse(b);
    else for (const b of bodies) Robots.parse(b).forAgent(AGENT);
  }
} else {
  if (args.corpus === null || !existsSync(join(args.corpus, 'robots'))) {
    console.log('instructions: skipped, no corpus (pass --corpus DIR with DIR/robots/*.txt)');
    process.exit(0);
  }
  const probe = spawnSync('valgrind', ['--version'], { encoding: 'utf8' });
  if (probe.status !== 0) {
    console.log('instructions: skipped, valgrind is not installed (Debian: apt-get install valgrind)');
    process.exit(0);
  }
  const bodies = corpusRobots(args.corpus);
  const megabytes = bodies.reduce((n, b) => n + b.length, 0) / 1e6;
  /** Instructions callgrind counted in a child doing `passes` passes of `mode`. */
  const count = (passes, mode) => {
    const run = spawnSync(
      'valgrind',
      ['--tool=callgrind', '--callgrind-out-file=/dev/null', process.execPath, '--predictable', here, '--child', String(passes), mode, '--corpus', args.corpus, '--root', args.root],
      { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
    );
    const m = /Collected : (\d+)/.exec(run.stderr);
    if (run.status !== 0 || m === null) throw new Error(`bench: callgrind run failed (status ${run.status}):\n${run.stderr.slice(-2000)}`);
    return Number(m[1]);
  };
  const [a, b] = args.passes;
  console.log(`# instructions per pass (callgrind, ${probe.stdout.trim()})`);
  console.log(`command: node bench/instructions.mjs --passes ${a},${b}${args.root === resolve(here, '..', '..') ? '' : ' --root DIR'}`);
  console.log(`machine: ${machine()}`);
  console.log(`corpus: ${bodies.length} robots.txt files, ${megabytes.toFixed(2)} MB; agent ${AGENT}`);
  console.log('what                         passes  instructions per pass  per byte');
  for (const [mode, label] of [['compile', 'parse + compile (forAgent)'], ['parse', 'parse only']]) {
    const perPass = (count(b, mode) - count(a, mode)) / (b - a);
    const passes = `${a}→${b}`.padStart(6);
    // On a tiny corpus a pass can cost less than the counts move with where V8 tiers up.
    if (perPass <= 0) console.log(`${label.padEnd(28)} ${passes}  below the counts' noise: use more passes or a larger corpus`);
    else console.log(`${label.padEnd(28)} ${passes}  ${(perPass / 1e6).toFixed(1).padStart(19)} M  ${(perPass / (megabytes * 1e6)).toFixed(1).padStart(8)}`);
  }
}
