// `robotstxt classify --agents` through the built binary: each column equals `classify --agent` for that agent, over a directory and fetched hosts; workers, errors.
//
// Needs `npm run build` (npm test runs it first).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, spawnCli } from './helpers/cli.js';
import { startServer, status, text, type TestServer } from './helpers/http-server.js';
import { OUTCOMES_HEADER } from '../src/cli/classify/index.js';

// Agent-specific groups on one host, `*` only on another, a google-profile-only typo.
const SITE_A = 'User-agent: gptbot\nDisallow: /\nAllow: /public\n\nUser-agent: googlebot\nDisallow: /private\ndisalow: /typo\n\nUser-agent: *\nDisallow: /cgi-bin/\n';
const SITE_B = 'User-agent: *\nDisallow: /b-only\n\nUser-agent: ccbot\nDisallow: /\n';
const AGENTS = ['Googlebot', 'GPTBot', 'CCBot'];
const PATHS = ['/', '/public/x', '/private/y', '/typo', '/cgi-bin/run', '/b-only/z', '/robots.txt'];

let dir = '';
const path = (name: string): string => join(dir, name);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'robotstxt-classify-agents-'));
  mkdirSync(path('robots'));
  writeFileSync(path('robots/a.example.txt'), SITE_A);
  writeFileSync(path('robots/b.example_8080.txt'), SITE_B);
  // c: recorded unreachable (disallowed, line 0); d: recorded unavailable (allowed); e: no file.
  writeFileSync(path('robots/outcomes.tsv'), `${OUTCOMES_HEADER}\nhttps://c.example\tunreachable\t503\tc.example.txt\tserver-error\nhttps://d.example\tunavailable\t404\td.example.txt\tclient-error\n`);
  const hosts = ['https://a.example', 'http://B.example:8080', 'https://c.example', 'https://d.example', 'https://e.example'];
  const urls: string[] = [];
  for (let i = 0; i < 700; i++) urls.push(i % 97 === 5 ? `relative/${i}` : `${hosts[(i * 3 + (i >> 4)) % hosts.length]}${PATHS[i % PATHS.length]}?n=${i}`);
  writeFileSync(path('urls.txt'), `${urls.join('\n')}\n`);
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** TSV rows of a run, without the trailing newline, split into fields. */
function rowsOf(stdout: string): string[][] {
  return stdout.split('\n').slice(0, -1).map((row) => row.split('\t'));
}

/** Checks that column j of `multi` is `classify --agent AGENTS[j]`'s verdict:line, and the host and URL fields are its. */
function expectColumns(multi: string, singles: readonly string[]): void {
  const rows = rowsOf(multi);
  singles.forEach((single, j) => {
    const expected = rowsOf(single);
    expect(rows).toHaveLength(expected.length);
    rows.forEach((row, i) => {
      expect(row).toHaveLength(singles.length + 2);
      expect(row[j], `${AGENTS[j]} row ${i}`).toBe(`${expected[i]![0]}:${expected[i]![1]}`);
      expect(row.slice(singles.length)).toEqual(expected[i]!.slice(2));
    });
  });
}

describe('classify --robots-dir --agents: every column is what classify --agent says for that agent', () => {
  for (const [profile, missing] of [['rfc', 'allow'], ['google', 'disallow']] as const) {
    it(`TSV, --profile ${profile}, --missing ${missing} (small chunks, a small host cache)`, () => {
      const common = ['--robots-dir', path('robots'), '--profile', profile, '--missing', missing, '--cache-hosts', '2', '--chunk-bytes', '512', '--quiet', path('urls.txt')];
      const multi = runCli(['classify', '--agents', AGENTS.join(','), ...common]);
      expect(multi.status, multi.stderr).toBe(0);
      const singles = AGENTS.map((agent) => {
        const single = runCli(['classify', '--agent', agent, ...common]);
        expect(single.status, single.stderr).toBe(0);
        return single.stdout;
      });
      expectColumns(multi.stdout, singles);
      // The agents must disagree somewhere, or the columns would not test much.
      const rows = rowsOf(multi.stdout);
      expect(rows.some((row) => row[0]!.split(':')[0] !== row[1]!.split(':')[0])).toBe(true);
      expect(rows.some((row) => row[1]!.split(':')[0] !== row[2]!.split(':')[0])).toBe(true);
    });
  }

  it('--workers 2 writes the same bytes as one thread, summary included', () => {
    const args = ['classify', '--robots-dir', path('robots'), '--agents', AGENTS.join(','), '--chunk-bytes', '256', path('urls.txt')];
    for (const format of ['tsv', 'jsonl']) {
      const one = runCli([...args, '--format', format, '--workers', '1']);
      const two = runCli([...args, '--format', format, '--workers', '2']);
      expect(one.status, one.stderr).toBe(0);
      expect(two.status, two.stderr).toBe(0);
      expect(two.stdout).toBe(one.stdout);
      expect(two.stderr.split('\n').slice(1)).toEqual(one.stderr.split('\n').slice(1));
      expect(one.stdout.split('\n')).toHaveLength(701);
    }
  });

  it('--header names the agents, host and url; the summary adds one line per agent', () => {
    const input = 'https://a.example/public/1\nhttps://a.example/private/2\nhttps://c.example/x\nhttps://c.example/robots.txt\nhttps://d.example/x\n/rel\n';
    const r = runCli(['classify', '--robots-dir', path('robots'), '--agents', 'GPTBot,Googlebot', '--header'], input);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe([
      'GPTBot\tGooglebot\thost\turl',
      'allow:3\tallow:0\ta.example\thttps://a.example/public/1',
      'disallow:2\tdisallow:6\ta.example\thttps://a.example/private/2',
      'disallow:0\tdisallow:0\tc.example\thttps://c.example/x',
      'allow:0\tallow:0\tc.example\thttps://c.example/robots.txt',
      'allow:0\tallow:0\td.example\thttps://d.example/x',
      'allow:0\tallow:0\t\t/rel',
      '',
    ].join('\n'));
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^6 urls, 4 allowed, 2 disallowed, /);
    expect(lines.slice(1)).toEqual(['GPTBot: 4 allowed, 2 disallowed', 'Googlebot: 4 allowed, 2 disallowed']);
  });

  it('JSONL: {"url", "host", "verdicts": {agent: {verdict, line}}}; a line over --max-url-bytes is disallowed for every agent', () => {
    const input = `https://a.example/public/1\n/${'x'.repeat(40)}\n`;
    const r = runCli(['classify', '--robots-dir', path('robots'), '--agents', 'GPTBot,Googlebot', '--format', 'jsonl', '--max-url-bytes', '30', '--quiet'], input);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as unknown)).toEqual([
      { url: 'https://a.example/public/1', host: 'a.example', verdicts: { GPTBot: { verdict: 'allow', line: 3 }, Googlebot: { verdict: 'allow', line: 0 } } },
      {
        url: '\n[41 bytes over --max-url-bytes]', host: '', verdicts: { GPTBot: { verdict: 'disallow', line: 0 }, Googlebot: { verdict: 'disallow', line: 0 } },
        urlBytes: 41,
      },
    ]);
    const tsv = runCli(['classify', '--robots-dir', path('robots'), '--agents', 'GPTBot,Googlebot', '--max-url-bytes', '30', '--quiet'], input);
    expect(tsv.stdout.split('\n')[1]).toBe('disallow:0\tdisallow:0\t\t\\n[41 bytes over --max-url-bytes]');
  });
});

describe('classify --fetch --agents', () => {
  let ok: TestServer;
  let gone: TestServer;
  let down: TestServer;
  beforeAll(async () => {
    ok = await startServer({ '/robots.txt': text(SITE_A) });
    gone = await startServer({ '/robots.txt': status(404) });
    down = await startServer({ '/robots.txt': status(503) });
  });
  afterAll(async () => {
    await Promise.all([ok.close(), gone.close(), down.close()]);
  });

  it('columns equal classify --fetch --agent; unavailable hosts allowed and unreachable disallowed with line 0; outcomes in JSONL', async () => {
    const urls = [];
    for (let i = 0; i < 60; i++) urls.push(i % 11 === 3 ? `/relative/${i}` : `${[ok, gone, down][i % 3]!.origin}${PATHS[i % PATHS.length]}`);
    const input = `${urls.join('\n')}\n`;
    const common = ['--chunk-bytes', '300', '--quiet'];
    const multi = await spawnCli(['classify', '--fetch', '--agents', AGENTS.join(','), ...common], input);
    expect(multi.status, multi.stderr).toBe(0);
    const singles = [];
    for (const agent of AGENTS) singles.push((await spawnCli(['classify', '--fetch', '--agent', agent, ...common], input)).stdout);
    expectColumns(multi.stdout, singles);

    const jsonl = await spawnCli(['classify', '--fetch', '--agents', 'GPTBot,Googlebot', '--format', 'jsonl', '--quiet'], [
      `${ok.origin}/public/x`, `${gone.origin}/x`, `${down.origin}/x`, `${down.origin}/robots.txt`, 'relative',
    ].join('\n'));
    expect(jsonl.status, jsonl.stderr).toBe(0);
    const rows = jsonl.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as { verdicts: unknown; outcome: string; host: string });
    const both = (verdict: string, gpt: number, google: number): unknown => ({ GPTBot: { verdict, line: gpt }, Googlebot: { verdict, line: google } });
    expect(rows.map((row) => [row.verdicts, row.outcome])).toEqual([
      [both('allow', 3, 0), 'ok'],
      [both('allow', 0, 0), 'unavailable'],
      [both('disallow', 0, 0), 'unreachable'],
      [both('allow', 0, 0), 'unreachable'],
      [both('allow', 0, 0), 'none'],
    ]);
    expect(rows[0]!.host).toBe(ok.origin.slice('http://'.length));
  });

  it('the summary counts the fetches, then each agent', async () => {
    const r = await spawnCli(['classify', '--fetch', '--agents', 'GPTBot,Googlebot'], `${ok.origin}/private/x\n${gone.origin}/x\n`);
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe('robots.txt: 1 ok, 1 unavailable (all allowed), 0 unreachable (all disallowed)');
    expect(lines[1]).toMatch(/^2 urls, 1 allowed, 1 disallowed, /);
    expect(lines.slice(2)).toEqual(['GPTBot: 1 allowed, 1 disallowed', 'Googlebot: 1 allowed, 1 disallowed']);
  });
});

describe('classify --agents refuses what it cannot mean', () => {
  it.each([
    ['--agent and --agents', ['--agent', 'a', '--agents', 'b,c'], /^robotstxt: --agent and --agents exclude each other/],
    ['--agents and --agents-file', ['--agents', 'b', '--agents-file', 'x'], /^robotstxt: --agents and --agents-file exclude each other/],
    ['an empty list', ['--agents', ' '], /--agents names no agent/],
    ['an invalid product token, with the token in it suggested', ['--agents', 'Googlebot,GPTBot/1.0'], /--agents entry 2 must be a product token .*"GPTBot\/1\.0"; did you mean GPTBot\?/],
    ['--only', ['--agents', 'a,b', '--only', 'allowed'], /--only does not apply to --agents/],
    ['--header without --agents', ['--agent', 'a', '--header'], /--header applies only with --agents/],
    ['--header with JSONL', ['--agents', 'a', '--header', '--format', 'jsonl'], /--header applies to TSV rows only/],
  ])('%s', (_name, args, message) => {
    for (const source of [['--robots-dir', path('robots')], ['--fetch']]) {
      const r = runCli(['classify', ...source, ...args], 'https://a.example/x\n');
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(message);
    }
  });
});
