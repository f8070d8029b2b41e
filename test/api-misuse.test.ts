// Public API misuse: every public function and method rejects a wrong argument with a TypeError/RangeError that names it and says what was expected.
//
// House rule (STYLE.md, "Public API"): errors say what was expected and what came, e.g.
// `TypeError('robots.txt body must be a string or Uint8Array, got number')`; a RangeError
// states the value and the limit; nothing is swallowed and nothing fails from deep inside
// (no "x is not a function", no Wasm RuntimeError). Rows: [call, error class, message].
import { describe, expect, it } from 'vitest';
import {
  AgentMatcher, Robots, escapePatternGoogle, isValidProductToken, lexRobots, normalizePattern, normalizePatternRfc, toMatchPath,
  type RobotsLineHandler,
} from '../src/index.js';
import { encodeRuleTable } from '../src/table/encode.js';
import * as F from '../src/table/format.js';

/** Calls with deliberately wrong types: the casts are the point. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;

const BODY = 'User-agent: *\nDisallow: /private\n';
const robots = Robots.parse(BODY);
const matcher = robots.forAgent('bot');
const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

function detached(): Uint8Array {
  const view = bytes('/private\n');
  structuredClone(view.buffer, { transfer: [view.buffer] });
  return view;
}

const handler: RobotsLineHandler = { userAgent() {}, allow() {}, disallow() {}, sitemap() {}, other() {} };

type Row = [name: string, call: () => unknown, error: typeof TypeError | typeof RangeError, message: RegExp];

function runRows(rows: Row[]): void {
  it.each(rows)('%s', (_name, call, error, message) => {
    let thrown: unknown;
    try {
      call();
    } catch (e) {
      thrown = e;
    }
    expect(thrown, 'it throws').toBeDefined();
    expect((thrown as Error).constructor.name, String(thrown)).toBe(error.name);
    expect(String((thrown as Error).message)).toMatch(message);
  });
}

describe('Robots.parse(body, options)', () => {
  runRows([
    ['body 42', () => Robots.parse(42 as Loose), TypeError, /robots\.txt body must be a string or Uint8Array, got number/],
    ['body null', () => Robots.parse(null as Loose), TypeError, /robots\.txt body .*got null/],
    ['body undefined', () => Robots.parse(undefined as Loose), TypeError, /robots\.txt body .*got undefined/],
    ['body an object', () => Robots.parse({ text: BODY } as Loose), TypeError, /robots\.txt body .*got object/],
    ['body an array of bytes', () => Robots.parse([0x55] as Loose), TypeError, /robots\.txt body .*got array/],
    ['body an ArrayBuffer', () => Robots.parse(new ArrayBuffer(8) as Loose), TypeError, /robots\.txt body .*got object/],
    ['body a Uint16Array', () => Robots.parse(new Uint16Array(4) as Loose), TypeError, /robots\.txt body .*got object/],
    ['body a detached Uint8Array', () => Robots.parse(detached()), TypeError, /robots\.txt body is a view of a detached ArrayBuffer/],
    ['options 42', () => Robots.parse(BODY, 42 as Loose), TypeError, /options must be an object, got number/],
    ['options null', () => Robots.parse(BODY, null as Loose), TypeError, /options must be an object, got null/],
    ['options a string', () => Robots.parse(BODY, 'google' as Loose), TypeError, /options must be an object, got string/],
    ['options.profile "GOOGLE"', () => Robots.parse(BODY, { profile: 'GOOGLE' as Loose }), TypeError, /options\.profile must be 'rfc' or 'google', got "GOOGLE"/],
    ['options.profile 1', () => Robots.parse(BODY, { profile: 1 as Loose }), TypeError, /options\.profile must be 'rfc' or 'google', got 1/],
    ['options.maxBytes -1', () => Robots.parse(BODY, { maxBytes: -1 }), RangeError, /options\.maxBytes must be a non-negative integer, got -1/],
    ['options.maxBytes 1.5', () => Robots.parse(BODY, { maxBytes: 1.5 }), RangeError, /options\.maxBytes .*got 1\.5/],
    ['options.maxBytes NaN', () => Robots.parse(BODY, { maxBytes: Number.NaN }), RangeError, /options\.maxBytes .*got NaN/],
    ['options.maxBytes Infinity', () => Robots.parse(BODY, { maxBytes: Number.POSITIVE_INFINITY }), RangeError, /options\.maxBytes .*got Infinity/],
    ['options.maxBytes "100" (a string is a type error)', () => Robots.parse(BODY, { maxBytes: '100' as Loose }), TypeError, /options\.maxBytes must be a (non-negative integer|number).*got string/],
    ['options with an unknown key (a typo must not silently mean the default)', () => Robots.parse(BODY, { profle: 'google' } as Loose), TypeError, /options.*profle/],
  ]);
  it('a Buffer (a Uint8Array subclass) and a view at an offset are fine', () => {
    expect(Robots.parse(Buffer.from(BODY)).isAllowed('/private', 'bot')).toBe(false);
    const padded = Buffer.from(`xx${BODY}`);
    expect(Robots.parse(new Uint8Array(padded.buffer, padded.byteOffset + 2, padded.length - 2)).isAllowed('/private', 'bot')).toBe(false);
  });
});

describe('Robots.allowAll / Robots.disallowAll', () => {
  runRows([
    ['allowAll({ profile: "x" })', () => Robots.allowAll({ profile: 'x' as Loose }), TypeError, /options\.profile must be 'rfc' or 'google', got "x"/],
    ['disallowAll(42)', () => Robots.disallowAll(42 as Loose), TypeError, /options must be an object, got number/],
  ]);
});

describe('Robots methods', () => {
  runRows([
    ['forAgent(42)', () => robots.forAgent(42 as Loose), TypeError, /userAgent must be a string, got number/],
    ['forAgent(undefined)', () => robots.forAgent(undefined as Loose), TypeError, /userAgent must be a string, got undefined/],
    ['forAgent(["bot"])', () => robots.forAgent(['bot'] as Loose), TypeError, /userAgent must be a string, got array/],
    ['rulesFor(null)', () => robots.rulesFor(null as Loose), TypeError, /userAgent must be a string, got null/],
    ['isAllowed(42, "bot")', () => robots.isAllowed(42 as Loose, 'bot'), TypeError, /url must be a string, got number/],
    ['isAllowed(new URL(…), "bot")', () => robots.isAllowed(new URL('https://h/private') as Loose, 'bot'), TypeError, /url must be a string, got object/],
    ['isAllowed("/x", 42)', () => robots.isAllowed('/x', 42 as Loose), TypeError, /userAgent must be a string, got number/],
    ['isAllowed() with no arguments', () => (robots.isAllowed as Loose)(), TypeError, /url must be a string, got undefined/],
    ['explain(null, "bot")', () => robots.explain(null as Loose, 'bot'), TypeError, /url must be a string, got null/],
    ['explain("/x", {})', () => robots.explain('/x', {} as Loose), TypeError, /userAgent must be a string, got object/],
    ['crawlDelay(42)', () => robots.crawlDelay(42 as Loose), TypeError, /userAgent must be a string, got number/],
  ]);
});

describe('AgentMatcher methods', () => {
  runRows([
    ['isAllowed(42)', () => matcher.isAllowed(42 as Loose), TypeError, /url must be a string, got number/],
    ['explain(undefined)', () => matcher.explain(undefined as Loose), TypeError, /url must be a string, got undefined/],
    ['ruleText("2")', () => matcher.ruleText('2' as Loose), TypeError, /line must be a (non-negative integer|number), got string/],
    ['matchBatch("/a")', () => matcher.matchBatch('/a' as Loose), TypeError, /urls must be an array of strings, got string/],
    ['matchBatch(null)', () => matcher.matchBatch(null as Loose), TypeError, /urls must be an array of strings, got null/],
    ['matchBatch(an array-like)', () => matcher.matchBatch({ length: 1, 0: '/a' } as Loose), TypeError, /urls must be an array of strings, got object/],
    ['matchBatch([1])', () => matcher.matchBatch([1] as Loose), TypeError, /urls\[0\] must be a string, got number/],
    ['matchBatch(["/a", null])', () => matcher.matchBatch(['/a', null] as Loose), TypeError, /urls\[1\] must be a string, got null/],
    ['matchBatch(urls, out too small)', () => matcher.matchBatch(['/a', '/b'], new Uint8Array(1)), RangeError, /out has room for 1 verdicts, 2 needed/],
    ['matchBatch(urls, out a plain array)', () => matcher.matchBatch(['/a'], [0] as Loose), TypeError, /out must be a Uint8Array, got array/],
    ['matchBatch(urls, out a Uint32Array)', () => matcher.matchBatch(['/a'], new Uint32Array(1) as Loose), TypeError, /out must be a Uint8Array, got object/],
    ['matchBatch(urls, out detached)', () => matcher.matchBatch(['/a'], detached()), RangeError, /out has room for 0 verdicts, 1 needed/],
    ['decideBatch("/a")', () => matcher.decideBatch('/a' as Loose), TypeError, /urls must be an array of strings, got string/],
    ['decideBatch([{}])', () => matcher.decideBatch([{}] as Loose), TypeError, /urls\[0\] must be a string, got object/],
    ['matchLines("/a\\n")', () => matcher.matchLines('/a\n' as Loose), TypeError, /bytes must be a Uint8Array, got string/],
    ['matchLines(ArrayBuffer)', () => matcher.matchLines(new ArrayBuffer(4) as Loose), TypeError, /bytes must be a Uint8Array, got object/],
    ['matchLines(detached)', () => matcher.matchLines(detached()), TypeError, /bytes is a view of a detached ArrayBuffer/],
    ['matchLines(bytes, out too small)', () => matcher.matchLines(bytes('/a\n/b\n/c'), new Uint8Array(2)), RangeError, /out has room for 2 verdicts, 3 needed/],
    ['matchLines(bytes, out a DataView)', () => matcher.matchLines(bytes('/a'), new DataView(new ArrayBuffer(4)) as Loose), TypeError, /out must be a Uint8Array, got object/],
    ['decideLines(null)', () => matcher.decideLines(null as Loose), TypeError, /bytes must be a Uint8Array, got null/],
    ['decideLines(detached)', () => matcher.decideLines(detached()), TypeError, /bytes is a view of a detached ArrayBuffer/],
  ]);
  it('a larger out is used as is, and only its first verdicts are written', () => {
    const out = new Uint8Array(4).fill(7);
    expect(matcher.matchBatch(['/private', '/ok'], out)).toBe(out);
    expect(Array.from(out)).toEqual([0, 1, 7, 7]);
  });
});

describe('new AgentMatcher(userAgent, profile, table, rules): the public constructor must not trust its table', () => {
  // The constructor is exported; a table it did not build can send the Wasm matcher out of
  // bounds or into an endless KMP loop, so it must be checked (validateRuleTable) up front.
  const valid = encodeRuleTable([{ allow: false, pattern: bytes('/*abab*x'), line: 2 }], { flags: 0 });
  const looping = valid.slice();
  const v = new DataView(looping.buffer);
  const seg = v.getUint32(F.H_SEGMENTS_OFFSET, true) + F.SEGMENT_SIZE; // the "abab" piece
  v.setUint32(v.getUint32(seg + F.S_FAIL_OFFSET, true) + 4, 2, true); // link[1] = 2 > 1
  const outOfBounds = valid.slice();
  new DataView(outOfBounds.buffer).setUint32(F.H_NODES_OFFSET, 0xfffffff0, true);
  runRows([
    ['a table of 10 zero bytes', () => new AgentMatcher('bot', 'rfc', new Uint8Array(10), []), RangeError, /table/],
    ['a table whose node offset points outside memory', () => new AgentMatcher('bot', 'rfc', outOfBounds, []), RangeError, /nodes .* outside/],
    ['a table whose KMP link loops', () => new AgentMatcher('bot', 'rfc', looping, []), RangeError, /failure link/],
    ['a table that is not bytes', () => new AgentMatcher('bot', 'rfc', 'RTBL' as Loose, []), TypeError, /table must be a Uint8Array|rule table must be a Uint8Array/],
    ['an unknown profile', () => new AgentMatcher('bot', 'GOOGLE' as Loose, valid, []), TypeError, /profile must be 'rfc' or 'google'/],
  ]);
  it('a valid table is accepted and matches', () => {
    expect(new AgentMatcher('bot', 'google', valid, []).isAllowed('/zababx')).toBe(false);
  });
  /** The table as constructed decides (/zababx is disallowed), or a RangeError: never a Wasm trap. */
  function expectSafeVerdictOrRangeError(m: AgentMatcher): void {
    let error: unknown = null;
    let verdict: boolean | undefined;
    try {
      verdict = m.isAllowed('/zababx');
    } catch (e) {
      error = e;
    }
    expect(error instanceof WebAssembly.RuntimeError, String(error)).toBe(false);
    if (error === null) expect(verdict).toBe(false);
    else expect(error).toBeInstanceOf(RangeError);
  }
  it('a table changed after construction never reaches the Wasm matcher unchecked', () => {
    // The caller keeps its array: corrupting it before the first match must give either the
    // verdict of the table as constructed (a private copy) or a RangeError, never a Wasm trap.
    const mine = valid.slice();
    const m = new AgentMatcher('bot', 'google', mine, []);
    // Wildcard records 2 GB away: any read of them is outside Wasm memory.
    new DataView(mine.buffer).setUint32(F.H_WILDCARDS_OFFSET, 0x7ffffff0, true);
    expectSafeVerdictOrRangeError(m);
  });
  it('nor does a change to matcher.table itself (the bytes are reachable, so they are checked when they enter Wasm memory)', () => {
    const m = new AgentMatcher('bot', 'google', valid.slice(), []);
    new DataView(m.table.buffer, m.table.byteOffset).setUint32(F.H_WILDCARDS_OFFSET, 0x7ffffff0, true);
    expectSafeVerdictOrRangeError(m);
  });
});

describe('helpers', () => {
  runRows([
    ['toMatchPath(42)', () => toMatchPath(42 as Loose), TypeError, /url must be a string, got number/],
    ['toMatchPath("/", "GOOGLE")', () => toMatchPath('/', 'GOOGLE' as Loose), TypeError, /profile must be 'rfc' or 'google', got "GOOGLE"/],
    ['isValidProductToken(null)', () => isValidProductToken(null as Loose), TypeError, /token must be a string, got null/],
    ['normalizePattern("/a", "rfc")', () => normalizePattern('/a' as Loose, 'rfc'), TypeError, /pattern must be a Uint8Array, got string/],
    ['normalizePattern(bytes, "x")', () => normalizePattern(bytes('/a'), 'x' as Loose), TypeError, /profile must be 'rfc' or 'google', got "x"/],
    ['normalizePatternRfc(null)', () => normalizePatternRfc(null as Loose), TypeError, /pattern must be a Uint8Array, got null/],
    ['escapePatternGoogle(42)', () => escapePatternGoogle(42 as Loose), TypeError, /pattern must be a Uint8Array, got number/],
    ['lexRobots("text", handler, "rfc")', () => lexRobots('User-agent: *' as Loose, handler, 'rfc'), TypeError, /body must be a Uint8Array, got string/],
    ['lexRobots(bytes, null, "rfc")', () => lexRobots(bytes('a: b'), null as Loose, 'rfc'), TypeError, /handler must be an object/],
    ['lexRobots(bytes, {}, "rfc")', () => lexRobots(bytes('user-agent: x'), {} as Loose, 'rfc'), TypeError, /handler\.userAgent must be a function/],
    ['lexRobots(bytes, handler, "x")', () => lexRobots(bytes('a: b'), handler, 'x' as Loose), TypeError, /profile must be 'rfc' or 'google', got "x"/],
  ]);
});
