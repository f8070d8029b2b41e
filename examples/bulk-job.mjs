// Example: classify a large file of URLs (one per line) in chunks with AgentMatcher.matchLines.
//
//   node examples/bulk-job.mjs [URL_COUNT] [--verify]
//
// Generates URL_COUNT (default 200 000) URLs into a temporary file, then streams it in
// 1 MiB chunks: each chunk is cut at its last line break and judged in one Wasm call,
// with no JS string per URL. --verify re-judges every URL with robots.isAllowed and
// fails on any disagreement.
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Robots } from '../dist/index.js';

const count = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 200_000);
const verify = process.argv.includes('--verify');

const robots = Robots.parse(
  [
    'User-agent: *',
    'Disallow: /cart/',
    'Disallow: /*?sort=',
    'Disallow: /search',
    'Allow: /search/help',
    'Disallow: /*.pdf$',
  ].join('\n'),
);
const matcher = robots.forAgent('ExampleBot');

/** Deterministic URL list (a small LCG, so every run writes the same file). */
function generateUrls(n) {
  const sections = ['products', 'cart', 'search', 'search/help', 'docs', 'blog'];
  const tails = ['', '?sort=price', '?page=2', '.pdf', '.pdf?download=1', '/index.html'];
  const urls = new Array(n);
  let seed = 9309;
  for (let i = 0; i < n; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    urls[i] = `https://shop.example/${sections[seed % sections.length]}/${i}${tails[(seed >>> 8) % tails.length]}`;
  }
  return urls;
}

/** Streams `file` through matchLines; returns [allowed, disallowed] counts and every verdict. */
async function classifyFile(file) {
  const verdicts = [];
  let carry = new Uint8Array(0);
  const judge = (bytes) => {
    if (bytes.length === 0) return;
    for (const v of matcher.matchLines(bytes)) verdicts.push(v);
  };
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) {
    const data = new Uint8Array(carry.length + chunk.length);
    data.set(carry);
    data.set(chunk, carry.length);
    // Judge complete lines only; the partial last line waits for the next chunk.
    const cut = data.lastIndexOf(0x0a) + 1;
    judge(data.subarray(0, cut));
    carry = data.slice(cut);
  }
  judge(carry);
  const allowed = verdicts.reduce((n, v) => n + v, 0);
  return { allowed, disallowed: verdicts.length - allowed, verdicts };
}

const dir = mkdtempSync(join(tmpdir(), 'robotstxt-bulk-'));
try {
  const urls = generateUrls(count);
  const file = join(dir, 'urls.txt');
  writeFileSync(file, urls.join('\n') + '\n');
  const started = performance.now();
  const { allowed, disallowed, verdicts } = await classifyFile(file);
  const seconds = (performance.now() - started) / 1000;
  console.log(`urls ${verdicts.length} allowed ${allowed} disallowed ${disallowed}`);
  console.log(`throughput ${Math.round(verdicts.length / seconds)} URLs/s (file read included)`);
  if (verify) {
    const wrong = urls.findIndex((u, i) => robots.isAllowed(u, 'ExampleBot') !== (verdicts[i] === 1));
    if (verdicts.length !== urls.length || wrong >= 0) {
      console.error(`verify: FAILED at ${wrong} (${urls[wrong]})`);
      process.exitCode = 1;
    } else {
      console.log('verify: every verdict equals robots.isAllowed');
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
