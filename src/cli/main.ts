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
import { checkUserAgent, defaultUserAgent, isRobotsUrl, type CliFetchOptions } from './fetch.js';
import {
  DEFAULT_CONCURRENCY, DEFAULT_MAX_DELAY_MS, FETCH_CHUNK_BYTES, formatFetchCounts, runFetchClassify,
} from './fetch-classify.js';
import type { Profile } from '../parse.js';
import { fetchCommand, FETCH_USAGE } from './fetch-out.js';

const USAGE = `Usage:
  robotstxt check    --robots FILE|URL --agent TOKEN [options] [URLS|-]
  robotstxt classify --robots-dir DIR  --agent TOKEN [options] [URLS|-]
  robotstxt classify --fetch           --agent TOKEN [options] [URLS|-]

Reads one URL per line (from URLS, or stdin when URLS is '-' or absent) and prints one
row per line, in input order:
  check     allow|disallow<TAB>LINE<TAB>URL
  classify  allow|disallow<TAB>LINE<TAB>HOST<TAB>URL
LINE is the line of the deciding rule in the robots.txt (0 if none, and for a robots.txt
that was unavailable or unreachable). TSV fields are escaped as PostgreSQL's text COPY
reads them: \\\\ \\t \\n \\r for backslash TAB LF CR, \\xHH for other control bytes.
classify judges each URL against DIR/<host>.txt: the host lowercased, a :port written as _port
(https://Example.com:8080/x -> example.com_8080.txt; a default port, :80 on http and
:443 on https, is left out). A host without a file has no robots.txt (RFC 9309
"unavailable": allowed, unless --missing disallow, or DIR/outcomes.tsv says otherwise).

Fetching (check --robots http(s)://..., classify --fetch): the robots.txt of the URL's
origin (scheme://host:port/robots.txt) is fetched. RFC 9309 decides what a failure
means: 4xx -> every URL allowed, 5xx/network/timeout -> every URL disallowed. check says
so in one line on stderr; classify counts the outcomes before the summary. JSONL rows
carry "outcome": ok, unavailable, unreachable (or none: no http(s) origin).

Options:
  --profile rfc|google      rule semantics (default rfc: RFC 9309)
  --format tsv|jsonl        output rows (default tsv)
  --only allowed|disallowed print only those rows (a filter for pipelines)
  --missing allow|disallow  classify: verdict for hosts without a file (with --fetch: for
                            lines without an http(s) origin, e.g. relative; default allow)
  --cache-hosts N           classify: hosts kept compiled in memory (default ${DEFAULT_CACHE_HOSTS})
  --workers N|auto          worker threads (default 1; auto = one per core; not with --fetch)
  --chunk-bytes N           input bytes per chunk handed to Wasm or a worker
                            (default 1048576; 65536 with --fetch)
  --quiet                   no progress bar and no summary line on stderr

Fetching options:
  --user-agent STRING       User-Agent header (default ${defaultUserAgent()})
  --timeout-ms N            deadline per robots.txt, redirects included (default 30000)
  --concurrency N           classify --fetch: robots.txt fetches at once (default ${DEFAULT_CONCURRENCY})
  --max-delay-ms N          classify --fetch: cap on the crawl-delay honoured between two
                            robots.txt requests to one host (default ${DEFAULT_MAX_DELAY_MS}; 0: never wait)

A summary line (N urls, A allowed, D disallowed, T s, R urls/s) goes to stderr, with a
progress bar while stderr is a terminal.

${FETCH_USAGE}`;

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

/** A number of milliseconds a timer can wait: setTimeout treats more than 2^31 - 1 as 1. */
function milliseconds(flag: string, value: string | undefined, fallback: number, min: 0 | 1): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > 0x7fffffff) {
    throw new CliError(`--${flag} must be an integer from ${min} to 2147483647 (ms), got ${JSON.stringify(value)}`);
  }
  return n;
}

/** Refuses flags that mean nothing in this mode, rather than ignoring them. */
function refuse(values: Record<string, unknown>, flags: readonly string[], why: string): void {
  for (const flag of flags) if (values[flag] !== undefined) throw new CliError(`--${flag} ${why}`);
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return command === undefined ? 2 : 0;
  }
  if (command === 'fetch') return fetchCommand(rest);
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
        fetch: { type: 'boolean' },
        'user-agent': { type: 'string' },
        'timeout-ms': { type: 'string' },
        concurrency: { type: 'string' },
        'max-delay-ms': { type: 'string' },
      },
    });
  } catch (error) {
    throw new CliError(`${(error as Error).message}\n\n${USAGE}`);
  }
  const { values, positionals } = parsed;
  if (values.agent === undefined) throw new CliError('--agent TOKEN is required');
  if (positionals.length > 1) throw new CliError(`expected at most one URLS argument, got ${positionals.length}`);
  const fetching = command === 'check' ? values.robots !== undefined && isRobotsUrl(values.robots) : values.fetch === true;
  if (!fetching) refuse(values, ['user-agent', 'timeout-ms'], 'applies only when fetching (check --robots http(s)://..., classify --fetch)');
  if (command === 'check') refuse(values, ['fetch', 'concurrency', 'max-delay-ms'], 'belongs to classify --fetch');
  else if (!fetching) refuse(values, ['concurrency', 'max-delay-ms'], 'belongs to classify --fetch');
  const fetchOptions: CliFetchOptions = {
    userAgent: values['user-agent'] === undefined ? defaultUserAgent() : checkUserAgent(values['user-agent']),
    timeoutMs: milliseconds('timeout-ms', values['timeout-ms'], 30_000, 1),
  };
  const common = {
    agent: values.agent,
    profile: oneOf<Profile>('profile', values.profile, ['rfc', 'google'], 'rfc'),
    format: oneOf<'tsv' | 'jsonl'>('format', values.format, ['tsv', 'jsonl'], 'tsv'),
    only: values.only === undefined ? null : oneOf<'allowed' | 'disallowed'>('only', values.only, ['allowed', 'disallowed'], 'allowed'),
    workers: positiveInteger('workers', values.workers, 1),
    // With --fetch, small chunks: rows flow while the window's hosts are being fetched.
    chunkBytes: positiveInteger('chunk-bytes', values['chunk-bytes'], command === 'classify' && fetching ? FETCH_CHUNK_BYTES : CHUNK_BYTES),
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
  let robotsLine: string | null = null;
  if (command === 'check') {
    if (values['robots-dir'] !== undefined) throw new CliError('--robots-dir belongs to classify; check takes --robots FILE|URL');
    if (!values.robots) throw new CliError('--robots FILE|URL is required');
    totals = await runCheck({ ...common, robotsPath: values.robots, fetch: fetchOptions, progress }, process.stdin, process.stdout);
  } else {
    if (values.robots !== undefined) throw new CliError('--robots belongs to check; classify takes --robots-dir DIR or --fetch');
    const classifyOptions = {
      ...common,
      missing: oneOf<'allow' | 'disallow'>('missing', values.missing, ['allow', 'disallow'], 'allow'),
      cacheHosts: positiveInteger('cache-hosts', values['cache-hosts'], DEFAULT_CACHE_HOSTS),
      progress,
    };
    if (fetching) {
      if (values['robots-dir'] !== undefined) throw new CliError('--robots-dir and --fetch exclude each other: robots.txt comes from files or from the web');
      // Fetching is I/O-bound and this thread formats millions of rows per second; workers
      // would each need their own cache and politeness, so --fetch stays in one thread.
      if (common.workers > 1) throw new CliError('--workers does not apply to --fetch (one thread; use --concurrency N for parallel fetches)');
      const fetched = await runFetchClassify(
        {
          ...classifyOptions,
          ...fetchOptions,
          concurrency: positiveInteger('concurrency', values.concurrency, DEFAULT_CONCURRENCY),
          maxDelayMs: milliseconds('max-delay-ms', values['max-delay-ms'], DEFAULT_MAX_DELAY_MS, 0),
        },
        process.stdin,
        process.stdout,
      );
      totals = fetched;
      robotsLine = formatFetchCounts(fetched.robots);
    } else {
      if (!values['robots-dir']) throw new CliError('--robots-dir DIR or --fetch is required');
      totals = await runClassify({ ...classifyOptions, robotsDir: values['robots-dir'] }, process.stdin, process.stdout);
    }
  }
  progress?.finish();
  if (!quiet) {
    if (robotsLine !== null) process.stderr.write(`${robotsLine}\n`);
    process.stderr.write(`${formatSummary(totals, (performance.now() - started) / 1000)}\n`);
  }
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
