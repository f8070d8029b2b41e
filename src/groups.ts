// Grouping policy: which lines form a group, and which groups apply to a crawler.
import { isSpaceByte, type Profile, type RobotsLineHandler } from './parse.js';

/** An allow or disallow line as written (pattern not yet normalized). */
export interface RuleRecord {
  readonly allow: boolean;
  readonly pattern: Uint8Array;
  readonly line: number;
}

/** A record that is neither user-agent, allow, disallow nor sitemap (crawl-delay, host, …). */
export interface OtherRecord {
  /** Key as written, e.g. `Crawl-delay`. */
  readonly key: string;
  readonly value: string;
  readonly line: number;
}

/** One or more user-agent lines and the rules after them (RFC 9309 §2.1). */
export interface Group {
  /** Product tokens this group names, lowercased, as the profile reads them. */
  readonly agents: string[];
  /** Whether a user-agent line of this group is the global `*`. */
  global: boolean;
  readonly rules: RuleRecord[];
  /** Other records that appear inside this group, in file order. */
  readonly others: OtherRecord[];
  /** 1-based line of the group's first user-agent line. */
  readonly line: number;
}

const decoder = new TextDecoder();
/** Decodes bytes as UTF-8, invalid sequences as U+FFFD: used only for human-facing values. */
export function bytesToText(bytes: Uint8Array): string {
  // The decoder's ASCII fast path beats building the string a character at a time
  // (measured on Node 20: ~60 ns against ~300 ns for 20 bytes).
  return decoder.decode(bytes);
}

function isTokenByte(c: number): boolean {
  return (c | 0x20) - 0x61 < 26 && (c | 0x20) >= 0x61 || c === 0x2d || c === 0x5f;
}

/** Lowercases ASCII letters only: product tokens compare case-insensitively in ASCII. */
export function asciiLower(s: string): string {
  // toLowerCase is exact for ASCII; other scripts keep their case (tokens compare in ASCII).
  return NON_ASCII.test(s) ? s.replace(/[A-Z]+/g, (m) => m.toLowerCase()) : s.toLowerCase();
}
const NON_ASCII = /[^\x00-\x7f]/;

/**
 * Reads a user-agent line's value under `profile`.
 * RFC 9309 §2.2.1: the value is the product token, matched whole; `*` is the global group.
 * Google-compat: `*` followed by whitespace is still global, and the token is cut at the
 * first byte outside `[A-Za-z_-]` (`Foo Bar` names `foo`).
 */
export function readAgentValue(value: Uint8Array, profile: Profile): { global: boolean; token: string } {
  if (profile === 'google') {
    if (value.length >= 1 && value[0] === 0x2a && (value.length === 1 || isSpaceByte(value[1]!))) {
      return { global: true, token: '' };
    }
    let end = 0;
    while (end < value.length && isTokenByte(value[end]!)) end++;
    return { global: false, token: asciiLower(bytesToText(value.subarray(0, end))) };
  }
  if (value.length === 1 && value[0] === 0x2a) return { global: true, token: '' };
  return { global: false, token: asciiLower(bytesToText(value)) };
}

/** Collects groups, sitemaps and other records from lexer events. */
export class GroupCollector implements RobotsLineHandler {
  readonly groups: Group[] = [];
  readonly sitemaps: string[] = [];
  /** Other records outside any group (before the first user-agent line). */
  readonly looseOthers: OtherRecord[] = [];
  /** Lines of allow/disallow rules that precede every user-agent line and so apply to no one. */
  readonly orphanRuleLines: number[] = [];
  private current: Group | undefined;
  private inRules = false;

  constructor(private readonly profile: Profile) {}

  userAgent(value: Uint8Array, line: number): void {
    // RFC 9309 §2.1: a user-agent line after rules starts a new group.
    if (!this.current || this.inRules) {
      this.current = { agents: [], global: false, rules: [], others: [], line };
      this.groups.push(this.current);
      this.inRules = false;
    }
    const { global, token } = readAgentValue(value, this.profile);
    if (global) this.current.global = true;
    else this.current.agents.push(token);
  }

  allow(value: Uint8Array, line: number): void {
    this.rule(true, value, line);
  }

  disallow(value: Uint8Array, line: number): void {
    this.rule(false, value, line);
  }

  private rule(allow: boolean, pattern: Uint8Array, line: number): void {
    // RFC 9309 §2.2.2: rules outside any group SHOULD be ignored.
    if (!this.current) {
      this.orphanRuleLines.push(line);
      return;
    }
    this.inRules = true;
    this.current.rules.push({ allow, pattern, line });
  }

  sitemap(value: Uint8Array): void {
    // Sitemaps belong to the file, not to a group, and never end one (RFC 9309 §2.2.4).
    if (value.length > 0) this.sitemaps.push(bytesToText(value));
  }

  other(key: Uint8Array, value: Uint8Array, line: number): void {
    const record = { key: bytesToText(key), value: bytesToText(value), line };
    if (this.current) this.current.others.push(record);
    else this.looseOthers.push(record);
  }
}

/**
 * The groups that apply to `agent` (RFC 9309 §2.2.1): every group naming it
 * (case-insensitively), merged; otherwise every `*` group; otherwise none.
 */
export function selectGroups(groups: readonly Group[], agent: string): Group[] {
  const token = asciiLower(agent);
  const named = groups.filter((g) => g.agents.includes(token));
  if (named.length > 0) return named;
  return groups.filter((g) => g.global);
}
