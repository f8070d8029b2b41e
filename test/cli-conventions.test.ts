// CLI conventions through the built binary (dist/cli/main.js): version, help, one option schema per command, --agent, file errors, several inputs, summary.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { closestName } from '../src/cli/command.js';
import { fileErrorText } from '../src/cli/errors.js';
import { formatRate, formatSummary } from '../src/cli/output.js';
import { CLI, runCli, type CliRun } from './helpers/cli.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = (args: string[], input = ''): CliRun => runCli(args, input);
const VERSION = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;

let dir = '';
const path = (name: string): string => join(dir, name);



/** Runs the CLI with `args` and expects `robotstxt: <message>` on stderr, nothing on stdout, status 2. */
function expectError(args: string[], message: RegExp): void {
  const r = cli(args);
  expect(r.stdout, args.join(' ')).toBe('');
  expect(r.stderr, args.join(' ')).toMatch(new RegExp(`^robotstxt: ${message.source}`));
  expect(r.status, args.join(' ')).toBe(2);
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'robotstxt-cli-conv-'));
  writeFileSync(path('robots.txt'), 'User-agent: *\nDisallow: /private/\n\nUser-agent: Googlebot\nDisallow: /nogoogle/\n');
  writeFileSync(path('a.txt'), '/a1\n/private/a2\n');
  // No line break at the end: the line still ends with the file.
  writeFileSync(path('b.txt'), '/nogoogle/b1');
  writeFileSync(path('c.txt'), '/c1\n');
  mkdirSync(path('robots'));
  writeFileSync(path('robots/a.example.txt'), 'User-agent: *\nDisallow: /x/\n');
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('version and help', () => {
  it.each([['--version'], ['-V']])('%s prints the version of package.json on stdout', (flag) => {
    const r = cli([flag]);
    expect(r).toEqual({ status: 0, stdout: `${VERSION}\n`, stderr: '' });
  });

  it('with no arguments prints the usage on stderr and exits 2', () => {
    const r = cli([]);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^Usage:\n {2}robotstxt check /);
    expect(r.stderr).toContain('robotstxt help COMMAND');
  });

  it('--help prints the usage on stdout and exits 0', () => {
    const r = cli(['--help']);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^Usage:\n/);
  });

  it.each([
    [['help', 'check']],
    [['check', '--help']],
    [['check', '-h']],
    [['check', '--robots', 'x', '--frmat', '--help']],
  ])('%j shows the options of check only, on stdout', (args) => {
    const r = cli(args);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^Usage:\n {2}robotstxt check --robots FILE\|URL/);
    expect(r.stdout).toContain('\n  --robots FILE|URL ');
    expect(r.stdout).toContain('\n  --workers N|auto ');
    for (const other of ['--robots-dir', '--missing', '--cache-hosts', '--fetch ', '--concurrency']) expect(r.stdout).not.toContain(other);
  });

  it('help classify shows classify\'s options, --missing among them', () => {
    const r = cli(['classify', '--help']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^Usage:\n {2}robotstxt classify --robots-dir DIR/);
    expect(r.stdout).toContain('\n  --missing allow|disallow ');
    expect(r.stdout).not.toContain('\n  --robots FILE|URL');
    expect(r.stdout.split('\n').every((line) => line.length <= 90)).toBe(true);
  });

  it('help for an unknown command is an error suggesting the closest one, with the usage on stderr', () => {
    const r = cli(['help', 'chek']);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^robotstxt: unknown command "chek"; did you mean check\?\n\nUsage:\n/);
  });
});

describe('one option schema per command', () => {
  const robots = (): string[] => ['check', '--robots', path('robots.txt'), '--agent', 'x'];

  it.each([
    ['check --missing', ['--missing', 'allow'], /--missing belongs to classify, not check \(robotstxt help check lists its options\)\n$/],
    ['check --cache-hosts', ['--cache-hosts', '5'], /--cache-hosts belongs to classify, not check/],
    ['check --concurrency', ['--concurrency', '2'], /--concurrency belongs to classify and fetch, not check/],
    ['a typo', ['--frmat', 'tsv'], /unknown option --frmat for check; did you mean --format\?\n$/],
    ['a swapped pair', ['--fromat=tsv'], /unknown option --fromat for check; did you mean --format\?\n$/],
    ['a prefix', ['--timeout', '5'], /unknown option --timeout for check; did you mean --timeout-ms\?\n$/],
    ['a single dash', ['-format', 'tsv'], /unknown option -format for check; did you mean --format\?\n$/],
    ['no likely option', ['--bogus'], /unknown option --bogus for check \(robotstxt help check lists its options\)\n$/],
    ['a missing value', ['--format'], /--format needs a value: --format tsv\|jsonl\n$/],
    ['an option where a value belongs', ['--format', '--quiet'], /--format needs a value \(--format tsv\|jsonl\), got the option --quiet; write --format=--quiet if that is the value\n$/],
    ['a value for a boolean', ['--quiet=yes'], /--quiet takes no value, got "yes"\n$/],
    ['an option given twice', ['--agent', 'y'], /--agent is given twice\n$/],
  ])('%s is an error, not ignored', (_name, extra, message) => {
    expectError([...robots(), ...extra], message);
  });

  it('classify --fetch refuses --workers, even 1 (one thread)', () => {
    expectError(['classify', '--fetch', '--agent', 'x', '--workers', '1'], /--workers does not apply to --fetch/);
  });

  it('no Node parseArgs text reaches the user', () => {
    for (const args of [['check', '--bogus'], ['check', '-x'], ['classify', '--robots-dir'], ['check', '--quiet=1']]) {
      const r = cli(args);
      expect(r.status).toBe(2);
      expect(r.stderr).not.toMatch(/ERR_PARSE_ARGS|Unknown option '|To specify an option argument/);
      // One line: the message, no usage dump.
      expect(r.stderr.split('\n')).toHaveLength(2);
    }
  });

  it('a value after -- is a positional, even when it starts with -', () => {
    const r = cli([...robots(), '--quiet', '--', '-'], '/private/x\n');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('disallow\t2\t/private/x\n');
  });
});

describe('--agent must be a product token (RFC 9309 §2.2.1), never a silent fallback to *', () => {
  it.each([
    ['Googlebot/2.1', /--agent must be a product token .*, got "Googlebot\/2\.1"; did you mean --agent Googlebot\?\n$/],
    [
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      /--agent must be a product token .*; did you mean --agent Googlebot\? \(--user-agent sets the HTTP User-Agent header when fetching\)\n$/,
    ],
    ['foo bar', /--agent must be a product token .*; did you mean --agent foo\?\n$/],
    ['', /--agent must be a product token .*, got "": give the token your crawler looks for/],
    ['*', /--agent must be a product token .*, got "\*": give the token/],
  ])('check --agent %j is refused', (agent, message) => {
    expectError(['check', '--robots', path('robots.txt'), '--agent', agent, path('a.txt')], message);
  });

  it('classify refuses it too', () => {
    expectError(['classify', '--robots-dir', path('robots'), '--agent', 'Googlebot/2.1'], /--agent must be a product token .*did you mean --agent Googlebot\?/);
  });

  it('a product token runs as before', () => {
    const r = cli(['check', '--robots', path('robots.txt'), '--agent', 'Googlebot', '--quiet', path('b.txt')]);
    expect(r).toEqual({ status: 0, stdout: 'disallow\t5\t/nogoogle/b1\n', stderr: '' });
  });
});

describe('file errors in words', () => {
  it.each([
    ['a missing URL file', () => ['check', '--robots', path('robots.txt'), '--agent', 'x', path('nope.txt')], () => `cannot read URLs from ${path('nope.txt')}: no such file or directory`],
    ['a directory as URL file', () => ['check', '--robots', path('robots.txt'), '--agent', 'x', dir], () => `cannot read URLs from ${dir}: is a directory`],
    ['a missing --robots', () => ['check', '--robots', path('nope.txt'), '--agent', 'x'], () => `cannot read --robots ${path('nope.txt')}: no such file or directory`],
    ['a directory as --robots', () => ['check', '--robots', dir, '--agent', 'x'], () => `cannot read --robots ${dir}: is a directory`],
    ['a missing --robots-dir', () => ['classify', '--robots-dir', path('nope'), '--agent', 'x'], () => `cannot read --robots-dir ${path('nope')}: no such file or directory`],
  ])('%s', (_name, args, message) => {
    const r = cli(args());
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`robotstxt: ${message()}\n`);
  });

  it('a bad file among several stops the run before any row is printed', () => {
    const r = cli(['check', '--robots', path('robots.txt'), '--agent', 'x', path('a.txt'), path('nope.txt')]);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`robotstxt: cannot read URLs from ${path('nope.txt')}: no such file or directory\n`);
  });

  it('maps the codes to words (EACCES cannot be provoked as root, so here)', () => {
    const withCode = (code: string): Error => Object.assign(new Error(`${code}: raw`), { code });
    expect(fileErrorText(withCode('ENOENT'))).toBe('no such file or directory');
    expect(fileErrorText(withCode('EISDIR'))).toBe('is a directory');
    expect(fileErrorText(withCode('EACCES'))).toBe('permission denied');
    expect(fileErrorText(withCode('EWHATEVER'))).toBe('EWHATEVER: raw');
  });
});

describe('several URL inputs, like cat', () => {
  it('check reads files and stdin in the order given; a file\'s last line ends with it', () => {
    const r = cli(['check', '--robots', path('robots.txt'), '--agent', 'x', path('a.txt'), '-', path('b.txt'), path('c.txt')], '/private/stdin\n/s2');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe([
      'allow\t0\t/a1', 'disallow\t2\t/private/a2', 'disallow\t2\t/private/stdin', 'allow\t0\t/s2', 'allow\t0\t/nogoogle/b1', 'allow\t0\t/c1', '',
    ].join('\n'));
    expect(r.stderr).toMatch(/^6 urls, 4 allowed, 2 disallowed, /);
  });

  it('classify too, and stdin given twice is read once', () => {
    const r = cli(['classify', '--robots-dir', path('robots'), '--agent', 'x', '--quiet', '-', path('c.txt'), '-'], 'https://a.example/x/1\n');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('disallow\t2\ta.example\thttps://a.example/x/1\nallow\t0\t\t/c1\n');
  });

  it('--workers 2 keeps the order across files', () => {
    const one = cli(['check', '--robots', path('robots.txt'), '--agent', 'x', '--workers', '2', '--chunk-bytes', '4', '--quiet', path('a.txt'), path('b.txt'), path('a.txt')]);
    expect(one.stdout).toBe('allow\t0\t/a1\ndisallow\t2\t/private/a2\nallow\t0\t/nogoogle/b1\nallow\t0\t/a1\ndisallow\t2\t/private/a2\n');
  });
});

describe('summary line', () => {
  it('says "1 url"', () => {
    const r = cli(['check', '--robots', path('robots.txt'), '--agent', 'x', path('c.txt')]);
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/^1 url, 1 allowed, 0 disallowed, \d+\.\d\d s(, [\d.]+ urls\/s)?\n$/);
  });

  it('never ends with "0 urls/s": no rate without URLs or measurable time, two digits below 10/s', () => {
    expect(formatSummary({ urls: 0, allowed: 0, disallowed: 0 }, 12)).toBe('0 urls, 0 allowed, 0 disallowed, 12.00 s');
    expect(formatSummary({ urls: 1, allowed: 1, disallowed: 0 }, 0.001)).toBe('1 url, 1 allowed, 0 disallowed, 0.00 s');
    // An interactive run: one URL typed in 8 seconds.
    expect(formatSummary({ urls: 1, allowed: 0, disallowed: 1 }, 8)).toBe('1 url, 0 allowed, 1 disallowed, 8.00 s, 0.13 urls/s');
    expect(formatRate(3, 1000)).toBe('0.003 urls/s');
    expect(formatRate(15, 1)).toBe('15 urls/s');
    expect(formatRate(2_000_000, 0.5)).toBe('4000000 urls/s');
  });

  it('an empty input prints no rate', () => {
    const r = cli(['check', '--robots', path('robots.txt'), '--agent', 'x'], '');
    expect(r.stderr).toMatch(/^0 urls, 0 allowed, 0 disallowed, \d+\.\d\d s\n$/);
  });
});

describe('closestName', () => {
  it('suggests typos and unique prefixes, not unrelated words', () => {
    const names = ['robots', 'agent', 'profile', 'format', 'only', 'timeout-ms', 'max-delay-ms', 'user-agent'];
    expect(closestName('frmat', names)).toBe('format');
    expect(closestName('agnet', names)).toBe('agent');
    expect(closestName('Format', names)).toBe('format');
    expect(closestName('max-delay', names)).toBe('max-delay-ms');
    expect(closestName('useragent', names)).toBe('user-agent');
    expect(closestName('bogus', names)).toBeNull();
    expect(closestName('x', names)).toBeNull();
  });
});
