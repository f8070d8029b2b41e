// The progress line on a terminal: when it is drawn (units of src/cli/progress.ts) and, through the built binary under a pseudo-terminal (util-linux `script`), that rows never share its line and it is erased on exit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TtyProgress, shouldDrawProgress, type TerminalState } from '../src/cli/progress.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(root, 'dist', 'cli', 'main.js');
const LINES = 200_000;

let dir = '';
const path = (name: string): string => join(dir, name);

/** Single-quoted for sh. */
const sh = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Runs `command` with sh under a fresh pseudo-terminal (`script`), stdin, stdout and stderr
 * all on it unless redirected, and returns everything written to the terminal.
 */
function onTerminal(command: string): { status: number | null; screen: string } {
  const r = spawnSync('script', ['-qec', command, '/dev/null'], { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', maxBuffer: 256 << 20, timeout: 120_000 });
  if (r.error) throw new Error(`these tests run the CLI under a pseudo-terminal with util-linux \`script\` (package bsdutils or util-linux): ${r.error.message}`);
  return { status: r.status, screen: r.stdout };
}

const check = (): string => `${sh(process.execPath)} ${sh(CLI)} check --robots ${sh(path('robots.txt'))} --agent x --chunk-bytes 4096 ${sh(path('urls.txt'))}`;

/** A progress line as drawn: carriage return, a bar, a count. */
const BAR = /\r\[[#-]{24}\] +\d+\.\d%/;
/** The erase: carriage return, blanks, carriage return. */
const ERASE = /\r {39,}\r/;

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);
  dir = mkdtempSync(join(tmpdir(), 'robotstxt-cli-tty-'));
  writeFileSync(path('robots.txt'), 'User-agent: *\nDisallow: /p\n');
  writeFileSync(path('urls.txt'), Array.from({ length: LINES }, (_, i) => `/p/${i}\n`).join(''));
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('when the progress line is drawn', () => {
  const state = (over: Partial<TerminalState>): TerminalState => ({ quiet: false, stderrIsTTY: true, stdoutIsTTY: false, sameTerminal: false, ...over });

  it('only on a terminal stderr whose terminal the rows do not go to, and never with --quiet', () => {
    expect(shouldDrawProgress(state({}))).toBe(true);
    expect(shouldDrawProgress(state({ stdoutIsTTY: true, sameTerminal: true }))).toBe(false);
    // Rows on another terminal cannot land on the progress line.
    expect(shouldDrawProgress(state({ stdoutIsTTY: true, sameTerminal: false }))).toBe(true);
    expect(shouldDrawProgress(state({ stderrIsTTY: false }))).toBe(false);
    expect(shouldDrawProgress(state({ quiet: true }))).toBe(false);
  });

  it('draws at the first update, says "1 url", and erases once however often finish is called', () => {
    const writes: string[] = [];
    const progress = new TtyProgress({ write: (t: string) => writes.push(t) > 0, columns: 60 }, null);
    progress.finish();
    expect(writes).toEqual([]);
    progress.update({ urls: 1, allowed: 1, disallowed: 0 }, 10);
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatch(/^\r1 url {2}/);
    progress.finish();
    progress.finish();
    expect(writes.slice(1)).toEqual([`\r${' '.repeat(59)}\r`]);
  });
});

describe('through the binary on a pseudo-terminal', () => {
  it('rows on the same terminal: no progress line among them, only rows and the summary', () => {
    const { status, screen } = onTerminal(check());
    expect(status).toBe(0);
    expect(screen).not.toMatch(BAR);
    const lines = screen.split('\r\n');
    expect(lines.pop()).toBe('');
    expect(lines.pop()).toMatch(new RegExp(`^${LINES} urls, 0 allowed, ${LINES} disallowed, \\d+\\.\\d\\d s, \\d+ urls/s$`));
    expect(lines).toHaveLength(LINES);
    expect(lines.every((line, i) => line === `disallow\t2\t/p/${i}`)).toBe(true);
  });

  it('rows to a file: the line is drawn on the terminal and erased before the summary', () => {
    const { status, screen } = onTerminal(`${check()} > ${sh(path('out.txt'))}`);
    expect(status).toBe(0);
    expect(screen).toMatch(BAR);
    // Nothing but progress lines, then the erase, then the summary.
    expect(screen).toMatch(new RegExp(`^(\\r[^\\r\\n]+)+${ERASE.source}${LINES} urls, 0 allowed, ${LINES} disallowed, [^\\r\\n]+\\r\\n$`));
    expect(readFileSync(path('out.txt'), 'utf8').split('\n')).toHaveLength(LINES + 1);
  });

  it('| head: the line drawn before the reader went away is erased as the process exits', () => {
    const { status, screen } = onTerminal(`${check()} | head -n 2`);
    expect(status).toBe(0);
    // head writes these rows itself, one write each on a terminal, so the CLI's line (on
    // stderr, the same terminal) may be drawn between them: each row is there, whole.
    expect(screen).toMatch(/disallow\t2\t\/p\/0\r\n/);
    expect(screen).toMatch(/disallow\t2\t\/p\/1\r\n/);
    // The first chunk's rows (about 9 kB) fit in the pipe, so a line is drawn before EPIPE.
    const lastDraw = screen.search(new RegExp(`${BAR.source}(?![\\s\\S]*${BAR.source})`));
    expect(lastDraw).toBeGreaterThanOrEqual(0);
    expect(screen.slice(lastDraw + 1)).toMatch(ERASE);
    expect(screen).not.toContain('robotstxt:');
  });
});
