// AgentMatcher: one crawler's compiled RuleTable, judged in Wasm one URL or one batch at a time (it never compiles: src/rules/compile.ts does).
import type { Profile } from './parse/lexer.js';
import { bytesToText, type RuleRecord } from './parse/groups.js';
import { getEngine, MATCH_NOT_PLAIN, ORIGIN_MAX_BYTES } from './wasm/index.js';
import { describe, expectString, expectBytes, expectOut, expectProfile } from './errors.js';
import { validateRuleTable } from './table/validate.js';

/** Why a URL is allowed or not. */
export interface Explanation {
  readonly allowed: boolean;
  /** 1-based line of the deciding rule; 0 when no rule decided (allowed by default). */
  readonly line: number;
  /** The deciding rule as `allow: <pattern>` / `disallow: <pattern>`, pattern as written; null when none. */
  readonly rule: string | null;
}

/** Verdicts and deciding lines of a batch. */
export interface BatchDecisions {
  /** 1 = allowed, 0 = disallowed, in input order. */
  readonly verdicts: Uint8Array;
  /** Deciding line per URL (0 = none), in input order. */
  readonly lines: Uint32Array;
}

const lineScratch = new Uint32Array(1);

export { MATCH_NOT_PLAIN, ORIGIN_MAX_BYTES };

/**
 * `matcher`'s verdict on `url` (1 allow, 0 disallow, the deciding line to `lineOut[0]`)
 * when `url` is plainly on `origin` (the UTF-8 bytes of `scheme://host[:port]` as WHATWG
 * URL serializes it, the same array for as long as the origin lasts), else
 * MATCH_NOT_PLAIN: compat's per-URL check, one Wasm call (WasmEngine#matchOnOrigin).
 * Not part of the package's API.
 */
export function judgeOnOrigin(matcher: AgentMatcher, url: string, origin: Uint8Array, lineOut: Uint32Array | null): number {
  return getEngine().matchOnOrigin(matcher.table, url, origin, lineOut);
}

/**
 * The table handed to `wrapCompiledTable`, consumed by the one constructor call it makes:
 * such a table was encoded just now and is referenced nowhere else, so that call neither
 * validates nor copies it. Any other table (the public constructor) is checked and
 * copied. The engine still validates every table when it enters Wasm memory, since
 * `matcher.table` is reachable and could be changed afterwards. (One slot, not a
 * WeakSet: that call is synchronous and never nested, and a WeakSet's add and delete
 * cost as much as compiling a small file.)
 */
let freshTable: Uint8Array | null = null;
/** The rules `wrapCompiledTable` hands over with freshTable, when made on demand (one slot, as freshTable). */
let freshRules: LazyRules | null = null;

/**
 * A compiled matcher's source rules when they are not made yet: their count, and how to
 * make them (Robots.forAgent compiles from the body's offsets; `ruleText` reads records).
 */
export interface LazyRules {
  readonly count: number;
  records(): readonly RuleRecord[];
}

/** The rules argument of a matcher whose rules come through freshRules. */
const NO_RULES: readonly RuleRecord[] = Object.freeze([]);

/**
 * The rules that apply to one crawler, compiled once into a RuleTable and judged in
 * Wasm. Get one from `Robots.forAgent(userAgent)`.
 * @example
 * const m = Robots.parse('User-agent: *\nDisallow: /private').forAgent('ExampleBot');
 * m.isAllowed('https://example.com/private/x'); // false
 * m.matchBatch(['/a', '/private']);            // Uint8Array [1, 0]
 */
export class AgentMatcher {
  /** The encoded RuleTable (src/table/format.ts): a private, validated copy; treat as read-only. */
  readonly table: Uint8Array;

  /**
   * @param userAgent the product token this matcher was compiled for
   * @param profile the profile the rules were read with
   * @param table the encoded RuleTable (src/table/format.ts). It is validated here
   *   (validateRuleTable), since the Wasm matcher trusts what it reads, and copied.
   * @param rules the source rules, for `explain`
   * @throws TypeError for a profile other than 'rfc'/'google' or a table that is not bytes
   * @throws RangeError for a malformed table, naming the first problem
   */
  constructor(
    readonly userAgent: string,
    readonly profile: Profile,
    table: Uint8Array,
    rules: readonly RuleRecord[],
  ) {
    expectString(userAgent, 'userAgent');
    expectProfile(profile, 'profile');
    if (!Array.isArray(rules)) throw new TypeError(`rules must be an array, got ${describe(rules)}`);
    this.rules = rules;
    if (table === freshTable && table !== null) {
      freshTable = null;
      // The library's own, fresh table (wrapCompiledTable): valid by construction.
      this.table = table;
      this.lazyRules = freshRules;
      freshRules = null;
      return;
    }
    validateRuleTable(table);
    // A copy of the bytes validated above (the typed-array constructor runs no user code):
    // the caller's array may change later, the matcher's cannot.
    this.table = new Uint8Array(table);
  }

  /** The source rules, for `ruleText`; NO_RULES while lazyRules has not made them. */
  private rules: readonly RuleRecord[];
  /** How to make the source rules when they came unmade (wrapCompiledTable), until made. */
  private lazyRules: LazyRules | null = null;

  /** Number of allow/disallow lines that apply to this crawler. */
  get ruleCount(): number {
    return this.lazyRules !== null ? this.lazyRules.count : this.rules.length;
  }

  /**
   * Whether `url` (absolute or path-relative) may be crawled.
   * @example m.isAllowed('/private/x') // false
   */
  isAllowed(url: string): boolean {
    expectString(url, 'url');
    return getEngine().matchOne(this.table, url, null) === 1;
  }

  /**
   * The verdict for `url` with the line and text of the rule that decided it.
   * @example m.explain('/private/x') // { allowed: false, line: 2, rule: 'disallow: /private' }
   */
  explain(url: string): Explanation {
    expectString(url, 'url');
    const allowed = getEngine().matchOne(this.table, url, lineScratch) === 1;
    const line = lineScratch[0]!;
    return { allowed, line, rule: this.ruleText(line) };
  }

  /**
   * `allow: <pattern>` for the rule on `line` (as written), or null when no rule of this
   * matcher is on that line.
   * @example m.ruleText(2) // 'disallow: /private'
   */
  ruleText(line: number): string | null {
    if (typeof line !== 'number' || !Number.isInteger(line) || line < 0) {
      throw new TypeError(`line must be a non-negative integer, got ${typeof line === 'number' ? String(line) : describe(line)}`);
    }
    if (line === 0) return null;
    if (this.lazyRules !== null) {
      this.rules = this.lazyRules.records();
      this.lazyRules = null;
    }
    const rule = this.rules.find((r) => r.line === line);
    return rule ? `${rule.allow ? 'allow' : 'disallow'}: ${bytesToText(rule.pattern)}` : null;
  }

  /**
   * Judges many URLs with one Wasm call per chunk. Returns `out` (or a new array):
   * 1 = allowed, 0 = disallowed, in input order.
   * @example m.matchBatch(['/a', '/private/b']) // Uint8Array [1, 0]
   */
  matchBatch(urls: readonly string[], out?: Uint8Array): Uint8Array {
    if (!Array.isArray(urls)) throw new TypeError(`urls must be an array of strings, got ${describe(urls)}`);
    const verdicts = expectOut(out, urls.length, 'out');
    getEngine().matchStrings(this.table, urls, verdicts, null);
    return verdicts;
  }

  /**
   * Like `matchBatch`, plus the deciding line of each URL.
   * @example m.decideBatch(['/private/b']) // { verdicts: [0], lines: [2] }
   */
  decideBatch(urls: readonly string[]): BatchDecisions {
    if (!Array.isArray(urls)) throw new TypeError(`urls must be an array of strings, got ${describe(urls)}`);
    const verdicts = new Uint8Array(urls.length);
    const lines = new Uint32Array(urls.length);
    getEngine().matchStrings(this.table, urls, verdicts, lines);
    return { verdicts, lines };
  }

  /**
   * Judges newline-separated URLs given as bytes (LF or CRLF; a final line without a
   * line break counts; empty lines are judged as the URL ""), without making JS strings.
   * @example m.matchLines(new TextEncoder().encode('/a\n/private\n')) // Uint8Array [1, 0]
   */
  matchLines(bytes: Uint8Array, out?: Uint8Array): Uint8Array {
    expectBytes(bytes, 'bytes');
    if (out !== undefined) expectOut(out, 0, 'out'); // the type, before any work
    const { count, verdicts } = getEngine().matchAllLines(this.table, bytes, false);
    // Lines are counted by the matching pass itself; `out` is written only when it fits.
    const result = expectOut(out, count, 'out');
    result.set(verdicts);
    return result;
  }

  /**
   * Like `matchLines`, plus the deciding line of each URL.
   * @example m.decideLines(new TextEncoder().encode('/private\n')) // { verdicts: [0], lines: [2] }
   */
  decideLines(bytes: Uint8Array): BatchDecisions {
    expectBytes(bytes, 'bytes');
    const result = getEngine().matchAllLines(this.table, bytes, true);
    return { verdicts: result.verdicts.slice(), lines: result.lines!.slice() };
  }
}

/**
 * Wraps a table src/rules/compile.ts has just returned in an AgentMatcher, without the
 * constructor's validation and copy: nothing else holds that table yet. `rules` are its
 * source rules, or (LazyRules) their count and how to make them.
 * Internal (used by compile.ts, not re-exported by src/index.ts).
 * @example wrapCompiledTable('ExampleBot', 'rfc', compileRules(rules, 'rfc'), rules).isAllowed('/x')
 */
export function wrapCompiledTable(userAgent: string, profile: Profile, table: Uint8Array, rules: readonly RuleRecord[] | LazyRules): AgentMatcher {
  // The encoder sizes its tables exactly; a view of a larger buffer is trimmed, as the
  // constructor's copy would, so a cached matcher holds no slack.
  const own = table.byteLength === table.buffer.byteLength ? table : table.slice();
  const made = Array.isArray(rules);
  freshTable = own;
  freshRules = made ? null : (rules as LazyRules);
  try {
    return new AgentMatcher(userAgent, profile, own, made ? (rules as readonly RuleRecord[]) : NO_RULES);
  } finally {
    freshTable = null;
    freshRules = null;
  }
}
