// Scenario: many agents in one pass (Robots.forAgents) against one agent (forAgent), on the retail file and on the corpus sites; prints the cost ratio.
import { Robots } from '../dist/index.js';
import { retailRobots, retailUrls } from './retail-gen.mjs';
import { byteLength, toLines } from './fixtures.mjs';
import { loadSites } from './corpus.mjs';
import { measure, printTable } from './lib.mjs';

/** The crawlers an audit asks about: search engines and AI crawlers. */
export const AGENTS = [
  'Googlebot', 'Bingbot', 'GPTBot', 'ClaudeBot', 'CCBot', 'Google-Extended', 'PerplexityBot', 'Applebot', 'DuckDuckBot', 'Bytespider',
];
/**
 * The one-agent baseline: an AI crawler most files do not name, so it reads the `*` groups,
 * usually the largest (on the retail file Googlebot's own group has 4 rules, `*` 135).
 */
const ONE = 'GPTBot';

/** The retail file with a group of its own for every agent (the `*` rules plus one), so that no two agents share a table. */
function distinctGroups(body) {
  const star = body.slice(body.indexOf('User-agent: *'));
  const rules = star.split('\n').slice(1).filter((l) => /^(allow|disallow):/i.test(l));
  return body + AGENTS.map((a, k) => `\nUser-agent: ${a}\n${rules.join('\n')}\nDisallow: /only-${k}/\n`).join('');
}

/** Cost of the many-agents row against the one-agent row and against one agent at a time, per URL (wall and CPU). */
function costLine(label, one, many, serial) {
  const per = (r, key) => r[key] / r.urls;
  const cpu = one.cpuSeconds > 0 && many.cpuSeconds > 0 ? `${(per(many, 'cpuSeconds') / per(one, 'cpuSeconds')).toFixed(2)}×` : '-';
  return `${label}: ${AGENTS.length} agents cost ${(per(many, 'seconds') / per(one, 'seconds')).toFixed(2)}× one agent (wall), ${cpu} (CPU); ` +
    `${(per(many, 'seconds') / per(serial, 'seconds')).toFixed(2)}× judging them one by one`;
}

export async function run(args) {
  const { smoke } = args;
  const count = smoke ? 2_000 : 300_000;
  const urls = retailUrls(count);
  const lines = toLines(urls);
  const bytes = byteLength(urls);
  const costs = [];
  for (const [name, body] of [['retail', retailRobots(1)], ['retail, a group per agent', distinctGroups(retailRobots(1))]]) {
    const robots = Robots.parse(body);
    const one = robots.forAgent(ONE);
    const many = robots.forAgents(AGENTS);
    const each = AGENTS.map((a) => robots.forAgent(a));
    const out = new Uint8Array(count * AGENTS.length);
    const rows = await measure(
      [
        { engine: `${name}: matchBatch, 1 agent`, urls: count, bytes, peer: true, fn: () => one.matchBatch(urls, out) },
        { engine: `${name}: matchBatch, ${AGENTS.length} agents`, urls: count, bytes, note: `${many.tableCount} tables`, fn: () => many.matchBatch(urls, out) },
        { engine: `${name}: matchBatch, one by one`, urls: count, bytes, fn: () => { for (const m of each) m.matchBatch(urls, out); } },
        { engine: `${name}: matchLines, 1 agent`, urls: count, bytes: lines.length, fn: () => one.matchLines(lines, out) },
        { engine: `${name}: matchLines, ${AGENTS.length} agents`, urls: count, bytes: lines.length, note: `${many.tableCount} tables`, fn: () => many.matchLines(lines, out) },
        { engine: `${name}: matchLines, one by one`, urls: count, bytes: lines.length, fn: () => { for (const m of each) m.matchLines(lines, out); } },
      ],
      { smoke },
    );
    printTable(`agents: ${name}, ${count} URLs, ${AGENTS.length} agents (${many.tableCount} distinct tables) vs ${ONE}`, rows);
    costs.push(costLine(`${name} matchBatch`, rows[0], rows[1], rows[2]), costLine(`${name} matchLines`, rows[3], rows[4], rows[5]));
  }

  const { label, sites } = loadSites(args);
  for (const s of sites) {
    const robots = Robots.parse(s.body);
    s.one = robots.forAgent(ONE);
    s.many = robots.forAgents(AGENTS);
    s.each = AGENTS.map((a) => robots.forAgent(a));
    s.lines = toLines(s.urls);
  }
  const total = sites.reduce((n, s) => n + s.urls.length, 0);
  const siteBytes = sites.reduce((n, s) => n + byteLength(s.urls), 0);
  const tables = sites.reduce((n, s) => n + s.many.tableCount, 0);
  const rows = await measure(
    [
      { engine: 'sites: matchBatch, 1 agent', urls: total, bytes: siteBytes, peer: true, fn: () => { for (const s of sites) s.one.matchBatch(s.urls); } },
      { engine: `sites: matchBatch, ${AGENTS.length} agents`, urls: total, bytes: siteBytes, fn: () => { for (const s of sites) s.many.matchBatch(s.urls); } },
      { engine: 'sites: matchBatch, one by one', urls: total, bytes: siteBytes, fn: () => { for (const s of sites) for (const m of s.each) m.matchBatch(s.urls); } },
      { engine: 'sites: matchLines, 1 agent', urls: total, bytes: siteBytes, fn: () => { for (const s of sites) s.one.matchLines(s.lines); } },
      { engine: `sites: matchLines, ${AGENTS.length} agents`, urls: total, bytes: siteBytes, fn: () => { for (const s of sites) s.many.matchLines(s.lines); } },
      { engine: 'sites: matchLines, one by one', urls: total, bytes: siteBytes, fn: () => { for (const s of sites) for (const m of s.each) m.matchLines(s.lines); } },
    ],
    { smoke },
  );
  printTable(`agents: ${label}, ${total} URLs, ${AGENTS.length} agents (${(tables / Math.max(1, sites.length)).toFixed(2)} distinct tables per site) vs ${ONE}`, rows);
  costs.push(costLine('sites matchBatch', rows[0], rows[1], rows[2]), costLine('sites matchLines', rows[3], rows[4], rows[5]));
  console.log('');
  for (const line of costs) console.log(line);
  return rows;
}
