// The host of a URL, for `classify`: which robots.txt file applies to each line.
import { findDelimiter, lanesBelow } from './scan';
import { HOST_SLOT_SIZE, HS_HASH, HS_ID, HS_KEY_AT, HS_KEY_LENGTH } from './abi';

/** Where the last `findHost` found the host (an empty span when the URL has none). */
export let hostStart: u32 = 0;
export let hostLen: u32 = 0;

/**
 * Finds the host (with its `:port`, without userinfo) of the URL at [url, url + len),
 * splitting it the way preparePath (url.ts) splits off the path: a scheme is recognized
 * only as "://" right before the first '/', '?' or ';', a leading "//" starts an
 * authority, and what precedes the path of a scheme-less "example.com/x" is its host.
 * A path-relative URL ("/x") has no host. The default port of an http or https URL
 * (`:80`, `:443`, also written with leading zeros) and an empty port are left out:
 * RFC 3986 §6.2.3, `https://example.com:443/` names the origin of
 * `https://example.com/`, so both look up one robots.txt. O(len), SIMD scans.
 */
export function findHost(url: usize, len: u32): void {
  let start: u32 = len >= 2 && load<u8>(url) == 0x2f && load<u8>(url, 1) == 0x2f ? 2 : 0;
  let end = findDelimiter(url, start, len);
  let defaultPort: u32 = 0;
  if (
    end > start && end + 1 < len && load<u8>(url + end - 1) == 0x3a &&
    load<u8>(url + end) == 0x2f && load<u8>(url + end + 1) == 0x2f
  ) {
    if (start == 0) defaultPort = schemeDefaultPort(url, end - 1);
    start = end + 2;
    end = findDelimiter(url, start, len);
  }
  // RFC 3986 §3.2.1: userinfo ends at the (last) '@' of the authority (16 bytes a step,
  // reading up to 15 bytes past `end`, as findDelimiter does).
  let userinfoEnd: u32 = start;
  for (let i = start; i < end; i += 16) {
    const at = <u32>i8x16.bitmask(i8x16.eq(v128.load(url + i), i8x16.splat(0x40))) & lanesBelow(end - i);
    if (at != 0) userinfoEnd = i + 32 - clz(at);
  }
  start = userinfoEnd;
  hostStart = start;
  hostLen = defaultPort == 0 ? end - start : withoutDefaultPort(url + start, end - start, defaultPort);
}

/** 80 for the scheme `http`, 443 for `https` (ASCII case-insensitive, RFC 3986 §3.1), else 0. */
function schemeDefaultPort(p: usize, n: u32): u32 {
  if (n < 4 || n > 5) return 0;
  if ((load<u8>(p) | 0x20) != 0x68 || (load<u8>(p, 1) | 0x20) != 0x74 || (load<u8>(p, 2) | 0x20) != 0x74 || (load<u8>(p, 3) | 0x20) != 0x70) return 0;
  if (n == 4) return 80;
  return (load<u8>(p, 4) | 0x20) == 0x73 ? 443 : 0;
}

/**
 * Length of the authority p[0, n) without its port when that port is empty or equals
 * `port` (decimal digits, leading zeros allowed); n otherwise. A ':' inside an IPv6
 * literal ("[::1]") is not a port separator.
 */
function withoutDefaultPort(p: usize, n: u32, port: u32): u32 {
  // Most authorities have no ':' at all: one 16-byte step per 16 bytes tells (reads up to
  // 15 bytes past p + n, as findDelimiter does).
  let any: u32 = 0;
  for (let i: u32 = 0; i < n && any == 0; i += 16) {
    any = <u32>i8x16.bitmask(i8x16.eq(v128.load(p + i), i8x16.splat(0x3a))) & lanesBelow(n - i);
  }
  if (any == 0) return n;
  let colon = n;
  for (let i = n; i > 0; i--) {
    const c = load<u8>(p + i - 1);
    if (c == 0x3a) {
      colon = i - 1;
      break;
    }
    if (c == 0x5d) return n;
  }
  if (colon == n) return n;
  let value: u32 = 0;
  for (let i = colon + 1; i < n; i++) {
    const d = <u32>load<u8>(p + i) - 0x30;
    if (d > 9) return n;
    // Past 65535 no value can equal `port`; stop growing so the sum cannot wrap.
    if (value <= 65535) value = value * 10 + d;
  }
  return colon + 1 == n || value == port ? colon : n;
}

/** FNV-1a of the ASCII-lowercased bytes p[0, n): the host cache key (collisions are re-checked by the host). */
export function hostHash(p: usize, n: u32): u32 {
  let h: u32 = 0x811c9dc5;
  for (let i: u32 = 0; i < n; i++) {
    let c = <u32>load<u8>(p + i);
    if (c - 0x41 < 26) c |= 0x20;
    h = (h ^ c) * 0x01000193;
  }
  return h;
}

// HostIndex: an open-addressing table from a host's lowercase bytes to the caller's id
// for it; its slot layout (HOST_SLOT) is specified in src/table/abi.ts. The host writes
// slots and keys (src/wasm/host-index.ts); Wasm only reads them, once per line.

/** Whether p[0, n), ASCII-lowercased, equals key[0, n). Reads up to 15 bytes past both. */
@inline function equalsLowered(key: usize, p: usize, n: u32): bool {
  // Invariant: key[0, k) == lower(p[0, k)). ⌈n / 16⌉ steps.
  for (let k: u32 = 0; k < n; k += 16) {
    const v = v128.load(p + k);
    const upper = i8x16.lt_u(i8x16.sub(v, i8x16.splat(0x41)), i8x16.splat(26));
    const lowered = v128.or(v, v128.and(upper, i8x16.splat(0x20)));
    const differ = <u32>i8x16.bitmask(v128.not(i8x16.eq(lowered, v128.load(key + k)))) & lanesBelow(n - k);
    if (differ != 0) return false;
  }
  return true;
}

/** The id the HostIndex at `index` (mask + 1 slots) holds for host p[0, n) with `hash`, or 0. */
export function lookupHost(index: usize, mask: u32, p: usize, n: u32, hash: u32): u32 {
  let i = hash & mask;
  // Terminates: the host keeps at least half of the slots empty.
  while (true) {
    const slot = index + <usize>i * HOST_SLOT_SIZE;
    const id = load<u32>(slot, HS_ID);
    if (id == 0) return 0;
    if (load<u32>(slot, HS_HASH) == hash && load<u32>(slot, HS_KEY_LENGTH) == n && equalsLowered(<usize>load<u32>(slot, HS_KEY_AT), p, n)) return id;
    i = (i + 1) & mask;
  }
}
