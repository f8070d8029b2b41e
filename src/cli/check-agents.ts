// `robotstxt check --agents`: one robots.txt, many agents, one row per URL with a verdict and line per agent.
import { readFileSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { Robots } from '../robots.js';
import type { MultiAgentMatcher } from '../multi-agent.js';
import { getEngine, ROW_JSONL, type AgentTables, type RowSink } from '../wasm/index.js';
import type { RobotsFetchStatus } from '../fetch/index.js';
import { agentKeys, fetchedRowOptions } from './row-options.js';
import { checkAgent } from './agent.js';
import { loadCheckRobots, withUrlInput, type CheckOptions } from './check.js';
import { stringOption, type ParsedArgs } from './command.js';
import { CliError, fileErrorText } from './errors.js';
import type { ChunkProcessor, ChunkResult } from './jobs.js';
import type { RunTotals } from './output.js';
import { runChunks } from './run.js';

/** Verdict counts of one agent over a run. */
export interface AgentTotals {
  allowed: number;
  disallowed: number;
}

/** Totals of a `check --agents` run: per URL (allowed = by every agent), and per agent. */
export interface MultiRunTotals extends RunTotals {
  readonly agents: readonly string[];
  readonly perAgent: readonly AgentTotals[];
}

/**
 * The agents of one list, checked like `--agent` (a product token each, RFC 9309 §2.2.1),
 * the error naming the entry. Empty entries and the same agent twice (tokens match
 * case-insensitively, so two columns would always agree) are refused.
 * @example checkAgentList(['Googlebot', 'GPTBot'], '--agents') // ['Googlebot', 'GPTBot']
 */
export function checkAgentList(tokens: readonly string[], where: string): string[] {
  if (tokens.length === 0) throw new CliError(`${where} names no agent: give at least one product token, e.g. --agents Googlebot,GPTBot`);
  const seen = new Map<string, number>();
  return tokens.map((token, i) => {
    const entry = `${where} entry ${i + 1}`;
    if (token === '') throw new CliError(`${entry} is empty: separate product tokens with single commas, e.g. --agents Googlebot,GPTBot`);
    checkAgent(token, entry);
    const before = seen.get(token.toLowerCase());
    if (before !== undefined) throw new CliError(`${entry} (${token}) names the same agent as entry ${before + 1}: each agent gets one column`);
    seen.set(token.toLowerCase(), i);
    return token;
  });
}

/**
 * The agents of `--agents A,B` or `--agents-file FILE`, or null when neither is given (one
 * `--agent`). At most one of the three flags may be given.
 * @example agentListOption(parseCommandLine(['--agents', 'a,b'], …)) // ['a', 'b']
 */
export function agentListOption(args: ParsedArgs): string[] | null {
  const given = ['agent', 'agents', 'agents-file'].filter((flag) => args.values[flag] !== undefined);
  if (given.length > 1) throw new CliError(`${given.map((flag) => `--${flag}`).join(' and ')} exclude each other: give one agent or one list`);
  const list = stringOption(args, 'agents');
  const file = stringOption(args, 'agents-file');
  if (list === undefined && file === undefined) return null;
  return list !== undefined ? parseAgentsOption(list) : readAgentsFile(file!);
}

/**
 * `--agents A,B,C`: comma-separated product tokens (spaces around them dropped).
 * @example parseAgentsOption('Googlebot, GPTBot') // ['Googlebot', 'GPTBot']
 */
export function parseAgentsOption(value: string): string[] {
  return checkAgentList(value.trim() === '' ? [] : value.split(',').map((token) => token.trim()), '--agents');
}

/**
 * `--agents-file FILE`: one product token per line; `#` starts a comment, blank lines
 * are skipped. Errors name the file and its line.
 * @example readAgentsFile('agents.txt') // ['Googlebot', 'GPTBot']
 */
export function readAgentsFile(path: string): string[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read --agents-file ${path}: ${fileErrorText(error)}`);
  }
  const tokens: string[] = [];
  const lineOf: number[] = [];
  text.split('\n').forEach((line, i) => {
    const hash = line.indexOf('#');
    const token = (hash < 0 ? line : line.slice(0, hash)).trim();
    if (token === '') return;
    tokens.push(token);
    lineOf.push(i + 1);
  });
  if (tokens.length === 0) throw new CliError(`--agents-file ${path} names no agent (one product token per line; '#' comments and blank lines are skipped)`);
  try {
    return checkAgentList(tokens, `--agents-file ${path}`);
  } catch (error) {
    // Point at the file's line rather than the entry's number among the tokens.
    if (!(error instanceof CliError)) throw error;
    throw new CliError(error.message.replace(/entry (\d+)/g, (_, n: string) => `line ${lineOf[Number(n) - 1]}`));
  }
}

/** How many-agents rows are written (`check`/`classify --agents`). */
export interface MultiRowOptions {
  readonly format: 'tsv' | 'jsonl';
  /** The fetch outcome of a `check --robots URL`: JSONL rows say it; not `ok` gives every row line 0. */
  readonly outcome?: RobotsFetchStatus;
}

/**
 * The TSV header row of many-agents rows: the agents, `host` when there is a host column, `url`.
 * @example agentsHeader(['Googlebot', 'GPTBot'], false) // 'Googlebot\tGPTBot\turl\n'
 */
export function agentsHeader(agents: readonly string[], host: boolean): string {
  return `${agents.join('\t')}${host ? '\thost' : ''}\turl\n`;
}

/**
 * Per-agent totals from the allowed counts of a many-agents run over `count` lines, plus
 * `overLong` lines over --max-url-bytes that no agent judged (disallowed for each).
 * @example agentTotals([3, 1], 4, 0) // [{ allowed: 3, disallowed: 1 }, { allowed: 1, disallowed: 3 }]
 */
export function agentTotals(allowed: readonly number[], count: number, overLong: number): AgentTotals[] {
  return allowed.map((n) => ({ allowed: n, disallowed: count - n + overLong }));
}

/**
 * One chunk of URL lines judged for every agent and written as rows in Wasm (one
 * formatSpanRowsMulti pass per span batch: each line read and prepared once, agents that
 * share a table judged once): `allow|disallow:LINE` per agent then the URL (TSV), or
 * `{"url":…,"verdicts":{AGENT:{"verdict":…,"line":…},…}}`.
 */
export class MultiCheckProcessor implements ChunkProcessor {
  private readonly keys: Uint8Array[];
  private readonly tables: AgentTables[];
  private readonly options: number;
  private groupOf = new Int32Array(0);

  constructor(matcher: MultiAgentMatcher, options: MultiRowOptions) {
    this.keys = agentKeys(matcher.agents);
    this.tables = [matcher.matchers.map((m) => m.table)];
    this.options = (options.format === 'jsonl' ? ROW_JSONL : 0) | (options.outcome === undefined ? 0 : fetchedRowOptions(options.outcome));
  }

  process(input: Uint8Array, sink?: RowSink): ChunkResult {
    const engine = getEngine();
    const chunk = new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
    const rows: Uint8Array[] = [];
    let count = 0;
    let allowed = 0;
    let offset = 0;
    const agentsAllowed = new Float64Array(this.keys.length);
    while (offset < chunk.length) {
      const bytes = chunk.subarray(offset);
      const batch = engine.scanHosts(bytes, true);
      if (batch.count === 0) break;
      // Every line reads group 0: the one robots.txt's tables.
      if (this.groupOf.length < batch.count) this.groupOf = new Int32Array(batch.count);
      const result = engine.formatSpanRowsMulti(bytes, batch, this.groupOf, this.tables, this.keys, this.options, agentsAllowed, sink);
      rows.push(...result.rows);
      count += result.count;
      allowed += result.allowed;
      offset += batch.consumed;
    }
    return { rows, count, allowed, disallowed: count - allowed, agentsAllowed };
  }
}

/** Options of runCheckAgents: check's, with the agents in place of one agent. */
export interface CheckAgentsOptions extends Omit<CheckOptions, 'agent' | 'only' | 'workers' | 'engine'> {
  readonly agents: readonly string[];
  /** TSV: a first row naming the columns (the agents, then `url`). */
  readonly header?: boolean;
}

/**
 * Runs `check --agents`: every URL line against one robots.txt for every agent, one row
 * each in input order (this thread only). Resolves with the totals once every row is written.
 * @example await runCheckAgents({ robotsPath: 'robots.txt', agents: ['Googlebot', 'GPTBot'], profile: 'rfc', urlsPath: 'urls.txt' }, process.stdin, process.stdout)
 */
export async function runCheckAgents(options: CheckAgentsOptions, stdin: Readable, stdout: Writable): Promise<MultiRunTotals> {
  const loaded = await loadCheckRobots(options);
  const robots = loaded.fetched
    ?? Robots.parse(loaded.robots, { profile: options.profile, ...(options.maxRobotsBytes === undefined ? {} : { maxBytes: options.maxRobotsBytes }) });
  const format = options.format ?? 'tsv';
  const processor = new MultiCheckProcessor(robots.forAgents(options.agents), {
    format, ...(loaded.fetched === undefined ? {} : { outcome: loaded.outcome }),
  });
  if (options.header === true) stdout.write(agentsHeader(options.agents, false));
  const totals = await withUrlInput(options.urlsPath, stdin, { readBytes: options.chunkBytes, maxUrlBytes: options.maxUrlBytes }, (input) =>
    runChunks(processor, input, stdout, {
      window: 1, chunkBytes: options.chunkBytes, fdOutput: options.fdOutput, progress: options.progress ?? null,
      rows: { format, only: null, host: false, outcome: loaded.fetched !== undefined, agents: options.agents },
    }),
  );
  // A line over --max-url-bytes is judged by no agent: disallowed for each.
  const overLong = totals.overLong ?? 0;
  return { ...totals, agents: options.agents, perAgent: agentTotals(totals.agentsAllowed ?? options.agents.map(() => 0), totals.urls - overLong, overLong) };
}

/**
 * One summary line per agent, for stderr after the run's summary.
 * @example formatAgentTotals(['GPTBot'], [{ allowed: 3, disallowed: 1 }]) // ['GPTBot: 3 allowed, 1 disallowed']
 */
export function formatAgentTotals(agents: readonly string[], perAgent: readonly AgentTotals[]): string[] {
  return agents.map((agent, j) => `${agent}: ${perAgent[j]!.allowed} allowed, ${perAgent[j]!.disallowed} disallowed`);
}
