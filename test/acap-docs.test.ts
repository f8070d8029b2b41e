// docs/ACAP.md: the worked example, its results table and the diagnostics table match the code.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Robots } from '../src/index.js';
import { ACAP_DIAGNOSTIC_CODES, isAcapUsage } from '../src/acap/index.js';

const block = readFileSync(new URL('../docs/ACAP.md', import.meta.url), 'utf8');
const fixture = readFileSync(new URL('./fixtures/acap/news-site.txt', import.meta.url), 'utf8');
const acap = Robots.parse(fixture).acap!;

/** Rows of the markdown table whose header starts with `| first |`. */
function tableRows(first: string): string[][] {
  const lines = block.split('\n');
  const at = lines.findIndex((l) => l.startsWith(`| ${first} |`));
  expect(at).toBeGreaterThanOrEqual(0);
  const rows: string[][] = [];
  for (let i = at + 2; i < lines.length && lines[i]!.startsWith('|'); i++) {
    rows.push(lines[i]!.replace(/\\\|/g, '¦').split('|').slice(1, -1).map((c) => c.trim()));
  }
  return rows;
}

describe('docs/ACAP.md', () => {
  it('shows the fixture as its worked example', () => {
    const example = /```\n(##ACAP[^`]*?)```/.exec(block)?.[1];
    expect(example).toBe(fixture);
    expect(acap.diagnostics).toEqual([]);
  });

  const rows = tableRows('crawler');
  it.each(rows)('%s %s %s %s → allowed %s, line %s, %s, [%s]', (crawler, path, usage, purpose, allowed, line, source, qualifiers) => {
    if (!isAcapUsage(usage)) throw new Error(`docs/ACAP.md row names unknown usage ${usage}`);
    const v = acap.check(`https://example.com${path}`, crawler!, usage, purpose ? { purpose } : {});
    expect([String(v.allowed), String(v.line), v.source, v.qualifiers.map((q) => q.text).join(' ')]).toEqual([allowed, line, source, qualifiers]);
  });

  it('lists every diagnostic code once, in the order of ACAP_DIAGNOSTIC_CODES', () => {
    const codes = tableRows('code').map((r) => r[0]!.replace(/`/g, ''));
    expect(codes).toEqual([...ACAP_DIAGNOSTIC_CODES]);
  });

  it('prints the diagnostics example as the code reports it', () => {
    const bad = Robots.parse('ACAP-crawler: *\nACAP-allow-index: /a/ time-limit=soon\nACAP-disallow-present: /b/ max-length=10-words\nACAP-crawler: *\nACAP-crawler: bot\nACAP-allow-crawl: the-acap:resource-set:docs\n').acap!;
    for (const d of bad.diagnostics) {
      expect(block).toContain(`${d.line}  ${d.code.padEnd(22)}  ${d.message}`);
    }
    expect(bad.diagnostics).toHaveLength(4);
  });
});
