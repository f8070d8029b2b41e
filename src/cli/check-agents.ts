// `robotstxt check --agents`: one robots.txt, many agents, one row per URL with a verdict and line per agent.
import { readFileSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { Robots } from '../robots.js';
import type { MultiAgentMatcher } from '../multi-agent.js';
import type { RowSink } from '../wasm/index.js';
import { checkAgent } from './agent.js';
import { loadCheckRobots, withUrlInput, type CheckOptions } from './check.js';
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

const ALLOW = Buffer.from('allow:', 'latin1');
const DISALLOW = Buffer.from('disallow:', 'latin1');
const HEX = '0123456789abcdef';

/**
 * A growable byte buffer that `check --agents` rows are written into, escaped as the
 * Wasm row writer (assembly/rows.ts) escapes `check --agent` rows, byte for byte.
 */
class RowWriter {
  bytes = new Uint8Array(1 << 16);
  length = 0;

  /** Room for `n` more bytes. */
  reserve(n: number): void {
    if (this.length + n <= this.bytes.length) return;
    const next = new Uint8Array(Math.max(this.length + n, 2 * this.bytes.length));
    next.set(this.bytes.subarray(0, this.length));
    this.bytes = next;
  }

  ascii(text: string): void {
    this.reserve(text.length);
    for (let i = 0; i < text.length; i++) this.bytes[this.length++] = text.charCodeAt(i);
  }

  raw(data: Uint8Array): void {
    this.reserve(data.length);
    this.bytes.set(data, this.length);
    this.length += data.length;
  }

  /**
   * A TSV field, escaped as PostgreSQL's text COPY reads it: `\\` `\t` `\n` `\r`, and
   * `\xHH` (lowercase hex) for any other byte below 0x20 and for 0x7f.
   */
  tsv(p: Uint8Array, from: number, to: number): void {
    this.reserve(4 * (to - from));
    const out = this.bytes;
    let o = this.length;
    for (let i = from; i < to; i++) {
      const c = p[i]!;
      if (c >= 0x20 && c !== 0x5c && c !== 0x7f) {
        out[o++] = c;
        continue;
      }
      out[o++] = 0x5c;
      if (c === 0x5c) out[o++] = 0x5c;
      else if (c === 0x09) out[o++] = 0x74;
      else if (c === 0x0a) out[o++] = 0x6e;
      else if (c === 0x0d) out[o++] = 0x72;
      else {
        out[o++] = 0x78;
        out[o++] = HEX.charCodeAt(c >> 4);
        out[o++] = HEX.charCodeAt(c & 15);
      }
    }
    this.length = o;
  }

  /**
   * A JSON string body: `"` and `\` escaped, control bytes as \u00XX, well-formed UTF-8
   * (RFC 3629) copied, each byte of an ill-formed sequence as \ufffd.
   */
  json(p: Uint8Array, from: number, to: number): void {
    this.reserve(6 * (to - from));
    const out = this.bytes;
    let o = this.length;
    for (let i = from; i < to;) {
      const c = p[i]!;
      if (c >= 0x80) {
        const k = utf8Length(p, i, to);
        if (k === 0) {
          for (const e of '\\ufffd') out[o++] = e.charCodeAt(0);
          i++;
        } else {
          for (let j = 0; j < k; j++) out[o++] = p[i + j]!;
          i += k;
        }
        continue;
      }
      if (c === 0x22 || c === 0x5c) {
        out[o++] = 0x5c;
        out[o++] = c;
      } else if (c < 0x20) {
        for (const e of '\\u00') out[o++] = e.charCodeAt(0);
        out[o++] = HEX.charCodeAt(c >> 4);
        out[o++] = HEX.charCodeAt(c & 15);
      } else {
        out[o++] = c;
      }
      i++;
    }
    this.length = o;
  }
}

/** Bytes of the UTF-8 sequence at p[i] when well formed (RFC 3629), else 0: assembly/rows.ts utf8Length. */
function utf8Length(p: Uint8Array, i: number, end: number): number {
  const c = p[i]!;
  let n: number;
  let min: number;
  if (c >= 0xc2 && c < 0xe0) [n, min] = [2, 0x80];
  else if (c >= 0xe0 && c < 0xf0) [n, min] = [3, 0x800];
  else if (c >= 0xf0 && c < 0xf5) [n, min] = [4, 0x10000];
  else return 0;
  if (i + n > end) return 0;
  let cp = c & (0x7f >> n);
  for (let k = 1; k < n; k++) {
    const b = p[i + k]!;
    if ((b & 0xc0) !== 0x80) return 0;
    cp = (cp << 6) | (b & 0x3f);
  }
  // Overlong forms, surrogates and code points beyond U+10FFFF are not UTF-8.
  if (cp < min || (cp >= 0xd800 && cp < 0xe000) || cp > 0x10ffff) return 0;
  return n;
}

/** How `check --agents` writes rows. */
export interface MultiRowOptions {
  readonly format: 'tsv' | 'jsonl';
  /** The fetch outcome of a `--robots URL`: JSONL rows say it; not `ok` gives every row line 0. */
  readonly outcome?: 'ok' | 'unavailable' | 'unreachable';
}

/**
 * One chunk of URL lines judged for every agent (MultiAgentMatcher#decideLines: each line
 * read and prepared once), then written as rows here: `allow|disallow:LINE` per agent
 * then the URL (TSV), or `{"url":…,"verdicts":{AGENT:{"verdict":…,"line":…},…}}`.
 */
export class MultiCheckProcessor implements ChunkProcessor {
  readonly perAgent: AgentTotals[];
  private readonly writer = new RowWriter();
  private readonly keys: Uint8Array[];

  constructor(private readonly matcher: MultiAgentMatcher, private readonly options: MultiRowOptions) {
    this.perAgent = matcher.agents.map(() => ({ allowed: 0, disallowed: 0 }));
    // Product tokens need no JSON escaping beyond the quotes.
    this.keys = matcher.agents.map((agent, j) => Buffer.from(`${j === 0 ? '' : ','}${JSON.stringify(agent)}:{"verdict":"`, 'latin1'));
  }

  process(chunk: Uint8Array, sink?: RowSink): ChunkResult {
    const { count, verdicts, lines } = this.matcher.decideLines(chunk);
    const width = this.matcher.agents.length;
    const fixedLines = this.options.outcome !== undefined && this.options.outcome !== 'ok';
    const outcome = this.options.outcome === undefined ? '' : `,"outcome":"${this.options.outcome}"`;
    const jsonl = this.options.format === 'jsonl';
    const w = this.writer;
    w.length = 0;
    let allowed = 0;
    let start = 0;
    for (let i = 0; i < count; i++) {
      // The line as the engine read it: up to its line feed (or the chunk's end), a CR before that dropped.
      if (start > chunk.length) throw new Error(`check --agents: the engine judged ${count} lines, the chunk holds ${i}`);
      let nl = chunk.indexOf(0x0a, start);
      if (nl < 0) nl = chunk.length;
      const end = nl > start && chunk[nl - 1] === 0x0d ? nl - 1 : nl;
      let all = true;
      if (jsonl) {
        w.ascii('{"url":"');
        w.json(chunk, start, end);
        w.ascii('","verdicts":{');
      }
      for (let j = 0, k = i * width; j < width; j++, k++) {
        const ok = verdicts[k] === 1;
        const line = fixedLines ? 0 : lines[k]!;
        const counts = this.perAgent[j]!;
        if (ok) counts.allowed++;
        else {
          counts.disallowed++;
          all = false;
        }
        if (jsonl) {
          w.raw(this.keys[j]!);
          w.ascii(ok ? `allow","line":${line}}` : `disallow","line":${line}}`);
        } else {
          w.raw(ok ? ALLOW : DISALLOW);
          w.ascii(`${line}\t`);
        }
      }
      if (jsonl) w.ascii(`}${outcome}}\n`);
      else {
        w.tsv(chunk, start, end);
        w.ascii('\n');
      }
      if (all) allowed++;
      start = nl + 1;
    }
    const rows = w.bytes.subarray(0, w.length);
    const result = { count, allowed, disallowed: count - allowed };
    if (sink !== undefined) {
      sink(rows);
      return { rows: [], ...result };
    }
    return { rows: [rows.slice()], ...result };
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
  if (options.header === true) stdout.write(`${options.agents.join('\t')}\turl\n`);
  const totals = await withUrlInput(options.urlsPath, stdin, { readBytes: options.chunkBytes, maxUrlBytes: options.maxUrlBytes }, (input) =>
    runChunks(processor, input, stdout, {
      window: 1, chunkBytes: options.chunkBytes, fdOutput: options.fdOutput, progress: options.progress ?? null,
      rows: { format, only: null, host: false, outcome: loaded.fetched !== undefined, agents: options.agents },
    }),
  );
  // A line over --max-url-bytes is judged by no agent: disallowed for each.
  const overLong = totals.overLong ?? 0;
  const perAgent = processor.perAgent.map((t) => ({ allowed: t.allowed, disallowed: t.disallowed + overLong }));
  return { ...totals, agents: options.agents, perAgent };
}

/**
 * One summary line per agent, for stderr after the run's summary.
 * @example formatAgentTotals(['GPTBot'], [{ allowed: 3, disallowed: 1 }]) // ['GPTBot: 3 allowed, 1 disallowed']
 */
export function formatAgentTotals(agents: readonly string[], perAgent: readonly AgentTotals[]): string[] {
  return agents.map((agent, j) => `${agent}: ${perAgent[j]!.allowed} allowed, ${perAgent[j]!.disallowed} disallowed`);
}
