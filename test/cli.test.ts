// The built CLI (dist/cli/main.js) as a user runs it: check and classify, inputs, formats, filters, workers, errors.
//
// Every row is compared with `explain()` of the library, so the CLI and the API agree
// verdict for verdict and line for line. Needs `npm run build` (npm test runs it first).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Robots } from '../src/index.js';
import { CLI, runCli, type CliRun } from './helpers/cli.js';

const cli = (args: string[], input?: string | Buffer): CliRun => runCli(args, input);

const ROBOTS = 'User-agent: *\nDisallow: /private/\nAllow: /private/press/\nDisallow: /*.pdf$\n\nUser-agent: FooBot\nDisallow: /\n';
const URLS = [
  'https://www.example.com/',
  'https://www.example.com/private/a',
  'https://www.example.com/private/press/b',
  '/doc.pdf',
  '/doc.pdf?x',
  'https://www.example.com/robots.txt',
];

let dir = '';
const path = (name: string): string => join(dir, name);



/** The row `check` must print for `url`, from the library. */
function checkRow(body: string, agent: string, url: string, profile: 'rfc' | 'google' = 'rfc'): string {
  const e = Robots.parse(body, { profile }).explain(url, agent);
  return `${e.allowed ? 'allow' : 'disallow'}\t${e.line}\t${url}`;
}

function rowsOf(stdout: string): string[] {
  const rows = stdout.split('\n');
  expect(rows.pop(), 'output ends with a line break').toBe('');
  return rows;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'robotstxt-cli-'));
  writeFileSync(path('robots.txt'), ROBOTS);
  writeFileSync(path('urls.txt'), `${URLS.join('\n')}\n`);
  mkdirSync(path('robots'));
  writeFileSync(path('robots/a.example.txt'), 'User-agent: *\nDisallow: /a/\n');
  writeFileSync(path('robots/b.example_8080.txt'), 'User-agent: *\nDisallow: /b/\n');
  writeFileSync(path('robots/[2001:db8::1]_8443.txt'), 'User-agent: *\nDisallow: /v6/\n');
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('check', () => {
  const expected = URLS.map((u) => checkRow(ROBOTS, 'ExampleBot', u));

  it('reads a URL file and prints one row per line, in order, as explain() decides', () => {
    const r = cli(['check', '--robots', path('robots.txt'), '--agent', 'ExampleBot', path('urls.txt')]);
    expect(r.status).toBe(0);
    expect(rowsOf(r.stdout)).toEqual(expected);
    // The rate is left out of a run too short to time (see formatRate).
    expect(r.stderr).toMatch(/^6 urls, 4 allowed, 2 disallowed, \d+\.\d\d s(, \d+ urls\/s)?\n$/);
  });

  it.each([
    ['stdin (no argument)', [] as string[]],
    ['stdin (-)', ['-']],
  ])('reads %s', (_name, extra) => {
    const r = cli(['check', '--robots', path('robots.txt'), '--agent', 'ExampleBot', '--quiet', ...extra], `${URLS.join('\n')}\n`);
    expect(r.status).toBe(0);
    expect(rowsOf(r.stdout)).toEqual(expected);
    expect(r.stderr).toBe('');
  });

  it('takes CRLF input and does not echo the CR; a last line needs no line break', () => {
    const r = cli(['check', '--robots', path('robots.txt'), '--agent', 'ExampleBot', '--quiet'], URLS.join('\r\n'));
    expect(rowsOf(r.stdout)).toEqual(expected);
  });

  it('judges an empty line as the URL "" (a row per input line, so rows pair with lines)', () => {
    const r = cli(['check', '--robots', path('robots.txt'), '--agent', 'ExampleBot', '--quiet'], '/private/x\n\n\r\n/ok\n');
    expect(rowsOf(r.stdout)).toEqual(['disallow\t2\t/private/x', 'allow\t0\t', 'allow\t0\t', 'allow\t0\t/ok']);
  });

  it('uses the agent and the profile asked for', () => {
    const foo = cli(['check', '--robots', path('robots.txt'), '--agent', 'FooBot', '--quiet', path('urls.txt')]);
    expect(rowsOf(foo.stdout)).toEqual(URLS.map((u) => checkRow(ROBOTS, 'FooBot', u)));
    const google = cli(['check', '--robots', path('robots.txt'), '--agent', 'ExampleBot', '--profile', 'google', '--quiet', path('urls.txt')]);
    expect(rowsOf(google.stdout)).toEqual(URLS.map((u) => checkRow(ROBOTS, 'ExampleBot', u, 'google')));
  });

  it('--format jsonl writes one JSON object per line', () => {
    const r = cli(['check', '--robots', path('robots.txt'), '--agent', 'ExampleBot', '--format', 'jsonl', '--quiet'], '/private/"q"\\\n/ok\n');
    expect(rowsOf(r.stdout).map((l) => JSON.parse(l))).toEqual([
      { verdict: 'disallow', line: 2, url: '/private/"q"\\' },
      { verdict: 'allow', line: 0, url: '/ok' },
    ]);
  });

  it.each([
    ['allowed', (row: string) => row.startsWith('allow\t')],
    ['disallowed', (row: string) => row.startsWith('disallow\t')],
  ])('--only %s keeps those rows; the summary still counts every URL', (only, keep) => {
    const r = cli(['check', '--robots', path('robots.txt'), '--agent', 'ExampleBot', '--only', only, path('urls.txt')]);
    expect(rowsOf(r.stdout)).toEqual(expected.filter(keep));
    expect(r.stderr).toMatch(/^6 urls, 4 allowed, 2 disallowed,/);
  });
});

/** A few thousand URLs over several hosts (one without a file, some relative), in a file. */
function manyUrls(count: number): string[] {
  const hosts = ['a.example', 'A.Example', 'b.example:8080', 'b.example', 'c.example', '[2001:db8::1]:8443'];
  return Array.from({ length: count }, (_, i) => {
    if (i % 97 === 0) return `/a/relative/${i}`;
    const host = hosts[i % hosts.length]!;
    const dirs = ['a', 'b', 'v6', 'x'];
    return `https://${host}/${dirs[(i >> 2) % dirs.length]}/${i}`;
  });
}

describe('classify', () => {
  const hostRobots: Record<string, string> = {
    'a.example': 'User-agent: *\nDisallow: /a/\n',
    'b.example:8080': 'User-agent: *\nDisallow: /b/\n',
    '[2001:db8::1]:8443': 'User-agent: *\nDisallow: /v6/\n',
  };
  function classifyRow(url: string, missing: 'allow' | 'disallow'): string {
    const host = /^https:\/\/([^/]+)/.exec(url)?.[1]?.toLowerCase() ?? '';
    const body = hostRobots[host];
    if (body === undefined) return `${missing}\t0\t${host}\t${url}`;
    const e = Robots.parse(body).explain(url, 'ExampleBot');
    return `${e.allowed ? 'allow' : 'disallow'}\t${e.line}\t${host}\t${url}`;
  }

  it('judges each URL against DIR/<host>.txt (lowercased, :port as _port, IPv6 in brackets)', () => {
    const list = manyUrls(300);
    const r = cli(['classify', '--robots-dir', path('robots'), '--agent', 'ExampleBot', '--quiet'], `${list.join('\n')}\n`);
    expect(r.status).toBe(0);
    expect(rowsOf(r.stdout)).toEqual(list.map((u) => classifyRow(u, 'allow')));
  });

  it('--missing disallow disallows hosts without a file (RFC 9309 would allow them)', () => {
    const list = ['https://nofile.example/x', 'https://a.example/a/1', 'https://a.example/ok'];
    const r = cli(['classify', '--robots-dir', path('robots'), '--agent', 'ExampleBot', '--missing', 'disallow', '--quiet'], list.join('\n'));
    expect(rowsOf(r.stdout)).toEqual(list.map((u) => classifyRow(u, 'disallow')));
  });

  it('--format jsonl has a host key; --only filters', () => {
    const r = cli(
      ['classify', '--robots-dir', path('robots'), '--agent', 'ExampleBot', '--format', 'jsonl', '--only', 'disallowed', '--quiet'],
      'https://A.example/a/1\nhttps://a.example/ok\n',
    );
    expect(rowsOf(r.stdout).map((l) => JSON.parse(l))).toEqual([{ verdict: 'disallow', line: 2, host: 'a.example', url: 'https://A.example/a/1' }]);
  });
});

describe('--workers keeps input order', () => {
  it.each([
    ['check', (file: string) => ['check', '--robots', path('robots.txt'), '--agent', 'ExampleBot', file]],
    ['classify', (file: string) => ['classify', '--robots-dir', path('robots'), '--agent', 'ExampleBot', file]],
    ['classify --only disallowed', (file: string) => ['classify', '--robots-dir', path('robots'), '--agent', 'ExampleBot', '--only', 'disallowed', file]],
  ])('%s: --workers 2 prints what --workers 1 prints, over many small chunks', (_name, args) => {
    // Every 700th URL is 9 KB long: the chunks holding one outgrow the pool's recycled
    // chunk and rows buffers (stdout is a pipe here, so rows buffers are recycled).
    const list = manyUrls(5_000).map((u, i) => (i % 700 === 350 ? `${u}/${'x'.repeat(9000)}` : u));
    writeFileSync(path('many.txt'), `${list.join('\n')}\n`);
    // 4 KiB chunks: about 40 chunks, spread round-robin over the two workers.
    const one = cli([...args(path('many.txt')), '--workers', '1', '--chunk-bytes', '4096', '--quiet']);
    const two = cli([...args(path('many.txt')), '--workers', '2', '--chunk-bytes', '4096', '--quiet']);
    expect(one.status).toBe(0);
    expect(two.status).toBe(0);
    expect(rowsOf(one.stdout).length).toBeGreaterThan(args('').includes('--only') ? 100 : list.length - 1);
    expect(two.stdout).toBe(one.stdout);
  });
});

describe('errors: a message on stderr and a non-zero exit', () => {
  it.each([
    ['a missing --robots file', ['check', '--robots', '/nonexistent/robots.txt', '--agent', 'x'], /cannot read --robots \/nonexistent\/robots\.txt: no such file or directory/],
    ['a missing URL file', ['check', '--robots', 'ROBOTS', '--agent', 'x', '/nonexistent/urls.txt'], /cannot read URLs from \/nonexistent\/urls\.txt: no such file or directory/],
    ['a missing --robots-dir', ['classify', '--robots-dir', '/nonexistent/dir', '--agent', 'x'], /cannot read --robots-dir \/nonexistent\/dir: no such file or directory/],
    ['an unknown flag', ['check', '--robots', 'ROBOTS', '--agent', 'x', '--bogus'], /unknown option --bogus for check/],
    ['a bad --format', ['check', '--robots', 'ROBOTS', '--agent', 'x', '--format', 'csv'], /--format must be tsv or jsonl, got "csv"/],
    ['a bad --workers', ['check', '--robots', 'ROBOTS', '--agent', 'x', '--workers', '0'], /--workers must be a positive integer or auto, got "0"/],
    ['no --agent', ['check', '--robots', 'ROBOTS'], /--agent TOKEN is required/],
    ['an unknown command', ['chek'], /unknown command "chek"/],
  ])('%s', (_name, args, message) => {
    const r = cli(args.map((a) => (a === 'ROBOTS' ? path('robots.txt') : a)), '');
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(new RegExp(`^robotstxt: ${message.source}`));
  });
});

describe('as a pipeline filter', () => {
  it('stops quietly when the reader goes away (EPIPE on stdout, e.g. | head)', () => {
    const lines = Array.from({ length: 200_000 }, (_, i) => `/private/${i}`).join('\n');
    writeFileSync(path('big.txt'), lines);
    const r = spawnSync('bash', ['-c', `set -o pipefail; node '${CLI}' check --robots '${path('robots.txt')}' --agent x '${path('big.txt')}' | head -n 2`], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.stdout).toBe('disallow\t2\t/private/0\ndisallow\t2\t/private/1\n');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});

describe('progress line and summary (units of src/cli/progress.ts, output.ts)', () => {
  it('draws a bar with rate and ETA for a file, count and rate for a pipe, and clears itself', async () => {
    const { TtyProgress } = await import('../src/cli/progress.js');
    const { formatSummary } = await import('../src/cli/output.js');
    for (const [columns, total] of [[120, 1000], [0, null]] as const) {
      const writes: string[] = [];
      const progress = new TtyProgress({ write: (t: string) => writes.push(t) > 0, columns }, total);
      progress.update({ urls: 1500, allowed: 1000, disallowed: 500 }, 500);
      progress.update({ urls: 3000, allowed: 2000, disallowed: 1000 }, 1000); // within 200 ms: not drawn
      expect(writes).toHaveLength(1);
      expect(writes[0]).toMatch(total === null ? /^\r1\.5k urls {2}[\d.]+[kMG]? urls\/s +$/ : /^\r\[#{12}-{12}\] {2}50\.0% {2}1\.5k urls {2}.+ETA \d:\d\d:\d\d +$/);
      // A terminal that reports no width (columns 0) still gets a usable line.
      expect(writes[0]!.length).toBe(1 + Math.max(40, (columns || 80) - 1));
      progress.finish();
      expect(writes[1]).toMatch(/^\r +\r$/);
    }
    expect(formatSummary({ urls: 10, allowed: 7, disallowed: 3 }, 0.5)).toBe('10 urls, 7 allowed, 3 disallowed, 0.50 s, 20 urls/s');
  });
});
