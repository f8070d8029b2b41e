// The linter's diagnostic codes: each stable name, its severity and what it means, in one table.
import { ACAP_DIAGNOSTIC_CODES, type AcapDiagnosticCode } from '../acap/index.js';

/** How bad a finding is: `error` changes or loses rules, `warning` is likely a mistake, `info` is worth knowing. */
export type LintSeverity = 'error' | 'warning' | 'info';

/**
 * The linter's own codes, with their severity and a one-line meaning (docs/CLI.md lists
 * them). `key-typo` and `missing-colon` are errors under the rfc profile (the line is
 * ignored) and warnings under google (only Google-like parsers read it); every other code
 * has the severity given here whatever the profile.
 */
export const LINT_CODE_TABLE = Object.freeze({
  'bom': { severity: 'info', meaning: 'the file starts with a UTF-8 byte order mark (skipped by both profiles)' },
  'bare-cr': { severity: 'info', meaning: 'a line ends with a CR not followed by LF (RFC 9309 §2.2 allows it; LF-only tools see one long line)' },
  'nul-byte': { severity: 'warning', meaning: 'a NUL byte: the google profile ends the line there, the rfc profile keeps it in the value' },
  'invalid-utf8': { severity: 'warning', meaning: 'bytes that are not UTF-8 (RFC 9309 §2.2: the file is UTF-8)' },
  'line-too-long': { severity: 'warning', meaning: 'a line longer than 16,663 bytes: the google profile reads only its start' },
  'past-parse-limit': { severity: 'warning', meaning: 'content past the parse limit is ignored (RFC 9309 §2.5), from the line named on' },
  'invalid-line': { severity: 'error', meaning: 'a line that is neither a `key: value` record nor a comment; ignored' },
  'key-typo': { severity: 'error', meaning: 'a misspelt key (`Disalow`, `User agent`) that only the google profile reads as the real one' },
  'missing-colon': { severity: 'error', meaning: 'a `key value` line without a colon that only the google profile reads' },
  'unknown-key': { severity: 'info', meaning: 'a key RFC 9309 does not define and no common extension uses; ignored' },
  'rule-before-user-agent': { severity: 'error', meaning: 'an allow/disallow before any user-agent line: it applies to no crawler (RFC 9309 §2.2.2)' },
  'user-agent-not-token': { severity: 'warning', meaning: 'a user-agent value that is not a product token: only its leading letters, `-` and `_` are matched' },
  'user-agent-empty': { severity: 'warning', meaning: 'a user-agent line naming no product token: it matches no crawler' },
  'duplicate-agent': { severity: 'warning', meaning: 'an agent named in several groups: its groups are merged (RFC 9309 §2.2.1)' },
  'empty-group': { severity: 'warning', meaning: 'a group with no allow/disallow rule: the agents it names may crawl everything' },
  'conflicting-rules': { severity: 'warning', meaning: 'Allow and Disallow with the same pattern in one group: Allow wins (RFC 9309 §2.2.2)' },
  'duplicate-rule': { severity: 'info', meaning: 'the same rule twice in one group' },
  'pattern-not-rooted': { severity: 'warning', meaning: 'a pattern not starting with `/` or `*`: it matches no URL path' },
  'pattern-non-ascii': { severity: 'warning', meaning: 'unencoded non-ASCII bytes in a pattern: matched as their UTF-8 percent-encoding' },
  'pattern-invalid-octet': { severity: 'warning', meaning: 'an octet RFC 3986 does not allow in a URI (space, `"<>\\^`{|}`, controls) in a pattern' },
  'pattern-bad-percent': { severity: 'warning', meaning: 'a `%` not followed by two hex digits: matched as a literal `%`' },
  'dollar-not-at-end': { severity: 'warning', meaning: 'a `$` before the end of a pattern: a literal `$`, not the end anchor (RFC 9309 §2.2.3)' },
  'crawl-delay-invalid': { severity: 'warning', meaning: 'a Crawl-delay that is not a non-negative decimal number of seconds: ignored' },
  'crawl-delay-outside-group': { severity: 'warning', meaning: 'a Crawl-delay before any user-agent line: it applies to no crawler' },
  'crawl-delay-ambiguous': { severity: 'warning', meaning: 'a Crawl-delay in a group whose user-agent lines are split by other records: parsers differ on whom it covers' },
  'crawl-delay-repeated': { severity: 'info', meaning: 'a second Crawl-delay for the same user-agent lines: the first one is used' },
  'sitemap-not-absolute': { severity: 'warning', meaning: 'a Sitemap value that is not an absolute http(s) URL' },
  'host-invalid': { severity: 'warning', meaning: 'a Host value that is not `host`, `host:port` or `scheme://host[:port]`' },
  'host-repeated': { severity: 'info', meaning: 'a second Host line: readers of Host use the first' },
  'fetch-unavailable': { severity: 'warning', meaning: 'the robots.txt fetch was unavailable (4xx): every URL is allowed (RFC 9309 §2.3.1.3)' },
  'fetch-unreachable': { severity: 'error', meaning: 'the robots.txt fetch was unreachable (5xx, network): every URL is disallowed (RFC 9309 §2.3.1.4)' },
} as const satisfies Record<string, { severity: LintSeverity; meaning: string }>);

/** One of the linter's own codes (see {@link LINT_CODE_TABLE}). */
export type LintOwnCode = keyof typeof LINT_CODE_TABLE;

/** Every code a diagnostic can carry: the linter's own, then the ACAP collector's, unchanged. */
export type LintCode = LintOwnCode | AcapDiagnosticCode;

/**
 * Every lint code: the linter's own (LINT_CODE_TABLE order), then ACAP_DIAGNOSTIC_CODES
 * (reported with `source: 'acap'`). No two are equal.
 * @example LINT_CODES.includes('empty-group') // true
 */
export const LINT_CODES: readonly LintCode[] = Object.freeze([
  ...(Object.keys(LINT_CODE_TABLE) as LintOwnCode[]),
  ...ACAP_DIAGNOSTIC_CODES,
]);

/**
 * Severity of an ACAP diagnostic: the field it names is ignored (a warning), except a file
 * over the expansion budget, which prohibits every ACAP usage.
 */
export function acapSeverity(code: AcapDiagnosticCode): LintSeverity {
  return code === 'expansion-budget-exceeded' ? 'error' : 'warning';
}
