// `robotstxt check`: one robots.txt, one agent, URLs streamed from a file or stdin.
import { createReadStream, readFileSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { Robots } from '../robots.js';
import type { Profile } from '../parse.js';
import { completeLines } from './stream.js';
import { formatRows, writeAll, type RunTotals } from './output.js';
import { CliError } from './errors.js';

export interface CheckOptions {
  readonly robotsPath: string;
  readonly agent: string;
  readonly profile: Profile;
  /** A file of URLs, or '-' / undefined for stdin. */
  readonly urlsPath: string | undefined;
}

export function readRobotsFile(path: string): Uint8Array {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new CliError(`cannot read --robots ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

export function openUrls(path: string | undefined, stdin: Readable): Readable {
  if (path === undefined || path === '-') return stdin;
  const stream = createReadStream(path, { highWaterMark: 1 << 20 });
  return stream;
}

/** Runs `check`; resolves with the totals once every row is written. */
export async function runCheck(options: CheckOptions, stdin: Readable, stdout: Writable): Promise<RunTotals> {
  const robots = Robots.parse(readRobotsFile(options.robotsPath), { profile: options.profile });
  const matcher = robots.forAgent(options.agent);
  const totals: RunTotals = { urls: 0, allowed: 0, disallowed: 0 };
  const input = openUrls(options.urlsPath, stdin);
  try {
    for await (const chunk of completeLines(input)) {
      const { verdicts, lines } = matcher.decideLines(chunk);
      await writeAll(stdout, formatRows(chunk, verdicts, lines, verdicts.length, totals));
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code) throw new CliError(`cannot read URLs from ${options.urlsPath}: ${code}`);
    throw error;
  }
  return totals;
}
