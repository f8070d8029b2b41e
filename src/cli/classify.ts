// `robotstxt classify`: each URL against the robots.txt of its own host, from a directory.
import { statSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import type { Profile } from '../parse/lexer.js';
import { runJob, type ProgressSink } from './run.js';
import type { ClassifyJob, RowFormat } from './jobs.js';
import type { RunTotals } from './output.js';
import { withUrlInput, type UrlPaths } from './check.js';
import { CliError, fileErrorText } from './errors.js';
import { readOutcomes } from './classify/index.js';
import { SharedFileCount } from './robots-file.js';
import { DEFAULT_MAX_BYTES } from '../robots.js';
import type { EngineLimits } from '../wasm/index.js';
import { agentsHeader, agentTotals, type AgentTotals } from './check-agents.js';

/**
 * `{ perAgent }` for a run with --agents (nothing without): each agent's counts, a line
 * over --max-url-bytes disallowed for each.
 */
export function perAgentOf(agents: readonly string[] | undefined, totals: RunTotals): { perAgent?: AgentTotals[] } {
  if (agents === undefined) return {};
  const overLong = totals.overLong ?? 0;
  return { perAgent: agentTotals(totals.agentsAllowed ?? agents.map(() => 0), totals.urls - overLong, overLong) };
}

/** Compiled hosts kept by default: bounded memory on inputs with millions of hosts. */
export const DEFAULT_CACHE_HOSTS = 10_000;

/** Options of both classify modes (runClassify, and runFetchClassify in fetch-classify.ts). */
export interface ClassifyRunOptions extends Partial<RowFormat> {
  readonly agent: string;
  /** `--agents`: one verdict column per agent (`agent` is then the first). */
  readonly agents?: readonly string[];
  /** With `agents`, TSV: a first row naming the columns (the agents, host, url). */
  readonly header?: boolean;
  readonly profile: Profile;
  /** Files of URLs read one after another ('-': stdin), or undefined for stdin. */
  readonly urlsPath: UrlPaths;
  /**
   * What a host without a file gets (RFC 9309 §2.3.1.3 "unavailable" means allow); with
   * --fetch, a line without an http(s) origin.
   */
  readonly missing?: 'allow' | 'disallow';
  /** Compiled hosts kept (and with --fetch, origins kept by the RobotsCache). */
  readonly cacheHosts?: number;
  readonly chunkBytes?: number;
  /** Longest URL line in bytes (--max-url-bytes; see CheckOptions.maxUrlBytes). */
  readonly maxUrlBytes?: number;
  /** Bytes of each robots.txt read and parsed (--max-robots-bytes; default DEFAULT_MAX_BYTES). */
  readonly maxRobotsBytes?: number;
  /** Engine limits for worker threads (this thread's are set by the caller: engineSettings). */
  readonly engine?: Partial<EngineLimits>;
  readonly progress?: ProgressSink | null;
}

export interface ClassifyOptions extends ClassifyRunOptions {
  /** Directory of `<host>.txt` files (see hostFileName in classify/directory-source.ts), and maybe an outcomes.tsv. */
  readonly robotsDir: string;
  readonly workers?: number;
  /** See RunOptions.fdOutput: true only for process.stdout. */
  readonly fdOutput?: boolean;
  /** Told, in one line, how many robots files were not regular files (default: stderr). */
  readonly onNote?: (line: string) => void;
}

/** Totals of a `classify --robots-dir` run. */
export interface ClassifyTotals extends RunTotals {
  /** Host files that were no regular file (FIFO, device, directory, socket): their hosts were disallowed, line 0. */
  readonly unreadableRobots: number;
  /** Host files longer than --max-robots-bytes: only the lines within the limit were used. */
  readonly cutRobots: number;
  /** With --agents: each agent's counts. */
  readonly perAgent?: readonly AgentTotals[];
}

/**
 * The note for robots.txt files longer than the parse limit (`what`: files, or fetched
 * robots.txt), naming the limit: only their lines within it were used (RFC 9309 §2.5).
 * @example formatCut(1, 512000) // '1 robots file cut at --max-robots-bytes (512000): only the lines within the limit used (RFC 9309 §2.5)'
 */
export function formatCut(count: number, limit: number, what = 'robots file'): string {
  return `${count} ${what}${count === 1 ? '' : 's'} cut at --max-robots-bytes (${limit}): only the lines within the limit used (RFC 9309 §2.5)`;
}

/**
 * The note for robots files `classify` refused to read, naming the first.
 * @example formatUnreadable(2, 'robots/a.txt: a FIFO, not a regular file') // '2 robots files unreadable (…)…'
 */
export function formatUnreadable(count: number, first: string | null): string {
  const files = count === 1 ? '1 robots file unreadable' : `${count} robots files unreadable`;
  return `${files} (not a regular file; their hosts' URLs disallowed, line 0)${first === null ? '' : `, first: ${first}`}`;
}

/**
 * Runs `classify`: each URL line against `DIR/<host>.txt` (compiled once per host, kept
 * in an LRU), one `allow|disallow<TAB>LINE<TAB>HOST<TAB>URL` row each, in input order.
 * A host file that is no regular file is not read: the host's URLs are disallowed with
 * line 0, as for an unreachable robots.txt (RFC 9309 §2.3.1.4), and counted in a note.
 * @example await runClassify({ robotsDir: 'robots', agent: 'Googlebot', profile: 'rfc', urlsPath: '-' }, process.stdin, process.stdout)
 */
export async function runClassify(options: ClassifyOptions, stdin: Readable, stdout: Writable): Promise<ClassifyTotals> {
  let isDir = false;
  try {
    isDir = statSync(options.robotsDir).isDirectory();
  } catch (error) {
    throw new CliError(`cannot read --robots-dir ${options.robotsDir}: ${fileErrorText(error)}`);
  }
  if (!isDir) throw new CliError(`--robots-dir ${options.robotsDir} is not a directory`);
  // Checked here, before any worker starts, so a malformed outcomes.tsv is one clear error.
  readOutcomes(options.robotsDir);
  // Shared with the workers, which count the files they refuse into it.
  const unreadable = new SharedFileCount(SharedFileCount.buffer());
  const cut = new SharedFileCount(SharedFileCount.buffer());
  const maxBytes = options.maxRobotsBytes ?? DEFAULT_MAX_BYTES;
  const job: ClassifyJob = {
    kind: 'classify',
    robotsDir: options.robotsDir,
    agent: options.agent,
    ...(options.agents === undefined ? {} : { agents: options.agents }),
    profile: options.profile,
    missing: options.missing ?? 'allow',
    cacheHosts: options.cacheHosts ?? DEFAULT_CACHE_HOSTS,
    unreadable: unreadable.shared,
    cut: cut.shared,
    maxBytes,
    ...(options.engine === undefined ? {} : { engine: options.engine }),
    format: options.format ?? 'tsv',
    only: options.only ?? null,
  };
  if (options.agents !== undefined && options.header === true) stdout.write(agentsHeader(options.agents, true));
  const totals = await withUrlInput(options.urlsPath, stdin, { readBytes: options.chunkBytes, maxUrlBytes: options.maxUrlBytes }, (input) =>
    runJob(job, input, stdout, {
      workers: options.workers ?? 1, chunkBytes: options.chunkBytes, fdOutput: options.fdOutput, progress: options.progress ?? null,
    }),
  );
  const tell = options.onNote ?? ((line: string) => process.stderr.write(`robotstxt: ${line}\n`));
  const count = unreadable.count;
  if (count > 0) tell(formatUnreadable(count, unreadable.firstFile));
  if (cut.count > 0) tell(`${formatCut(cut.count, maxBytes)}, first: ${cut.firstFile ?? ''}`);
  return { ...totals, unreadableRobots: count, cutRobots: cut.count, ...perAgentOf(options.agents, totals) };
}
