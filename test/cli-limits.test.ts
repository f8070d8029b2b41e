// The CLI under hostile input and a hostile stdout: over-long URL lines, write failures, signals mid-write.
//
// Runs the built CLI (dist/cli/main.js; `npm test` builds first). Memory is read from
// /proc/<pid>/status (VmHWM), write failures use /dev/full: Linux only, like the CI.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lineChunks, DEFAULT_MAX_URL_BYTES } from '../src/cli/stream.js';
import { overLongRow } from '../src/cli/output.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(root, 'dist', 'cli', 'main.js');
const ROBOTS = 'User-agent: *\nDisallow: /private/\n';

let dir = '';
const path = (name: string): string => join(dir, name);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'robotstxt-cli-limits-'));
  writeFileSync(path('robots.txt'), ROBOTS);
  mkdirSync(path('hosts'));
  writeFileSync(path('hosts/a.example.txt'), ROBOTS);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function cli(args: readonly string[], input?: string | Buffer) {
  const r = spawnSync(process.execPath, [CLI, ...args], { input, encoding: 'utf8', maxBuffer: 256 << 20, timeout: 120_000 });
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

/** Pieces of `bytes` cut at `cuts`, as a stream source would hand them over. */
async function* piecesOf(bytes: Buffer, cuts: readonly number[]): AsyncGenerator<Buffer> {
  let at = 0;
  for (const cut of [...cuts, bytes.length]) {
    const end = Math.min(bytes.length, Math.max(at, cut));
    yield Buffer.from(bytes.subarray(at, end));
    at = end;
  }
}

describe('lineChunks: lines over the limit are streamed past', () => {
  it('yields every line within the limit as it came and each longer one as its length, in order, from any split', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.string({ unit: fc.constantFrom('a', '/', '\r', 'é'), maxLength: 60 }), { maxLength: 25 }),
        fc.array(fc.nat(1500), { maxLength: 10 }),
        fc.integer({ min: 1, max: 64 }),
        fc.integer({ min: 0, max: 40 }),
        fc.boolean(),
        async (lines, cuts, minBytes, maxLineBytes, finalBreak) => {
          const input = Buffer.from(lines.join('\n') + (finalBreak && lines.length > 0 ? '\n' : ''));
          const expected: (string | number)[] = [];
          const inputLines = input.toString('latin1').split('\n');
          if (inputLines.at(-1) === '') inputLines.pop();
          for (const line of inputLines) expected.push(line.length > maxLineBytes ? line.length : line);
          const got: (string | number)[] = [];
          let carry = '';
          for await (const item of lineChunks(piecesOf(input, [...cuts].sort((a, b) => a - b)), minBytes, maxLineBytes)) {
            if ('overLong' in item) {
              expect(carry, 'an over-long line comes after whole lines only').toBe('');
              got.push(item.overLong);
              continue;
            }
            const text = carry + item.toString('latin1');
            const parts = text.split('\n');
            carry = parts.pop()!;
            got.push(...parts);
          }
          if (carry !== '') got.push(carry);
          expect(got).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('holds memory to the limit, not to the line: an endless line costs nothing per byte', async () => {
    // A source of 64 MiB without a line break, in 64 KiB pieces (one reused buffer).
    const piece = Buffer.alloc(1 << 16, 0x61);
    async function* endless(): AsyncGenerator<Buffer> {
      for (let i = 0; i < 1024; i++) yield piece;
    }
    const items = [];
    for await (const item of lineChunks(endless(), 1 << 20, 4096)) items.push('overLong' in item ? item : item.length);
    expect(items).toEqual([{ overLong: 64 << 20 }]);
  });

  it('the default limit is 2 MiB, as Chromium caps a URL', () => {
    expect(DEFAULT_MAX_URL_BYTES).toBe(2 * 1024 * 1024);
  });
});

describe('--max-url-bytes: an over-long line gets a marked row and is counted', () => {
  const long = `https://a.example/private/${'x'.repeat(300)}`;
  const input = `https://a.example/\n${long}\nhttps://a.example/private/p\n/${'y'.repeat(999)}`;
  const marker = (n: number): string => `\\n[${n} bytes over --max-url-bytes]`;

  it.each([
    ['check', '1', 'tsv'], ['check', '2', 'tsv'], ['check', '1', 'jsonl'], ['check', '2', 'jsonl'],
    ['classify', '1', 'tsv'], ['classify', '2', 'tsv'], ['classify', '1', 'jsonl'], ['classify', '2', 'jsonl'],
  ])('%s --workers %s --format %s', (command, workers, format) => {
    const source = command === 'check' ? ['--robots', path('robots.txt')] : ['--robots-dir', path('hosts')];
    const r = cli([command, ...source, '--agent', 'x', '--max-url-bytes', '100', '--workers', workers, '--format', format], input);
    expect(r.stderr).toMatch(/^4 urls, 1 allowed, 3 disallowed, 2 urls over --max-url-bytes, /);
    expect(r.status).toBe(0);
    const host = command === 'classify';
    const rows = r.stdout.split('\n');
    expect(rows.pop()).toBe('');
    if (format === 'tsv') {
      const h = (name: string): string => (host ? `${name}\t` : '');
      expect(rows).toEqual([
        `allow\t0\t${h('a.example')}https://a.example/`,
        `disallow\t0\t${h('')}${marker(long.length)}`,
        `disallow\t2\t${h('a.example')}https://a.example/private/p`,
        `disallow\t0\t${h('')}${marker(1000)}`,
      ]);
    } else {
      const parsed = rows.map((row) => JSON.parse(row) as Record<string, unknown>);
      expect(parsed[1]).toEqual({ verdict: 'disallow', line: 0, ...(host ? { host: '' } : {}), url: `\n[${long.length} bytes over --max-url-bytes]`, urlBytes: long.length });
      expect(parsed[3]).toMatchObject({ verdict: 'disallow', line: 0, urlBytes: 1000 });
      expect(parsed[2]).toMatchObject({ verdict: 'disallow', line: 2, url: 'https://a.example/private/p' });
    }
  });

  it('classify --fetch too: outcome none, no request made for the line', () => {
    const r = cli(['classify', '--fetch', '--agent', 'x', '--max-url-bytes', '50', '--format', 'jsonl'], `/a\n/${'z'.repeat(80)}\n/b\n`);
    expect(r.status).toBe(0);
    const rows = r.stdout.trimEnd().split('\n').map((row) => JSON.parse(row) as Record<string, unknown>);
    expect(rows.map((row) => row.url)).toEqual(['/a', '\n[81 bytes over --max-url-bytes]', '/b']);
    expect(rows[1]).toEqual({ verdict: 'disallow', line: 0, host: '', url: '\n[81 bytes over --max-url-bytes]', outcome: 'none', urlBytes: 81 });
    expect(r.stderr).toMatch(/^3 urls, 2 allowed, 1 disallowed, 1 url over --max-url-bytes, /m);
  });

  it('--only allowed leaves the row out, the summary still counts it; a line of exactly the limit is judged', () => {
    const r = cli(['check', '--robots', path('robots.txt'), '--agent', 'x', '--max-url-bytes', '10', '--only', 'allowed'], `/${'a'.repeat(9)}\n/${'a'.repeat(10)}\n`);
    expect(r.stdout).toBe(`allow\t0\t/${'a'.repeat(9)}\n`);
    expect(r.stderr).toMatch(/^2 urls, 1 allowed, 1 disallowed, 1 url over --max-url-bytes, /);
  });

  it('the marker cannot be read as a URL: its field decodes to text starting with a line feed', () => {
    expect(overLongRow({ format: 'tsv', only: null, host: false, outcome: false }, 7)).toBe('disallow\t0\t\\n[7 bytes over --max-url-bytes]\n');
    expect(overLongRow({ format: 'tsv', only: 'allowed', host: false, outcome: false }, 7)).toBeNull();
  });

  it('rejects a --max-url-bytes that is not a positive integer', () => {
    const r = cli(['check', '--robots', path('robots.txt'), '--agent', 'x', '--max-url-bytes', '0'], '/a\n');
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('robotstxt: --max-url-bytes must be a positive integer, got "0"\n');
  });

  it('an endless line (96 MiB, no line break) keeps memory bounded, then the run goes on', async () => {
    const child = spawn(process.execPath, [CLI, 'check', '--robots', path('robots.txt'), '--agent', 'x', '--max-url-bytes', '1000'], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    const piece = Buffer.alloc(1 << 20, 0x61);
    const write = (data: Buffer | string): Promise<void> =>
      new Promise((resolve) => (child.stdin.write(data) ? resolve() : child.stdin.once('drain', resolve)));
    await write('/a\n');
    for (let i = 0; i < 96; i++) await write(piece);
    // Peak resident memory so far, the whole line sent and not yet ended. Before the limit,
    // the line buffer alone grew past 128 MiB (about 230 MB peak); now about 90 MB.
    const peakKiB = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]);
    child.stdin.end('\n/private/x\n');
    expect(await closed).toBe(0);
    expect(peakKiB).toBeLessThan(180 * 1024);
    expect(stdout).toBe(`allow\t0\t/a\ndisallow\t0\t\\n[${96 << 20} bytes over --max-url-bytes]\ndisallow\t2\t/private/x\n`);
  }, 120_000);
});

describe('write failures on stdout', () => {
  function shell(script: string) {
    const r = spawnSync('sh', ['-c', script], { encoding: 'utf8', timeout: 60_000 });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  }
  const check = (): string => `'${process.execPath}' '${CLI}' check --robots '${path('robots.txt')}' --agent x`;

  it('a full disk: one line on stderr, no stack trace, status 74, no summary', () => {
    const r = shell(`printf '/a\\n/private/b\\n' | ${check()} > /dev/full`);
    expect(r.stderr).toBe('robotstxt: cannot write output: no space left on device\n');
    expect(r.status).toBe(74);
  });

  it('--help and --version to a full disk fail the same way', () => {
    for (const args of ['--help', 'check --help', '--version']) {
      const r = shell(`'${process.execPath}' '${CLI}' ${args} > /dev/full`);
      expect(r.stderr, args).toBe('robotstxt: cannot write output: no space left on device\n');
      expect(r.status, args).toBe(74);
    }
  });

  it('a closed stdout (>&-) is an error, not rows written into nothing', () => {
    const rows = shell(`printf '/a\\n' | ${check()} >&-`);
    expect(rows.stderr).toBe('robotstxt: cannot write output: stdout is closed\n');
    expect(rows.status).toBe(74);
    const help = shell(`'${process.execPath}' '${CLI}' --help >&-`);
    expect(help.stderr).toBe('robotstxt: cannot write output: stdout is closed\n');
    expect(help.status).toBe(74);
  });

  it('> /dev/null is a normal run', () => {
    const r = shell(`printf '/a\\n' | ${check()} > /dev/null`);
    expect(r.stderr).toMatch(/^1 url, 1 allowed, 0 disallowed, /);
    expect(r.status).toBe(0);
  });
});

describe('SIGINT / SIGTERM while rows are waiting on a slow reader', () => {
  let urls = '';
  beforeAll(() => {
    urls = path('many.txt');
    // About 13 MB of rows: far more than a pipe holds, so writes are queued when the signal comes.
    writeFileSync(urls, Array.from({ length: 300_000 }, (_, i) => `https://a.example/${i % 3 === 0 ? 'private/' : ''}page/${i}\n`).join(''));
  });

  /** Runs check into a pipe, stops reading after the first rows, signals, reads the rest. */
  async function interrupted(signal: 'SIGINT' | 'SIGTERM', workers: string): Promise<{ out: string; code: number | null; signal: string | null }> {
    const child = spawn(process.execPath, [CLI, 'check', '--robots', path('robots.txt'), '--agent', 'x', '--workers', workers, urls], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const parts: Buffer[] = [];
    const ended = new Promise<{ code: number | null; signal: string | null }>((resolve) => child.on('close', (code, sig) => resolve({ code, signal: sig })));
    await new Promise<void>((resolve) => {
      child.stdout.once('data', (data: Buffer) => {
        parts.push(data);
        child.stdout.pause();
        resolve();
      });
    });
    // Once the paused pipe is full, the child's write is queued mid-chunk; the 'spawn'
    // of a no-op child (a round trip through the event loop and the OS) gives it time
    // to get there without a timed wait the test depends on.
    spawnSync(process.execPath, ['-e', '']);
    child.kill(signal);
    spawnSync(process.execPath, ['-e', '']);
    child.stdout.on('data', (data: Buffer) => parts.push(data));
    child.stdout.resume();
    const status = await ended;
    return { out: Buffer.concat(parts).toString('utf8'), ...status };
  }

  it.each([
    ['SIGTERM', '1'], ['SIGINT', '1'], ['SIGTERM', '1'], ['SIGINT', '1'], ['SIGTERM', '2'], ['SIGINT', '2'],
  ] as const)('%s (--workers %s): the output ends on a whole row, then the process dies of the signal', async (signal, workers) => {
    const r = await interrupted(signal, workers);
    // Killed by the signal: a shell reports 128 + n (130 for SIGINT, 143 for SIGTERM).
    expect(r.signal).toBe(signal);
    expect(r.code).toBeNull();
    expect(r.out.endsWith('\n')).toBe(true);
    const rows = r.out.slice(0, -1).split('\n');
    expect(rows.length).toBeLessThan(300_000);
    const expected = (i: number): string => {
      const url = `https://a.example/${i % 3 === 0 ? 'private/' : ''}page/${i}`;
      return i % 3 === 0 ? `disallow\t2\t${url}` : `allow\t0\t${url}`;
    };
    const wrong = rows.findIndex((row, i) => row !== expected(i));
    expect(wrong === -1 ? null : { line: wrong + 1, row: rows[wrong] }).toBeNull();
  }, 60_000);
});
