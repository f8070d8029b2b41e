// The built CLI's rows: TSV escaping (a tab in a URL cannot shift columns), default ports in classify's file names, line 0 for robots.txt that could not be fetched.
//
// Needs `npm run build` (npm test runs it first).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, status } from './helpers/http-server.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(root, 'dist', 'cli', 'main.js');
const ROBOTS = 'User-agent: *\nDisallow: /login\nDisallow: /a\\b\n';

let dir = '';
const path = (name: string): string => join(dir, name);

function cli(args: string[], input: string | Buffer = ''): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { input, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Reads one TSV field back: the inverse of the escaping (PostgreSQL text COPY's reading). */
function unescapeField(field: string): string {
  return field.replace(/\\(x[0-9a-f]{2}|.)/g, (_m, e: string) => {
    if (e.length === 3) return String.fromCharCode(parseInt(e.slice(1), 16));
    return ({ t: '\t', n: '\n', r: '\r', '\\': '\\' } as Record<string, string>)[e] ?? `\\${e}`;
  });
}

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);
  dir = mkdtempSync(join(tmpdir(), 'robotstxt-cli-rows-'));
  writeFileSync(path('robots.txt'), ROBOTS);
  mkdirSync(path('robots'));
  writeFileSync(path('robots/github.com.txt'), ROBOTS);
  writeFileSync(path('robots/example.com_443.txt'), 'User-agent: *\nDisallow: /\n');
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// URLs holding every byte the TSV escaping touches: TAB, CR (not at the end: a line's
// last CR is its line break), other control bytes, DEL and backslashes.
const HOSTILE = [
  'https://github.com/login\there',
  'https://github.com/a\\b',
  'https://github.com/x\ry',
  'https://github.com/\x01\x1b[31m\x7f',
  'https://git\thub.com/login',
  'https://github.com/plain',
];

describe('TSV rows escape what would break them (PostgreSQL text COPY escapes)', () => {
  it.each([
    ['check', ['check', '--robots', 'ROBOTS']],
    ['classify', ['classify', '--robots-dir', 'DIR']],
  ])('%s: every row has its columns, and each field reads back to the URL byte for byte; --workers 2 agrees', (name, template) => {
    const args = template.map((a) => (a === 'ROBOTS' ? path('robots.txt') : a === 'DIR' ? path('robots') : a));
    // Many copies, so that --workers 2 really splits the input between threads.
    const urls = Array.from({ length: 4000 }, (_, i) => `${HOSTILE[i % HOSTILE.length]!}?n=${i}`);
    const input = `${urls.join('\n')}\n`;
    const one = cli([...args, '--agent', 'bot', '--quiet', '--chunk-bytes', '4096'], input);
    const two = cli([...args, '--agent', 'bot', '--quiet', '--chunk-bytes', '4096', '--workers', '2'], input);
    expect(one.status).toBe(0);
    expect(two.stdout).toBe(one.stdout);
    const rows = one.stdout.split('\n');
    expect(rows.pop()).toBe('');
    expect(rows).toHaveLength(urls.length);
    const columns = name === 'check' ? 3 : 4;
    rows.forEach((row, i) => {
      const fields = row.split('\t');
      expect(fields, row).toHaveLength(columns);
      expect(unescapeField(fields[columns - 1]!)).toBe(urls[i]);
      expect(row).not.toMatch(/[\x00-\x08\x0a-\x1f\x7f]/);
    });
    const first = rows.slice(0, HOSTILE.length).map((r) => r.split('\t').slice(-1)[0]);
    expect(first).toEqual([
      'https://github.com/login\\there?n=0',
      'https://github.com/a\\\\b?n=1',
      'https://github.com/x\\ry?n=2',
      'https://github.com/\\x01\\x1b[31m\\x7f?n=3',
      'https://git\\thub.com/login?n=4',
      'https://github.com/plain?n=5',
    ]);
    if (name === 'classify') {
      // The host column is escaped the same way (it comes from the URL).
      expect(rows[4]!.split('\t')[2]).toBe('git\\thub.com');
    }
    // The backslash rule (line 3) still decides /a\b: escaping is output only.
    expect(rows[1]!.startsWith('disallow\t3\t')).toBe(true);
  });

  it('JSONL was already JSON-escaped: each row parses back to the URL', () => {
    const r = cli(['classify', '--robots-dir', path('robots'), '--agent', 'bot', '--format', 'jsonl', '--quiet'], `${HOSTILE.join('\n')}\n`);
    const rows = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { url: string; host: string });
    expect(rows.map((row) => row.url)).toEqual(HOSTILE);
    expect(rows[4]!.host).toBe('git\thub.com');
  });
});

describe('classify --robots-dir: a default port names the default origin (RFC 3986 §6.2.3)', () => {
  it('https://github.com:443/login looks up github.com.txt, as https://github.com/login does', () => {
    const urls = [
      'https://github.com:443/login',
      'https://github.com/login',
      'HTTPS://GitHub.com:0443/login', // leading zeros: still port 443
      'https://github.com:/login', // an empty port is no port
      'http://github.com:80/login',
      'http://github.com:443/login', // 443 is not http's default: its own file, none here
      'https://example.com:443/x', // example.com_443.txt exists but is not what this URL names
      'https://user@github.com:443/login',
      'https://[2001:db8::1]:443/x',
    ];
    const r = cli(['classify', '--robots-dir', path('robots'), '--agent', 'bot', '--quiet'], `${urls.join('\n')}\n`);
    expect(r.stdout.split('\n')).toEqual([
      'disallow\t2\tgithub.com\thttps://github.com:443/login',
      'disallow\t2\tgithub.com\thttps://github.com/login',
      'disallow\t2\tgithub.com\tHTTPS://GitHub.com:0443/login',
      'disallow\t2\tgithub.com\thttps://github.com:/login',
      'disallow\t2\tgithub.com\thttp://github.com:80/login',
      'allow\t0\tgithub.com:443\thttp://github.com:443/login',
      'allow\t0\texample.com\thttps://example.com:443/x',
      'disallow\t2\tgithub.com\thttps://user@github.com:443/login',
      'allow\t0\t[2001:db8::1]\thttps://[2001:db8::1]:443/x',
      '',
    ]);
  });
});

describe('rows decided by a robots.txt that could not be fetched', () => {
  it('check --robots URL: unreachable rows have line 0 (/robots.txt stays allowed) and JSONL says "outcome": "unreachable"', async () => {
    const server = await startServer({ '/robots.txt': status(503) });
    try {
      const run = (args: string[]): Promise<string> =>
        new Promise((resolve, reject) => {
          const child = spawn(process.execPath, [CLI, ...args], { stdio: ['pipe', 'pipe', 'ignore'] });
          let out = '';
          child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
          child.on('error', reject);
          child.on('close', () => resolve(out));
          child.stdin.end('/x\n/robots.txt\n');
        });
      expect(await run(['check', '--robots', server.origin, '--agent', 'bot', '--quiet'])).toBe('disallow\t0\t/x\nallow\t0\t/robots.txt\n');
      const jsonl = await run(['check', '--robots', server.origin, '--agent', 'bot', '--format', 'jsonl', '--quiet']);
      expect(jsonl.trimEnd().split('\n').map((l) => JSON.parse(l))).toEqual([
        { verdict: 'disallow', line: 0, url: '/x', outcome: 'unreachable' },
        { verdict: 'allow', line: 0, url: '/robots.txt', outcome: 'unreachable' },
      ]);
    } finally {
      await server.close();
    }
  });

  it('classify --fetch: JSONL outcome per row (ok, unavailable, unreachable, none); TSV keeps its columns with line 0', async () => {
    const ok = await startServer({ '/robots.txt': (_q, res) => res.end('User-agent: *\nDisallow: /x\n') });
    const gone = await startServer({ '/robots.txt': status(404) });
    const down = await startServer({ '/robots.txt': status(500) });
    try {
      const input = `${ok.origin}/x\n${gone.origin}/x\n${down.origin}/x\n/relative\n`;
      const run = (args: string[]): Promise<string> =>
        new Promise((resolve, reject) => {
          const child = spawn(process.execPath, [CLI, 'classify', '--fetch', '--agent', 'bot', '--quiet', ...args], { stdio: ['pipe', 'pipe', 'ignore'] });
          let out = '';
          child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
          child.on('error', reject);
          child.on('close', () => resolve(out));
          child.stdin.end(input);
        });
      const jsonl = (await run(['--format', 'jsonl'])).trimEnd().split('\n').map((l) => JSON.parse(l) as { verdict: string; line: number; outcome: string });
      expect(jsonl.map((r) => [r.verdict, r.line, r.outcome])).toEqual([
        ['disallow', 2, 'ok'],
        ['allow', 0, 'unavailable'],
        ['disallow', 0, 'unreachable'],
        ['allow', 0, 'none'],
      ]);
      expect((await run([])).split('\n').map((row) => row.split('\t').slice(0, 2).join(' '))).toEqual([
        'disallow 2', 'allow 0', 'disallow 0', 'allow 0', '',
      ]);
    } finally {
      await Promise.all([ok.close(), gone.close(), down.close()]);
    }
  });
});
