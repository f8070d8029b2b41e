// robots files from disk: regular files only, read up to the parse limit + 1 bytes; FIFOs, devices and directories refused without blocking.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Robots, DEFAULT_MAX_BYTES } from '../src/robots.js';
import { NotRegularFileError, readRobotsFile, SharedFileCount } from '../src/cli/robots-file.js';
import { formatUnreadable } from '../src/cli/classify.js';
import { CLI, runCli, type CliRun } from './helpers/cli.js';

const cli = (args: string[], input = ''): CliRun => runCli(args, input, 30_000);
const RULES = 'User-agent: *\nDisallow: /private/\n';
/** Far past the parse limit, yet sparse: it takes no disk space. */
const BIG = 200 << 20;

let dir = '';
const path = (name: string): string => join(dir, name);



/** A regular file of `RULES` followed by zeros up to `size` bytes (a hole: nothing written). */
function sparseRobots(name: string, size: number): string {
  writeFileSync(path(name), RULES);
  truncateSync(path(name), size);
  return path(name);
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'robotstxt-robots-files-'));
  execFileSync('mkfifo', [path('fifo.txt')]);
  mkdirSync(path('robots'));
  writeFileSync(path('robots/ok.example.txt'), RULES);
  execFileSync('mkfifo', [path('robots/fifo.example.txt')]);
  mkdirSync(path('robots/dir.example.txt'));
  sparseRobots('robots/big.example.txt', BIG);
  writeFileSync(path('urls.txt'), ['ok', 'fifo', 'dir', 'big'].flatMap((h) => [`https://${h}.example/private/x`, `https://${h}.example/open`]).join('\n') + '\n');
}, 30_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('readRobotsFile', () => {
  it('reads a large file only up to the parse limit + 1 bytes, so that the parse sees the cut', () => {
    const bytes = readRobotsFile(sparseRobots('big.txt', BIG));
    expect(bytes.length).toBe(DEFAULT_MAX_BYTES + 1);
    const robots = Robots.parse(bytes);
    expect(robots.truncated).toBe(true);
    expect(robots.isAllowed('https://a.example/private/x', 'ExampleBot')).toBe(false);
  });

  it('reads a file of exactly the limit whole, and its parse is not truncated', () => {
    const bytes = readRobotsFile(sparseRobots('exact.txt', DEFAULT_MAX_BYTES));
    expect(bytes.length).toBe(DEFAULT_MAX_BYTES);
    expect(Robots.parse(bytes).truncated).toBe(false);
  });

  it('reads a small file whole, with a configured limit too', () => {
    writeFileSync(path('small.txt'), RULES);
    expect(Buffer.from(readRobotsFile(path('small.txt'))).toString()).toBe(RULES);
    expect(readRobotsFile(path('small.txt'), 4).length).toBe(5);
  });

  it.each([
    ['a FIFO', () => path('fifo.txt'), 'is a FIFO, not a regular file'],
    ['a character device', () => '/dev/zero', 'is a character device, not a regular file'],
    ['a directory', () => dir, 'is a directory'],
  ])('refuses %s without reading (or blocking)', (_name, file, message) => {
    let caught: unknown;
    try {
      readRobotsFile(file());
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(NotRegularFileError);
    expect((caught as Error).message).toBe(message);
  });

  it('passes other errors through (a missing file)', () => {
    expect(() => readRobotsFile(path('nope.txt'))).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });
});

describe('SharedFileCount', () => {
  it('counts each path once and keeps the first', () => {
    const count = new SharedFileCount(SharedFileCount.buffer());
    expect(count.firstFile).toBeNull();
    count.add('a.txt', 'is a FIFO, not a regular file');
    count.add('b.txt', 'is a directory');
    count.add('a.txt', 'is a FIFO, not a regular file');
    expect(count.count).toBe(2);
    expect(count.firstFile).toBe('a.txt: is a FIFO, not a regular file');
    // Another view of the same memory (as a worker has) sees the same count.
    expect(new SharedFileCount(count.shared).count).toBe(2);
  });
});

describe('check --robots', () => {
  it.each([
    ['a FIFO', () => path('fifo.txt'), 'is a FIFO, not a regular file'],
    ['/dev/zero (a device without end)', () => '/dev/zero', 'is a character device, not a regular file'],
    ['a directory', () => dir, 'is a directory'],
  ])('%s is one clear error, exit 2, never a hang or an unbounded read', (_name, file, message) => {
    const r = cli(['check', '--robots', file(), '--agent', 'ExampleBot'], '/x\n');
    expect(r).toEqual({ status: 2, stdout: '', stderr: `robotstxt: cannot read --robots ${file()}: ${message}\n` });
  });

  it('a 200 MB file is read up to the limit: its rules apply, and a note says it was cut', () => {
    const file = path('big.txt');
    const r = cli(['check', '--robots', file, '--agent', 'ExampleBot', '--quiet'], '/private/x\n/open\n');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('disallow\t2\t/private/x\nallow\t0\t/open\n');
    expect(r.stderr).toBe(
      `robotstxt: --robots ${file} is over ${DEFAULT_MAX_BYTES} bytes (--max-robots-bytes): only the lines within the first ${DEFAULT_MAX_BYTES} are used (RFC 9309 §2.5)\n`,
    );
  });
});

describe('classify --robots-dir with host files that are not regular files', () => {
  const expectedRows = [
    'disallow\t2\tok.example\thttps://ok.example/private/x',
    'allow\t0\tok.example\thttps://ok.example/open',
    // Not readable: disallowed like an unreachable robots.txt, line 0 (no file decided).
    'disallow\t0\tfifo.example\thttps://fifo.example/private/x',
    'disallow\t0\tfifo.example\thttps://fifo.example/open',
    'disallow\t0\tdir.example\thttps://dir.example/private/x',
    'disallow\t0\tdir.example\thttps://dir.example/open',
    // Read up to the limit: its rules apply.
    'disallow\t2\tbig.example\thttps://big.example/private/x',
    'allow\t0\tbig.example\thttps://big.example/open',
  ];

  it.each([
    ['in this thread', []],
    ['in two workers, small chunks (each file counted once)', ['--workers', '2', '--chunk-bytes', '64']],
  ])('%s: the run goes on, those hosts are disallowed (line 0), and a note counts the files', (_name, extra) => {
    const r = cli(['classify', '--robots-dir', path('robots'), '--agent', 'ExampleBot', '--quiet', ...extra, path('urls.txt')]);
    expect(r.status).toBe(0);
    expect(r.stdout.split('\n').slice(0, -1)).toEqual(expectedRows);
    expect(r.stderr).toMatch(/^robotstxt: 2 robots files unreadable \(not a regular file; their hosts' URLs disallowed, line 0\), first: /);
    expect(r.stderr).toMatch(/(fifo\.example\.txt: is a FIFO, not a regular file|dir\.example\.txt: is a directory)\n/);
    // The large host file is read up to the limit, and counted once across the threads.
    expect(r.stderr).toMatch(
      new RegExp(`\\nrobotstxt: 1 robots file cut at --max-robots-bytes \\(${DEFAULT_MAX_BYTES}\\): .*, first: .*big\\.example\\.txt: over ${DEFAULT_MAX_BYTES} bytes\\n$`),
    );
  });

  it('--missing allow does not change their verdict (JSONL rows too)', () => {
    const r = cli(['classify', '--robots-dir', path('robots'), '--agent', 'ExampleBot', '--quiet', '--missing', 'allow', '--format', 'jsonl', path('urls.txt')]);
    expect(r.status).toBe(0);
    const rows = r.stdout.split('\n').slice(0, -1).map((line) => JSON.parse(line) as { verdict: string; line: number; host: string });
    expect(rows.filter((row) => row.host === 'fifo.example' || row.host === 'dir.example').map((row) => [row.verdict, row.line])).toEqual(
      Array.from({ length: 4 }, () => ['disallow', 0]),
    );
  });

  it('formatUnreadable says one file or several', () => {
    expect(formatUnreadable(1, 'r/a.txt: is a FIFO, not a regular file')).toBe(
      "1 robots file unreadable (not a regular file; their hosts' URLs disallowed, line 0), first: r/a.txt: is a FIFO, not a regular file",
    );
    expect(formatUnreadable(3, null)).toBe("3 robots files unreadable (not a regular file; their hosts' URLs disallowed, line 0)");
  });
});
