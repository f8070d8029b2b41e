// Host–Wasm ABI constants: mirrors src/table/abi.ts v6 (a test checks they agree).

export const ABI_VERSION: u32 = 6;

export const SIMD_SLACK: u32 = 16;

export const SPAN_SIZE: u32 = 32;
export const SP_LINE_START: u32 = 0;
export const SP_LINE_LENGTH: u32 = 4;
export const SP_HOST_START: u32 = 8;
export const SP_HOST_LENGTH: u32 = 12;
export const SP_HOST_HASH: u32 = 16;
export const SP_HOST_ID: u32 = 28;

export const HOST_SLOT_SIZE: u32 = 16;
export const HS_HASH: u32 = 0;
export const HS_KEY_AT: u32 = 4;
export const HS_KEY_LENGTH: u32 = 8;
export const HS_ID: u32 = 12;

export const TABLE_SLOT_SIZE: u32 = 8;
export const TS_TABLE_AT: u32 = 0;
export const TS_INDEX_AT: u32 = 4;

export const MULTI_MAX_TABLES: u32 = 16384;

export const GROUP_ENTRY_SIZE: u32 = 8;
export const GE_SLOT: u32 = 0;
export const GE_SAME_AS: u32 = 4;
export const COLUMN_SIZE: u32 = 16;
export const CL_KEY_AT: u32 = 0;
export const CL_KEY_LENGTH: u32 = 4;
export const CL_ALLOWED: u32 = 8;
export const CL_RESULT: u32 = 12;
export const ROW_COLUMN_BYTES: u32 = 32;

export const RULE_INDEX_ALIGN: u32 = 16;

export const ROW_JSONL: u32 = 1;
export const ROW_ONLY_ALLOWED: u32 = 2;
export const ROW_ONLY_DISALLOWED: u32 = 4;
export const ROW_HOST: u32 = 8;
export const ROW_MISSING_DISALLOW: u32 = 16;
export const ROW_OUTCOME: u32 = 32;
export const ROW_UNAVAILABLE: u32 = 64;
export const ROW_UNREACHABLE: u32 = 128;
export const ROW_FIXED_BYTES: u32 = 96;
export const ROW_BYTES_PER_BYTE: u32 = 6;

export const OUTCOME_NONE: u32 = 0;
export const OUTCOME_OK: u32 = 1;
export const OUTCOME_UNAVAILABLE: u32 = 2;
export const OUTCOME_UNREACHABLE: u32 = 3;
export const OUTCOME_NO_ORIGIN: u32 = 4;

export const TABLE_NONE: i32 = -1;
export const TABLE_UNREACHABLE: i32 = -2;
export const TABLE_UNAVAILABLE: i32 = -3;

export const MATCH_NOT_PLAIN: u32 = 2;
export const ORIGIN_MAX_BYTES: u32 = 512;
