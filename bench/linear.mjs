// Linear-time evidence: ns per URL as URL length and pattern size grow on adversarial globs, ours vs position-set, robots-parser and a regex matcher.
//
//   node bench/linear.mjs [--smoke] [--budget SECONDS]     (build first: npm run build)
//
// Each cell is measured in its own worker thread so that a peer that blows up is stopped
// at the budget (printed "> Ns") instead of hanging the run. Peers, all on the same inputs:
//   wasm          this library: Robots.parse(…, { profile: 'google' }).forAgent(…).matchBatch(urls)
//   position-set  robots.cc's RobotsMatchStrategy::Matches, ported here: O(path × pattern) per rule
//   robots-parser robots-parser 3.0.1 (itself a position-set port since its 2.2.0, plus URL parsing)
//   regex         rules compiled to RegExp (`*` → `.*`, final `$` → `$`), as robots-parser ≤ 2.1
//                 and many other libraries do: backtracking, exponential in the number of `*`
// Scenarios grow one quantity at a time and print ns per URL for each peer, for ours the
// growth factor from the previous row, and per peer the log-log slope (1 = linear in that
// quantity, 2 = quadratic, 0 = flat). Every peer that finishes must give the same verdict.
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { machine } from './lib.mjs';

const ENGINES = ['wasm', 'position-set', 'robots-parser', 'regex'];
const ORIGIN = 'http://example.com';
const AGENT = 'bot';

/** The scenarios: each row is one size; `build(size)` gives the robots.txt body and the URL path. */
// Every URL starts with the byte its rules end with ('b', or 'z'), so each rule holds
// everything the prefilter can ask of a path (assembly/match.ts: its bytes and pairs are
// all there) and is matched for real: its last piece is then searched for from its first
// pieces' end to the end of the URL, and not found.
const SCENARIOS = [
  {
    name: 'url-length',
    title: "URL length L: 'Disallow: /*a*a*a*a*a*a*a*a*b' (8 stars) vs '/b' + 'a' × L",
    unit: 'L (bytes)',
    sizes: [1_000, 4_000, 16_000, 64_000, 256_000, 1_024_000],
    smoke: [500, 2_000],
    build: (L) => ({ body: `User-agent: *\nDisallow: /${'*a'.repeat(8)}*b\n`, path: `/b${'a'.repeat(L)}` }),
  },
  {
    name: 'pattern-size',
    title: "pattern size k: 'Disallow: /' + '*a' × k + '*b' vs '/b' + 'a' × 16,000",
    unit: 'k (stars)',
    sizes: [4, 16, 64, 256, 1_024, 4_096],
    smoke: [4, 16],
    build: (k) => ({ body: `User-agent: *\nDisallow: /${'*a'.repeat(k)}*b\n`, path: `/b${'a'.repeat(16_000)}` }),
  },
  {
    name: 'both',
    title: "pattern and URL together: 'Disallow: /' + '*a' × (L / 8) + '*b' vs '/b' + 'a' × L",
    unit: 'L (bytes)',
    sizes: [1_000, 4_000, 16_000, 64_000, 256_000],
    smoke: [500, 2_000],
    build: (L) => ({ body: `User-agent: *\nDisallow: /${'*a'.repeat(L / 8)}*b\n`, path: `/b${'a'.repeat(L)}` }),
  },
  {
    name: 'rule-count',
    title: "total pattern size via rule count N: N × 'Disallow: /*' + 'a' × (1..8) + '*' + 'a' × (1..5) + '*z' vs '/z' + 'a' × 4,000",
    unit: 'N (rules)',
    sizes: [16, 64, 256, 1_024, 4_096],
    smoke: [4, 16],
    build: (N) => ({
      body: `User-agent: *\n${Array.from({ length: N }, (_, i) => `Disallow: /*${'a'.repeat(1 + (i % 8))}*${'a'.repeat(1 + (i % 5))}*z`).join('\n')}\n`,
      path: `/z${'a'.repeat(4_000)}`,
    }),
  },
  {
    name: 'regex-stars',
    title: "star count k at a short URL: 'Disallow: /' + '*a' × k + '*b' vs '/b' + 'a' × 200 (where a backtracking regex still finishes)",
    unit: 'k (stars)',
    sizes: [1, 2, 3, 4, 5, 6],
    smoke: [1, 2],
    build: (k) => ({ body: `User-agent: *\nDisallow: /${'*a'.repeat(k)}*b\n`, path: `/b${'a'.repeat(200)}` }),
  },
];

// ---------------------------------------------------------------------------------------
// Peers (run inside workers).

/** Rules of the `*` group (every scenario has only that group): [{ allow, pattern }]. */
function parseRules(body) {
  const rules = [];
  for (const raw of body.split(/\r\n|\r|\n/)) {
    const m = /^\s*(allow|disallow)\s*:\s*(.*?)\s*$/i.exec(raw.replace(/#.*/, ''));
    if (m && m[2] !== '') rules.push({ allow: m[1].toLowerCase() === 'allow', pattern: m[2] });
  }
  return rules;
}

/** robots.cc RobotsMatchStrategy::Matches: the position-set algorithm, O(path × pattern). */
function positionSetMatches(path, pattern, pos) {
  const n = path.length;
  let count = 1;
  pos[0] = 0;
  for (let p = 0; p < pattern.length; p++) {
    const c = pattern.charCodeAt(p);
    if (c === 0x24 && p === pattern.length - 1) return pos[count - 1] === n;
    if (c === 0x2a) {
      const from = pos[0];
      count = n - from + 1;
      for (let k = 0; k < count; k++) pos[k] = from + k;
      continue;
    }
    let kept = 0;
    for (let k = 0; k < count; k++) {
      const i = pos[k];
      if (i < n && path.charCodeAt(i) === c) pos[kept++] = i + 1;
    }
    if (kept === 0) return false;
    count = kept;
  }
  return true;
}

/** Longest match wins, allow wins ties (RFC 9309 §2.2.2); `matches(path, rule)` decides one rule. */
function longestMatch(rules, path, matches) {
  let allow = -1;
  let disallow = -1;
  for (const r of rules) {
    if (r.pattern.length <= (r.allow ? allow : disallow)) continue;
    if (!matches(path, r)) continue;
    if (r.allow) allow = r.pattern.length;
    else disallow = r.pattern.length;
  }
  return disallow > allow ? 0 : 1;
}

function escapeRegex(s) {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** A rule as RegExp the way pre-2.2 robots-parser did: every `*` a `.*`, a final `$` an anchor. */
function regexOf(pattern) {
  const anchored = pattern.endsWith('$');
  const body = anchored ? pattern.slice(0, -1) : pattern;
  return new RegExp(`^${body.split('*').map(escapeRegex).join('.*')}${anchored ? '$' : ''}`);
}

/** Builds the judge `(urls) → verdicts` of one engine for one body. */
async function makeJudge(engine, body) {
  if (engine === 'wasm') {
    const { Robots } = await import('../dist/index.js');
    const matcher = Robots.parse(body, { profile: 'google', maxBytes: body.length + 1 }).forAgent(AGENT);
    return (paths) => Array.from(matcher.matchBatch(paths));
  }
  if (engine === 'robots-parser') {
    const { default: robotsParser } = await import('robots-parser');
    const robots = robotsParser(`${ORIGIN}/robots.txt`, body);
    return (paths) => paths.map((p) => (robots.isAllowed(ORIGIN + p, AGENT) ? 1 : 0));
  }
  const rules = parseRules(body);
  if (engine === 'position-set') {
    let pos = new Int32Array(1);
    return (paths) => paths.map((path) => {
      if (pos.length < path.length + 1) pos = new Int32Array(path.length + 1);
      return longestMatch(rules, path, (p, r) => positionSetMatches(p, r.pattern, pos));
    });
  }
  const compiled = rules.map((r) => ({ ...r, regex: regexOf(r.pattern) }));
  return (paths) => paths.map((path) => longestMatch(compiled, path, (p, r) => r.regex.test(p)));
}

/** Worker: measures one engine over every size of one scenario, posting one result per size. */
async function workerMain() {
  const { engine, scenario: name, sizes, targetMs } = workerData;
  const scenario = SCENARIOS.find((s) => s.name === name);
  for (const size of sizes) {
    const { body, path } = scenario.build(size);
    const judge = await makeJudge(engine, body);
    // Warm-up and first timing with one URL (this is the call that may never end).
    let t0 = process.hrtime.bigint();
    let verdict = judge([path])[0];
    const single = Number(process.hrtime.bigint() - t0);
    // Then batches sized to about a quarter of the target time, at most ~4 MB of URLs: the
    // per-call overhead amortizes as in real use without one batch outlasting the budget.
    const count = Math.max(1, Math.min(Math.floor(4_000_000 / path.length), Math.floor((targetMs * 1e6) / 4 / Math.max(single, 1))));
    const batch = Array.from({ length: count }, () => path);
    // Warm the JIT on this size for a third of the target before the clock starts.
    t0 = process.hrtime.bigint();
    while (Number(process.hrtime.bigint() - t0) < (targetMs * 1e6) / 3) judge(batch);
    let urls = 0;
    t0 = process.hrtime.bigint();
    let elapsed = 0;
    do {
      verdict = judge(batch)[0];
      urls += batch.length;
      elapsed = Number(process.hrtime.bigint() - t0);
    } while (elapsed < targetMs * 1e6);
    parentPort.postMessage({ size, nsPerUrl: elapsed / urls, verdict, urls });
  }
}

// ---------------------------------------------------------------------------------------
// Main thread: one worker per (engine, scenario), stopped at the budget.


function parseArgs(argv) {
  const args = { smoke: false, budget: null };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--smoke') args.smoke = true;
    else if (argv[i] === '--budget') args.budget = Number(argv[++i]);
    else throw new Error(`bench/linear: unknown argument ${argv[i]} (expected --smoke, --budget SECONDS)`);
  }
  if (args.budget !== null && !(args.budget > 0)) throw new Error('bench/linear: --budget needs a positive number of seconds');
  return args;
}

/** Runs one engine over a scenario's sizes; resolves to { size → result | 'timeout' | 'skipped' }. */
function runEngine(engine, scenario, sizes, { budgetMs, targetMs }) {
  return new Promise((resolve, reject) => {
    const results = new Map();
    const worker = new Worker(new URL(import.meta.url), { workerData: { engine, scenario: scenario.name, sizes, targetMs } });
    let timer = null;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        // The current size did not finish in time: it and every larger one are out of budget.
        const pending = sizes.filter((s) => !results.has(s));
        results.set(pending[0], 'timeout');
        for (const s of pending.slice(1)) results.set(s, 'skipped');
        worker.terminate().then(() => resolve(results));
      }, budgetMs);
    };
    arm();
    worker.on('message', (m) => {
      results.set(m.size, m);
      if (results.size === sizes.length) {
        clearTimeout(timer);
        worker.terminate().then(() => resolve(results));
      } else {
        arm();
      }
    });
    worker.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
  });
}

/** Least-squares slope of log(ns/URL) on log(size) over the finished rows of one engine. */
function slope(sizes, column) {
  const points = sizes.map((s) => [s, column.get(s)]).filter(([, r]) => typeof r === 'object').map(([s, r]) => [Math.log(s), Math.log(r.nsPerUrl)]);
  if (points.length < 2) return '—';
  const mx = points.reduce((a, [x]) => a + x, 0) / points.length;
  const my = points.reduce((a, [, y]) => a + y, 0) / points.length;
  const sxy = points.reduce((a, [x, y]) => a + (x - mx) * (y - my), 0);
  const sxx = points.reduce((a, [x]) => a + (x - mx) ** 2, 0);
  return (sxy / sxx).toFixed(2);
}

function formatNs(ns) {
  if (ns >= 1e9) return `${(ns / 1e9).toFixed(2)} s`;
  if (ns >= 1e6) return `${(ns / 1e6).toFixed(2)} ms`;
  if (ns >= 1e3) return `${(ns / 1e3).toFixed(1)} µs`;
  return `${ns.toFixed(0)} ns`;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const budgetMs = (args.budget ?? (args.smoke ? 2 : 10)) * 1000;
  const targetMs = args.smoke ? 20 : 300;
  console.log(`# linear-time bench${args.smoke ? ' (smoke: tiny inputs, numbers mean nothing)' : ''}`);
  console.log(`command: node bench/linear.mjs ${process.argv.slice(2).join(' ')}`.trimEnd());
  console.log(`machine: ${machine()}`);
  console.log(`budget: ${budgetMs / 1000} s per cell (a peer over budget shows "> ${budgetMs / 1000} s"; larger sizes are then skipped: "—")`);
  let disagreements = 0;
  for (const scenario of SCENARIOS) {
    const sizes = args.smoke ? scenario.smoke : scenario.sizes;
    // One engine at a time: concurrent workers would share the cores and skew each other.
    const columns = [];
    for (const engine of ENGINES) columns.push(await runEngine(engine, scenario, sizes, { budgetMs, targetMs }));
    console.log(`\n## ${scenario.title}`);
    const head = [scenario.unit, ...ENGINES.map((e) => `${e} ns/URL`), 'wasm ×prev'];
    const rows = sizes.map((size, i) => {
      const cells = columns.map((col) => {
        const r = col.get(size);
        if (r === 'timeout') return `> ${budgetMs / 1000} s`;
        if (r === 'skipped' || r === undefined) return '—';
        return formatNs(r.nsPerUrl);
      });
      const ours = columns[0].get(size);
      const prev = i > 0 ? columns[0].get(sizes[i - 1]) : null;
      const growth = ours?.nsPerUrl && prev?.nsPerUrl ? `${(ours.nsPerUrl / prev.nsPerUrl).toFixed(2)}×` : '';
      // Every peer that finished must give our verdict.
      const verdicts = new Set(columns.map((c) => c.get(size)).filter((r) => typeof r === 'object').map((r) => r.verdict));
      if (verdicts.size > 1) disagreements++;
      return [size.toLocaleString('en-US'), ...cells, growth + (verdicts.size > 1 ? ' (peers disagree!)' : '')];
    });
    // Log-log slope of ns/URL against size, per engine, over the rows it finished: 1 is
    // linear in that size, 2 quadratic, 0 flat; '—' when fewer than two rows finished.
    rows.push(['slope', ...columns.map((col) => slope(sizes, col)), '']);
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
    const fmt = (cells) => cells.map((c, i) => c.padStart(widths[i])).join('  ');
    console.log(fmt(head));
    for (const r of rows) console.log(fmt(r));
  }
  if (disagreements > 0) {
    console.error(`bench/linear: ${disagreements} rows where peers disagree on the verdict`);
    process.exitCode = 1;
  }
}

if (isMainThread) await main();
else await workerMain();
