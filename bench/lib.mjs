// Bench plumbing: arguments, tinybench runs turned into URLs/s and MB/s, peer ratios, tables.
import { Bench } from 'tinybench';
import { availableParallelism, cpus } from 'node:os';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** `--smoke`, `--corpus DIR`, `--only NAME[,NAME]` from argv. */
export function parseArgs(argv) {
  const args = { smoke: false, corpus: null, only: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--smoke') args.smoke = true;
    else if (a === '--corpus') args.corpus = argv[++i] ?? null;
    else if (a === '--only') args.only = (argv[++i] ?? '').split(',');
    else throw new Error(`bench: unknown argument ${a} (expected --smoke, --corpus DIR, --only NAME)`);
  }
  return args;
}

/** The real corpus where the project machines keep it, next to the repository (../shared/corpus), or null. Tests never need it. */
export function siblingCorpus() {
  const dir = fileURLToPath(new URL('../../shared/corpus/', import.meta.url));
  return existsSync(dir) ? dir : null;
}

/** The corpus's robots.txt bodies (DIR/robots/*), in file-name order; the first `limit` of them. */
export function corpusRobots(corpus, limit = Infinity) {
  const dir = join(corpus, 'robots');
  return readdirSync(dir).sort().slice(0, limit).map((f) => readFileSync(join(dir, f)));
}

/** nproc, CPU model, node version: printed with every table so numbers carry their machine. */
export function machine() {
  let model = cpus()[0]?.model ?? 'unknown CPU';
  try {
    const m = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    if (m) model = m[1];
  } catch {
    // not Linux: os.cpus() is good enough
  }
  return `nproc ${availableParallelism()}, ${model}, node ${process.version}, ${process.platform}-${process.arch}`;
}

/**
 * Runs each task under tinybench and returns rows with seconds per run. A task is
 * `{ engine, urls, bytes, fn }`: `fn` judges `urls` URLs (`bytes` of input) once.
 */
export async function measure(tasks, { smoke }) {
  // Warm-up: at least 1.5 s and 2 runs per task, every engine alike, so that no timed
  // run is a cold one (a first parse + compile pass of the corpus takes 4 times a warm
  // one; the compile scenario reports it separately). Alternating runs with 0.2 s
  // showed no difference beyond this machine's phases (118, 83, 122 MB/s against 81,
  // 120, 117 for parse + compile): the longer warm-up is a margin, not a fix.
  const bench = new Bench({
    time: smoke ? 1 : 1500,
    iterations: smoke ? 1 : 4,
    warmupTime: smoke ? 1 : 1500,
    warmupIterations: smoke ? 1 : 2,
    throws: true,
  });
  // Each call's CPU time too (every thread of the process, so a 2-thread task counts
  // both): on a shared machine, wall time also counts the time others held the cores.
  const cpu = tasks.map(() => []);
  tasks.forEach((t, i) => {
    bench.add(t.engine, async () => {
      const start = process.cpuUsage();
      await t.fn();
      const used = process.cpuUsage(start);
      cpu[i].push((used.user + used.system) / 1e6);
    });
  });
  await bench.run();
  return tasks.map((t, i) => {
    const result = bench.tasks[i].result;
    // The median resists the noise of a shared machine better than the mean.
    const seconds = (result.latency.p50 ?? result.latency.mean) / 1000;
    const sorted = cpu[i].sort((a, b) => a - b);
    const cpuSeconds = sorted[sorted.length >> 1];
    return { ...t, seconds, cpuSeconds };
  });
}

function si(n) {
  if (n >= 1e9) return `${(n / 1e9).toFixed(2)} G`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(2)} M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)} k`;
  return n.toFixed(n < 10 ? 2 : 0);
}

function ratio(a, b) {
  if (!b || !a) return '-';
  const r = a / b;
  return r >= 100 ? `${Math.round(r)}×` : r >= 10 ? `${r.toFixed(1)}×` : `${r.toFixed(2)}×`;
}

/**
 * Prints one scenario: URLs/s and MB/s (wall time, median run), URLs per CPU-second
 * (median run) and, per peer row (`peer: true`), the ratio of every row's URLs/s to that
 * peer's. Rows may carry `note` (e.g. agreement with our verdicts).
 */
export function printTable(title, rows, { unit = 'URLs' } = {}) {
  const peers = rows.filter((r) => r.peer);
  const head = ['engine', unit, `${unit}/s`, 'MB/s', `${unit}/CPU-s`, ...peers.map((p) => `vs ${p.engine}`), 'note'];
  const body = rows.map((r) => {
    const rate = r.urls / r.seconds;
    return [
      r.engine,
      String(r.urls),
      si(rate),
      r.bytes ? (r.bytes / r.seconds / 1e6).toFixed(1) : '-',
      r.cpuSeconds > 0 ? si(r.urls / r.cpuSeconds) : '-',
      ...peers.map((p) => (p === r ? '1×' : ratio(rate, p.urls / p.seconds))),
      r.note ?? '',
    ];
  });
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const fmt = (cells) => cells.map((c, i) => (i === 0 || i === cells.length - 1 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ').trimEnd();
  console.log(`\n## ${title}`);
  console.log(fmt(head));
  for (const b of body) console.log(fmt(b));
}

/** `agree 99.8%`: how often a peer's verdicts equal ours on the same URLs. */
export function agreement(ours, theirs) {
  let same = 0;
  for (let i = 0; i < theirs.length; i++) if (!!ours[i] === !!theirs[i]) same++;
  return `agree ${((100 * same) / Math.max(1, theirs.length)).toFixed(1)}%`;
}

/** Wildcard rules (`*` anywhere or a trailing `$`) among `rules` (RuleRecords, e.g. `robots.rulesFor(agent)`). */
export function wildcardCount(rules) {
  let n = 0;
  for (const rule of rules) if (rule.pattern.includes(0x2a) || rule.pattern.at(-1) === 0x24) n++;
  return n;
}
