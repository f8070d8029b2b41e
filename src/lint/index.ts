// lintRobots: what is wrong or surprising in a robots.txt, as diagnostics with line, severity and a stable code.
import { describe, expectBytes } from '../errors.js';
import { lexLines, type Profile } from '../parse/lexer.js';
import { DEFAULT_MAX_BYTES } from '../robots.js';
import { scanBytes, withinLimit } from './bytes.js';
import { type LintCode, type LintSeverity } from './codes.js';
import { KindSink, LintSink } from './rules.js';

export { LINT_CODES, LINT_CODE_TABLE, type LintCode, type LintOwnCode, type LintSeverity } from './codes.js';

/** One finding of {@link lintRobots}. */
export interface LintDiagnostic {
  /** 1-based line; 0 for findings about the whole file (a fetch outcome). */
  readonly line: number;
  /** 1-based byte column in the line, where one place in it is to blame. */
  readonly column?: number;
  readonly severity: LintSeverity;
  /** Stable identifier: one of LINT_CODES (ACAP findings keep the ACAP collector's codes). */
  readonly code: LintCode;
  /** One line, saying what is wrong and what parsers do with it. */
  readonly message: string;
}

/** Options of {@link lintRobots}. */
export interface LintOptions {
  /** The profile whose reading is linted (default `'rfc'`); lines the two profiles read differently are reported either way. */
  readonly profile?: Profile;
  /** The parse limit (default 512,000 bytes, as `Robots.parse`): content past it is reported as ignored, not linted. */
  readonly maxBytes?: number;
}

const encoder = new TextEncoder();
const SEVERITY_ORDER: Readonly<Record<LintSeverity, number>> = { info: 0, warning: 1, error: 2 };

/**
 * The worst severity among `diagnostics`, or null when there are none.
 * @example worstSeverity([{ line: 1, severity: 'info', code: 'bom', message: '…' }]) // 'info'
 */
export function worstSeverity(diagnostics: readonly LintDiagnostic[]): LintSeverity | null {
  let worst: LintSeverity | null = null;
  for (const d of diagnostics) if (worst === null || SEVERITY_ORDER[d.severity] > SEVERITY_ORDER[worst]) worst = d.severity;
  return worst;
}

function checkOptions(options: unknown): { profile: Profile; maxBytes: number } {
  if (options === undefined) return { profile: 'rfc', maxBytes: DEFAULT_MAX_BYTES };
  if (typeof options !== 'object' || options === null) throw new TypeError(`options must be an object, got ${describe(options)}`);
  for (const key of Object.keys(options)) {
    if (key !== 'profile' && key !== 'maxBytes') throw new TypeError(`options.${key} is not a lint option (expected profile, maxBytes)`);
  }
  const { profile = 'rfc', maxBytes = DEFAULT_MAX_BYTES } = options as LintOptions;
  if (profile !== 'rfc' && profile !== 'google') throw new TypeError(`options.profile must be 'rfc' or 'google', got ${JSON.stringify(profile)}`);
  if (typeof maxBytes !== 'number') throw new TypeError(`options.maxBytes must be a non-negative integer, got ${describe(maxBytes)}`);
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) throw new RangeError(`options.maxBytes must be a non-negative integer, got ${String(maxBytes)}`);
  return { profile, maxBytes };
}

/**
 * Lints a robots.txt body (UTF-8 string or raw bytes, as served): one lexer pass per
 * profile (a linter is one more handler of the lexer, as in robots.cc), the groups exactly
 * as `Robots.parse` builds them, and the ACAP collector's diagnostics. Sorted by line, then
 * column. LINT_CODE_TABLE lists every code with its severity and meaning.
 * @throws TypeError / RangeError when `body` or `options` are malformed (never for content)
 * @example
 * lintRobots('Disallow: /x\nUser-agent: *\nDisalow: /y\n')
 * // [{ line: 1, severity: 'error', code: 'rule-before-user-agent', … },
 * //  { line: 2, severity: 'warning', code: 'empty-group', … },
 * //  { line: 3, column: 1, severity: 'error', code: 'key-typo', … }]
 */
export function lintRobots(body: string | Uint8Array, options?: LintOptions): LintDiagnostic[] {
  const { profile, maxBytes } = checkOptions(options);
  let bytes: Uint8Array;
  if (typeof body === 'string') bytes = encoder.encode(body);
  else if (body instanceof Uint8Array) {
    expectBytes(body, 'body');
    bytes = Object.getPrototypeOf(body) === Uint8Array.prototype ? body : new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  } else throw new TypeError(`body must be a string or Uint8Array, got ${describe(body)}`);

  const { kept, cut } = withinLimit(bytes, maxBytes);
  const scan = scanBytes(kept);
  const sink = new LintSink(kept, profile, scan.lineStarts);
  const lineCount = lexLines(kept, sink, profile === 'google');
  const other = new KindSink();
  lexLines(kept, other, profile !== 'google');
  sink.finish(other.kinds);

  const diagnostics = [...scan.diagnostics, ...sink.diagnostics];
  if (cut) {
    const line = kept.length === 0 ? 1 : lineCount + 1;
    diagnostics.push({
      line, column: 1, severity: 'warning', code: 'past-parse-limit',
      message: `the file is ${bytes.length} bytes, over the parse limit of ${maxBytes}: everything from this line (byte ${kept.length}) on is ignored (RFC 9309 §2.5)`,
    });
  }
  return diagnostics.sort((a, b) => a.line - b.line || (a.column ?? 0) - (b.column ?? 0));
}
