// Robots: one parsed robots.txt, its groups and records, and per-crawler matchers on demand.
import { lexLines, type Profile } from './parse/lexer.js';
import { GroupCollector, asciiLower, selectGroupIndexes, selectGroups, type Group, type OtherRecord, type RuleRecord } from './parse/groups.js';
import type { RuleOffsets } from './parse/rule-offsets.js';
import { isValidProductToken, leadingToken, productTokenError } from './parse/product-token.js';
import type { AgentMatcher, Explanation } from './matcher.js';
import { MultiAgentMatcher } from './multi-agent.js';
import { compileAgentMatcher, compileOffsetsMatcher } from './rules/compile.js';
import { describe, expectBytes, expectProfile, expectString } from './errors.js';
import { AcapCollector, type AcapPolicy } from './acap/index.js';

/** Options for `Robots.parse`. */
export interface ParseOptions {
  /** `'rfc'` (default): RFC 9309 exactly. `'google'`: Google's reference matcher, bit for bit. */
  readonly profile?: Profile;
  /**
   * Bytes of the body to parse, default 512,000 (RFC 9309 §2.5 asks for at least
   * 500 KiB). Content beyond it is ignored, including the line the limit cuts through,
   * and `truncated` is set.
   */
  readonly maxBytes?: number;
  /**
   * ACAP expansion budget: how many rules (usages × resource path patterns) the file's
   * ACAP fields may stand for, default 100,000 (`DEFAULT_ACAP_MAX_EXPANDED_RULES`).
   * Past it, `acap` reports `expansion-budget-exceeded` and prohibits every usage.
   * Parsing never expands: its cost is linear in the body whatever this is.
   */
  readonly acapMaxExpandedRules?: number;
}

export const DEFAULT_MAX_BYTES = 512_000;
/** Matchers kept per Robots; older ones are dropped and recompiled on demand. */
const MATCHER_CACHE_SIZE = 64;

const encoder = new TextEncoder();

/** What `Robots#explain` returns: the verdict, and which user-agent lines chose the rules. */
export interface RobotsExplanation extends Explanation {
  /**
   * 1-based lines of the user-agent lines of every group that applied to the agent
   * (merged, RFC 9309 §2.2.1), in file order; empty when no group applied. A group holds
   * every user-agent line above its rules, even across other records such as
   * `Crawl-delay` (§2.2.4): `User-agent: bingbot` / `Crawl-delay: 10` / `User-agent: *` /
   * `Disallow: /` gives bingbot the lines [1, 3] and `Disallow: /`.
   */
  readonly agentLines: readonly number[];
}

/** The last agent checkAgent accepted. */
let lastCheckedAgent: string | null = null;

/**
 * `userAgent` as a product token, or '*' for the `*` groups.
 * @throws TypeError for anything else (not a string, '', `Googlebot/2.1`, a whole header),
 *   suggesting the token it may mean: answering for it would silently read the `*` groups.
 */
function checkAgent(userAgent: string): string {
  // A crawler asks for one agent file after file: the last one accepted is not checked again.
  if (userAgent === lastCheckedAgent) return userAgent;
  expectString(userAgent, 'userAgent');
  if (userAgent === '*' || isValidProductToken(userAgent)) return (lastCheckedAgent = userAgent);
  throw productTokenError('userAgent', userAgent);
}

/** The first plain non-negative decimal `Crawl-delay` value among `records`. */
function firstCrawlDelay(records: readonly OtherRecord[]): number | undefined {
  for (const record of records) {
    if (asciiLower(record.key) !== 'crawl-delay') continue;
    if (/^\d+(\.\d+)?$/.test(record.value)) return Number(record.value);
  }
  return undefined;
}

/** The rules of `groups` in file order, in a new array. */
function rulesOf(groups: readonly Group[]): RuleRecord[] {
  // One group is the common case: slice copies its array in one step, not a push per rule.
  if (groups.length === 1) return groups[0]!.rules.slice();
  const rules: RuleRecord[] = [];
  for (const group of groups) for (const rule of group.rules) rules.push(rule);
  return rules;
}

/** Whether body[start, end) read as text starts with `acap-` in any ASCII case. */
function startsWithAcap(body: Uint8Array, start: number, end: number): boolean {
  // TextDecoder drops one leading BOM, so the collector's decoded key may start after one.
  if (end - start >= 3 && body[start] === 0xef && body[start + 1] === 0xbb && body[start + 2] === 0xbf) start += 3;
  if (end - start < 5) return false;
  return (body[start]! | 0x20) === 0x61 && (body[start + 1]! | 0x20) === 0x63 && (body[start + 2]! | 0x20) === 0x61 &&
    (body[start + 3]! | 0x20) === 0x70 && body[start + 4] === 0x2d;
}

/**
 * The REP collector, which also hands ACAP the lines it reads, in file order. The ACAP
 * collector is made at the first such line: most files have none, and AcapCollector
 * returns at once for all others (conventional records; comments not starting `##` or
 * under 6 bytes; keys and colon-less lines not starting `acap-`). These filters mirror
 * the first lines of its comment/other/invalid methods and must change with them.
 */
class RobotsCollector extends GroupCollector {
  acap: AcapCollector | null = null;

  override comment(start: number, end: number, line: number): void {
    if (end - start >= 6 && this.body[start + 1] === 0x23) (this.acap ??= new AcapCollector()).comment(this.view(start, end), line);
  }

  override other(keyStart: number, keyEnd: number, valueStart: number, valueEnd: number, line: number): void {
    super.other(keyStart, keyEnd, valueStart, valueEnd, line);
    if (startsWithAcap(this.body, keyStart, keyEnd)) {
      (this.acap ??= new AcapCollector()).other(this.view(keyStart, keyEnd), this.view(valueStart, valueEnd), line);
    }
  }

  override invalid(start: number, end: number, line: number): void {
    if (startsWithAcap(this.body, start, end)) (this.acap ??= new AcapCollector()).invalid(this.view(start, end), line);
  }
}

function checkOptions(options: unknown): { profile: Profile; maxBytes: number; acapMaxExpandedRules: number | undefined } {
  if (options === undefined) return { profile: 'rfc', maxBytes: DEFAULT_MAX_BYTES, acapMaxExpandedRules: undefined };
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`options must be an object, got ${describe(options)}`);
  }
  for (const key of Object.keys(options)) {
    if (key !== 'profile' && key !== 'maxBytes' && key !== 'acapMaxExpandedRules') {
      throw new TypeError(`options.${key} is not an option (expected profile, maxBytes, acapMaxExpandedRules)`);
    }
  }
  const { profile = 'rfc', maxBytes = DEFAULT_MAX_BYTES, acapMaxExpandedRules } = options as ParseOptions;
  if (acapMaxExpandedRules !== undefined && (typeof acapMaxExpandedRules !== 'number' || !Number.isSafeInteger(acapMaxExpandedRules) || acapMaxExpandedRules < 0)) {
    const Err = typeof acapMaxExpandedRules === 'number' ? RangeError : TypeError;
    throw new Err(`options.acapMaxExpandedRules must be a non-negative integer, got ${typeof acapMaxExpandedRules === 'number' ? String(acapMaxExpandedRules) : describe(acapMaxExpandedRules)}`);
  }
  expectProfile(profile, 'options.profile');
  if (typeof maxBytes !== 'number') {
    throw new TypeError(`options.maxBytes must be a non-negative integer, got ${describe(maxBytes)}`);
  }
  if (!Number.isInteger(maxBytes) || maxBytes < 0) {
    throw new RangeError(`options.maxBytes must be a non-negative integer, got ${String(maxBytes)}`);
  }
  return { profile, maxBytes, acapMaxExpandedRules };
}

/** The body as bytes, cut at `maxBytes` and back to the last line break before the cut. */
function limitBody(body: string | Uint8Array, maxBytes: number): { bytes: Uint8Array; truncated: boolean } {
  let bytes: Uint8Array;
  if (typeof body === 'string') {
    // Every UTF-16 unit is at least one UTF-8 byte: never encode more than maxBytes + 1 units.
    bytes = encoder.encode(body.length > maxBytes ? body.slice(0, maxBytes + 1) : body);
  } else if (body instanceof Uint8Array) {
    expectBytes(body, 'robots.txt body');
    // Own the bytes: rules keep views of them, and the caller may reuse, overwrite or
    // transfer its buffer. One byte past the limit is kept to see whether it ends a line.
    // (A plain view when cutting: Buffer#subarray costs more, and copying is the same.)
    const length = Math.min(body.length, maxBytes + 1);
    bytes = new Uint8Array(length);
    bytes.set(length === body.length ? body : new Uint8Array(body.buffer, body.byteOffset, length));
  } else {
    throw new TypeError(`robots.txt body must be a string or Uint8Array, got ${describe(body)}`);
  }
  if (bytes.length <= maxBytes) return { bytes, truncated: false };
  let end = maxBytes;
  // The byte at maxBytes may itself end the last kept line.
  if (bytes[end] === 0x0a || bytes[end] === 0x0d) return { bytes: bytes.subarray(0, end), truncated: true };
  while (end > 0 && bytes[end - 1] !== 0x0a && bytes[end - 1] !== 0x0d) end--;
  return { bytes: bytes.subarray(0, end), truncated: true };
}

/**
 * A parsed robots.txt. Parsing never throws on content: every line is either used,
 * reported to handlers as invalid, or outside `maxBytes` (then `truncated` is true).
 * @example
 * const robots = Robots.parse('User-agent: *\nDisallow: /private\n');
 * robots.isAllowed('https://example.com/private/1', 'ExampleBot'); // false
 * robots.explain('https://example.com/private/1', 'ExampleBot');
 * // { allowed: false, line: 2, rule: 'disallow: /private' }
 */
export class Robots {
  /**
   * The groups in file order. Their `rules` arrays stay empty until `groups` is first read:
   * forAgent compiles from the body's offsets (ruleOffsets), and most callers never read
   * a RuleRecord.
   */
  private readonly heads: readonly Group[];
  /** `Sitemap:` URLs in file order (they belong to the file, not to a group). */
  readonly sitemaps: string[];
  /** Every record that is not user-agent, allow, disallow or sitemap, in file order. */
  readonly others: readonly OtherRecord[];
  /** Lines of allow/disallow rules before the first user-agent line (ignored, RFC 9309 §2.2.2). */
  readonly ignoredRuleLines: readonly number[];
  /**
   * The ACAP 1.0 policy of this file (ACAP fields are read in the same lexer pass), or
   * null when the file has no ACAP field. Its `crawl` usage falls back to this file's
   * conventional rules (ACAP §2.9).
   * @example Robots.parse('ACAP-crawler: *\nACAP-disallow-crawl: /x/').acap?.check('/x/1', 'bot', 'crawl').allowed // false
   */
  readonly acap: AcapPolicy | null;
  private readonly matchers = new Map<string, AgentMatcher>();
  /** The agent string of the last forAgent call and its matcher: a crawler repeats one. */
  private lastAgent: string | undefined = undefined;
  private lastMatcher: AgentMatcher | null = null;
  /** The groups' rules as offsets into the parsed body (GroupCollector.ruleOffsets). */
  private readonly ruleOffsets: RuleOffsets;
  /** Whether heads' `rules` arrays hold their records (`groups` was read). */
  private filled = false;
  /** The agent of the last explain call and its agentLines (agentLinesOf). */
  private linesAgent: string | undefined = undefined;
  private lines: readonly number[] = [];

  private constructor(
    readonly profile: Profile,
    collector: RobotsCollector,
    /** Bytes of the body that were parsed. */
    readonly byteLength: number,
    /** Whether the body was longer than `maxBytes`. */
    readonly truncated: boolean,
    /** Lines seen by the lexer. */
    readonly lineCount: number,
    acapMaxExpandedRules?: number,
  ) {
    this.heads = collector.groups;
    this.ruleOffsets = collector.ruleOffsets;
    this.sitemaps = collector.sitemaps;
    // Loose records first, then each group's, then sorted by line (a stable sort): most
    // files have few or none, so no per-group arrays are built to gather them.
    const others = collector.looseOthers.slice();
    for (const group of collector.groups) for (const record of group.others) others.push(record);
    this.others = others.length > 1 ? others.sort((a, b) => a.line - b.line) : others;
    this.ignoredRuleLines = collector.orphanRuleLines;
    this.acap = collector.acap === null ? null : collector.acap.finish(this, { maxExpandedRules: acapMaxExpandedRules });
  }

  /**
   * Groups in file order, each with its rules. Once read, these arrays are what forAgent
   * compiles (a caller may change them), as they always were.
   */
  get groups(): readonly Group[] {
    if (!this.filled) {
      this.ruleOffsets.fill(this.heads);
      this.filled = true;
    }
    return this.heads;
  }

  /**
   * Parses a robots.txt body (UTF-8 string or raw bytes, as served).
   * @throws TypeError when `body` is neither a string nor a Uint8Array, or options are malformed
   * @example Robots.parse(bytes, { profile: 'google', maxBytes: 512_000 })
   */
  static parse(body: string | Uint8Array, options?: ParseOptions): Robots {
    const { profile, maxBytes, acapMaxExpandedRules } = checkOptions(options);
    const { bytes, truncated } = limitBody(body, maxBytes);
    const collector = new RobotsCollector(bytes, profile);
    const lineCount = lexLines(bytes, collector, profile === 'google');
    return new Robots(profile, collector, bytes.length, truncated, lineCount, acapMaxExpandedRules);
  }

  /**
   * A robots.txt that allows everything (no rules), e.g. for RFC 9309 §2.3.1.3 "unavailable".
   * @example Robots.allowAll().isAllowed('/x', 'bot') // true
   */
  static allowAll(options?: { profile?: Profile }): Robots {
    return Robots.parse('', options);
  }

  /**
   * A robots.txt that disallows everything (`User-agent: *` / `Disallow: /`), e.g. for
   * RFC 9309 §2.3.1.4 "unreachable". In the rfc profile /robots.txt itself stays allowed.
   * @example Robots.disallowAll().isAllowed('/x', 'bot') // false
   */
  static disallowAll(options?: { profile?: Profile }): Robots {
    return Robots.parse('User-agent: *\nDisallow: /\n', options);
  }

  /**
   * The matcher for `userAgent`, compiled once and cached. `userAgent` is a product
   * token such as `Googlebot` (RFC 9309 §2.2.1), or `'*'` for the `*` groups alone.
   * @throws TypeError when `userAgent` is anything else (`Googlebot/2.1`, a whole
   *   `User-Agent` header, ''); the message suggests the token (see `suggestProductToken`)
   * @example robots.forAgent('ExampleBot').matchBatch(urls)
   */
  forAgent(userAgent: string): AgentMatcher {
    if (userAgent === this.lastAgent && this.lastMatcher !== null) return this.lastMatcher;
    const matcher = this.matchers.get(userAgent) ?? this.cached(checkAgent(userAgent));
    // Kept even when the Map drops it: a matcher stays valid, it is only recompiled on demand.
    this.lastAgent = userAgent;
    this.lastMatcher = matcher;
    return matcher;
  }

  /**
   * One matcher for several crawlers: its batch calls return a verdict (and, for
   * `decide…`, a line) per URL × agent, URL-major, reading and preparing each URL once.
   * Agents that select the same groups (e.g. every agent the file does not name: the `*`
   * groups, RFC 9309 §2.2.1) share one table, judged once per URL. Duplicates keep their
   * column. Each column answers exactly as `forAgent(agents[j])` does.
   * @throws TypeError when `agents` is not an array, or one of them is neither a product
   *   token nor '*' (as forAgent; the message names its index)
   * @throws RangeError when `agents` is empty
   * @example robots.forAgents(['googlebot', 'gptbot', 'ccbot']).matchBatch(urls) // verdict of url i for agent j at [i * 3 + j]
   */
  forAgents(agents: readonly string[]): MultiAgentMatcher {
    if (!Array.isArray(agents)) throw new TypeError(`agents must be an array of product tokens, got ${describe(agents)}`);
    if (agents.length === 0) throw new RangeError('agents must name at least one agent, got an empty array');
    const names: string[] = [];
    for (let j = 0; j < agents.length; j++) {
      const agent: unknown = agents[j];
      if (typeof agent !== 'string') throw new TypeError(`agents[${j}] must be a string, got ${describe(agent)}`);
      if (agent !== '*' && !isValidProductToken(agent)) throw productTokenError(`agents[${j}]`, agent);
      names.push(agent);
    }
    // One matcher per distinct selection of groups (their indexes in file order).
    const bySelection = new Map<string, AgentMatcher>();
    const matchers = names.map((agent) => {
      const key = selectGroupIndexes(this.heads, agent).join(',');
      let matcher = bySelection.get(key);
      if (matcher === undefined) bySelection.set(key, (matcher = this.forAgent(agent)));
      return matcher;
    });
    return new MultiAgentMatcher(this.profile, names, matchers);
  }

  /** The cached matcher of a checked agent (or compat's reduced name), compiled on a miss. */
  private cached(userAgent: string): AgentMatcher {
    // Keyed by spelling, so `matcher.userAgent` is what the caller asked for.
    const key = userAgent;
    let matcher = this.matchers.get(key);
    if (matcher) return matcher;
    const selected = selectGroupIndexes(this.heads, userAgent);
    // Straight from the body's offsets until `groups` was read: its rule arrays are then
    // what applies. (Either way the library's own freshly encoded table: the matcher
    // skips the validation meant for foreign tables.)
    matcher = this.filled
      ? compileAgentMatcher(userAgent, this.profile, rulesOf(selected.map((g) => this.heads[g]!)))
      : compileOffsetsMatcher(userAgent, this.profile, this.ruleOffsets, selected);
    if (this.matchers.size >= MATCHER_CACHE_SIZE) this.matchers.delete(this.matchers.keys().next().value!);
    this.matchers.set(key, matcher);
    return matcher;
  }

  /**
   * Allow/disallow lines that apply to `userAgent`, in file order: those of every group
   * naming it, else those of every `*` group (RFC 9309 §2.2.1).
   * @throws TypeError when `userAgent` is neither a product token nor '*' (as forAgent)
   */
  rulesFor(userAgent: string): RuleRecord[] {
    checkAgent(userAgent);
    return rulesOf(selectGroups(this.groups, userAgent));
  }

  /**
   * Whether `userAgent` may crawl `url`.
   * @throws TypeError when `userAgent` is neither a product token nor '*' (as forAgent)
   * @example robots.isAllowed('https://example.com/private', 'ExampleBot') // false
   */
  isAllowed(url: string, userAgent: string): boolean {
    expectString(url, 'url');
    return this.forAgent(userAgent).isAllowed(url);
  }

  /**
   * The verdict, the rule that decided it (line 0 and rule null when none did) and the
   * user-agent lines of the groups that applied (`agentLines`).
   * @throws TypeError when `userAgent` is neither a product token nor '*' (as forAgent)
   * @example robots.explain('/private', 'ExampleBot') // { allowed: false, line: 2, rule: 'disallow: /private', agentLines: [1] }
   */
  explain(url: string, userAgent: string): RobotsExplanation {
    expectString(url, 'url');
    const verdict = this.forAgent(userAgent).explain(url);
    return { ...verdict, agentLines: [...this.agentLinesOf(userAgent)] };
  }

  /**
   * The user-agent lines of the groups that apply to a checked `userAgent`, read again
   * from the groups (the same selection its matcher was compiled from) and kept for the
   * last agent asked: compiling does not gather them, since only explain reads them.
   */
  private agentLinesOf(userAgent: string): readonly number[] {
    if (userAgent === this.linesAgent) return this.lines;
    const lines: number[] = [];
    for (const group of selectGroups(this.heads, userAgent)) for (const line of group.agentLines) lines.push(line);
    this.linesAgent = userAgent;
    this.lines = lines;
    return lines;
  }

  /**
   * The `Crawl-delay` in seconds for `userAgent`, read per user-agent block: a
   * Crawl-delay belongs to the run of user-agent lines directly above it, even where
   * RFC 9309 §2.2.4 merges the next lines into the same group for allow/disallow.
   * - When a user-agent line names `userAgent`, the first plain non-negative decimal
   *   value (`2`, `0.5`) of the blocks naming it, in file order; `undefined` when those
   *   blocks have none (no fallback to `*`: the agent has a group of its own).
   * - Otherwise the same from the `*` blocks; `undefined` when they have none.
   * Crawl-delay is not part of RFC 9309; it is read as an "other record" (§2.2.4).
   * @throws TypeError when `userAgent` is neither a product token nor '*' (as forAgent)
   * @example Robots.parse('User-agent: *\nCrawl-delay: 1\n\nUser-agent: b\nCrawl-delay: 12').crawlDelay('b') // 12
   */
  crawlDelay(userAgent: string): number | undefined {
    return this.delayOf(asciiLower(checkAgent(userAgent)));
  }

  /** crawlDelay for a lowercased name already checked (or compat's reduced name). */
  private delayOf(token: string): number | undefined {
    const named = token !== '*' && this.heads.some((g) => g.agents.includes(token));
    for (const group of this.heads) {
      for (const block of group.blocks) {
        if (!(named ? block.agents.includes(token) : block.global)) continue;
        const delay = firstCrawlDelay(block.others);
        if (delay !== undefined) return delay;
      }
    }
    return undefined;
  }
}

/**
 * Internal, for `robotstxt-wasm/compat`: the matcher for a name robots-parser's way of
 * reducing a User-Agent produced (lowercase, maybe not a product token), without the
 * product-token check. `name` is read like a user-agent line of the file (its leading
 * `[A-Za-z_-]` run), so a name and a line written alike always match; one with no such
 * run, and '*', ask for the `*` groups.
 * @example matcherForReducedName(robots, 'sams-bot').isAllowed('/x')
 */
export function matcherForReducedName(robots: Robots, name: string): AgentMatcher {
  const key = reducedKey(name);
  // Bracket access reaches the private method from this module only (compat's door).
  return robots['cached'](key);
}

/** Internal, for compat: `crawlDelay` for a reduced name, read as {@link matcherForReducedName} reads it. */
export function crawlDelayForReducedName(robots: Robots, name: string): number | undefined {
  return robots['delayOf'](reducedKey(name));
}

function reducedKey(name: string): string {
  if (name === '*') return '*';
  const token = leadingToken(name);
  return token === '' ? '*' : token;
}
