// Scenario: many hosts' robots.txt, URLs interleaved at random, so every URL may switch tables.
import robotsParser from 'robots-parser';
import { Robots } from '../dist/index.js';
import { ClassifyProcessor } from '../dist/cli/jobs.js';
import { NaiveMatcher } from './naive.mjs';
import { byteLength, rng, toLines } from './fixtures.mjs';
import { loadSites } from './corpus.mjs';
import { loadFiles, urlsFromRules } from './sweep.mjs';
import { retailRobots, retailUrls } from './retail-gen.mjs';
import { measure, printTable } from './lib.mjs';

const AGENT = 'Googlebot';

/** A classify job over `bodies` (host → robots.txt), as the CLI runs one. */
function classifier(bodies) {
  return new ClassifyProcessor(
    { kind: 'classify', robotsDir: '', agent: AGENT, profile: 'rfc', missing: 'allow', cacheHosts: 100_000, format: 'tsv', only: null },
    { load: (host) => bodies.get(host) ?? null },
  );
}

/**
 * Every corpus host (2,343), the sites without a URL list with 400 URLs made from their
 * own rules: a working set whose tables and indexes (295 MB in full) outgrow the arena,
 * which then places them lean (src/wasm/arena.ts).
 */
function everyHost(corpus, count) {
  const files = loadFiles({ corpus, smoke: false });
  const sites = files.map((f, k) => ({
    host: new URL(f.origin).host.toLowerCase(), origin: f.origin, body: f.body,
    urls: f.real.length > 0 ? f.real : urlsFromRules(new TextDecoder().decode(f.body), f.origin, 400, 7 + k),
  }));
  const r = rng(6);
  const pool = sites.flatMap((s) => s.urls.map((u) => [s, u]));
  const picks = Array.from({ length: count }, () => pool[Math.floor(r() * pool.length)]);
  return { sites, picks };
}

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
  const classify = classifier(bodies);
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
  // With the corpus, every host too: made after the rows above, whose tables its own would evict.
  if (!args.corpus) {
    console.log('multi-host, every corpus host: skipped (needs --corpus)');
    return rows;
  }
  const every = everyHost(args.corpus, count);
  const everyClassify = classifier(new Map(every.sites.map((s) => [s.host, s.body])));
  const everyStream = toLines(every.picks.map((p) => p[1]));
  await everyClassify.process(everyStream); // places every table once (lean, past the arena's maximum)
  const everyParser = every.picks.slice(0, 20_000);
  const parsers = new Map();
  for (const [s] of everyParser) if (!parsers.has(s)) parsers.set(s, robotsParser(`${s.origin}/robots.txt`, new TextDecoder().decode(s.body)));
  const everyRows = await measure(
    [
      { engine: 'wasm classify rows (raw bytes)', urls: count, bytes: everyStream.length, fn: () => everyClassify.process(everyStream) },
      {
        engine: 'robots-parser', urls: everyParser.length, bytes: byteLength(everyParser.map((p) => p[1])), peer: true,
        fn: () => { for (const [s, u] of everyParser) parsers.get(s).isAllowed(u, AGENT); },
      },
    ],
    { smoke },
  );
  printTable(`multi-host: every corpus host (${every.sites.length}; 400 URLs made from the rules of each without a list), ${count} URLs in random host order`, everyRows);

  // Then one busy host new to this engine: tables are placed lean by now, and the half of
  // the arena for placing them again in full is spent (src/wasm/arena.ts RENEW_PATHS).
  const busy = Robots.parse(retailRobots(3)).forAgent('ExampleBot');
  const busyUrls = retailUrls(smoke ? 2_000 : 300_000, 4);
  const busyLines = toLines(busyUrls);
  const busyParser = robotsParser('https://www.example-shop.co.uk/robots.txt', retailRobots(3));
  const busyPeer = busyUrls.slice(0, smoke ? 200 : 20_000);
  const busyRows = await measure(
    [
      { engine: 'wasm matchLines (raw bytes)', urls: busyUrls.length, bytes: busyLines.length, fn: () => busy.matchLines(busyLines) },
      {
        engine: 'robots-parser', urls: busyPeer.length, bytes: byteLength(busyPeer), peer: true,
        fn: () => { for (const u of busyPeer) busyParser.isAllowed(u, 'ExampleBot'); },
      },
    ],
    { smoke },
  );
  printTable(`multi-host: then one busy new host, the retail file's \`*\` group, ${busyUrls.length} URLs a call`, busyRows);
  return [...rows, ...everyRows, ...busyRows];
}
