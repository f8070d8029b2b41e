// Option specs and value checks shared by the subcommands, and the URL input files' check before a run.
import { accessSync, constants, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { stringOption, type CommandContext, type OptionSpec, type ParsedArgs } from './command.js';
import { CliError, fileErrorText } from './errors.js';
import { checkUserAgent, defaultUserAgent, type CliFetchOptions } from './fetch.js';
import { formatSummary, type RunTotals } from './output.js';
import type { TtyProgress } from './progress.js';
import { CHUNK_BYTES, DEFAULT_MAX_URL_BYTES } from './stream.js';
import { DEFAULT_MAX_BYTES } from '../robots.js';
import { MIN_MAX_BYTES } from '../fetch/index.js';
import {
  DEFAULT_MAX_MEMORY_BYTES, DEFAULT_MAX_URL_BYTES as ENGINE_MAX_URL_BYTES, MAX_URL_BYTES_CEILING, WASM32_MAX_BYTES, setEngineLimits,
  type EngineLimits,
} from '../wasm/index.js';

/** Options every row-printing command takes, by name. */
export const ROW_OPTIONS = {
  agent: { type: 'string', value: 'TOKEN', help: 'product token matched against User-agent lines (required)' },
  profile: { type: 'string', value: 'rfc|google', help: 'rule semantics (default rfc: RFC 9309)' },
  format: { type: 'string', value: 'tsv|jsonl', help: 'output rows (default tsv)' },
  only: { type: 'string', value: 'allowed|disallowed', help: 'print only those rows (the summary still counts all)' },
  'chunk-bytes': { type: 'string', value: 'N', help: `input bytes per chunk handed to Wasm or a worker (default ${CHUNK_BYTES})` },
  'max-url-bytes': {
    type: 'string', value: 'N',
    help: `longest URL line in bytes (default ${DEFAULT_MAX_URL_BYTES}); a longer line is not judged: its row is disallow, line 0, URL \\n[N bytes over --max-url-bytes]`,
  },
  'max-robots-bytes': {
    type: 'string', value: 'N',
    help: `bytes of each robots.txt read and parsed (default and least ${DEFAULT_MAX_BYTES}, RFC 9309 §2.5); the rest is never read`,
  },
  'max-memory-mb': {
    type: 'string', value: 'N',
    help: `Wasm memory per engine (one per thread) in MiB (default ${DEFAULT_MAX_MEMORY_BYTES >> 20}); a run that needs more stops with status 65`,
  },
  quiet: { type: 'boolean', help: 'no progress bar and no summary on stderr' },
} as const satisfies Record<string, OptionSpec>;

/** `--max-robots-bytes`, for the commands that read robots.txt but print no rows (lint, fetch). */
export const MAX_ROBOTS_OPTION = ROW_OPTIONS['max-robots-bytes'];

/**
 * The largest --max-robots-bytes: 1 GiB. Each robots.txt is held whole up to the limit
 * (read, then parsed in memory), so a limit is a memory budget per file and thread.
 */
export const MAX_ROBOTS_BYTES_CEILING = 1 << 30;

/**
 * `--max-robots-bytes`: bytes of each robots.txt read and parsed, DEFAULT_MAX_BYTES when
 * absent. RFC 9309 §2.5 says the parsing limit MUST be at least 500 KiB, so a smaller
 * value is refused (as fetchRobots refuses it), not quietly raised.
 * @example maxRobotsBytes(args) // 512000
 */
export function maxRobotsBytes(args: ParsedArgs): number {
  const value = stringOption(args, 'max-robots-bytes');
  if (value === undefined) return DEFAULT_MAX_BYTES;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < MIN_MAX_BYTES || n > MAX_ROBOTS_BYTES_CEILING) {
    throw new CliError(
      `--max-robots-bytes must be an integer from ${MIN_MAX_BYTES} (RFC 9309 §2.5: a parsing limit of at least 500 KiB) to ${MAX_ROBOTS_BYTES_CEILING}, got ${JSON.stringify(value)}`,
    );
  }
  return n;
}

/**
 * The engine limits a row-printing run asks for: `--max-memory-mb` (Wasm memory per
 * engine), and a URL limit of at least `maxUrlBytes`, so that every line within
 * --max-url-bytes is judged (the engine's own default, 16 MiB, is raised for a larger
 * --max-url-bytes, up to MAX_URL_BYTES_CEILING). Applied to this thread's engine here;
 * the caller puts them in the job, so that every worker thread applies them too.
 * @example engineSettings(args, 2097152) // { maxMemoryBytes: 1073741824, maxUrlBytes: 16777216 }
 */
export function engineSettings(args: ParsedArgs, maxUrlBytes: number): Pick<EngineLimits, 'maxMemoryBytes' | 'maxUrlBytes'> {
  const ceilingMb = WASM32_MAX_BYTES / (1 << 20);
  const mb = positiveInteger('max-memory-mb', stringOption(args, 'max-memory-mb'), DEFAULT_MAX_MEMORY_BYTES / (1 << 20));
  if (mb > ceilingMb) throw new CliError(`--max-memory-mb must be at most ${ceilingMb} (4 GiB, all a Wasm32 memory can address), got ${mb}`);
  if (maxUrlBytes > MAX_URL_BYTES_CEILING) {
    throw new CliError(`--max-url-bytes must be at most ${MAX_URL_BYTES_CEILING} (the engine's URL ceiling, 512 MiB), got ${maxUrlBytes}`);
  }
  const limits = { maxMemoryBytes: mb * (1 << 20), maxUrlBytes: Math.max(ENGINE_MAX_URL_BYTES, maxUrlBytes) };
  setEngineLimits(limits);
  return limits;
}

/** `--workers`, for commands that can spread chunks over threads. */
export const WORKERS_OPTION: OptionSpec = { type: 'string', value: 'N|auto', help: 'worker threads (default 1; auto: one per core)' };

/** Options of every command that fetches robots.txt over HTTP. */
export const FETCH_OPTIONS = {
  'user-agent': { type: 'string', value: 'STRING', help: `User-Agent header when fetching (default ${defaultUserAgent()})` },
  'timeout-ms': { type: 'string', value: 'N', help: 'deadline per robots.txt when fetching, redirects included (default 30000)' },
} as const satisfies Record<string, OptionSpec>;

/**
 * `value` when it is one of `allowed`, `fallback` when absent.
 * @example oneOf('format', 'jsonl', ['tsv', 'jsonl'], 'tsv') // 'jsonl'
 */
export function oneOf<T extends string>(flag: string, value: string | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new CliError(`--${flag} must be ${allowed.join(' or ')}, got ${JSON.stringify(value)}`);
}

/**
 * A positive integer option; `--workers auto` is one per core.
 * @example positiveInteger('cache-hosts', '500', 10000) // 500
 */
export function positiveInteger(flag: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (flag === 'workers' && value === 'auto') return availableParallelism();
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1) {
    throw new CliError(`--${flag} must be a positive integer${flag === 'workers' ? ' or auto' : ''}, got ${JSON.stringify(value)}`);
  }
  return n;
}

/**
 * A number of milliseconds a timer can wait: setTimeout treats more than 2^31 - 1 as 1.
 * @example milliseconds('timeout-ms', '5000', 30000, 1) // 5000
 */
export function milliseconds(flag: string, value: string | undefined, fallback: number, min: 0 | 1): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > 0x7fffffff) {
    throw new CliError(`--${flag} must be an integer from ${min} to 2147483647 (ms), got ${JSON.stringify(value)}`);
  }
  return n;
}

/**
 * Refuses options that mean nothing in the mode asked for, rather than ignoring them.
 * @example refuse(args, ['concurrency'], 'applies only with --fetch') // throws when --concurrency was given
 */
export function refuse(args: ParsedArgs, flags: readonly string[], why: string): void {
  for (const flag of flags) if (args.values[flag] !== undefined) throw new CliError(`--${flag} ${why}`);
}

/**
 * `--user-agent` and `--timeout-ms` as fetch settings (their defaults when absent).
 * @example fetchSettings(args) // { userAgent: 'robotstxt-wasm/0.1.0', timeoutMs: 30000 }
 */
export function fetchSettings(args: ParsedArgs): CliFetchOptions {
  const userAgent = stringOption(args, 'user-agent');
  return {
    userAgent: userAgent === undefined ? defaultUserAgent() : checkUserAgent(userAgent),
    timeoutMs: milliseconds('timeout-ms', stringOption(args, 'timeout-ms'), 30_000, 1),
  };
}

/**
 * Checks the URL inputs before any row is printed (every file exists and is a readable
 * file: the run is not left half done by the third of three files), and returns their
 * total size for the progress bar: null when stdin is among them (size unknown).
 * @example checkUrlInputs(['a.txt', 'b.txt']) // 2048
 */
export function checkUrlInputs(paths: readonly string[]): number | null {
  let total = 0;
  let known = true;
  for (const path of paths) {
    if (path === '-') {
      known = false;
      continue;
    }
    let size: number;
    try {
      const stat = statSync(path);
      if (stat.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
      accessSync(path, constants.R_OK);
      size = stat.size;
    } catch (error) {
      throw new CliError(`cannot read URLs from ${path}: ${fileErrorText(error)}`);
    }
    total += size;
  }
  return known && paths.length > 0 ? total : null;
}

/**
 * Runs `body` with a progress line over the URL inputs (checked first), then prints the
 * lines it returns (`notes` before the summary, `after` after it) and the summary on stderr unless `--quiet` (the URL inputs are the
 * positionals). Resolves with exit status 0.
 * @example return runRows(args, context, async (progress) => ({ totals: await runCheck({ ...options, progress }, context.stdin, context.stdout) }));
 */
export async function runRows(
  args: ParsedArgs, context: CommandContext,
  body: (progress: TtyProgress | null) => Promise<{ totals: RunTotals; notes?: readonly string[]; after?: readonly string[] }>,
): Promise<number> {
  const quiet = args.values.quiet === true;
  const progress = context.progress(quiet, checkUrlInputs(args.positionals));
  const started = performance.now();
  const { totals, notes = [], after = [] } = await body(progress);
  progress?.finish();
  if (!quiet) {
    for (const note of notes) context.stderr.write(`${note}\n`);
    context.stderr.write(`${formatSummary(totals, (performance.now() - started) / 1000)}\n`);
    for (const line of after) context.stderr.write(`${line}\n`);
  }
  return 0;
}
