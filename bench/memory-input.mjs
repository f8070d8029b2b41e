// The CLI memory runs' input (docs/PERFORMANCE.md, "CLI"): `node bench/memory-input.mjs [--corpus DIR] [--count N] > urls.txt`.
//
// N URLs (default 10,000,000) from the corpus's urls/<site>.txt, one site after another in
// turn (the k-th URL of every site, then the k+1-th, each site's list repeated as needed),
// so the host changes from one line to the next: the worst order for a host cache.
// Without a corpus nothing is written and the exit status is 2.
import { existsSync, readdirSync, readFileSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function parse(argv) {
  const args = { corpus: join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'shared', 'corpus'), count: 10_000_000 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--corpus' && i + 1 < argv.length) args.corpus = argv[++i];
    else if (a === '--count' && i + 1 < argv.length && /^\d+$/.test(argv[i + 1])) args.count = Number(argv[++i]);
    else throw new Error(`memory-input: unknown or incomplete argument ${a} (expected --corpus DIR, --count N)`);
  }
  return args;
}

let args;
try {
  args = parse(process.argv.slice(2));
} catch (error) {
  console.error(error.message);
  process.exit(2);
}
const urlDir = join(args.corpus, 'urls');
if (!existsSync(urlDir)) {
  console.error(`memory-input: no corpus at ${args.corpus} (expected ${urlDir}/<site>.txt); pass --corpus DIR`);
  process.exit(2);
}
const sites = readdirSync(urlDir).sort()
  .map((file) => readFileSync(join(urlDir, file), 'utf8').split('\n').filter((u) => u.length > 0))
  .filter((urls) => urls.length > 0);
if (sites.length === 0) {
  console.error(`memory-input: ${urlDir} holds no URLs`);
  process.exit(2);
}
const out = [];
let written = 0;
for (let k = 0; written < args.count; k++) {
  for (const urls of sites) {
    if (written === args.count) break;
    out.push(urls[k % urls.length]);
    written++;
  }
  if (out.length >= 100_000 || written === args.count) {
    writeSync(1, `${out.join('\n')}\n`);
    out.length = 0;
  }
}
console.error(`memory-input: ${written} URLs from ${sites.length} sites`);
