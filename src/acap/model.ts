// ACAP 1.0 data model: usages, qualifiers, records, rules and verdicts as the collector builds them.

/**
 * The usage types of ACAP 1.0 (§2.5): five basic usages, the general `other`, and the
 * eight `present-<resource-type>` usages derived from `present` (§2.5.5.1).
 * @example
 * const u: AcapUsage = 'present-snippet';
 */
export type AcapUsage =
  | 'crawl'
  | 'follow'
  | 'index'
  | 'preserve'
  | 'present'
  | 'other'
  | 'present-original'
  | 'present-currentcopy'
  | 'present-oldcopy'
  | 'present-snippet'
  | 'present-thumbnail'
  | 'present-oldsnippet'
  | 'present-oldthumbnail'
  | 'present-link';

/**
 * Every ACAP 1.0 usage, in the order of §2.5.
 * @example
 * ACAP_USAGES.includes('present-link'); // true
 */
export const ACAP_USAGES: readonly AcapUsage[] = Object.freeze([
  'crawl',
  'follow',
  'index',
  'preserve',
  'present',
  'other',
  'present-original',
  'present-currentcopy',
  'present-oldcopy',
  'present-snippet',
  'present-thumbnail',
  'present-oldsnippet',
  'present-oldthumbnail',
  'present-link',
]);

/**
 * A `time-limit` value (§2.5.3.1): until the next re-crawl, until a calendar date
 * (inclusive, `YYYY-MM-DD`), or for a number of days after first use.
 * @example
 * const t: AcapTimeLimit = { kind: 'days', days: 3 };
 */
export type AcapTimeLimit =
  | { readonly kind: 'until-recrawled' }
  | { readonly kind: 'until-date'; readonly date: string }
  | { readonly kind: 'days'; readonly days: number };

/**
 * What a `must-use-resource` / `must-include-resource` URI designates: an element of the
 * crawled HTML page (`id`, `class`, `meta` name; §2.5.3.2, §2.5.5.2.5) or a separate
 * resource (`uri`, relative or absolute, as written).
 * @example
 * const t: AcapResourceTarget = { kind: 'class', name: 'abstract' };
 */
export type AcapResourceTarget =
  | { readonly kind: 'id' | 'class' | 'meta'; readonly name: string }
  | { readonly kind: 'uri'; readonly uri: string };

/**
 * Modifications `prohibited-modification` can name (§2.5.5.2.4).
 * @example
 * const m: AcapModification = 'translation';
 */
export type AcapModification = 'any' | 'format' | 'style' | 'translation' | 'annotation';

/**
 * One parsed qualifier of a permission (§2.4.1.2, §2.5). `text` is the qualifier as
 * written (`name=value`, spaces around `=` removed).
 * @example
 * // ACAP-allow-present-snippet: /news/ max-length=250-chars
 * const q: AcapQualifier = { type: 'max-length', text: 'max-length=250-chars', count: 250, unit: 'chars' };
 */
export type AcapQualifier =
  | { readonly type: 'time-limit'; readonly text: string; readonly limit: AcapTimeLimit }
  | { readonly type: 'max-length'; readonly text: string; readonly count: number; readonly unit: 'chars' | 'words' }
  | { readonly type: 'must-use-resource'; readonly text: string; readonly uri: string; readonly target: AcapResourceTarget }
  | {
      readonly type: 'must-include-resource';
      readonly text: string;
      readonly uri: string;
      /** `credit` or `link` from `the-acap:<role>:…`; null for a general URI. */
      readonly role: 'credit' | 'link' | null;
      readonly target: AcapResourceTarget;
    }
  | { readonly type: 'prohibited-modification'; readonly text: string; readonly modification: AcapModification }
  | { readonly type: 'prohibited-context'; readonly text: string; readonly context: 'within-user-frame' }
  | { readonly type: 'required-context'; readonly text: string; readonly context: 'within-original-frame' };

/**
 * The qualifier type names of ACAP 1.0.
 * @example
 * const t: AcapQualifierType = 'time-limit';
 */
export type AcapQualifierType = AcapQualifier['type'];

/**
 * A problem found while reading the ACAP part of a robots.txt file. The offending field
 * (or the part of it named in the message) is ignored; the rest of the file is used.
 * @example
 * const d: AcapDiagnostic = { line: 4, code: 'unknown-usage', message: "ACAP-allow-extract: 'extract' is not an ACAP 1.0 usage (§2.5); field ignored" };
 */
export interface AcapDiagnostic {
  /** 1-based line of the offending field. */
  readonly line: number;
  /** Stable identifier; docs/ACAP.md lists every code. */
  readonly code: AcapDiagnosticCode;
  readonly message: string;
}

/**
 * Every diagnostic code the ACAP collector emits, in the order of the docs/ACAP.md diagnostics table
 * (`section:acap`), which explains each.
 * @example
 * ACAP_DIAGNOSTIC_CODES.includes('undefined-resource-set'); // true
 */
export const ACAP_DIAGNOSTIC_CODES = Object.freeze([
  'version-malformed',
  'version-unsupported',
  'field-without-colon',
  'unknown-field',
  'ignore-conventional-late',
  'ignore-conventional-value',
  'ignore-conventional-repeated',
  'definition-after-record',
  'definition-malformed',
  'duplicate-name',
  'undefined-usage',
  'undefined-resource-set',
  'unknown-usage',
  'invalid-qualifier',
  'qualifier-spelling',
  'qualifier-not-allowed',
  'qualifier-repeated',
  'prohibition-qualified',
  'local-usage-qualified',
  'local-usage-prohibition',
  'field-outside-record',
  'crawler-empty',
  'crawler-any-mixed',
  'crawler-repeated',
  'reference-misplaced',
  'reference-empty',
  'request-in-sub-record',
  'request-unknown-action',
  'request-invalid-path',
  'purpose-empty',
  'empty-record',
  'empty-sub-record',
  'resource-missing',
  'resource-invalid',
  'resource-unrooted',
  'expansion-budget-exceeded',
] as const);

/**
 * One of {@link ACAP_DIAGNOSTIC_CODES}.
 * @example
 * const code: AcapDiagnosticCode = 'unknown-usage';
 */
export type AcapDiagnosticCode = (typeof ACAP_DIAGNOSTIC_CODES)[number];

/**
 * Default ACAP expansion budget per file (`ParseOptions.acapMaxExpandedRules`): how many
 * rules (usages × resource path patterns, summed over the permission and prohibition
 * fields) a file may stand for. Real ACAP files stand for tens of rules; a file past the
 * budget is read as prohibiting every usage (docs/ACAP.md, "ACAP limits").
 * @example
 * Robots.parse(body, { acapMaxExpandedRules: DEFAULT_ACAP_MAX_EXPANDED_RULES });
 */
export const DEFAULT_ACAP_MAX_EXPANDED_RULES = 100_000;

/**
 * One permission or prohibition field as collected: its usages and its resources kept
 * apart, never crossed (internal). A field naming a resource set shares that set's
 * `patternIds` array with every other field naming it, so a file costs memory linear in
 * its size however many rules it stands for.
 * @example
 * // line 5: ACAP-allow-(basic): the-acap:resource-set:docs
 * const f: AcapField = { allow: true, parts: [{ usage: 'crawl', qualifiers: [] }, { usage: 'index', qualifiers: [] }], patternIds: [0, 1], line: 5 };
 */
export interface AcapField {
  readonly allow: boolean;
  readonly parts: readonly AcapQualifiedPart[];
  /** Indexes into the policy's pattern list, in the order the resource specification gives them. */
  readonly patternIds: readonly number[];
  readonly line: number;
}

/**
 * A sub-record as collected: fields, not expanded rules (internal; see {@link AcapSubRecord}).
 * @example
 * const s: AcapFieldSubRecord = { line: 3, purposes: ['news'], fields: [] };
 */
export interface AcapFieldSubRecord {
  readonly line: number;
  readonly purposes: readonly string[];
  readonly fields: readonly AcapField[];
}

/**
 * A record as collected: fields, not expanded rules (internal; see {@link AcapRecord}).
 * @example
 * const r: AcapFieldRecord = { line: 1, anyCrawler: true, crawlers: [], reference: null, fields: [], subRecords: [], requests: [] };
 */
export interface AcapFieldRecord {
  readonly line: number;
  readonly anyCrawler: boolean;
  readonly crawlers: readonly string[];
  readonly reference: AcapReference | null;
  readonly fields: readonly AcapField[];
  readonly subRecords: readonly AcapFieldSubRecord[];
  readonly requests: readonly AcapRequest[];
}

/**
 * One resource path pattern of a permission or prohibition after definitions were
 * expanded: a resource set contributes one rule per pattern, a composite usage one rule
 * per constituent usage (§2.4.1.3, §2.7.2).
 * @example
 * // line 9: ACAP-allow-index: /news/
 * const r: AcapRule = { allow: true, usage: 'index', pattern: '/news/', patternId: 0, qualifiers: [], line: 9 };
 */
export interface AcapRule {
  readonly allow: boolean;
  readonly usage: AcapUsage;
  /** Resource path pattern as written (a missing leading `/` added, §2.4.3). */
  readonly pattern: string;
  /** Index of `pattern` in the policy's compiled pattern list. */
  readonly patternId: number;
  readonly qualifiers: readonly AcapQualifier[];
  /** 1-based line of the permission or prohibition field. */
  readonly line: number;
}

/**
 * A sub-record (§2.3.3): usage purpose patterns and the rules that apply to them.
 * @example
 * // ACAP-usage-purpose: news
 * // ACAP-allow-index: /
 * const s: AcapSubRecord = { line: 3, purposes: ['news'], rules: [] };
 */
export interface AcapSubRecord {
  /** Line of the first usage purpose field. */
  readonly line: number;
  /** Usage purpose patterns as written (`*` and `$` are wildcards, §2.8). */
  readonly purposes: readonly string[];
  readonly rules: readonly AcapRule[];
}

/**
 * An `ACAP-permissions-reference` (§2.3.2): a path on the same server or a URI holding
 * further ACAP permissions for the record's crawlers. This library does not fetch it.
 * @example
 * const ref: AcapReference = { value: '/searchbot.txt', line: 2 };
 */
export interface AcapReference {
  readonly value: string;
  readonly line: number;
}

/**
 * An ACAP action request (§2.6): `ACAP-request-take-down` or `ACAP-request-re-crawl`.
 * @example
 * const req: AcapRequest = { action: 'take-down', path: '/news/bad-story.htm', line: 3 };
 */
export interface AcapRequest {
  readonly action: 'take-down' | 're-crawl';
  readonly path: string;
  readonly line: number;
}

/**
 * An ACAP record (§2.3): crawler identification fields, then either a permissions
 * reference or permission / prohibition / action request fields and sub-records.
 * @example
 * const rec: AcapRecord = { line: 1, anyCrawler: false, crawlers: ['searchbot'], reference: null, rules: [], subRecords: [], requests: [] };
 */
export interface AcapRecord {
  /** Line of the first `ACAP-crawler` field. */
  readonly line: number;
  /** Addressed to "any crawler" (`ACAP-crawler: *`). */
  readonly anyCrawler: boolean;
  /** Crawler names, ASCII-lowercased (§2.3.1: names are not case-sensitive); empty for `*`. */
  readonly crawlers: readonly string[];
  readonly reference: AcapReference | null;
  /** Rules not tied to a usage purpose. */
  readonly rules: readonly AcapRule[];
  readonly subRecords: readonly AcapSubRecord[];
  readonly requests: readonly AcapRequest[];
}

/**
 * A resource set definition (§2.7.3).
 * @example
 * // ACAP-resource-set: images *.gif *.jpg *.png
 * const s: AcapResourceSet = { name: 'images', patterns: ['*.gif', '*.jpg', '*.png'], line: 1 };
 */
export interface AcapResourceSet {
  /** Lowercased (§3: all names are case-insensitive). */
  readonly name: string;
  readonly patterns: readonly string[];
  readonly line: number;
}

/**
 * One standard usage with its qualifiers: the body of a qualified usage, or one part of a
 * composite usage.
 * @example
 * const p: AcapQualifiedPart = { usage: 'preserve', qualifiers: [] };
 */
export interface AcapQualifiedPart {
  readonly usage: AcapUsage;
  readonly qualifiers: readonly AcapQualifier[];
}

/**
 * A locally-defined usage (§2.7.1, §2.7.2): a qualified usage has one part, a composite
 * usage one part per constituent (qualified constituents carry their qualifiers).
 * @example
 * // ACAP-composite-usage: basic-usages crawl index present
 * const u: AcapLocalUsage = { kind: 'composite', name: 'basic-usages', line: 3, parts: [] };
 */
export interface AcapLocalUsage {
  readonly kind: 'qualified' | 'composite';
  /** Lowercased (§3). */
  readonly name: string;
  readonly parts: readonly AcapQualifiedPart[];
  readonly line: number;
}

/**
 * The answer to "may `crawler` use `url` for `usage`?".
 * - `source: 'acap'`: an ACAP field decided; `line` is that field's line.
 * - `source: 'conventional'`: usage `crawl` only, no ACAP field decided, so the
 *   conventional REP verdict applies (§2.9.2); `line` is the REP rule's line.
 * - `source: 'default'`: nothing applies; allowed, `line` 0.
 * `qualifiers` restrict an allowed usage (always empty when not allowed).
 * @example
 * const v: AcapVerdict = { allowed: true, line: 12, qualifiers: [], source: 'acap' };
 */
export interface AcapVerdict {
  readonly allowed: boolean;
  readonly line: number;
  readonly qualifiers: readonly AcapQualifier[];
  readonly source: 'acap' | 'conventional' | 'default';
}

/**
 * The conventional-REP side the ACAP policy falls back to for `crawl` (§2.9.2);
 * `Robots` satisfies it.
 * @example
 * const rep: ConventionalPolicy = { explain: () => ({ allowed: true, line: 0 }) };
 */
export interface ConventionalPolicy {
  explain(url: string, crawler: string): { allowed: boolean; line: number };
}
