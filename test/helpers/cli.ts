// Runs the built `robotstxt` binary (dist/cli/main.js) for the CLI suites, blocking or not.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built CLI entry; the suites run after `npm run build` (npm test's pretest). */
export const CLI = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'cli', 'main.js');
if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);

/** What one run of the CLI gave: its exit status and everything it printed. */
export interface CliRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs the CLI to completion, blocking this process. The timeout is a guard, not a
 * measure: a run that blocks (on a FIFO, say) is killed and fails its status assertion.
 */
export function runCli(args: readonly string[], input?: string | Buffer, timeoutMs = 60_000): CliRun {
  const r = spawnSync(process.execPath, [CLI, ...args], { input, encoding: 'utf8', maxBuffer: 256 << 20, timeout: timeoutMs });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * Runs the CLI without blocking this process, so servers in this process can answer it.
 * `input` goes to its stdin (closed at once when undefined); the CLI may exit before
 * reading it (usage errors), which is not an error here.
 */
export function spawnCli(args: readonly string[], input?: string): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ status: code, stdout, stderr }));
    if (child.stdin !== null) {
      child.stdin.on('error', () => undefined);
      child.stdin.end(input);
    }
  });
}
