// Loads the Google conformance fixtures and runs table-driven `[robots, agent, url, expected, note]` rows.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Profile } from '../../src/index.js';
import { evaluateAllPaths } from './all-paths.js';

const FIXTURES = new URL('../fixtures/google/', import.meta.url);

function readFixture<T>(name: string): T {
  return JSON.parse(readFileSync(new URL(name, FIXTURES), 'utf8')) as T;
}

/** One allowed-ness expectation recorded from Google's reference matcher. */
export interface AllowedCase {
  readonly id: string;
  readonly name: string;
  readonly robotstxt: string;
  /** Exact bytes when the body is not valid UTF-8 (`robotstxt` then shows U+FFFD). */
  readonly robotstxt_base64?: string;
  readonly useragent: string;
  readonly url: string;
  readonly expected_allowed: boolean;
  /** spec_cases.json only: `STANDARD` or `GOOGLE_SPECIFIC`. */
  readonly test_type?: 'STANDARD' | 'GOOGLE_SPECIFIC';
  readonly line?: number;
  readonly file?: string;
}

/** A conformance case tagged with the fixture file it came from. */
export interface SourcedCase extends AllowedCase {
  readonly source: 'google_cases' | 'spec_cases';
}

export interface OtherCases {
  readonly source: { repo: string; commit: string; files: string[]; how: string };
  readonly IsValidUserAgentToObey: {
    description: string;
    cases: { name: string; line: number; input: string; input_is_null_string_view: boolean; expected: boolean }[];
  };
  readonly GetPathParamsQuery: {
    description: string;
    cases: { name: string; line: number; url: string; expected_path: string }[];
  };
  readonly MaybeEscapePattern: {
    description: string;
    cases: { name: string; line: number; input: string; expected: string }[];
  };
  readonly parse_stats_RobotsStatsReporter: {
    description: string;
    cases: {
      name: string;
      line: number;
      robotstxt: string;
      robotstxt_base64?: string;
      expected: { valid_directives?: number; unknown_directives?: number; last_line_seen?: number; sitemap?: string };
    }[];
  };
  readonly line_metadata_RobotsParsingReporter: {
    description: string;
    cases: {
      name: string;
      line: number;
      robotstxt: string;
      expected: { valid_directives: number; last_line_seen: number; parse_results_size_equals_last_line_seen?: boolean };
      expected_lines?: ParsedLineExpectation[];
    }[];
  };
}

/** Google's `RobotsParsedLine` as recorded from reporting_robots_test.cc. */
export interface ParsedLineExpectation {
  readonly line_num: number;
  readonly tag_name: 'UserAgent' | 'Allow' | 'Disallow' | 'Sitemap' | 'Unused' | 'Unknown';
  readonly is_typo: boolean;
  readonly metadata: {
    is_empty: boolean;
    has_comment: boolean;
    is_comment: boolean;
    has_directive: boolean;
    is_acceptable_typo: boolean;
    is_line_too_long: boolean;
    is_missing_colon_separator: boolean;
  };
}

/**
 * google_cases.json: the 145 expectations of robots_test.cc.
 * @example loadGoogleCases()[0] // { id: 'GoogleOnly_SystemTest/1', robotstxt: '', useragent: 'FooBot', url: '', expected_allowed: true, source: 'google_cases', … }
 */
export function loadGoogleCases(): SourcedCase[] {
  return readFixture<AllowedCase[]>('google_cases.json').map((c) => ({ ...c, source: 'google_cases' as const }));
}

/**
 * spec_cases.json: the 400 expectations of robotstxt-spec-test.
 * @example loadSpecCases().filter((c) => c.test_type === 'GOOGLE_SPECIFIC').length // 22
 */
export function loadSpecCases(): SourcedCase[] {
  return readFixture<AllowedCase[]>('spec_cases.json').map((c) => ({ ...c, source: 'spec_cases' as const }));
}

/**
 * google_other_cases.json: helper-function checks.
 * @example loadOtherCases().GetPathParamsQuery.cases[3] // { url: 'http://www.example.com/a', expected_path: '/a', … }
 */
export function loadOtherCases(): OtherCases {
  return readFixture<OtherCases>('google_other_cases.json');
}

/**
 * The body to parse: the exact bytes when the fixture carries `robotstxt_base64`
 * (the text form has U+FFFD in place of invalid UTF-8), else the text.
 * @example caseBody({ robotstxt: '\ufffdUser-Agent: foo', robotstxt_base64: '77tVc2Vy' }) // Uint8Array [0xef, 0xbb, 0x55, …]
 */
export function caseBody(c: { robotstxt: string; robotstxt_base64?: string }): string | Uint8Array {
  return c.robotstxt_base64 === undefined ? c.robotstxt : new Uint8Array(Buffer.from(c.robotstxt_base64, 'base64'));
}

/**
 * UTF-8 bytes of `text`.
 * @example utf8('ツ') // Uint8Array [0xe3, 0x83, 0x84]
 */
export function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

/** Either one answer for both profiles, or one per profile (a deliberate, asserted difference). */
export type Expected = boolean | { readonly rfc: boolean; readonly google: boolean };

/** `[robots, agent, url, expected, note]`: the house format for table-driven cases. */
export type Row = readonly [robots: string | Uint8Array, agent: string, url: string, expected: Expected, note: string];

const PROFILES: readonly Profile[] = ['rfc', 'google'];

/**
 * The expectation of `expected` under `profile`.
 * @example expectedFor({ rfc: true, google: false }, 'google') // false
 */
export function expectedFor(expected: Expected, profile: Profile): boolean {
  return typeof expected === 'boolean' ? expected : expected[profile];
}

/**
 * Short printable form of a value for test titles.
 * @example show('/a\tb') // '"/a\\tb"'
 */
export function show(value: string | Uint8Array, max = 60): string {
  const text = typeof value === 'string' ? value : `bytes(${Buffer.from(value).toString('hex')})`;
  const escaped = JSON.stringify(text);
  return escaped.length > max ? `${escaped.slice(0, max - 4)}…"` : escaped;
}

/**
 * Declares one test per row and profile; every test goes through every public path
 * (evaluateAllPaths) and checks the verdict for that profile. A per-profile expectation
 * whose two answers are equal is rejected (it would hide a copy-paste slip).
 * @example
 * describeRows('RFC 9309 §2.2.2: /robots.txt', [
 *   ['user-agent: *\ndisallow: /\n', 'FooBot', '/robots.txt', { rfc: true, google: false }, 'implicitly allowed'],
 * ]);
 */
export function describeRows(title: string, rows: readonly Row[]): void {
  for (const [, , , expected, note] of rows) {
    // A per-profile expectation must really differ, otherwise it hides a copy-paste slip.
    if (typeof expected !== 'boolean' && expected.rfc === expected.google) {
      throw new Error(`row "${note}" gives the same answer for both profiles: use a boolean`);
    }
  }
  describe(title, () => {
    for (const profile of PROFILES) {
      describe(profile, () => {
        for (const [robots, agent, url, expected, note] of rows) {
          const want = expectedFor(expected, profile);
          const diff = typeof expected === 'boolean' ? '' : ' [profiles differ]';
          it(`${note}: ${show(agent, 30)} ${show(url)} → ${want ? 'allow' : 'disallow'}${diff}`, () => {
            expect(evaluateAllPaths(robots, agent, url, profile).allowed).toBe(want);
          });
        }
      });
    }
  });
}
