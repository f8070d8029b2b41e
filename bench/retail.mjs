// Scenario: a large retail/news robots.txt (~135 rules, ~60 wildcards, facet and locale rules) against 1M URLs, every fast path vs robots-parser.
import robotsParser from 'robots-parser';
import { Robots } from '../dist/index.js';
import { MatchPool } from '../dist/pool/index.js';
import { retailRobots, retailUrls } from './retail-gen.mjs';
import { byteLength, toLines } from './fixtures.mjs';
import { agreement, measure, printTable, wildcardCount } from './lib.mjs';

const AGENT = 'ExampleBot';

export async function run({ smoke }) {
  const count = smoke ? 2_000 : 1_000_000;
  const body = retailRobots(1);
  const robots = Robots.parse(body);
  const matcher = robots.forAgent(AGENT);
  const wildcards = wildcardCount(robots.rulesFor(AGENT));
  const urls = retailUrls(count);
  const lines = toLines(urls);
  const bytes = byteLength(urls);
  const ours = matcher.matchBatch(urls);

  // Per-URL APIs and the peer get a prefix of the same URLs (rates are per URL).
  const single = urls.slice(0, smoke ? 500 : 200_000);
  const parserUrls = urls.slice(0, smoke ? 200 : 20_000);
  const parser = robotsParser('https://www.example-shop.co.uk/robots.txt', body);
  const parserVerdicts = parserUrls.map((u) => parser.isAllowed(u, AGENT));

  const out = new Uint8Array(count);
  const empty = Robots.parse('User-agent: *\n').forAgent(AGENT);
  // Smoke inputs are under the pool's threshold: let them be split anyway, so CI runs workers.
  const pool = new MatchPool({ threads: 2, ...(smoke && { minParallelBytes: 0 }) });
  if (!Buffer.from(await pool.matchLines(matcher, lines)).equals(Buffer.from(matcher.matchLines(lines)))) throw new Error('bench: MatchPool verdicts differ from matchLines');
  const rows = await measure(
    [
      { engine: 'retail matchLines (raw bytes)', urls: count, bytes: lines.length, fn: () => matcher.matchLines(lines, out) },
      {
        engine: 'retail MatchPool.matchLines (2 threads)', urls: count, bytes: lines.length,
        fn: async () => { await pool.matchLines(matcher, lines, out); },
      },
      { engine: 'retail matchBatch (strings)', urls: count, bytes, fn: () => matcher.matchBatch(urls, out) },
      {
        engine: 'retail isAllowed (per URL)', urls: single.length, bytes: byteLength(single),
        fn: () => { for (const u of single) matcher.isAllowed(u); },
      },
      { engine: 'floor: matchLines, no rules', urls: count, bytes: lines.length, peer: true, fn: () => empty.matchLines(lines, out) },
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
    `retail: ${matcher.ruleCount}-rule * group (${wildcards} with * or $, seeded), ${count} URLs (avg ${(bytes / count).toFixed(1)} B, ${((100 * (count - allowed)) / count).toFixed(1)}% disallowed), agent ${AGENT}`,
    rows,
  );
  return rows;
}
