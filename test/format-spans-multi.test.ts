// WasmEngine.formatSpanRowsMulti (MULTI rows): verdict columns equal each agent's own verdicts, and an arena too small for a batch's tables gives the same bytes in runs.
import { describe, expect, it } from 'vitest';
import { Robots } from '../src/index.js';
import { WasmEngine } from '../src/wasm/batches.js';
import { TABLE_NONE, TABLE_UNREACHABLE, type AgentTables } from '../src/wasm/index.js';
import { agentKeys } from '../src/cli/row-options.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const AGENTS = ['alpha', 'beta', 'gamma'];

/** A robots.txt of `n` rules per group, different for each site, with agent-specific groups. */
function site(k: number, n: number): string {
  const rules = (prefix: string): string => Array.from({ length: n }, (_, r) => `${r % 3 === 0 ? 'Allow' : 'Disallow'}: /${prefix}${(r * 7 + k) % 50}*x${r}$`).join('\n');
  return `User-agent: alpha\n${rules('a')}\n\nUser-agent: beta\n${rules('b')}\n\nUser-agent: *\n${rules('s')}\n`;
}

const SITES = Array.from({ length: 12 }, (_, k) => Robots.parse(site(k, 60)).forAgents(AGENTS).matchers.map((m) => m.table));
// Group 12: lines without a robots.txt; 13: an unreachable host.
const GROUPS: AgentTables[] = [...SITES, AGENTS.map(() => TABLE_NONE), AGENTS.map(() => TABLE_UNREACHABLE)];
const URLS = Array.from({ length: 3000 }, (_, i) => `https://h${i % 14}.example/${'abs'[i % 3]}${(i * 13) % 50}/q${i % 60}x${i % 60}`);
const BYTES = encoder.encode(`${URLS.join('\n')}\n`);

function run(engine: WasmEngine, options: number) {
  const batch = engine.scanHosts(BYTES, true);
  expect(batch.count).toBe(URLS.length);
  const groupOf = Int32Array.from(URLS, (_, i) => i % 14);
  const perAgent = new Float64Array(AGENTS.length);
  const result = engine.formatSpanRowsMulti(BYTES, batch, groupOf, GROUPS, agentKeys(AGENTS), options, perAgent);
  return { text: result.rows.map((r) => decoder.decode(r)).join(''), allowed: result.allowed, perAgent: Array.from(perAgent) };
}

describe('formatSpanRowsMulti', () => {
  it('each column is the verdict and line of that agent (each table judged alone), codes as the ABI says', () => {
    const { text, allowed, perAgent } = run(new WasmEngine(), 0);
    const rows = text.trimEnd().split('\n').map((row) => row.split('\t'));
    expect(rows).toHaveLength(URLS.length);
    const engine = new WasmEngine();
    const expectedAllowed = [0, 0, 0];
    let all = 0;
    rows.forEach((row, i) => {
      const g = i % 14;
      let every = true;
      AGENTS.forEach((_, j) => {
        let expected: string;
        if (g === 12) expected = 'allow:0';
        else if (g === 13) expected = 'disallow:0';
        else {
          const line = new Uint32Array(1);
          expected = `${engine.matchOne(SITES[g]![j]!, URLS[i]!, line) === 1 ? 'allow' : 'disallow'}:${line[0]}`;
        }
        expect(row[j], `url ${i} agent ${j}`).toBe(expected);
        if (expected.startsWith('allow')) expectedAllowed[j]!++;
        else every = false;
      });
      if (every) all++;
      expect(row[AGENTS.length]).toBe(URLS[i]);
    });
    expect(perAgent).toEqual(expectedAllowed);
    expect(allowed).toBe(all);
    // The rules must decide both ways, or the comparison would prove little.
    expect(expectedAllowed.every((n) => n > 100 && n < URLS.length - 100)).toBe(true);
  });

  it('an arena that holds a few groups at a time writes the same rows (TSV and JSONL) in runs', () => {
    const tableBytes = SITES.flat().reduce((n, t) => n + t.length, 0);
    const arena = 48 << 10;
    expect(tableBytes).toBeGreaterThan(2 * arena); // the point: the batch's tables do not fit together
    for (const options of [0, 1]) {
      const small = run(new WasmEngine({ arenaBytes: arena, arenaMaxBytes: arena }), options);
      expect(small).toEqual(run(new WasmEngine(), options));
    }
  });

  it('one group whose tables alone overflow the arena: the arena grows to hold them together', () => {
    const groupBytes = SITES[0]!.reduce((n, t) => n + t.length, 0);
    const arena = 4 << 10;
    expect(groupBytes).toBeGreaterThan(arena);
    expect(run(new WasmEngine({ arenaBytes: arena, arenaMaxBytes: arena }), 0)).toEqual(run(new WasmEngine(), 0));
  });
});
