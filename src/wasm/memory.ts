// The module's linear memory: where each io region lives, growing it within the engine's limit, and the one loop that grows a chunk until a line fits.
//
// Linear memory, every region 16-byte aligned and followed by SIMD_SLACK readable bytes
// (the Wasm scanners load 16 bytes at a time and mask off what lies past the end). The
// module allocates nothing; it only reads and writes where the host tells it:
//
//   0 ── heapBase ─ hostsAt ────── arenaAt ─────────────── inputAt ──────────────────────────────────────────────────────────────────────────────┐
//   │ static │     │ HostIndex    │ resident tables:    │ input │ origin  │ lengths │ out  │ lines │ spans    │ ids   │ slots │ scratch   │ rows      │
//   │ data   │     │ (classify)   │ [RuleTable│RuleIndex]│ bytes │ ≤ 512 B │ u32 × N │ u8×N │ u32×N │ 32 B × S │ i32×S │ 8 B×S │ 3 × URL   │ 6 × input │
//   └────────┴─────┴──────────────┴─────────────────────┴───────┴─────────┴─────────┴──────┴───────┴──────────┴───────┴───────┴───────────┴───────────┘
//   (N: results per call, S: SPAN_COUNT lines per classify batch; origin: matchOnOrigin's,
//   ORIGIN_MAX_BYTES, its contents the engine's to track)
//   (many-agents rows keep their group entries in `lengths` and column records in `lines`)
//
// The HostIndex (host-index.ts) and the arena (arena.ts) own their regions; this file
// places the io regions after them. The io regions are scratch for one call and move
// when the arena or a batch needs more room. Typed-array views are rebuilt after every
// memory.grow. The record layouts (span, table slot, row) are specified in src/table/abi.ts.
//
// Sizes are JS numbers (exact integers far past 2^32), never 32-bit results of `&` or
// `|`: a region placed past 2 GiB keeps a positive address, and a layout that would end
// past the engine's limit (at most 4 GiB, all a Wasm32 memory can address) is a
// MemoryLimitError before anything changes. Each capacity (input, results, scratch, rows)
// grows on its own, to what the call asks (doubled while that stays inside the limit);
// the layout is computed, memory grown, and only then are the new offsets kept, so a
// failed grow leaves every region where it was.
import { MULTI_MAX_TABLES, ORIGIN_MAX_BYTES, ROW_BYTES_PER_BYTE, SIMD_SLACK, SPAN_SIZE, TABLE_SLOT_SIZE } from '../table/abi.js';
import type { WasmExports } from './instance.js';
import { MemoryLimitError } from './limits.js';

/** Bytes of a Wasm page. */
export const WASM_PAGE_BYTES = 65536;
/** Bytes past the start of a region where copyIn may put data (see there). */
export const COPY_SKEW = 7;
/** Bytes per line-batch call (a longer line gets a larger chunk). */
export const LINE_CHUNK_BYTES = 1 << 18;
/** Span records (classify) per scanHosts call. */
export const SPAN_COUNT = 1 << 14;
/** Row bytes every rows region holds beyond ROW_BYTES_PER_BYTE per input byte (at least one row's fixed part). */
const ROW_EXTRA_BYTES = 1024;
/** Initial capacities: what the first call's layout holds before any growth. */
const INITIAL_INPUT = 4096;
const INITIAL_COUNT = 1024;

/**
 * Rounds up to a multiple of 16 for any integer up to 2^53: `-n & 15` is the distance to
 * the next multiple (2^32 being one, the 32-bit wrap of `-n` keeps its low bits).
 */
export function align16(n: number): number {
  return n + (-n & 15);
}

/** What one call needs of each io region; unnamed regions keep their size. */
export interface IoNeeds {
  /** Input bytes (URL bytes, COPY_SKEW included by the caller). */
  readonly input?: number;
  /** Results (verdicts, lines, lengths). */
  readonly count?: number;
  /** Bytes of the longest single URL the call prepares (scratch holds 3 per byte). */
  readonly url?: number;
  /** Row bytes. */
  readonly rows?: number;
}

/** Offsets of one placement of the io regions. */
interface Layout {
  inputCap: number;
  countCap: number;
  scratchCap: number;
  rowsCap: number;
  inputAt: number;
  originAt: number;
  lengthsAt: number;
  outAt: number;
  linesAt: number;
  spansAt: number;
  idsAt: number;
  slotsAt: number;
  scratchAt: number;
  rowsAt: number;
  end: number;
}

function computeLayout(ioAt: number, inputCap: number, countCap: number, scratchCap: number, rowsCap: number): Layout {
  const inputAt = align16(ioAt);
  const originAt = align16(inputAt + inputCap + SIMD_SLACK);
  const lengthsAt = align16(originAt + ORIGIN_MAX_BYTES + SIMD_SLACK);
  const outAt = align16(lengthsAt + 4 * countCap);
  const linesAt = align16(outAt + countCap);
  const spansAt = align16(linesAt + 4 * countCap);
  const idsAt = spansAt + SPAN_SIZE * SPAN_COUNT;
  const slotsAt = idsAt + 4 * SPAN_COUNT;
  // Slots: one per table of a classify batch (a line each at most) or of a many-agents call.
  const scratchAt = align16(slotsAt + TABLE_SLOT_SIZE * Math.max(SPAN_COUNT, MULTI_MAX_TABLES));
  const rowsAt = align16(scratchAt + scratchCap + 2 * SIMD_SLACK);
  const end = rowsAt + rowsCap + SIMD_SLACK;
  return { inputCap, countCap, scratchCap, rowsCap, inputAt, originAt, lengthsAt, outAt, linesAt, spansAt, idsAt, slotsAt, scratchAt, rowsAt, end };
}

/** Scratch bytes for a URL of `bytes` bytes: prepared paths take up to 3 per byte (percent-encoding), plus the terminator. */
export function scratchFor(bytes: number): number {
  return align16(3 * bytes + 16);
}

/** Row bytes that hold every row of `inputBytes` of lines (ROW_BYTES_PER_BYTE per byte, src/table/abi.ts). */
export function rowsFor(inputBytes: number): number {
  return ROW_BYTES_PER_BYTE * inputBytes + ROW_EXTRA_BYTES;
}

/** The module's memory, its typed-array views and the io regions after the arena. */
export class WasmMemory {
  /** The module's exports; every caller reads them from here, at call time. */
  exports: WasmExports;
  u8!: Uint8Array;
  u32!: Uint32Array;
  /** Capacities of the io regions: input bytes, results, scratch bytes, row bytes. */
  inputCap = INITIAL_INPUT;
  countCap = INITIAL_COUNT;
  scratchCap = scratchFor(INITIAL_INPUT);
  rowsCap = rowsFor(INITIAL_INPUT);
  /** Where the io regions start (the arena's end). */
  private ioAt = 0;
  /** Bumped whenever the io regions move or resize: a caller holding data in them compares it. */
  generation = 0;
  inputAt = 0;
  /** matchOnOrigin's origin bytes (ORIGIN_MAX_BYTES): the engine tracks what they hold. */
  originAt = 0;
  lengthsAt = 0;
  outAt = 0;
  linesAt = 0;
  scratchAt = 0;
  spansAt = 0;
  idsAt = 0;
  slotsAt = 0;
  rowsAt = 0;

  /**
   * Views of the module's memory; the io regions exist from the first `placeAt`.
   * `limit`: bytes the memory may reach (≤ 4 GiB).
   */
  constructor(exports: WasmExports, public limit: number) {
    this.exports = exports;
    this.refreshViews();
  }

  /** Takes a fresh instance's exports (WasmEngine.recycle): initial capacities, nothing placed yet. */
  reset(exports: WasmExports): void {
    this.exports = exports;
    this.inputCap = INITIAL_INPUT;
    this.countCap = INITIAL_COUNT;
    this.scratchCap = scratchFor(INITIAL_INPUT);
    this.rowsCap = rowsFor(INITIAL_INPUT);
    this.refreshViews();
  }

  /**
   * Bytes of linear memory now. Read from the view, not `memory.buffer` (a slow getter
   * on the per-URL path): only this class grows the memory, and it renews the views when
   * it does.
   */
  get size(): number {
    return this.u8.byteLength;
  }

  private refreshViews(): void {
    const buffer = this.exports.memory.buffer;
    this.u8 = new Uint8Array(buffer);
    this.u32 = new Uint32Array(buffer);
  }

  /**
   * Grows memory to at least `end` bytes, or throws MemoryLimitError (over the limit, or
   * refused by the runtime) having changed nothing. `what` names the need in the error.
   */
  ensure(end: number, what: string): void {
    if (end > this.limit) throw new MemoryLimitError(end, this.limit, what);
    const memory = this.exports.memory;
    const size = memory.buffer.byteLength;
    if (end <= size) return;
    try {
      memory.grow(Math.ceil((end - size) / WASM_PAGE_BYTES));
    } catch (error) {
      throw new MemoryLimitError(end, this.limit, what, error);
    }
    this.refreshViews();
  }

  /** Places the layout, growing memory first: on failure nothing has changed. */
  private commit(layout: Layout, what: string): void {
    this.ensure(layout.end, what);
    Object.assign(this, layout);
    this.generation++;
  }

  /**
   * Moves the io regions to start at `ioAt` (the arena moved or grew), keeping their
   * sizes when the limit allows, else at their initial sizes. Throws MemoryLimitError,
   * with nothing changed, when even those do not fit.
   */
  placeAt(ioAt: number, what = 'the table arena'): void {
    const kept = computeLayout(ioAt, this.inputCap, this.countCap, this.scratchCap, this.rowsCap);
    const layout = kept.end <= this.limit ? kept : computeLayout(ioAt, INITIAL_INPUT, INITIAL_COUNT, scratchFor(INITIAL_INPUT), rowsFor(INITIAL_INPUT));
    this.commit(layout, what);
    this.ioAt = ioAt;
  }

  /**
   * Makes room for what a call needs (see IoNeeds). A region that is short grows on its
   * own, doubled when the doubled layout stays inside the limit, else to exactly the
   * need; the others keep their size, or shrink to the call's need when only that fits.
   * Throws MemoryLimitError, having changed nothing, when the call cannot fit.
   */
  reserve(needs: IoNeeds, what = 'this call'): void {
    const input = Math.max(0, needs.input ?? 0);
    const count = Math.max(0, needs.count ?? 0);
    const scratch = needs.url === undefined ? 0 : scratchFor(needs.url);
    const rows = Math.max(0, needs.rows ?? 0);
    if (input <= this.inputCap && count <= this.countCap && scratch <= this.scratchCap && rows <= this.rowsCap) return;
    const grow = (need: number, cap: number): number => (need <= cap ? cap : align16(Math.max(need, 2 * cap)));
    const doubled = computeLayout(this.ioAt, grow(input, this.inputCap), grow(count, this.countCap), grow(scratch, this.scratchCap), grow(rows, this.rowsCap));
    if (doubled.end <= this.limit) return this.commit(doubled, what);
    const exact = (need: number, cap: number): number => (need <= cap ? cap : align16(need));
    const kept = computeLayout(this.ioAt, exact(input, this.inputCap), exact(count, this.countCap), exact(scratch, this.scratchCap), exact(rows, this.rowsCap));
    if (kept.end <= this.limit) return this.commit(kept, what);
    // Only the call's own needs (regions it does not use shrink to nothing).
    this.commit(computeLayout(this.ioAt, align16(input), align16(count), align16(scratch), align16(rows)), what);
  }

  /**
   * Copies `bytes` into Wasm memory at `region` (16-aligned) or up to 7 bytes past it,
   * wherever the address agrees with theirs modulo 8, and returns it. V8 copies out of
   * a SharedArrayBuffer at memcpy speed only when both sides agree modulo 8 (byte by
   * byte otherwise, about 6 times slower), and MatchPool hands the matcher views of
   * shared memory that start at any line break. Callers reserve COPY_SKEW bytes more.
   */
  copyIn(bytes: Uint8Array, region: number): number {
    const at = region + (bytes.byteOffset & 7);
    this.u8.set(bytes, at);
    return at;
  }
}
