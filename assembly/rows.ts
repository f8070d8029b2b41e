// CLI output rows written by Wasm: `allow|disallow<TAB>LINE[<TAB>HOST]<TAB>URL` or one JSON object per line.
//
// The CLI streams millions of URLs; formatting them here means the host never loops
// per line in JS: it copies a chunk in, gets a chunk of finished rows out.

// The row format and its options (ROW_*) are specified in src/table/abi.ts.
import { ROW_BYTES_PER_BYTE, ROW_FIXED_BYTES, ROW_HOST, ROW_JSONL, ROW_ONLY_ALLOWED, ROW_ONLY_DISALLOWED } from './abi';

/** Longest row for a URL of `urlLen` and a host of `hostLen` bytes (JSON escapes are 6 bytes per byte). */
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

function putLower(o: usize, p: usize, n: u32): usize {
  for (let i: u32 = 0; i < n; i++) {
    let c = <u32>load<u8>(p + i);
    if (c - 0x41 < 26) c |= 0x20;
    store<u8>(o + i, c);
  }
  return o + n;
}

/**
 * Writes one row at `o` and returns the end. `host` is written lowercased (it names the
 * robots.txt file the verdict came from); the URL is written as it came.
 */
export function putRow(o: usize, options: u32, allowed: bool, line: u32, host: usize, hostLen: u32, url: usize, urlLen: u32): usize {
  if ((options & ROW_JSONL) == 0) {
    o = allowed ? putText(o, ALLOW_TSV, 6) : putText(o, DISALLOW_TSV, 9);
    o = put(putDecimal(o, line), 0x09);
    if ((options & ROW_HOST) != 0) o = put(putLower(o, host, hostLen), 0x09);
    o = putText(o, url, urlLen);
    return put(o, 0x0a);
  }
  o = putText(o, JSON_START, 12);
  o = allowed ? putText(o, ALLOW_TSV, 5) : putText(o, DISALLOW_TSV, 8);
  o = putDecimal(putText(o, JSON_LINE, 9), line);
  if ((options & ROW_HOST) != 0) o = put(putJsonString(putText(o, JSON_HOST, 9), host, hostLen, true), 0x22);
  o = put(putJsonString(putText(o, JSON_URL, 8), url, urlLen, false), 0x22);
  return put(put(o, 0x7d), 0x0a);
}

/** Whether a row with this verdict passes the --only filter in `options`. */
@inline export function rowWanted(options: u32, allowed: bool): bool {
  return allowed ? (options & ROW_ONLY_DISALLOWED) == 0 : (options & ROW_ONLY_ALLOWED) == 0;
}
