// Line lexer: robots.txt bytes → one handler call per meaningful line, in file order.
import { describe, expectBytes, expectProfile } from './errors.js';
//
// Like robots.cc, this file knows about lines, keys and values and nothing else:
// grouping policy lives in groups.ts, ACAP in acap/, matching in Wasm. Values are
// handed out as zero-copy `subarray` views of the body; a handler that keeps one
// beyond the call must not mutate it.

/** Which rule set to follow: strict RFC 9309, or Google's open-source reference matcher. */
export type Profile = 'rfc' | 'google';

/** Receives the lexer's events. Line numbers are 1-based and count every line ending. */
export interface RobotsLineHandler {
  userAgent(value: Uint8Array, line: number): void;
  allow(value: Uint8Array, line: number): void;
  disallow(value: Uint8Array, line: number): void;
  sitemap(value: Uint8Array, line: number): void;
  /** Any other `key: value` record (crawl-delay, host, ACAP-…), key as written. */
  other(key: Uint8Array, value: Uint8Array, line: number): void;
  /** Text from `#` to the end of the line, `#` included (ACAP's `##ACAP` marker lives here). */
  comment?(text: Uint8Array, line: number): void;
  /** A non-empty line that is not a `key: value` record. */
  invalid?(text: Uint8Array, line: number): void;
}

const LF = 0x0a;
const CR = 0x0d;
const HASH = 0x23;
const COLON = 0x3a;
const BOM = [0xef, 0xbb, 0xbf];

// Google-compat: robots.cc copies each line into a buffer of 2083 * 8 bytes whose last
// byte is the C string terminator, so at most 16,663 bytes of a line are ever seen.
export const GOOGLE_MAX_LINE_BYTES = 2083 * 8 - 1;

/** SP, HT, VT, FF: what both robots.cc (`ascii_isspace` minus CR/LF) and we strip. */
export function isSpaceByte(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0b || c === 0x0c;
}

/** SP or HT: robots.cc's separator set when a line has no colon. */
function isBlank(c: number): boolean {
  return c === 0x20 || c === 0x09;
}

/** ASCII-case-insensitive comparison of `bytes[start, end)` with a lowercase ASCII word. */
function equalsWord(bytes: Uint8Array, start: number, end: number, word: string, prefix: boolean): boolean {
  const n = word.length;
  if (prefix ? end - start < n : end - start !== n) return false;
  for (let k = 0; k < n; k++) {
    let c = bytes[start + k]!;
    if (c - 0x41 < 26 && c >= 0x41) c |= 0x20;
    if (c !== word.charCodeAt(k)) return false;
  }
  return true;
}

function startsWithAny(bytes: Uint8Array, start: number, end: number, words: readonly string[]): boolean {
  for (const w of words) if (equalsWord(bytes, start, end, w, true)) return true;
  return false;
}

// Google-compat: robots.cc accepts these spellings, and any key that merely starts with them.
const GOOGLE_USER_AGENT_KEYS = ['user-agent', 'useragent', 'user agent'] as const;
const GOOGLE_DISALLOW_KEYS = ['disallow', 'dissallow', 'dissalow', 'disalow', 'diasllow', 'disallaw'] as const;
const GOOGLE_SITEMAP_KEYS = ['sitemap', 'site-map'] as const;

/**
 * Splits `body` into lines (CR, LF or CRLF), skips a leading UTF-8 BOM (or any prefix
 * of one, as robots.cc does), strips `#` comments and surrounding whitespace, splits
 * `key: value` and reports each line to `handler`. Returns the number of lines seen.
 *
 * Profile differences, each tagged where it happens: key typos and key-by-prefix,
 * a missing colon on two-token lines, the 16,663-byte line cut and NUL ending a line
 * are Google-only.
 */
export function lexRobots(input: Uint8Array, handler: RobotsLineHandler, profile: Profile): number {
  expectBytes(input, 'body');
  if (typeof handler !== 'object' || handler === null) throw new TypeError(`handler must be an object, got ${describe(handler)}`);
  for (const method of ['userAgent', 'allow', 'disallow', 'sitemap', 'other'] as const) {
    if (typeof handler[method] !== 'function') throw new TypeError(`handler.${method} must be a function, got ${describe(handler[method])}`);
  }
  expectProfile(profile, 'profile');
  const google = profile === 'google';
  // A plain view: Buffer#subarray (Node) costs several times more per call.
  const body = Object.getPrototypeOf(input) === Uint8Array.prototype ? input : new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  const n = body.length;
  let start = 0;
  while (start < 3 && start < n && body[start] === BOM[start]) start++;
  // Whole 4-byte words of the body (when it is 4-aligned, as Robots.parse's own copy is)
  // let the scan skip four bytes at a time where none is ≤ 0x23.
  const words = (body.byteOffset & 3) === 0 ? new Int32Array(body.buffer, body.byteOffset, n >> 2) : null;
  const wordCount = words === null ? 0 : words.length;
  let line = 0;
  for (;;) {
    let end = start;
    let hash = -1;
    // Invariant: [start, end) holds no line break. The first `#` is noted on the way:
    // LF, CR and `#` are all ≤ 0x23, so most bytes cost one test.
    while (end < n) {
      const c = body[end]!;
      if (c <= HASH) {
        if (c === LF || c === CR) break;
        if (c === HASH && hash < 0) hash = end;
      }
      end++;
      if ((end & 3) === 0) {
        // At a word boundary: skip words with no byte below 0x24 (the classic "has a byte
        // less than n" test; it never misses one, and a false hit only falls back to bytes).
        let w = end >> 2;
        while (w < wordCount) {
          const x = words![w]!;
          if (((x - 0x24242424) & ~x & 0x80808080) !== 0) break;
          w++;
        }
        end = w << 2;
      }
    }
    line++;
    lexLine(body, start, end, hash, line, google, handler);
    if (end >= n) break;
    // CRLF is one line ending; a lone CR or LF is one too.
    start = body[end] === CR && end + 1 < n && body[end + 1] === LF ? end + 2 : end + 1;
    if (start >= n) break;
  }
  return line;
}

/** body[start, end) as a new view: the constructor skips subarray's species lookup (cheaper per line). */
function view(body: Uint8Array, start: number, end: number): Uint8Array {
  return new Uint8Array(body.buffer, body.byteOffset + start, end - start);
}

function indexOfByte(body: Uint8Array, byte: number, start: number, end: number): number {
  for (let i = start; i < end; i++) if (body[i] === byte) return i;
  return -1;
}

/** One line body[start, end); `hash` is the first `#` in it, or -1. */
function lexLine(body: Uint8Array, start: number, end: number, hash: number, line: number, google: boolean, handler: RobotsLineHandler): void {
  if (google) {
    // Google-compat: the line buffer is cut at 16,663 bytes, then read as a C string.
    if (end - start > GOOGLE_MAX_LINE_BYTES) end = start + GOOGLE_MAX_LINE_BYTES;
    const nul = indexOfByte(body, 0, start, end);
    if (nul >= 0) end = nul;
    if (hash >= end) hash = -1;
  }
  let contentEnd = end;
  if (hash >= 0) {
    contentEnd = hash;
    handler.comment?.(view(body, hash, end), line);
  }
  let s = start;
  let e = contentEnd;
  while (s < e && isSpaceByte(body[s]!)) s++;
  while (e > s && isSpaceByte(body[e - 1]!)) e--;
  if (s === e) return;

  let keyEnd: number;
  let valueStart: number;
  const colon = indexOfByte(body, COLON, s, e);
  if (colon >= 0) {
    keyEnd = colon;
    valueStart = keyEnd + 1;
  } else if (google) {
    // Google-compat: "some people forget the colon": space or tab (only those, unlike
    // the trimming above) separates key and value, but only when the line is exactly
    // two tokens.
    let ws = s;
    while (ws < e && !isBlank(body[ws]!)) ws++;
    let v = ws;
    while (v < e && isBlank(body[v]!)) v++;
    let more = v;
    while (more < e && !isBlank(body[more]!)) more++;
    if (ws === e || more !== e) {
      handler.invalid?.(view(body, s, e), line);
      return;
    }
    keyEnd = ws;
    valueStart = v;
  } else {
    // RFC 9309 §2.2: every record is `key *WS ":" *WS value`.
    handler.invalid?.(view(body, s, e), line);
    return;
  }
  while (keyEnd > s && isSpaceByte(body[keyEnd - 1]!)) keyEnd--;
  if (keyEnd === s) {
    handler.invalid?.(view(body, s, e), line);
    return;
  }
  while (valueStart < e && isSpaceByte(body[valueStart]!)) valueStart++;
  const value = view(body, valueStart, e);

  if (google) {
    if (startsWithAny(body, s, keyEnd, GOOGLE_USER_AGENT_KEYS)) handler.userAgent(value, line);
    else if (equalsWord(body, s, keyEnd, 'allow', true)) handler.allow(value, line);
    else if (startsWithAny(body, s, keyEnd, GOOGLE_DISALLOW_KEYS)) handler.disallow(value, line);
    else if (startsWithAny(body, s, keyEnd, GOOGLE_SITEMAP_KEYS)) handler.sitemap(value, line);
    else handler.other(view(body, s, keyEnd), value, line);
    return;
  }
  // RFC 9309 §2.2.1/§2.2.2: keys are matched whole, case-insensitively.
  if (equalsWord(body, s, keyEnd, 'user-agent', false)) handler.userAgent(value, line);
  else if (equalsWord(body, s, keyEnd, 'allow', false)) handler.allow(value, line);
  else if (equalsWord(body, s, keyEnd, 'disallow', false)) handler.disallow(value, line);
  else if (equalsWord(body, s, keyEnd, 'sitemap', false)) handler.sitemap(value, line);
  else handler.other(view(body, s, keyEnd), value, line);
}
