// Robots.forAgents / MultiAgentMatcher: every column equals forAgent(agent) (verdicts and lines, both profiles, every batch path), tables shared by agents that select the same groups.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Robots, MultiAgentMatcher, isValidProductToken, type Profile } from '../src/index.js';
import { WasmEngine } from '../src/wasm/batches.js';
import { AGENTS, bodyChunks, chunkBytes, urlBytes, urlText } from './reference/arbitraries.js';

const RUNS = Number(process.env.PROPERTY_RUNS ?? 400);
const PROFILES: readonly Profile[] = ['rfc', 'google'];
const encoder = new TextEncoder();

/** Agents the file generator names, `*`, and ones no generated file names. */
const ACCEPTED = [...AGENTS.filter((a) => a === '*' || isValidProductToken(a)), 'gptbot', 'ClaudeBot', 'ccbot'];

/** Every column of `got` (URL-major, `agents.length` wide) against forAgent's decideBatch of the same inputs. */
function expectColumns(robots: Robots, agents: readonly string[], count: number, got: { verdicts: Uint8Array; lines?: Uint32Array }, expected: (agent: string) => { verdicts: Uint8Array; lines: Uint32Array }): void {
  expect(got.verdicts.length).toBe(count * agents.length);
  agents.forEach((agent, j) => {
    const want = expected(agent);
    expect(want.verdicts.length, agent).toBe(count);
    for (let i = 0; i < count; i++) {
      expect(got.verdicts[i * agents.length + j], `${agent} url ${i} verdict`).toBe(want.verdicts[i]);
      if (got.lines) expect(got.lines[i * agents.length + j], `${agent} url ${i} line`).toBe(want.lines[i]);
    }
  });
  void robots;
}

describe('forAgents agrees with forAgent column by column', () => {
  for (const profile of PROFILES) {
    it(`${RUNS} generated files × agent lists × URL batches (${profile})`, () => {
      fc.assert(
        fc.property(
          bodyChunks,
          fc.array(fc.constantFrom(...ACCEPTED), { minLength: 1, maxLength: 12 }),
          fc.array(urlText, { maxLength: 40 }),
          fc.array(urlBytes, { maxLength: 6 }),
          (chunks, agents, urls, byteUrls) => {
            const robots = Robots.parse(chunkBytes(chunks), { profile });
            const multi = robots.forAgents(agents);
            expect(multi.agents).toEqual(agents);
            expect(multi.tableCount).toBeLessThanOrEqual(new Set(agents).size);
            const decided = multi.decideBatch(urls);
            expect(decided.count).toBe(urls.length);
            expectColumns(robots, agents, urls.length, decided, (a) => robots.forAgent(a).decideBatch(urls));
            expect(multi.matchBatch(urls)).toEqual(decided.verdicts);
            // Lines: LF and CRLF, raw non-UTF-8 bytes, an unterminated last line.
            const lines = chunkBytes([...urls.flatMap((u, i) => [u, i % 2 ? '\r\n' : '\n']), ...byteUrls.flatMap((b) => [b, '\n']), 'tail']);
            const byLine = multi.decideLines(lines);
            expectColumns(robots, agents, byLine.count, byLine, (a) => robots.forAgent(a).decideLines(lines));
            expect(multi.matchLines(lines)).toEqual(byLine.verdicts);
          },
        ),
        { numRuns: RUNS },
      );
    });
  }
});

describe('tables are shared by agents that select the same groups', () => {
  const robots = Robots.parse('User-agent: gptbot\nDisallow: /\n\nUser-agent: *\nDisallow: /private\n\nUser-agent: GoogleBot\nUser-agent: bingbot\nAllow: /\n');
  it('unnamed agents share the * table; agents of one group share theirs; case does not matter', () => {
    const m = robots.forAgents(['ccbot', 'claudebot', '*', 'gptbot', 'GPTBot', 'googlebot', 'bingbot']);
    expect(m.tableCount).toBe(3);
    expect(m.matchers[0]).toBe(m.matchers[1]);
    expect(m.matchers[3]).toBe(m.matchers[4]);
    expect(m.matchers[5]).toBe(m.matchers[6]);
    expect(m.matchBatch(['/private/x'])).toEqual(Uint8Array.of(0, 0, 0, 0, 0, 1, 1));
    expect(m.decideBatch(['/private/x']).lines).toEqual(Uint32Array.of(5, 5, 5, 2, 2, 9, 9));
  });
  it('duplicates keep their column', () => {
    const m = robots.forAgents(['gptbot', 'ccbot', 'gptbot']);
    expect(m.agents).toEqual(['gptbot', 'ccbot', 'gptbot']);
    expect(m.matchBatch(['/a', '/private'])).toEqual(Uint8Array.of(0, 1, 0, 0, 0, 0));
  });
  it('a single agent, or many agents of one table, answer through one table', () => {
    expect(robots.forAgents(['x']).matchBatch(['/a', '/private'])).toEqual(Uint8Array.of(1, 0));
    const m = robots.forAgents(['x', 'y', 'z']);
    expect(m.tableCount).toBe(1);
    expect(m.matchLines(encoder.encode('/a\n/private\n'))).toEqual(Uint8Array.of(1, 1, 1, 0, 0, 0));
  });
  it('an out array is filled and returned; one too small is a RangeError naming the need', () => {
    const m = robots.forAgents(['gptbot', 'ccbot']);
    const out = new Uint8Array(6).fill(9);
    expect(m.matchBatch(['/a', '/private'], out)).toBe(out);
    expect([...out]).toEqual([0, 1, 0, 0, 9, 9]);
    expect(() => m.matchBatch(['/a', '/b'], new Uint8Array(3))).toThrow(/room for 3 verdicts, 4 needed/);
    expect(() => m.matchLines(encoder.encode('/a\n/b\n'), new Uint8Array(3))).toThrow(/room for 3 verdicts, 4 needed/);
  });
});

describe('forAgents refuses what forAgent refuses', () => {
  const robots = Robots.parse('User-agent: *\nDisallow: /x\n');
  it('an invalid token is a TypeError naming its index and suggesting the token', () => {
    expect(() => robots.forAgent('Googlebot/2.1')).toThrow(TypeError);
    expect(() => robots.forAgents(['bingbot', 'Googlebot/2.1'])).toThrow(TypeError);
    expect(() => robots.forAgents(['bingbot', 'Googlebot/2.1'])).toThrow(/agents\[1\] must be a product token.*did you mean 'Googlebot'/);
    expect(() => robots.forAgents(['', 'a'])).toThrow(/agents\[0\]/);
    expect(() => robots.forAgents(['a', 7 as unknown as string])).toThrow(/agents\[1\] must be a string, got number/);
  });
  it('a non-array is a TypeError, an empty list a RangeError', () => {
    expect(() => robots.forAgents('googlebot' as unknown as string[])).toThrow(TypeError);
    expect(() => robots.forAgents([])).toThrow(RangeError);
  });
  it('bad urls and bytes throw as AgentMatcher does', () => {
    const m = robots.forAgents(['a', 'b']);
    expect(() => m.matchBatch('/x' as unknown as string[])).toThrow(TypeError);
    expect(() => m.decideBatch(['/a', 3 as unknown as string])).toThrow(/urls\[1\]|index 1/);
    expect(() => m.matchLines('/x' as unknown as Uint8Array)).toThrow(TypeError);
  });
  it('is exported as a class with the forAgents results as instances', () => {
    expect(robots.forAgents(['a'])).toBeInstanceOf(MultiAgentMatcher);
  });
});

describe('the engine: many tables per URL', () => {
  const bodies = Array.from({ length: 8 }, (_, k) => `User-agent: *\nDisallow: /p${k}\nAllow: /p${k}/open\nDisallow: /*.${k}$\n` + 'Disallow: /filler-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx*y\n'.repeat(40));
  // Escapes and uppercase too: the rfc profile rewrites them, google does not.
  const urls = Array.from({ length: 3000 }, (_, i) => `https://h/p${i % 9}/${i % 3 ? 'open' : 'x'}.${i % 8}${i % 5 ? '' : '/%7Ez'}`);
  function perTable(engine: WasmEngine, tables: Uint8Array[]): { verdicts: Uint8Array; lines: Uint32Array } {
    const verdicts = new Uint8Array(urls.length * tables.length);
    const lines = new Uint32Array(verdicts.length);
    tables.forEach((table, t) => {
      const v = new Uint8Array(urls.length);
      const l = new Uint32Array(urls.length);
      engine.matchStrings(table, urls, v, l);
      for (let i = 0; i < urls.length; i++) {
        verdicts[i * tables.length + t] = v[i]!;
        lines[i * tables.length + t] = l[i]!;
      }
    });
    return { verdicts, lines };
  }
  it('tables of both profiles in one call: each gets the URL prepared under its own flags', () => {
    const tables = bodies.flatMap((b, k) => [Robots.parse(b + (k % 2 ? 'Disallow: /%7Ez\n' : ''), { profile: PROFILES[k % 2]! }).forAgent('x').table]);
    const engine = new WasmEngine();
    const verdicts = new Uint8Array(urls.length * tables.length);
    const lines = new Uint32Array(verdicts.length);
    engine.matchStringsMulti(tables, urls, verdicts, lines);
    expect({ verdicts, lines }).toEqual(perTable(engine, tables));
    const text = encoder.encode(urls.join('\n'));
    const byLine = engine.matchAllLinesMulti(tables, text, true);
    expect(byLine.count).toBe(urls.length);
    expect({ verdicts: byLine.verdicts.slice(), lines: byLine.lines!.slice() }).toEqual(perTable(engine, tables));
  });
  it('tables that cannot be resident together are judged one by one, with the same results', () => {
    const tables = bodies.map((b) => Robots.parse(b).forAgent('x').table);
    const bytes = tables.reduce((n, t) => n + t.length, 0);
    const small = new WasmEngine({ arenaBytes: 16 << 10, arenaMaxBytes: 16 << 10 });
    expect(bytes).toBeGreaterThan(16 << 10); // the point of this test: they do not fit together
    const verdicts = new Uint8Array(urls.length * tables.length);
    const lines = new Uint32Array(verdicts.length);
    small.matchStringsMulti(tables, urls, verdicts, lines);
    const expected = perTable(new WasmEngine(), tables);
    expect({ verdicts, lines }).toEqual(expected);
    const byLine = small.matchAllLinesMulti(tables, encoder.encode(urls.join('\n') + '\n'), true);
    expect({ verdicts: byLine.verdicts.slice(), lines: byLine.lines!.slice() }).toEqual(expected);
  });
  it('batches past one call (results per call are capped) keep URL order', () => {
    const tables = bodies.slice(0, 3).map((b) => Robots.parse(b).forAgent('x').table);
    const many = Array.from({ length: 50_000 }, (_, i) => `/p${i % 4}/${i}`);
    const engine = new WasmEngine();
    const verdicts = new Uint8Array(many.length * 3);
    engine.matchStringsMulti(tables, many, verdicts, null);
    tables.forEach((table, t) => {
      const one = new Uint8Array(many.length);
      engine.matchStrings(table, many, one, null);
      for (let i = 0; i < many.length; i++) if (verdicts[i * 3 + t] !== one[i]) throw new Error(`url ${i} table ${t}`);
    });
  });
});
