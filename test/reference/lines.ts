// Reference lexer: robots.txt bytes → numbered records, written byte by byte the way robots.cc reads a file.
//
// Deliberately independent of src/parse/lexer.ts: a streaming state machine (robots.cc
// RobotsTxtParser::Parse) instead of index scans, so that a shared mistake is unlikely.
// Slow and plain on purpose; it is the oracle of the property tests.

/** 'rfc' = RFC 9309 §2.2 ABNF; 'google' = robots.cc, typos and all. */
export type RefProfile = 'rfc' | 'google';

export type RefKey = 'user-agent' | 'allow' | 'disallow' | 'sitemap' | 'other';

/** One `key: value` line. `value` is the raw value after trimming (not normalized). */
export interface RefRecord {
  readonly key: RefKey;
  readonly value: Uint8Array;
  readonly line: number;
}

const LF = 0x0a;
const CR = 0x0d;

// Google-compat: robots.cc's line buffer is 2083 * 8 bytes, the last one reserved for NUL.
export const REF_GOOGLE_LINE_LIMIT = 2083 * 8 - 1;

/** SP, HT, VT, FF: the whitespace trimmed around keys and values (CR/LF never reach a line). */
function isTrimByte(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0b || c === 0x0c;
}

/** robots.cc's missing-colon separator set `kWhite`: only SP and HT. */
function isColonlessSeparator(c: number): boolean {
  return c === 0x20 || c === 0x09;
}

function trim(bytes: Uint8Array): Uint8Array {
  let s = 0;
  let e = bytes.length;
  while (s < e && isTrimByte(bytes[s]!)) s++;
  while (e > s && isTrimByte(bytes[e - 1]!)) e--;
  return bytes.slice(s, e);
}

function lowerAscii(c: number): number {
  return c >= 0x41 && c <= 0x5a ? c + 0x20 : c;
}

/** Whether `key` starts with `word` (lowercase ASCII), ignoring ASCII case. */
function startsWithWord(key: Uint8Array, word: string): boolean {
  if (key.length < word.length) return false;
  for (let i = 0; i < word.length; i++) if (lowerAscii(key[i]!) !== word.charCodeAt(i)) return false;
  return true;
}

function isWord(key: Uint8Array, word: string): boolean {
  return key.length === word.length && startsWithWord(key, word);
}

function classifyGoogle(key: Uint8Array): RefKey {
  const any = (...words: string[]): boolean => words.some((w) => startsWithWord(key, w));
  if (any('user-agent', 'useragent', 'user agent')) return 'user-agent';
  if (any('allow')) return 'allow';
  if (any('disallow', 'dissallow', 'dissalow', 'disalow', 'diasllow', 'disallaw')) return 'disallow';
  if (any('sitemap', 'site-map')) return 'sitemap';
  return 'other';
}

function classifyRfc(key: Uint8Array): RefKey {
  for (const word of ['user-agent', 'allow', 'disallow', 'sitemap'] as const) if (isWord(key, word)) return word;
  return 'other';
}

/** One line's bytes (no line break) → a record, or null for empty/comment/invalid lines. */
function readLine(raw: Uint8Array, line: number, profile: RefProfile): RefRecord | null {
  let text = raw;
  if (profile === 'google') {
    // Google-compat: robots.cc handles the line as a C string, so NUL ends it.
    const nul = text.indexOf(0);
    if (nul >= 0) text = text.slice(0, nul);
  }
  const hash = text.indexOf(0x23);
  if (hash >= 0) text = text.slice(0, hash);
  text = trim(text);
  if (text.length === 0) return null;
  let sep = text.indexOf(0x3a);
  if (sep < 0) {
    if (profile === 'rfc') return null;
    // Google-compat: a missing colon is accepted when exactly two SP/HT-separated tokens remain.
    sep = text.findIndex(isColonlessSeparator);
    if (sep < 0) return null;
    let v = sep;
    while (v < text.length && isColonlessSeparator(text[v]!)) v++;
    for (let k = v; k < text.length; k++) if (isColonlessSeparator(text[k]!)) return null;
  }
  const key = trim(text.slice(0, sep));
  if (key.length === 0) return null;
  const value = trim(text.slice(sep + 1));
  return { key: profile === 'google' ? classifyGoogle(key) : classifyRfc(key), value, line };
}

/**
 * Every record of `body` in file order. Lines end at CR, LF or CRLF; a leading UTF-8
 * BOM or a prefix of one is skipped (robots.cc's `bom_pos` loop); in the google profile
 * a line keeps only its first 16,663 bytes.
 * @example referenceRecords(utf8('User-agent: *\r\nDisallow: /x'), 'rfc') // [{ key: 'user-agent', … line: 1 }, { key: 'disallow', … line: 2 }]
 */
export function referenceRecords(body: Uint8Array, profile: RefProfile): RefRecord[] {
  const records: RefRecord[] = [];
  const bom = [0xef, 0xbb, 0xbf];
  let bomPos = 0;
  let current: number[] = [];
  let lineNumber = 0;
  let lastWasCr = false;
  const emit = (): void => {
    lineNumber++;
    const record = readLine(Uint8Array.from(current), lineNumber, profile);
    if (record) records.push(record);
    current = [];
  };
  for (const ch of body) {
    if (bomPos < 3) {
      if (ch === bom[bomPos]) {
        bomPos++;
        continue;
      }
      bomPos = 3;
    }
    if (ch !== LF && ch !== CR) {
      if (profile === 'rfc' || current.length < REF_GOOGLE_LINE_LIMIT) current.push(ch);
      lastWasCr = false;
      continue;
    }
    // The LF of a CRLF ends nothing: the CR already ended the line.
    const crlfTail = ch === LF && lastWasCr && current.length === 0;
    if (!crlfTail) emit();
    else current = [];
    lastWasCr = ch === CR;
  }
  emit();
  return records;
}

/**
 * Keeps the bytes a parser limited to `maxBytes` reads: whole lines only (see ParseOptions.maxBytes).
 * @example referenceLimit(utf8('ab\ncd\n'), 4) // { bytes: 'ab\n', truncated: true }
 */
export function referenceLimit(body: Uint8Array, maxBytes: number): { bytes: Uint8Array; truncated: boolean } {
  if (body.length <= maxBytes) return { bytes: body, truncated: false };
  const isBreak = (c: number | undefined): boolean => c === LF || c === CR;
  // The line the limit falls in is kept only when the byte at the limit is its line break.
  let keep = maxBytes;
  if (!isBreak(body[maxBytes])) {
    keep = 0;
    for (let i = maxBytes - 1; i >= 0; i--) {
      if (isBreak(body[i])) {
        keep = i + 1;
        break;
      }
    }
  }
  return { bytes: body.subarray(0, keep), truncated: true };
}
