// AcapPolicy: answers "may this crawler use this URL for this usage?" from the collected ACAP records.
import { asciiLower } from '../groups.js';
import { compilePurposePatterns, compileResourcePatterns, type CompiledPatterns } from './match.js';
import {
  ACAP_USAGES,
  type AcapDiagnostic,
  type AcapLocalUsage,
  type AcapRecord,
  type AcapReference,
  type AcapRequest,
  type AcapResourceSet,
  type AcapRule,
  type AcapUsage,
  type AcapVerdict,
  type ConventionalPolicy,
} from './model.js';
import { resolveConflict } from './scope.js';
import { decidingUsages, isAcapUsage } from './usages.js';

/**
 * What the collector hands over to the policy; see {@link AcapCollector.finish}.
 * @example
 * const parts: AcapPolicyParts = { version: '1.0', ignoreConventionalRecords: false, diagnostics: [], records: [], resourceSets: new Map(), localUsages: new Map(), patterns: [] };
 */
export interface AcapPolicyParts {
  readonly version: string | null;
  readonly ignoreConventionalRecords: boolean;
  readonly diagnostics: readonly AcapDiagnostic[];
  readonly records: readonly AcapRecord[];
  readonly resourceSets: ReadonlyMap<string, AcapResourceSet>;
  readonly localUsages: ReadonlyMap<string, AcapLocalUsage>;
  /** Distinct resource path patterns; AcapRule.patternId indexes this list. */
  readonly patterns: readonly string[];
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

/** The records that concern one crawler, rules grouped by usage; built once per crawler. */
interface CrawlerView {
  /** Records naming the crawler, then records addressed to any crawler (§2.2). */
  readonly tiers: readonly (readonly AcapRecord[])[];
  /** General rules of each tier, by usage. */
  readonly general: readonly ReadonlyMap<AcapUsage, readonly AcapRule[]>[];
}

const EMPTY_RULES: readonly AcapRule[] = [];
/** Crawler views kept per policy; the oldest is dropped beyond this (callers may pass any names). */
const VIEW_CACHE_SIZE = 64;
const DEFAULT_ALLOW: AcapVerdict = Object.freeze({ allowed: true, line: 0, qualifiers: Object.freeze([]), source: 'default' });

function byUsage(rules: Iterable<AcapRule>): Map<AcapUsage, AcapRule[]> {
  const map = new Map<AcapUsage, AcapRule[]>();
  for (const r of rules) {
    const list = map.get(r.usage);
    if (list) list.push(r);
    else map.set(r.usage, [r]);
  }
  return map;
}

function typeName(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

function requireString(name: string, value: unknown): asserts value is string {
  if (typeof value !== 'string') throw new TypeError(`${name} must be a string, got ${typeName(value)}`);
}

/**
 * The ACAP 1.0 permissions of one robots.txt file (`Robots.parse(body).acap`).
 * Compiled once: resource path patterns go into one Wasm rule table, and each check is
 * one Wasm call plus conflict resolution over the few rules that match.
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
  /** Problems found while reading, ordered by line (README `section:acap` lists the codes). */
  readonly diagnostics: readonly AcapDiagnostic[];
  /** ACAP records in file order, definitions already expanded into their rules. */
  readonly records: readonly AcapRecord[];
  /** Resource set definitions by lowercased name. */
  readonly resourceSets: ReadonlyMap<string, AcapResourceSet>;
  /** Qualified and composite usage definitions by lowercased name. */
  readonly localUsages: ReadonlyMap<string, AcapLocalUsage>;

  private readonly rep: ConventionalPolicy;
  private readonly resources: CompiledPatterns;
  private readonly resourceHits: Uint8Array;
  private readonly purposes: CompiledPatterns;
  private readonly purposeHits: Uint8Array;
  /** For each sub-record (by identity), the ids of its purpose patterns. */
  private readonly purposeIds = new Map<object, number[]>();
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
    this.records = parts.records;
    this.resourceSets = parts.resourceSets;
    this.localUsages = parts.localUsages;
    this.rep = rep;
    this.resources = compileResourcePatterns(parts.patterns);
    this.resourceHits = new Uint8Array(this.resources.count);
    const purposeTexts: string[] = [];
    for (const record of parts.records) {
      for (const sub of record.subRecords) {
        this.purposeIds.set(sub, sub.purposes.map((p) => purposeTexts.push(p) - 1));
      }
    }
    this.purposes = compilePurposePatterns(purposeTexts);
    this.purposeHits = new Uint8Array(this.purposes.count);
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
    this.resources.matches(url, this.resourceHits);
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
    this.resources.matches(url, this.resourceHits);
    const out = {} as Record<AcapUsage, AcapVerdict>;
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

  private view(crawler: string): CrawlerView {
    const name = asciiLower(crawler);
    let view = this.views.get(name);
    if (view === undefined) {
      // §2.3.1: names are "not case-sensitive"; like a user-agent line, the whole name is compared.
      const named = this.records.filter((r) => !r.anyCrawler && r.crawlers.includes(name));
      const any = this.records.filter((r) => r.anyCrawler);
      const tiers = [named, any];
      view = { tiers, general: tiers.map((t) => byUsage(t.flatMap((r) => r.rules))) };
      if (this.views.size >= VIEW_CACHE_SIZE) this.views.delete(this.views.keys().next().value!);
      this.views.set(name, view);
    }
    return view;
  }

  /** Per tier, the rules of the sub-records whose purposes match `options.purpose` (null without a purpose). */
  private purposeTiers(crawler: string, options: AcapCheckOptions): Map<AcapUsage, AcapRule[]>[] | null {
    if (options === null || typeof options !== 'object') throw new TypeError(`options must be an object, got ${typeName(options)}`);
    const purpose = options.purpose;
    if (purpose === undefined) return null;
    requireString('options.purpose', purpose);
    this.purposes.matches(purpose, this.purposeHits);
    return this.view(crawler).tiers.map((tier) => {
      const rules: AcapRule[] = [];
      for (const record of tier) {
        for (const sub of record.subRecords) {
          if (this.purposeIds.get(sub)!.some((id) => this.purposeHits[id] === 1)) rules.push(...sub.rules);
        }
      }
      return byUsage(rules);
    });
  }

  /** Steps 1–4 of the class comment; `resourceHits` already holds the URL's matches. */
  private decide(url: string, crawler: string, usage: AcapUsage, purposeTiers: Map<AcapUsage, AcapRule[]>[] | null): AcapVerdict {
    const view = this.view(crawler);
    const hits = this.resourceHits;
    for (let t = 0; t < view.tiers.length; t++) {
      const sources = purposeTiers ? [purposeTiers[t]!, view.general[t]!] : [view.general[t]!];
      for (const source of sources) {
        for (const u of decidingUsages(usage)) {
          const matching = (source.get(u) ?? EMPTY_RULES).filter((r) => hits[r.patternId] === 1);
          if (matching.length > 0) return { ...resolveConflict(matching), source: 'acap' };
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
}
