// Rule-table decoder constants: mirrors src/table/format.ts v3 (a test checks they agree).

export const TABLE_MAGIC: u32 = 0x4c425452;
export const FORMAT_VERSION: u32 = 3;

export const HEADER_SIZE: u32 = 48;
export const H_MAGIC: u32 = 0;
export const H_VERSION: u32 = 4;
export const H_FLAGS: u32 = 6;
export const H_BYTE_LENGTH: u32 = 8;
export const H_NODE_COUNT: u32 = 12;
export const H_NODES_OFFSET: u32 = 16;
export const H_FIRST_BYTES_OFFSET: u32 = 20;
export const H_WILDCARD_COUNT: u32 = 24;
export const H_WILDCARDS_OFFSET: u32 = 28;
export const H_SEGMENT_COUNT: u32 = 32;
export const H_SEGMENTS_OFFSET: u32 = 36;
export const H_POOL_OFFSET: u32 = 40;
export const H_POOL_LENGTH: u32 = 44;

export const NODE_SIZE: u32 = 32;
export const N_LABEL_OFFSET: u32 = 0;
export const N_LABEL_LENGTH: u32 = 4;
export const N_FIRST_CHILD: u32 = 8;
export const N_CHILD_COUNT: u32 = 12;
export const N_ALLOW_EXTRA: u32 = 14;
export const N_DISALLOW_EXTRA: u32 = 15;
export const MAX_EXTRA: u32 = 255;
export const N_PREFIX_ALLOW: u32 = 16;
export const N_PREFIX_DISALLOW: u32 = 20;
export const N_EXACT_ALLOW: u32 = 24;
export const N_EXACT_DISALLOW: u32 = 28;

export const WILDCARD_SIZE: u32 = 24;
export const W_LINE: u32 = 0;
export const W_PRIORITY: u32 = 4;
export const W_FIRST_SEGMENT: u32 = 8;
export const W_SEGMENT_COUNT: u32 = 12;
export const W_KIND: u32 = 16;
export const W_ANCHORED: u32 = 17;
export const W_ID: u32 = 20;

export const SEGMENT_SIZE: u32 = 12;
export const S_BYTES_OFFSET: u32 = 0;
export const S_LENGTH: u32 = 4;
export const S_FAIL_OFFSET: u32 = 8;

export const KIND_DISALLOW: u32 = 0;
export const KIND_ALLOW: u32 = 1;

export const FLAG_NORMALIZE_URL: u32 = 1 << 0;
export const FLAG_IMPLICIT_ROBOTS_TXT: u32 = 1 << 1;
export const FLAG_CASE_INSENSITIVE: u32 = 1 << 2;
export const FLAG_WILDCARD_AUTOMATON: u32 = 1 << 3;
