// `robotstxt classify`: each URL against the robots.txt of its own host, from a directory.
import { statSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import type { Profile } from '../parse.js';
import { runJob, type ProgressSink } from './run.js';
import type { ClassifyJob, RowFormat } from './jobs.js';
import type { RunTotals } from './output.js';
import { withUrlInput, type UrlPaths } from './check.js';
import { CliError, fileErrorText } from './errors.js';
import { readOutcomes } from './source.js';

/** Compiled hosts kept by default: bounded memory on inputs with millions of hosts. */
export const DEFAULT_CACHE_HOSTS = 10_000;

export interface ClassifyOptions extends Partial<RowFormat> {
  /** Directory of `<host>.txt` files (see hostFileName in source.ts), and maybe an outcomes.tsv. */
  readonly robotsDir: string;
  readonly agent: string;
  readonly profile: Profile;
  /** Files of URLs read one after another ('-': stdin), or undefined for stdin. */
  readonly urlsPath: UrlPaths;
  /** What a host without a file gets; RFC 9309 §2.3.1.3 "unavailable" means allow. */
  readonly missing?: 'allow' | 'disallow';
  readonly cacheHosts?: number;
  readonly workers?: number;
  readonly chunkBytes?: number;
  /** Longest URL line in bytes (--max-url-bytes; see CheckOptions.maxUrlBytes). */
  readonly maxUrlBytes?: number;
  /** See RunOptions.fdOutput: true only for process.stdout. */
  readonly fdOutput?: boolean;
  readonly progress?: ProgressSink | null;
}

/**
 * Runs `classify`: each URL line against `DIR/<host>.txt` (compiled once per host, kept
 * in an LRU), one `allow|disallow<TAB>LINE<TAB>HOST<TAB>URL` row each, in input order.
 * @example await runClassify({ robotsDir: 'robots', agent: 'Googlebot', profile: 'rfc', urlsPath: '-' }, process.stdin, process.stdout)
 */
export async function runClassify(options: ClassifyOptions, stdin: Readable, stdout: Writable): Promise<RunTotals> {
  let isDir = false;
  try {
    isDir = statSync(options.robotsDir).isDirectory();
  } catch (error) {
    throw new CliError(`cannot read --robots-dir ${options.robotsDir}: ${fileErrorText(error)}`);
  }
  if (!isDir) throw new CliError(`--robots-dir ${options.robotsDir} is not a directory`);
  // Checked here, before any worker starts, so a malformed outcomes.tsv is one clear error.
  readOutcomes(options.robotsDir);
  const job: ClassifyJob = {
    kind: 'classify',
    robotsDir: options.robotsDir,
    agent: options.agent,
    profile: options.profile,
    missing: options.missing ?? 'allow',
    cacheHosts: options.cacheHosts ?? DEFAULT_CACHE_HOSTS,
    format: options.format ?? 'tsv',
    only: options.only ?? null,
  };
  return withUrlInput(options.urlsPath, stdin, { readBytes: options.chunkBytes, maxUrlBytes: options.maxUrlBytes }, (input) =>
    runJob(job, input, stdout, {
      workers: options.workers ?? 1, chunkBytes: options.chunkBytes, fdOutput: options.fdOutput, progress: options.progress ?? null,
    }),
  );
}
