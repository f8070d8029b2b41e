// bench/run.mjs --smoke, bench/linear.mjs --smoke, bench/instructions.mjs and bench/agent-memory.mjs on a small corpus: the benchmarks still run end to end (numbers are not checked).
import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

describe('npm run bench, smoke mode', () => {
  const run = spawnSync(process.execPath, [join(root, 'bench', 'run.mjs'), '--smoke'], { cwd: root, encoding: 'utf8', timeout: 60_000 });

  it('exits 0 without errors', () => {
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('prints the machine and every scenario', () => {
    expect(run.stdout).toMatch(/^machine: nproc \d+, .+, node v\d+/m);
    for (const scenario of ['single-host', 'corpus', 'multi-host', 'compile', 'adversarial', 'retail', 'sweep', 'crawler', 'agents']) {
      expect(run.stdout).toMatch(new RegExp(`^## ${scenario}: `, 'm'));
    }
  });

  it.each([
    'wasm matchLines (raw bytes)', 'wasm MatchPool.matchLines (2 threads)', 'wasm matchBatch (strings)', 'wasm MatchPool.matchBatch (strings, 2 threads)', 'wasm isAllowed (per URL)', 'wasm classify rows (mixed stream)',
    'parse + compile (forAgent)', 'naive per-rule', 'robots-parser',
    'retail matchLines (raw bytes)', 'retail MatchPool.matchLines (2 threads)', 'retail matchBatch (strings)', 'retail isAllowed (per URL)',
  ])('has a row for %s with a rate and a ratio to each peer', (engine) => {
    const row = run.stdout.split('\n').find((l) => l.startsWith(`${engine} `));
    expect(row, engine).toBeDefined();
    // engine, count, rate (with unit), MB/s, rate per CPU-second (with unit), two peer ratios.
    expect(row).toMatch(/\s\d+\s+[\d.]+ [kMG]?\s+[\d.]+\s+[\d.]+ [kMG]?\s+[\d.]+×\s+[\d.]+×/);
  });

  it('counts the retail file\'s wildcard rules in its title', () => {
    const title = /^## retail: (\d+)-rule \* group \((\d+) with \* or \$/m.exec(run.stdout);
    expect(title).not.toBeNull();
    expect(Number(title![2])).toBeGreaterThanOrEqual(50);
    expect(Number(title![2])).toBeLessThan(Number(title![1]));
  });

  it('compares many agents with one on the retail file and the sites, and prints the cost ratios', () => {
    for (const engine of ['retail: matchBatch, 10 agents', 'retail: matchLines, 10 agents', 'sites: matchBatch, 10 agents', 'sites: matchLines, 10 agents']) {
      expect(run.stdout.split('\n').some((l) => l.startsWith(`${engine} `)), engine).toBe(true);
    }
    for (const label of ['retail matchBatch', 'retail matchLines', 'retail, a group per agent matchBatch', 'sites matchLines']) {
      expect(run.stdout).toMatch(new RegExp(`^${label}: 10 agents cost [\\d.]+× one agent \\(wall\\), [\\d.]+× \\(CPU\\); [\\d.]+× judging them one by one$`, 'm'));
    }
  });

  it('sweeps stand-in files without the corpus: a ratio distribution and the worst files with their rule counts', () => {
    for (const by of ['ratio', 'ratio by CPU time', 'ratio by wall time']) {
      expect(run.stdout).toMatch(new RegExp(`^${by}\\s+p50 [\\d.]+×\\s+p90 [\\d.]+×\\s+p99 [\\d.]+×\\s+max [\\d.]+×$`, 'm'));
    }
    // The retail stand-in has 59 wildcard rules: the DFA serves it.
    expect(run.stdout).toMatch(/^ {2}DFA \(32\+ rules\)\s+\d+ tables?\s+p50 [\d.]+×\s+p90 [\d.]+×\s+p99 [\d.]+×\s+max [\d.]+×$/m);
    const worst = run.stdout.split('\n').filter((l) => l.startsWith('synthetic-'));
    expect(worst.length).toBeGreaterThan(0);
    // file, agent, ratio, CPU ratio, wall ratio, ns/URL, floor ns, rules, wildcards, URLs (real).
    for (const row of worst) expect(row).toMatch(/^synthetic-\d+\s+\S+\s+[\d.]+×\s+[\d.]+×\s+[\d.]+×\s+\d+\s+[\d.]+\s+\d+\s+\d+\s+\d+ \(\d+\)$/);
    // The wildcard column counts the file's rules for that agent (the retail stand-in has 59).
    expect(worst.some((row) => Number(row.split(/\s+/)[8]) > 0)).toBe(true);
  });
});

describe('bench/compare.mjs, smoke mode', () => {
  // This checkout against itself, on the stand-in files: the verdicts agree, so every row prints.
  const run = spawnSync(process.execPath, [join(root, 'bench', 'compare.mjs'), '--against', root, '--smoke', '--control', '--rounds', '3'], { cwd: root, encoding: 'utf8', timeout: 60_000 });

  it('exits 0 and prints a ratio summary per matcher kind, an A/A column and a total', () => {
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^# compare: this build ÷ .+, raw matchLines time \(the lesser of CPU and wall time\), 3 alternating rounds per \(file, agent\)$/m);
    expect(run.stdout).toMatch(/^matcher\s+tables\s+geomean\s+p10\s+p50\s+p90\s+A\/A geomean$/m);
    const ratio = String.raw`\d+\.\d{3}`;
    expect(run.stdout).toMatch(new RegExp(`^DFA \\(32\\+ rules\\)\\s+\\d+(\\s+${ratio}){5}$`, 'm'));
    const total = new RegExp(`^all\\s+(\\d+)(\\s+${ratio}){5}$`, 'm').exec(run.stdout);
    expect(total).not.toBeNull();
    // Three stand-in files × two agents.
    expect(Number(total![1])).toBe(6);
  });

  it('keeps the kinds --only names', () => {
    const only = spawnSync(process.execPath, [join(root, 'bench', 'compare.mjs'), '--against', root, '--smoke', '--only', 'DFA', '--rounds', '1'], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    expect(only.status, only.stderr).toBe(0);
    expect(only.stdout).toMatch(/^DFA /m);
    expect(only.stdout).not.toMatch(/^(trie only|rule by rule)/m);
  });

  it('refuses a checkout that is not built, and a missing --against', () => {
    const empty = mkdtempSync(join(tmpdir(), 'compare-'));
    try {
      const bad = spawnSync(process.execPath, [join(root, 'bench', 'compare.mjs'), '--against', empty, '--smoke'], { cwd: root, encoding: 'utf8', timeout: 60_000 });
      expect(bad.status).not.toBe(0);
      expect(bad.stderr).toContain('is not a built checkout (no dist/index.js');
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
    const none = spawnSync(process.execPath, [join(root, 'bench', 'compare.mjs'), '--smoke'], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    expect(none.status).not.toBe(0);
    expect(none.stderr).toContain('compare needs --against DIR');
  });
});

describe('bench/linear.mjs, smoke mode', () => {
  const run = spawnSync(process.execPath, [join(root, 'bench', 'linear.mjs'), '--smoke'], { cwd: root, encoding: 'utf8', timeout: 90_000 });

  it('exits 0 and prints the machine and a slope row per table', () => {
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^machine: nproc \d+, .+, node v\d+/m);
    expect(run.stdout).toMatch(/^\s*slope\s+-?[\d.]+/m);
  });
});

describe('bench/instructions.mjs on a small corpus', () => {
  // 40 files of 150 rules: a pass costs well over what the counts move with V8's tiering.
  const corpus = mkdtempSync(join(tmpdir(), 'instructions-'));
  mkdirSync(join(corpus, 'robots'));
  for (let i = 0; i < 40; i++) {
    const rules = Array.from({ length: 150 }, (_v, k) => `${k % 3 === 0 ? 'Allow' : 'Disallow'}: /site${i}/section-${k}/${k % 5 === 0 ? '*.pdf$' : 'page'}`);
    writeFileSync(join(corpus, 'robots', `site${i}.txt`), `User-agent: *\n${rules.join('\n')}\nSitemap: https://example.com/s${i}.xml\n`);
  }
  const hasValgrind = spawnSync('valgrind', ['--version']).status === 0;
  const run = spawnSync(process.execPath, [join(root, 'bench', 'instructions.mjs'), '--corpus', corpus, '--passes', '1,3'], { cwd: root, encoding: 'utf8', timeout: 300_000 });
  afterAll(() => rmSync(corpus, { recursive: true, force: true }));

  it('prints instructions per pass for parse + compile and parse alone (or says valgrind is missing)', () => {
    expect(run.status, run.stderr).toBe(0);
    if (!hasValgrind) {
      expect(run.stdout).toMatch(/^instructions: skipped, valgrind is not installed/m);
      return;
    }
    expect(run.stdout).toMatch(/^corpus: 40 robots\.txt files, /m);
    for (const label of ['parse + compile (forAgent)', 'parse only']) {
      const row = run.stdout.split('\n').find((l) => l.startsWith(label));
      expect(row, label).toMatch(/\s1→3\s+[\d.]+ M\s+[\d.]+$/);
    }
  }, 300_000);

  it('refuses passes that give no difference, and skips without a corpus', () => {
    const bad = spawnSync(process.execPath, [join(root, 'bench', 'instructions.mjs'), '--corpus', corpus, '--passes', '2,2'], { cwd: root, encoding: 'utf8' });
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toMatch(/--passes takes two whole numbers A,B with 1 ≤ A < B/);
    const none = spawnSync(process.execPath, [join(root, 'bench', 'instructions.mjs'), '--corpus', join(corpus, 'missing')], { cwd: root, encoding: 'utf8' });
    expect(none.status).toBe(0);
    expect(none.stdout).toMatch(/^instructions: skipped, no corpus/m);
  });
});

describe('bench/agent-memory.mjs', () => {
  const corpus = mkdtempSync(join(tmpdir(), 'agent-memory-'));
  mkdirSync(join(corpus, 'robots'));
  writeFileSync(join(corpus, 'robots', 'a.example.txt'), 'User-agent: *\nDisallow: /private\n');
  const wild = Array.from({ length: 40 }, (_v, k) => `Disallow: /*?*f${k}=`);
  writeFileSync(join(corpus, 'robots', 'b.example.txt'), `User-agent: Googlebot\n${wild.join('\n')}\nUser-agent: *\nDisallow: /\n`);
  afterAll(() => rmSync(corpus, { recursive: true, force: true }));
  const script = join(root, 'bench', 'agent-memory.mjs');

  it('adds up each agent\'s table and RuleIndex, and names the largest', () => {
    const run = spawnSync(process.execPath, [script, '--corpus', corpus], { cwd: root, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^machine: nproc \d+, .+, node v\d+/m);
    const sum = /^agents 4, table \+ RuleIndex bytes in all (\d+), over 1 MiB: 0$/m.exec(run.stdout);
    expect(sum).not.toBeNull();
    const rows = run.stdout.split('\n').filter((l) => l.startsWith('robots/'));
    expect(rows).toHaveLength(4);
    // The 40-rule Googlebot group gets a DFA cache: the largest agent, its RuleIndex past 64 KiB.
    const first = /^robots\/b\.example\.txt {2}Googlebot {2}(\d+) bytes \(table (\d+), RuleIndex (\d+)\)$/.exec(rows[0]!);
    expect(first).not.toBeNull();
    expect(Number(first![3])).toBeGreaterThan(64 << 10);
    expect(Number(first![1])).toBe(Number(first![2]) + Number(first![3]));
    const bytes = rows.map((r) => Number(/ (\d+) bytes/.exec(r)![1]));
    expect(bytes.reduce((a, b) => a + b, 0)).toBe(Number(sum![1]));
  });

  it('runs on stand-ins with --smoke, and refuses a --corpus without robots/', () => {
    const smoke = spawnSync(process.execPath, [script, '--smoke'], { cwd: root, encoding: 'utf8' });
    expect(smoke.status, smoke.stderr).toBe(0);
    expect(smoke.stdout).toMatch(/^agents 6, table \+ RuleIndex bytes in all \d+, over 1 MiB: 0$/m);
    const bad = spawnSync(process.execPath, [script, '--corpus', join(corpus, 'missing')], { cwd: root, encoding: 'utf8' });
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain('has no robots/ folder');
  });
});
