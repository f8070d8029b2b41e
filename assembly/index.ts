// The Wasm ABI: plain numbers in and out, one call per batch; layout in src/wasm.ts.
import { decide, decidedLine, collectMatches as collect } from './match';
import { findNewline } from './lines';
import { FLAG_IMPLICIT_ROBOTS_TXT, H_FLAGS } from './table';
import { isRobotsTxtPath, pathLen, pathPtr, preparePath } from './url';

/** Bytes of the input consumed by the last `matchLines` call. */
let consumedBytes: u32 = 0;

/** First byte the host may use: everything below holds this module's static data. */
export function heapBase(): usize {
  return __heap_base;
}

/** Format version this module reads (mirrors FORMAT_VERSION in src/table/format.ts). */
export { FORMAT_VERSION as formatVersion } from './table';

@inline function judge(table: usize, flags: u32, url: usize, len: u32, scratch: usize): u32 {
  preparePath(url, len, scratch, flags);
  if ((flags & FLAG_IMPLICIT_ROBOTS_TXT) != 0 && isRobotsTxtPath(pathPtr, pathLen)) {
    decidedLine = 0;
    return 1;
  }
  return decide(table, pathPtr, pathLen);
}

/**
 * Judges `count` URLs stored back to back at `input`, their byte lengths as u32 at
 * `lengths`. Writes one verdict byte per URL to `out` (1 allow, 0 disallow) and, when
 * `linesOut` is not 0, the deciding line (u32) per URL. `scratch` holds 3 × the longest
 * URL + 1 bytes.
 */
export function matchUrls(table: usize, input: usize, lengths: usize, count: u32, out: usize, linesOut: usize, scratch: usize): void {
  const flags = <u32>load<u16>(table, H_FLAGS);
  let url = input;
  for (let i: u32 = 0; i < count; i++) {
    const len = load<u32>(lengths + (<usize>i << 2));
    store<u8>(out + i, judge(table, flags, url, len, scratch));
    if (linesOut != 0) store<u32>(linesOut + (<usize>i << 2), decidedLine);
    url += len;
  }
}

/**
 * Judges the LF-separated URLs in input[0, len) (a CR before the LF is dropped). Stops
 * before an unterminated last line unless `final` is 1. Returns the number of lines
 * judged; `consumed()` tells how many input bytes they covered. `out`/`linesOut` need
 * room for len + 1 entries; `scratch` 3 × len + 1 bytes.
 */
export function matchLines(table: usize, input: usize, len: u32, out: usize, linesOut: usize, scratch: usize, final: u32): u32 {
  const flags = <u32>load<u16>(table, H_FLAGS);
  let start: u32 = 0;
  let n: u32 = 0;
  while (start < len) {
    const nl = findNewline(input, start, len);
    if (nl == len && final == 0) break;
    let end = nl;
    if (end > start && load<u8>(input + end - 1) == 0x0d) end--;
    store<u8>(out + n, judge(table, flags, input + start, end - start, scratch));
    if (linesOut != 0) store<u32>(linesOut + (<usize>n << 2), decidedLine);
    n++;
    start = nl + 1;
  }
  consumedBytes = start < len ? start : len;
  return n;
}

export function consumed(): u32 {
  return consumedBytes;
}

/** Prepares one URL as the table's flags say; the result is at `preparedPtr()`. */
export function prepareUrl(flags: u32, url: usize, len: u32, scratch: usize): u32 {
  preparePath(url, len, scratch, flags);
  return pathLen;
}

export function preparedPtr(): usize {
  return pathPtr;
}

/** Ids of every wildcard rule matching the URL, written as u32 to `out`; returns the count. */
export function collectMatches(table: usize, url: usize, len: u32, out: usize, scratch: usize): u32 {
  preparePath(url, len, scratch, <u32>load<u16>(table, H_FLAGS));
  return collect(table, pathPtr, pathLen, out);
}
