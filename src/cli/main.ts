#!/usr/bin/env node
// The `robotstxt` command: argument parsing and dispatch to subcommands.
import { parseArgs } from 'node:util';
import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { runCheck } from './check.js';
import { runClassify, DEFAULT_CACHE_HOSTS } from './classify.js';
import { CliError } from './errors.js';
import { formatSummary, type RunTotals } from './output.js';
import { TtyProgress } from './progress.js';
import { CHUNK_BYTES } from './stream.js';
import type { Profile } from '../parse.js';

const USAGE = `Usage:
  robotstxt check    --robots FILE    --agent TOKEN [options] [URLS|-]
  robotstxt classify --robots-dir DIR --agent TOKEN [options] [URLS|-]

Reads one URL per line (from URLS, or stdin when URLS is '-' or absent) and prints one
row per line, in input order:
  check     allow|disallow<TAB>LINE<TAB>URL
  classify  allow|disallow<TAB>LINE<TAB>HOST<TAB>URL
LINE is the line of the deciding rule in the robots.txt (0 if none). classify judges each
URL against DIR/<host>.txt: the host lowercased, a :port written as _port
(https://Example.com:8080/x -> example.com_8080.txt). A host without a file has no
robots.txt (RFC 9309 "unavailable": allowed, unless --missing disallow).

Options:
  --profile rfc|google      rule semantics (default rfc: RFC 9309)
  --format tsv|jsonl        output rows (default tsv)
  --only allowed|disallowed print only those rows (a filter for pipelines)
  --missing allow|disallow  classify: verdict for hosts without a file (default allow)
  --cache-hosts N           classify: compiled hosts kept in memory (default ${DEFAULT_CACHE_HOSTS})
  --workers N|auto          worker threads (default 1; auto = one per core)
  --chunk-bytes N           input bytes per chunk handed to Wasm or a worker (default 1048576)
  --quiet                   no progress bar and no summary line on stderr

A summary line (N urls, A allowed, D disallowed, T s, R urls/s) goes to stderr, with a
progress bar while stderr is a terminal.`;

function oneOf<T extends string>(flag: string, value: string | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new CliError(`--${flag} must be ${allowed.join(' or ')}, got ${JSON.stringify(value)}`);
}

function positiveInteger(flag: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (flag === 'workers' && value === 'auto') return availableParallelism();
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1) {
    throw new CliError(`--${flag} must be a positive integer${flag === 'workers' ? ' or auto' : ''}, got ${JSON.stringify(value)}`);
  }
  return n;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return command === undefined ? 2 : 0;
  }
  if (command !== 'check' && command !== 'classify') throw new CliError(`unknown command ${JSON.stringify(command)}\n\n${USAGE}`);
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      allowPositionals: true,
      strict: true,
      options: {
        robots: { type: 'string' },
        'robots-dir': { type: 'string' },
        agent: { type: 'string' },
        profile: { type: 'string' },
        format: { type: 'string' },
        only: { type: 'string' },
        missing: { type: 'string' },
        'cache-hosts': { type: 'string' },
        workers: { type: 'string' },
        'chunk-bytes': { type: 'string' },
        quiet: { type: 'boolean' },
      },
    });
  } catch (error) {
    throw new CliError(`${(error as Error).message}\n\n${USAGE}`);
  }
  const { values, positionals } = parsed;
  if (values.agent === undefined) throw new CliError('--agent TOKEN is required');
  if (positionals.length > 1) throw new CliError(`expected at most one URLS argument, got ${positionals.length}`);
  const common = {
    agent: values.agent,
    profile: oneOf<Profile>('profile', values.profile, ['rfc', 'google'], 'rfc'),
    format: oneOf<'tsv' | 'jsonl'>('format', values.format, ['tsv', 'jsonl'], 'tsv'),
    only: values.only === undefined ? null : oneOf<'allowed' | 'disallowed'>('only', values.only, ['allowed', 'disallowed'], 'allowed'),
    workers: positiveInteger('workers', values.workers, 1),
    chunkBytes: positiveInteger('chunk-bytes', values['chunk-bytes'], CHUNK_BYTES),
    fdOutput: true,
    urlsPath: positionals[0],
  };
  const quiet = values.quiet === true;
  let totalBytes: number | null = null;
  if (common.urlsPath !== undefined && common.urlsPath !== '-') {
    try {
      totalBytes = statSync(common.urlsPath).size;
    } catch (error) {
      throw new CliError(`cannot read URLs from ${common.urlsPath}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
  }
  const progress = !quiet && process.stderr.isTTY ? new TtyProgress(process.stderr, totalBytes) : null;
  const started = performance.now();

  let totals: RunTotals;
  if (command === 'check') {
    if (values['robots-dir'] !== undefined) throw new CliError('--robots-dir belongs to classify; check takes --robots FILE');
    if (!values.robots) throw new CliError('--robots FILE is required');
    totals = await runCheck({ ...common, robotsPath: values.robots, progress }, process.stdin, process.stdout);
  } else {
    if (values.robots !== undefined) throw new CliError('--robots belongs to check; classify takes --robots-dir DIR');
    if (!values['robots-dir']) throw new CliError('--robots-dir DIR is required');
    totals = await runClassify(
      {
        ...common,
        robotsDir: values['robots-dir'],
        missing: oneOf<'allow' | 'disallow'>('missing', values.missing, ['allow', 'disallow'], 'allow'),
        cacheHosts: positiveInteger('cache-hosts', values['cache-hosts'], DEFAULT_CACHE_HOSTS),
        progress,
      },
      process.stdin,
      process.stdout,
    );
  }
  progress?.finish();
  if (!quiet) process.stderr.write(`${formatSummary(totals, (performance.now() - started) / 1000)}\n`);
  return 0;
}

function isBrokenPipe(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === 'EPIPE';
}

// The reader of our stdout went away (`| head`): stop quietly, as a filter should.
process.stdout.on('error', (error) => {
  if (isBrokenPipe(error)) process.exit(0);
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (isBrokenPipe(error)) process.exit(0);
    if (error instanceof CliError) {
      process.stderr.write(`robotstxt: ${error.message}\n`);
      process.exitCode = 2;
    } else {
      process.stderr.write(`robotstxt: internal error: ${(error as Error).stack ?? String(error)}\n`);
      process.exitCode = 70;
    }
  },
);
