// The built CLI's `diff OLD NEW [URLS]`: rows only for flipped verdicts, both deciding rules, the summary, exit 0/1/2, generated paths.
//
// Needs `npm run build` (npm test runs it first).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(root, 'dist', 'cli', 'main.js');

let dir = '';
function file(name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, body);
  return path;
}
function cli(args: string[], input = ''): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [CLI, ...args], { input, encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

const OLD = 'User-agent: *\nDisallow: /private/\nDisallow: /*.pdf$\n\nUser-agent: other\nDisallow: /\n';
const NEW = 'User-agent: *\nDisallow: /private/\nAllow: /private/ok\nDisallow: /tmp\n\nUser-agent: other\nDisallow: /\n';
let oldPath = '';
let newPath = '';

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);
  dir = mkdtempSync(join(tmpdir(), 'robotstxt-cli-diff-'));
  oldPath = file('old.txt', OLD);
  newPath = file('new.txt', NEW);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('robotstxt diff OLD NEW URLS', () => {
  it('prints only the URLs whose verdict flips, with the old and new deciding lines and rules; exit 1', () => {
    const urls = file('urls.txt', '/a.pdf\n/public\n/private/x\n/private/ok/1\n/tmp/1\r\n\n');
    const run = cli(['diff', '--agent', 'ExampleBot', oldPath, newPath, urls]);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe([
      'disallow→allow\t3\tdisallow: /*.pdf$\t0\t-\t/a.pdf',
      'disallow→allow\t2\tdisallow: /private/\t3\tallow: /private/ok\t/private/ok/1',
      'allow→disallow\t0\t-\t4\tdisallow: /tmp\t/tmp/1',
      '',
    ].join('\n'));
    expect(run.stderr).toBe('5 urls compared: 1 allow→disallow, 2 disallow→allow\n');
  });

  it('reads URLs from stdin with -, and writes JSONL', () => {
    const run = cli(['diff', '--agent', 'ExampleBot', '--format', 'jsonl', '--quiet', oldPath, newPath, '-'], '/tmp/2\n/public\n');
    expect(run.status).toBe(1);
    expect(run.stderr).toBe('');
    expect(run.stdout.trim().split('\n').map((l) => JSON.parse(l) as unknown)).toEqual([
      { change: 'allow→disallow', url: '/tmp/2', old: { line: 0, rule: null }, new: { line: 4, rule: 'disallow: /tmp' } },
    ]);
  });

  it('--agent picks the groups: nothing changes for an agent whose group did not; exit 0', () => {
    const urls = file('urls2.txt', '/a.pdf\n/tmp/1\n');
    const run = cli(['diff', '--agent', 'other', oldPath, newPath, urls]);
    expect(run).toEqual({ status: 0, stdout: '', stderr: '2 urls compared: 0 allow→disallow, 0 disallow→allow\n' });
  });
});

describe('robotstxt diff OLD NEW (no URLS)', () => {
  it("compares paths generated from both files' rules, and says so", () => {
    const run = cli(['diff', '--agent', 'ExampleBot', oldPath, newPath]);
    expect(run.status).toBe(1);
    const changed = run.stdout.trim().split('\n').map((l) => `${l.split('\t')[0]} ${l.split('\t')[5]}`);
    expect(changed).toEqual([
      'disallow→allow /x.pdf',
      'disallow→allow /private/ok',
      'disallow→allow /private/ok/x',
      'allow→disallow /tmp',
      'allow→disallow /tmp/x',
    ]);
    expect(run.stderr).toBe(`8 urls compared (no URLS given: paths generated from the rules of ${oldPath} and ${newPath}): 2 allow→disallow, 3 disallow→allow\n`);
  });

  it('exits 0 with no rows when the files agree', () => {
    const run = cli(['diff', '--agent', 'ExampleBot', '--quiet', oldPath, file('same.txt', OLD.replace('Disallow: /private/', 'Disallow: /private/\n# a comment'))]);
    expect(run).toEqual({ status: 0, stdout: '', stderr: '' });
  });
});

describe('robotstxt diff: usage errors exit 2', () => {
  it.each([
    [['diff', '--agent', 'bot'], /diff needs OLD and NEW robots.txt files, got none/],
    [['diff', '--agent', 'bot', 'only.txt'], /got only "only.txt"/],
    [['diff', 'a', 'b'], /--agent TOKEN is required/],
    [['diff', '--agent', 'Googlebot/2.1', 'a', 'b'], /did you mean --agent Googlebot/],
    [['diff', '--agent', 'bot', '/no/such/old.txt', '/no/such/new.txt'], /cannot read \/no\/such\/old.txt: no such file or directory/],
  ])('%j', (args, message) => {
    const run = cli(args);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(message);
  });

  it('a missing URL file is an error before any row', () => {
    const run = cli(['diff', '--agent', 'bot', oldPath, newPath, join(dir, 'missing-urls.txt')]);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/cannot read URLs from .*missing-urls.txt: no such file or directory/);
  });
});
