// The built CLI's `lint FILE|URL`: text and JSON output, exit status by the worst severity, fetch outcomes as diagnostics.
//
// Exit statuses: 0 nothing or info only, 1 warnings, 3 errors, 2 usage errors (as every
// command). Needs `npm run build` (npm test runs it first).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, status, text, type TestServer } from './helpers/http-server.js';
import { CLI, spawnCli, type CliRun } from './helpers/cli.js';

const cli = (args: string[]): Promise<CliRun> => spawnCli(args);



let dir = '';
const servers: TestServer[] = [];
function file(name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, body);
  return path;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'robotstxt-cli-lint-'));
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('robotstxt lint FILE', () => {
  it('prints nothing and exits 0 for a clean file (the summary on stderr)', async () => {
    const path = file('clean.txt', 'User-agent: *\nDisallow: /private/\n');
    const run = await cli(['lint', path]);
    expect(run).toEqual({ status: 0, stdout: '', stderr: `${path}: 0 errors, 0 warnings, 0 info\n` });
  });

  it('exits 0 when only info is found', async () => {
    const path = file('info.txt', 'User-agent: *\nDisallow: /a\nDisallow: /a\n');
    const run = await cli(['lint', '--quiet', path]);
    expect(run).toEqual({ status: 0, stdout: `${path}:3: info: the same Disallow as line 2 of this group [duplicate-rule]\n`, stderr: '' });
  });

  it('exits 1 on warnings, with line and column', async () => {
    const path = file('warn.txt', 'User-agent: *\nDisallow: private\n');
    const run = await cli(['lint', path]);
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2:11: warning: .* \\[pattern-not-rooted\\]\\n$`));
    expect(run.stderr).toBe(`${path}: 0 errors, 1 warning, 0 info\n`);
  });

  it('exits 3 on errors (2 stays the usage error)', async () => {
    const path = file('error.txt', 'Disallow: /x\nUser-agent: *\nDisalow: /y\n');
    const run = await cli(['lint', path]);
    expect(run.status).toBe(3);
    expect(run.stdout.split('\n').filter(Boolean).map((l) => /\[([a-z0-9-]+)\]$/.exec(l)![1])).toEqual(['rule-before-user-agent', 'empty-group', 'key-typo']);
  });

  it('--profile google reads the typo as Google does: a warning', async () => {
    const path = file('typo.txt', 'User-agent: *\nDisalow: /y\n');
    const run = await cli(['lint', '--profile', 'google', '--format', 'json', path]);
    expect(run.status).toBe(1);
    const report = JSON.parse(run.stdout) as { source: string; profile: string; diagnostics: { code: string; severity: string; line: number; column: number }[]; counts: object };
    expect(report.source).toBe(path);
    expect(report.profile).toBe('google');
    expect(report.diagnostics.map((d) => [d.code, d.severity, d.line, d.column])).toEqual([['key-typo', 'warning', 2, 1]]);
    expect(report.counts).toEqual({ error: 0, warning: 1, info: 0 });
  });

  it.each([
    [['lint'], /lint takes one FILE or URL, got none/],
    [['lint', 'a.txt', 'b.txt'], /lint takes one FILE or URL, got "a.txt" "b.txt"/],
    [['lint', '--format', 'xml', 'a.txt'], /--format must be text or json, got "xml"/],
    [['lint', '--timeout-ms', '5', 'a.txt'], /--timeout-ms applies only when linting a URL/],
    [['lint', '/no/such/robots.txt'], /cannot read \/no\/such\/robots.txt: no such file or directory/],
  ])('usage errors exit 2: %j', async (args, message) => {
    const run = await cli(args);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(message);
  });

  it('is listed in the help', async () => {
    const run = await cli(['--help']);
    expect(run.stdout).toMatch(/\n {2}lint +report what is wrong/);
  });
});

describe('robotstxt lint URL', () => {
  it("lints the origin's robots.txt as fetched", async () => {
    const server = await startServer({ '/robots.txt': text('User-agent: *\nDisallow /x\n') });
    servers.push(server);
    const run = await cli(['lint', `${server.origin}/some/page`]);
    expect(run.status).toBe(3);
    expect(run.stdout).toBe([
      `${server.origin}/robots.txt:1: warning: this group has no Allow or Disallow rule: the crawlers it names may crawl everything (write "Disallow:" to say so) [empty-group]`,
      `${server.origin}/robots.txt:2:1: error: the line has no colon after its key: it is ignored (the google profile reads it as Disallow) [missing-colon]`,
      '',
    ].join('\n'));
  });

  it('reports a body past the parse limit from the line it starts at', async () => {
    const rule = 'Disallow: /a-rather-long-path-to-fill-the-file-with\n';
    const count = Math.ceil(512_000 / rule.length) + 10;
    const server = await startServer({ '/robots.txt': text(`User-agent: *\n${rule.repeat(count)}`) });
    servers.push(server);
    const run = await cli(['lint', '--format', 'json', server.origin]);
    const report = JSON.parse(run.stdout) as { diagnostics: { code: string; line: number }[] };
    const firstIgnored = Math.floor((512_000 - 'User-agent: *\n'.length) / rule.length) + 2;
    expect(report.diagnostics.filter((d) => d.code === 'past-parse-limit').map((d) => d.line)).toEqual([firstIgnored]);
  });

  it('a 404 is fetch-unavailable (warning, exit 1)', async () => {
    const server = await startServer({ '/robots.txt': status(404) });
    servers.push(server);
    const run = await cli(['lint', '--format', 'json', server.origin]);
    expect(run.status).toBe(1);
    const report = JSON.parse(run.stdout) as { diagnostics: { code: string; severity: string; line: number; message: string }[] };
    expect(report.diagnostics).toHaveLength(1);
    expect(report.diagnostics[0]).toMatchObject({ code: 'fetch-unavailable', severity: 'warning', line: 0 });
    expect(report.diagnostics[0]!.message).toContain('HTTP 404');
  });

  it('a 503 is fetch-unreachable (error, exit 3)', async () => {
    const server = await startServer({ '/robots.txt': status(503) });
    servers.push(server);
    const run = await cli(['lint', server.origin]);
    expect(run.status).toBe(3);
    expect(run.stdout).toMatch(new RegExp(`^${server.origin.replace(/[.]/g, '\\.')}/robots\\.txt: error: unreachable \\(HTTP 503.*\\[fetch-unreachable\\]\\n$`));
  });
});
