// Bench entry point: `node bench/run.mjs [--smoke] [--corpus DIR] [--only NAME,…]` (build first: npm run bench).
import { existsSync } from 'node:fs';
import { machine, parseArgs } from './lib.mjs';
import * as singleHost from './single-host.mjs';
import * as corpus from './corpus.mjs';
import * as multiHost from './multi-host.mjs';
import * as compile from './compile.mjs';
import * as adversarial from './adversarial.mjs';

const SCENARIOS = { 'single-host': singleHost, corpus, 'multi-host': multiHost, compile, adversarial };

const args = parseArgs(process.argv.slice(2));
// The real corpus sits next to the repository on the project machines; tests never need it.
if (args.corpus === null && !args.smoke) {
  const sibling = new URL('../../shared/corpus/', import.meta.url);
  if (existsSync(sibling)) args.corpus = sibling.pathname;
}
if (args.corpus !== null && !existsSync(args.corpus)) throw new Error(`bench: --corpus ${args.corpus} does not exist`);

console.log(`# robotstxt-wasm bench${args.smoke ? ' (smoke: tiny inputs, numbers mean nothing)' : ''}`);
console.log(`command: node bench/run.mjs ${process.argv.slice(2).join(' ')}`.trimEnd());
console.log(`machine: ${machine()}`);
console.log(`corpus: ${args.corpus ?? 'synthetic (no --corpus)'}`);

for (const [name, scenario] of Object.entries(SCENARIOS)) {
  if (args.only && !args.only.includes(name)) continue;
  await scenario.run(args);
}
