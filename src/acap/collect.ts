// Lexer handler for ACAP 1.0 (§2–3): ACAP fields → definitions, records, rules and diagnostics.
//
// It receives the same events as the conventional GroupCollector (one lex serves both)
// and only looks at `##ACAP` comments, `ACAP-…` records and the colon-less
// `ACAP-ignore-conventional-records` line. Conventional fields are never part of an ACAP
// record (§2.9.2: "Conventional fields found within ACAP records are always to be
// ignored"), so user-agent / allow / disallow / sitemap events are no-ops here.
//
// Why one file of ~670 lines: AcapCollector is one state machine over the file (the record
// and sub-record being built, the definitions seen so far, §2.3), and every field parser
// below reads and extends that state; qualifiers (qualifiers.ts) and usage names
// (usages.ts), which need none of it, live apart.
import { asciiLower, bytesToText } from '../parse/groups.js';
import type { RobotsLineHandler } from '../parse/lexer.js';
import { AcapPolicy } from './evaluate.js';
import {
  DEFAULT_ACAP_MAX_EXPANDED_RULES,
  type AcapDiagnostic,
  type AcapDiagnosticCode,
  type AcapField,
  type AcapLocalUsage,
  type AcapQualifiedPart,
  type AcapReference,
  type AcapRequest,
  type AcapResourceSet,
  type ConventionalPolicy,
} from './model.js';
import { parseQualifiers } from './qualifiers.js';
import { isAcapName, toUsage } from './usages.js';

/** Where the current record is in the grammar of §2.3 / §3 `ACAP-record`. */
type RecordState =
  | 'crawlers' // only ACAP-crawler fields so far
  | 'reference' // ACAP-permissions-reference seen: nothing else may follow
  | 'fields' // general permission / prohibition / action request fields
  | 'purposes' // usage purpose fields of a sub-record, no permission field yet
  | 'sub-fields'; // permission / prohibition fields of a sub-record

interface SubRecordBuilder {
  readonly line: number;
  readonly purposes: string[];
  readonly fields: AcapField[];
}

interface RecordBuilder {
  readonly line: number;
  anyCrawler: boolean;
  readonly crawlers: string[];
  reference: AcapReference | null;
  readonly fields: AcapField[];
  readonly subRecords: SubRecordBuilder[];
  readonly requests: AcapRequest[];
  state: RecordState;
}

const RESOURCE_SET_SCHEME = 'the-acap:resource-set:';
const IGNORE_CONVENTIONAL = 'acap-ignore-conventional-records';
const SUPPORTED_VERSION = '1.0';

function isWsp(c: number): boolean {
  return c === 0x20 || c === 0x09;
}

/** Splits on runs of SP / HT (§3 WSP). */
function words(text: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < text.length) {
    while (i < text.length && isWsp(text.charCodeAt(i))) i++;
    const start = i;
    while (i < text.length && !isWsp(text.charCodeAt(i))) i++;
    if (i > start) out.push(text.slice(start, i));
  }
  return out;
}

/** The first word of `text` and everything after it (leading whitespace removed). */
function firstWord(text: string): { head: string; rest: string } {
  let i = 0;
  while (i < text.length && !isWsp(text.charCodeAt(i))) i++;
  let j = i;
  while (j < text.length && isWsp(text.charCodeAt(j))) j++;
  return { head: text.slice(0, i), rest: text.slice(j) };
}

/** `name=…` at the start of a value: a qualifier where a resource specification should be. */
function looksLikeQualifier(word: string): boolean {
  const eq = word.indexOf('=');
  return eq > 0 && isAcapName(word.slice(0, eq));
}

/** A URI scheme (`http:`, `mailto:` …) at the start: RFC 3986 §3.1. */
function hasScheme(text: string): boolean {
  const colon = text.indexOf(':');
  if (colon <= 0) return false;
  for (let i = 0; i < colon; i++) {
    const c = text.charCodeAt(i);
    const alpha = (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a;
    if (i === 0 ? !alpha : !(alpha || (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e)) return false;
  }
  return true;
}

/**
 * Collects the ACAP part of a robots.txt file from lexer events (see `lexRobots`).
 * Call {@link AcapCollector.finish} after lexing; it returns null when the file has no
 * ACAP fields.
 * @example
 * const acap = new AcapCollector();
 * lexRobots(new TextEncoder().encode('ACAP-crawler: *\nACAP-disallow-crawl: /private/\n'), acap, 'rfc');
 * const policy = acap.finish({ explain: () => ({ allowed: true, line: 0 }) });
 * policy?.check('/private/a', 'searchbot', 'crawl'); // { allowed: false, line: 2, qualifiers: [], source: 'acap' }
 */
export class AcapCollector implements RobotsLineHandler {
  private sawAcap = false;
  private version: string | null = null;
  private ignoreConventionalLine = 0;
  private firstDefinitionLine = 0;
  private readonly diagnostics: AcapDiagnostic[] = [];
  private readonly resourceSets = new Map<string, AcapResourceSet>();
  private readonly localUsages = new Map<string, AcapLocalUsage>();
  /** Names whose definition was rejected → its line, for better follow-up messages. */
  private readonly rejectedUsages = new Map<string, number>();
  private readonly rejectedSets = new Map<string, number>();
  private readonly records: RecordBuilder[] = [];
  private current: RecordBuilder | null = null;
  private readonly patterns: string[] = [];
  private readonly patternIds = new Map<string, number>();
  /** Pattern ids of each resource set, made at its first use and shared by every field naming it. */
  private readonly setPatternIds = new Map<AcapResourceSet, readonly number[]>();
  /** Every accepted permission and prohibition field, in file order. */
  private readonly fields: AcapField[] = [];
  /** Rules the fields stand for (usages × patterns), counted, never built. */
  private expandedRules = 0;

  // Conventional records are the GroupCollector's business (§2.9.2).
  userAgent(): void {}
  allow(): void {}
  disallow(): void {}
  sitemap(): void {}

  /** §2.9.3: `##ACAP version=xxx` marks a file that contains ACAP records. */
  comment(text: Uint8Array, line: number): void {
    if (text.length < 6 || text[1] !== 0x23) return;
    const s = bytesToText(text);
    if (asciiLower(s.slice(0, 6)) !== '##acap') return;
    const rest = s.slice(6);
    if (rest.length > 0 && !isWsp(rest.charCodeAt(0))) return; // `##ACAPx` is some other comment
    if (this.version !== null) return;
    const body = rest.trim();
    const eq = body.indexOf('=');
    const value = eq >= 0 ? body.slice(eq + 1).trim() : '';
    if (eq < 0 || asciiLower(body.slice(0, eq).trim()) !== 'version' || value.length === 0 || words(value).length !== 1) {
      this.report(line, 'version-malformed', `'${s.trim()}' is not the ACAP comment form '##ACAP version=1.0' (§2.9.3)`);
      return;
    }
    this.version = value;
    if (value !== SUPPORTED_VERSION) {
      this.report(line, 'version-unsupported', `ACAP version ${value} is not supported; the file is read as ACAP ${SUPPORTED_VERSION}`);
    }
  }

  /** Lines without a colon: only `ACAP-ignore-conventional-records` is valid among them (§2.9.1). */
  invalid(text: Uint8Array, line: number): void {
    const s = bytesToText(text);
    const lower = asciiLower(s);
    if (!lower.startsWith('acap-')) return;
    this.sawAcap = true;
    if (lower === IGNORE_CONVENTIONAL) {
      this.ignoreConventional(line, '');
      return;
    }
    const name = words(s)[0]!;
    this.report(line, 'field-without-colon', `'${name}' has no ':' after the field name; line ignored`);
  }

  other(keyBytes: Uint8Array, valueBytes: Uint8Array, line: number): void {
    const key = bytesToText(keyBytes);
    const k = asciiLower(key);
    if (!k.startsWith('acap-')) return;
    this.sawAcap = true;
    const value = bytesToText(valueBytes);
    switch (k) {
      case IGNORE_CONVENTIONAL:
        return this.ignoreConventional(line, value);
      case 'acap-resource-set':
      case 'acap-qualified-usage':
      case 'acap-composite-usage':
        return this.definition(k, key, value, line);
      case 'acap-crawler':
        return this.crawler(value, line);
      case 'acap-permissions-reference':
        return this.reference(key, value, line);
      case 'acap-usage-purpose':
        return this.usagePurpose(key, value, line);
    }
    if (k.startsWith('acap-allow-')) return this.permission(true, key, key.slice(11), value, line);
    if (k.startsWith('acap-disallow-')) return this.permission(false, key, key.slice(14), value, line);
    if (k.startsWith('acap-request-')) return this.request(key, k.slice(13), value, line);
    this.report(line, 'unknown-field', `${key} is not an ACAP 1.0 field; line ignored`);
    this.endCrawlerList();
  }

  /**
   * Ends collection. Returns null when the file had no ACAP field; otherwise the policy,
   * which falls back to `rep` for the `crawl` usage where no ACAP field decides (§2.9.2).
   * Nothing is expanded here: the cost so far is linear in the file's size.
   * `maxExpandedRules` is the ACAP expansion budget (default
   * {@link DEFAULT_ACAP_MAX_EXPANDED_RULES}): past it, an `expansion-budget-exceeded`
   * diagnostic, and the policy prohibits every usage (see {@link AcapPolicy}).
   * @throws TypeError / RangeError when `maxExpandedRules` is not a non-negative integer
   * @example
   * new AcapCollector().finish({ explain: () => ({ allowed: true, line: 0 }) }); // null
   */
  finish(rep: ConventionalPolicy, options: { readonly maxExpandedRules?: number | undefined } = {}): AcapPolicy | null {
    const maxExpandedRules = options.maxExpandedRules ?? DEFAULT_ACAP_MAX_EXPANDED_RULES;
    if (typeof maxExpandedRules !== 'number') {
      throw new TypeError(`acapMaxExpandedRules must be a non-negative integer, got ${typeof maxExpandedRules}`);
    }
    if (!Number.isSafeInteger(maxExpandedRules) || maxExpandedRules < 0) {
      throw new RangeError(`acapMaxExpandedRules must be a non-negative integer, got ${String(maxExpandedRules)}`);
    }
    if (!this.sawAcap) return null;
    this.closeRecord();
    const overBudgetLine = this.budgetLine(maxExpandedRules);
    // Stable sort: end-of-record checks report earlier lines than the fields after them.
    const diagnostics = this.diagnostics.slice().sort((a, b) => a.line - b.line);
    return new AcapPolicy(
      {
        version: this.version,
        ignoreConventionalRecords: this.ignoreConventionalLine > 0,
        diagnostics,
        records: this.records.map((r) => ({
          line: r.line,
          anyCrawler: r.anyCrawler,
          crawlers: r.crawlers,
          reference: r.reference,
          fields: r.fields,
          subRecords: r.subRecords,
          requests: r.requests,
        })),
        resourceSets: this.resourceSets,
        localUsages: this.localUsages,
        patterns: this.patterns,
        expandedRuleCount: this.expandedRules,
        maxExpandedRules,
        overBudgetLine,
      },
      rep,
    );
  }

  /**
   * The line of the field that takes the expanded rule count past `budget` (reported),
   * or 0 when the whole file fits. O(fields): each field's count is a product, not a list.
   */
  private budgetLine(budget: number): number {
    if (this.expandedRules <= budget) return 0;
    let total = 0;
    for (const field of this.fields) {
      total += field.parts.length * field.patternIds.length;
      if (total > budget) {
        this.report(
          field.line,
          'expansion-budget-exceeded',
          `the ACAP fields up to this one stand for ${total} rules (usages × resource path patterns; the file: ${this.expandedRules}), over the budget of ${budget} (acapMaxExpandedRules); every ACAP usage is read as prohibited for every crawler and resource (§2.4.5: what a crawler cannot determine is prohibited)`,
        );
        return field.line;
      }
    }
    return 0; // unreachable: the fields sum to expandedRules
  }

  private report(line: number, code: AcapDiagnosticCode, message: string): void {
    this.diagnostics.push({ line, code, message });
  }

  private ignoreConventional(line: number, value: string): void {
    if (value.length > 0) {
      this.report(line, 'ignore-conventional-value', `ACAP-ignore-conventional-records takes no value; '${value}' ignored`);
    }
    if (this.ignoreConventionalLine > 0) {
      this.report(line, 'ignore-conventional-repeated', `ACAP-ignore-conventional-records already given at line ${this.ignoreConventionalLine}`);
      return;
    }
    // §2.9.1: "This field should be placed before any ACAP definition fields" (a SHOULD:
    // the directive is still honoured, wherever it is).
    const before = this.records.length > 0 ? this.records[0]!.line : this.firstDefinitionLine;
    if (before > 0) {
      this.report(line, 'ignore-conventional-late', `ACAP-ignore-conventional-records should precede ACAP definitions and records (first at line ${before}, §2.9.1); honoured anyway`);
    }
    this.ignoreConventionalLine = line;
  }

  // ---- Definitions (§2.7) -------------------------------------------------------------

  private definition(k: string, key: string, value: string, line: number): void {
    // §2.7: "All ACAP definition fields must be placed before any ACAP records".
    if (this.records.length > 0) {
      this.report(line, 'definition-after-record', `${key} after the first ACAP record (line ${this.records[0]!.line}); definitions must precede all records (§2.7); line ignored`);
      return;
    }
    if (this.firstDefinitionLine === 0) this.firstDefinitionLine = line;
    const parts = words(value);
    const rawName = parts[0] ?? '';
    const name = asciiLower(rawName);
    if (!isAcapName(rawName)) {
      const what = rawName.length === 0 ? 'a name' : `a name starting with a letter (§3 name-start-char), got '${rawName}'`;
      this.report(line, 'definition-malformed', `${key} needs ${what}; line ignored`);
      return;
    }
    if (k === 'acap-resource-set') this.resourceSet(key, name, parts.slice(1), line);
    else if (k === 'acap-qualified-usage') this.qualifiedUsage(key, name, firstWord(firstWord(value).rest), line);
    else this.compositeUsage(key, name, parts.slice(1), line);
  }

  private resourceSet(key: string, name: string, patterns: string[], line: number): void {
    const earlier = this.resourceSets.get(name)?.line ?? this.rejectedSets.get(name);
    if (earlier !== undefined) {
      this.report(line, 'duplicate-name', `${key}: resource set '${name}' is already defined at line ${earlier}; line ignored`);
      return;
    }
    if (patterns.length === 0) {
      this.report(line, 'definition-malformed', `${key}: resource set '${name}' lists no resource path patterns (§2.7.3); line ignored`);
      this.rejectedSets.set(name, line);
      return;
    }
    const valid: string[] = [];
    for (const p of patterns) {
      const pattern = this.checkPattern(key, p, line);
      if (pattern !== null) valid.push(pattern);
    }
    if (valid.length === 0) {
      this.rejectedSets.set(name, line);
      return;
    }
    this.resourceSets.set(name, { name, patterns: valid, line });
  }

  /** True (after reporting) when `name` is taken: §3 "No two qualified or composite usages may share the same name". */
  private usageNameTaken(key: string, name: string, line: number): boolean {
    const earlier = this.localUsages.get(name)?.line ?? this.rejectedUsages.get(name);
    if (earlier === undefined) return false;
    this.report(line, 'duplicate-name', `${key}: usage '${name}' is already defined at line ${earlier}; line ignored`);
    return true;
  }

  private qualifiedUsage(key: string, name: string, body: { head: string; rest: string }, line: number): void {
    if (this.usageNameTaken(key, name, line)) return;
    const usage = toUsage(body.head);
    let ok = true;
    if (body.head.length === 0) {
      this.report(line, 'definition-malformed', `${key}: '${name}' names no standard usage (§2.7.1); line ignored`);
      ok = false;
    } else if (usage === null) {
      this.report(line, 'unknown-usage', `${key}: '${body.head}' is not an ACAP 1.0 usage (§2.5); line ignored`);
      ok = false;
    } else if (body.rest.length === 0) {
      this.report(line, 'definition-malformed', `${key}: '${name}' has no qualifiers; a qualified usage needs at least one (§2.7.1); line ignored`);
      ok = false;
    }
    if (usage !== null && body.rest.length > 0) {
      const parsed = parseQualifiers(body.rest, usage);
      for (const p of parsed.problems) this.report(line, p.code, `${key}: ${p.message}; line ignored`);
      for (const p of parsed.notes) this.report(line, p.code, `${key}: ${p.message}`);
      if (parsed.problems.length > 0) ok = false;
      if (ok) {
        this.localUsages.set(name, { kind: 'qualified', name, parts: [{ usage, qualifiers: parsed.qualifiers }], line });
        return;
      }
    }
    this.rejectedUsages.set(name, line);
  }

  private compositeUsage(key: string, name: string, names: string[], line: number): void {
    if (this.usageNameTaken(key, name, line)) return;
    const parts: AcapQualifiedPart[] = [];
    let ok = names.length > 0;
    if (names.length === 0) this.report(line, 'definition-malformed', `${key}: '${name}' lists no usages (§2.7.2); line ignored`);
    for (const raw of names) {
      if (raw.startsWith('(') && raw.endsWith(')') && raw.length > 2) {
        const local = asciiLower(raw.slice(1, -1));
        const def = this.localUsages.get(local);
        if (def === undefined) {
          this.report(line, 'undefined-usage', `${key}: ${this.undefinedUsageText(local)} (§2.7: a definition must precede those that use it); line ignored`);
          ok = false;
        } else if (def.kind !== 'qualified') {
          // §3: a local usage in a composite "must correspond to an <qualified-usage-name>".
          this.report(line, 'definition-malformed', `${key}: (${local}) is a composite usage; composites may only contain standard and qualified usages (§3); line ignored`);
          ok = false;
        } else {
          parts.push(def.parts[0]!);
        }
        continue;
      }
      const usage = toUsage(raw);
      if (usage === null) {
        this.report(line, 'unknown-usage', `${key}: '${raw}' is not an ACAP 1.0 usage (§2.5) nor a (qualified-usage); line ignored`);
        ok = false;
      } else {
        parts.push({ usage, qualifiers: [] });
      }
    }
    if (ok) this.localUsages.set(name, { kind: 'composite', name, parts, line });
    else this.rejectedUsages.set(name, line);
  }

  private undefinedUsageText(name: string): string {
    const rejected = this.rejectedUsages.get(name);
    return rejected === undefined ? `usage (${name}) is not defined` : `usage (${name}) has no valid definition (line ${rejected} was ignored)`;
  }

  // ---- Records (§2.3) -----------------------------------------------------------------

  private crawler(value: string, line: number): void {
    if (value.length === 0) {
      this.report(line, 'crawler-empty', 'ACAP-crawler needs a crawler name or * (§2.3.1); line ignored');
      return;
    }
    const any = value === '*';
    const record = this.current;
    // §2.3: a record ends when a crawler field follows some other field of the record.
    if (record !== null && record.state === 'crawlers') {
      if (record.anyCrawler) {
        this.report(line, 'crawler-any-mixed', `the ACAP-crawler: * record (line ${record.line}) must not contain other crawler fields (§2.3.1); line ignored`);
      } else if (any) {
        this.report(line, 'crawler-any-mixed', `ACAP-crawler: * cannot join the record of line ${record.line}, which names crawlers (§2.3.1); line ignored`);
      } else if (record.crawlers.includes(asciiLower(value))) {
        this.report(line, 'crawler-repeated', `crawler '${value}' is already named by this record; line ignored`);
      } else {
        record.crawlers.push(asciiLower(value));
      }
      return;
    }
    this.closeRecord();
    this.current = {
      line,
      anyCrawler: any,
      crawlers: any ? [] : [asciiLower(value)],
      reference: null,
      fields: [],
      subRecords: [],
      requests: [],
      state: 'crawlers',
    };
    this.records.push(this.current);
  }

  private closeRecord(): void {
    const record = this.current;
    if (record === null) return;
    if (record.state === 'crawlers') {
      // §3 ACAP-record: crawler fields are followed by a reference, fields or a sub-record.
      this.report(record.line, 'empty-record', 'ACAP record has crawler fields but no permission, prohibition, request or reference field (§2.3)');
    }
    const last = record.subRecords[record.subRecords.length - 1];
    if (record.state === 'purposes' && last !== undefined) {
      this.report(last.line, 'empty-sub-record', 'ACAP sub-record has usage purpose fields but no permission or prohibition field (§2.3)');
    }
    this.current = null;
  }

  /**
   * §2.3: "An ACAP record terminates when … a crawler identification field is encountered
   * following some other field". A field counts even when it is rejected, so that a
   * typo between two records does not merge them.
   */
  private endCrawlerList(): void {
    if (this.current !== null && this.current.state === 'crawlers') this.current.state = 'fields';
  }

  /** The record a non-crawler field belongs to, or null (reported) when it cannot have one. */
  private recordFor(key: string, line: number): RecordBuilder | null {
    const record = this.current;
    if (record === null) {
      this.report(line, 'field-outside-record', `${key} before any ACAP-crawler field belongs to no record (§2.3); line ignored`);
      return null;
    }
    if (record.state === 'reference') {
      this.report(line, 'reference-misplaced', `${key} follows ACAP-permissions-reference (line ${record.reference?.line ?? record.line}), which must be the record's only field (§2.3); line ignored`);
      return null;
    }
    return record;
  }

  private reference(key: string, value: string, line: number): void {
    const record = this.recordFor(key, line);
    if (record === null) return;
    if (record.state !== 'crawlers') {
      this.report(line, 'reference-misplaced', `${key} must directly follow the ACAP-crawler fields and be the record's only field (§2.3); line ignored`);
      return;
    }
    if (value.length === 0) {
      this.report(line, 'reference-empty', `${key} needs a path or URI (§2.3.2); line ignored`);
      this.endCrawlerList();
      return;
    }
    record.reference = { value, line };
    record.state = 'reference';
  }

  private usagePurpose(key: string, value: string, line: number): void {
    const record = this.recordFor(key, line);
    if (record === null) return;
    if (value.length === 0) {
      this.report(line, 'purpose-empty', `${key} needs a usage purpose name or pattern (§2.3.3); line ignored`);
    }
    const last = record.subRecords[record.subRecords.length - 1];
    if (record.state === 'purposes' && last !== undefined) {
      if (value.length > 0) last.purposes.push(value);
      return;
    }
    // An empty purpose still opens the sub-record: the fields after it were meant for a
    // purpose, so they must not become general fields. With no purpose they apply to none.
    record.subRecords.push({ line, purposes: value.length > 0 ? [value] : [], fields: [] });
    record.state = 'purposes';
  }

  private request(key: string, action: string, value: string, line: number): void {
    const record = this.recordFor(key, line);
    if (record === null) return;
    if (action !== 'take-down' && action !== 're-crawl') {
      this.report(line, 'request-unknown-action', `${key}: '${action}' is not an ACAP action (take-down, re-crawl; §2.6); line ignored`);
      this.endCrawlerList();
      return;
    }
    if (record.state === 'purposes' || record.state === 'sub-fields') {
      this.report(line, 'request-in-sub-record', `${key}: a sub-record may not contain action request fields (§2.3); line ignored`);
      return;
    }
    record.state = 'fields';
    // §2.6: the path "locates a single resource relative to the server document root";
    // §3: outside resource path patterns, `*` and `$` are not allowed.
    if (!value.startsWith('/') || value.includes('*') || value.includes('$') || words(value).length !== 1) {
      this.report(line, 'request-invalid-path', `${key}: '${value}' is not a single resource path starting with '/' (§2.6, no * or $); line ignored`);
      return;
    }
    record.requests.push({ action, path: value, line });
  }

  // ---- Permissions and prohibitions (§2.4) --------------------------------------------

  private permission(allow: boolean, key: string, usageText: string, value: string, line: number): void {
    const record = this.recordFor(key, line);
    if (record === null) return;
    let target: AcapField[];
    if (record.state === 'purposes' || record.state === 'sub-fields') {
      target = record.subRecords[record.subRecords.length - 1]!.fields;
      record.state = 'sub-fields';
    } else {
      target = record.fields;
      record.state = 'fields';
    }
    const { head, rest } = firstWord(value);
    const parts = this.permissionUsages(allow, key, usageText, rest, line);
    const resources = this.resourcePatterns(key, head, line);
    if (parts === null || resources === null) return;
    // The field keeps its usages and its resources apart: crossing them (one rule per
    // usage and pattern) is left to AcapPolicy.records, which is bounded by the budget.
    const patternIds = typeof resources === 'string' ? [this.patternId(resources)] : this.resourceSetIds(resources);
    const field: AcapField = { allow, parts, patternIds, line };
    target.push(field);
    this.fields.push(field);
    this.expandedRules += parts.length * patternIds.length;
  }

  /** The pattern ids of `set`, assigned at its first use (ids follow first use, as for single patterns). */
  private resourceSetIds(set: AcapResourceSet): readonly number[] {
    let ids = this.setPatternIds.get(set);
    if (ids === undefined) {
      ids = set.patterns.map((p) => this.patternId(p));
      this.setPatternIds.set(set, ids);
    }
    return ids;
  }

  /** The standard usages (with qualifiers) a permission or prohibition key stands for, or null (reported). */
  private permissionUsages(allow: boolean, key: string, usageText: string, rest: string, line: number): readonly AcapQualifiedPart[] | null {
    if (usageText.startsWith('(') && usageText.endsWith(')') && usageText.length > 2) {
      const name = asciiLower(usageText.slice(1, -1));
      const def = this.localUsages.get(name);
      if (def === undefined) {
        this.report(line, 'undefined-usage', `${key}: ${this.undefinedUsageText(name)}; line ignored`);
        return null;
      }
      if (!allow) {
        // §2.4.2: "An ACAP prohibition may not refer to locally-defined qualified or
        // composite usages". The intent is still plain, and a prohibition needs no
        // qualifiers, so the standard usages are prohibited rather than left open.
        this.report(line, 'local-usage-prohibition', `${key}: a prohibition may not name a locally-defined usage (§2.4.2); read as prohibiting ${def.parts.map((p) => p.usage).join(', ')}`);
        if (rest.length > 0) this.report(line, 'prohibition-qualified', `${key}: prohibition fields take no qualifiers (§2.4.2); '${rest}' ignored`);
        return def.parts.map((p) => ({ usage: p.usage, qualifiers: [] }));
      }
      if (rest.length > 0) {
        // §2.4.1.3: "No explicit qualifiers may be included in a permission field for a locally-defined usage."
        this.report(line, 'local-usage-qualified', `${key}: a permission for a locally-defined usage may not add qualifiers (§2.4.1.3); line ignored`);
        return null;
      }
      return def.parts;
    }
    const usage = toUsage(usageText);
    if (usage === null) {
      this.report(line, 'unknown-usage', `${key}: '${usageText}' is not an ACAP 1.0 usage (§2.5); line ignored`);
      return null;
    }
    if (!allow) {
      if (rest.length > 0) {
        // §2.4.2: a prohibition "may not contain any qualifiers". Qualifiers only ever
        // restrict a permission, so the prohibition itself still stands.
        this.report(line, 'prohibition-qualified', `${key}: prohibition fields take no qualifiers (§2.4.2); '${rest}' ignored, prohibition applied`);
      }
      return [{ usage, qualifiers: [] }];
    }
    if (rest.length === 0) return [{ usage, qualifiers: [] }];
    const parsed = parseQualifiers(rest, usage);
    for (const p of parsed.problems) this.report(line, p.code, `${key}: ${p.message}; line ignored`);
    for (const p of parsed.notes) this.report(line, p.code, `${key}: ${p.message}`);
    return parsed.problems.length > 0 ? null : [{ usage, qualifiers: parsed.qualifiers }];
  }

  /** The pattern (or the resource set) a resource specification stands for (§2.4.3), or null (reported). */
  private resourcePatterns(key: string, spec: string, line: number): string | AcapResourceSet | null {
    if (spec.length === 0 || looksLikeQualifier(spec)) {
      const found = spec.length === 0 ? '' : ` (found the qualifier '${spec}')`;
      this.report(line, 'resource-missing', `${key} has no resource specification${found} (§2.4.3); line ignored`);
      return null;
    }
    if (asciiLower(spec.slice(0, RESOURCE_SET_SCHEME.length)) === RESOURCE_SET_SCHEME) {
      const name = asciiLower(spec.slice(RESOURCE_SET_SCHEME.length));
      const set = this.resourceSets.get(name);
      if (set === undefined) {
        const rejected = this.rejectedSets.get(name);
        const why = rejected === undefined ? 'is not defined' : `has no valid definition (line ${rejected} was ignored)`;
        this.report(line, 'undefined-resource-set', `${key}: resource set '${name}' ${why} (§2.4.4); line ignored`);
        return null;
      }
      return set;
    }
    return this.checkPattern(key, spec, line);
  }

  /** Validates one resource path pattern (§2.4.3, §2.8); returns it (rooted) or null (reported). */
  private checkPattern(key: string, pattern: string, line: number): string | null {
    if (asciiLower(pattern).startsWith('the-acap:')) {
      this.report(line, 'resource-invalid', `${key}: '${pattern}' is not a resource path pattern (§2.4.3: a path or the-acap:resource-set:name); ignored`);
      return null;
    }
    const dollar = pattern.indexOf('$');
    if (dollar >= 0 && dollar !== pattern.length - 1) {
      this.report(line, 'resource-invalid', `${key}: in '${pattern}', '$' may only be the last character (§2.8); ignored`);
      return null;
    }
    if (pattern.startsWith('/') || pattern.startsWith('*')) return pattern;
    if (hasScheme(pattern)) {
      this.report(line, 'resource-invalid', `${key}: '${pattern}' is an absolute URI; resource path patterns are relative to the server document root (§2.4.3); ignored`);
      return null;
    }
    this.report(line, 'resource-unrooted', `${key}: '${pattern}' does not start with '/' or '*'; read as '/${pattern}' (§2.4.3: paths are relative to the document root)`);
    return `/${pattern}`;
  }

  private patternId(pattern: string): number {
    let id = this.patternIds.get(pattern);
    if (id === undefined) {
      id = this.patterns.length;
      this.patterns.push(pattern);
      this.patternIds.set(pattern, id);
    }
    return id;
  }
}
