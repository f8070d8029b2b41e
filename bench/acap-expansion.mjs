// ACAP expansion: parse time, retained heap and check time vs body size for the hostile resource-set × composite-usage file.
//
//   node bench/acap-expansion.mjs [--smoke]     (build first: npm run build)
//
// The body (issue #17 point 3): `ACAP-resource-set: s /p0 … /p{k-1}`, an 11-usage
// `ACAP-composite-usage: c …`, `ACAP-crawler: *`, then k × `ACAP-allow-(c):
// the-acap:resource-set:s`. It stands for 11 k² rules: k = 3,000 is 143 KB and 99 M
// rules, which an eager expansion turns into gigabytes. Rows grow k up to the default
// parse limit (500 KiB); `slope` is the log-log growth of each column against body
// bytes (1 = linear). Columns:
//   parse       Robots.parse, median of tinybench runs
//   retained    heap kept by one parsed Robots (after GC), per body byte
//   check       one AcapPolicy.check at the default budget (over it: the conservative answer)
//   exact check one check with the budget lifted, i.e. the evaluation without expansion
import { Bench } from 'tinybench';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { machine } from './lib.mjs';

// Retained heap needs a forced GC: re-run once with --expose-gc.
if (typeof globalThis.gc !== 'function') {
  const { status } = spawnSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(status ?? 1);
}

const { Robots } = await import('../dist/index.js');
const smoke = process.argv.includes('--smoke');
for (const a of process.argv.slice(2)) if (a !== '--smoke') throw new Error(`acap-expansion: unknown argument ${a} (expected --smoke)`);

const USAGES = ['crawl', 'follow', 'index', 'preserve', 'present', 'other', 'present-original', 'present-currentcopy', 'present-oldcopy', 'present-snippet', 'present-thumbnail'];

function hostileBody(k) {
  const set = Array.from({ length: k }, (_, i) => `/p${i}`).join(' ');
  return `ACAP-resource-set: s ${set}\nACAP-composite-usage: c ${USAGES.join(' ')}\nACAP-crawler: *\n${'ACAP-allow-(c): the-acap:resource-set:s\n'.repeat(k)}`;
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

/** Heap kept by `copies` parsed Robots of `body`, per copy, after a full GC. */
function retainedBytes(body, copies) {
  globalThis.gc();
  const before = process.memoryUsage().heapUsed;
  const kept = [];
  for (let i = 0; i < copies; i++) kept.push(Robots.parse(body));
  globalThis.gc();
  const after = process.memoryUsage().heapUsed;
  if (kept.length !== copies) throw new Error('unreachable');
  return Math.max(0, after - before) / copies;
}

function timeOnce(fn) {
  const t = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t) / 1e6;
}

const sizes = smoke ? [50, 100] : [250, 500, 1_000, 2_000, 4_000, 8_000, 10_800];
console.log('# acap-expansion bench' + (smoke ? ' (smoke: tiny inputs, numbers mean nothing)' : ''));
console.log(`machine: ${machine()}`);
console.log('');
console.log('|      k | body KB |  rules stood for | parse ms | parse ns/byte | retained B/byte | check ms | exact check ms |');
console.log('|-------:|--------:|-----------------:|---------:|--------------:|----------------:|---------:|---------------:|');
const rows = [];
for (const k of sizes) {
  const body = hostileBody(k);
  const bytes = Buffer.byteLength(body);
  const bench = new Bench({ time: smoke ? 1 : 500, iterations: smoke ? 1 : 5, warmupTime: smoke ? 1 : 200, warmupIterations: smoke ? 1 : 2, throws: true });
  let robots;
  bench.add('parse', () => {
    robots = Robots.parse(body);
  });
  await bench.run();
  const parseMs = bench.tasks[0].result.latency.p50 ?? bench.tasks[0].result.latency.mean;
  const retained = retainedBytes(body, smoke ? 2 : 8);
  const check = median([0, 1, 2].map((i) => timeOnce(() => robots.acap.check(`/p${i}`, 'bot', 'index'))));
  const exact = Robots.parse(body, { acapMaxExpandedRules: Number.MAX_SAFE_INTEGER }).acap;
  const exactMs = median([0, 1, 2].map((i) => timeOnce(() => exact.check(`/p${k - 1 - i}`, 'bot', 'present-snippet'))));
  const row = { k, bytes, rules: robots.acap.expandedRuleCount, parseMs, retained, check, exactMs };
  rows.push(row);
  console.log(
    `| ${String(k).padStart(6)} | ${(bytes / 1024).toFixed(1).padStart(7)} | ${row.rules.toLocaleString('en-US').padStart(16)} | ${parseMs.toFixed(2).padStart(8)} | ${((parseMs * 1e6) / bytes).toFixed(0).padStart(13)} | ${(retained / bytes).toFixed(1).padStart(15)} | ${check.toFixed(3).padStart(8)} | ${exactMs.toFixed(2).padStart(14)} |`,
  );
}
const slope = (key) => {
  const a = rows[0];
  const b = rows[rows.length - 1];
  return (Math.log(b[key] / a[key]) / Math.log(b.bytes / a.bytes)).toFixed(2);
};
console.log('');
console.log(`slope vs body bytes: rules ${slope('rules')}, parse ${slope('parseMs')}, retained ${slope('retained')}, exact check ${slope('exactMs')}`);
