// Reference robots.txt matcher for both profiles: the oracle that property and hostile-input tests compare the Wasm path to.
//
// Written independently of src/: the google profile replays records through robots.cc's
// streaming RobotsMatcher state machine (one pass per URL, as AllowedByRobots does); the
// rfc profile builds RFC 9309 §2.1 groups and scans every rule with the position-set
// matcher. Straightforward and slow: O(records × path × pattern) per URL.
import { referenceGlobMatches } from './glob.js';
import { referenceLimit, referenceRecords, type RefProfile, type RefRecord } from './lines.js';
import {
  referenceEscapeGoogle, referenceGooglePath, referenceNormalizePathRfc, referenceNormalizePatternRfc, referencePathParamsQuery,
} from './url.js';

export { referenceGlobMatches } from './glob.js';
export { referenceRecords, referenceLimit, type RefProfile, type RefRecord } from './lines.js';
export * from './url.js';

/** The verdict, the deciding rule's 1-based line (0 = none) and its text as written. */
export interface RefExplanation {
  readonly allowed: boolean;
  readonly line: number;
  readonly rule: string | null;
}

export interface RefOptions {
  readonly profile: RefProfile;
  readonly maxBytes?: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A best match: highest priority, the first one seen in file order on ties. */
interface Best {
  priority: number;
  line: number;
}

const NONE = (): Best => ({ priority: -1, line: 0 });

function offer(best: Best, priority: number, line: number): void {
  if (priority > best.priority) {
    best.priority = priority;
    best.line = line;
  }
}

function asciiLowerBytes(bytes: Uint8Array): Uint8Array {
  return bytes.map((c) => (c >= 0x41 && c <= 0x5a ? c + 0x20 : c));
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((c, i) => c === b[i]);
}

function isCSpace(c: number | undefined): boolean {
  return c === 0x20 || (c !== undefined && c >= 0x09 && c <= 0x0d);
}

function isTokenByte(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x2d || c === 0x5f;
}

/** robots.cc RobotsMatcher, replayed for one path: returns the verdict and matching_line(). */
function decideGoogle(records: readonly RefRecord[], agent: Uint8Array, path: Uint8Array): { allowed: boolean; line: number } {
  const wanted = asciiLowerBytes(agent);
  let seenGlobal = false;
  let seenSpecific = false;
  let everSpecific = false;
  let seenSeparator = false;
  const allow = { specific: NONE(), global: NONE() };
  const disallow = { specific: NONE(), global: NONE() };

  const handleRule = (kind: typeof allow, pattern: Uint8Array, line: number, isAllow: boolean): void => {
    if (!seenGlobal && !seenSpecific) return;
    seenSeparator = true;
    if (referenceGlobMatches(path, pattern)) {
      offer(seenSpecific ? kind.specific : kind.global, pattern.length, line);
      return;
    }
    if (!isAllow) return;
    // Google-compat: `allow: <dir>/index.htm…` that does not match also tries `<dir>/$`.
    const slash = pattern.lastIndexOf(0x2f);
    const tail = decoder.decode(pattern.subarray(slash));
    if (slash >= 0 && tail.startsWith('/index.htm')) {
      handleRule(kind, Uint8Array.from([...pattern.subarray(0, slash + 1), 0x24]), line, true);
    }
  };

  for (const record of records) {
    const v = record.value;
    if (record.key === 'user-agent') {
      if (seenSeparator) seenSpecific = seenGlobal = seenSeparator = false;
      if (v.length >= 1 && v[0] === 0x2a && (v.length === 1 || isCSpace(v[1]))) {
        seenGlobal = true;
      } else {
        let end = 0;
        while (end < v.length && isTokenByte(v[end]!)) end++;
        if (sameBytes(asciiLowerBytes(v.subarray(0, end)), wanted)) everSpecific = seenSpecific = true;
      }
    } else if (record.key === 'allow' || record.key === 'disallow') {
      const isAllow = record.key === 'allow';
      handleRule(isAllow ? allow : disallow, referenceEscapeGoogle(v), record.line, isAllow);
    }
  }

  // robots.cc disallow(): specific matches first; a matching group without any match
  // (priority > 0) hides the global rules; priority 0 (an empty pattern) never disallows.
  let disallowed = false;
  if (allow.specific.priority > 0 || disallow.specific.priority > 0) {
    disallowed = disallow.specific.priority > allow.specific.priority;
  } else if (!everSpecific && (allow.global.priority > 0 || disallow.global.priority > 0)) {
    disallowed = disallow.global.priority > allow.global.priority;
  }
  // robots.cc matching_line(): HigherPriorityMatch(disallow, allow) of the group kind in force.
  const a = everSpecific ? allow.specific : allow.global;
  const d = everSpecific ? disallow.specific : disallow.global;
  return { allowed: !disallowed, line: d.priority > a.priority ? d.line : a.line };
}

interface RfcGroup {
  readonly tokens: string[];
  global: boolean;
  readonly rules: RefRecord[];
}

/** RFC 9309 §2.1: user-agent lines open a group, the next user-agent line after a rule opens another. */
function groupsRfc(records: readonly RefRecord[]): RfcGroup[] {
  const groups: RfcGroup[] = [];
  let open: RfcGroup | null = null;
  let hadRule = false;
  for (const record of records) {
    if (record.key === 'user-agent') {
      if (open === null || hadRule) {
        open = { tokens: [], global: false, rules: [] };
        groups.push(open);
        hadRule = false;
      }
      if (record.value.length === 1 && record.value[0] === 0x2a) {
        open.global = true;
      } else {
        // RFC 9309 §2.3.1.5 "use the parseable rules": a value that is not a product token
        // names its leading [A-Za-z_-] run (`FooBot/1.0` → foobot), as Google reads it.
        let end = 0;
        while (end < record.value.length && isTokenByte(record.value[end]!)) end++;
        open.tokens.push(asciiLowerString(decoder.decode(record.value.subarray(0, end))));
      }
    } else if ((record.key === 'allow' || record.key === 'disallow') && open !== null) {
      open.rules.push(record);
      hadRule = true;
    }
  }
  return groups;
}

function asciiLowerString(s: string): string {
  let out = '';
  for (const ch of s) out += ch >= 'A' && ch <= 'Z' ? ch.toLowerCase() : ch;
  return out;
}

const ROBOTS_TXT = encoder.encode('/robots.txt');

function decideRfc(groups: readonly RfcGroup[], agent: string, url: Uint8Array): { allowed: boolean; line: number } {
  const path = referenceNormalizePathRfc(referencePathParamsQuery(url));
  // RFC 9309 §2.2.2: /robots.txt is implicitly allowed (a query does not change the resource).
  const head = path.subarray(0, ROBOTS_TXT.length);
  if (sameBytes(head, ROBOTS_TXT) && (path.length === ROBOTS_TXT.length || path[ROBOTS_TXT.length] === 0x3f)) {
    return { allowed: true, line: 0 };
  }
  const token = asciiLowerString(agent);
  let chosen = groups.filter((g) => g.tokens.includes(token));
  if (chosen.length === 0) chosen = groups.filter((g) => g.global);
  const allow = NONE();
  const disallow = NONE();
  for (const group of chosen) {
    for (const rule of group.rules) {
      const pattern = referenceNormalizePatternRfc(rule.value);
      // RFC 9309 §2.2.2: an empty pattern is no rule.
      if (pattern.length === 0 || !referenceGlobMatches(path, pattern)) continue;
      offer(rule.key === 'allow' ? allow : disallow, pattern.length, rule.line);
    }
  }
  // Groups and their rules are in file order, so `offer` keeps the earliest line on ties.
  return disallow.priority > allow.priority ? { allowed: false, line: disallow.line } : { allowed: true, line: allow.line };
}

/**
 * The reference for one robots.txt body under one profile.
 * @example
 * ReferenceRobots.parse('User-agent: *\nDisallow: /x', { profile: 'rfc' }).explain('/x/y', 'bot')
 * // { allowed: false, line: 2, rule: 'disallow: /x' }
 */
export class ReferenceRobots {
  readonly truncated: boolean;
  readonly byteLength: number;
  readonly sitemaps: string[];
  private readonly records: RefRecord[];
  private readonly groups: RfcGroup[];

  private constructor(readonly profile: RefProfile, body: Uint8Array, maxBytes: number) {
    const { bytes, truncated } = referenceLimit(body, maxBytes);
    this.truncated = truncated;
    this.byteLength = bytes.length;
    this.records = referenceRecords(bytes, profile);
    this.groups = profile === 'rfc' ? groupsRfc(this.records) : [];
    this.sitemaps = this.records.filter((r) => r.key === 'sitemap' && r.value.length > 0).map((r) => decoder.decode(r.value));
  }

  static parse(body: string | Uint8Array, options: RefOptions): ReferenceRobots {
    const bytes = typeof body === 'string' ? encoder.encode(body) : body;
    return new ReferenceRobots(options.profile, bytes, options.maxBytes ?? 512_000);
  }

  /** `url` as a JS string (UTF-8 encoded, as matchBatch does) or as raw bytes (as matchLines sees a line). */
  explain(url: string | Uint8Array, agent: string): RefExplanation {
    const bytes = typeof url === 'string' ? encoder.encode(url) : url;
    const { allowed, line } = this.profile === 'google'
      ? decideGoogle(this.records, encoder.encode(agent), referenceGooglePath(bytes))
      : decideRfc(this.groups, agent, bytes);
    return { allowed, line, rule: line === 0 ? null : this.ruleText(line) };
  }

  private ruleText(line: number): string | null {
    const record = this.records.find((r) => r.line === line && (r.key === 'allow' || r.key === 'disallow'));
    return record ? `${record.key}: ${decoder.decode(record.value)}` : null;
  }
}

/**
 * The URLs `matchLines` sees in `bytes`: split at LF, one CR at the end of a line
 * dropped, a last line without LF included, nothing after a final LF.
 * @example referenceSplitLines(utf8('/a\r\n\n/b')) // ['/a', '', '/b']
 */
export function referenceSplitLines(bytes: Uint8Array): Uint8Array[] {
  const lines: Uint8Array[] = [];
  let start = 0;
  for (let i = 0; i <= bytes.length; i++) {
    if (i < bytes.length && bytes[i] !== 0x0a) continue;
    if (i === bytes.length && start === bytes.length) break;
    let end = i;
    // A CR ending a line (before its LF, or at the very end) belongs to the line break.
    if (end > start && bytes[end - 1] === 0x0d) end--;
    lines.push(bytes.subarray(start, end));
    start = i + 1;
  }
  return lines;
}
