// Scenario: a crawler's pattern, one parser per site and one isAllowed call per URL, for robots-parser, compat (ESM and require()) and the native API, warm and in a fresh process.
//
// Warm: parsers built once, then every URL of every site judged in site order (what
// Crawlee's RobotsTxtFile does: `robotsParser(url, body)` per site, `isAllowed(url, ua)`
// per URL). Cold: one child process per engine, timed from loading the module through
// its first pass over every site (module load, Wasm instantiation, JIT warm-up and each
// site's matcher compile), the median of a few children.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const AGENT = 'Googlebot';
const HERE = fileURLToPath(import.meta.url);
const ROOT = join(HERE, '..', '..');

/** How each engine is loaded and used: `load` returns `make(robotsUrl, body)` → an object with `check(url)`. */
const ENGINES = {
  'robots-parser': async () => {
    const { default: robotsParser } = await import('robots-parser');
    return (robotsUrl, body) => {
      const p = robotsParser(robotsUrl, body);
      return (url) => p.isAllowed(url, AGENT);
    };
  },
  'compat (ESM import)': async () => {
    const { default: robotsParser } = await import('../dist/compat.js');
    return (robotsUrl, body) => {
      const p = robotsParser(robotsUrl, body);
      return (url) => p.isAllowed(url, AGENT);
    };
  },
  'compat (CommonJS require)': async () => {
    const { createRequire } = await import('node:module');
    const robotsParser = createRequire(import.meta.url)('../dist/compat.js');
    return (robotsUrl, body) => {
      const p = robotsParser(robotsUrl, body);
      return (url) => p.isAllowed(url, AGENT);
    };
  },
  'native Robots#isAllowed': async () => {
    const { Robots } = await import('../dist/index.js');
    return (_robotsUrl, body) => {
      const r = Robots.parse(body);
      return (url) => r.isAllowed(url, AGENT);
    };
  },
};

/** The sites of the run: corpus sites when `--corpus` is given, else generated ones (bench/corpus.mjs decides). */
async function sitesFor(args) {
  const { loadSites } = await import('./corpus.mjs');
  const { sites } = loadSites(args);
  const label = args.corpus
    ? `${sites.length} real sites from ${relative(process.cwd(), args.corpus) || '.'}`
    : `${sites.length} generated sites (no --corpus)`;
  return { label, sites: sites.map((s) => ({ robotsUrl: `${new URL(s.urls[0]).origin}/robots.txt`, body: s.body, urls: s.urls })) };
}

/** One fresh process's first pass (child side): prints `{ ms, urls }` as JSON. */
async function coldChild(engine, sitesFile) {
  const sites = JSON.parse(readFileSync(sitesFile, 'utf8'));
  const start = performance.now();
  const make = await ENGINES[engine]();
  let allowed = 0;
  for (const s of sites) {
    const check = make(s.robotsUrl, s.body);
    for (const u of s.urls) if (check(u)) allowed++;
  }
  const ms = performance.now() - start;
  console.log(JSON.stringify({ ms, allowed }));
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
}

function times(r) {
  return r >= 10 ? `${r.toFixed(1)}×` : `${r.toFixed(2)}×`;
}

export async function run(args) {
  const { measure, printTable } = await import('./lib.mjs');
  const { label, sites } = await sitesFor(args);
  const urlCount = sites.reduce((n, s) => n + s.urls.length, 0);
  const bytes = sites.reduce((n, s) => n + s.urls.reduce((m, u) => m + Buffer.byteLength(u), 0), 0);

  const engines = {};
  for (const [name, load] of Object.entries(ENGINES)) engines[name] = await load();
  const checks = Object.fromEntries(Object.entries(engines).map(([name, make]) => [name, sites.map((s) => make(s.robotsUrl, s.body))]));

  // Answers: compat against robots-parser (differences are the documented rows of
  // docs/COMPAT.md), native against compat (same core; compat's origin check aside).
  let differ = 0;
  let nativeDiffer = 0;
  sites.forEach((s, i) => s.urls.forEach((u) => {
    const theirs = checks['robots-parser'][i](u);
    const compat = checks['compat (ESM import)'][i](u);
    if (theirs !== compat) differ++;
    if (compat !== undefined && compat !== checks['native Robots#isAllowed'][i](u)) nativeDiffer++;
  }));

  const perUrl = Object.keys(ENGINES).map((name) => ({
    engine: name,
    urls: urlCount,
    bytes,
    peer: name === 'robots-parser' || name.startsWith('native'),
    note: name === 'robots-parser' ? '' : name.startsWith('native') ? `differs from compat on ${nativeDiffer} URLs` : `differs from robots-parser on ${differ} of ${urlCount}`,
    fn: () => {
      const list = checks[name];
      for (let i = 0; i < sites.length; i++) {
        const check = list[i];
        for (const u of sites[i].urls) check(u);
      }
    },
  }));
  const perSite = Object.keys(ENGINES).map((name) => ({
    engine: name,
    urls: sites.length,
    bytes: sites.reduce((n, s) => n + Buffer.byteLength(s.body), 0),
    peer: name === 'robots-parser',
    // A new parser per site and its first check (which compiles the site's matcher).
    fn: () => { for (const s of sites) engines[name](s.robotsUrl, s.body)(s.urls[0]); },
  }));
  const urlRows = await measure(perUrl, args);
  const siteRows = await measure(perSite, args);
  printTable(`crawler: ${label}, ${urlCount} URLs, agent ${AGENT}, one isAllowed per URL, warm`, urlRows);
  printTable(`crawler: ${label}, parse + first check per site, warm`, siteRows, { unit: 'sites' });

  // Cold: each engine's first pass in a fresh process, alternating engines between rounds.
  const work = mkdtempSync(join(tmpdir(), 'robotstxt-bench-crawler-'));
  const cold = Object.fromEntries(Object.keys(ENGINES).map((name) => [name, []]));
  try {
    const sitesFile = join(work, 'sites.json');
    writeFileSync(sitesFile, JSON.stringify(sites));
    const rounds = args.smoke ? 1 : 3;
    for (let round = 0; round < rounds; round++) {
      for (const name of Object.keys(ENGINES)) {
        const child = spawnSync(process.execPath, [HERE, '--cold', name, sitesFile], { cwd: ROOT, encoding: 'utf8' });
        if (child.status !== 0) throw new Error(`bench crawler: cold child for ${name} exited with ${child.status}: ${child.stderr}`);
        cold[name].push(JSON.parse(child.stdout).ms);
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const coldBase = median(cold['robots-parser']);
  console.log(`\n## crawler: ${label}, cold (a fresh process: load the module, then parse every site and check every URL once; median of ${cold['robots-parser'].length})`);
  console.log('engine                       first pass   vs robots-parser (time)');
  for (const [name, ms] of Object.entries(cold)) {
    console.log(`${name.padEnd(28)} ${`${median(ms).toFixed(0)} ms`.padStart(10)}   ${times(median(ms) / coldBase).padStart(8)}`);
  }

  // Per CPU-second too: on a shared machine wall time also counts the time others held the cores.
  const rate = (name, cpu = false) => { const r = urlRows.find((x) => x.engine === name); return r.urls / (cpu ? r.cpuSeconds : r.seconds); };
  const parser = rate('robots-parser');
  const compat = Math.min(rate('compat (ESM import)'), rate('compat (CommonJS require)'));
  const native = rate('native Robots#isAllowed');
  const compatCpu = Math.min(rate('compat (ESM import)', true), rate('compat (CommonJS require)', true));
  const nativeCpu = rate('native Robots#isAllowed', true);
  const coldCompat = Math.max(median(cold['compat (ESM import)']), median(cold['compat (CommonJS require)']));
  console.log('\ngoals (issue 20, ratios from this run):');
  console.log(`  compat per URL vs robots-parser, warm: ${times(compat / parser)}, per CPU-s ${times(compatCpu / rate('robots-parser', true))} (goal ≥ 5×)`);
  console.log(`  native isAllowed per URL vs compat, warm: ${times(native / compat)}, per CPU-s ${times(nativeCpu / compatCpu)} (goal ≤ 1.5×)`);
  console.log(`  native isAllowed, warm: ${(native / 1e6).toFixed(2)} M/s, ${(nativeCpu / 1e6).toFixed(2)} M/CPU-s (goal ≥ 2 M/s)`);
  console.log(`  cold first pass, slower compat form vs robots-parser: ${times(coldCompat / coldBase)} of its time; native ${times(median(cold['native Robots#isAllowed']) / coldBase)} (goal ≤ 1×)`);
  return urlRows;
}

// `node bench/crawler.mjs --cold ENGINE SITES.json`: one cold first pass (spawned by run()).
if (process.argv[1] === HERE && process.argv[2] === '--cold') {
  await coldChild(process.argv[3], process.argv[4]);
}
