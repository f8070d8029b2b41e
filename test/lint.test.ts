// lintRobots: one table row per diagnostic code (line, column, severity), a clean file, profile differences and argument checks.
import { describe, expect, it } from 'vitest';
import { ACAP_DIAGNOSTIC_CODES, LINT_CODES, lintRobots, type LintDiagnostic, type Profile } from '../src/index.js';
import { LINT_CODE_TABLE, worstSeverity } from '../src/lint/index.js';

const lines = (...l: string[]): string => `${l.join('\n')}\n`;
const bytes = (...parts: (string | number[])[]): Uint8Array =>
  Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? [...new TextEncoder().encode(p)] : p)));

interface Case {
  readonly code: string;
  readonly body: string | Uint8Array;
  readonly profile?: Profile;
  readonly maxBytes?: number;
  /** The expected diagnostic of `code` (the first one reported). */
  readonly line: number;
  readonly column?: number;
  readonly severity: LintDiagnostic['severity'];
  /** A part of the message. */
  readonly says?: string;
}

const CASES: readonly Case[] = [
  { code: 'bom', body: bytes([0xef, 0xbb, 0xbf], 'User-agent: *\nDisallow: /x\n'), line: 1, column: 1, severity: 'info' },
  { code: 'bare-cr', body: 'User-agent: *\rDisallow: /x\r\n', line: 1, severity: 'info', says: '1 line ends' },
  { code: 'nul-byte', body: bytes('User-agent: *\nDisallow: /a', [0], 'b\n'), line: 2, column: 13, severity: 'warning' },
  { code: 'invalid-utf8', body: bytes('User-agent: *\nDisallow: /a', [0xc3, 0x28], '\n'), line: 2, column: 13, severity: 'warning', says: '0xc3' },
  { code: 'line-too-long', body: `User-agent: *\nDisallow: /${'a'.repeat(17_000)}\n`, line: 2, column: 16_664, severity: 'warning' },
  { code: 'past-parse-limit', body: lines('User-agent: *', 'Disallow: /a', 'Disallow: /b'), maxBytes: 30, line: 3, column: 1, severity: 'warning', says: 'byte 27' },
  { code: 'invalid-line', body: lines('User-agent: *', 'Disallow: /x', 'just some words'), line: 3, column: 1, severity: 'error' },
  { code: 'key-typo', body: lines('User-agent: *', 'Disalow: /x'), line: 2, column: 1, severity: 'error', says: 'reads it as Disallow' },
  { code: 'key-typo', body: lines('User agent: *', 'Disallow: /x'), profile: 'google', line: 1, column: 1, severity: 'warning', says: '"User agent"' },
  { code: 'missing-colon', body: lines('User-agent: *', 'Disallow /x'), line: 2, column: 1, severity: 'error' },
  { code: 'missing-colon', body: lines('User-agent *', 'Disallow: /x'), profile: 'google', line: 1, column: 1, severity: 'warning', says: 'User-agent' },
  { code: 'unknown-key', body: lines('User-agent: *', 'Disallow: /x', 'Noindex: /y'), line: 3, column: 1, severity: 'info', says: '"Noindex"' },
  { code: 'rule-before-user-agent', body: lines('Disallow: /x', 'User-agent: *', 'Disallow: /y'), line: 1, severity: 'error' },
  { code: 'user-agent-not-token', body: lines('User-agent: Googlebot/2.1', 'Disallow: /x'), line: 1, column: 13, severity: 'warning', says: "'googlebot'" },
  { code: 'user-agent-empty', body: lines('User-agent: /bot', 'Disallow: /x'), line: 1, column: 13, severity: 'warning' },
  { code: 'duplicate-agent', body: lines('User-agent: a', 'Disallow: /x', 'User-agent: A', 'Disallow: /y'), line: 3, severity: 'warning', says: 'line 1' },
  // A blank line ends no group (RFC 9309 §2.2.4): only a group at the end of the file can be empty.
  { code: 'empty-group', body: lines('User-agent: *', 'Disallow: /', 'User-agent: a'), line: 3, severity: 'warning' },
  { code: 'conflicting-rules', body: lines('User-agent: *', 'Disallow: /a', 'Allow: /a'), line: 3, severity: 'warning', says: 'line 2' },
  // RFC 9309 §2.2.2: `%7E` and `~` are one pattern once normalized.
  { code: 'conflicting-rules', body: lines('User-agent: *', 'Disallow: /%7Ea', 'Allow: /~a'), line: 3, severity: 'warning' },
  { code: 'duplicate-rule', body: lines('User-agent: *', 'Disallow: /a', 'Disallow: /a'), line: 3, severity: 'info', says: 'line 2' },
  { code: 'pattern-not-rooted', body: lines('User-agent: *', 'Disallow: private'), line: 2, column: 11, severity: 'warning', says: '"/private"' },
  { code: 'pattern-not-rooted', body: lines('User-agent: *', 'Disallow: https://example.com/shop/x?a=1'), line: 2, column: 11, severity: 'warning', says: '"/shop/x?a=1"' },
  { code: 'pattern-non-ascii', body: lines('User-agent: *', 'Disallow: /café'), line: 2, column: 15, severity: 'warning', says: '/caf%C3%A9' },
  { code: 'pattern-invalid-octet', body: lines('User-agent: *', 'Disallow: /a b'), line: 2, column: 13, severity: 'warning', says: '%20' },
  { code: 'pattern-bad-percent', body: lines('User-agent: *', 'Disallow: /a%zz'), line: 2, column: 13, severity: 'warning' },
  { code: 'dollar-not-at-end', body: lines('User-agent: *', 'Disallow: /a$b'), line: 2, column: 13, severity: 'warning' },
  { code: 'crawl-delay-invalid', body: lines('User-agent: *', 'Crawl-delay: soon', 'Disallow: /x'), line: 2, severity: 'warning', says: '"soon"' },
  { code: 'crawl-delay-outside-group', body: lines('Crawl-delay: 5', 'User-agent: *', 'Disallow: /x'), line: 1, severity: 'warning' },
  { code: 'crawl-delay-ambiguous', body: lines('User-agent: a', 'Crawl-delay: 5', 'User-agent: b', 'Disallow: /x'), line: 2, severity: 'warning', says: 'line 1 only' },
  { code: 'crawl-delay-repeated', body: lines('User-agent: a', 'Crawl-delay: 5', 'Crawl-delay: 9', 'Disallow: /x'), line: 3, severity: 'info', says: 'line 2' },
  { code: 'sitemap-not-absolute', body: lines('User-agent: *', 'Disallow: /x', 'Sitemap: /sitemap.xml'), line: 3, column: 10, severity: 'warning' },
  { code: 'sitemap-not-absolute', body: lines('Sitemap: ftp://example.com/s.xml'), line: 1, column: 10, severity: 'warning' },
  { code: 'host-invalid', body: lines('User-agent: *', 'Disallow: /x', 'Host: https://example.com/path'), line: 3, column: 7, severity: 'warning' },
  { code: 'host-repeated', body: lines('Host: example.com', 'Host: www.example.com'), line: 2, severity: 'info', says: 'line 1' },
  // ACAP diagnostics keep the ACAP collector's codes.
  { code: 'unknown-usage', body: lines('ACAP-crawler: *', 'ACAP-allow-extract: /x'), line: 2, severity: 'warning' },
  { code: 'version-malformed', body: lines('##ACAP version', 'ACAP-crawler: *', 'ACAP-disallow-crawl: /x'), line: 1, severity: 'warning' },
];

describe('lintRobots: one row per code', () => {
  it.each(CASES.map((c) => [`${c.code}${c.profile === 'google' ? ' (google)' : ''}`, c] as const))('%s', (_name, c) => {
    const options = { ...(c.profile === undefined ? {} : { profile: c.profile }), ...(c.maxBytes === undefined ? {} : { maxBytes: c.maxBytes }) };
    const found = lintRobots(c.body, options).filter((d) => d.code === c.code);
    expect(found.length, JSON.stringify(lintRobots(c.body, options))).toBeGreaterThan(0);
    const d = found[0]!;
    expect({ line: d.line, column: d.column, severity: d.severity }).toEqual({ line: c.line, column: c.column, severity: c.severity });
    if (c.says !== undefined) expect(d.message).toContain(c.says);
    expect(d.message).not.toContain('\n');
  });

  it('every own code has a row, except the fetch outcomes (test/cli-lint.test.ts)', () => {
    const covered = new Set(CASES.map((c) => c.code));
    const missing = Object.keys(LINT_CODE_TABLE).filter((code) => !covered.has(code) && !code.startsWith('fetch-'));
    expect(missing).toEqual([]);
  });
});

describe('lintRobots: files that are fine', () => {
  it.each(['rfc', 'google'] as const)('reports nothing for a tidy file (%s)', (profile) => {
    const body = lines(
      '# comment', 'User-agent: Googlebot', 'User-agent: bingbot', 'Disallow: /private/', 'Allow: /private/ok$', 'Crawl-delay: 2', '',
      'User-agent: *', 'Disallow:', '', 'Sitemap: https://example.com/sitemap.xml', 'Host: example.com',
    );
    expect(lintRobots(body, { profile })).toEqual([]);
  });

  it('takes bytes as well as strings, with the same result', () => {
    const body = lines('User-agent: *', 'Disalow: /x');
    expect(lintRobots(new TextEncoder().encode(body))).toEqual(lintRobots(body));
  });

  it('sorts by line, then column', () => {
    const found = lintRobots(lines('User-agent: *', 'Disallow: /a$ b', 'Disallow x', 'Disallow: /a$ b'));
    const order = found.map((d) => [d.line, d.column ?? 0]);
    expect(order).toEqual([...order].sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!));
  });
});

describe('lintRobots: codes and severities', () => {
  it('no lint code equals an ACAP code, and LINT_CODES holds both', () => {
    const own = Object.keys(LINT_CODE_TABLE);
    expect(own.filter((c) => (ACAP_DIAGNOSTIC_CODES as readonly string[]).includes(c))).toEqual([]);
    expect(LINT_CODES).toEqual([...own, ...ACAP_DIAGNOSTIC_CODES]);
  });

  it('reports each code with its table severity (key-typo and missing-colon: per profile)', () => {
    for (const c of CASES) {
      if (c.code === 'key-typo' || c.code === 'missing-colon' || !(c.code in LINT_CODE_TABLE)) continue;
      expect(c.severity, c.code).toBe(LINT_CODE_TABLE[c.code as keyof typeof LINT_CODE_TABLE].severity);
    }
  });

  it('worstSeverity picks error over warning over info, null for none', () => {
    const d = (severity: LintDiagnostic['severity']): LintDiagnostic => ({ line: 1, severity, code: 'bom', message: 'm' });
    expect(worstSeverity([])).toBeNull();
    expect(worstSeverity([d('info'), d('warning')])).toBe('warning');
    expect(worstSeverity([d('warning'), d('error'), d('info')])).toBe('error');
  });
});

describe('lintRobots: arguments', () => {
  it('rejects what is not a body or options, naming what came', () => {
    expect(() => lintRobots(42 as unknown as string)).toThrow(/body must be a string or Uint8Array, got number/);
    expect(() => lintRobots('', { profile: 'bing' as Profile })).toThrow(/options.profile must be 'rfc' or 'google', got "bing"/);
    expect(() => lintRobots('', { maxBytes: -1 })).toThrow(RangeError);
    expect(() => lintRobots('', { depth: 1 } as never)).toThrow(/options.depth is not a lint option/);
  });
});
