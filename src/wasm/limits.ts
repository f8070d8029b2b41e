// The engine's limits (Wasm memory per engine, URL length), their defaults, and the RangeErrors that report them.
//
// Both limits are checked before the engine changes any state: a call that fails on one
// leaves the engine answering every later call exactly as before (docs/RELIABILITY.md).

/** The most memory a Wasm32 module can address: 65,536 pages of 64 KiB, 4 GiB. */
export const WASM32_MAX_BYTES = 65536 * 65536;

/**
 * Default Wasm memory per engine (one engine per thread): 1 GiB. A call whose layout
 * (tables, URL bytes, scratch, rows) would need more throws MemoryLimitError. With the
 * default URL limit a call needs at most about 400 MiB (16 MiB × 3 bytes of UTF-8 per
 * UTF-16 unit, 3 scratch bytes per URL byte, 6 row bytes per line byte, the 64 MiB arena).
 */
export const DEFAULT_MAX_MEMORY_BYTES = 1 << 30;

/**
 * Default longest URL the engine judges, in UTF-8 bytes (for a line: without its line
 * break and a final CR): 16 MiB, far beyond any URL a server accepts (RFC 9309 sets no
 * limit; RFC 9110 §4.1 recommends supporting 8,000 octets). A longer one is a
 * UrlLengthError, never a verdict on part of it.
 */
export const DEFAULT_MAX_URL_BYTES = 16 << 20;

/**
 * The highest maxUrlBytes accepted: 512 MiB. The matcher keeps positions in prepared
 * paths (up to 3 bytes per URL byte) as signed 32-bit numbers, exact below 2 GiB.
 */
export const MAX_URL_BYTES_CEILING = 512 << 20;

/**
 * Default memory an engine keeps after a call: 256 MiB. When a call leaves the Wasm
 * memory larger (memory never shrinks), the engine drops that instance and starts a
 * fresh one; resident tables and the HostIndex are uploaded again on their next use.
 * Everyday batches (256 KiB chunks, a 64 MiB table arena) stay well below it.
 */
export const DEFAULT_RETAIN_MEMORY_BYTES = 256 << 20;

/** The limits of one engine. */
export interface EngineLimits {
  /** Wasm memory the engine may grow to, in bytes (default DEFAULT_MAX_MEMORY_BYTES, at most 4 GiB). */
  readonly maxMemoryBytes: number;
  /** Longest URL judged, in UTF-8 bytes (default DEFAULT_MAX_URL_BYTES, at most MAX_URL_BYTES_CEILING). */
  readonly maxUrlBytes: number;
  /** Memory kept after a call before the instance is replaced by a fresh one (default DEFAULT_RETAIN_MEMORY_BYTES). */
  readonly retainMemoryBytes: number;
}

/** The defaults above. */
export const DEFAULT_ENGINE_LIMITS: EngineLimits = {
  maxMemoryBytes: DEFAULT_MAX_MEMORY_BYTES,
  maxUrlBytes: DEFAULT_MAX_URL_BYTES,
  retainMemoryBytes: DEFAULT_RETAIN_MEMORY_BYTES,
};

/**
 * `limits` checked and completed from `base`: each a positive integer within its ceiling.
 * @example checkLimits({ maxUrlBytes: 1 << 20 }, DEFAULT_ENGINE_LIMITS).maxUrlBytes // 1048576
 */
export function checkLimits(limits: Partial<EngineLimits>, base: EngineLimits): EngineLimits {
  const pick = (key: keyof EngineLimits, ceiling: number): number => {
    const value = limits[key];
    if (value === undefined) return base[key];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > ceiling) {
      throw new RangeError(`${key} must be an integer from 1 to ${ceiling}, got ${String(value)}`);
    }
    return value;
  };
  return {
    maxMemoryBytes: pick('maxMemoryBytes', WASM32_MAX_BYTES),
    maxUrlBytes: pick('maxUrlBytes', MAX_URL_BYTES_CEILING),
    retainMemoryBytes: pick('retainMemoryBytes', WASM32_MAX_BYTES),
  };
}

/**
 * A call needed more Wasm memory than the engine may have: `requested` bytes (the layout
 * a call or a table needs) over `limit` (maxMemoryBytes), or the runtime refused to grow
 * memory that far (`cause`). Thrown before any state changes: the engine answers the
 * next call as before.
 */
export class MemoryLimitError extends RangeError {
  constructor(readonly requested: number, readonly limit: number, what: string, cause?: unknown) {
    super(
      cause === undefined
        ? `robotstxt-wasm: ${what} needs ${requested} bytes of Wasm memory, over the engine's limit of ${limit} bytes (maxMemoryBytes)`
        : `robotstxt-wasm: ${what} needs ${requested} bytes of Wasm memory, within the engine's limit of ${limit} bytes, but the runtime refused to grow it: ${cause instanceof Error ? cause.message : String(cause)}`,
      cause === undefined ? undefined : { cause },
    );
    this.name = 'MemoryLimitError';
  }
}

/**
 * A URL longer than the engine's maxUrlBytes: `length` UTF-8 bytes (for a string longer
 * than the limit in UTF-16 units already, its unit count: each unit is at least a byte).
 * `index` is its position in a batch of strings; `offset` the byte offset of its line in
 * a batch of lines (-1 where it does not apply). Thrown before the engine judges that URL
 * and before any state changes: the engine answers the next call as before. With a
 * RowSink, rows of the lines before it have been handed to the sink.
 */
export class UrlLengthError extends RangeError {
  constructor(readonly length: number, readonly limit: number, readonly index: number, readonly offset: number, exact = true) {
    const where = index >= 0 ? `urls[${index}]` : offset >= 0 ? `the line at byte ${offset}` : 'the URL';
    super(`robotstxt-wasm: ${where} is ${exact ? '' : 'at least '}${length} bytes long, over the engine's URL limit of ${limit} bytes (maxUrlBytes)`);
    this.name = 'UrlLengthError';
  }
}
