// Google's conformance vectors (robots_test.cc, robotstxt-spec-test): all 545 in both profiles, RFC differences listed and asserted.
//
// The vectors record what Google's reference matcher answers. The google profile must
// reproduce every one of them. The rfc profile must too, except for the cases listed in
// RFC_DIFFERENCES, where RFC 9309 requires another answer: each such case is still run
// and its RFC answer asserted, never skipped. Fixture provenance: fixtures/ATTRIBUTION.md.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { runCheck } from '../src/cli/check.js';
import {
  GOOGLE_MAX_LINE_BYTES,
  escapePatternGoogle,
  isValidProductToken,
  lexRobots,
  toMatchPath,
  type RobotsLineHandler,
} from '../src/index.js';
import { evaluateAllPaths, parseCached } from './helpers/all-paths.js';
import {
  caseBody,
  loadGoogleCases,
  loadOtherCases,
  loadSpecCases,
  utf8,
  type ParsedLineExpectation,
  type SourcedCase,
} from './helpers/cases.js';

/** A vector whose RFC 9309 answer differs from Google's recorded one. */
interface RfcDifference {
  readonly id: string;
  /** What the rfc profile must answer (the opposite of `expected_allowed`). */
  readonly rfcExpected: boolean;
  /** `RFC 9309 §x.y: …`: the section that requires the other answer. */
  readonly reason: string;
}

// Reasons, one per kind of difference.
const MISSING_COLON =
  'RFC 9309 §2.2: every record is `key *WS ":" *WS value`; a line without the colon is not a rule (Google-compat accepts "key value").';
const URL_ENCODED =
  'RFC 9309 §2.2.2: octets outside ASCII in the URI MUST be percent-encoded before comparison, so the UTF-8 URL matches the rule; Google compares the URL as given.';
const UNRESERVED_DECODED =
  'RFC 9309 §2.2.2: %XX of unreserved characters MUST be unencoded before comparison (%62%61%7A ≡ baz); Google leaves the escapes in the rule.';
const NO_INDEX_HTML =
  'RFC 9309 §2.2.2: "/d/index.html" does not match "/d/"; the directory allowance is Google-only.';
const NO_LINE_CUT =
  'RFC 9309 §2.2.2: the rule is the whole line; Google reads only the first 16,663 bytes of a line and so matches a prefix of the pattern.';
const ROBOTS_TXT_ALLOWED = 'RFC 9309 §2.2.2: "The /robots.txt URI is implicitly allowed."';

// User-agent values are read alike in both profiles (RFC 9309 §2.3.1.5: a value that is no
// product token names its leading [A-Za-z_-] run, as Google reads it), so no vector differs there.
const RFC_DIFFERENCES: readonly RfcDifference[] = [
  // (e) missing colon
  { id: 'ID_LineSyntax_Line/3', rfcExpected: true, reason: MISSING_COLON },
  { id: 'correctness/accepted-mistakes/2/0', rfcExpected: true, reason: MISSING_COLON },
  // (a) percent normalization of URLs and patterns
  { id: 'ID_Encoding/3', rfcExpected: true, reason: URL_ENCODED },
  { id: 'ID_Encoding/5', rfcExpected: true, reason: URL_ENCODED },
  { id: 'correctness/non-ascii-paths/1/1', rfcExpected: true, reason: URL_ENCODED },
  { id: 'correctness/non-ascii-paths/2/1', rfcExpected: true, reason: URL_ENCODED },
  { id: 'ID_Encoding/6', rfcExpected: true, reason: UNRESERVED_DECODED },
  { id: 'correctness/non-ascii-paths/3/0', rfcExpected: true, reason: UNRESERVED_DECODED },
  // (c) Google's index.html directory allowance
  { id: 'GoogleOnly_IndexHTMLisDirectory/1', rfcExpected: false, reason: NO_INDEX_HTML },
  { id: 'correctness/index-page/0/0', rfcExpected: false, reason: NO_INDEX_HTML },
  // (f) Google's 16,663-byte line buffer
  { id: 'GoogleOnly_LineTooLong/2', rfcExpected: true, reason: NO_LINE_CUT },
  { id: 'GoogleOnly_LineTooLong/5', rfcExpected: false, reason: NO_LINE_CUT },
  // (g) /robots.txt under "Disallow: /"
  { id: 'stress/327748/0/5', rfcExpected: true, reason: ROBOTS_TXT_ALLOWED },
  { id: 'stress/369883/0/5', rfcExpected: true, reason: ROBOTS_TXT_ALLOWED },
  { id: 'stress/369883/0/9', rfcExpected: true, reason: ROBOTS_TXT_ALLOWED },
  { id: 'stress/860237/0/9', rfcExpected: true, reason: ROBOTS_TXT_ALLOWED },
];

const googleCases = loadGoogleCases();
const specCases = loadSpecCases();
const allCases: SourcedCase[] = [...googleCases, ...specCases];
const differences = new Map(RFC_DIFFERENCES.map((d) => [d.id, d]));
const EXPECTED_CASE_COUNT = 545;

describe('fixtures', () => {
  it('hold 145 + 400 = 545 allowed-ness vectors with unique ids', () => {
    expect(googleCases).toHaveLength(145);
    expect(specCases).toHaveLength(400);
    expect(new Set(allCases.map((c) => c.id)).size).toBe(EXPECTED_CASE_COUNT);
  });
  it('spec_cases: 378 STANDARD and 22 GOOGLE_SPECIFIC', () => {
    expect(specCases.filter((c) => c.test_type === 'STANDARD')).toHaveLength(378);
    expect(specCases.filter((c) => c.test_type === 'GOOGLE_SPECIFIC')).toHaveLength(22);
  });
  it('base64 bodies decode to bytes whose lossy UTF-8 reading is the text form', () => {
    const withBytes = allCases.filter((c) => c.robotstxt_base64 !== undefined);
    expect(withBytes.length).toBeGreaterThan(0);
    for (const c of withBytes) {
      const bytes = caseBody(c) as Uint8Array;
      expect(new TextDecoder().decode(bytes), c.id).toBe(c.robotstxt);
    }
  });
});

describe('RFC_DIFFERENCES list', () => {
  const byId = new Map(allCases.map((c) => [c.id, c]));
  it('names existing vectors, each once', () => {
    expect(differences.size).toBe(RFC_DIFFERENCES.length);
    for (const d of RFC_DIFFERENCES) expect(byId.has(d.id), d.id).toBe(true);
  });
  it('only lists real differences, each with an RFC 9309 section', () => {
    for (const d of RFC_DIFFERENCES) {
      expect(d.rfcExpected, d.id).toBe(!byId.get(d.id)!.expected_allowed);
      expect(d.reason, d.id).toMatch(/^RFC 9309 §2(\.\d+)+: \S/);
    }
  });
});

/**
 * Declares one test per vector and checks, once they are done, that all 545 were
 * declared and that every one selected to run (all of them, unless `-t` filters) passed
 * its assertions to the end: nothing is skipped silently.
 */
function describeEveryVector(title: string, check: (c: SourcedCase) => void): void {
  describe(title, () => {
    let completed = 0;
    it.each(allCases)('$source $id', (c) => {
      check(c);
      completed++;
    });
    // vitest requires a destructuring pattern for the (unused) context argument.
    afterAll(({}, suite) => {
      expect(suite.tasks).toHaveLength(EXPECTED_CASE_COUNT);
      expect(completed).toBe(suite.tasks.filter((t) => t.mode === 'run').length);
    });
  });
}

/**
 * The agent to ask the library with for vector `c`. A few vectors ask as '', 'Foo Bar' or
 * 'AB42bot', which are no product tokens: the library refuses them (docs/API.md "User
 * agents"), asserted here. Google's matcher compares such a string whole with each line's
 * leading token, so only a line whose token is empty could name it; none of these files
 * has one (asserted), so Google answers from the `*` groups, which '*' asks for.
 */
function agentFor(c: SourcedCase, profile: 'google' | 'rfc'): string {
  if (isValidProductToken(c.useragent)) return c.useragent;
  const robots = parseCached(caseBody(c), profile);
  expect(() => robots.isAllowed(c.url, c.useragent), `${c.id}: ${JSON.stringify(c.useragent)} is refused`).toThrow(TypeError);
  expect(robots.groups.some((g) => g.agents.includes('')), `${c.id}: a line with an empty token`).toBe(false);
  return '*';
}

describeEveryVector('google profile: every vector as recorded', (c) => {
  const verdict = evaluateAllPaths(caseBody(c), agentFor(c, 'google'), c.url, 'google');
  expect(verdict.allowed).toBe(c.expected_allowed);
});

describeEveryVector('rfc profile: every vector as recorded, except the listed RFC differences (asserted)', (c) => {
  const difference = differences.get(c.id);
  const verdict = evaluateAllPaths(caseBody(c), agentFor(c, 'rfc'), c.url, 'rfc');
  if (difference === undefined) expect(verdict.allowed).toBe(c.expected_allowed);
  else expect(verdict.allowed, difference.reason).toBe(difference.rfcExpected);
});

describe('CLI `robotstxt check` agrees with explain() on every vector', () => {
  // In-process runCheck (src/cli/check.ts): one run per robots.txt, agent and profile,
  // all of that group's URLs on stdin, one `allow|disallow<TAB>LINE<TAB>URL` row each.
  const dir = mkdtempSync(join(tmpdir(), 'robotstxt-conformance-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const groups = new Map<string, SourcedCase[]>();
  for (const c of allCases) {
    // Agents that are no product tokens are asked as '*' (see agentFor).
    const key = JSON.stringify([c.robotstxt_base64 ?? c.robotstxt, isValidProductToken(c.useragent) ? c.useragent : '*']);
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  let fileIndex = 0;
  for (const profile of ['google', 'rfc'] as const) {
    it(`${profile}: ${groups.size} runs cover all ${EXPECTED_CASE_COUNT} vectors`, async () => {
      let checked = 0;
      for (const cases of groups.values()) {
        const first = cases[0]!;
        const robotsPath = join(dir, `robots-${fileIndex++}.txt`);
        const body = caseBody(first);
        writeFileSync(robotsPath, typeof body === 'string' ? utf8(body) : body);
        const chunks: Buffer[] = [];
        const stdout = new Writable({
          write(chunk: Buffer, _encoding, done) {
            chunks.push(chunk);
            done();
          },
        });
        const stdin = Readable.from([Buffer.from(cases.map((c) => `${c.url}\n`).join(''))]);
        const agent = isValidProductToken(first.useragent) ? first.useragent : '*';
        await runCheck({ robotsPath, agent, profile, urlsPath: '-' }, stdin, stdout);
        const rows = Buffer.concat(chunks).toString('utf8').split('\n');
        expect(rows.pop()).toBe('');
        expect(rows).toHaveLength(cases.length);
        cases.forEach((c, i) => {
          const e = evaluateAllPaths(body, agent, c.url, profile);
          expect(rows[i], c.id).toBe(`${e.allowed ? 'allow' : 'disallow'}\t${e.line}\t${c.url}`);
          checked++;
        });
      }
      expect(checked).toBe(EXPECTED_CASE_COUNT);
    });
  }
});

// ---------------------------------------------------------------------------------------
// google_other_cases.json: the helper-function checks of robots_test.cc and
// reporting_robots_test.cc, mapped onto our public API.
// ---------------------------------------------------------------------------------------
const other = loadOtherCases();

describe('GetPathParamsQuery → toMatchPath', () => {
  it('has the 19 recorded cases', () => expect(other.GetPathParamsQuery.cases).toHaveLength(19));
  for (const profile of ['google', 'rfc'] as const) {
    // None of these URLs holds an escape or a non-ASCII byte, so rfc normalization is a no-op.
    it.each(other.GetPathParamsQuery.cases)(`${profile}: $url (robots_test.cc:$line)`, ({ url, expected_path }) => {
      expect(toMatchPath(url, profile)).toBe(expected_path);
      // The matcher sees the same path: "allow: <path>$" must decide for the URL.
      const robots = `user-agent: *\ndisallow: /\nallow: ${expected_path}$\n`;
      expect(evaluateAllPaths(robots, 'FooBot', url, profile)).toMatchObject({ allowed: true, line: 3 });
    });
  }
});

describe('MaybeEscapePattern → escapePatternGoogle, and rules written that way', () => {
  const cases = other.MaybeEscapePattern.cases;
  it('has the 4 recorded cases', () => expect(cases).toHaveLength(4));
  it.each(cases)('escapePatternGoogle($input) (robots_test.cc:$line)', ({ input, expected }) => {
    expect(new TextDecoder().decode(escapePatternGoogle(utf8(input)))).toBe(expected);
  });
  it.each(cases)('google: a rule "/$input" matches the URL "/$expected"', ({ input, expected }) => {
    // Escaping is per byte, so a leading "/" does not change it.
    const robots = `user-agent: FooBot\ndisallow: /\nallow: /${input}$\n`;
    expect(evaluateAllPaths(robots, 'FooBot', `http://example.com/${expected}`, 'google')).toMatchObject({
      allowed: true,
      line: 3,
    });
    if (input !== expected) {
      // Google compares the URL as given: the unescaped spelling is not matched.
      expect(evaluateAllPaths(robots, 'FooBot', `http://example.com/${input}`, 'google').allowed).toBe(false);
    }
  });
  it.each(cases)('rfc: the rule "/$input" matches both spellings of the URL', ({ input, expected }) => {
    // RFC 9309 §2.2.2: the URL is normalized too, so the escaped and unescaped forms agree.
    const robots = `user-agent: FooBot\ndisallow: /\nallow: /${input}$\n`;
    expect(evaluateAllPaths(robots, 'FooBot', `http://example.com/${expected}`, 'rfc').allowed).toBe(true);
    expect(evaluateAllPaths(robots, 'FooBot', `http://example.com/${input}`, 'rfc').allowed).toBe(true);
  });
});

describe('IsValidUserAgentToObey → isValidProductToken', () => {
  it('has the 11 recorded cases', () => expect(other.IsValidUserAgentToObey.cases).toHaveLength(11));
  // A null string_view is the empty string in JavaScript; both are invalid.
  it.each(other.IsValidUserAgentToObey.cases)('$input (robots_test.cc:$line) → $expected', ({ input, expected }) => {
    expect(isValidProductToken(input)).toBe(expected);
  });
});

const decoder = new TextDecoder();

/** Counts lexer events the way robots_test.cc's RobotsStatsReporter counts callbacks. */
class StatsHandler implements RobotsLineHandler {
  validDirectives = 0;
  unknownDirectives = 0;
  lastLineSeen = 0;
  sitemapText = '';
  userAgent(_value: Uint8Array, line: number): void {
    this.seen(true, line);
  }
  allow(_value: Uint8Array, line: number): void {
    this.seen(true, line);
  }
  disallow(_value: Uint8Array, line: number): void {
    this.seen(true, line);
  }
  sitemap(value: Uint8Array, line: number): void {
    this.sitemapText += decoder.decode(value);
    this.seen(true, line);
  }
  other(_key: Uint8Array, _value: Uint8Array, line: number): void {
    this.seen(false, line);
  }
  private seen(valid: boolean, line: number): void {
    if (valid) this.validDirectives++;
    else this.unknownDirectives++;
    this.lastLineSeen = line;
  }
}

describe('RobotsStatsReporter → lexRobots events (google profile)', () => {
  it('has the 12 recorded cases', () => expect(other.parse_stats_RobotsStatsReporter.cases).toHaveLength(12));
  it.each(other.parse_stats_RobotsStatsReporter.cases)('$name (robots_test.cc:$line)', (c) => {
    const body = caseBody(c);
    const handler = new StatsHandler();
    lexRobots(typeof body === 'string' ? utf8(body) : body, handler, 'google');
    const seen = {
      valid_directives: handler.validDirectives,
      unknown_directives: handler.unknownDirectives,
      last_line_seen: handler.lastLineSeen,
      sitemap: handler.sitemapText,
    };
    // Only the keys present in `expected` are asserted upstream, so only those here.
    const asserted = Object.fromEntries(Object.keys(c.expected).map((k) => [k, seen[k as keyof typeof seen]]));
    expect(asserted).toEqual(c.expected);
  });
});

// reporting_robots.cc kUnsupportedTags: known non-REP keys, reported as "Unused".
const UNSUPPORTED_TAGS = new Set([
  'clean-param', 'content-signal', 'content-usage', 'crawl-delay', 'domain', 'host', 'noarchive',
  'nofollow', 'noindex', 'request-rate', 'revisit-after', 'visit-time',
]);

type LineEvent =
  | { kind: 'UserAgent' | 'Allow' | 'Disallow' | 'Sitemap'; value: Uint8Array }
  | { kind: 'other'; key: string; value: Uint8Array }
  | { kind: 'comment' | 'invalid' };

/** Collects every lexer event per line number. */
function lexByLine(body: string, profile: 'rfc' | 'google'): { lines: Map<number, LineEvent[]>; lineCount: number } {
  const lines = new Map<number, LineEvent[]>();
  const add = (line: number, e: LineEvent): void => {
    lines.set(line, [...(lines.get(line) ?? []), e]);
  };
  const lineCount = lexRobots(
    utf8(body),
    {
      userAgent: (value, line) => add(line, { kind: 'UserAgent', value }),
      allow: (value, line) => add(line, { kind: 'Allow', value }),
      disallow: (value, line) => add(line, { kind: 'Disallow', value }),
      sitemap: (value, line) => add(line, { kind: 'Sitemap', value }),
      other: (key, value, line) => add(line, { kind: 'other', key: decoder.decode(key), value }),
      comment: (_text, line) => add(line, { kind: 'comment' }),
      invalid: (_text, line) => add(line, { kind: 'invalid' }),
    },
    profile,
  );
  return { lines, lineCount };
}

const DIRECTIVES = new Set(['UserAgent', 'Allow', 'Disallow', 'Sitemap']);

/** The tag reporting_robots.cc would give a line, from our lexer's events for it. */
function tagOf(events: readonly LineEvent[]): ParsedLineExpectation['tag_name'] {
  for (const e of events) {
    if (DIRECTIVES.has(e.kind)) return e.kind as ParsedLineExpectation['tag_name'];
    if (e.kind === 'other') return UNSUPPORTED_TAGS.has(e.key.toLowerCase()) ? 'Unused' : 'Unknown';
  }
  return 'Unknown';
}

describe('RobotsParsingReporter → lexRobots events, line by line', () => {
  const cases = other.line_metadata_RobotsParsingReporter.cases;
  it('has the 4 recorded cases', () => expect(cases).toHaveLength(4));
  it.each(cases)('$name (reporting_robots_test.cc:$line): directive count and last line', (c) => {
    const { lines, lineCount } = lexByLine(c.robotstxt, 'google');
    const directives = [...lines.values()].flat().filter((e) => DIRECTIVES.has(e.kind)).length;
    expect(directives).toBe(c.expected.valid_directives);
    // reporting_robots.cc also reports the empty line after a final line break; lexRobots
    // counts lines that hold something or end with a break, so it is one less then.
    const trailingEmptyLine = /[\r\n]$/.test(c.robotstxt) ? 1 : 0;
    expect(lineCount + trailingEmptyLine).toBe(c.expected.last_line_seen);
  });

  const withLines = cases.filter((c) => (c.expected_lines?.length ?? 0) > 0);
  it('has per-line expectations for 2 files (19 lines)', () => {
    expect(withLines.map((c) => c.expected_lines!.length)).toEqual([16, 3]);
  });
  for (const c of withLines) {
    const google = lexByLine(c.robotstxt, 'google').lines;
    const rfc = lexByLine(c.robotstxt, 'rfc').lines;
    it.each(c.expected_lines!)(`reporting_robots_test.cc:${c.line} line $line_num → $tag_name`, (want) => {
      const events = google.get(want.line_num) ?? [];
      const kinds = events.map((e) => e.kind);
      const hasDirective = kinds.some((k) => DIRECTIVES.has(k) || k === 'other');
      expect({
        tag_name: tagOf(events),
        is_empty: events.length === 0,
        has_comment: kinds.includes('comment'),
        is_comment: kinds.length === 1 && kinds[0] === 'comment',
        has_directive: hasDirective,
      }).toEqual({
        tag_name: want.tag_name,
        is_empty: want.metadata.is_empty,
        has_comment: want.metadata.has_comment,
        is_comment: want.metadata.is_comment,
        has_directive: want.metadata.has_directive,
      });

      // Profile differences on the same line: typos and a missing colon are Google-only.
      const rfcEvents = rfc.get(want.line_num) ?? [];
      const rfcKinds = rfcEvents.filter((e) => e.kind !== 'comment').map((e) => e.kind);
      if (want.is_typo) {
        expect(want.metadata.is_acceptable_typo).toBe(true);
        expect(rfcKinds, 'rfc: a misspelt key is an other record').toEqual(['other']);
      } else if (want.metadata.is_missing_colon_separator) {
        expect(rfcKinds, 'rfc: a line without a colon is invalid').toEqual(['invalid']);
      } else {
        expect(tagOf(rfcEvents), 'rfc: same tag as google').toBe(want.tag_name);
      }

      if (want.metadata.is_line_too_long) {
        // Google-compat: the line is cut at GOOGLE_MAX_LINE_BYTES; RFC reads it whole.
        const rawLine = c.robotstxt.split('\n')[want.line_num - 1]!;
        expect(utf8(rawLine).length).toBeGreaterThan(GOOGLE_MAX_LINE_BYTES);
        const keyPrefix = rawLine.indexOf(':') + 2; // "disallow: "
        const valueOf = (es: LineEvent[]): number => {
          const e = es.find((x) => DIRECTIVES.has(x.kind)) as { value: Uint8Array } | undefined;
          return e ? e.value.length : -1;
        };
        expect(valueOf(events)).toBe(GOOGLE_MAX_LINE_BYTES - keyPrefix);
        expect(valueOf(rfcEvents)).toBe(utf8(rawLine).length - keyPrefix);
      }
    });
  }
});
