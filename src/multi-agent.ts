// MultiAgentMatcher: many crawlers' verdicts in one pass, each URL read and prepared once and judged against each distinct table.
import type { Profile } from './parse/lexer.js';
import type { AgentMatcher, BatchDecisions } from './matcher.js';
import { getEngine } from './wasm/index.js';
import { describe, expectBytes, expectOut } from './errors.js';

/** Verdicts and deciding lines of a many-agents batch, URL-major (see MultiAgentMatcher). */
export interface MultiBatchDecisions extends BatchDecisions {
  /** URLs (or lines) judged: `verdicts.length / agents.length`. */
  readonly count: number;
}

/**
 * The verdicts of several crawlers at once. Get one from `Robots.forAgents(agents)`.
 *
 * Each URL is encoded and prepared (path extracted, RFC 9309 §2.2.2 normalisation) once,
 * then judged against one table per distinct set of groups: agents that select the same
 * groups (every agent the file does not name falls to `*`, RFC 9309 §2.2.1) share one
 * table and one judgement. Results are URL-major, one column per entry of `agents` (in
 * the order given, duplicates included): the verdict of URL `i` for `agents[j]` is
 * `out[i * agents.length + j]`, and it is exactly what `forAgent(agents[j])` answers.
 * @example
 * const robots = Robots.parse('User-agent: gptbot\nDisallow: /\n\nUser-agent: *\nDisallow: /private');
 * const m = robots.forAgents(['googlebot', 'gptbot']);
 * m.matchBatch(['/a', '/private/b']); // Uint8Array [1, 0, 0, 0]: /a allowed for googlebot only
 */
export class MultiAgentMatcher {
  /** The agents, one result column each, as given. */
  readonly agents: readonly string[];
  /** The matcher of each agent (agents that select the same groups share one). */
  readonly matchers: readonly AgentMatcher[];
  /** The distinct tables judged per URL, and the table of each agent. */
  private readonly tables: readonly Uint8Array[];
  private readonly tableOf: Uint32Array;
  /** Whether table t is agent t's for every agent: results need no rearranging. */
  private readonly direct: boolean;

  /**
   * Internal: `Robots.forAgents` builds it from checked agents and their matchers.
   * @param matchers one per agent; matchers that are the same object are judged once
   */
  constructor(readonly profile: Profile, agents: readonly string[], matchers: readonly AgentMatcher[]) {
    if (agents.length === 0 || agents.length !== matchers.length) {
      throw new RangeError(`MultiAgentMatcher needs one matcher per agent and at least one agent, got ${agents.length} agents and ${matchers.length} matchers`);
    }
    this.agents = Object.freeze(agents.slice());
    this.matchers = Object.freeze(matchers.slice());
    const tables: Uint8Array[] = [];
    const tableOf = new Uint32Array(agents.length);
    for (let j = 0; j < matchers.length; j++) {
      const table = matchers[j]!.table;
      let t = tables.indexOf(table);
      if (t < 0) t = tables.push(table) - 1;
      tableOf[j] = t;
    }
    this.tables = tables;
    this.tableOf = tableOf;
    this.direct = tables.length === agents.length;
  }

  /** Number of distinct tables each URL is judged against (≤ `agents.length`). */
  get tableCount(): number {
    return this.tables.length;
  }

  /**
   * Judges many URLs for every agent. Returns `out` (or a new array) holding
   * `urls.length × agents.length` verdicts, URL-major: 1 = allowed, 0 = disallowed.
   * @example m.matchBatch(['/a', '/private/b']) // Uint8Array [1, 0, 0, 0] for ['googlebot', 'gptbot']
   */
  matchBatch(urls: readonly string[], out?: Uint8Array): Uint8Array {
    if (!Array.isArray(urls)) throw new TypeError(`urls must be an array of strings, got ${describe(urls)}`);
    const verdicts = expectOut(out, urls.length * this.agents.length, 'out');
    this.judge(urls, verdicts, null);
    return verdicts;
  }

  /**
   * Like `matchBatch`, plus the deciding line (0 = none) of each URL × agent, laid out alike.
   * @example m.decideBatch(['/private/b']) // { count: 1, verdicts: [0, 0], lines: [5, 2] }
   */
  decideBatch(urls: readonly string[]): MultiBatchDecisions {
    if (!Array.isArray(urls)) throw new TypeError(`urls must be an array of strings, got ${describe(urls)}`);
    const verdicts = new Uint8Array(urls.length * this.agents.length);
    const lines = new Uint32Array(verdicts.length);
    this.judge(urls, verdicts, lines);
    return { count: urls.length, verdicts, lines };
  }

  /**
   * Judges newline-separated URLs given as bytes for every agent (lines read as
   * `AgentMatcher#matchLines` reads them), without making JS strings. Returns `out` (or a
   * new array) with `lines × agents.length` verdicts, URL-major.
   * @example m.matchLines(new TextEncoder().encode('/a\n/private\n')) // Uint8Array [1, 0, 0, 0]
   */
  matchLines(bytes: Uint8Array, out?: Uint8Array): Uint8Array {
    expectBytes(bytes, 'bytes');
    if (out !== undefined) expectOut(out, 0, 'out'); // the type, before any work
    const result = getEngine().matchAllLinesMulti(this.tables, bytes, false);
    const verdicts = expectOut(out, result.count * this.agents.length, 'out');
    this.spread(result.count, result.verdicts, verdicts, null, null);
    return verdicts;
  }

  /**
   * Like `matchLines`, plus the deciding line of each line × agent.
   * @example m.decideLines(new TextEncoder().encode('/private\n')) // { count: 1, verdicts: [0, 0], lines: [5, 2] }
   */
  decideLines(bytes: Uint8Array): MultiBatchDecisions {
    expectBytes(bytes, 'bytes');
    const result = getEngine().matchAllLinesMulti(this.tables, bytes, true);
    const verdicts = new Uint8Array(result.count * this.agents.length);
    const lines = new Uint32Array(verdicts.length);
    this.spread(result.count, result.verdicts, verdicts, result.lines, lines);
    return { count: result.count, verdicts, lines };
  }

  /** Judges `urls` against the distinct tables and spreads the results over the agents' columns. */
  private judge(urls: readonly string[], verdicts: Uint8Array, lines: Uint32Array | null): void {
    const engine = getEngine();
    const width = this.tables.length;
    if (this.direct) {
      if (width === 1) engine.matchStrings(this.tables[0]!, urls, verdicts, lines);
      else engine.matchStringsMulti(this.tables, urls, verdicts, lines);
      return;
    }
    const byTable = new Uint8Array(urls.length * width);
    const linesByTable = lines ? new Uint32Array(byTable.length) : null;
    if (width === 1) engine.matchStrings(this.tables[0]!, urls, byTable, linesByTable);
    else engine.matchStringsMulti(this.tables, urls, byTable, linesByTable);
    this.spread(urls.length, byTable, verdicts, linesByTable, lines);
  }

  /** Copies `count` URLs' results per table (URL-major, one per table) into one per agent. */
  private spread(count: number, byTable: Uint8Array, verdicts: Uint8Array, linesByTable: Uint32Array | null, lines: Uint32Array | null): void {
    if (this.direct) {
      verdicts.set(byTable.subarray(0, count * this.agents.length));
      if (lines) lines.set(linesByTable!.subarray(0, count * this.agents.length));
      return;
    }
    const width = this.tables.length;
    const agents = this.agents.length;
    const tableOf = this.tableOf;
    for (let i = 0, from = 0, to = 0; i < count; i++, from += width) {
      for (let j = 0; j < agents; j++, to++) {
        verdicts[to] = byTable[from + tableOf[j]!]!;
        if (lines) lines[to] = linesByTable![from + tableOf[j]!]!;
      }
    }
  }
}
