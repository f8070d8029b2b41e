// Bench entry point: `node bench/run.mjs [--smoke] [--corpus DIR] [--only NAME,…]` (build first: npm run bench).
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { isAbsolute, relative } from 'node:path';
import { machine, parseArgs, siblingCorpus } from './lib.mjs';
import * as singleHost from './single-host.mjs';
import * as corpus from './corpus.mjs';
import * as multiHost from './multi-host.mjs';
import * as compile from './compile.mjs';
import * as adversarial from './adversarial.mjs';
import * as retail from './retail.mjs';
import * as sweep from './sweep.mjs';
import * as crawler from './crawler.mjs';
import * as agents from './agents.mjs';

const SCENARIOS = { 'single-host': singleHost, corpus, 'multi-host': multiHost, compile, adversarial, retail, sweep, crawler, agents };

const args = parseArgs(process.argv.slice(2));
if (args.corpus === null && !args.smoke) args.corpus = siblingCorpus();
if (args.corpus !== null && !existsSync(args.corpus)) throw new Error(`bench: --corpus ${args.corpus} does not exist`);

// A scenario run in its own process by the loop below prints only its table.
if (process.env.BENCH_SCENARIO_ONLY !== '1') {
  console.log(`# robotstxt-wasm bench${args.smoke ? ' (smoke: tiny inputs, numbers mean nothing)' : ''}`);
  // Paths relative to the working directory: a table carries no machine's layout.
  const shown = process.argv.slice(2).map((a) => (isAbsolute(a) ? relative(process.cwd(), a) : a));
  console.log(`command: node bench/run.mjs ${shown.join(' ')}`.trimEnd());
  console.log(`machine: ${machine()}`);
  // Relative, so that pasted output names no machine path.
  console.log(`corpus: ${args.corpus === null ? 'synthetic (no --corpus)' : relative(process.cwd(), args.corpus) || '.'}`);
}

const selected = Object.keys(SCENARIOS).filter((name) => !args.only || args.only.includes(name));
if (selected.length === 1) {
  for (const name of selected) await SCENARIOS[name].run(args);
} else {
  // One process per scenario: each starts from a fresh heap, so one scenario's garbage
  // (a million URL strings, a thousand matchers) does not slow the next one's GC.
  for (const name of selected) {
    const argv = [fileURLToPath(import.meta.url), '--only', name, ...(args.smoke ? ['--smoke'] : []), ...(args.corpus ? ['--corpus', args.corpus] : [])];
    const { status } = spawnSync(process.execPath, [...process.execArgv, ...argv], { stdio: 'inherit', env: { ...process.env, BENCH_SCENARIO_ONLY: '1' } });
    if (status !== 0) throw new Error(`bench: scenario ${name} exited with status ${status}`);
  }
}
