// CLI output rows written by Wasm: `allow|disallow<TAB>LINE[<TAB>HOST]<TAB>URL` or one JSON object per line.
//
// The CLI streams millions of URLs; formatting them here means the host never loops
// per line in JS: it copies a chunk in, gets a chunk of finished rows out.
//
// TSV fields are escaped the way PostgreSQL's text COPY format reads them, so a URL
// holding a tab cannot shift the columns and every field reads back byte for byte:
// `\\` for a backslash, `\t` `\n` `\r` for TAB LF CR, `\xHH` (two lowercase hex digits)
// for any other byte below 0x20 and for 0x7f (which would also reach a terminal raw).

import { lanesBelow } from './scan';

// The row format, its options (ROW_*) and outcome values (OUTCOME_*) are specified in src/table/abi.ts.
import {
  OUTCOME_NO_ORIGIN, OUTCOME_NONE, OUTCOME_OK, OUTCOME_UNAVAILABLE, OUTCOME_UNREACHABLE, ROW_BYTES_PER_BYTE, ROW_FIXED_BYTES, ROW_HOST, ROW_JSONL, ROW_ONLY_ALLOWED, ROW_ONLY_DISALLOWED,
} from './abi';


/**
 * Longest row for a URL of `urlLen` and a host of `hostLen` bytes: JSON escapes are 6
 * bytes per byte, TSV escapes 4; the fixed part (verdict, line, keys, outcome) < 96.
 */
@inline export function rowBound(urlLen: u32, hostLen: u32): u32 {
  return ROW_FIXED_BYTES + ROW_BYTES_PER_BYTE * (urlLen + hostLen);
}

/** Writes one byte, returns the next position. */
@inline function put(o: usize, c: u32): usize {
  store<u8>(o, c);
  return o + 1;
}

function putText(o: usize, text: usize, n: u32): usize {
  memory.copy(o, text, n);
  return o + n;
}

const ALLOW_TSV: usize = memory.data<u8>([0x61, 0x6c, 0x6c, 0x6f, 0x77, 0x09]); // "allow\t"
const DISALLOW_TSV: usize = memory.data<u8>([0x64, 0x69, 0x73, 0x61, 0x6c, 0x6c, 0x6f, 0x77, 0x09]); // "disallow\t"
// {"verdict":"
const JSON_START: usize = memory.data<u8>([0x7b, 0x22, 0x76, 0x65, 0x72, 0x64, 0x69, 0x63, 0x74, 0x22, 0x3a, 0x22]);
// ","line":
const JSON_LINE: usize = memory.data<u8>([0x22, 0x2c, 0x22, 0x6c, 0x69, 0x6e, 0x65, 0x22, 0x3a]);
// ,"host":"
const JSON_HOST: usize = memory.data<u8>([0x2c, 0x22, 0x68, 0x6f, 0x73, 0x74, 0x22, 0x3a, 0x22]);
// ,"url":"
const JSON_URL: usize = memory.data<u8>([0x2c, 0x22, 0x75, 0x72, 0x6c, 0x22, 0x3a, 0x22]);
const HEX: usize = memory.data<u8>([
  0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x61, 0x62, 0x63, 0x64, 0x65, 0x66,
]);
// ,"outcome":"
const JSON_OUTCOME: usize = memory.data<u8>([0x2c, 0x22, 0x6f, 0x75, 0x74, 0x63, 0x6f, 0x6d, 0x65, 0x22, 0x3a, 0x22]);
const WORD_OK: usize = memory.data<u8>([0x6f, 0x6b]);
const WORD_UNAVAILABLE: usize = memory.data<u8>([0x75, 0x6e, 0x61, 0x76, 0x61, 0x69, 0x6c, 0x61, 0x62, 0x6c, 0x65]);
const WORD_UNREACHABLE: usize = memory.data<u8>([0x75, 0x6e, 0x72, 0x65, 0x61, 0x63, 0x68, 0x61, 0x62, 0x6c, 0x65]);
const WORD_NONE: usize = memory.data<u8>([0x6e, 0x6f, 0x6e, 0x65]);
// \ufffd
const REPLACEMENT: usize = memory.data<u8>([0x5c, 0x75, 0x66, 0x66, 0x66, 0x64]);

/** Decimal digits of `v`; at most 10 bytes. */
function putDecimal(o: usize, v: u32): usize {
  let digits: u32 = 1;
  for (let t = v; t >= 10; t /= 10) digits++;
  let p = o + digits;
  do {
    p--;
    store<u8>(p, 0x30 + v % 10);
    v /= 10;
  } while (v != 0);
  return o + digits;
}

/** Bytes of the UTF-8 sequence starting at p[i] if it is well formed (RFC 3629), else 0. */
function utf8Length(p: usize, i: u32, end: u32): u32 {
  const c = <u32>load<u8>(p + i);
  let n: u32;
  let min: u32;
  if (c - 0xc2 < 0x1e) { n = 2; min = 0x80; }
  else if (c - 0xe0 < 0x10) { n = 3; min = 0x800; }
  else if (c - 0xf0 < 0x05) { n = 4; min = 0x10000; }
  else return 0;
  if (i + n > end) return 0;
  let cp = c & (0x7f >> n);
  for (let k: u32 = 1; k < n; k++) {
    const b = <u32>load<u8>(p + i + k);
    if ((b & 0xc0) != 0x80) return 0;
    cp = (cp << 6) | (b & 0x3f);
  }
  // Overlong forms, surrogates and code points beyond U+10FFFF are not UTF-8.
  if (cp < min || cp - 0xd800 < 0x800 || cp > 0x10ffff) return 0;
  return n;
}

/**
 * JSON string body of p[0, n): `"` and `\` escaped, control bytes as \u00XX, valid UTF-8
 * copied, each byte of an invalid sequence as \ufffd (so every row is valid JSON).
 * With `lower`, ASCII letters are lowercased (host names). At most 6 * n bytes.
 */
function putJsonString(o: usize, p: usize, n: u32, lower: bool): usize {
  let i: u32 = 0;
  while (i < n) {
    let c = <u32>load<u8>(p + i);
    if (c >= 0x80) {
      const k = utf8Length(p, i, n);
      if (k == 0) {
        o = putText(o, REPLACEMENT, 6);
        i++;
      } else {
        o = putText(o, p + i, k);
        i += k;
      }
      continue;
    }
    if (c == 0x22 || c == 0x5c) {
      o = put(put(o, 0x5c), c);
    } else if (c < 0x20) {
      o = put(put(put(put(o, 0x5c), 0x75), 0x30), 0x30);
      o = put(put(o, load<u8>(HEX + (c >> 4))), load<u8>(HEX + (c & 15)));
    } else {
      if (lower && c - 0x41 < 26) c |= 0x20;
      o = put(o, c);
    }
    i++;
  }
  return o;
}

/** Whether TSV writes byte `c` as an escape: control bytes, DEL and the backslash. */
@inline function needsTsvEscape(c: u32): bool {
  return c < 0x20 || c == 0x5c || c == 0x7f;
}

/** The TSV escape of one byte that needs one (see the file's header); at most 4 bytes. */
function putTsvEscape(o: usize, c: u32): usize {
  o = put(o, 0x5c);
  if (c == 0x5c) return put(o, 0x5c);
  if (c == 0x09) return put(o, 0x74);
  if (c == 0x0a) return put(o, 0x6e);
  if (c == 0x0d) return put(o, 0x72);
  return put(put(put(o, 0x78), load<u8>(HEX + (c >> 4))), load<u8>(HEX + (c & 15)));
}

/** Lanes of `v` TSV writes as an escape (see needsTsvEscape). */
@inline function tsvEscapeLanes(v: v128): u32 {
  return <u32>i8x16.bitmask(v128.or(
    i8x16.lt_u(v, i8x16.splat(0x20)),
    v128.or(i8x16.eq(v, i8x16.splat(0x5c)), i8x16.eq(v, i8x16.splat(0x7f))),
  ));
}

/**
 * TSV field of p[0, n), escaped. Blocks without an escape (a usual URL has none) are
 * stored 16 bytes at a time as they are scanned; from the first escape on, clean runs are
 * copied whole between escapes. Reads up to 15 bytes past p + n (input regions have
 * SIMD_SLACK, src/wasm/memory.ts) and may write up to 15 bytes past the field, within the
 * room rowBound keeps for the row (the rest of the row overwrites them). At most 4 * n bytes.
 */
function putTsvText(o: usize, p: usize, n: u32): usize {
  let i: u32 = 0;
  for (; i < n; i += 16) {
    const v = v128.load(p + i);
    if ((tsvEscapeLanes(v) & lanesBelow(n - i)) != 0) break;
    v128.store(o + i, v);
  }
  if (i >= n) return o + n;
  o += i;
  let from = i;
  // Invariant: p[from, i) needs no escape and is not written yet; p[0, from) is written.
  for (; i < n; i += 16) {
    let mask = tsvEscapeLanes(v128.load(p + i)) & lanesBelow(n - i);
    while (mask != 0) {
      const at = i + ctz(mask);
      o = putText(o, p + from, at - from);
      o = putTsvEscape(o, <u32>load<u8>(p + at));
      from = at + 1;
      mask &= mask - 1;
    }
  }
  return putText(o, p + from, n - from);
}

/**
 * TSV field of host p[0, n), ASCII-lowercased and escaped: 16 bytes at a time while no
 * escape is needed (reads and writes past the field as putTsvText does), then byte by byte.
 */
function putTsvLower(o: usize, p: usize, n: u32): usize {
  let i: u32 = 0;
  for (; i < n; i += 16) {
    const v = v128.load(p + i);
    if ((tsvEscapeLanes(v) & lanesBelow(n - i)) != 0) break;
    const upper = v128.and(i8x16.ge_u(v, i8x16.splat(0x41)), i8x16.le_u(v, i8x16.splat(0x5a)));
    v128.store(o + i, v128.or(v, v128.and(upper, i8x16.splat(0x20))));
  }
  if (i >= n) return o + n;
  o += i;
  for (; i < n; i++) {
    let c = <u32>load<u8>(p + i);
    if (needsTsvEscape(c)) {
      o = putTsvEscape(o, c);
      continue;
    }
    if (c - 0x41 < 26) c |= 0x20;
    o = put(o, c);
  }
  return o;
}

/** `,"outcome":"…"` for one of the OUTCOME_* codes other than OUTCOME_NONE. */
function putOutcome(o: usize, outcome: u32): usize {
  o = putText(o, JSON_OUTCOME, 12);
  if (outcome == OUTCOME_OK) o = putText(o, WORD_OK, 2);
  else if (outcome == OUTCOME_UNAVAILABLE) o = putText(o, WORD_UNAVAILABLE, 11);
  else if (outcome == OUTCOME_UNREACHABLE) o = putText(o, WORD_UNREACHABLE, 11);
  else o = putText(o, WORD_NONE, 4);
  return put(o, 0x22);
}

/**
 * Writes one row at `o` and returns the end. `host` is written lowercased (it names the
 * robots.txt file the verdict came from); the URL is written as it came, escaped for
 * the format. JSONL rows get an `"outcome"` field when `outcome` is not OUTCOME_NONE.
 */
export function putRow(o: usize, options: u32, allowed: bool, line: u32, host: usize, hostLen: u32, url: usize, urlLen: u32, outcome: u32): usize {
  if ((options & ROW_JSONL) == 0) {
    o = allowed ? putText(o, ALLOW_TSV, 6) : putText(o, DISALLOW_TSV, 9);
    o = put(putDecimal(o, line), 0x09);
    if ((options & ROW_HOST) != 0) o = put(putTsvLower(o, host, hostLen), 0x09);
    o = putTsvText(o, url, urlLen);
    return put(o, 0x0a);
  }
  o = putText(o, JSON_START, 12);
  o = allowed ? putText(o, ALLOW_TSV, 5) : putText(o, DISALLOW_TSV, 8);
  o = putDecimal(putText(o, JSON_LINE, 9), line);
  if ((options & ROW_HOST) != 0) o = put(putJsonString(putText(o, JSON_HOST, 9), host, hostLen, true), 0x22);
  o = put(putJsonString(putText(o, JSON_URL, 8), url, urlLen, false), 0x22);
  if (outcome != OUTCOME_NONE) o = putOutcome(o, outcome);
  return put(put(o, 0x7d), 0x0a);
}

/** Whether a row with this verdict passes the --only filter in `options`. */
@inline export function rowWanted(options: u32, allowed: bool): bool {
  return allowed ? (options & ROW_ONLY_DISALLOWED) == 0 : (options & ROW_ONLY_ALLOWED) == 0;
}

// Many-agents rows (MULTI rows, src/table/abi.ts): verdict columns, then the host and URL.

const ALLOW_COLUMN: usize = memory.data<u8>([0x61, 0x6c, 0x6c, 0x6f, 0x77, 0x3a]); // "allow:"
const DISALLOW_COLUMN: usize = memory.data<u8>([0x64, 0x69, 0x73, 0x61, 0x6c, 0x6c, 0x6f, 0x77, 0x3a]); // "disallow:"
// {"url":"
const JSON_URL_FIRST: usize = memory.data<u8>([0x7b, 0x22, 0x75, 0x72, 0x6c, 0x22, 0x3a, 0x22]);
// ,"verdicts":{
const JSON_VERDICTS: usize = memory.data<u8>([0x2c, 0x22, 0x76, 0x65, 0x72, 0x64, 0x69, 0x63, 0x74, 0x73, 0x22, 0x3a, 0x7b]);

/**
 * The start of a many-agents row: nothing for TSV (its verdict columns come first),
 * `{"url":"…"[,"host":"…"],"verdicts":{` for JSONL.
 */
export function putMultiStart(o: usize, options: u32, host: usize, hostLen: u32, url: usize, urlLen: u32): usize {
  if ((options & ROW_JSONL) == 0) return o;
  o = put(putJsonString(putText(o, JSON_URL_FIRST, 8), url, urlLen, false), 0x22);
  if ((options & ROW_HOST) != 0) o = put(putJsonString(putText(o, JSON_HOST, 9), host, hostLen, true), 0x22);
  return putText(o, JSON_VERDICTS, 13);
}

/** One agent's column: `allow|disallow:LINE\t`, or its JSONL key and `allow|disallow","line":LINE}`. */
export function putColumn(o: usize, options: u32, key: usize, keyLen: u32, allowed: bool, line: u32): usize {
  if ((options & ROW_JSONL) == 0) {
    o = allowed ? putText(o, ALLOW_COLUMN, 6) : putText(o, DISALLOW_COLUMN, 9);
    return put(putDecimal(o, line), 0x09);
  }
  o = putText(o, key, keyLen);
  o = allowed ? putText(o, ALLOW_TSV, 5) : putText(o, DISALLOW_TSV, 8);
  return put(putDecimal(putText(o, JSON_LINE, 9), line), 0x7d);
}

/** The end of a many-agents row: `[HOST\t]URL\n` for TSV, `}[,"outcome":"…"]}\n` for JSONL. */
export function putMultiEnd(o: usize, options: u32, host: usize, hostLen: u32, url: usize, urlLen: u32, outcome: u32): usize {
  if ((options & ROW_JSONL) == 0) {
    if ((options & ROW_HOST) != 0) o = put(putTsvLower(o, host, hostLen), 0x09);
    return put(putTsvText(o, url, urlLen), 0x0a);
  }
  o = put(o, 0x7d);
  if (outcome != OUTCOME_NONE) o = putOutcome(o, outcome);
  return put(put(o, 0x7d), 0x0a);
}
