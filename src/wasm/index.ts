// The only door to WebAssembly: the engine of this thread and the ABI names its callers use.
import { SPAN_SIZE, SP_HOST_HASH, SP_HOST_ID, SP_HOST_LENGTH, SP_HOST_START, SP_LINE_LENGTH, SP_LINE_START } from '../table/abi.js';

export { WasmEngine, getEngine, setEngineLimits, engineLimits, type RowSink, type RowBatch, type SpanBatch, type LineVerdicts, type AgentTables } from './batches.js';
export {
  DEFAULT_ENGINE_LIMITS, DEFAULT_MAX_MEMORY_BYTES, DEFAULT_MAX_URL_BYTES, DEFAULT_RETAIN_MEMORY_BYTES, MAX_URL_BYTES_CEILING, WASM32_MAX_BYTES,
  MemoryLimitError, UrlLengthError, type EngineLimits,
} from './limits.js';
export type { EngineOptions } from './arena.js';
export { LINE_CHUNK_BYTES } from './memory.js';
export {
  ROW_JSONL, ROW_ONLY_ALLOWED, ROW_ONLY_DISALLOWED, ROW_HOST, ROW_MISSING_DISALLOW, ROW_OUTCOME, ROW_UNAVAILABLE, ROW_UNREACHABLE,
  TABLE_NONE, TABLE_UNAVAILABLE, TABLE_UNREACHABLE, MATCH_NOT_PLAIN, ORIGIN_MAX_BYTES,
} from '../table/abi.js';

/** u32 words of a span record in a SpanBatch, and each field's word (src/table/abi.ts SPAN). */
export const SPAN_FIELDS = SPAN_SIZE / 4;
export const SPAN_LINE_START = SP_LINE_START / 4;
export const SPAN_LINE_LENGTH = SP_LINE_LENGTH / 4;
export const SPAN_HOST_START = SP_HOST_START / 4;
export const SPAN_HOST_LENGTH = SP_HOST_LENGTH / 4;
export const SPAN_HOST_HASH = SP_HOST_HASH / 4;
/** The HostIndex id of the line's host (0: not in the index). */
export const SPAN_HOST_ID = SP_HOST_ID / 4;
