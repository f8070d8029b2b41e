// THE rule-table format: the one description of the bytes the Wasm matcher reads.
//
// A RuleTable is the compiled form of the rules that apply to one crawler (or one ACAP
// usage). It is position-independent, little-endian, and every offset is relative to the
// table's first byte, so the host can place it anywhere in Wasm memory.
// assembly/table.ts mirrors the constants below ("mirrors format.ts v2"); a test checks
// that both sides agree. Any layout change bumps FORMAT_VERSION in the same commit.
//
//   offset  size  field
//   ┌──────┬─────┬──────────────────────────────────────────────────────────────┐
//   │   0  │ u32 │ magic 0x4C425452 ("RTBL")                                    │
//   │   4  │ u16 │ version (FORMAT_VERSION)                                     │
//   │   6  │ u16 │ flags (FLAG_*)                                               │
//   │   8  │ u32 │ byteLength: size of the whole table                          │
//   │  12  │ u32 │ nodeCount            (≥ 1: node 0 is the trie root)          │
//   │  16  │ u32 │ nodesOffset   → nodeCount × NODE (32 B)                      │
//   │  20  │ u32 │ firstBytesOffset → nodeCount × u8: first label byte per node │
//   │  24  │ u32 │ wildcardCount                                                │
//   │  28  │ u32 │ wildcardsOffset → wildcardCount × WILDCARD (24 B)            │
//   │  32  │ u32 │ segmentCount                                                 │
//   │  36  │ u32 │ segmentsOffset → segmentCount × SEGMENT (12 B)               │
//   │  40  │ u32 │ poolOffset → byte pool (labels, segment bytes, u32 KMP links)│
//   │  44  │ u32 │ poolLength                                                   │
//   └──────┴─────┴──────────────────────────────────────────────────────────────┘
//   then: nodes │ firstBytes (padded to 4) │ wildcards │ segments │ pool
//
// Plain rules live in a radix trie walked once per URL: rules without `*`, and rules whose
// `*`s all end the pattern (`/p*`, `/p**$`), which match the paths starting with `/p` as a
// prefix rule does, only with a higher priority. NODE (32 bytes):
//    0 u32 labelOffset        bytes this node adds to its parent's path (table-relative)
//    4 u32 labelLength        0 only for the root
//    8 u32 firstChild         node index; a node's children are contiguous,
//   12 u16 childCount         sorted by their first label byte (see firstBytes); ≤ 256
//   14 u8  allowExtra         priority of prefixAllowLine's rule beyond the depth: its
//                             trailing `*`s and `$`; 0 for a rule without `*` or none
//   15 u8  disallowExtra      likewise for prefixDisallowLine
//   16 u32 prefixAllowLine    1-based line of the best `allow: <path>[*…][$]` ending here
//                             (highest extra, then earliest line), 0 = none
//   20 u32 prefixDisallowLine
//   24 u32 exactAllowLine     same for `allow: <path>$` (the earliest)
//   28 u32 exactDisallowLine
// A prefix rule ending at depth d (bytes from the root) has priority d + its extra, an
// exact one d + 1, which is the length of the pattern as written after normalization
// (RFC 9309 §2.2.2: the most specific match is the one with the most octets). So a deeper
// node's rule does not always outrank a shallower one's: `/a**` (3) outranks `/ab` (2).
// A pattern with more than MAX_EXTRA trailing `*`s is a wildcard rule.
//
// Rules with `*` are WILDCARD records (24 bytes), sorted by priority descending, then line:
//    0 u32 line
//    4 u32 priority           pattern length after normalization, `*` and `$` included
//    8 u32 firstSegment       index into segments
//   12 u32 segmentCount       the text before the first `*`, the non-empty middle
//                             pieces, the text after the last `*`; 1 for a rule without
//                             `*` (only when the encoder puts every rule here)
//   16 u8  kind               KIND_DISALLOW | KIND_ALLOW
//   17 u8  anchored           1 if the pattern ended in `$`
//   18 u16 reserved           0
//   20 u32 id                 caller's rule id (ACAP field index; REP: rule index)
// SEGMENT (12 bytes): 0 u32 bytesOffset, 4 u32 length, 8 u32 failOffset: a table-relative
// offset of `length` u32 KMP failure links (the longest proper border of each prefix).

/** "RTBL" read as a little-endian u32. */
export const TABLE_MAGIC = 0x4c425452;
export const FORMAT_VERSION = 3;

export const HEADER_SIZE = 48;
export const H_MAGIC = 0;
export const H_VERSION = 4;
export const H_FLAGS = 6;
export const H_BYTE_LENGTH = 8;
export const H_NODE_COUNT = 12;
export const H_NODES_OFFSET = 16;
export const H_FIRST_BYTES_OFFSET = 20;
export const H_WILDCARD_COUNT = 24;
export const H_WILDCARDS_OFFSET = 28;
export const H_SEGMENT_COUNT = 32;
export const H_SEGMENTS_OFFSET = 36;
export const H_POOL_OFFSET = 40;
export const H_POOL_LENGTH = 44;

export const NODE_SIZE = 32;
export const N_LABEL_OFFSET = 0;
export const N_LABEL_LENGTH = 4;
export const N_FIRST_CHILD = 8;
export const N_CHILD_COUNT = 12;
export const N_ALLOW_EXTRA = 14;
export const N_DISALLOW_EXTRA = 15;
/** The largest extra priority a trie prefix rule can carry (a u8). */
export const MAX_EXTRA = 255;
export const N_PREFIX_ALLOW = 16;
export const N_PREFIX_DISALLOW = 20;
export const N_EXACT_ALLOW = 24;
export const N_EXACT_DISALLOW = 28;

export const WILDCARD_SIZE = 24;
export const W_LINE = 0;
export const W_PRIORITY = 4;
export const W_FIRST_SEGMENT = 8;
export const W_SEGMENT_COUNT = 12;
export const W_KIND = 16;
export const W_ANCHORED = 17;
export const W_ID = 20;

export const SEGMENT_SIZE = 12;
export const S_BYTES_OFFSET = 0;
export const S_LENGTH = 4;
export const S_FAIL_OFFSET = 8;

export const KIND_DISALLOW = 0;
export const KIND_ALLOW = 1;

/** URLs are percent-normalized per RFC 9309 §2.2.2 before matching (profile 'rfc'). */
export const FLAG_NORMALIZE_URL = 1 << 0;
/** `/robots.txt` is always allowed (RFC 9309 §2.2.2); Google's matcher has no such rule. */
export const FLAG_IMPLICIT_ROBOTS_TXT = 1 << 1;
/** ASCII letters in URLs are lowercased before matching (ACAP §2.8); patterns are stored lowercased. */
export const FLAG_CASE_INSENSITIVE = 1 << 2;
/**
 * The module matches the wildcard rules through one automaton built beside the table
 * (assembly/wildcards.ts) instead of one by one; a hint the encoder sets (encode.ts,
 * AUTOMATON_CROWD), verdicts are the same either way.
 */
export const FLAG_WILDCARD_AUTOMATON = 1 << 3;
export const KNOWN_FLAGS = FLAG_NORMALIZE_URL | FLAG_IMPLICIT_ROBOTS_TXT | FLAG_CASE_INSENSITIVE | FLAG_WILDCARD_AUTOMATON;
