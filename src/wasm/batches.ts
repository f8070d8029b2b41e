// WasmEngine: the batch drivers, one Wasm call per chunk of URLs, lines or spans.
import { H_WILDCARD_COUNT } from '../table/format.js';
import { ROW_HOST, SPAN_SIZE, TS_INDEX_AT, TS_TABLE_AT, TABLE_SLOT_SIZE } from '../table/abi.js';
import { encodeUrls, notAString } from './url-bytes.js';
import { instantiate } from './instance.js';
import { align16, COPY_SKEW, SPAN_COUNT, WasmMemory } from './memory.js';
import { TableArena, type EngineOptions, type Slot } from './arena.js';
import { HostIndex } from './host-index.js';

/** Characters of JS strings copied per matchUrls call. */
const STRING_CHUNK_CHARS = 1 << 18;
/** URLs per matchUrls call. */
const STRING_CHUNK_COUNT = 1 << 14;
/** u32 words of a span record. */
const SPAN_WORDS = SPAN_SIZE / 4;

const encoder = new TextEncoder();

/**
 * Receives finished rows as views of Wasm memory, valid only during the call: it must
 * copy them (e.g. into an output buffer it reuses).
 */
export type RowSink = (rows: Uint8Array) => void;

/** Formatted output rows of one call, with the counts of the verdicts behind them. */
export interface RowBatch {
  /** Finished rows (copies, safe to keep); empty when a RowSink took them. */
  readonly rows: Uint8Array[];
  /** Lines judged. */
  readonly count: number;
  readonly allowed: number;
  readonly disallowed: number;
  /** Input bytes covered by the judged lines (line breaks included). */
  readonly consumed: number;
}

/** Span records (src/table/abi.ts SPAN) of one scanHosts call, as u32 words. */
export interface SpanBatch {
  readonly spans: Uint32Array;
  readonly count: number;
  readonly consumed: number;
}

/** Verdicts of matchAllLines: views of buffers the engine reuses, valid until its next call. */
export interface LineVerdicts {
  readonly count: number;
  /** Input bytes the judged lines covered (all of them). */
  readonly consumed: number;
  readonly verdicts: Uint8Array;
  readonly lines: Uint32Array | null;
}

/** Owns one instance of the matcher module and its memory. One per thread. */
export class WasmEngine {
  private readonly memory: WasmMemory;
  private readonly arena: TableArena;
  private readonly hosts: HostIndex;
  /** Verdicts and lines of the last matchAllLines call (reused: valid until the next one). */
  private allVerdicts = new Uint8Array(1024);
  private allLines = new Uint32Array(1024);
  /** Span records of the last scanHosts call (reused: valid until the next one). */
  private spanCopy = new Uint32Array(0);
  /** The URLs of the chunk being copied (reused between calls). */
  private readonly batch: string[] = [];

  constructor(options: EngineOptions = {}) {
    const exports = instantiate();
    this.memory = new WasmMemory(exports);
    this.arena = new TableArena(this.memory, align16(exports.heapBase()), options);
    this.memory.placeAt(this.arena.end);
    this.hosts = new HostIndex(this.memory, this.arena);
  }

  /**
   * Creates (or empties) the HostIndex, sized for `capacity` hosts. Growing it empties
   * the table arena (tables are re-admitted on demand).
   */
  resetHostIndex(capacity: number): void {
    this.hosts.reset(capacity);
  }

  /**
   * Adds host `key` (lowercase bytes, `hash` from its span) with `id` ≥ 1 to the
   * HostIndex. Returns false when the index is full: the caller resets and refills it.
   */
  insertHost(key: Uint8Array, hash: number, id: number): boolean {
    return this.hosts.insert(key, hash, id);
  }

  /**
   * Judges urls[from, to) into verdicts[0, to − from) (and `lines`, when given), in
   * chunks that encodeUrls copies into Wasm memory. Returns the UTF-8 bytes they took.
   */
  matchStrings(table: Uint8Array, urls: readonly string[], verdicts: Uint8Array, lines: Uint32Array | null, from = 0, to = urls.length): number {
    const total = to - from;
    let bytes = 0;
    // Each URL is read from `urls` exactly once, into this snapshot: an array whose
    // elements change between reads (getters, a Proxy) cannot make the lengths written
    // for Wasm disagree with the bytes copied.
    const batch = this.batch;
    const memory = this.memory;
    let i = 0;
    while (i < total) {
      let count = 0;
      let chars = 0;
      while (i + count < total && count < STRING_CHUNK_COUNT) {
        const url = urls[from + i + count];
        if (typeof url !== 'string') throw notAString(from + i + count, url);
        if (chars > 0 && chars + url.length > STRING_CHUNK_CHARS) break;
        batch[count++] = url;
        chars += url.length;
      }
      batch.length = count;
      memory.reserve(chars * 3, count);
      const slot = this.arena.slot(table);
      bytes += encodeUrls(batch, 0, count, memory.u8.subarray(memory.inputAt, memory.inputAt + memory.inputCap), memory.u32, memory.lengthsAt >>> 2);
      this.matchUrls(slot, memory.inputAt, memory.lengthsAt, count, verdicts, lines, i);
      i += count;
    }
    batch.length = 0; // keep no caller strings alive
    return bytes;
  }

  /**
   * Judges URLs already encoded as encodeUrls writes them: `lengths.length` URLs, back to
   * back in `bytes`. Verdicts (and lines) go to index 0 on. MatchPool's workers read the
   * URLs their caller encoded into shared memory this way.
   */
  matchEncoded(table: Uint8Array, bytes: Uint8Array, lengths: Uint32Array, verdicts: Uint8Array, lines: Uint32Array | null): void {
    const memory = this.memory;
    const total = lengths.length;
    let i = 0;
    let offset = 0;
    while (i < total) {
      let count = 0;
      let size = 0;
      while (i + count < total && count < STRING_CHUNK_COUNT) {
        const length = lengths[i + count]!;
        if (count > 0 && size + length > STRING_CHUNK_CHARS) break;
        size += length;
        count++;
      }
      // (+ 1: copyIn may shift the lengths by one u32.)
      memory.reserve(size + COPY_SKEW, count + 1);
      const slot = this.arena.slot(table);
      const urlsAt = memory.copyIn(bytes.subarray(offset, offset + size), memory.inputAt);
      const lengthsAt = memory.copyIn(new Uint8Array(lengths.buffer, lengths.byteOffset + 4 * i, 4 * count), memory.lengthsAt);
      this.matchUrls(slot, urlsAt, lengthsAt, count, verdicts, lines, i);
      i += count;
      offset += size;
    }
  }

  /** Runs matchUrls on `count` URLs in Wasm memory and copies their verdicts (and lines) to index `at` on. */
  private matchUrls(slot: Slot, urlsAt: number, lengthsAt: number, count: number, verdicts: Uint8Array, lines: Uint32Array | null, at: number): void {
    const memory = this.memory;
    memory.exports.matchUrls(slot.tableAt, slot.indexAt, urlsAt, lengthsAt, count, memory.outAt, lines ? memory.linesAt : 0, memory.scratchAt);
    verdicts.set(memory.u8.subarray(memory.outAt, memory.outAt + count), at);
    if (lines) lines.set(memory.u32.subarray(memory.linesAt >>> 2, (memory.linesAt >>> 2) + count), at);
  }

  /** Judges one URL; returns the verdict (1/0) and, through `lineOut[0]`, the deciding line. */
  matchOne(table: Uint8Array, url: string, lineOut: Uint32Array | null): number {
    const memory = this.memory;
    if (url.length * 3 > memory.inputCap) memory.reserve(url.length * 3, 1);
    const { tableAt, indexAt } = this.arena.slot(table);
    const written = encoder.encodeInto(url, memory.u8.subarray(memory.inputAt, memory.inputAt + memory.inputCap)).written;
    memory.u32[memory.lengthsAt >>> 2] = written;
    memory.exports.matchUrls(tableAt, indexAt, memory.inputAt, memory.lengthsAt, 1, memory.outAt, lineOut ? memory.linesAt : 0, memory.scratchAt);
    if (lineOut) lineOut[0] = memory.u32[memory.linesAt >>> 2]!;
    return memory.u8[memory.outAt]!;
  }

  /**
   * Judges every LF-separated line of `bytes` (a last line without a line break too)
   * and returns the verdicts (and lines) as views of buffers this engine reuses: valid
   * until its next call. The line count comes out of the same pass, so the caller needs
   * no counting pass of its own.
   */
  matchAllLines(table: Uint8Array, bytes: Uint8Array, withLines: boolean): LineVerdicts {
    const memory = this.memory;
    const { tableAt, indexAt } = this.arena.slot(table);
    let count = 0;
    let pos = 0;
    while (pos < bytes.length) {
      const n = memory.fitChunk(bytes, pos, true, true, (at, take, last) =>
        memory.exports.matchLines(tableAt, indexAt, at, take, memory.outAt, withLines ? memory.linesAt : 0, memory.scratchAt, last ? 1 : 0));
      if (n === 0) break;
      if (count + n > this.allVerdicts.length) {
        const grown = new Uint8Array(Math.max(count + n, 2 * this.allVerdicts.length));
        grown.set(this.allVerdicts.subarray(0, count));
        this.allVerdicts = grown;
      }
      this.allVerdicts.set(memory.u8.subarray(memory.outAt, memory.outAt + n), count);
      if (withLines) {
        if (count + n > this.allLines.length) {
          const grown = new Uint32Array(Math.max(count + n, 2 * this.allLines.length));
          grown.set(this.allLines.subarray(0, count));
          this.allLines = grown;
        }
        this.allLines.set(memory.u32.subarray(memory.linesAt >>> 2, (memory.linesAt >>> 2) + n), count);
      }
      count += n;
      pos += memory.exports.consumed();
    }
    return { count, consumed: pos, verdicts: this.allVerdicts.subarray(0, count), lines: withLines ? this.allLines.subarray(0, count) : null };
  }

  /** Hands the `written` bytes of the rows region to `sink`, or copies them into `rows`. */
  private emitRows(written: number, rows: Uint8Array[], sink: RowSink | undefined): void {
    const { u8, rowsAt } = this.memory;
    if (sink) sink(u8.subarray(rowsAt, rowsAt + written));
    else rows.push(u8.slice(rowsAt, rowsAt + written));
  }

  /**
   * Judges the LF-separated URLs of `bytes` (an unterminated last line too when `final`)
   * against `table` and returns their output rows (src/table/abi.ts, `options` ROW_*),
   * formatted in Wasm: the caller never loops per line. With a `sink`, rows go there
   * instead of being copied into the result.
   */
  formatLineRows(table: Uint8Array, bytes: Uint8Array, final: boolean, options: number, sink?: RowSink): RowBatch {
    const memory = this.memory;
    const { tableAt, indexAt } = this.arena.slot(table);
    const rows: Uint8Array[] = [];
    let count = 0;
    let allowed = 0;
    let disallowed = 0;
    let pos = 0;
    while (pos < bytes.length) {
      const n = memory.fitChunk(bytes, pos, final, false, (at, take, last) =>
        memory.exports.formatLines(tableAt, indexAt, at, take, last ? 1 : 0, memory.rowsAt, memory.rowsCap, options, memory.scratchAt));
      // Only an unterminated tail is left.
      if (n === 0) break;
      const written = memory.exports.written();
      if (written > 0) this.emitRows(written, rows, sink);
      count += n;
      allowed += memory.exports.allowed();
      disallowed += memory.exports.disallowed();
      pos += memory.exports.consumed();
    }
    return { rows, count, allowed, disallowed, consumed: pos };
  }

  /**
   * Splits `bytes` into lines (an unterminated last line too when `final`) and finds
   * each line's host and its HostIndex id, for classify. At most SPAN_COUNT lines per
   * call: `consumed` says where to continue. The batch is valid until the next call.
   */
  scanHosts(bytes: Uint8Array, final: boolean): SpanBatch {
    const memory = this.memory;
    const hosts = this.hosts;
    const count = memory.fitChunk(bytes, 0, final, false, (at, take, last) =>
      memory.exports.scanHosts(at, take, last ? 1 : 0, memory.spansAt, SPAN_COUNT, hosts.at, hosts.mask));
    // Copied out (Wasm memory may move before formatSpanRows) into a buffer reused by
    // the next call: classify allocates nothing per batch here.
    if (this.spanCopy.length < count * SPAN_WORDS) this.spanCopy = new Uint32Array(SPAN_COUNT * SPAN_WORDS);
    const spans = this.spanCopy.subarray(0, count * SPAN_WORDS);
    spans.set(memory.u32.subarray(memory.spansAt >>> 2, (memory.spansAt >>> 2) + count * SPAN_WORDS));
    return { spans, count, consumed: memory.exports.consumed() };
  }

  /**
   * Judges the lines of a `scanHosts` batch of the same `bytes`, line i against
   * `tables[tableIds[i]]` (-1: no robots.txt, see ROW_MISSING_DISALLOW), and returns
   * their rows with a host column. When every distinct table fits in the arena at once
   * (the usual case) the whole batch is one Wasm pass; otherwise the lines are judged in
   * runs, each run's tables resident together. Only `tables[0, tableCount)` are read,
   * so a caller can reuse one array from batch to batch.
   */
  formatSpanRows(
    bytes: Uint8Array, batch: SpanBatch, tableIds: Int32Array, tables: readonly Uint8Array[], options: number, sink?: RowSink,
    tableCount = tables.length,
  ): RowBatch {
    const { spans, count, consumed } = batch;
    const memory = this.memory;
    const arena = this.arena;
    memory.reserve(consumed, 1);
    const rows: Uint8Array[] = [];
    let allowed = 0;
    let disallowed = 0;
    let first = 0;
    // Judges lines [first, end) with the slots written so far, in as many calls as the rows need.
    const flush = (end: number): void => {
      while (first < end) {
        const n = memory.exports.formatSpans(
          memory.inputAt, memory.spansAt, first, end, memory.idsAt, memory.slotsAt, memory.rowsAt, memory.rowsCap, options | ROW_HOST, memory.scratchAt,
        );
        const written = memory.exports.written();
        if (written > 0) this.emitRows(written, rows, sink);
        allowed += memory.exports.allowed();
        disallowed += memory.exports.disallowed();
        first += n;
      }
    };
    const load = (): void => {
      memory.u8.set(bytes.subarray(0, consumed), memory.inputAt);
      memory.u32.set(spans, memory.spansAt >>> 2);
      new Int32Array(memory.u32.buffer, memory.idsAt, count).set(tableIds.subarray(0, count));
    };
    const place = (id: number, slot: Slot): void => {
      const at = (memory.slotsAt + id * TABLE_SLOT_SIZE) >>> 2;
      memory.u32[at + (TS_TABLE_AT >>> 2)] = slot.tableAt;
      memory.u32[at + (TS_INDEX_AT >>> 2)] = slot.indexAt;
    };
    // Fast path: admit every table of the batch without emptying the arena (admissions
    // that fit never move memory), then judge the whole batch in one pass.
    let together = true;
    for (let id = 0; id < tableCount; id++) {
      const table = tables[id]!;
      let slot = arena.residentSlot(table);
      if (slot === undefined) {
        if (!arena.fits(table)) {
          together = false;
          break;
        }
        slot = arena.admit(table);
      }
      place(id, slot);
    }
    if (together) {
      load();
      flush(count);
      return { rows, count, allowed, disallowed, consumed };
    }
    // More tables than the arena holds at once: judge in runs, emptying the arena between them.
    load();
    const epochOf = new Int32Array(tableCount).fill(-1);
    for (let i = 0; i < count; i++) {
      const id = tableIds[i]!;
      if (id < 0 || epochOf[id] === arena.epoch) continue;
      if (!arena.residentOrFits(tables[id]!)) {
        flush(i);
        const inputAt = memory.inputAt;
        arena.slot(tables[id]!); // empties the arena, and may move the io regions
        if (memory.inputAt !== inputAt) load();
      }
      place(id, arena.slot(tables[id]!));
      epochOf[id] = arena.epoch;
    }
    flush(count);
    return { rows, count, allowed, disallowed, consumed };
  }

  /** The path+params+query the matcher compares for `url` under table `flags`. */
  preparePath(url: string, flags: number): Uint8Array {
    const memory = this.memory;
    memory.reserve(url.length * 3, 1);
    const written = encoder.encodeInto(url, memory.u8.subarray(memory.inputAt, memory.inputAt + memory.inputCap)).written;
    const len = memory.exports.prepareUrl(flags, memory.inputAt, written, memory.scratchAt);
    const at = memory.exports.preparedPtr();
    return memory.u8.slice(at, at + len);
  }

  /** Ids of every wildcard-list rule of `table` that matches `url`. */
  collectMatches(table: Uint8Array, url: string): number[] {
    const memory = this.memory;
    const wildcardCount = new DataView(table.buffer, table.byteOffset).getUint32(H_WILDCARD_COUNT, true);
    memory.reserve(url.length * 3, wildcardCount);
    const { tableAt } = this.arena.slot(table);
    const written = encoder.encodeInto(url, memory.u8.subarray(memory.inputAt, memory.inputAt + memory.inputCap)).written;
    const n = memory.exports.collectMatches(tableAt, memory.inputAt, written, memory.lengthsAt, memory.scratchAt);
    return Array.from(memory.u32.subarray(memory.lengthsAt >>> 2, (memory.lengthsAt >>> 2) + n));
  }
}

let engine: WasmEngine | undefined;
/** The engine of this thread, created on first use (synchronously: no await needed). */
export function getEngine(): WasmEngine {
  return (engine ??= new WasmEngine());
}
