// Byte-level lint checks (BOM, line endings, NUL, UTF-8, long lines, the parse limit) and each line's start offset.
import { GOOGLE_MAX_LINE_BYTES } from '../parse/lexer.js';
import type { LintDiagnostic } from './index.js';

const LF = 0x0a;
const CR = 0x0d;

/**
 * Where the first invalid UTF-8 sequence of bytes[start, end) begins (RFC 3629 §4: no
 * overlong forms, no surrogates, nothing past U+10FFFF), or -1 when there is none.
 * @example invalidUtf8At(new Uint8Array([0x2f, 0xff]), 0, 2) // 1
 */
export function invalidUtf8At(bytes: Uint8Array, start: number, end: number): number {
  let i = start;
  while (i < end) {
    const c = bytes[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let low = 0x80;
    let high = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) need = 1;
    else if (c >= 0xe0 && c <= 0xef) {
      need = 2;
      if (c === 0xe0) low = 0xa0;
      if (c === 0xed) high = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      need = 3;
      if (c === 0xf0) low = 0x90;
      if (c === 0xf4) high = 0x8f;
    } else return i;
    if (i + need >= end) return i;
    for (let k = 1; k <= need; k++) {
      const b = bytes[i + k]!;
      const lo = k === 1 ? low : 0x80;
      const hi = k === 1 ? high : 0xbf;
      if (b < lo || b > hi) return i;
    }
    i += need + 1;
  }
  return -1;
}

/** What scanBytes finds: each line's start offset (index 1 = line 1), and its diagnostics. */
export interface ByteScan {
  readonly lineStarts: number[];
  readonly diagnostics: LintDiagnostic[];
}

/**
 * Splits `bytes` into lines as the lexer does (CR, LF or CRLF end a line) and reports the
 * byte-level findings: a leading BOM, bare CRs (once, at the first), NUL bytes and invalid
 * UTF-8 (the first of each per line), and lines the google profile cuts short.
 */
export function scanBytes(bytes: Uint8Array): ByteScan {
  const diagnostics: LintDiagnostic[] = [];
  const lineStarts = [0, 0];
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    diagnostics.push({ line: 1, column: 1, severity: 'info', code: 'bom', message: 'the file starts with a UTF-8 byte order mark; both profiles skip it, some tools read it as part of the first key' });
  }
  let bareCrs = 0;
  let firstBareCr = 0;
  let start = 0;
  let line = 1;
  const n = bytes.length;
  for (;;) {
    let end = start;
    while (end < n && bytes[end] !== LF && bytes[end] !== CR) end++;
    lineChecks(bytes, start, end, line, diagnostics);
    if (end >= n) break;
    const crlf = bytes[end] === CR && end + 1 < n && bytes[end + 1] === LF;
    if (bytes[end] === CR && !crlf) {
      if (bareCrs++ === 0) firstBareCr = line;
    }
    start = crlf ? end + 2 : end + 1;
    if (start >= n) break;
    line++;
    lineStarts.push(start);
  }
  if (bareCrs > 0) {
    diagnostics.push({
      line: firstBareCr, severity: 'info', code: 'bare-cr',
      message: `${bareCrs} line${bareCrs === 1 ? ' ends' : 's end'} with a bare CR (the first here): RFC 9309 §2.2 allows it, but tools that split lines on LF read such lines as one`,
    });
  }
  return { lineStarts, diagnostics };
}

function lineChecks(bytes: Uint8Array, start: number, end: number, line: number, out: LintDiagnostic[]): void {
  const nul = bytes.subarray(start, end).indexOf(0);
  if (nul >= 0) {
    out.push({
      line, column: nul + 1, severity: 'warning', code: 'nul-byte',
      message: 'NUL byte: the google profile ends the line here (robots.cc reads lines as C strings), the rfc profile keeps it as part of the line',
    });
  }
  const bad = invalidUtf8At(bytes, start, end);
  if (bad >= 0) {
    out.push({
      line, column: bad - start + 1, severity: 'warning', code: 'invalid-utf8',
      message: `byte 0x${bytes[bad]!.toString(16).padStart(2, '0')} starts no valid UTF-8 sequence (RFC 9309 §2.2: the file is UTF-8); in a pattern it is matched as %${bytes[bad]!.toString(16).toUpperCase()}`,
    });
  }
  if (end - start > GOOGLE_MAX_LINE_BYTES) {
    out.push({
      line, column: GOOGLE_MAX_LINE_BYTES + 1, severity: 'warning', code: 'line-too-long',
      message: `the line is ${end - start} bytes long: the google profile reads only its first ${GOOGLE_MAX_LINE_BYTES} bytes`,
    });
  }
}

/**
 * The part of `bytes` a parser with a limit of `maxBytes` reads (RFC 9309 §2.5): all of
 * it, or up to the last line break within the limit, as Robots.parse cuts it (the line
 * the limit cuts through is dropped whole). `cut` is true when something was left out.
 */
export function withinLimit(bytes: Uint8Array, maxBytes: number): { kept: Uint8Array; cut: boolean } {
  if (bytes.length <= maxBytes) return { kept: bytes, cut: false };
  let end = maxBytes;
  if (bytes[end] !== LF && bytes[end] !== CR) {
    while (end > 0 && bytes[end - 1] !== LF && bytes[end - 1] !== CR) end--;
  }
  return { kept: bytes.subarray(0, end), cut: true };
}
