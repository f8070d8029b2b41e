// The CLI's limit flags through the built binary: --max-robots-bytes, --max-memory-mb, --max-url-bytes past the engine's default URL limit.
//
// Runs dist/cli/main.js (`npm test` builds first). Each limit is tried at its value and one
// past it, with small configured values, and its outcome is checked: a defined result,
// counted on stderr, or one line and status 65 with no stack trace.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXIT_LIMIT, limitErrorText } from '../src/cli/errors.js';
import { MemoryLimitError, UrlLengthError } from '../src/wasm/index.js';
import { startServer, type TestServer } from './helpers/http-server.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(root, 'dist', 'cli', 'main.js');

let dir = '';
const path = (name: string): string => join(dir, name);

function cli(args: readonly string[], input?: string) {
  const r = spawnSync(process.execPath, [CLI, ...args], { input, encoding: 'utf8', maxBuffer: 256 << 20, timeout: 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** As cli, without blocking this process's event loop (the test's HTTP server runs in it). */
function cliAsync(args: readonly string[], input: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args]);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (data: string) => (stdout += data));
    child.stderr.setEncoding('utf8').on('data', (data: string) => (stderr += data));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
    child.stdin.end(input);
  });
}

/** A limit small for a robots.txt, yet one RFC 9309 §2.5 allows (at least 500 KiB). */
const LIMIT = 600_000;
// Without a final line break: a parse cut even one byte short of the file's end loses
// this line (one that ends within the limit, its line feed just past it, is kept whole).
const LATE_RULE = 'Disallow: /late/';

/**
 * A robots.txt of exactly `length` bytes: a group, comment lines as padding, and last a
 * rule that only a parse reading all `length` bytes sees.
 */
function robotsOf(length: number): string {
  const head = 'User-agent: *\nDisallow: /early/\n';
  let pad = length - head.length - LATE_RULE.length;
  const lines: string[] = [];
  while (pad > 0) {
    const size = Math.min(pad, 1000);
    // A comment line of `size` bytes, its line feed included.
    lines.push(size === 1 ? '\n' : `#${'x'.repeat(size - 2)}\n`);
    pad -= size;
  }
  const body = head + lines.join('') + LATE_RULE;
  expect(Buffer.byteLength(body)).toBe(length);
  return body;
}

const URLS = 'http://a.example/early/x\nhttp://a.example/late/x\nhttp://b.example/early/x\nhttp://b.example/late/x\n';

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'robotstxt-cli-limit-flags-'));
  writeFileSync(path('at-limit.txt'), robotsOf(LIMIT));
  writeFileSync(path('past-limit.txt'), robotsOf(LIMIT + 1));
  mkdirSync(path('hosts'));
  writeFileSync(path('hosts/a.example.txt'), robotsOf(LIMIT));
  writeFileSync(path('hosts/b.example.txt'), robotsOf(LIMIT + 1));
  writeFileSync(path('small.txt'), 'User-agent: *\nDisallow: /private/\n');
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('--max-robots-bytes', () => {
  it('check: a file of exactly the limit is used whole; one byte more loses its last line, and stderr says so', () => {
    const at = cli(['check', '--robots', path('at-limit.txt'), '--agent', 'bot', '--max-robots-bytes', String(LIMIT)], '/late/x\n');
    expect(at.status).toBe(0);
    expect(at.stdout).toMatch(/^disallow\t\d+\t\/late\/x\n$/);
    expect(at.stderr).not.toContain('--max-robots-bytes');

    const past = cli(['check', '--robots', path('past-limit.txt'), '--agent', 'bot', '--max-robots-bytes', String(LIMIT)], '/late/x\n/early/x\n');
    expect(past.status).toBe(0);
    expect(past.stdout).toBe('allow\t0\t/late/x\ndisallow\t2\t/early/x\n');
    expect(past.stderr).toContain(`is over ${LIMIT} bytes (--max-robots-bytes)`);
    // The same file under a limit one byte larger is whole again.
    const raised = cli(['check', '--robots', path('past-limit.txt'), '--agent', 'bot', '--max-robots-bytes', String(LIMIT + 1)], '/late/x\n');
    expect(raised.stdout).toMatch(/^disallow\t\d+\t\/late\/x\n$/);
  });

  it.each([1, 2])('classify --workers %i: the file past the limit is cut and counted, its host judged by its first lines', (workers) => {
    const r = cli(['classify', '--robots-dir', path('hosts'), '--agent', 'bot', '--max-robots-bytes', String(LIMIT), '--workers', String(workers)], URLS);
    expect(r.status).toBe(0);
    const verdicts = r.stdout.trim().split('\n').map((row) => `${row.split('\t')[0]} ${row.split('\t')[3]}`);
    expect(verdicts).toEqual([
      'disallow http://a.example/early/x',
      'disallow http://a.example/late/x',
      'disallow http://b.example/early/x',
      'allow http://b.example/late/x',
    ]);
    expect(r.stderr).toContain(`robotstxt: 1 robots file cut at --max-robots-bytes (${LIMIT})`);
    expect(r.stderr).toContain(`first: ${path('hosts/b.example.txt')}`);
    expect(r.stderr).toMatch(/4 urls, 1 allowed, 3 disallowed/);
  });

  it('classify: no note when every file is within the limit', () => {
    const r = cli(['classify', '--robots-dir', path('hosts'), '--agent', 'bot', '--max-robots-bytes', String(LIMIT + 1)], URLS);
    expect(r.stdout.split('\n').filter((row) => row.startsWith('allow'))).toEqual([]);
    expect(r.stderr).not.toContain('cut at');
  });

  it('refuses a limit below 500 KiB (RFC 9309 §2.5), naming the least it accepts; accepts exactly that', () => {
    const r = cli(['check', '--robots', path('small.txt'), '--agent', 'bot', '--max-robots-bytes', '511999'], '/x\n');
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('robotstxt: --max-robots-bytes must be an integer from 512000 (RFC 9309 §2.5: a parsing limit of at least 500 KiB) to 1073741824, got "511999"\n');
    expect(cli(['check', '--robots', path('small.txt'), '--agent', 'bot', '--max-robots-bytes', '512000'], '/private/x\n').stdout).toBe('disallow\t2\t/private/x\n');
  });

  describe('fetched robots.txt', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startServer({});
      const body = robotsOf(LIMIT + 1);
      server.route('/robots.txt', (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(body);
      });
    });
    afterAll(() => server.close());

    it('check --robots URL and classify --fetch parse up to the limit and say the file was cut', async () => {
      const check = await cliAsync(['check', '--robots', server.origin, '--agent', 'bot', '--max-robots-bytes', String(LIMIT)], '/late/x\n');
      expect(check.stdout, check.stderr).toBe('allow\t0\t/late/x\n');
      expect(check.stderr).toContain('longer than the parsing limit');
      const whole = await cliAsync(['check', '--robots', server.origin, '--agent', 'bot', '--max-robots-bytes', String(LIMIT + 1)], '/late/x\n');
      expect(whole.stdout).toMatch(/^disallow\t\d+\t\/late\/x\n$/);

      const classify = await cliAsync(['classify', '--fetch', '--agent', 'bot', '--max-robots-bytes', String(LIMIT)], `${server.origin}/late/x\n`);
      expect(classify.stdout).toBe(`allow\t0\t127.0.0.1:${server.port}\t${server.origin}/late/x\n`);
      expect(classify.stderr).toContain(`1 fetched robots.txt file cut at --max-robots-bytes (${LIMIT})`);
    });
  });
});

describe('--max-memory-mb', () => {
  // One URL line large enough that its call needs a few MiB of Wasm memory.
  const input = `/a\n/${'a'.repeat(400_000)}\n/private/x\n`;
  const run = (mb: number, workers = 1) =>
    cli(['check', '--robots', path('small.txt'), '--agent', 'bot', '--max-memory-mb', String(mb), '--workers', String(workers)], input);

  it.each([1, 2])('--workers %i: one MiB below what the run needs stops with one line and status 65; at it the run completes', (workers) => {
    // Raised to what each failure says its call needed until the run completes: the last
    // value is the least that fits, one MiB less cannot hold the call that needed it.
    let needMb = 2;
    for (let tries = 0; tries < 10; tries++) {
      const tooSmall = run(needMb, workers);
      if (tooSmall.status === 0) break;
      expect(tooSmall.status).toBe(EXIT_LIMIT);
      expect(tooSmall.stderr).not.toContain('internal error');
      expect(tooSmall.stderr).not.toMatch(/\n\s+at /);
      const match = /^robotstxt: .* needs (\d+) bytes of Wasm memory, over the engine's limit of (\d+) bytes \(maxMemoryBytes\) \(raise --max-memory-mb, .*\)\n$/.exec(tooSmall.stderr);
      expect(match, tooSmall.stderr).not.toBeNull();
      expect(Number(match![2])).toBe(needMb << 20);
      needMb = Math.ceil(Number(match![1]) / (1 << 20));
    }
    expect(needMb).toBeGreaterThan(2);

    const below = run(needMb - 1, workers);
    expect(below.status).toBe(EXIT_LIMIT);
    expect(below.stderr.split('\n')).toHaveLength(2);
    // Rows written before the stop are whole rows.
    expect(below.stdout === '' || below.stdout.endsWith('\n')).toBe(true);

    const enough = run(needMb, workers);
    expect(enough.status, enough.stderr).toBe(0);
    expect(enough.stdout.split('\n').map((row) => row.split('\t')[0])).toEqual(['allow', 'allow', 'disallow', '']);
  });

  it('refuses 0 and more than 4096 (all a Wasm32 memory can address)', () => {
    expect(cli(['check', '--robots', path('small.txt'), '--agent', 'bot', '--max-memory-mb', '0'], '/x\n').stderr)
      .toBe('robotstxt: --max-memory-mb must be a positive integer, got "0"\n');
    const big = cli(['classify', '--robots-dir', path('hosts'), '--agent', 'bot', '--max-memory-mb', '4097'], '/x\n');
    expect(big.status).toBe(2);
    expect(big.stderr).toBe('robotstxt: --max-memory-mb must be at most 4096 (4 GiB, all a Wasm32 memory can address), got 4097\n');
  });
});

describe('--max-url-bytes above the engine\'s default URL limit (16 MiB)', () => {
  it('raises the engine\'s limit with it: a 17 MiB line is judged, in this thread and in workers', () => {
    const line = `/private/${'a'.repeat((17 << 20) - 9)}`;
    for (const workers of ['1', '2']) {
      const r = cli(['check', '--robots', path('small.txt'), '--agent', 'bot', '--max-url-bytes', String(18 << 20), '--workers', workers, '--quiet'], `${line}\n/x\n`);
      expect(r.status, r.stderr.slice(0, 500)).toBe(0);
      expect(r.stdout.length).toBe(`disallow\t2\t${line}\nallow\t0\t/x\n`.length);
      expect(r.stdout.startsWith('disallow\t2\t/private/aaa')).toBe(true);
      expect(r.stdout.endsWith('\nallow\t0\t/x\n')).toBe(true);
    }
  });

  it('refuses a value past the engine\'s ceiling (512 MiB), naming it', () => {
    const r = cli(['check', '--robots', path('small.txt'), '--agent', 'bot', '--max-url-bytes', String((512 << 20) + 1)], '/x\n');
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`robotstxt: --max-url-bytes must be at most ${512 << 20} (the engine's URL ceiling, 512 MiB), got ${(512 << 20) + 1}\n`);
  });
});

describe('limitErrorText', () => {
  it('turns the engine\'s limit errors into one line with what to change, and nothing else', () => {
    expect(limitErrorText(new MemoryLimitError(10, 5, 'this call'))).toBe(
      'this call needs 10 bytes of Wasm memory, over the engine\'s limit of 5 bytes (maxMemoryBytes) (raise --max-memory-mb, or lower --chunk-bytes or --max-url-bytes)',
    );
    expect(limitErrorText(new UrlLengthError(9, 4, -1, 0))).toMatch(/^the line at byte 0 is 9 bytes long, .* \(lower --max-url-bytes/);
    // As a worker's message arrives: name and message only.
    expect(limitErrorText({ name: 'MemoryLimitError', message: 'robotstxt-wasm: x needs 1 bytes' })).toMatch(/^x needs 1 bytes \(raise/);
    expect(limitErrorText(new RangeError('other'))).toBeNull();
    expect(limitErrorText('MemoryLimitError')).toBeNull();
  });
});
