// ACAP pattern matching (§2.8), in one place: pattern sets compiled to rule tables and run by the Wasm matcher.
//
// ACAP needs every pattern that matches a URL, not one winner: conflict resolution
// (§2.4.5) compares the matching patterns with each other. So a policy's patterns are
// encoded once into a RuleTable with every rule in the wildcard list (encode.ts
// `allWildcard`), each rule's id being its index, and `collectMatches` reports the ids of
// all rules matching a URL in one Wasm call. The table is flagged FLAG_CASE_INSENSITIVE
// (§2.8: "Pattern matching in ACAP fields should always be case-insensitive"): patterns
// are stored lowercased, the Wasm side lowercases the prepared URL.
//
// `matchPatternReference` is the plain TypeScript statement of the same semantics; the
// tests use it as the oracle for the Wasm path.
import { encodeRuleTable, type TableRule } from '../table/encode.js';
import { FLAG_CASE_INSENSITIVE, FLAG_NORMALIZE_URL } from '../table/format.js';
import { lowerAsciiBytes, normalizePatternRfc } from '../rules/normalize.js';
import { asciiLower } from '../parse/groups.js';
import { getEngine } from '../wasm/index.js';

const encoder = new TextEncoder();

/**
 * Table flags for resource path patterns: RFC 9309 §2.2.2 percent normalization, then ACAP §2.8 case folding.
 * @example
 * getEngine().preparePath('/A%7eB?Q', RESOURCE_TABLE_FLAGS); // bytes of '/a~b?q'
 */
export const RESOURCE_TABLE_FLAGS = FLAG_NORMALIZE_URL | FLAG_CASE_INSENSITIVE;
/**
 * Table flags for usage purpose patterns: names and URIs compared as text, case-insensitively.
 * @example
 * getEngine().preparePath('/?News%7E', PURPOSE_TABLE_FLAGS); // bytes of '/?news%7e'
 */
const PURPOSE_TABLE_FLAGS = FLAG_CASE_INSENSITIVE;

/**
 * Usage purposes are not URLs, but the Wasm matcher starts from a URL. Prefixing both the
 * pattern and the subject with `/?` makes the whole purpose the "path+query" (no scheme
 * or authority is recognised before a leading `/`, and `//` cannot occur), so the
 * matcher compares the purpose text as written.
 */
const PURPOSE_PREFIX = '/?';

/**
 * A pattern list compiled for one policy; matching is one Wasm call per subject.
 * @example
 * const set: CompiledPatterns = compileResourcePatterns(['/a/', '/b/']);
 * set.matches('/b/1'); // Uint8Array [0, 1]
 */
export interface CompiledPatterns {
  readonly count: number;
  /**
   * Marks the patterns that match `subject` (a URL for resource patterns, a purpose
   * name or URI for purpose patterns): `out[i] === 1` when pattern `i` matches.
   */
  matches(subject: string, out?: Uint8Array): Uint8Array;
}

class WasmPatterns implements CompiledPatterns {
  readonly count: number;
  private readonly table: Uint8Array | null;
  private lastSubject: string | null = null;
  private lastIds: number[] = [];

  constructor(
    patterns: readonly Uint8Array[],
    flags: number,
    private readonly prepare: (subject: string) => string,
  ) {
    this.count = patterns.length;
    const rules: TableRule[] = patterns.map((pattern, id) => ({ allow: true, pattern, line: id + 1, id }));
    this.table = rules.length === 0 ? null : encodeRuleTable(rules, { flags, allWildcard: true });
  }

  matches(subject: string, out?: Uint8Array): Uint8Array {
    const result = out ?? new Uint8Array(this.count);
    result.fill(0, 0, this.count);
    if (this.table === null) return result;
    // check() is often called for several usages of one URL in a row: remember the last.
    if (subject !== this.lastSubject) {
      this.lastIds = getEngine().collectMatches(this.table, this.prepare(subject));
      this.lastSubject = subject;
    }
    for (const id of this.lastIds) result[id] = 1;
    return result;
  }
}

/**
 * Compiles resource path patterns (§2.4.3, §2.8: `*` any run of characters, a final `$`
 * anchors, otherwise a prefix match, all case-insensitive). Patterns and URLs are
 * percent-normalized as RFC 9309 §2.2.2 does for conventional rules, so `%7e` and `~`
 * match each other.
 * @example
 * const set = compileResourcePatterns(['/News/', '*.gif']);
 * set.matches('https://example.com/news/a.GIF'); // Uint8Array [1, 1]
 */
export function compileResourcePatterns(patterns: readonly string[]): CompiledPatterns {
  const bytes = patterns.map((p) => lowerAsciiBytes(normalizePatternRfc(encoder.encode(p))));
  return new WasmPatterns(bytes, RESOURCE_TABLE_FLAGS, (url) => url);
}

/**
 * Compiles usage purpose patterns (§2.3.3; `*` and `$` as in §2.8, case-insensitive,
 * otherwise a prefix match). A purpose is compared as text up to any `#`.
 * @example
 * const set = compilePurposePatterns(['news', 'http://news.search.*']);
 * set.matches('NEWS'); // Uint8Array [1, 0]
 * set.matches('http://news.search.example/a'); // Uint8Array [0, 1]
 */
export function compilePurposePatterns(patterns: readonly string[]): CompiledPatterns {
  const bytes = patterns.map((p) => lowerAsciiBytes(encoder.encode(PURPOSE_PREFIX + p)));
  return new WasmPatterns(bytes, PURPOSE_TABLE_FLAGS, (purpose) => PURPOSE_PREFIX + purpose);
}

/** KMP failure links of `seg`: link[k] = length of the longest proper border of seg[0..k]. */
function failureLinks(seg: string): Uint32Array {
  const link = new Uint32Array(seg.length);
  let k = 0;
  for (let q = 1; q < seg.length; q++) {
    while (k > 0 && seg[q] !== seg[k]) k = link[k - 1]!;
    if (seg[q] === seg[k]) k++;
    link[q] = k;
  }
  return link;
}

/** Index just past the leftmost occurrence of `seg` in text[from, …), or -1; the text index never moves back. */
function findAfter(text: string, seg: string, from: number): number {
  if (seg.length === 0) return from;
  const link = failureLinks(seg);
  let q = 0;
  for (let i = from; i < text.length; i++) {
    while (q > 0 && text[i] !== seg[q]) q = link[q - 1]!;
    if (text[i] === seg[q]) q++;
    if (q === seg.length) return i + 1;
  }
  return -1;
}

/**
 * The reference statement of §2.8 matching on plain text: `*` matches any run of
 * characters, a final `$` requires the path to end there, otherwise the pattern only
 * has to match a prefix; ASCII letters compare case-insensitively. Greedy leftmost
 * placement of each `*`-separated piece is exact for `*`-only globs, and every piece is
 * found with KMP, so the cost is O(path + pattern), with no backtracking.
 * No URL parsing or percent normalization happens here: pass a prepared path.
 * @example
 * matchPatternReference('/Special/*.htm', '/special/a/b.HTM?x=1'); // true
 * matchPatternReference('/*.htm$', '/a.html'); // false
 */
export function matchPatternReference(pattern: string, path: string): boolean {
  // ASCII-only folding, as the Wasm side does: no locale-dependent Unicode case mapping.
  const p = asciiLower(pattern);
  const text = asciiLower(path);
  const anchored = p.endsWith('$');
  const pieces = (anchored ? p.slice(0, -1) : p).split('*');
  const first = pieces[0]!;
  if (!text.startsWith(first)) return false;
  let pos = first.length;
  if (pieces.length === 1) return !anchored || pos === text.length;
  // Invariant: pieces[0 .. k) are placed leftmost and text[0, pos) is consumed.
  for (let k = 1; k < pieces.length - 1; k++) {
    pos = findAfter(text, pieces[k]!, pos);
    if (pos < 0) return false;
  }
  const last = pieces[pieces.length - 1]!;
  if (anchored) return text.length - last.length >= pos && text.endsWith(last);
  return findAfter(text, last, pos) >= 0;
}
