// Memory per compiled agent: each corpus file × the sweep's agents, its table plus the RuleIndex the module derives from it (issue #18's bound: 1 MiB).
//
// `node bench/agent-memory.mjs [--corpus DIR] [--smoke]` (build first). An agent placed in
// the engine takes its table (`m.table`) and a RuleIndex beside it, whose size the module
// gives from the table's header (src/wasm/arena.ts `ruleIndexBytes`, as the arena sizes a
// slot; its alignment slack is left out). Prints the agents, the bytes in all, the largest five and
// how many exceed 1 MiB. Without a corpus it says so and exits 0; `--smoke` uses the
// sweep's generated stand-ins.
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Robots } from '../dist/index.js';
import { ruleIndexBytes } from '../dist/wasm/arena.js';
import { instantiate } from '../dist/wasm/instance.js';
import { machine, siblingCorpus } from './lib.mjs';
import { AGENTS, loadFiles } from './sweep.mjs';

const LIMIT = 1 << 20;

function parseArgs(argv) {
  const args = { corpus: null, smoke: false };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--corpus' && i + 1 < argv.length) args.corpus = argv[++i];
    else if (argv[i] === '--smoke') args.smoke = true;
    else throw new Error(`bench: unknown or incomplete argument ${argv[i]} (expected --corpus DIR, --smoke)`);
  }
  if (args.corpus === null && !args.smoke) args.corpus = siblingCorpus();
  return args;
}

const args = parseArgs(process.argv.slice(2));
if (args.corpus !== null && !existsSync(join(args.corpus, 'robots'))) throw new Error(`bench: --corpus ${args.corpus} has no robots/ folder`);
const files = loadFiles(args);
if (files === null) {
  console.log('agent-memory: skipped, no corpus (expected ../shared/corpus next to the repository, or --corpus DIR; --smoke uses stand-ins)');
  process.exit(0);
}
const exports = instantiate();
const agents = [];
for (const f of files) {
  const robots = Robots.parse(f.body);
  for (const agent of AGENTS) {
    const table = robots.forAgent(agent).table;
    const index = ruleIndexBytes(exports, table);
    agents.push({ file: f.name, agent, table: table.length, index, bytes: table.length + index });
  }
}
agents.sort((a, b) => b.bytes - a.bytes);
const total = agents.reduce((n, a) => n + a.bytes, 0);
console.log(`# agent memory: ${files.length} files (${args.corpus === null ? 'smoke stand-ins' : relative(process.cwd(), args.corpus) || '.'}) × {${AGENTS.join(', ')}}`);
console.log(`machine: ${machine()}`);
console.log(`agents ${agents.length}, table + RuleIndex bytes in all ${total}, over 1 MiB: ${agents.filter((a) => a.bytes > LIMIT).length}`);
console.log('largest five:');
for (const a of agents.slice(0, 5)) console.log(`${a.file}  ${a.agent}  ${a.bytes} bytes (table ${a.table}, RuleIndex ${a.index})`);
