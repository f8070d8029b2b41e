// The linter as a handler of the lexer: per-line checks as lines arrive, group checks once the groups are known.
import { AcapCollector } from '../acap/index.js';
import { GroupCollector, asciiLower, bytesToText, readAgentValue, type Group } from '../parse/groups.js';
import { escapePatternGoogle, normalizePattern } from '../rules/normalize.js';
import type { OffsetLineHandler, Profile } from '../parse/lexer.js';
import { isValidProductToken } from '../parse/product-token.js';
import { acapSeverity } from './codes.js';
import type { LintDiagnostic } from './index.js';

/** What the lexer made of one line, to compare the two profiles' readings. */
export type LineKind = 'user-agent' | 'allow' | 'disallow' | 'sitemap' | 'other' | 'invalid';

const KEY_NAMES: Readonly<Record<LineKind, string>> = {
  'user-agent': 'User-agent', allow: 'Allow', disallow: 'Disallow', sitemap: 'Sitemap', other: '', invalid: '',
};

/** Records the kind of every line (index = line number), for the profile the lint is not run in. */
export class KindSink implements OffsetLineHandler {
  readonly kinds: (LineKind | undefined)[] = [];
  userAgent(_s: number, _e: number, line: number): void { this.kinds[line] = 'user-agent'; }
  allow(_s: number, _e: number, line: number): void { this.kinds[line] = 'allow'; }
  disallow(_s: number, _e: number, line: number): void { this.kinds[line] = 'disallow'; }
  sitemap(_s: number, _e: number, line: number): void { this.kinds[line] = 'sitemap'; }
  other(_ks: number, _ke: number, _vs: number, _ve: number, line: number): void { this.kinds[line] = 'other'; }
  comment(): void {}
  invalid(_s: number, _e: number, line: number): void { this.kinds[line] = 'invalid'; }
}

/**
 * Keys other than RFC 9309's that are read by common crawlers (Crawl-delay: Bing, Yandex;
 * Host, Clean-param: Yandex; Request-rate, Visit-time: older extensions; Content-Signal),
 * and so are not worth an `unknown-key` note. ACAP keys are ACAP's to judge.
 */
const KNOWN_OTHER_KEYS = new Set(['crawl-delay', 'host', 'clean-param', 'request-rate', 'visit-time', 'content-signal']);

/** Host, host:port, or http(s)://host[:port] with an optional final `/` (Yandex's Host directive). */
const HOST_FORM = /^(?:https?:\/\/)?(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?\/?$/i;

/** A plain non-negative decimal, the only Crawl-delay form Robots reads (`firstCrawlDelay`). */
const CRAWL_DELAY_FORM = /^\d+(\.\d+)?$/;

function isHexDigit(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66);
}

/** RFC 3986 never allows these in a URI: controls, space, DEL, `"<>\^`{|}` (normalize.ts encodes them). */
function isOutsideUri(c: number): boolean {
  return c <= 0x20 || c === 0x7f || c === 0x22 || c === 0x3c || c === 0x3e || c === 0x5c || c === 0x5e ||
    c === 0x60 || c === 0x7b || c === 0x7c || c === 0x7d;
}

/** What a pattern not starting with `/` or `*` was probably meant to be: a full URL's path, else the pattern rooted. */
function suggestRoot(text: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    try {
      const url = new URL(text);
      return `patterns are paths: write "${url.pathname}${url.search}"`;
    } catch {
      return 'patterns are paths, not URLs';
    }
  }
  return `did you mean "/${text}"?`;
}

interface AgentMention {
  readonly token: string;
  readonly line: number;
  readonly group: number;
}

/**
 * A GroupCollector (so groups are exactly what Robots.parse builds) that also records each
 * line's kind and checks values as they come. `lineStarts` turns offsets into columns.
 */
export class LintSink extends GroupCollector {
  readonly diagnostics: LintDiagnostic[] = [];
  readonly kinds: (LineKind | undefined)[] = [];
  /** Key text of `other` lines, by line. */
  readonly keys: string[] = [];
  private readonly acap = new AcapCollector();
  private readonly mentions: AgentMention[] = [];
  private firstHostLine = 0;

  constructor(body: Uint8Array, private readonly lintProfile: Profile, private readonly lineStarts: readonly number[]) {
    super(body, lintProfile);
  }

  private column(offset: number, line: number): number {
    return offset - (this.lineStarts[line] ?? 0) + 1;
  }

  private report(line: number, column: number | undefined, severity: LintDiagnostic['severity'], code: LintDiagnostic['code'], message: string): void {
    this.diagnostics.push(column === undefined ? { line, severity, code, message } : { line, column, severity, code, message });
  }

  override userAgent(start: number, end: number, line: number): void {
    super.userAgent(start, end, line);
    this.kinds[line] = 'user-agent';
    const value = this.view(start, end);
    const { global, token } = readAgentValue(value, this.lintProfile);
    const text = bytesToText(value);
    if (global) {
      this.mentions.push({ token: '*', line, group: this.groups.length - 1 });
    } else if (token === '') {
      this.report(line, this.column(start, line), 'warning', 'user-agent-empty', `User-agent ${JSON.stringify(text)} names no product token (letters, '_' and '-', RFC 9309 §2.2.1): the group applies to no crawler`);
    } else {
      if (!isValidProductToken(text)) {
        this.report(line, this.column(start, line), 'warning', 'user-agent-not-token', `User-agent ${JSON.stringify(text)} is not a product token (RFC 9309 §2.2.1): it is read as '${token}'`);
      }
      this.mentions.push({ token, line, group: this.groups.length - 1 });
    }
  }

  override allow(start: number, end: number, line: number): void {
    this.checkRule(true, start, end, line);
    super.allow(start, end, line);
  }

  override disallow(start: number, end: number, line: number): void {
    this.checkRule(false, start, end, line);
    super.disallow(start, end, line);
  }

  private checkRule(allow: boolean, start: number, end: number, line: number): void {
    this.kinds[line] = allow ? 'allow' : 'disallow';
    const key = allow ? 'Allow' : 'Disallow';
    if (this.groups.length === 0) {
      this.report(line, undefined, 'error', 'rule-before-user-agent', `${key} before any User-agent line applies to no crawler and is ignored (RFC 9309 §2.2.2)`);
    }
    if (end === start) return;
    const body = this.body;
    const pattern = this.view(start, end);
    const text = bytesToText(pattern);
    if (body[start] !== 0x2f && body[start] !== 0x2a) {
      this.report(line, this.column(start, line), 'warning', 'pattern-not-rooted', `${key} pattern ${JSON.stringify(text)} does not start with '/' or '*': it matches no URL path (${suggestRoot(text)})`);
    }
    let nonAscii = -1;
    let outside = -1;
    let badPercent = -1;
    let dollar = -1;
    for (let i = start; i < end; i++) {
      const c = body[i]!;
      if (c >= 0x80) {
        if (nonAscii < 0) nonAscii = i;
      } else if (isOutsideUri(c)) {
        if (outside < 0) outside = i;
      } else if (c === 0x25) {
        if (badPercent < 0 && !(i + 2 < end && isHexDigit(body[i + 1]!) && isHexDigit(body[i + 2]!))) badPercent = i;
      } else if (c === 0x24 && i !== end - 1) {
        if (dollar < 0) dollar = i;
      }
    }
    if (nonAscii >= 0) {
      this.report(line, this.column(nonAscii, line), 'warning', 'pattern-non-ascii', `${key} pattern has unencoded non-ASCII bytes: it is matched as ${JSON.stringify(bytesToText(escapePatternGoogle(pattern)))}; write it so (RFC 9309 §2.2.2)`);
    }
    if (outside >= 0) {
      const c = body[outside]!;
      this.report(line, this.column(outside, line), 'warning', 'pattern-invalid-octet', `${key} pattern holds ${c === 0x20 ? 'a space' : c < 0x20 || c === 0x7f ? `the control byte 0x${c.toString(16).padStart(2, '0')}` : `'${String.fromCharCode(c)}'`}, which RFC 3986 does not allow in a URI: write it as %${c.toString(16).toUpperCase().padStart(2, '0')}`);
    }
    if (badPercent >= 0) {
      this.report(line, this.column(badPercent, line), 'warning', 'pattern-bad-percent', `${key} pattern has a '%' not followed by two hex digits: ${this.lintProfile === 'rfc' ? "it is matched as a literal '%' (%25)" : 'it is compared as written'}`);
    }
    if (dollar >= 0) {
      this.report(line, this.column(dollar, line), 'warning', 'dollar-not-at-end', `${key} pattern has a '$' before its end: only a final '$' anchors the end (RFC 9309 §2.2.3), this one matches a literal '$'`);
    }
  }

  override sitemap(start: number, end: number, line = 0): void {
    super.sitemap(start, end);
    this.kinds[line] = 'sitemap';
    const text = bytesToText(this.view(start, end));
    let ok = false;
    try {
      const url = new URL(text);
      ok = (url.protocol === 'http:' || url.protocol === 'https:') && /^https?:\/\//i.test(text);
    } catch {
      ok = false;
    }
    if (!ok) {
      this.report(line, this.column(start, line), 'warning', 'sitemap-not-absolute', `Sitemap ${JSON.stringify(text)} is not an absolute http(s) URL: crawlers cannot fetch it (sitemaps.org asks for a full URL)`);
    }
  }

  override other(keyStart: number, keyEnd: number, valueStart: number, valueEnd: number, line: number): void {
    super.other(keyStart, keyEnd, valueStart, valueEnd, line);
    this.kinds[line] = 'other';
    const key = bytesToText(this.view(keyStart, keyEnd));
    this.keys[line] = key;
    this.acap.other(this.view(keyStart, keyEnd), this.view(valueStart, valueEnd), line);
    const value = bytesToText(this.view(valueStart, valueEnd));
    if (asciiLower(key) === 'host') {
      if (!HOST_FORM.test(value)) {
        this.report(line, this.column(valueStart, line), 'warning', 'host-invalid', `Host ${JSON.stringify(value)} is not a host name, host:port or http(s)://host[:port] (the only forms Yandex reads)`);
      }
      if (this.firstHostLine > 0) {
        this.report(line, undefined, 'info', 'host-repeated', `another Host line (the first is at line ${this.firstHostLine}): readers of Host use the first`);
      } else {
        this.firstHostLine = line;
      }
    }
  }

  override comment(start: number, end: number, line: number): void {
    this.acap.comment(this.view(start, end), line);
  }

  override invalid(start: number, end: number, line: number): void {
    this.kinds[line] = 'invalid';
    this.acap.invalid(this.view(start, end), line);
  }

  /**
   * After lexing: compares this profile's reading of each line with `otherKinds` (the
   * other profile's), then checks groups, crawl-delays and ACAP.
   */
  finish(otherKinds: readonly (LineKind | undefined)[]): void {
    // The group checks read each group's rules.
    this.fillRules();
    this.profileChecks(otherKinds);
    this.groupChecks();
    this.crawlDelayChecks();
    const policy = this.acap.finish({ explain: () => ({ allowed: true, line: 0 }) });
    for (const d of policy?.diagnostics ?? []) this.report(d.line, undefined, acapSeverity(d.code), d.code, d.message);
  }

  private profileChecks(otherKinds: readonly (LineKind | undefined)[]): void {
    const rfc = this.lintProfile === 'rfc';
    const lines = Math.max(this.kinds.length, otherKinds.length);
    for (let line = 1; line < lines; line++) {
      const mine = this.kinds[line];
      const other = otherKinds[line];
      const rfcKind = rfc ? mine : other;
      const googleKind = rfc ? other : mine;
      const googleReads = googleKind !== undefined && googleKind !== 'other' && googleKind !== 'invalid';
      if ((rfcKind === 'other' || rfcKind === 'invalid') && googleReads) {
        const code = rfcKind === 'invalid' ? 'missing-colon' : 'key-typo';
        const what = rfcKind === 'invalid' ? 'has no colon after its key' : `has the key ${JSON.stringify(this.keyOf(line))}, which RFC 9309 does not define`;
        const message = rfc
          ? `the line ${what}: it is ignored (the google profile reads it as ${KEY_NAMES[googleKind]})`
          : `the line ${what}: the google profile reads it as ${KEY_NAMES[googleKind]}, RFC 9309 parsers ignore it`;
        this.report(line, 1, rfc ? 'error' : 'warning', code, message);
        continue;
      }
      if (mine === 'invalid') {
        if (this.lineText(line).toLowerCase().startsWith('acap-')) continue; // ACAP's field-without-colon covers it
        this.report(line, 1, 'error', 'invalid-line', 'the line is not a `key: value` record (RFC 9309 §2.2): it is ignored');
      } else if (mine === 'other') {
        const key = asciiLower(this.keys[line] ?? '');
        if (!KNOWN_OTHER_KEYS.has(key) && !key.startsWith('acap-')) {
          this.report(line, 1, 'info', 'unknown-key', `${JSON.stringify(this.keys[line])} is not an RFC 9309 key nor a common extension: the line is ignored`);
        }
      }
    }
  }

  /** The key of an `other` line, or the line's first word (rfc profile never recorded it). */
  private keyOf(line: number): string {
    const known = this.keys[line];
    if (known !== undefined) return known;
    const text = this.lineText(line);
    const colon = text.indexOf(':');
    return colon >= 0 ? text.slice(0, colon).trim() : text.split(/[ \t]/)[0]!;
  }

  /** The text of `line` up to its end (no line break), from the body. */
  private lineText(line: number): string {
    const body = this.body;
    const bom = line === 1 && body.length >= 3 && body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf;
    const start = bom ? 3 : this.lineStarts[line] ?? 0;
    let end = start;
    while (end < body.length && body[end] !== 0x0a && body[end] !== 0x0d) end++;
    let s = start;
    while (s < end && (body[s] === 0x20 || body[s] === 0x09)) s++;
    return bytesToText(this.view(s, end));
  }

  private groupChecks(): void {
    const first = new Map<string, AgentMention>();
    for (const mention of this.mentions) {
      const seen = first.get(mention.token);
      const name = mention.token === '*' ? "'*'" : `'${mention.token}'`;
      if (seen === undefined) {
        first.set(mention.token, mention);
      } else if (seen.group === mention.group) {
        this.report(mention.line, undefined, 'info', 'duplicate-agent', `${name} is already named at line ${seen.line} of this group`);
      } else {
        this.report(mention.line, undefined, 'warning', 'duplicate-agent', `${name} is also named at line ${seen.line}: its groups are merged into one (RFC 9309 §2.2.1)`);
      }
    }
    for (const group of this.groups) this.checkGroupRules(group);
  }

  private checkGroupRules(group: Group): void {
    if (group.rules.length === 0) {
      this.report(group.line, undefined, 'warning', 'empty-group', 'this group has no Allow or Disallow rule: the crawlers it names may crawl everything (write "Disallow:" to say so)');
      return;
    }
    const seen = new Map<string, number>();
    for (const rule of group.rules) {
      // Patterns compare as the profile reads them (RFC 9309 §2.2.2: `/a%7e` is `/a~`).
      const pattern = bytesToText(normalizePattern(rule.pattern, this.lintProfile));
      const key = `${rule.allow ? 'A' : 'D'}${pattern}`;
      const same = seen.get(key);
      if (same !== undefined) {
        this.report(rule.line, undefined, 'info', 'duplicate-rule', `the same ${rule.allow ? 'Allow' : 'Disallow'} as line ${same} of this group`);
        continue;
      }
      seen.set(key, rule.line);
      const opposite = seen.get(`${rule.allow ? 'D' : 'A'}${pattern}`);
      if (opposite !== undefined && pattern !== '') {
        this.report(rule.line, undefined, 'warning', 'conflicting-rules', `${rule.allow ? 'Allow' : 'Disallow'} ${JSON.stringify(pattern)} contradicts line ${opposite} of this group: the Allow wins (RFC 9309 §2.2.2)`);
      }
    }
  }

  private crawlDelayChecks(): void {
    for (const record of this.looseOthers) {
      if (asciiLower(record.key) !== 'crawl-delay') continue;
      this.report(record.line, undefined, 'warning', 'crawl-delay-outside-group', 'Crawl-delay before any User-agent line applies to no crawler');
      this.checkDelayValue(record.value, record.line);
    }
    for (const group of this.groups) {
      for (const block of group.blocks) {
        let firstLine = 0;
        for (const record of block.others) {
          if (asciiLower(record.key) !== 'crawl-delay') continue;
          this.checkDelayValue(record.value, record.line);
          if (firstLine > 0) {
            this.report(record.line, undefined, 'info', 'crawl-delay-repeated', `another Crawl-delay for the same User-agent lines (line ${firstLine}): the first valid one is used`);
          } else {
            firstLine = record.line;
          }
          if (group.blocks.length > 1) {
            this.report(record.line, undefined, 'warning', 'crawl-delay-ambiguous', `this group's User-agent lines (${group.agentLines.join(', ')}) are split by other records: this library, robots-parser and Bing apply the Crawl-delay to line${block.lines.length === 1 ? '' : 's'} ${block.lines.join(', ')} only, parsers that read whole groups to all of them`);
          }
        }
      }
    }
  }

  private checkDelayValue(value: string, line: number): void {
    if (!CRAWL_DELAY_FORM.test(value)) {
      this.report(line, undefined, 'warning', 'crawl-delay-invalid', `Crawl-delay ${JSON.stringify(value)} is not a non-negative decimal number of seconds: it is ignored`);
    }
  }
}
