// THE host–Wasm ABI: every binary layout besides the RuleTable that both sides read or write.
//
// The RuleTable has its own spec (format.ts). Everything else that crosses the boundary
// is described here once: the span record and the row format (classify and check), the
// HostIndex slot, the table-slot pair, the many-agents rows (group entries, column
// records), and how the host sizes and places a RuleIndex.
// assembly/abi.ts mirrors the constants below ("mirrors src/table/abi.ts v6"); a test
// (test/format-mirror.test.ts) checks that both sides agree and that the diagrams agree
// with the constants. Any layout change bumps ABI_VERSION in the same commit; the Wasm
// module exports its ABI_VERSION and the host refuses a module built for another.
// Every field is little-endian.

export const ABI_VERSION = 6;

/**
 * Readable bytes every region keeps past its end: the Wasm scanners load 16 bytes at a
 * time and mask off the lanes past the data (assembly/scan.ts), so a load may start at
 * the last byte.
 */
export const SIMD_SLACK = 16;

// SPAN record (32 bytes), one per input line, written by `scanHosts`, read by `formatSpans`
// and by the host (the CLI's classify); offsets relative to the batch's input:
//   ┌────┬─────┬──────────────────────────────────────────────┐
//   │  0 │ u32 │ lineStart                                    │
//   │  4 │ u32 │ lineLength (a final CR dropped)              │
//   │  8 │ u32 │ hostStart                                    │
//   │ 12 │ u32 │ hostLength (0: the URL has no host)          │
//   │ 16 │ u32 │ hostHash (FNV-1a of the lowercased host)     │
//   │ 20 │ u32 │ reserved 0                                   │
//   │ 24 │ u32 │ reserved 0                                   │
//   │ 28 │ u32 │ hostId (the HostIndex id, 0: not in it)      │
//   └────┴─────┴──────────────────────────────────────────────┘
export const SPAN_SIZE = 32;
export const SP_LINE_START = 0;
export const SP_LINE_LENGTH = 4;
export const SP_HOST_START = 8;
export const SP_HOST_LENGTH = 12;
export const SP_HOST_HASH = 16;
export const SP_HOST_ID = 28;

// HOST_SLOT (16 bytes): one slot of the HostIndex, an open-addressing table (linear
// probing from hash & mask, load ≤ 1/2, so a probe always ends at an empty slot) from a
// host's lowercase bytes to the caller's id for it. The host writes slots and keys; Wasm
// only reads them, once per line:
//    0 u32 hash            as hostHash
//    4 u32 keyAt           address of the lowercase key bytes (SIMD_SLACK readable after)
//    8 u32 keyLength
//   12 u32 id              ≥ 1; 0 marks an empty slot
export const HOST_SLOT_SIZE = 16;
export const HS_HASH = 0;
export const HS_KEY_AT = 4;
export const HS_KEY_LENGTH = 8;
export const HS_ID = 12;

// TABLE_SLOT (8 bytes): where table number id of a classify batch lives, at slots + 8 × id
// (the batch's i32 ids select one per line; -1: the host has no robots.txt):
//    0 u32 tableAt         address of the RuleTable
//    4 u32 indexAt         address of its RuleIndex
export const TABLE_SLOT_SIZE = 8;
export const TS_TABLE_AT = 0;
export const TS_INDEX_AT = 4;

// MULTI results (`matchUrlsMulti`, `matchLinesMulti`: many agents in one pass): the
// caller writes one TABLE_SLOT per distinct table, slots[0, tableCount), at most
// MULTI_MAX_TABLES of them (the slots region's size). Each URL is prepared once and
// judged against every table; results are URL-major:
//   out[i × tableCount + t]       u8   verdict of URL i under table t (1 allow, 0 disallow)
//   linesOut[i × tableCount + t]  u32  its deciding line (0: none), when linesOut ≠ 0
// A table whose flags differ from table 0's gets the URL prepared again for itself.
export const MULTI_MAX_TABLES = 16384;

// MULTI rows (`formatSpansMulti`: `check`/`classify --agents`, one row per line with a
// verdict column per agent). Line i of a span batch names a group by ids[i] (i32 ≥ 0):
// the tables of its host for every agent, `width` records at groups + 8 × width × group
// (the host writes them in the lengths region, src/wasm/memory.ts).
// GROUP_ENTRY (8 bytes), one per agent column of a group:
//    0 i32 slot            TABLE_SLOT number of the agent's table, or a TABLE_* code
//    4 u32 sameAs          column whose verdict this one copies (its own: judged here)
export const GROUP_ENTRY_SIZE = 8;
export const GE_SLOT = 0;
export const GE_SAME_AS = 4;
// COLUMN (16 bytes), one per agent at columns + 16 × column (the lines region, the JSONL
// key bytes after the records):
//    0 u32 keyAt           address of its JSONL key: `"AGENT":{"verdict":"`, `,` first from column 1 on
//    4 u32 keyLength
//    8 u32 allowed         written by the call: lines this agent may fetch
//   12 u32 result          the call's scratch: the line's verdict (bit 31) and deciding line
// Rows: tsv   allow|disallow:LINE \t ... [HOST \t] URL \n
//       jsonl {"url":"URL"[,"host":"HOST"],"verdicts":{KEY allow|disallow","line":LINE},...}[,"outcome":"…"]}\n
// A row takes at most ROW_FIXED_BYTES + ROW_BYTES_PER_BYTE × (url + host bytes) +
// Σ (keyLength + ROW_COLUMN_BYTES). `allowed()` counts lines every agent may fetch.
export const COLUMN_SIZE = 16;
export const CL_KEY_AT = 0;
export const CL_KEY_LENGTH = 4;
export const CL_ALLOWED = 8;
export const CL_RESULT = 12;
/** The fixed bytes of one verdict column beyond its key (`disallow:4294967295\t`, or its JSON). */
export const ROW_COLUMN_BYTES = 32;

// RuleIndex: derived from a table by the module (`indexTable`), laid out by
// assembly/rule-index.ts, never read by the host. The host only places it: at a
// RULE_INDEX_ALIGN-aligned address with SIMD_SLACK readable bytes after, sized by the
// module's `indexBytesFor(flags, wildcardCount, nodeCount, segmentCount, poolLength, lean)`
// (header fields of the table), so the layout can change without the host knowing it. The
// module writes to it while matching (the wildcard automaton's stamps, the wildcard DFA's
// states): one RuleIndex serves one thread. A lean RuleIndex (`lean` 1) leaves out the
// DFA or automaton region, which is most of the bytes of a table with one; its table is
// matched rule by rule, and the module counts its paths in a u32 at `leanCounter(table,
// index)` (0 for a full index), which the host reads to place the table again in full.
export const RULE_INDEX_ALIGN = 16;

// Output rows (`formatLines`, `formatSpans`), one per judged line, options a bit set:
//   tsv:   allow|disallow \t LINE [\t HOST] \t URL \n
//   jsonl: {"verdict":"allow|disallow","line":LINE[,"host":"HOST"],"url":"URL"[,"outcome":"…"]}\n
// HOST is the lowercased host (ROW_HOST), a default port dropped; the URL comes as
// written. TSV escapes fields as PostgreSQL's text COPY reads them (`\\`, `\t`, `\n`,
// `\r`, `\xHH` for other bytes below 0x20 and 0x7f); jsonl escapes `"`, `\` and control
// bytes, and writes each byte of invalid UTF-8 as \ufffd. A row takes at most
// ROW_FIXED_BYTES + ROW_BYTES_PER_BYTE × (url + host bytes).
export const ROW_JSONL = 1;
/** Only rows of allowed URLs (the verdicts are still counted). */
export const ROW_ONLY_ALLOWED = 2;
/** Only rows of disallowed URLs. */
export const ROW_ONLY_DISALLOWED = 4;
/** A host column (classify). */
export const ROW_HOST = 8;
/** A line whose host has no robots.txt is disallowed, not allowed (RFC 9309 §2.3.1.3 "unavailable" is allowed). */
export const ROW_MISSING_DISALLOW = 16;
/** JSONL rows get an `"outcome"` field: how the robots.txt deciding them was fetched. */
export const ROW_OUTCOME = 32;
/** `check` of a fetched robots.txt that was unavailable (RFC 9309 §2.3.1.3): all allowed, line 0. */
export const ROW_UNAVAILABLE = 64;
/** `check` of a fetched robots.txt that was unreachable (RFC 9309 §2.3.1.4): all disallowed, line 0. */
export const ROW_UNREACHABLE = 128;
/** The fixed part of a row (verdict, line, keys, outcome) is under this many bytes. */
export const ROW_FIXED_BYTES = 96;
/** A JSON escape (\u00XX) is 6 bytes per input byte. */
export const ROW_BYTES_PER_BYTE = 6;

// The `"outcome"` value of a JSONL row with ROW_OUTCOME (`putRow`'s `outcome`): no field,
// or "ok", "unavailable", "unreachable", "none" (the line has no http(s) origin).
export const OUTCOME_NONE = 0;
export const OUTCOME_OK = 1;
export const OUTCOME_UNAVAILABLE = 2;
export const OUTCOME_UNREACHABLE = 3;
export const OUTCOME_NO_ORIGIN = 4;

// Table ids of `formatSpans` below 0 name no table: the line gets line 0 and the verdict
// of its code. NONE: no robots.txt (allowed unless ROW_MISSING_DISALLOW); UNREACHABLE:
// disallowed (RFC 9309 §2.3.1.4, /robots.txt itself as the profile says); UNAVAILABLE:
// allowed (§2.3.1.3).
export const TABLE_NONE = -1;
export const TABLE_UNREACHABLE = -2;
export const TABLE_UNAVAILABLE = -3;

// One URL on a known origin (`matchOnOrigin`, compat's per-URL check): the host keeps the
// robots.txt's origin, `scheme://host[:port]` as WHATWG URL serializes it, in a region of
// ORIGIN_MAX_BYTES (src/wasm/memory.ts) and passes the URL's bytes as `matchUrls` would one
// URL. The module judges the URL (returns 1 allow, 0 disallow; the deciding line to
// linesOut[0] when linesOut ≠ 0) only when it is plainly on that origin: the origin's
// bytes exactly, then nothing or a path, query and fragment that WHATWG URL parsing
// leaves as written (assembly/url.ts isPlainOnOrigin). Otherwise it returns
// MATCH_NOT_PLAIN, writes nothing, and the host parses the URL itself.
export const MATCH_NOT_PLAIN = 2;
/** Longest origin the region holds; compat parses every URL of a longer one. */
export const ORIGIN_MAX_BYTES = 512;
