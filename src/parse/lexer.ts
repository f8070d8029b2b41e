// Line lexer: robots.txt bytes → one handler call per meaningful line, in file order.
import { describe, expectBytes, expectProfile } from '../errors.js';
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

/**
 * A key as little-endian 32-bit words (`at`: their offsets, the last one overlapping
 * when the length is no multiple of 4), so a key compares in two or three loads.
 * Words hold the lowercase key with bit 0x20 of every byte set: OR-ing a byte with 0x20
 * folds ASCII case and maps nothing else onto a letter; it maps CR onto `-` and NUL onto
 * space, but a line never holds CR, and a Google-profile line (the only one with a space
 * key) ends at NUL.
 */
interface KeyWord {
  readonly length: number;
  readonly at: readonly number[];
  readonly words: readonly number[];
}

function keyWord(text: string): KeyWord {
  const at: number[] = [];
  for (let o = 0; o + 4 <= text.length; o += 4) at.push(o);
  if (text.length % 4 !== 0) at.push(text.length - 4);
  const words = at.map((o) => (text.charCodeAt(o) | (text.charCodeAt(o + 1) << 8) | (text.charCodeAt(o + 2) << 16) | (text.charCodeAt(o + 3) << 24)) | CASE_BITS);
  return { length: text.length, at, words };
}

const CASE_BITS = 0x20202020;

/** Whether the key bytes [start, end) of `view` equal `key` (`prefix`: start with it), in any ASCII case. */
function isKey(view: DataView, start: number, end: number, key: KeyWord, prefix: boolean): boolean {
  if (prefix ? end - start < key.length : end - start !== key.length) return false;
  const at = key.at;
  const words = key.words;
  for (let k = 0; k < at.length; k++) if ((view.getInt32(start + at[k]!, true) | CASE_BITS) !== words[k]) return false;
  return true;
}

function isAnyKey(view: DataView, start: number, end: number, keys: readonly KeyWord[]): boolean {
  for (const key of keys) if (isKey(view, start, end, key, true)) return true;
  return false;
}

const USER_AGENT = keyWord('user-agent');
const ALLOW = keyWord('allow');
const DISALLOW = keyWord('disallow');
const SITEMAP = keyWord('sitemap');
// Google-compat: robots.cc accepts these spellings, and any key that merely starts with them.
const GOOGLE_USER_AGENT_KEYS = ['user-agent', 'useragent', 'user agent'].map(keyWord);
const GOOGLE_DISALLOW_KEYS = ['disallow', 'dissallow', 'dissalow', 'disalow', 'diasllow', 'disallaw'].map(keyWord);
const GOOGLE_SITEMAP_KEYS = ['sitemap', 'site-map'].map(keyWord);

/**
 * RobotsLineHandler's events as offsets into the body the lexer scans, so that a handler
 * creates only the views and strings it keeps (Robots.parse needs no view for most
 * comments and keys). Internal: `lexRobots` adapts it to RobotsLineHandler. Ranges are
 * [start, end). Handlers that keep what they read are collectors (GroupCollector,
 * AcapCollector, RobotsCollector).
 */
export interface OffsetLineHandler {
  userAgent(start: number, end: number, line: number): void;
  allow(start: number, end: number, line: number): void;
  disallow(start: number, end: number, line: number): void;
  sitemap(start: number, end: number, line: number): void;
  other(keyStart: number, keyEnd: number, valueStart: number, valueEnd: number, line: number): void;
  /** From `#` to the end of the line. */
  comment(start: number, end: number, line: number): void;
  invalid(start: number, end: number, line: number): void;
}

/** Turns offset events into the views RobotsLineHandler takes; comment/invalid only when handled. */
class ViewHandlerAdapter implements OffsetLineHandler {
  private readonly buffer: ArrayBufferLike;
  private readonly base: number;

  constructor(body: Uint8Array, private readonly handler: RobotsLineHandler) {
    this.buffer = body.buffer;
    this.base = body.byteOffset;
  }

  /** body[start, end) as a new view: the constructor skips subarray's species lookup. */
  private view(start: number, end: number): Uint8Array {
    return new Uint8Array(this.buffer, this.base + start, end - start);
  }

  userAgent(start: number, end: number, line: number): void {
    this.handler.userAgent(this.view(start, end), line);
  }
  allow(start: number, end: number, line: number): void {
    this.handler.allow(this.view(start, end), line);
  }
  disallow(start: number, end: number, line: number): void {
    this.handler.disallow(this.view(start, end), line);
  }
  sitemap(start: number, end: number, line: number): void {
    this.handler.sitemap(this.view(start, end), line);
  }
  other(keyStart: number, keyEnd: number, valueStart: number, valueEnd: number, line: number): void {
    this.handler.other(this.view(keyStart, keyEnd), this.view(valueStart, valueEnd), line);
  }
  comment(start: number, end: number, line: number): void {
    this.handler.comment?.(this.view(start, end), line);
  }
  invalid(start: number, end: number, line: number): void {
    this.handler.invalid?.(this.view(start, end), line);
  }
}

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
  // A plain view: Buffer#subarray (Node) costs several times more per call.
  const body = Object.getPrototypeOf(input) === Uint8Array.prototype ? input : new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  return lexLines(body, new ViewHandlerAdapter(body, handler), profile === 'google');
}

/**
 * lexRobots without the argument checks, reporting offsets into `body` (a plain
 * Uint8Array) to `sink`. Internal: Robots.parse lexes its own copy of the body with it.
 * @example lexLines(bytes, sink, false) // line count; sink.disallow(12, 20, 2), …
 */
export function lexLines(body: Uint8Array, sink: OffsetLineHandler, google: boolean): number {
  const n = body.length;
  let start = 0;
  while (start < 3 && start < n && body[start] === BOM[start]) start++;
  // Whole 4-byte words of the body (when it is 4-aligned, as Robots.parse's own copy is)
  // let the scan skip four bytes at a time where none can end the line or start a comment.
  // (buffer and byteOffset are getters V8 calls out for: read once.)
  const buffer = body.buffer;
  const offset = body.byteOffset;
  const words = (offset & 3) === 0 ? new Int32Array(buffer, offset, n >> 2) : null;
  const wordCount = words === null ? 0 : words.length;
  const view = new DataView(buffer, offset, n);
  let line = 0;
  for (;;) {
    let end = start;
    let hash = -1;
    let nul = -1;
    // Invariant: [start, end) holds no line break. The first `#` and the first NUL (which
    // ends a Google-profile line) are noted on the way: LF, CR, `#` and NUL are all
    // ≤ 0x23, so most bytes cost one test.
    while (end < n) {
      const c = body[end]!;
      if (c <= HASH) {
        if (c === LF || c === CR) break;
        if (c === HASH) {
          if (hash < 0) hash = end;
        } else if (c === 0 && nul < 0) {
          nul = end;
        }
      }
      end++;
      if ((end & 3) === 0) {
        // At a word boundary: skip words with no byte below 0x0e (LF, CR, NUL) and no `#`
        // (the classic "has a byte less than n" and "has a zero byte" tests; neither
        // misses one, and a false hit only falls back to bytes). Spaces, which most lines
        // hold, do not stop the skip.
        let w = end >> 2;
        while (w < wordCount) {
          const x = words![w]!;
          const y = x ^ 0x23232323;
          if (((((x - 0x0e0e0e0e) & ~x) | ((y - 0x01010101) & ~y)) & 0x80808080) !== 0) break;
          w++;
        }
        end = w << 2;
      }
    }
    line++;
    lexLine(body, view, start, end, hash, nul, line, google, sink);
    if (end >= n) break;
    // CRLF is one line ending; a lone CR or LF is one too.
    start = body[end] === CR && end + 1 < n && body[end + 1] === LF ? end + 2 : end + 1;
    if (start >= n) break;
  }
  return line;
}

function indexOfByte(body: Uint8Array, byte: number, start: number, end: number): number {
  for (let i = start; i < end; i++) if (body[i] === byte) return i;
  return -1;
}

/** One line body[start, end); `hash` and `nul` are its first `#` and NUL, or -1. */
function lexLine(body: Uint8Array, view: DataView, start: number, end: number, hash: number, nul: number, line: number, google: boolean, sink: OffsetLineHandler): void {
  if (google) {
    // Google-compat: the line buffer is cut at 16,663 bytes, then read as a C string.
    if (end - start > GOOGLE_MAX_LINE_BYTES) end = start + GOOGLE_MAX_LINE_BYTES;
    if (nul >= 0 && nul < end) end = nul;
    if (hash >= end) hash = -1;
  }
  let contentEnd = end;
  if (hash >= 0) {
    contentEnd = hash;
    sink.comment(hash, end, line);
  }
  let s = start;
  let e = contentEnd;
  while (s < e && isSpaceByte(body[s]!)) s++;
  while (e > s && isSpaceByte(body[e - 1]!)) e--;
  if (s === e) return;

  // Every known key has its own first letter, so that letter picks the one to compare:
  // `| 0x20` folds ASCII case, and only 'U'/'u' (and so on) fold onto the letters tested.
  const first = body[s]! | 0x20;
  // Most lines are a known key, spelt out, then `:` (perhaps after whitespace). Then the
  // first colon is that one and the key is exactly the word, as the general path below
  // would find (in both profiles), without searching the line for the colon.
  const known = first === 0x64 ? DISALLOW : first === 0x61 ? ALLOW : first === 0x75 ? USER_AGENT : first === 0x73 ? SITEMAP : null;
  if (known !== null && e - s > known.length && isKey(view, s, s + known.length, known, false)) {
    let colon = s + known.length;
    while (colon < e && isSpaceByte(body[colon]!)) colon++;
    if (colon < e && body[colon] === COLON) {
      let valueStart = colon + 1;
      while (valueStart < e && isSpaceByte(body[valueStart]!)) valueStart++;
      if (known === DISALLOW) sink.disallow(valueStart, e, line);
      else if (known === ALLOW) sink.allow(valueStart, e, line);
      else if (known === USER_AGENT) sink.userAgent(valueStart, e, line);
      else sink.sitemap(valueStart, e, line);
      return;
    }
  }

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
      sink.invalid(s, e, line);
      return;
    }
    keyEnd = ws;
    valueStart = v;
  } else {
    // RFC 9309 §2.2: every record is `key *WS ":" *WS value`.
    sink.invalid(s, e, line);
    return;
  }
  while (keyEnd > s && isSpaceByte(body[keyEnd - 1]!)) keyEnd--;
  if (keyEnd === s) {
    sink.invalid(s, e, line);
    return;
  }
  while (valueStart < e && isSpaceByte(body[valueStart]!)) valueStart++;

  if (google) {
    if (first === 0x75 ? isAnyKey(view, s, keyEnd, GOOGLE_USER_AGENT_KEYS) : false) sink.userAgent(valueStart, e, line);
    else if (first === 0x61 ? isKey(view, s, keyEnd, ALLOW, true) : false) sink.allow(valueStart, e, line);
    else if (first === 0x64 ? isAnyKey(view, s, keyEnd, GOOGLE_DISALLOW_KEYS) : false) sink.disallow(valueStart, e, line);
    else if (first === 0x73 ? isAnyKey(view, s, keyEnd, GOOGLE_SITEMAP_KEYS) : false) sink.sitemap(valueStart, e, line);
    else sink.other(s, keyEnd, valueStart, e, line);
    return;
  }
  // RFC 9309 §2.2.1/§2.2.2: keys are matched whole, case-insensitively.
  if (first === 0x75 ? isKey(view, s, keyEnd, USER_AGENT, false) : false) sink.userAgent(valueStart, e, line);
  else if (first === 0x61 ? isKey(view, s, keyEnd, ALLOW, false) : false) sink.allow(valueStart, e, line);
  else if (first === 0x64 ? isKey(view, s, keyEnd, DISALLOW, false) : false) sink.disallow(valueStart, e, line);
  else if (first === 0x73 ? isKey(view, s, keyEnd, SITEMAP, false) : false) sink.sitemap(valueStart, e, line);
  else sink.other(s, keyEnd, valueStart, e, line);
}
