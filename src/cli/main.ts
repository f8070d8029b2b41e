#!/usr/bin/env node
// The `robotstxt` command: the table of subcommands, dispatch, help and version, and the process's exit.
import { runCheck } from './check.js';
import { agentListOption, formatAgentTotals, runCheckAgents } from './check-agents.js';
import { runClassify, DEFAULT_CACHE_HOSTS, formatCut } from './classify.js';
import { checkAgent } from './agent.js';
import { closestName, commandHelp, parseCommandLine, stringOption, type Command, type CommandContext, type ParsedArgs } from './command.js';
import { diffCommand } from './diff.js';
import { CliError, EXIT_LIMIT, fileErrorText, limitErrorText } from './errors.js';
import { fetchOutCommand } from './fetch-out.js';
import { isRobotsUrl } from './fetch.js';
import { lintCommand } from './lint.js';
import {
  DEFAULT_CONCURRENCY, DEFAULT_MAX_DELAY_MS, FETCH_CHUNK_BYTES, formatFetchCounts, runFetchClassify,
} from './fetch-classify.js';
import {
  FETCH_OPTIONS, ROW_OPTIONS, WORKERS_OPTION, engineSettings, fetchSettings, maxRobotsBytes, milliseconds, oneOf, positiveInteger, refuse,
  runRows,
} from './options.js';
import { EXIT_OUTPUT_ERROR, closedOutput, stdoutWasClosed, stopOutput } from './output.js';
import { TtyProgress, sameTerminal, shouldDrawProgress } from './progress.js';
import { CHUNK_BYTES, DEFAULT_MAX_URL_BYTES } from './stream.js';
import { packageVersion } from './version.js';
import type { Profile } from '../parse/lexer.js';

const ROWS = `Reads one URL per line from the URLS files in turn (stdin for '-' or none), and prints
one row per line, in input order.`;

const LINE = `LINE is the line of the deciding rule in the robots.txt (0 if none, and for a robots.txt
that was unavailable or unreachable). TSV fields are escaped as PostgreSQL's text COPY
reads them: \\\\ \\t \\n \\r for backslash TAB LF CR, \\xHH for other control bytes.`;

/** The options every row-printing command reads the same way, and its URL inputs (the positionals). */
function rowOptions(args: ParsedArgs, chunkBytes: number) {
  return { agent: checkAgent(stringOption(args, 'agent')), ...agentlessRowOptions(args, chunkBytes) };
}

/** rowOptions but the agent: `check --agents` reads its agents itself. */
function agentlessRowOptions(args: ParsedArgs, chunkBytes: number) {
  const maxUrlBytes = positiveInteger('max-url-bytes', stringOption(args, 'max-url-bytes'), DEFAULT_MAX_URL_BYTES);
  return {
    profile: oneOf<Profile>('profile', stringOption(args, 'profile'), ['rfc', 'google'], 'rfc'),
    format: oneOf<'tsv' | 'jsonl'>('format', stringOption(args, 'format'), ['tsv', 'jsonl'], 'tsv'),
    only: args.values.only === undefined ? null : oneOf<'allowed' | 'disallowed'>('only', stringOption(args, 'only'), ['allowed', 'disallowed'], 'allowed'),
    chunkBytes: positiveInteger('chunk-bytes', stringOption(args, 'chunk-bytes'), chunkBytes),
    maxUrlBytes,
    maxRobotsBytes: maxRobotsBytes(args),
    // Applied to this thread's engine now; the job carries them to worker threads.
    engine: engineSettings(args, maxUrlBytes),
    fdOutput: true,
    urlsPath: args.positionals,
  };
}

/**
 * The agents of `check --agents A,B` or `--agents-file FILE`, or null for `--agent`.
 * Exactly one of the three is given; options that mean nothing for several agents are refused.
 */
function agentsOf(args: ParsedArgs, workers = false): string[] | null {
  const agents = agentListOption(args);
  if (agents === null) return null;
  refuse(args, ['only'], 'does not apply to --agents: a URL may be allowed for one agent and disallowed for another (filter the JSONL or TSV columns instead)');
  if (!workers) refuse(args, ['workers'], 'does not apply to --agents with check: it runs in one thread (each URL is read once for every agent)');
  if (args.values.header !== undefined && stringOption(args, 'format') === 'jsonl') {
    throw new CliError('--header applies to TSV rows only: JSONL rows name their fields');
  }
  return agents;
}

const checkCommand: Command = {
  name: 'check',
  summary: 'URLs against one robots.txt (a file, or fetched from a site)',
  synopsis: [
    'check --robots FILE|URL --agent TOKEN [options] [URLS...|-]',
    'check --robots FILE|URL --agents A,B,... | --agents-file FILE [options] [URLS...|-]',
  ],
  description: `${ROWS} Rows: allow|disallow<TAB>LINE<TAB>URL.
${LINE}

--agents / --agents-file: one row per URL with every agent's verdict, in the order given:
allow|disallow:LINE<TAB>...<TAB>URL (--header first prints the agents and url), or JSONL
{"url":...,"verdicts":{"A":{"verdict":...,"line":...},...}}. The summary counts a URL as
allowed when every agent may fetch it, then prints each agent's counts.

--robots http(s)://... fetches the robots.txt of that URL's origin. RFC 9309 decides
what a failure means: 4xx -> every URL allowed, 5xx/network/timeout -> every URL
disallowed; a line on stderr says which.`,
  options: {
    robots: { type: 'string', value: 'FILE|URL', help: 'the robots.txt file, or a URL on the site whose /robots.txt is fetched (required)' },
    ...ROW_OPTIONS,
    agent: { ...ROW_OPTIONS.agent, help: 'product token matched against User-agent lines (this, --agents or --agents-file is required)' },
    agents: { type: 'string', value: 'A,B,...', help: 'several product tokens, comma-separated: one verdict column each (not with --only, --workers)' },
    'agents-file': { type: 'string', value: 'FILE', help: "like --agents, one token per line ('#' comments and blank lines skipped)" },
    header: { type: 'boolean', help: 'with --agents, TSV: a first row naming the columns (the agents, then url)' },
    workers: WORKERS_OPTION,
    ...FETCH_OPTIONS,
  },
  async run(args, context) {
    const robots = stringOption(args, 'robots');
    if (!robots) throw new CliError('--robots FILE|URL is required');
    if (!isRobotsUrl(robots)) refuse(args, Object.keys(FETCH_OPTIONS), 'applies only when fetching (--robots http(s)://...)');
    const agents = agentsOf(args);
    if (agents !== null) {
      const options = {
        ...agentlessRowOptions(args, CHUNK_BYTES),
        agents,
        header: args.values.header === true,
        robotsPath: robots,
        fetch: { ...fetchSettings(args), maxBytes: maxRobotsBytes(args) },
      };
      return runRows(args, context, async (progress) => {
        const totals = await runCheckAgents({ ...options, progress }, context.stdin, context.stdout);
        return { totals, after: formatAgentTotals(totals.agents, totals.perAgent) };
      });
    }
    refuse(args, ['header'], 'applies only with --agents or --agents-file (the columns of one agent are fixed)');
    const options = {
      ...rowOptions(args, CHUNK_BYTES),
      robotsPath: robots,
      fetch: { ...fetchSettings(args), maxBytes: maxRobotsBytes(args) },
      workers: positiveInteger('workers', stringOption(args, 'workers'), 1),
    };
    return runRows(args, context, async (progress) => ({ totals: await runCheck({ ...options, progress }, context.stdin, context.stdout) }));
  },
};

const classifyCommand: Command = {
  name: 'classify',
  summary: "each URL against its own host's robots.txt (a directory, or fetched)",
  synopsis: [
    'classify --robots-dir DIR --agent TOKEN [options] [URLS...|-]',
    'classify --fetch          --agent TOKEN [options] [URLS...|-]',
    'classify --robots-dir DIR | --fetch  --agents A,B,... [options] [URLS...|-]',
  ],
  description: `${ROWS} Rows: allow|disallow<TAB>LINE<TAB>HOST<TAB>URL.
${LINE}

--agents / --agents-file: one row per URL with every agent's verdict, as check --agents
writes them, the host before the URL: allow|disallow:LINE<TAB>...<TAB>HOST<TAB>URL, or
JSONL {"url":...,"host":...,"verdicts":{...}}. The summary adds each agent's counts.

--robots-dir: each URL is judged against DIR/<host>.txt, the host lowercased, a :port
written as _port (https://Example.com:8080/x -> example.com_8080.txt; a default port,
:80 on http and :443 on https, is left out). A host without a file has no robots.txt
(RFC 9309 "unavailable": allowed, unless --missing disallow, or DIR/outcomes.tsv, as
written by robotstxt fetch, says otherwise).

--fetch: each URL's origin (scheme://host:port) gets its robots.txt over HTTP, once.
4xx -> allowed, 5xx/network/timeout -> disallowed (RFC 9309 §2.3.1); the outcomes are
counted on stderr before the summary. JSONL rows carry "outcome": ok, unavailable,
unreachable (or none: no http(s) origin).`,
  options: {
    'robots-dir': { type: 'string', value: 'DIR', help: 'a directory of <host>.txt files (this or --fetch is required)' },
    fetch: { type: 'boolean', help: "fetch each origin's robots.txt instead of reading files" },
    ...ROW_OPTIONS,
    agent: { ...ROW_OPTIONS.agent, help: 'product token matched against User-agent lines (this, --agents or --agents-file is required)' },
    agents: { type: 'string', value: 'A,B,...', help: 'several product tokens, comma-separated: one verdict column each (not with --only)' },
    'agents-file': { type: 'string', value: 'FILE', help: "like --agents, one token per line ('#' comments and blank lines skipped)" },
    header: { type: 'boolean', help: 'with --agents, TSV: a first row naming the columns (the agents, host, url)' },
    'chunk-bytes': { ...ROW_OPTIONS['chunk-bytes'], help: `${ROW_OPTIONS['chunk-bytes'].help.replace(/\)$/, '')}; ${FETCH_CHUNK_BYTES} with --fetch)` },
    missing: {
      type: 'string', value: 'allow|disallow',
      help: 'verdict for hosts without a file (with --fetch: for lines without an http(s) origin, e.g. relative; default allow)',
    },
    'cache-hosts': { type: 'string', value: 'N', help: `hosts kept compiled in memory (default ${DEFAULT_CACHE_HOSTS})` },
    workers: { ...WORKERS_OPTION, help: `${WORKERS_OPTION.help}; not with --fetch` },
    ...FETCH_OPTIONS,
    concurrency: { type: 'string', value: 'N', help: `--fetch: robots.txt fetches at once (default ${DEFAULT_CONCURRENCY})` },
    'max-delay-ms': {
      type: 'string', value: 'N',
      help: `--fetch: cap on the crawl-delay honoured between two robots.txt requests to one host (default ${DEFAULT_MAX_DELAY_MS}; 0: never wait)`,
    },
  },
  async run(args, context) {
    const fetching = args.values.fetch === true;
    const dir = stringOption(args, 'robots-dir') ?? '';
    if (fetching) {
      if (args.values['robots-dir'] !== undefined) throw new CliError('--robots-dir and --fetch exclude each other: robots.txt comes from files or from the web');
      // Fetching is I/O-bound and this thread formats millions of rows per second; workers
      // would each need their own cache and politeness, so --fetch stays in one thread.
      refuse(args, ['workers'], 'does not apply to --fetch (one thread; --concurrency N sets the parallel fetches)');
    } else {
      if (dir === '') throw new CliError('--robots-dir DIR or --fetch is required');
      refuse(args, [...Object.keys(FETCH_OPTIONS), 'concurrency', 'max-delay-ms'], 'belongs to classify --fetch');
    }
    const agents = agentsOf(args, true);
    if (agents === null) refuse(args, ['header'], 'applies only with --agents or --agents-file (the columns of one agent are fixed)');
    const classifyOptions = {
      // With --fetch, small chunks: rows flow while the window's hosts are being fetched.
      ...(agents === null
        ? rowOptions(args, fetching ? FETCH_CHUNK_BYTES : CHUNK_BYTES)
        : { agent: agents[0]!, agents, header: args.values.header === true, ...agentlessRowOptions(args, fetching ? FETCH_CHUNK_BYTES : CHUNK_BYTES) }),
      missing: oneOf<'allow' | 'disallow'>('missing', stringOption(args, 'missing'), ['allow', 'disallow'], 'allow'),
      cacheHosts: positiveInteger('cache-hosts', stringOption(args, 'cache-hosts'), DEFAULT_CACHE_HOSTS),
    };
    if (fetching) {
      const options = {
        ...classifyOptions,
        ...fetchSettings(args),
        maxBytes: classifyOptions.maxRobotsBytes,
        concurrency: positiveInteger('concurrency', stringOption(args, 'concurrency'), DEFAULT_CONCURRENCY),
        maxDelayMs: milliseconds('max-delay-ms', stringOption(args, 'max-delay-ms'), DEFAULT_MAX_DELAY_MS, 0),
      };
      return runRows(args, context, async (progress) => {
        const fetched = await runFetchClassify({ ...options, progress }, context.stdin, context.stdout);
        const cut = fetched.cutRobots > 0 ? [formatCut(fetched.cutRobots, options.maxBytes, 'fetched robots.txt file')] : [];
        const after = agents === null ? [] : formatAgentTotals(agents, fetched.perAgent!);
        return { totals: fetched, notes: [formatFetchCounts(fetched.robots), ...cut], after };
      });
    }
    const options = { ...classifyOptions, robotsDir: dir, workers: positiveInteger('workers', stringOption(args, 'workers'), 1) };
    return runRows(args, context, async (progress) => {
      const totals = await runClassify({ ...options, progress }, context.stdin, context.stdout);
      return { totals, after: agents === null ? [] : formatAgentTotals(agents, totals.perAgent!) };
    });
  },
};

/**
 * The subcommands: one entry each (name, options, help, run). A new subcommand is one more
 * `Command` here, defined in its own module with the helpers of command.ts and options.ts.
 */
const COMMANDS: readonly Command[] = [checkCommand, classifyCommand, fetchOutCommand, lintCommand, diffCommand];

function usage(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length)) + 2;
  return [
    'Usage:',
    ...COMMANDS.flatMap((c) => c.synopsis.map((line) => `  robotstxt ${line}`)),
    '  robotstxt help COMMAND      (or robotstxt COMMAND --help): that command\'s options',
    '  robotstxt --version',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
    '',
    'A summary line (N urls, A allowed, D disallowed, T s, R urls/s) goes to stderr, with a',
    'progress bar while stderr is a terminal that the rows do not go to.',
  ].join('\n');
}

function findCommand(name: string): Command {
  const command = COMMANDS.find((c) => c.name === name);
  if (command !== undefined) return command;
  const guess = closestName(name, COMMANDS.map((c) => c.name));
  throw new CliError(`unknown command ${JSON.stringify(name)}${guess === null ? '' : `; did you mean ${guess}?`}\n\n${usage()}`);
}

/** The progress line of this run, erased however the process ends. */
let activeProgress: TtyProgress | null = null;

function eraseProgress(): void {
  activeProgress?.finish();
}

/** Where rows and help go: stdout, or a stand-in whose writes fail when stdout was closed. */
const closedStdout = stdoutWasClosed();
const stdout = closedStdout ? closedOutput() : process.stdout;

/** The signal being handled: output is stopped, the process ends once stdout has drained. */
let ending: NodeJS.Signals | null = null;

/** Dies of `signal`, as the shell expects (status 128 + n): its default action, restored. */
function dieOf(signal: NodeJS.Signals): void {
  process.removeListener('SIGINT', onSignal);
  process.removeListener('SIGTERM', onSignal);
  process.kill(process.pid, signal);
}

/** Calls `then` once every byte handed to `out` has been written (the write queue is empty). */
function whenDrained(out: typeof stdout, then: () => void): void {
  if (out.writableLength === 0 || out.destroyed) {
    then();
    return;
  }
  // Writes complete in order: an empty write's callback runs once those before it have.
  out.write(new Uint8Array(0), () => whenDrained(out, then));
}

/**
 * SIGINT / SIGTERM: no row is started after this (stopOutput), the rows already handed
 * to stdout are written out, so the output ends on a whole row, and then the process dies
 * of the signal. Until then a reader that has stopped reading holds the process; a second
 * signal ends it at once (its last row may then be cut).
 */
function onSignal(signal: NodeJS.Signals): void {
  eraseProgress();
  if (ending !== null) {
    dieOf(signal);
    return;
  }
  ending = signal;
  stopOutput();
  whenDrained(stdout, () => dieOf(signal));
}

process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

const context: CommandContext = {
  stdin: process.stdin,
  stdout,
  stderr: process.stderr,
  progress(quiet, totalBytes) {
    const draw = shouldDrawProgress({
      quiet,
      stderrIsTTY: process.stderr.isTTY === true,
      stdoutIsTTY: process.stdout.isTTY === true,
      sameTerminal: sameTerminal(1, 2),
    });
    if (!draw) return null;
    activeProgress = new TtyProgress(process.stderr, totalBytes);
    return activeProgress;
  },
};

async function main(argv: readonly string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined) {
    // Nothing asked: the usage goes where errors go, and the status says it was not a run.
    process.stderr.write(`${usage()}\n`);
    return 2;
  }
  if (first === '--version' || first === '-V') {
    if (rest.length > 0) throw new CliError(`${first} takes no arguments, got ${JSON.stringify(rest[0])}`);
    const version = packageVersion();
    if (version === null) throw new CliError("cannot find robotstxt-wasm's package.json to read the version from");
    stdout.write(`${version}\n`);
    return 0;
  }
  if (first === '--help' || first === '-h' || first === 'help') {
    const topic = rest[0];
    stdout.write(`${topic === undefined ? usage() : commandHelp(findCommand(topic))}\n`);
    return 0;
  }
  if (first.startsWith('-')) throw new CliError(`expected a command before ${first}\n\n${usage()}`);
  const command = findCommand(first);
  const parsed = parseCommandLine(command, rest, COMMANDS);
  if (parsed === 'help') {
    stdout.write(`${commandHelp(command)}\n`);
    return 0;
  }
  return command.run(parsed, context);
}

function isBrokenPipe(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === 'EPIPE';
}

// Writes to a terminal are synchronous, so the line is gone before the process is.
process.on('exit', eraseProgress);

/**
 * A failed write to stdout. The reader went away (EPIPE, `| head`): stop quietly, as a
 * filter should. Anything else (a full disk, a closed stdout): one line, exit status
 * EX_IOERR, and no summary, since rows the summary would count were lost.
 */
function onOutputError(error: Error): void {
  if (isBrokenPipe(error)) process.exit(0);
  eraseProgress();
  process.stderr.write(`robotstxt: cannot write output: ${closedStdout ? 'stdout is closed' : fileErrorText(error)}\n`);
  process.exit(EXIT_OUTPUT_ERROR);
}

stdout.on('error', onOutputError);

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (isBrokenPipe(error)) process.exit(0);
    eraseProgress();
    const limit = limitErrorText(error);
    if (error instanceof CliError) {
      process.stderr.write(`robotstxt: ${error.message}\n`);
      process.exitCode = 2;
    } else if (limit !== null) {
      // An engine limit (Wasm memory, URL length) is the input meeting the run's settings,
      // not a fault: one line saying which and what to change, no stack trace.
      process.stderr.write(`robotstxt: ${limit}\n`);
      process.exitCode = EXIT_LIMIT;
    } else {
      process.stderr.write(`robotstxt: internal error: ${(error as Error).stack ?? String(error)}\n`);
      process.exitCode = 70;
    }
  },
);
