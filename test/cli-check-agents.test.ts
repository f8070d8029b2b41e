// `robotstxt check --agents` through the built binary: each column equals `check --agent` for that agent, rows, escaping, errors.
//
// Needs `npm run build` (npm test runs it first).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, spawnCli } from './helpers/cli.js';
import { startServer, status, text } from './helpers/http-server.js';

// Groups for some agents, a `*` group, a typo (`disalow`) and a group line form the google
// profile accepts but RFC 9309 does not, so the two profiles give different lines.
const ROBOTS = [
  'User-agent: gptbot',
  'Disallow: /',
  'Allow: /public',
  '',
  'User-agent: googlebot',
  'User-agent: bingbot',
  'Disallow: /private',
  'Allow: /private/ok',
  'disalow: /typo',
  '',
  'User-agent: *',
  'Disallow: /cgi-bin/',
  'Disallow: /*.pdf$',
  'Allow: /cgi-bin/ok',
  '',
].join('\n');

const URLS = [
  '/', '/public/page', '/private/x', '/private/ok/y', '/typo', '/cgi-bin/run', '/cgi-bin/ok', '/doc.pdf', '/doc.pdf?x',
  'https://example.com/private/x', 'https://example.com/cgi-bin/a%2Fb', '/%70rivate/x', '', 'relative/path', '/public',
];
const AGENTS = ['Googlebot', 'GPTBot', 'CCBot', 'bingbot'];

let dir = '';
const path = (name: string): string => join(dir, name);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'robotstxt-agents-'));
  writeFileSync(path('robots.txt'), ROBOTS);
  writeFileSync(path('urls.txt'), `${URLS.join('\n')}\n`);
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** TSV rows of a run, without the trailing newline, split into fields. */
function rowsOf(stdout: string): string[][] {
  return stdout.split('\n').slice(0, -1).map((row) => row.split('\t'));
}

describe('check --agents: every column is what check --agent says for that agent', () => {
  for (const profile of ['rfc', 'google']) {
    it(`TSV, --profile ${profile} (small chunks, so a run spans many)`, () => {
      const multi = runCli(['check', '--robots', path('robots.txt'), '--agents', AGENTS.join(','), '--profile', profile, '--chunk-bytes', '16', path('urls.txt')]);
      expect(multi.status, multi.stderr).toBe(0);
      const rows = rowsOf(multi.stdout);
      expect(rows).toHaveLength(URLS.length);
      AGENTS.forEach((agent, j) => {
        const single = runCli(['check', '--robots', path('robots.txt'), '--agent', agent, '--profile', profile, '--quiet', path('urls.txt')]);
        expect(single.status, single.stderr).toBe(0);
        const expected = rowsOf(single.stdout);
        rows.forEach((row, i) => {
          expect(row).toHaveLength(AGENTS.length + 1);
          expect(row[j], `${agent} ${URLS[i]}`).toBe(`${expected[i]![0]}:${expected[i]![1]}`);
          expect(row[AGENTS.length]).toBe(expected[i]![2]);
        });
      });
      // The two profiles must differ somewhere, or this would not test the profile.
      const other = runCli(['check', '--robots', path('robots.txt'), '--agents', AGENTS.join(','), '--profile', profile === 'rfc' ? 'google' : 'rfc', '--quiet', path('urls.txt')]);
      expect(other.stdout).not.toBe(multi.stdout);
    });

    it(`JSONL, --profile ${profile}: {"url", "verdicts": {agent: {verdict, line}}} in the given order`, () => {
      const multi = runCli(['check', '--robots', path('robots.txt'), '--agents', AGENTS.join(','), '--profile', profile, '--format', 'jsonl', '--quiet', path('urls.txt')]);
      expect(multi.status, multi.stderr).toBe(0);
      const rows = multi.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as { url: string; verdicts: Record<string, unknown> });
      const singles = AGENTS.map((agent) =>
        runCli(['check', '--robots', path('robots.txt'), '--agent', agent, '--profile', profile, '--format', 'jsonl', '--quiet', path('urls.txt')])
          .stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as { verdict: string; line: number; url: string }));
      expect(rows).toEqual(URLS.map((url, i) => ({
        url,
        verdicts: Object.fromEntries(AGENTS.map((agent, j) => [agent, { verdict: singles[j]![i]!.verdict, line: singles[j]![i]!.line }])),
      })));
      expect(Object.keys(rows[0]!.verdicts)).toEqual(AGENTS);
    });
  }

  it('--header prints the agents then url; the summary adds one line per agent', () => {
    const r = runCli(['check', '--robots', path('robots.txt'), '--agents', 'GPTBot, Googlebot', '--header'], '/public\n/private/x\n/cgi-bin/x\n');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe('GPTBot\tGooglebot\turl\nallow:3\tallow:0\t/public\ndisallow:2\tdisallow:7\t/private/x\ndisallow:2\tallow:0\t/cgi-bin/x\n');
    const lines = r.stderr.trimEnd().split('\n');
    // A URL counts as allowed when every agent may fetch it.
    expect(lines[0]).toMatch(/^3 urls, 1 allowed, 2 disallowed, /);
    expect(lines.slice(1)).toEqual(['GPTBot: 1 allowed, 2 disallowed', 'Googlebot: 2 allowed, 1 disallowed']);
  });

  it('--agents-file: one token per line, comments and blank lines skipped; same rows as --agents', () => {
    writeFileSync(path('agents.txt'), '# crawlers to audit\nGooglebot\n\n  GPTBot   # OpenAI\r\nCCBot\n');
    const fromFile = runCli(['check', '--robots', path('robots.txt'), '--agents-file', path('agents.txt'), '--header', '--quiet', path('urls.txt')]);
    const fromList = runCli(['check', '--robots', path('robots.txt'), '--agents', 'Googlebot,GPTBot,CCBot', '--header', '--quiet', path('urls.txt')]);
    expect(fromFile.status, fromFile.stderr).toBe(0);
    expect(fromFile.stdout).toBe(fromList.stdout);
    expect(fromFile.stdout.split('\n')[0]).toBe('Googlebot\tGPTBot\tCCBot\turl');
  });
});

describe('check --agents writes the URL field exactly as check --agent does', () => {
  // TAB, CR inside a line, a backslash, other control bytes, DEL, ill-formed and well-formed UTF-8.
  const input = Buffer.concat([
    Buffer.from('https://example.com/a\tb\n/private/\r\\x\r\n/c\\d\x01\x1f\x7f\n'),
    Buffer.from([0x2f, 0xff, 0xc3, 0xa9, 0xe2, 0x82, 0x0a]),
    Buffer.from('/"quoted"'), // no final line break
  ]);
  it('TSV (PostgreSQL text COPY escapes)', () => {
    const single = runCli(['check', '--robots', path('robots.txt'), '--agent', 'Googlebot', '--quiet'], input);
    const multi = runCli(['check', '--robots', path('robots.txt'), '--agents', 'Googlebot,GPTBot', '--quiet'], input);
    expect(multi.status, multi.stderr).toBe(0);
    const urls = rowsOf(single.stdout).map((row) => row[2]);
    expect(urls[0]).toBe('https://example.com/a\\tb');
    expect(rowsOf(multi.stdout).map((row) => row[2])).toEqual(urls);
    expect(rowsOf(multi.stdout).map((row) => row[0])).toEqual(rowsOf(single.stdout).map((row) => `${row[0]}:${row[1]}`));
  });

  it('JSONL (the same JSON string text, \\ufffd for each ill-formed byte)', () => {
    const single = runCli(['check', '--robots', path('robots.txt'), '--agent', 'Googlebot', '--format', 'jsonl', '--quiet'], input);
    const multi = runCli(['check', '--robots', path('robots.txt'), '--agents', 'Googlebot', '--format', 'jsonl', '--quiet'], input);
    expect(multi.status, multi.stderr).toBe(0);
    const urlText = (line: string): string => /"url":("(?:[^"\\]|\\.)*")/.exec(line)![1]!;
    const expected = single.stdout.trimEnd().split('\n').map(urlText);
    expect(expected).toHaveLength(5);
    expect(multi.stdout.trimEnd().split('\n').map(urlText)).toEqual(expected);
  });
});

describe('check --agents and --max-url-bytes', () => {
  it('a line over the limit gets the marker row, disallowed for every agent', () => {
    const input = `/public\n/${'x'.repeat(40)}\n/private/ok\n`;
    const args = ['check', '--robots', path('robots.txt'), '--agents', 'GPTBot,Googlebot', '--max-url-bytes', '20'];
    const tsv = runCli(args, input);
    expect(tsv.status, tsv.stderr).toBe(0);
    expect(tsv.stdout).toBe('allow:3\tallow:0\t/public\ndisallow:0\tdisallow:0\t\\n[41 bytes over --max-url-bytes]\ndisallow:2\tallow:8\t/private/ok\n');
    expect(tsv.stderr.trimEnd().split('\n').slice(1)).toEqual(['GPTBot: 1 allowed, 2 disallowed', 'Googlebot: 2 allowed, 1 disallowed']);
    expect(tsv.stderr).toMatch(/^3 urls, 1 allowed, 2 disallowed, 1 url over --max-url-bytes, /);
    const jsonl = runCli([...args, '--format', 'jsonl', '--quiet'], input);
    expect(JSON.parse(jsonl.stdout.split('\n')[1]!)).toEqual({
      url: '\n[41 bytes over --max-url-bytes]',
      verdicts: { GPTBot: { verdict: 'disallow', line: 0 }, Googlebot: { verdict: 'disallow', line: 0 } },
      urlBytes: 41,
    });
  });
});

describe('check --agents with a fetched robots.txt', () => {
  it('ok rows carry "outcome": "ok"; unreachable rows line 0 and "outcome": "unreachable"', async () => {
    const ok = await startServer({ '/robots.txt': text(ROBOTS) });
    const down = await startServer({ '/robots.txt': status(503) });
    try {
      const okRun = await spawnCli(['check', '--robots', ok.origin, '--agents', 'GPTBot,Googlebot', '--format', 'jsonl', '--quiet'], '/public\n');
      expect(JSON.parse(okRun.stdout)).toEqual({
        url: '/public', verdicts: { GPTBot: { verdict: 'allow', line: 3 }, Googlebot: { verdict: 'allow', line: 0 } }, outcome: 'ok',
      });
      const downRun = await spawnCli(['check', '--robots', down.origin, '--agents', 'GPTBot,Googlebot', '--quiet'], '/x\n/robots.txt\n');
      expect(downRun.stdout).toBe('disallow:0\tdisallow:0\t/x\nallow:0\tallow:0\t/robots.txt\n');
    } finally {
      await ok.close();
      await down.close();
    }
  });
});

describe('check --agents refuses what it cannot mean', () => {
  const robots = (): string[] => ['check', '--robots', path('robots.txt')];
  it.each([
    ['--agent and --agents', ['--agent', 'a', '--agents', 'b,c'], /^robotstxt: --agent and --agents exclude each other/],
    ['--agents and --agents-file', ['--agents', 'b', '--agents-file', 'x'], /^robotstxt: --agents and --agents-file exclude each other/],
    ['a bad token, named', ['--agents', 'Googlebot,GPTBot/1.0'], /--agents entry 2 must be a product token .*"GPTBot\/1\.0"; did you mean GPTBot\?/],
    ['an empty list', ['--agents', ''], /--agents names no agent/],
    ['an empty entry', ['--agents', 'a,,b'], /--agents entry 2 is empty/],
    ['the same agent twice', ['--agents', 'GPTBot,gptbot'], /--agents entry 2 \(gptbot\) names the same agent as entry 1/],
    ['--only', ['--agents', 'a,b', '--only', 'allowed'], /--only does not apply to --agents/],
    ['--workers', ['--agents', 'a,b', '--workers', '2'], /--workers does not apply to --agents/],
    ['--header without --agents', ['--agent', 'a', '--header'], /--header applies only with --agents/],
    ['--header with JSONL', ['--agents', 'a', '--header', '--format', 'jsonl'], /--header applies to TSV rows only/],
  ])('%s', (_name, args, message) => {
    const r = runCli([...robots(), ...args], '/x\n');
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
  });

  it('--agents-file: a bad token names its line; a file of comments only names no agent; a missing file', () => {
    writeFileSync(path('bad-agents.txt'), '# list\nGooglebot\n\nMozilla/5.0 (compatible)\n');
    const bad = runCli([...robots(), '--agents-file', path('bad-agents.txt')], '/x\n');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain(`--agents-file ${path('bad-agents.txt')} line 4 must be a product token`);
    writeFileSync(path('no-agents.txt'), '# nothing\n\n');
    expect(runCli([...robots(), '--agents-file', path('no-agents.txt')], '/x\n').stderr).toMatch(/names no agent/);
    const missing = runCli([...robots(), '--agents-file', path('missing.txt')], '/x\n');
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/cannot read --agents-file .*missing\.txt/);
  });
});
