// Scenario: one realistic ~100-rule robots.txt, 1M URLs of ~60 bytes (half allowed), every API path vs the peers.
import robotsParser from 'robots-parser';
import { Robots } from '../dist/index.js';
import { getEngine } from '../dist/wasm/index.js';
import { MatchPool } from '../dist/pool/index.js';
import { NaiveMatcher } from './naive.mjs';
import { balancedUrls, byteLength, syntheticRobots, toLines } from './fixtures.mjs';
import { agreement, measure, printTable } from './lib.mjs';

const AGENT = 'ExampleBot';

export async function run({ smoke }) {
  const count = smoke ? 2_000 : 1_000_000;
  const body = syntheticRobots(1, 100);
  const matcher = Robots.parse(body).forAgent(AGENT);
  const urls = balancedUrls(count, { body, judge: (batch) => matcher.matchBatch(batch) });
  const lines = toLines(urls);
  const bytes = byteLength(urls);
  const ours = matcher.matchBatch(urls);

  // Per-URL APIs and the peers get a prefix of the same URLs (their rates are per URL).
  const single = urls.slice(0, smoke ? 500 : 200_000);
  const naiveUrls = urls.slice(0, smoke ? 500 : 100_000);
  const parserUrls = urls.slice(0, smoke ? 200 : 20_000);
  const naive = new NaiveMatcher(body, AGENT);
  const parser = robotsParser('https://www.example.com/robots.txt', body);
  const naiveVerdicts = naiveUrls.map((u) => naive.isAllowed(u));
  const parserVerdicts = parserUrls.map((u) => parser.isAllowed(u, AGENT));

  const out = new Uint8Array(count);
  // The floor of the raw path: the same bytes against a table with no rules.
  const empty = Robots.parse('User-agent: *\n').forAgent(AGENT);
  // Smoke inputs are under the pool's threshold: let them be split anyway, so CI runs workers.
  const pool = new MatchPool({ threads: 2, ...(smoke && { minParallelBytes: 0 }) });
  const pooled = await pool.matchLines(matcher, lines);
  if (!Buffer.from(pooled).equals(Buffer.from(matcher.matchLines(lines)))) throw new Error('bench: MatchPool verdicts differ from matchLines');
  if (!Buffer.from(await pool.matchBatch(matcher, urls)).equals(Buffer.from(ours))) throw new Error('bench: MatchPool.matchBatch verdicts differ from matchBatch');
  const rows = await measure(
    [
      { engine: 'wasm matchLines (raw bytes)', urls: count, bytes: lines.length, fn: () => matcher.matchLines(lines, out) },
      {
        engine: 'wasm MatchPool.matchLines (2 threads)', urls: count, bytes: lines.length,
        fn: async () => { await pool.matchLines(matcher, lines, out); },
      },
      { engine: 'wasm matchLines, no rules (floor)', urls: count, bytes: lines.length, fn: () => empty.matchLines(lines, out) },
      { engine: 'wasm decideLines (+line)', urls: count, bytes: lines.length, fn: () => matcher.decideLines(lines) },
      { engine: 'wasm check rows (bytes → TSV)', urls: count, bytes: lines.length, fn: () => getEngine().formatLineRows(matcher.table, lines, true, 0) },
      { engine: 'wasm matchBatch (strings)', urls: count, bytes, fn: () => matcher.matchBatch(urls, out) },
      {
        engine: 'wasm MatchPool.matchBatch (strings, 2 threads)', urls: count, bytes,
        fn: async () => { await pool.matchBatch(matcher, urls, out); },
      },
      { engine: 'wasm decideBatch (+line)', urls: count, bytes, fn: () => matcher.decideBatch(urls) },
      {
        engine: 'wasm isAllowed (per URL)', urls: single.length, bytes: byteLength(single),
        fn: () => { for (const u of single) matcher.isAllowed(u); },
      },
      {
        engine: 'naive per-rule', urls: naiveUrls.length, bytes: byteLength(naiveUrls), peer: true,
        note: agreement(ours, naiveVerdicts),
        fn: () => { for (const u of naiveUrls) naive.isAllowed(u); },
      },
      {
        engine: 'robots-parser', urls: parserUrls.length, bytes: byteLength(parserUrls), peer: true,
        note: agreement(ours, parserVerdicts),
        fn: () => { for (const u of parserUrls) parser.isAllowed(u, AGENT); },
      },
    ],
    { smoke },
  ).finally(() => pool.close());
  const allowed = ours.reduce((a, b) => a + b, 0);
  printTable(
    `single-host: ${matcher.ruleCount}-rule robots.txt, ${count} URLs (avg ${(bytes / count).toFixed(1)} B, ${((100 * allowed) / count).toFixed(0)}% allowed)`,
    rows,
  );
  return rows;
}
