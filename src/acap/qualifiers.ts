// ACAP qualifiers (§2.4.1.2, §2.5, §3): `name=value` text → structured, validated AcapQualifier values.
import type {
  AcapDiagnosticCode,
  AcapModification,
  AcapQualifier,
  AcapQualifierType,
  AcapResourceTarget,
  AcapTimeLimit,
  AcapUsage,
} from './model.js';
import { isAcapName, qualifierAllowed, usagesForQualifier } from './usages.js';

/**
 * A problem with one qualifier; the collector prefixes the field and adds the line.
 * @example
 * parseQualifiers('time-limit=soon', 'index').problems[0]; // { code: 'invalid-qualifier', message: 'time-limit=soon: expected …' }
 */
export interface QualifierProblem {
  readonly code: AcapDiagnosticCode;
  readonly message: string;
}

/**
 * The outcome of reading a field's qualifiers; any problem means the field is not used.
 * @example
 * const r: QualifierParse = parseQualifiers('max-length=30-words', 'present-snippet'); // r.problems: []
 */
export interface QualifierParse {
  readonly qualifiers: AcapQualifier[];
  readonly problems: QualifierProblem[];
  /** Accepted with a remark (e.g. the `until-recrawl` spelling of §2.4.1.2). */
  readonly notes: QualifierProblem[];
}

const QUALIFIER_TYPES: readonly AcapQualifierType[] = [
  'time-limit',
  'max-length',
  'must-use-resource',
  'must-include-resource',
  'prohibited-modification',
  'prohibited-context',
  'required-context',
];
const MODIFICATIONS: readonly AcapModification[] = ['any', 'format', 'style', 'translation', 'annotation'];

function isWsp(c: number): boolean {
  return c === 0x20 || c === 0x09;
}

function isNameChar(c: number): boolean {
  const l = c | 0x20;
  return (l >= 0x61 && l <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x5f || c === 0x2e;
}

/**
 * One `qualifier-type *WSP "=" *WSP qualifier-value` (§3) as written.
 * @example
 * splitQualifierSpecs('time-limit = 3-days').specs[0]; // { name: 'time-limit', value: '3-days' }
 */
export interface QualifierSpec {
  readonly name: string;
  readonly value: string;
}

/**
 * Splits the text after a resource specification into `name=value` specs. §3 allows
 * whitespace around `=`, so `time-limit = 3-days` is one spec.
 * @example
 * splitQualifierSpecs('time-limit=5-days max-length = 250-chars');
 * // { specs: [{ name: 'time-limit', value: '5-days' }, { name: 'max-length', value: '250-chars' }], error: null }
 */
export function splitQualifierSpecs(text: string): { specs: QualifierSpec[]; error: string | null } {
  const specs: QualifierSpec[] = [];
  const n = text.length;
  let i = 0;
  const tokenAt = (from: number): string => {
    let end = from;
    while (end < n && !isWsp(text.charCodeAt(end))) end++;
    return text.slice(from, end);
  };
  for (;;) {
    while (i < n && isWsp(text.charCodeAt(i))) i++;
    if (i >= n) break;
    const start = i;
    while (i < n && isNameChar(text.charCodeAt(i))) i++;
    const name = text.slice(start, i);
    while (i < n && isWsp(text.charCodeAt(i))) i++;
    if (!isAcapName(name) || text.charCodeAt(i) !== 0x3d) {
      return { specs, error: `'${tokenAt(start)}' is not a qualifier (expected qualifier-type=qualifier-value, §3)` };
    }
    i++;
    while (i < n && isWsp(text.charCodeAt(i))) i++;
    const value = tokenAt(i);
    if (value.length === 0) return { specs, error: `qualifier '${name}' has no value (§3)` };
    i += value.length;
    specs.push({ name, value });
  }
  return { specs, error: null };
}

/** §3 value-char = %x21 / %x24-26 / %x28-7E: no `"`, `#`, `'`, spaces or non-ASCII. */
function badValueChar(value: string): string | null {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x21 || c > 0x7e || c === 0x22 || c === 0x23 || c === 0x27) return value[i]!;
  }
  return null;
}

function isLeapYear(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

function validDate(y: number, m: number, d: number): boolean {
  const days = [31, isLeapYear(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return m >= 1 && m <= 12 && d >= 1 && d <= days[m - 1]!;
}

function allDigits(s: string): boolean {
  if (s.length === 0) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
}

/** A non-negative integer written in decimal, or null when not one / not exactly representable. */
function parseCount(s: string): number | null {
  if (!allDigits(s)) return null;
  const n = Number(s);
  return Number.isSafeInteger(n) ? n : null;
}

type Parsed = { qualifier: AcapQualifier; note?: string } | { error: string };

/** §2.5.3.1: `until-recrawled`, `until-yyyy-mm-dd` (a real calendar date) or `n-days`. */
function parseTimeLimit(text: string, value: string): Parsed {
  const v = value.toLowerCase();
  const ok = (limit: AcapTimeLimit, note?: string): Parsed =>
    note === undefined ? { qualifier: { type: 'time-limit', text, limit } } : { qualifier: { type: 'time-limit', text, limit }, note };
  if (v === 'until-recrawled') return ok({ kind: 'until-recrawled' });
  // ACAP §2.4.1.2 writes `time-limit=until-recrawl` in its own example, while §2.5.3.1
  // defines `until-recrawled`: accept the spec's spelling, and say so.
  if (v === 'until-recrawl') {
    return ok({ kind: 'until-recrawled' }, `time-limit=${value} read as until-recrawled (§2.5.3.1 spelling)`);
  }
  if (v.startsWith('until-')) {
    const date = v.slice(6);
    const parts = date.split('-');
    if (parts.length === 3 && parts[0]!.length === 4 && parts[1]!.length === 2 && parts[2]!.length === 2 && parts.every(allDigits)) {
      const [y, m, d] = parts.map(Number) as [number, number, number];
      if (validDate(y, m, d)) return ok({ kind: 'until-date', date });
      return { error: `time-limit=${value}: ${date} is not a calendar date` };
    }
    return { error: `time-limit=${value}: expected until-recrawled, until-YYYY-MM-DD or N-days (§2.5.3.1)` };
  }
  if (v.endsWith('-days')) {
    const days = parseCount(v.slice(0, -5));
    if (days !== null) return ok({ kind: 'days', days });
  }
  return { error: `time-limit=${value}: expected until-recrawled, until-YYYY-MM-DD or N-days (§2.5.3.1)` };
}

/** §2.5.5.2.3: `n-chars` or `n-words`. */
function parseMaxLength(text: string, value: string): Parsed {
  const v = value.toLowerCase();
  const dash = v.lastIndexOf('-');
  const unit = v.slice(dash + 1);
  const count = dash > 0 ? parseCount(v.slice(0, dash)) : null;
  if (count === null || (unit !== 'chars' && unit !== 'words')) {
    return { error: `max-length=${value}: expected N-chars or N-words (§2.5.5.2.3)` };
  }
  return { qualifier: { type: 'max-length', text, count, unit } };
}

/** `id:x`, `class:x`, `meta:x` designate an element of the crawled page (§2.5.3.2, §2.5.5.2.5). */
function elementTarget(locator: string): AcapResourceTarget | null {
  const colon = locator.indexOf(':');
  if (colon < 0) return null;
  const kind = locator.slice(0, colon).toLowerCase();
  const name = locator.slice(colon + 1);
  if ((kind === 'id' || kind === 'class' || kind === 'meta') && name.length > 0) return { kind, name };
  return null;
}

const SCHEME = 'the-acap:';

/** §2.5.3.2: a regular URI, or `the-acap:extract:(id|class|meta):name`. */
function parseMustUse(text: string, value: string): Parsed {
  if (!value.toLowerCase().startsWith(SCHEME)) {
    return { qualifier: { type: 'must-use-resource', text, uri: value, target: { kind: 'uri', uri: value } } };
  }
  const rest = value.slice(SCHEME.length);
  const target = rest.toLowerCase().startsWith('extract:') ? elementTarget(rest.slice(8)) : null;
  if (target === null) {
    return { error: `must-use-resource=${value}: expected a URI or the-acap:extract:(id|class|meta):name (§2.5.3.2)` };
  }
  return { qualifier: { type: 'must-use-resource', text, uri: value, target } };
}

/** §2.5.5.2.5: a general URI, or `the-acap:(credit|link):(id:x|class:x|meta:x|general-URI)`. */
function parseMustInclude(text: string, value: string): Parsed {
  if (!value.toLowerCase().startsWith(SCHEME)) {
    return { qualifier: { type: 'must-include-resource', text, uri: value, role: null, target: { kind: 'uri', uri: value } } };
  }
  const rest = value.slice(SCHEME.length);
  const colon = rest.indexOf(':');
  const role = colon > 0 ? rest.slice(0, colon).toLowerCase() : '';
  const locator = colon > 0 ? rest.slice(colon + 1) : '';
  if ((role !== 'credit' && role !== 'link') || locator.length === 0) {
    return { error: `must-include-resource=${value}: expected a URI or the-acap:(credit|link):locator (§2.5.5.2.5)` };
  }
  const target = elementTarget(locator) ?? { kind: 'uri' as const, uri: locator };
  return { qualifier: { type: 'must-include-resource', text, uri: value, role, target } };
}

function parseOne(type: AcapQualifierType, value: string): Parsed {
  const text = `${type}=${value}`;
  switch (type) {
    case 'time-limit':
      return parseTimeLimit(text, value);
    case 'max-length':
      return parseMaxLength(text, value);
    case 'must-use-resource':
      return parseMustUse(text, value);
    case 'must-include-resource':
      return parseMustInclude(text, value);
    case 'prohibited-modification': {
      const m = value.toLowerCase() as AcapModification;
      if (!MODIFICATIONS.includes(m)) return { error: `prohibited-modification=${value}: expected one of ${MODIFICATIONS.join(', ')} (§2.5.5.2.4)` };
      return { qualifier: { type, text, modification: m } };
    }
    case 'prohibited-context':
      if (value.toLowerCase() !== 'within-user-frame') return { error: `prohibited-context=${value}: expected within-user-frame (§2.5.5.2.6)` };
      return { qualifier: { type, text, context: 'within-user-frame' } };
    case 'required-context':
      if (value.toLowerCase() !== 'within-original-frame') return { error: `required-context=${value}: expected within-original-frame (§2.5.5.2.7)` };
      return { qualifier: { type, text, context: 'within-original-frame' } };
  }
}

/**
 * Reads the qualifiers written after a resource specification (or after the standard
 * usage of a qualified usage definition) for `usage`, checking each value, that the
 * qualifier may restrict `usage` (§2.5), and that only `prohibited-modification` repeats,
 * never together with `any` (§2.5.5.2, §2.5.5.2.4).
 * @example
 * parseQualifiers('time-limit=3-days', 'index').qualifiers;
 * // [{ type: 'time-limit', text: 'time-limit=3-days', limit: { kind: 'days', days: 3 } }]
 * parseQualifiers('max-length=30-words', 'index').problems[0].code; // 'qualifier-not-allowed'
 */
export function parseQualifiers(text: string, usage: AcapUsage): QualifierParse {
  const qualifiers: AcapQualifier[] = [];
  const problems: QualifierProblem[] = [];
  const notes: QualifierProblem[] = [];
  const { specs, error } = splitQualifierSpecs(text);
  if (error !== null) problems.push({ code: 'invalid-qualifier', message: error });
  for (const spec of specs) {
    const type = spec.name.toLowerCase() as AcapQualifierType;
    if (!QUALIFIER_TYPES.includes(type)) {
      problems.push({ code: 'invalid-qualifier', message: `'${spec.name}' is not an ACAP 1.0 qualifier type (§2.5)` });
      continue;
    }
    const bad = badValueChar(spec.value);
    if (bad !== null) {
      problems.push({ code: 'invalid-qualifier', message: `${type}=${spec.value}: '${bad}' is not allowed in a qualifier value (§3; write it as %nn)` });
      continue;
    }
    const parsed = parseOne(type, spec.value);
    if ('error' in parsed) {
      problems.push({ code: 'invalid-qualifier', message: parsed.error });
      continue;
    }
    if (!qualifierAllowed(type, usage)) {
      problems.push({
        code: 'qualifier-not-allowed',
        message: `${type} cannot qualify ${usage} (§2.5: only ${usagesForQualifier(type).join(', ')})`,
      });
      continue;
    }
    if (parsed.note !== undefined) notes.push({ code: 'qualifier-spelling', message: parsed.note });
    qualifiers.push(parsed.qualifier);
  }
  problems.push(...repetitionProblems(qualifiers));
  return { qualifiers, problems, notes };
}

function repetitionProblems(qualifiers: readonly AcapQualifier[]): QualifierProblem[] {
  const problems: QualifierProblem[] = [];
  const seen = new Set<string>();
  const modifications: AcapModification[] = [];
  for (const q of qualifiers) {
    if (q.type === 'prohibited-modification') {
      // §2.5.5.2.4: "may be repeated within a permission, except if the prohibited modification is any".
      if (modifications.includes(q.modification)) {
        problems.push({ code: 'qualifier-repeated', message: `${q.text} is repeated` });
      }
      modifications.push(q.modification);
      continue;
    }
    // §2.5.5.2: "any individual qualifier may only occur once in a permission field".
    if (seen.has(q.type)) problems.push({ code: 'qualifier-repeated', message: `${q.type} may only occur once in a field (§2.5.5.2)` });
    seen.add(q.type);
  }
  if (modifications.includes('any') && new Set(modifications).size > 1) {
    problems.push({
      code: 'qualifier-repeated',
      message: 'prohibited-modification=any cannot be combined with other prohibited-modification qualifiers (§2.5.5.2.4)',
    });
  }
  return problems;
}
