// The module's linear memory: where each io region lives, growing it, and the one loop that grows a chunk until a line fits.
//
// Linear memory, every region 16-byte aligned and followed by SIMD_SLACK readable bytes
// (the Wasm scanners load 16 bytes at a time and mask off what lies past the end). The
// module allocates nothing; it only reads and writes where the host tells it:
//
//   0 ── heapBase ─ hostsAt ────── arenaAt ─────────────── inputAt ───────────────────────────────────────────────────────────────────────┐
//   │ static │     │ HostIndex    │ resident tables:    │ input │ lengths │ out  │ lines │ scratch   │ spans    │ ids   │ slots │ rows      │
//   │ data   │     │ (classify)   │ [RuleTable│RuleIndex]│ bytes │ u32 × N │ u8×N │ u32×N │ 3 × input │ 32 B × S │ i32×S │ 8 B×S │ 6 × input │
//   └────────┴─────┴──────────────┴─────────────────────┴───────┴─────────┴──────┴───────┴───────────┴──────────┴───────┴───────┴───────────┘
//   (N: results per call, S: SPAN_COUNT lines per classify batch)
//
// The HostIndex (host-index.ts) and the arena (arena.ts) own their regions; this file
// places the io regions after them. The io regions are scratch for one call and move
// when the arena or a batch needs more room. Typed-array views are rebuilt after every
// memory.grow. The record layouts (span, table slot, row) are specified in src/table/abi.ts.
import { ROW_BYTES_PER_BYTE, SIMD_SLACK, SPAN_SIZE, TABLE_SLOT_SIZE } from '../table/abi.js';
import type { WasmExports } from './instance.js';

const PAGE_BYTES = 65536;
/** Bytes past the start of a region where copyIn may put data (see there). */
export const COPY_SKEW = 7;
/** Bytes per line-batch call (a longer line gets a larger chunk). */
export const LINE_CHUNK_BYTES = 1 << 18;
/** Span records (classify) per scanHosts call. */
export const SPAN_COUNT = 1 << 14;

export function align16(n: number): number {
  return (n + 15) & ~15;
}

/** The module's memory, its typed-array views and the io regions after the arena. */
export class WasmMemory {
  /** The module's exports; every caller reads them from here, at call time. */
  exports: WasmExports;
  u8!: Uint8Array;
  u32!: Uint32Array;
  /** Bytes of the input region, and results the count regions hold (initial sizes until the first placeAt). */
  inputCap = 4096;
  countCap = 1024;
  /** Where the io regions start (the arena's end). */
  private ioAt = 0;
  inputAt = 0;
  lengthsAt = 0;
  outAt = 0;
  linesAt = 0;
  scratchAt = 0;
  spansAt = 0;
  idsAt = 0;
  slotsAt = 0;
  rowsAt = 0;
  rowsCap = 0;

  /** Views of the module's memory; the io regions exist from the first `placeAt`. */
  constructor(exports: WasmExports) {
    this.exports = exports;
    this.refreshViews();
  }

  private refreshViews(): void {
    const buffer = this.exports.memory.buffer;
    this.u8 = new Uint8Array(buffer);
    this.u32 = new Uint32Array(buffer);
  }

  /** Moves the io regions to start at `ioAt` (the arena moved or grew), keeping their sizes. */
  placeAt(ioAt: number): void {
    this.ioAt = ioAt;
    this.layout(this.inputCap, this.countCap);
  }

  /** Places the io regions with room for `inputBytes` and `count` results, growing memory to hold them. */
  private layout(inputBytes: number, count: number): void {
    this.inputCap = align16(inputBytes);
    this.countCap = align16(count);
    this.inputAt = this.ioAt;
    this.lengthsAt = align16(this.inputAt + this.inputCap + SIMD_SLACK);
    this.outAt = align16(this.lengthsAt + 4 * this.countCap);
    this.linesAt = align16(this.outAt + this.countCap);
    this.scratchAt = align16(this.linesAt + 4 * this.countCap);
    this.spansAt = align16(this.scratchAt + 3 * this.inputCap + 2 * SIMD_SLACK);
    this.idsAt = this.spansAt + SPAN_SIZE * SPAN_COUNT;
    this.slotsAt = this.idsAt + 4 * SPAN_COUNT;
    this.rowsAt = this.slotsAt + TABLE_SLOT_SIZE * SPAN_COUNT;
    // A row is at most ROW_FIXED_BYTES + 6 bytes per URL byte (JSON escapes): one always fits.
    this.rowsCap = ROW_BYTES_PER_BYTE * this.inputCap + 1024;
    const end = this.rowsAt + this.rowsCap + SIMD_SLACK;
    const memory = this.exports.memory;
    if (end > memory.buffer.byteLength) {
      memory.grow(Math.ceil((end - memory.buffer.byteLength) / PAGE_BYTES));
      this.refreshViews();
    }
  }

  /** Makes room for `inputBytes` of URLs and `count` results (amortized doubling). */
  reserve(inputBytes: number, count: number): void {
    if (inputBytes <= this.inputCap && count <= this.countCap) return;
    this.layout(Math.max(inputBytes, this.inputCap * 2), Math.max(count, this.countCap * 2));
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

  /**
   * The one chunk loop of the line batches: copies bytes[pos, …) into the input region, a
   * LINE_CHUNK_BYTES chunk at first, and calls `call(at, take, last)`, which runs one
   * export over input[at, at + take) and returns the lines it handled. A line longer than
   * the chunk makes that 0: the chunk doubles until it reaches the line's end (or the end
   * of `bytes`). Returns the last call's count, 0 only when no whole line is left.
   * `perLine` reserves a result slot per byte (the export writes verdicts or lines).
   * Nothing here may admit a table: the caller resolves its slot first.
   */
  fitChunk(bytes: Uint8Array, pos: number, final: boolean, perLine: boolean, call: (at: number, take: number, last: boolean) => number): number {
    const rest = bytes.length - pos;
    let take = Math.min(LINE_CHUNK_BYTES, rest);
    for (;;) {
      this.reserve(take + COPY_SKEW, perLine ? take + 1 : 1);
      const at = this.copyIn(bytes.subarray(pos, pos + take), this.inputAt);
      const n = call(at, take, final && take === rest);
      if (n > 0 || take === rest) return n;
      take = Math.min(take * 2, rest);
    }
  }
}
