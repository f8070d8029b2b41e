// `robotstxt lint FILE|URL`: lintRobots' diagnostics as text or JSON, the exit status by the worst severity.
import { readFileSync } from 'node:fs';
import { DEFAULT_MAX_BYTES, MIN_MAX_BYTES, fetchRobots, type FetchLike, type RobotsFetchResult } from '../fetch/index.js';
import { lintRobots, worstSeverity, type LintDiagnostic } from '../lint/index.js';
import type { Profile } from '../parse/lexer.js';
import { stringOption, type Command } from './command.js';
import { CliError, fileErrorText } from './errors.js';
import { describeFetch, isRobotsUrl, withCliFetch, type CliFetchOptions } from './fetch.js';
import { FETCH_OPTIONS, MAX_ROBOTS_OPTION, fetchSettings, maxRobotsBytes, oneOf, refuse } from './options.js';

/** Exit statuses of `lint`: 2 stays the CLI's usage error, so errors found in the file are 3. */
export const LINT_EXIT = Object.freeze({ clean: 0, warning: 1, usage: 2, error: 3 });

/** What was linted: where it came from, and the diagnostics. */
export interface LintReport {
  /** The file path, or the robots.txt URL fetched. */
  readonly source: string;
  readonly profile: Profile;
  readonly diagnostics: readonly LintDiagnostic[];
}

/**
 * A FetchLike that keeps the body of the last 2xx response as it streams through to
 * fetchRobots, up to `limit` bytes (fetchRobots reads one byte past its limit, so the
 * linter sees that the file was cut).
 */
function recordingFetch(inner: FetchLike, limit: number): { fetch: FetchLike; body: () => Uint8Array } {
  let chunks: Uint8Array[] = [];
  let length = 0;
  const fetch: FetchLike = async (url, init) => {
    const response = await inner(url, init);
    if (response.status < 200 || response.status > 299 || response.status === 204 || response.status === 205 || response.body === null) return response;
    chunks = [];
    length = 0;
    const body = response.body.pipeThrough(new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        if (length < limit) {
          const part = chunk.subarray(0, limit - length);
          chunks.push(part);
          length += part.length;
        }
        controller.enqueue(chunk);
      },
    }));
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  return { fetch, body: () => Buffer.concat(chunks, length) };
}

/** The fetch outcome as a diagnostic (line 0), or null for `ok`. */
function fetchDiagnostic(result: RobotsFetchResult): LintDiagnostic | null {
  if (result.status === 'ok') return null;
  const described = describeFetch(result) ?? result.status;
  // describeFetch names the URL first; the diagnostic's source already does.
  const message = described.startsWith(`${result.url}: `) ? described.slice(result.url.length + 2) : described;
  return result.status === 'unavailable'
    ? { line: 0, severity: 'warning', code: 'fetch-unavailable', message }
    : { line: 0, severity: 'error', code: 'fetch-unreachable', message };
}

/**
 * Lints a file, or the robots.txt of a URL's site (RFC 9309 §2.3: `/robots.txt` of its
 * origin) fetched with the CLI's HTTP client; a fetch that is not `ok` is one diagnostic.
 * @example await lintSource('robots.txt', 'rfc', settings) // { source: 'robots.txt', profile: 'rfc', diagnostics: [...] }
 */
export async function lintSource(source: string, profile: Profile, settings: CliFetchOptions, fetch?: FetchLike): Promise<LintReport> {
  if (!isRobotsUrl(source)) {
    let body: Uint8Array;
    try {
      body = readFileSync(source);
    } catch (error) {
      throw new CliError(`cannot read ${source}: ${fileErrorText(error)}`);
    }
    return { source, profile, diagnostics: lintRobots(body, { profile, maxBytes: settings.maxBytes ?? DEFAULT_MAX_BYTES }) };
  }
  let url: URL;
  try {
    url = new URL(source);
  } catch {
    throw new CliError(`${JSON.stringify(source)} is not a valid URL`);
  }
  if (url.hostname === '') throw new CliError(`${JSON.stringify(source)} has no host`);
  return withCliFetch(fetch, settings.timeoutMs, async (client) => {
    const maxBytes = settings.maxBytes ?? DEFAULT_MAX_BYTES;
    const recorder = recordingFetch(client, maxBytes + 1);
    let result: RobotsFetchResult;
    try {
      result = await fetchRobots(url, { userAgent: settings.userAgent, timeoutMs: settings.timeoutMs, maxBytes, profile, fetch: recorder.fetch });
    } catch (error) {
      if (error instanceof TypeError || error instanceof RangeError) throw new CliError(`cannot fetch ${source}: ${error.message}`);
      throw error;
    }
    const failed = fetchDiagnostic(result);
    const diagnostics = failed === null ? lintRobots(recorder.body(), { profile, maxBytes }) : [failed];
    return { source: result.url, profile, diagnostics };
  });
}

/**
 * One diagnostic as a text line, compiler style: `SOURCE:LINE:COLUMN: severity: message [code]`
 * (no column when none applies, no line for line 0).
 * @example formatDiagnostic('robots.txt', { line: 3, column: 1, severity: 'error', code: 'key-typo', message: 'm' }) // 'robots.txt:3:1: error: m [key-typo]'
 */
export function formatDiagnostic(source: string, d: LintDiagnostic): string {
  const where = d.line === 0 ? source : d.column === undefined ? `${source}:${d.line}` : `${source}:${d.line}:${d.column}`;
  return `${where}: ${d.severity}: ${d.message} [${d.code}]`;
}

/** Counts per severity. */
export function countSeverities(diagnostics: readonly LintDiagnostic[]): { error: number; warning: number; info: number } {
  const counts = { error: 0, warning: 0, info: 0 };
  for (const d of diagnostics) counts[d.severity]++;
  return counts;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** `robotstxt lint`: one entry of the CLI's command table (src/cli/main.ts). */
export const lintCommand: Command = {
  name: 'lint',
  summary: 'report what is wrong or surprising in a robots.txt (a file, or fetched)',
  synopsis: ['lint [--format text|json] [--profile rfc|google] FILE|URL'],
  description: `Prints one diagnostic per line: SOURCE:LINE[:COLUMN]: SEVERITY: MESSAGE [CODE]
(--format json: one object with source, profile, diagnostics and counts). COLUMN is a
1-based byte column. Lines the rfc and google profiles read differently are reported
under either profile; --profile picks whose groups and patterns are checked.

A URL (http(s)://...) fetches the robots.txt of its origin; an outcome other than ok is
reported as a diagnostic (fetch-unavailable, fetch-unreachable) on line 0.

Exit status: 0 nothing or only info, 1 warnings, 3 errors, 2 usage error (bad option,
unreadable file).`,
  options: {
    format: { type: 'string', value: 'text|json', help: 'output (default text)' },
    profile: { type: 'string', value: 'rfc|google', help: 'whose reading is linted (default rfc)' },
    quiet: { type: 'boolean', help: 'no summary line on stderr' },
    'max-robots-bytes': {
      ...MAX_ROBOTS_OPTION,
      help: `the parse limit linted against: lines past it get past-parse-limit (default ${DEFAULT_MAX_BYTES}, at least ${MIN_MAX_BYTES}, RFC 9309 §2.5)`,
    },
    ...FETCH_OPTIONS,
  },
  async run(args, context) {
    if (args.positionals.length !== 1) {
      throw new CliError(`lint takes one FILE or URL, got ${args.positionals.length === 0 ? 'none' : args.positionals.map((p) => JSON.stringify(p)).join(' ')}`);
    }
    const source = args.positionals[0]!;
    if (!isRobotsUrl(source)) refuse(args, Object.keys(FETCH_OPTIONS), 'applies only when linting a URL (http(s)://...)');
    const format = oneOf<'text' | 'json'>('format', stringOption(args, 'format'), ['text', 'json'], 'text');
    const profile = oneOf<Profile>('profile', stringOption(args, 'profile'), ['rfc', 'google'], 'rfc');
    const report = await lintSource(source, profile, { ...fetchSettings(args), maxBytes: maxRobotsBytes(args) });
    const counts = countSeverities(report.diagnostics);
    if (format === 'json') {
      context.stdout.write(`${JSON.stringify({ source: report.source, profile, diagnostics: report.diagnostics, counts })}\n`);
    } else {
      for (const d of report.diagnostics) context.stdout.write(`${formatDiagnostic(report.source, d)}\n`);
    }
    if (args.values.quiet !== true) {
      context.stderr.write(`${report.source}: ${plural(counts.error, 'error')}, ${plural(counts.warning, 'warning')}, ${counts.info} info\n`);
    }
    const worst = worstSeverity(report.diagnostics);
    return worst === 'error' ? LINT_EXIT.error : worst === 'warning' ? LINT_EXIT.warning : LINT_EXIT.clean;
  },
};
