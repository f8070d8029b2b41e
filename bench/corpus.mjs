// Scenario: real sites (robots/<site>.txt with urls/<site>.txt from --corpus), or synthetic ones without it.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import robotsParser from 'robots-parser';
import { Robots } from '../dist/index.js';
import { ClassifyProcessor } from '../dist/cli/jobs.js';
import { NaiveMatcher } from './naive.mjs';
import { balancedUrls, byteLength, rng, syntheticRobots, toLines } from './fixtures.mjs';
import { agreement, measure, printTable } from './lib.mjs';

const AGENT = 'Googlebot';

/** Sites with a robots.txt body, an origin and URLs: from the corpus, or made up. */
export function loadSites({ corpus, smoke }) {
  if (corpus) {
    const sites = [];
    const urlDir = join(corpus, 'urls');
    for (const file of readdirSync(urlDir).sort()) {
      const robotsPath = join(corpus, 'robots', file);
      if (!existsSync(robotsPath)) continue;
      const urls = readFileSync(join(urlDir, file), 'utf8').split('\n').filter((u) => u.length > 0);
      if (urls.length === 0) continue;
      sites.push({ host: file.replace(/\.txt$/, ''), body: readFileSync(robotsPath, 'utf8'), urls: smoke ? urls.slice(0, 5) : urls });
      if (smoke && sites.length >= 20) break;
    }
    return { label: `${sites.length} real sites from ${relative(process.cwd(), corpus) || '.'}`, sites };
  }
  const r = rng(11);
  const sites = [];
  for (let i = 0; i < (smoke ? 10 : 500); i++) {
    const host = `site${i}.example`;
    const body = syntheticRobots(100 + i, 5 + Math.floor(r() * 150));
    const matcher = Robots.parse(body).forAgent(AGENT);
    const urls = balancedUrls(smoke ? 20 : 200, { origin: `https://${host}`, seed: i, body, judge: (b) => matcher.matchBatch(b) });
    sites.push({ host, body, urls });
  }
  return { label: `${sites.length} synthetic sites (no --corpus)`, sites };
}

export async function run(args) {
  const { label, sites } = loadSites(args);
  const { smoke } = args;
  for (const s of sites) {
    s.matcher = Robots.parse(s.body).forAgent(AGENT);
    s.lines = toLines(s.urls);
    s.naive = new NaiveMatcher(s.body, AGENT);
    s.parser = robotsParser(`${new URL(s.urls[0]).origin}/robots.txt`, s.body);
  }
  const allUrls = sites.flatMap((s) => s.urls);
  const bytes = byteLength(allUrls);
  const ours = sites.flatMap((s) => Array.from(s.matcher.matchBatch(s.urls)));
  const few = smoke ? 2 : 20; // robots-parser gets this many URLs per site
  const parserSample = sites.flatMap((s) => s.urls.slice(0, few).map((u, i) => [s, u, i]));
  const oursSample = sites.flatMap((s) => Array.from(s.matcher.matchBatch(s.urls.slice(0, few))));
  const naiveVerdicts = sites.flatMap((s) => s.urls.map((u) => s.naive.isAllowed(u)));
  const parserVerdicts = parserSample.map(([s, u]) => s.parser.isAllowed(u, AGENT));

  // The classify path of the CLI: one mixed byte stream, the host of each line looked up.
  const bodies = new Map(sites.map((s) => [s.host, new TextEncoder().encode(s.body)]));
  const classify = new ClassifyProcessor(
    { kind: 'classify', robotsDir: '', agent: AGENT, profile: 'rfc', missing: 'allow', cacheHosts: 100_000, format: 'tsv', only: null },
    { load: (host) => bodies.get(host) ?? bodies.get(host.replace(/^www\./, '')) ?? null },
  );
  const stream = toLines(allUrls);
  await classify.process(stream); // compile every host once, outside the timing

  const rows = await measure(
    [
      { engine: 'wasm matchLines per site', urls: allUrls.length, bytes, fn: () => { for (const s of sites) s.matcher.matchLines(s.lines); } },
      { engine: 'wasm matchBatch per site', urls: allUrls.length, bytes, fn: () => { for (const s of sites) s.matcher.matchBatch(s.urls); } },
      { engine: 'wasm classify rows (mixed stream)', urls: allUrls.length, bytes, fn: () => classify.process(stream) },
      {
        engine: 'naive per-rule', urls: allUrls.length, bytes, peer: true, note: agreement(ours, naiveVerdicts),
        fn: () => { for (const s of sites) for (const u of s.urls) s.naive.isAllowed(u); },
      },
      {
        engine: 'robots-parser', urls: parserSample.length, bytes: byteLength(parserSample.map((x) => x[1])), peer: true,
        note: agreement(oursSample, parserVerdicts),
        fn: () => { for (const [s, u] of parserSample) s.parser.isAllowed(u, AGENT); },
      },
    ],
    { smoke },
  );
  printTable(`corpus: ${label}, ${allUrls.length} URLs, agent ${AGENT}, tables precompiled`, rows);
  return rows;
}
