// Scenario: many hosts' robots.txt, URLs interleaved at random, so every URL may switch tables.
import robotsParser from 'robots-parser';
import { Robots } from '../dist/index.js';
import { ClassifyProcessor } from '../dist/cli/jobs.js';
import { NaiveMatcher } from './naive.mjs';
import { byteLength, rng, toLines } from './fixtures.mjs';
import { loadSites } from './corpus.mjs';
import { measure, printTable } from './lib.mjs';

const AGENT = 'Googlebot';

export async function run(args) {
  const { smoke } = args;
  const { label, sites } = loadSites(args);
  const count = smoke ? 2_000 : 1_000_000;
  const r = rng(5);
  const pool = sites.flatMap((s) => s.urls.map((u) => [s, u]));
  // Random order: consecutive URLs almost never share a host (the worst case for switching).
  const picks = Array.from({ length: count }, () => pool[Math.floor(r() * pool.length)]);
  const urls = picks.map((p) => p[1]);
  const bytes = byteLength(urls);
  for (const s of sites) {
    s.matcher = Robots.parse(s.body).forAgent(AGENT);
    s.naive = new NaiveMatcher(s.body, AGENT);
    s.parser = robotsParser(`${new URL(s.urls[0]).origin}/robots.txt`, s.body);
  }
  const bodies = new Map(sites.map((s) => [new URL(s.urls[0]).host.toLowerCase(), new TextEncoder().encode(s.body)]));
  const classify = new ClassifyProcessor(
    { kind: 'classify', robotsDir: '', agent: AGENT, profile: 'rfc', missing: 'allow', cacheHosts: 100_000, format: 'tsv', only: null },
    { load: (host) => bodies.get(host) ?? null },
  );
  const stream = toLines(urls);
  await classify.process(stream.subarray(0, Math.min(stream.length, 1 << 20))); // warm the host cache

  const perUrl = picks.slice(0, smoke ? 500 : 200_000);
  const naivePicks = picks.slice(0, smoke ? 500 : 100_000);
  const parserPicks = picks.slice(0, smoke ? 200 : 20_000);
  const rows = await measure(
    [
      { engine: 'wasm classify rows (raw bytes)', urls: count, bytes, fn: () => classify.process(stream) },
      {
        engine: 'wasm isAllowed, table per URL', urls: perUrl.length, bytes: byteLength(perUrl.map((p) => p[1])),
        fn: () => { for (const [s, u] of perUrl) s.matcher.isAllowed(u); },
      },
      {
        engine: 'naive per-rule', urls: naivePicks.length, bytes: byteLength(naivePicks.map((p) => p[1])), peer: true,
        fn: () => { for (const [s, u] of naivePicks) s.naive.isAllowed(u); },
      },
      {
        engine: 'robots-parser', urls: parserPicks.length, bytes: byteLength(parserPicks.map((p) => p[1])), peer: true,
        fn: () => { for (const [s, u] of parserPicks) s.parser.isAllowed(u, AGENT); },
      },
    ],
    { smoke },
  );
  printTable(`multi-host: ${label}, ${count} URLs in random host order`, rows);
  return rows;
}
