// AcapPolicy: answers "may this crawler use this URL for this usage?" from the collected ACAP records.
import { asciiLower } from '../parse/groups.js';
import { compilePurposePatterns, compileResourcePatterns, type CompiledPatterns } from './match.js';
import {
  ACAP_USAGES,
  type AcapDiagnostic,
  type AcapField,
  type AcapFieldRecord,
  type AcapFieldSubRecord,
  type AcapLocalUsage,
  type AcapQualifier,
  type AcapRecord,
  type AcapReference,
  type AcapRequest,
  type AcapResourceSet,
  type AcapRule,
  type AcapUsage,
  type AcapVerdict,
  type ConventionalPolicy,
} from './model.js';
import { narrowestMask, type Resolution } from './scope.js';
import { decidingUsages, isAcapUsage } from './usages.js';

/**
 * What the collector hands over to the policy; see {@link AcapCollector.finish}.
 * @example
 * const parts: AcapPolicyParts = { version: '1.0', ignoreConventionalRecords: false, diagnostics: [], records: [], resourceSets: new Map(), localUsages: new Map(), patterns: [], expandedRuleCount: 0, maxExpandedRules: 100_000, overBudgetLine: 0 };
 */
export interface AcapPolicyParts {
  readonly version: string | null;
  readonly ignoreConventionalRecords: boolean;
  readonly diagnostics: readonly AcapDiagnostic[];
  /** Records with their fields as collected (usages and resources not crossed). */
  readonly records: readonly AcapFieldRecord[];
  readonly resourceSets: ReadonlyMap<string, AcapResourceSet>;
  readonly localUsages: ReadonlyMap<string, AcapLocalUsage>;
  /** Distinct resource path patterns; AcapField.patternIds and AcapRule.patternId index this list. */
  readonly patterns: readonly string[];
  /** Rules the fields stand for: the sum over fields of usages × patterns. */
  readonly expandedRuleCount: number;
  /** The ACAP expansion budget the file was read with. */
  readonly maxExpandedRules: number;
  /** Line of the field that took the count past the budget; 0 when the file fits. */
  readonly overBudgetLine: number;
}

/**
 * Options of {@link AcapPolicy.check} and {@link AcapPolicy.permissions}.
 * @example
 * acap.check('/news/a', 'searchbot', 'index', { purpose: 'news' });
 */
export interface AcapCheckOptions {
  /**
   * The usage purpose the crawler serves (a name or URI, §2.3.3). Sub-records whose
   * usage purpose patterns match it apply; without it, only fields outside sub-records do.
   */
  readonly purpose?: string;
}

/**
 * One usage of one field with all of the field's patterns: the rules `usage` × each of
 * `patternIds`, kept as one entry. Entries of fields naming the same resource set share
 * one `patternIds` array, which lets a check look at each set once.
 */
interface FieldRule {
  readonly allow: boolean;
  readonly usage: AcapUsage;
  readonly qualifiers: readonly AcapQualifier[];
  readonly patternIds: readonly number[];
  readonly line: number;
}

/** The records that concern one crawler, field rules grouped by usage; built once per crawler. */
interface CrawlerView {
  /** Records naming the crawler, then records addressed to any crawler (§2.2). */
  readonly tiers: readonly (readonly AcapFieldRecord[])[];
  /** General field rules of each tier, by usage. */
  readonly general: readonly ReadonlyMap<AcapUsage, readonly FieldRule[]>[];
}

/** The Wasm pattern tables, compiled at the first check (parsing compiles nothing). */
interface Compiled {
  readonly resources: CompiledPatterns;
  readonly resourceHits: Uint8Array;
  readonly purposes: CompiledPatterns;
  readonly purposeHits: Uint8Array;
  /** For each sub-record (by identity), the ids of its purpose patterns. */
  readonly purposeIds: Map<AcapFieldSubRecord, number[]>;
}

const EMPTY_RULES: readonly FieldRule[] = [];
/** Crawler views kept per policy; the oldest is dropped beyond this (callers may pass any names). */
const VIEW_CACHE_SIZE = 64;
const DEFAULT_ALLOW: AcapVerdict = Object.freeze({ allowed: true, line: 0, qualifiers: Object.freeze([]), source: 'default' });

/** The fields' rules grouped by usage, in field order (the order expansion lists them in). */
function byUsage(fields: Iterable<AcapField>): Map<AcapUsage, FieldRule[]> {
  const map = new Map<AcapUsage, FieldRule[]>();
  for (const f of fields) {
    for (const part of f.parts) {
      const rule: FieldRule = { allow: f.allow, usage: part.usage, qualifiers: part.qualifiers, patternIds: f.patternIds, line: f.line };
      const list = map.get(part.usage);
      if (list) list.push(rule);
      else map.set(part.usage, [rule]);
    }
  }
  return map;
}

/** The rules a field stands for: one per usage and pattern, usage-major (§2.4.1.3, §2.7.2). */
function expandField(field: AcapField, patterns: readonly string[], out: AcapRule[]): void {
  for (const part of field.parts) {
    for (const id of field.patternIds) {
      out.push({ allow: field.allow, usage: part.usage, pattern: patterns[id]!, patternId: id, qualifiers: part.qualifiers, line: field.line });
    }
  }
}

function typeName(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

function requireString(name: string, value: unknown): asserts value is string {
  if (typeof value !== 'string') throw new TypeError(`${name} must be a string, got ${typeName(value)}`);
}

/**
 * The ACAP 1.0 permissions of one robots.txt file (`Robots.parse(body).acap`).
 * Parsing only collects fields; the resource path patterns go into one Wasm rule table at
 * the first check, and each check is one Wasm call plus conflict resolution over the
 * fields that match.
 *
 * A field naming a resource set and a composite usage stands for usages × patterns rules
 * (§2.4.1.3, §2.7.2), but is never crossed out for a check: each field is kept once with
 * its usages and a reference to the set's patterns, so a check costs time linear in the
 * file (fields + distinct patterns), not in the rules the file stands for. Only
 * {@link AcapPolicy.records} lists those rules, built on first access.
 *
 * How a usage is decided for a URL and crawler:
 * 1. Tiers, first tier with a matching rule wins (§2.2: a record naming the crawler
 *    "overrides" the any-crawler record for the usages and resources it covers):
 *    records naming the crawler, then records for `*`. Within a tier, when a purpose
 *    is given, sub-records for that purpose come before the record's general fields.
 * 2. Within a tier, rules for the usage itself, else for `present` (a `present-*` usage),
 *    else for `other` (§2.5.6).
 * 3. Among the matching rules of that usage, the narrowest scope wins (§2.4.5, see
 *    {@link resolveConflict}); an undecidable conflict prohibits.
 * 4. No ACAP rule: `crawl` falls back to the conventional records unless
 *    `ACAP-ignore-conventional-records` is present (§2.9); everything else is allowed.
 *
 * ACAP expansion budget: when the file stands for more rules than `maxExpandedRules`
 * (`ParseOptions.acapMaxExpandedRules`, default 100,000), the diagnostics hold an
 * `expansion-budget-exceeded` entry and every check, for every usage (`crawl` included),
 * crawler and URL, answers `{ allowed: false, line: <that field's line>, qualifiers: [],
 * source: 'acap' }`. §2.4.5: "In the event that a crawler is unable to determine which
 * ACAP permission or prohibition has the narrowest scope – regardless of whether or not
 * such determination is theoretically possible – the usage is prohibited". The file only
 * restricts its own site's content, so the prohibition harms no one else.
 * @example
 * const acap = Robots.parse('ACAP-crawler: *\nACAP-disallow-index: /drafts/\n').acap!;
 * acap.check('https://example.com/drafts/a', 'searchbot', 'index');
 * // { allowed: false, line: 2, qualifiers: [], source: 'acap' }
 */
export class AcapPolicy {
  /** Version from the `##ACAP version=…` comment (§2.9.3), or null. */
  readonly version: string | null;
  /** `ACAP-ignore-conventional-records` is present (§2.9.1). */
  readonly ignoreConventionalRecords: boolean;
  /** Problems found while reading, ordered by line (docs/ACAP.md, "Diagnostics", lists the codes). */
  readonly diagnostics: readonly AcapDiagnostic[];
  /** Resource set definitions by lowercased name. */
  readonly resourceSets: ReadonlyMap<string, AcapResourceSet>;
  /** Qualified and composite usage definitions by lowercased name. */
  readonly localUsages: ReadonlyMap<string, AcapLocalUsage>;
  /**
   * Rules the file's permission and prohibition fields stand for (the sum of usages ×
   * resource path patterns), counted while parsing without building them.
   */
  readonly expandedRuleCount: number;
  /** The ACAP expansion budget this file was read with (`ParseOptions.acapMaxExpandedRules`). */
  readonly maxExpandedRules: number;
  /** False when `expandedRuleCount` exceeds `maxExpandedRules`: every check then prohibits. */
  readonly withinBudget: boolean;

  private readonly rep: ConventionalPolicy;
  private readonly fieldRecords: readonly AcapFieldRecord[];
  private readonly patterns: readonly string[];
  private readonly overBudgetLine: number;
  private readonly overBudget: AcapVerdict | null;
  private compiled: Compiled | null = null;
  private listed: readonly AcapRecord[] | null = null;
  private readonly views = new Map<string, CrawlerView>();

  /**
   * Built by {@link AcapCollector.finish}; not meant to be called directly.
   * @example
   * const policy = new AcapCollector().finish(robots); // null when the file has no ACAP field
   */
  constructor(parts: AcapPolicyParts, rep: ConventionalPolicy) {
    this.version = parts.version;
    this.ignoreConventionalRecords = parts.ignoreConventionalRecords;
    this.diagnostics = parts.diagnostics;
    this.resourceSets = parts.resourceSets;
    this.localUsages = parts.localUsages;
    this.expandedRuleCount = parts.expandedRuleCount;
    this.maxExpandedRules = parts.maxExpandedRules;
    this.overBudgetLine = parts.overBudgetLine;
    this.withinBudget = parts.overBudgetLine === 0;
    this.overBudget = this.withinBudget ? null : Object.freeze({ allowed: false, line: parts.overBudgetLine, qualifiers: Object.freeze([]), source: 'acap' });
    this.fieldRecords = parts.records;
    this.patterns = parts.patterns;
    this.rep = rep;
  }

  /**
   * ACAP records in file order, definitions expanded into their rules (one per usage and
   * resource path pattern), built on first access. Past the expansion budget, the rules
   * of the field that crossed it and of every later field are not listed, so the list
   * never holds more than `maxExpandedRules` rules.
   * @example
   * // ACAP-resource-set: docs /a/ /b/
   * // ACAP-crawler: *
   * // ACAP-allow-index: the-acap:resource-set:docs
   * acap.records[0].rules.map((r) => r.pattern); // ['/a/', '/b/']
   */
  get records(): readonly AcapRecord[] {
    if (this.listed === null) {
      const cut = this.overBudgetLine;
      const expand = (fields: readonly AcapField[]): AcapRule[] => {
        const rules: AcapRule[] = [];
        for (const f of fields) if (cut === 0 || f.line < cut) expandField(f, this.patterns, rules);
        return rules;
      };
      this.listed = this.fieldRecords.map((r) => ({
        line: r.line,
        anyCrawler: r.anyCrawler,
        crawlers: r.crawlers,
        reference: r.reference,
        rules: expand(r.fields),
        subRecords: r.subRecords.map((sub) => ({ line: sub.line, purposes: sub.purposes, rules: expand(sub.fields) })),
        requests: r.requests,
      }));
    }
    return this.listed;
  }

  /**
   * Whether `crawler` may use `url` for `usage`, with the deciding line, the qualifiers
   * that restrict an allowed usage, and where the verdict came from.
   * @param url absolute (`https://h/p?q`) or path-only (`/p?q`); path+query is matched.
   * @param crawler the crawler's name (product token), compared case-insensitively (§2.3.1).
   * @param usage one of {@link ACAP_USAGES}.
   * @throws TypeError when `url` or `crawler` is not a string; RangeError for an unknown usage.
   * @example
   * // ACAP-crawler: *
   * // ACAP-allow-present-snippet: /news/ max-length=250-chars
   * acap.check('/news/today', 'searchbot', 'present-snippet');
   * // { allowed: true, line: 2, source: 'acap',
   * //   qualifiers: [{ type: 'max-length', text: 'max-length=250-chars', count: 250, unit: 'chars' }] }
   */
  check(url: string, crawler: string, usage: AcapUsage, options: AcapCheckOptions = {}): AcapVerdict {
    requireString('url', url);
    requireString('crawler', crawler);
    if (!isAcapUsage(usage)) {
      throw new RangeError(`usage must be one of ${ACAP_USAGES.join(', ')}; got ${typeof usage === 'string' ? `'${usage}'` : typeName(usage)}`);
    }
    const purposeTiers = this.purposeTiers(crawler, options);
    if (this.overBudget !== null) return this.overBudget;
    const compiled = this.compile();
    compiled.resources.matches(url, compiled.resourceHits);
    return this.decide(url, crawler, usage, purposeTiers);
  }

  /**
   * The verdict for every ACAP usage at once (one pattern match for all of them).
   * @example
   * const all = acap.permissions('/public/a.html', 'searchbot');
   * all.crawl.allowed; all['present-snippet'].qualifiers;
   */
  permissions(url: string, crawler: string, options: AcapCheckOptions = {}): Record<AcapUsage, AcapVerdict> {
    requireString('url', url);
    requireString('crawler', crawler);
    const purposeTiers = this.purposeTiers(crawler, options);
    const out = {} as Record<AcapUsage, AcapVerdict>;
    if (this.overBudget !== null) {
      for (const usage of ACAP_USAGES) out[usage] = this.overBudget;
      return out;
    }
    const compiled = this.compile();
    compiled.resources.matches(url, compiled.resourceHits);
    for (const usage of ACAP_USAGES) out[usage] = this.decide(url, crawler, usage, purposeTiers);
    return out;
  }

  /**
   * The `ACAP-permissions-reference` values that apply to `crawler` (§2.3.2): those of
   * records naming it, then those of `*` records. They are not fetched.
   * @example
   * // ACAP-crawler: searchbot
   * // ACAP-permissions-reference: /searchbot.txt
   * acap.references('SearchBot'); // [{ value: '/searchbot.txt', line: 2 }]
   */
  references(crawler: string): AcapReference[] {
    requireString('crawler', crawler);
    const out: AcapReference[] = [];
    for (const tier of this.view(crawler).tiers) for (const r of tier) if (r.reference) out.push(r.reference);
    return out;
  }

  /**
   * `ACAP-request-take-down` paths addressed to `crawler` or to any crawler (§2.6.1).
   * @example
   * // ACAP-crawler: *
   * // ACAP-request-take-down: /news/bad-story.htm
   * acap.takeDownRequests('searchbot'); // [{ action: 'take-down', path: '/news/bad-story.htm', line: 2 }]
   */
  takeDownRequests(crawler: string): AcapRequest[] {
    return this.requests(crawler, 'take-down');
  }

  /**
   * `ACAP-request-re-crawl` paths addressed to `crawler` or to any crawler (§2.6.2).
   * @example
   * acap.reCrawlRequests('searchbot'); // [{ action: 're-crawl', path: '/news/fixed.htm', line: 3 }]
   */
  reCrawlRequests(crawler: string): AcapRequest[] {
    return this.requests(crawler, 're-crawl');
  }

  private requests(crawler: string, action: AcapRequest['action']): AcapRequest[] {
    requireString('crawler', crawler);
    const out: AcapRequest[] = [];
    for (const tier of this.view(crawler).tiers) for (const r of tier) for (const q of r.requests) if (q.action === action) out.push(q);
    return out;
  }

  private compile(): Compiled {
    if (this.compiled === null) {
      const resources = compileResourcePatterns(this.patterns);
      const purposeTexts: string[] = [];
      const purposeIds = new Map<AcapFieldSubRecord, number[]>();
      for (const record of this.fieldRecords) {
        for (const sub of record.subRecords) purposeIds.set(sub, sub.purposes.map((p) => purposeTexts.push(p) - 1));
      }
      const purposes = compilePurposePatterns(purposeTexts);
      this.compiled = {
        resources,
        resourceHits: new Uint8Array(resources.count),
        purposes,
        purposeHits: new Uint8Array(purposes.count),
        purposeIds,
      };
    }
    return this.compiled;
  }

  private view(crawler: string): CrawlerView {
    const name = asciiLower(crawler);
    let view = this.views.get(name);
    if (view === undefined) {
      // §2.3.1: names are "not case-sensitive"; like a user-agent line, the whole name is compared.
      const named = this.fieldRecords.filter((r) => !r.anyCrawler && r.crawlers.includes(name));
      const any = this.fieldRecords.filter((r) => r.anyCrawler);
      const tiers = [named, any];
      view = { tiers, general: tiers.map((t) => byUsage(t.flatMap((r) => r.fields))) };
      if (this.views.size >= VIEW_CACHE_SIZE) this.views.delete(this.views.keys().next().value!);
      this.views.set(name, view);
    }
    return view;
  }

  /** Per tier, the field rules of the sub-records whose purposes match `options.purpose` (null without a purpose). */
  private purposeTiers(crawler: string, options: AcapCheckOptions): Map<AcapUsage, FieldRule[]>[] | null {
    if (options === null || typeof options !== 'object') throw new TypeError(`options must be an object, got ${typeName(options)}`);
    const purpose = options.purpose;
    if (purpose === undefined) return null;
    requireString('options.purpose', purpose);
    if (this.overBudget !== null) return null;
    const compiled = this.compile();
    compiled.purposes.matches(purpose, compiled.purposeHits);
    return this.view(crawler).tiers.map((tier) => {
      const fields: AcapField[] = [];
      for (const record of tier) {
        for (const sub of record.subRecords) {
          if (compiled.purposeIds.get(sub)!.some((id) => compiled.purposeHits[id] === 1)) fields.push(...sub.fields);
        }
      }
      return byUsage(fields);
    });
  }

  /** Steps 1–4 of the class comment; the resource hits already hold the URL's matches. */
  private decide(url: string, crawler: string, usage: AcapUsage, purposeTiers: Map<AcapUsage, FieldRule[]>[] | null): AcapVerdict {
    const view = this.view(crawler);
    for (let t = 0; t < view.tiers.length; t++) {
      const sources = purposeTiers ? [purposeTiers[t]!, view.general[t]!] : [view.general[t]!];
      for (const source of sources) {
        for (const u of decidingUsages(usage)) {
          const resolution = this.resolve(source.get(u) ?? EMPTY_RULES);
          if (resolution !== null) return { ...resolution, source: 'acap' };
        }
      }
    }
    if (usage === 'crawl' && !this.ignoreConventionalRecords) {
      // §2.9.2: conventional records are interpreted as normal, but an ACAP field that
      // decides wins ("the field within the conventional record is to be ignored").
      const rep = this.rep.explain(url, crawler);
      if (rep.line > 0 || !rep.allowed) return { allowed: rep.allowed, line: rep.line, qualifiers: [], source: 'conventional' };
    }
    return DEFAULT_ALLOW;
  }

  /**
   * {@link resolveConflict} over the rules `fieldRules` stand for that match the URL,
   * without listing them: null when none matches.
   *
   * Why it gives the same verdict: the expanded candidates are, in order, each field
   * rule with each of its matching patterns. Whether a candidate is narrowest depends on
   * its pattern alone (compared with the set of matching patterns), and its verdict,
   * line and qualifiers on its field rule alone. So the narrowest candidates are the
   * field rules with at least one narrowest matching pattern, and a field rule listed
   * once or once per such pattern gives the same earliest line and, qualifiers being
   * deduplicated by text in candidate order, the same qualifier list.
   *
   * Cost: each distinct `patternIds` array (a resource set, or one pattern) is scanned
   * once per call, so O(field rules + distinct patterns), not usages × patterns.
   */
  private resolve(fieldRules: readonly FieldRule[]): Resolution | null {
    if (fieldRules.length === 0) return null;
    const hits = this.compiled!.resourceHits;
    const hitsOf = new Map<readonly number[], number[]>();
    const matchingIds: number[] = [];
    const seen = new Set<number>();
    const matching: FieldRule[] = [];
    for (const rule of fieldRules) {
      let found = hitsOf.get(rule.patternIds);
      if (found === undefined) {
        found = [];
        for (const id of rule.patternIds) {
          if (hits[id] !== 1) continue;
          found.push(id);
          if (!seen.has(id)) {
            seen.add(id);
            matchingIds.push(id);
          }
        }
        hitsOf.set(rule.patternIds, found);
      }
      if (found.length > 0) matching.push(rule);
    }
    if (matching.length === 0) return null;
    const mask = narrowestMask(matchingIds.map((id) => this.patterns[id]!));
    const narrowIds = new Set<number>();
    for (let i = 0; i < matchingIds.length; i++) if (mask[i]) narrowIds.add(matchingIds[i]!);
    const narrowOf = new Map<readonly number[], boolean>();
    const winners = matching.filter((rule) => {
      let narrow = narrowOf.get(rule.patternIds);
      if (narrow === undefined) {
        narrow = hitsOf.get(rule.patternIds)!.some((id) => narrowIds.has(id));
        narrowOf.set(rule.patternIds, narrow);
      }
      return narrow;
    });
    // As resolveConflict: all narrowest agree on allow → allowed, earliest line, the
    // qualifiers of all of them; otherwise prohibited at the earliest prohibition.
    let line = Infinity;
    if (winners.every((r) => r.allow)) {
      const qualifiers: AcapQualifier[] = [];
      const texts = new Set<string>();
      for (const r of winners) {
        if (r.line < line) line = r.line;
        for (const q of r.qualifiers) {
          if (!texts.has(q.text)) qualifiers.push(q);
          texts.add(q.text);
        }
      }
      return { allowed: true, line, qualifiers };
    }
    for (const r of winners) if (!r.allow && r.line < line) line = r.line;
    return { allowed: false, line, qualifiers: [] };
  }
}
