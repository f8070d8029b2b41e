// WasmEngine: the batch drivers, one Wasm call per chunk of URLs, lines or spans.
//
// Why one file of ~1,000 lines: WasmEngine is one object over one instance's memory: every
// driver (strings, lines, rows, spans, and their many-agent forms) sizes the same regions,
// places tables in the same arena, checks the same limits, keeps the same result buffers
// and swaps in a fresh instance the same way; the region layout (memory.ts), the arena, the
// host index, the limits and the URL encoding (url-bytes.ts) live apart.
import { H_WILDCARD_COUNT } from '../table/format.js';
import {
  CL_ALLOWED, CL_KEY_AT, CL_KEY_LENGTH, COLUMN_SIZE, GE_SAME_AS, GE_SLOT, GROUP_ENTRY_SIZE, MATCH_NOT_PLAIN, MULTI_MAX_TABLES, ORIGIN_MAX_BYTES, ROW_BYTES_PER_BYTE, ROW_COLUMN_BYTES,
  ROW_FIXED_BYTES, ROW_HOST, SP_HOST_LENGTH, SP_LINE_LENGTH, SPAN_SIZE, TS_INDEX_AT, TS_TABLE_AT, TABLE_SLOT_SIZE,
} from '../table/abi.js';
import { encodeUrls, notAString } from './url-bytes.js';
import { instantiate } from './instance.js';
import { align16, COPY_SKEW, LINE_CHUNK_BYTES, rowsFor, scratchFor, SPAN_COUNT, WasmMemory } from './memory.js';
import { TableArena, type EngineOptions, type Slot } from './arena.js';
import { HostIndex } from './host-index.js';
import { checkLimits, DEFAULT_ENGINE_LIMITS, UrlLengthError, type EngineLimits } from './limits.js';

/** Characters of JS strings copied per matchUrls call. */
const STRING_CHUNK_CHARS = 1 << 18;
/** URLs per matchUrls call. */
const STRING_CHUNK_COUNT = 1 << 14;
/** Results (URLs × tables) per matchUrlsMulti call. */
const MULTI_CHUNK_RESULTS = 1 << 16;
/** u32 words of a span record. */
const SPAN_WORDS = SPAN_SIZE / 4;
/**
 * matchAllLines' result buffers past this many results are replaced by small ones at the
 * next call, unless that call may need them (see releaseResults).
 */
const KEPT_RESULTS = 1 << 20;
const LF = 0x0a;
const CR = 0x0d;

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

/**
 * The tables of one group of formatSpanRowsMulti (a host's, or check's only one): per
 * agent column, its compiled table or a TABLE_* code (src/table/abi.ts). Agents given the
 * same table object are judged once per line.
 */
export type AgentTables = readonly (Uint8Array | number)[];

/** Table slots one formatSpansMulti call can name (the slots region's size). */
const MULTI_ROW_SLOTS = Math.max(SPAN_COUNT, MULTI_MAX_TABLES);

/** Verdicts of matchAllLines: views of buffers the engine reuses, valid until its next call. */
export interface LineVerdicts {
  readonly count: number;
  /** Input bytes the judged lines covered (all of them). */
  readonly consumed: number;
  readonly verdicts: Uint8Array;
  readonly lines: Uint32Array | null;
}

/** Limits of the engines created from now on in this thread, getEngine's included when it is created later. */
let threadLimits: EngineLimits = DEFAULT_ENGINE_LIMITS;

/**
 * Owns one instance of the matcher module and its memory. One per thread.
 *
 * Every public method leaves the engine usable whatever it throws: sizes are checked
 * (UrlLengthError, MemoryLimitError) and memory grown before any offset changes. After a
 * call that left more than `retainMemoryBytes` of Wasm memory, the instance is replaced
 * by a fresh one (memory never shrinks); tables and the HostIndex are uploaded again on
 * their next use, so matchers and the caller's host ids keep working.
 */
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
  /** encodeOne's view of the input region, and the memory view and offset it was cut from. */
  private inputView: Uint8Array = new Uint8Array(0);
  private inputViewOf: Uint8Array | null = null;
  private inputViewAt = -1;
  /** The origin bytes now in the origin region, and the memory view and generation they were written under. */
  private originHeld: Uint8Array | null = null;
  private originHeldIn: Uint8Array | null = null;
  private originHeldGeneration = -1;

  /** This engine's limits (src/wasm/limits.ts). */
  limits: EngineLimits;
  /** Instances this engine has replaced after a call that left memory over retainMemoryBytes. */
  recycled = 0;

  /**
   * @param options arena sizes, and limits that override the thread's (setEngineLimits)
   * @throws RangeError when a limit is not an integer within its range
   */
  constructor(options: EngineOptions = {}) {
    this.limits = checkLimits(options, threadLimits);
    const exports = instantiate();
    this.memory = new WasmMemory(exports, this.limits.maxMemoryBytes);
    this.arena = new TableArena(this.memory, align16(exports.heapBase()), options);
    this.memory.placeAt(this.arena.end);
    this.hosts = new HostIndex(this.memory, this.arena);
  }

  /**
   * Changes this engine's limits (omitted keys keep theirs) and returns them. Memory
   * already over a lowered maxMemoryBytes is given up at once (a fresh instance).
   * @throws RangeError when a limit is not an integer within its range (nothing changes)
   */
  setLimits(limits: Partial<EngineLimits>): EngineLimits {
    this.limits = checkLimits(limits, this.limits);
    this.memory.limit = this.limits.maxMemoryBytes;
    if (this.memory.size > this.limits.maxMemoryBytes) this.recycle();
    return this.limits;
  }

  /** Bytes of Wasm memory this engine holds now. */
  get memoryBytes(): number {
    return this.memory.size;
  }

  /** Ends every public call: an instance whose memory grew past retainMemoryBytes is replaced by a fresh one. */
  private settle(): void {
    if (this.memory.size > this.limits.retainMemoryBytes) this.recycle();
  }

  /** Replaces the instance by a fresh one (memory never shrinks); tables and the HostIndex come back on their next use. */
  private recycle(): void {
    const exports = instantiate();
    this.memory.reset(exports);
    this.hosts.forget();
    this.arena.reset(align16(exports.heapBase()));
    this.recycled++;
  }

  /** A string URL already longer than the limit in UTF-16 units (each at least one UTF-8 byte). */
  private checkUnits(url: string, index: number): void {
    if (url.length > this.limits.maxUrlBytes) throw new UrlLengthError(url.length, this.limits.maxUrlBytes, index, -1, false);
  }

  /**
   * A view of the whole input region, made again only when the memory or the region
   * changed: a subarray per call was a third of encodeInto's cost (isAllowed, explain).
   */
  private inputRegion(): Uint8Array {
    const memory = this.memory;
    if (this.inputViewOf !== memory.u8 || this.inputViewAt !== memory.inputAt || this.inputView.length !== memory.inputCap) {
      this.inputView = memory.u8.subarray(memory.inputAt, memory.inputAt + memory.inputCap);
      this.inputViewOf = memory.u8;
      this.inputViewAt = memory.inputAt;
    }
    return this.inputView;
  }

  /**
   * Encodes one URL into the input region with scratch for it (and `count` results),
   * checked against maxUrlBytes; returns its byte length.
   */
  private encodeOne(url: string, count: number): number {
    this.checkUnits(url, -1);
    const memory = this.memory;
    // The usual case, one short URL into regions already large enough (a UTF-16 unit is
    // at most 3 UTF-8 bytes): no layout work per call (isAllowed, explain).
    const most = 3 * url.length;
    if (most <= memory.inputCap && count <= memory.countCap && scratchFor(most) <= memory.scratchCap) {
      // encodeInto writes at most `most` bytes, so the larger view changes nothing else.
      const written = encoder.encodeInto(url, this.inputRegion()).written;
      if (written > this.limits.maxUrlBytes) throw new UrlLengthError(written, this.limits.maxUrlBytes, -1, -1);
      return written;
    }
    let urlBytes = 0;
    for (;;) {
      memory.reserve({ input: 3 * url.length, count, url: urlBytes });
      const written = encoder.encodeInto(url, memory.u8.subarray(memory.inputAt, memory.inputAt + memory.inputCap)).written;
      if (written > this.limits.maxUrlBytes) throw new UrlLengthError(written, this.limits.maxUrlBytes, -1, -1);
      if (scratchFor(written) <= memory.scratchCap) return written;
      urlBytes = written; // scratch grows (the regions may move): encode again
    }
  }

  /**
   * Creates (or empties) the HostIndex, sized for `capacity` hosts. Growing it empties
   * the table arena (tables are re-admitted on demand).
   */
  resetHostIndex(capacity: number): void {
    try {
      this.hosts.reset(capacity);
    } finally {
      this.settle();
    }
  }

  /**
   * Adds host `key` (lowercase bytes, `hash` from its span) with `id` ≥ 1 to the
   * HostIndex. Returns false when the index is full: the caller resets and refills it.
   */
  insertHost(key: Uint8Array, hash: number, id: number): boolean {
    try {
      return this.hosts.insert(key, hash, id);
    } finally {
      this.settle();
    }
  }

  /**
   * Judges urls[from, to) into verdicts[0, to − from) (and `lines`, when given), in
   * chunks that encodeUrls copies into Wasm memory. Returns the UTF-8 bytes they took.
   */
  matchStrings(table: Uint8Array, urls: readonly string[], verdicts: Uint8Array, lines: Uint32Array | null, from = 0, to = urls.length): number {
    try {
      return this.matchStringsIn(table, urls, verdicts, lines, from, to);
    } finally {
      this.batch.length = 0; // keep no caller strings alive
      this.settle();
    }
  }

  private matchStringsIn(table: Uint8Array, urls: readonly string[], verdicts: Uint8Array, lines: Uint32Array | null, from: number, to: number): number {
    const memory = this.memory;
    let bytes = 0;
    let i = from;
    while (i < to) {
      // The table first: admitting it may move (and resize) the io regions.
      const slot = this.arena.soleSlot(table);
      const count = this.encodeChunk(urls, i, to, STRING_CHUNK_COUNT, 1);
      bytes += this.chunkBytes;
      this.matchUrls(slot, memory.inputAt, memory.lengthsAt, count, verdicts, lines, i - from);
      i += count;
    }
    return bytes;
  }

  /** UTF-8 bytes of the chunk the last encodeChunk call wrote. */
  private chunkBytes = 0;

  /**
   * Copies urls[start, end) — at most `maxCount` of them and STRING_CHUNK_CHARS
   * characters (one URL at least) — into the input region, their byte lengths into the
   * lengths region, with room for `width` results per URL and scratch for the longest.
   * Returns how many it copied; `chunkBytes` says how many bytes they took. Each URL is
   * read from `urls` exactly once, into a snapshot: an array whose elements change
   * between reads (getters, a Proxy) cannot make the lengths written for Wasm disagree
   * with the bytes copied. Admits no table: callers resolve their slots first.
   */
  private encodeChunk(urls: readonly string[], start: number, end: number, maxCount: number, width: number): number {
    const limit = this.limits.maxUrlBytes;
    const batch = this.batch;
    const memory = this.memory;
    let count = 0;
    let chars = 0;
    let longestUnits = 0;
    while (start + count < end && count < maxCount) {
      const url = urls[start + count];
      if (typeof url !== 'string') throw notAString(start + count, url);
      const units = url.length;
      if (chars > 0 && chars + units > STRING_CHUNK_CHARS) break;
      if (units > limit) throw new UrlLengthError(units, limit, start + count, -1, false);
      batch[count++] = url;
      chars += units;
      if (units > longestUnits) longestUnits = units;
    }
    batch.length = count;
    // Room and scratch for ASCII first (a UTF-16 unit is one UTF-8 byte or more, so
    // `written === chars` means every URL is ASCII and its length already known); 3 bytes
    // per unit and scratch for the longest encoded URL only when needed. When scratch
    // must grow, the regions may move and the chunk is encoded again.
    let room = chars;
    let urlBytes = longestUnits;
    for (;;) {
      memory.reserve({ input: room, count: count * width, url: urlBytes });
      const written = encodeUrls(batch, 0, count, memory.u8.subarray(memory.inputAt, memory.inputAt + memory.inputCap), memory.u32, memory.lengthsAt >>> 2);
      if (written < 0) {
        room = 3 * chars;
        continue;
      }
      if (written === chars) {
        this.chunkBytes = written;
        return count;
      }
      let longest = 0;
      for (let k = 0, at = memory.lengthsAt >>> 2; k < count; k++) longest = Math.max(longest, memory.u32[at + k]!);
      if (longest > limit) {
        for (let k = 0, at = memory.lengthsAt >>> 2; k < count; k++) {
          if (memory.u32[at + k]! > limit) throw new UrlLengthError(memory.u32[at + k]!, limit, start + k, -1);
        }
      }
      if (scratchFor(longest) <= memory.scratchCap) {
        this.chunkBytes = written;
        return count;
      }
      urlBytes = longest;
    }
  }

  /**
   * Many agents: judges urls[0, n) against each of `tables` (distinct arrays, at most
   * MULTI_MAX_TABLES), every URL encoded and prepared once (src/table/abi.ts MULTI).
   * Results are URL-major: `verdicts[i × tables.length + t]`, and `lines` alike when
   * given. When the tables cannot be resident together (a small arena, huge tables), each
   * table is judged on its own and the results interleaved: the same answers, slower.
   */
  matchStringsMulti(tables: readonly Uint8Array[], urls: readonly string[], verdicts: Uint8Array, lines: Uint32Array | null): void {
    try {
      this.matchStringsMultiIn(tables, urls, verdicts, lines);
    } finally {
      this.batch.length = 0; // keep no caller strings alive
      this.settle();
    }
  }

  private matchStringsMultiIn(tables: readonly Uint8Array[], urls: readonly string[], verdicts: Uint8Array, lines: Uint32Array | null): void {
    const width = tables.length;
    const total = urls.length;
    const slots = this.residentTogether(tables);
    if (slots === null) {
      const one = new Uint8Array(total);
      const oneLines = lines ? new Uint32Array(total) : null;
      for (let t = 0; t < width; t++) {
        this.matchStringsIn(tables[t]!, urls, one, oneLines, 0, total);
        for (let i = 0; i < total; i++) verdicts[i * width + t] = one[i]!;
        if (lines) for (let i = 0; i < total; i++) lines[i * width + t] = oneLines![i]!;
      }
      return;
    }
    const memory = this.memory;
    // Results per call stay near a single-agent chunk's, whatever the number of tables.
    const perCall = Math.max(1, Math.floor(MULTI_CHUNK_RESULTS / width));
    let i = 0;
    while (i < total) {
      const count = this.encodeChunk(urls, i, total, perCall, width);
      this.placeSlots(slots);
      memory.exports.matchUrlsMulti(memory.slotsAt, width, memory.inputAt, memory.lengthsAt, count, memory.outAt, lines ? memory.linesAt : 0, memory.scratchAt);
      this.copyResults(count * width, verdicts, lines, i * width);
      i += count;
    }
  }

  /**
   * Many agents over LF-separated URLs (as matchAllLines reads them): results URL-major
   * as matchStringsMulti lays them out, in buffers this engine reuses (valid until its
   * next call); `count` is the number of lines. Falls back to one pass per table, as
   * matchStringsMulti does, when the tables cannot be resident together.
   */
  matchAllLinesMulti(tables: readonly Uint8Array[], bytes: Uint8Array, withLines: boolean): LineVerdicts {
    try {
      return this.matchAllLinesMultiIn(tables, bytes, withLines);
    } finally {
      this.settle();
    }
  }

  private matchAllLinesMultiIn(tables: readonly Uint8Array[], bytes: Uint8Array, withLines: boolean): LineVerdicts {
    const width = tables.length;
    const memory = this.memory;
    const slots = this.residentTogether(tables);
    if (slots === null) {
      let verdicts = new Uint8Array(0);
      let lines: Uint32Array | null = withLines ? new Uint32Array(0) : null;
      let count = 0;
      for (let t = 0; t < width; t++) {
        const one = this.matchAllLinesIn(tables[t]!, bytes, withLines);
        if (t === 0) {
          count = one.count;
          verdicts = new Uint8Array(count * width);
          if (lines) lines = new Uint32Array(count * width);
        }
        for (let i = 0; i < count; i++) verdicts[i * width + t] = one.verdicts[i]!;
        if (lines) for (let i = 0; i < count; i++) lines[i * width + t] = one.lines![i]!;
      }
      return { count, consumed: bytes.length, verdicts, lines };
    }
    this.releaseResults((bytes.length + 1) * width);
    let results = 0;
    let pos = 0;
    while (pos < bytes.length) {
      const n = this.fitChunk(bytes, pos, true, width, false, (at, take, last) => {
        this.placeSlots(slots);
        return memory.exports.matchLinesMulti(memory.slotsAt, width, at, take, memory.outAt, withLines ? memory.linesAt : 0, memory.scratchAt, last ? 1 : 0);
      });
      if (n === 0) break;
      this.growResults(results + n * width, withLines, results);
      this.copyResults(n * width, this.allVerdicts, withLines ? this.allLines : null, results);
      results += n * width;
      pos += memory.exports.consumed() >>> 0;
    }
    return {
      count: results / width, consumed: pos,
      verdicts: this.allVerdicts.subarray(0, results), lines: withLines ? this.allLines.subarray(0, results) : null,
    };
  }

  /**
   * The last call's results were views valid until this one: buffers over KEPT_RESULTS are
   * not kept, unless they are no larger than the `most` results this call can write (a line
   * takes at least one byte, so at most bytes + 1 lines). Repeated large batches then reuse
   * their buffers instead of growing fresh ones from 1024 every call.
   */
  private releaseResults(most: number): void {
    const limit = Math.max(KEPT_RESULTS, most);
    if (this.allVerdicts.length > limit) this.allVerdicts = new Uint8Array(1024);
    if (this.allLines.length > limit) this.allLines = new Uint32Array(1024);
  }

  /** Makes allVerdicts (and allLines) hold at least `need` results, keeping the first `kept`. */
  private growResults(need: number, withLines: boolean, kept: number): void {
    if (need > this.allVerdicts.length) {
      const grown = new Uint8Array(Math.max(need, 2 * this.allVerdicts.length));
      grown.set(this.allVerdicts.subarray(0, kept));
      this.allVerdicts = grown;
    }
    if (withLines && need > this.allLines.length) {
      const grown = new Uint32Array(Math.max(need, 2 * this.allLines.length));
      grown.set(this.allLines.subarray(0, kept));
      this.allLines = grown;
    }
  }

  /** Copies `n` results of the last call out of the out (and lines) regions to index `at` on. */
  private copyResults(n: number, verdicts: Uint8Array, lines: Uint32Array | null, at: number): void {
    const memory = this.memory;
    verdicts.set(memory.u8.subarray(memory.outAt, memory.outAt + n), at);
    if (lines) lines.set(memory.u32.subarray(memory.linesAt >>> 2, (memory.linesAt >>> 2) + n), at);
  }

  /** Writes the TABLE_SLOT array of a many-agents call into the slots region (it moves with the io regions). */
  private placeSlots(slots: readonly Slot[]): void {
    const memory = this.memory;
    for (let t = 0; t < slots.length; t++) {
      const at = (memory.slotsAt + t * TABLE_SLOT_SIZE) >>> 2;
      memory.u32[at + (TS_TABLE_AT >>> 2)] = slots[t]!.tableAt;
      memory.u32[at + (TS_INDEX_AT >>> 2)] = slots[t]!.indexAt;
    }
  }

  /**
   * The arena slots of every table, all resident in the current epoch, or null when they
   * cannot be (more than MULTI_MAX_TABLES, or more bytes than the arena holds). Tables
   * that fit are admitted next to the resident ones; when one does not, the arena is
   * emptied once (admitting it) and the rest admitted after it.
   */
  private residentTogether(tables: readonly Uint8Array[]): Slot[] | null {
    if (tables.length === 0 || tables.length > MULTI_MAX_TABLES) return null;
    const arena = this.arena;
    for (let attempt = 0; attempt < 2; attempt++) {
      const slots: Slot[] = [];
      const epoch = arena.epoch;
      for (const table of tables) {
        let slot = arena.residentSlot(table);
        if (slot === undefined && arena.fits(table)) slot = arena.admit(table);
        if (slot === undefined) break;
        slots.push(slot);
      }
      if (slots.length === tables.length && arena.epoch === epoch) return slots;
      if (attempt === 0) arena.slot(tables[slots.length]!); // empties the arena (a new epoch) and admits that table
    }
    return null;
  }

  /**
   * Judges URLs already encoded as encodeUrls writes them: `lengths.length` URLs, back to
   * back in `bytes`. Verdicts (and lines) go to index 0 on. MatchPool's workers read the
   * URLs their caller encoded into shared memory this way.
   */
  matchEncoded(table: Uint8Array, bytes: Uint8Array, lengths: Uint32Array, verdicts: Uint8Array, lines: Uint32Array | null): void {
    try {
      this.matchEncodedIn(table, bytes, lengths, verdicts, lines);
    } finally {
      this.settle();
    }
  }

  private matchEncodedIn(table: Uint8Array, bytes: Uint8Array, lengths: Uint32Array, verdicts: Uint8Array, lines: Uint32Array | null): void {
    const memory = this.memory;
    const limit = this.limits.maxUrlBytes;
    const total = lengths.length;
    let i = 0;
    let offset = 0;
    while (i < total) {
      let count = 0;
      let size = 0;
      let longest = 0;
      while (i + count < total && count < STRING_CHUNK_COUNT) {
        const length = lengths[i + count]!;
        if (length > limit) throw new UrlLengthError(length, limit, i + count, -1);
        if (count > 0 && size + length > STRING_CHUNK_CHARS) break;
        size += length;
        longest = Math.max(longest, length);
        count++;
      }
      if (offset + size > bytes.length) throw new RangeError(`robotstxt-wasm: the lengths name ${offset + size} bytes, the input holds ${bytes.length}`);
      // The table first: admitting it may move (and resize) the io regions.
      const slot = this.arena.soleSlot(table);
      // (+ 1: copyIn may shift the lengths by one u32.)
      memory.reserve({ input: size + COPY_SKEW, count: count + 1, url: longest });
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
    try {
      return this.matchOneIn(table, url, lineOut);
    } finally {
      this.settle();
    }
  }

  private matchOneIn(table: Uint8Array, url: string, lineOut: Uint32Array | null): number {
    const memory = this.memory;
    // The table first: admitting it may move (and resize) the io regions.
    const { tableAt, indexAt } = this.arena.soleSlot(table);
    const written = this.encodeOne(url, 1);
    memory.u32[memory.lengthsAt >>> 2] = written;
    memory.exports.matchUrls(tableAt, indexAt, memory.inputAt, memory.lengthsAt, 1, memory.outAt, lineOut ? memory.linesAt : 0, memory.scratchAt);
    if (lineOut) lineOut[0] = memory.u32[memory.linesAt >>> 2]!;
    return memory.u8[memory.outAt]!;
  }

  /**
   * Judges one URL when it is plainly on `origin` (the UTF-8 bytes of `scheme://host[:port]`
   * as WHATWG URL serializes it, at most ORIGIN_MAX_BYTES; pass the same array, never
   * changed, for one origin: it is copied into Wasm memory only when another array comes,
   * or the region moved): the origin's bytes exactly, then
   * a path, query and fragment WHATWG URL would leave as written (src/table/abi.ts
   * MATCH_NOT_PLAIN). Returns the verdict (1/0) and, through `lineOut[0]`, the deciding
   * line; or MATCH_NOT_PLAIN for any other URL, and for one that would need the io
   * regions to grow or is over maxUrlBytes: the caller then takes its general path, which
   * answers (or throws) for those.
   */
  matchOnOrigin(table: Uint8Array, url: string, origin: Uint8Array, lineOut: Uint32Array | null): number {
    try {
      return this.matchOnOriginIn(table, url, origin, lineOut);
    } finally {
      this.settle();
    }
  }

  private matchOnOriginIn(table: Uint8Array, url: string, origin: Uint8Array, lineOut: Uint32Array | null): number {
    if (origin.length > ORIGIN_MAX_BYTES) throw new RangeError(`robotstxt-wasm: an origin of at most ${ORIGIN_MAX_BYTES} bytes expected, got ${origin.length}`);
    const memory = this.memory;
    // The table first: admitting it may move (and resize) the io regions.
    const { tableAt, indexAt } = this.arena.soleSlot(table);
    // Only what fits the regions as they are (see encodeOne): no layout work, no throw.
    const most = 3 * url.length;
    if (url.length > this.limits.maxUrlBytes || most > memory.inputCap || scratchFor(most) > memory.scratchCap) return MATCH_NOT_PLAIN;
    const written = encoder.encodeInto(url, this.inputRegion()).written;
    if (written > this.limits.maxUrlBytes) return MATCH_NOT_PLAIN;
    // The region's bytes survive calls but not a move (generation) or a fresh instance (view).
    if (this.originHeld !== origin || this.originHeldIn !== memory.u8 || this.originHeldGeneration !== memory.generation) {
      memory.u8.set(origin, memory.originAt);
      this.originHeld = origin;
      this.originHeldIn = memory.u8;
      this.originHeldGeneration = memory.generation;
    }
    const verdict = memory.exports.matchOnOrigin(tableAt, indexAt, memory.inputAt, written, memory.originAt, origin.length, lineOut ? memory.linesAt : 0, memory.scratchAt);
    if (lineOut && verdict !== MATCH_NOT_PLAIN) lineOut[0] = memory.u32[memory.linesAt >>> 2]!;
    return verdict;
  }

  /**
   * Judges every LF-separated line of `bytes` (a last line without a line break too)
   * and returns the verdicts (and lines) as views of buffers this engine reuses: valid
   * until its next call. The line count comes out of the same pass, so the caller needs
   * no counting pass of its own.
   */
  matchAllLines(table: Uint8Array, bytes: Uint8Array, withLines: boolean): LineVerdicts {
    try {
      return this.matchAllLinesIn(table, bytes, withLines);
    } finally {
      this.settle();
    }
  }

  private matchAllLinesIn(table: Uint8Array, bytes: Uint8Array, withLines: boolean): LineVerdicts {
    const memory = this.memory;
    this.releaseResults(bytes.length + 1);
    let { tableAt, indexAt } = this.arena.soleSlot(table);
    let count = 0;
    let pos = 0;
    while (pos < bytes.length) {
      // Resident since the first chunk: a lean table may be placed again in full (or, at
      // RENEW_PATHS, empty the arena for itself: this call holds no other slot); memory never moves.
      if (pos !== 0) ({ tableAt, indexAt } = this.arena.soleSlot(table));
      const n = this.fitChunk(bytes, pos, true, 1, false, (at, take, last) =>
        memory.exports.matchLines(tableAt, indexAt, at, take, memory.outAt, withLines ? memory.linesAt : 0, memory.scratchAt, last ? 1 : 0));
      if (n === 0) break;
      this.growResults(count + n, withLines, count);
      this.copyResults(n, this.allVerdicts, withLines ? this.allLines : null, count);
      count += n;
      pos += memory.exports.consumed() >>> 0;
    }
    return { count, consumed: pos, verdicts: this.allVerdicts.subarray(0, count), lines: withLines ? this.allLines.subarray(0, count) : null };
  }

  /** Hands the `written` bytes of the rows region to `sink`, or copies them into `rows`. */
  /**
   * Runs `call(from)`, a row-writing export over lines [from, end), until every line of
   * [first, end) is judged (a call stops before a row that might not fit), each call's
   * rows to `sink` or `rows` and its counts into `totals`. Returns `end`. `name` names the
   * export in the error for a call that judged nothing: the rows region always has room
   * for the widest row, so that would loop forever.
   */
  private writeRows(
    name: string, first: number, end: number, rows: Uint8Array[], sink: RowSink | undefined,
    totals: { allowed: number; disallowed: number }, call: (from: number) => number,
  ): number {
    const memory = this.memory;
    while (first < end) {
      const n = call(first);
      if (n === 0) throw new Error(`robotstxt-wasm: ${name} judged no line of ${end - first} (rows region ${memory.rowsCap} bytes)`);
      const written = memory.exports.written();
      if (written !== 0) this.emitRows(written, rows, sink);
      totals.allowed += memory.exports.allowed();
      totals.disallowed += memory.exports.disallowed();
      first += n;
    }
    return first;
  }

  private emitRows(written: number, rows: Uint8Array[], sink: RowSink | undefined): void {
    // (A u32 export comes back as a signed i32: past 2 GiB, negative without >>> 0.)
    written >>>= 0;
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
    try {
      return this.formatLineRowsIn(table, bytes, final, options, sink);
    } finally {
      this.settle();
    }
  }

  private formatLineRowsIn(table: Uint8Array, bytes: Uint8Array, final: boolean, options: number, sink?: RowSink): RowBatch {
    const memory = this.memory;
    let { tableAt, indexAt } = this.arena.soleSlot(table);
    const rows: Uint8Array[] = [];
    let count = 0;
    let allowed = 0;
    let disallowed = 0;
    let pos = 0;
    while (pos < bytes.length) {
      // Resident since the first chunk: a lean table may be placed again in full (or, at
      // RENEW_PATHS, empty the arena for itself: this call holds no other slot); memory never moves.
      if (pos !== 0) ({ tableAt, indexAt } = this.arena.soleSlot(table));
      const n = this.fitChunk(bytes, pos, final, 0, true, (at, take, last) =>
        memory.exports.formatLines(tableAt, indexAt, at, take, last ? 1 : 0, memory.rowsAt, memory.rowsCap, options, memory.scratchAt));
      // Only an unterminated tail is left.
      if (n === 0) break;
      const written = memory.exports.written();
      if (written !== 0) this.emitRows(written, rows, sink);
      count += n;
      allowed += memory.exports.allowed();
      disallowed += memory.exports.disallowed();
      pos += memory.exports.consumed() >>> 0;
    }
    return { rows, count, allowed, disallowed, consumed: pos };
  }

  /**
   * Splits `bytes` into lines (an unterminated last line too when `final`) and finds
   * each line's host and its HostIndex id, for classify. At most SPAN_COUNT lines per
   * call: `consumed` says where to continue. The batch is valid until the next call.
   */
  scanHosts(bytes: Uint8Array, final: boolean): SpanBatch {
    try {
      return this.scanHostsIn(bytes, final);
    } finally {
      this.settle();
    }
  }

  private scanHostsIn(bytes: Uint8Array, final: boolean): SpanBatch {
    const memory = this.memory;
    const hosts = this.hosts;
    hosts.ensure(); // a fresh instance gets the index back
    const count = this.fitChunk(bytes, 0, final, 0, false, (at, take, last) =>
      memory.exports.scanHosts(at, take, last ? 1 : 0, memory.spansAt, SPAN_COUNT, hosts.at, hosts.mask));
    // Copied out (Wasm memory may move before formatSpanRows) into a buffer reused by
    // the next call: classify allocates nothing per batch here.
    if (this.spanCopy.length < count * SPAN_WORDS) this.spanCopy = new Uint32Array(SPAN_COUNT * SPAN_WORDS);
    const spans = this.spanCopy.subarray(0, count * SPAN_WORDS);
    spans.set(memory.u32.subarray(memory.spansAt >>> 2, (memory.spansAt >>> 2) + count * SPAN_WORDS));
    return { spans, count, consumed: memory.exports.consumed() >>> 0 };
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
    try {
      return this.formatSpanRowsIn(bytes, batch, tableIds, tables, options, sink, tableCount);
    } finally {
      this.settle();
    }
  }

  private formatSpanRowsIn(
    bytes: Uint8Array, batch: SpanBatch, tableIds: Int32Array, tables: readonly Uint8Array[], options: number, sink: RowSink | undefined, tableCount: number,
  ): RowBatch {
    const { spans, count, consumed } = batch;
    const memory = this.memory;
    const arena = this.arena;
    // Scratch for the longest line; rows for every row of the batch, and at least for
    // the longest row (its host column included), so that each call writes one.
    const { longest, widest } = spanExtent(spans, count);
    const needs = { input: consumed, count: 1, url: longest, rows: Math.max(rowsFor(consumed), ROW_FIXED_BYTES + ROW_BYTES_PER_BYTE * widest) };
    memory.reserve(needs);
    const rows: Uint8Array[] = [];
    const totals = { allowed: 0, disallowed: 0 };
    let first = 0;
    // Judges lines [first, end) with the slots written so far, in as many calls as the rows need.
    const flush = (end: number): void => {
      first = this.writeRows('formatSpans', first, end, rows, sink, totals, (from) => memory.exports.formatSpans(
        memory.inputAt, memory.spansAt, from, end, memory.idsAt, memory.slotsAt, memory.rowsAt, memory.rowsCap, options | ROW_HOST, memory.scratchAt,
      ));
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
      return { rows, count, allowed: totals.allowed, disallowed: totals.disallowed, consumed };
    }
    // More tables than the arena holds at once: judge in runs, emptying the arena between them.
    load();
    const epochOf = new Int32Array(tableCount).fill(-1);
    for (let i = 0; i < count; i++) {
      const id = tableIds[i]!;
      if (id < 0 || epochOf[id] === arena.epoch) continue;
      if (!arena.residentOrFits(tables[id]!)) {
        flush(i);
        const layout = memory.generation;
        arena.slot(tables[id]!); // empties the arena, and may move (and resize) the io regions
        memory.reserve(needs);
        if (memory.generation !== layout) load();
      }
      place(id, arena.slot(tables[id]!));
      epochOf[id] = arena.epoch;
    }
    flush(count);
    return { rows, count, allowed: totals.allowed, disallowed: totals.disallowed, consumed };
  }

  /**
   * Many agents (MULTI rows, src/table/abi.ts): judges the lines of a `scanHosts` batch of
   * the same `bytes` for every agent, line i against the tables of `groups[groupOf[i]]`
   * (one per agent, as `keys`), and returns one row per line with a verdict column per
   * agent (`options` ROW_*, ROW_HOST for a host column). Each line is read and prepared
   * once. `keys[j]` is agent j's JSONL key (`"A":{"verdict":"`, a comma first from the
   * second on); `perAgent[j]` is increased by the lines agent j may fetch; `allowed`
   * counts lines every agent may fetch. Tables are placed in runs of lines whose tables
   * are resident together; one group's tables must fit in the arena at once.
   */
  formatSpanRowsMulti(
    bytes: Uint8Array, batch: SpanBatch, groupOf: Int32Array, groups: readonly AgentTables[], keys: readonly Uint8Array[], options: number,
    perAgent: Float64Array, sink?: RowSink,
  ): RowBatch {
    try {
      return this.formatSpanRowsMultiIn(bytes, batch, groupOf, groups, keys, options, perAgent, sink);
    } finally {
      this.settle();
    }
  }

  private formatSpanRowsMultiIn(
    bytes: Uint8Array, batch: SpanBatch, groupOf: Int32Array, groups: readonly AgentTables[], keys: readonly Uint8Array[], options: number,
    perAgent: Float64Array, sink: RowSink | undefined,
  ): RowBatch {
    const { spans, count, consumed } = batch;
    const memory = this.memory;
    const arena = this.arena;
    const width = keys.length;
    let keyBytes = 0;
    for (const key of keys) keyBytes += key.length;
    const columnBytes = keyBytes + width * ROW_COLUMN_BYTES;
    const { longest, widest } = spanExtent(spans, count);
    // Groups go to the lengths region, column records and keys to the lines region.
    const columnWords = (width * COLUMN_SIZE + keyBytes + 3) >>> 2;
    const needs = {
      input: consumed, count: Math.max(1, groups.length * width * (GROUP_ENTRY_SIZE >>> 2), columnWords), url: longest,
      rows: Math.max(rowsFor(consumed), ROW_FIXED_BYTES + ROW_BYTES_PER_BYTE * widest + columnBytes),
    };
    memory.reserve(needs);
    // Which column each column copies: the first with the same table (or code).
    const sameAs = groups.map((tables) => tables.map((table) => tables.indexOf(table)));
    const load = (): void => {
      memory.u8.set(bytes.subarray(0, consumed), memory.inputAt);
      memory.u32.set(spans, memory.spansAt >>> 2);
      new Int32Array(memory.u32.buffer, memory.idsAt, count).set(groupOf.subarray(0, count));
      let keyAt = memory.linesAt + width * COLUMN_SIZE;
      for (let j = 0; j < width; j++) {
        const at = (memory.linesAt + j * COLUMN_SIZE) >>> 2;
        memory.u32[at + (CL_KEY_AT >>> 2)] = keyAt;
        memory.u32[at + (CL_KEY_LENGTH >>> 2)] = keys[j]!.length;
        memory.u8.set(keys[j]!, keyAt);
        keyAt += keys[j]!.length;
      }
    };
    const rows: Uint8Array[] = [];
    const totals = { allowed: 0, disallowed: 0 };
    let first = 0;
    const flush = (end: number): void => {
      first = this.writeRows('formatSpansMulti', first, end, rows, sink, totals, (from) => {
        const n = memory.exports.formatSpansMulti(
          memory.inputAt, memory.spansAt, from, end, memory.idsAt, memory.lengthsAt, width, memory.linesAt, memory.slotsAt,
          memory.rowsAt, memory.rowsCap, options, memory.scratchAt,
        );
        for (let j = 0; j < width; j++) perAgent[j]! += memory.u32[((memory.linesAt + j * COLUMN_SIZE) >>> 2) + (CL_ALLOWED >>> 2)]!;
        return n;
      });
    };
    // A run: lines whose tables are resident together, each table in one slot.
    const slotIn = new Map<Uint8Array, number>();
    const groupRun = new Int32Array(groups.length).fill(-1);
    let run = 0;
    /** Places group g's tables in this run's slots and writes its entries; false when a new run is needed first. */
    const enter = (g: number, fresh: boolean): boolean => {
      const tables = groups[g]!;
      for (const table of tables) {
        if (typeof table === 'number' || slotIn.has(table)) continue;
        if (slotIn.size >= MULTI_ROW_SLOTS) return false;
        let slot = arena.residentSlot(table);
        if (slot === undefined) {
          if (!arena.fits(table)) {
            if (!fresh) return false;
            const layout = memory.generation;
            // Empties the arena with room for the whole group (it may grow, and move the io regions).
            arena.emptyFor([...new Set(tables.filter((t): t is Uint8Array => typeof t !== 'number'))]);
            memory.reserve(needs);
            if (memory.generation !== layout) load();
            slotIn.clear();
            return enter(g, false);
          }
          slot = arena.admit(table);
        }
        const id = slotIn.size;
        slotIn.set(table, id);
        const at = (memory.slotsAt + id * TABLE_SLOT_SIZE) >>> 2;
        memory.u32[at + (TS_TABLE_AT >>> 2)] = slot.tableAt;
        memory.u32[at + (TS_INDEX_AT >>> 2)] = slot.indexAt;
      }
      const base = (memory.lengthsAt + g * width * GROUP_ENTRY_SIZE) >>> 2;
      const entries = new Int32Array(memory.u32.buffer);
      for (let j = 0; j < width; j++) {
        const table = tables[j]!;
        entries[base + j * 2 + (GE_SLOT >>> 2)] = typeof table === 'number' ? table : slotIn.get(table)!;
        entries[base + j * 2 + (GE_SAME_AS >>> 2)] = sameAs[g]![j]!;
      }
      return true;
    };
    load();
    for (let i = 0; i < count; i++) {
      const g = groupOf[i]!;
      if (groupRun[g] === run) continue;
      if (!enter(g, false)) {
        flush(i);
        run++;
        slotIn.clear();
        if (!enter(g, true)) {
          throw new Error(`robotstxt-wasm: the ${width} agents' tables of line ${i + 1} do not fit in the table arena together`);
        }
      }
      groupRun[g] = run;
    }
    flush(count);
    return { rows, count, allowed: totals.allowed, disallowed: totals.disallowed, consumed };
  }

  /** The path+params+query the matcher compares for `url` under table `flags`. */
  preparePath(url: string, flags: number): Uint8Array {
    try {
      const memory = this.memory;
      const written = this.encodeOne(url, 1);
      const len = memory.exports.prepareUrl(flags, memory.inputAt, written, memory.scratchAt) >>> 0;
      const at = memory.exports.preparedPtr() >>> 0;
      return memory.u8.slice(at, at + len);
    } finally {
      this.settle();
    }
  }

  /** Ids of every wildcard-list rule of `table` that matches `url`. */
  collectMatches(table: Uint8Array, url: string): number[] {
    try {
      const memory = this.memory;
      const wildcardCount = new DataView(table.buffer, table.byteOffset).getUint32(H_WILDCARD_COUNT, true);
      const { tableAt } = this.arena.soleSlot(table);
      const written = this.encodeOne(url, wildcardCount);
      const n = memory.exports.collectMatches(tableAt, memory.inputAt, written, memory.lengthsAt, memory.scratchAt);
      return Array.from(memory.u32.subarray(memory.lengthsAt >>> 2, (memory.lengthsAt >>> 2) + n));
    } finally {
      this.settle();
    }
  }

  /**
   * The one chunk loop of the line batches: copies bytes[pos, …) into the input region, a
   * LINE_CHUNK_BYTES chunk at first, and calls `call(at, take, last)`, which runs one
   * export over input[at, at + take) and returns the lines it handled. A line longer than
   * the chunk makes that 0: the chunk doubles until it reaches the line's end (or the end
   * of `bytes`). Returns the last call's count, 0 only when no whole line is left.
   * `perLine` reserves that many result slots per byte (the export writes verdicts or
   * lines; 0 when it writes none),
   * `rows` room for the rows of every line of the chunk.
   *
   * A chunk is at most maxUrlBytes + 1 bytes, so a whole line in it has at most
   * maxUrlBytes bytes before its LF; a line the chunk cannot reach is measured, and one
   * over the limit is a UrlLengthError before the export sees it. Nothing here may admit
   * a table: the caller resolves its slot first.
   */
  private fitChunk(bytes: Uint8Array, pos: number, final: boolean, perLine: number, rows: boolean, call: (at: number, take: number, last: boolean) => number): number {
    const memory = this.memory;
    const limit = this.limits.maxUrlBytes;
    const rest = bytes.length - pos;
    const most = limit + 1;
    // Many results per line (many agents) start from a smaller chunk, so its result regions stay near a single agent's.
    let take = Math.min(Math.max(4096, Math.floor(LINE_CHUNK_BYTES / Math.max(1, perLine))), rest, most);
    for (;;) {
      // The unterminated last line of a final chunk is judged too: it must be within the limit.
      if (final && take === rest && take > limit) {
        const start = bytes.lastIndexOf(LF, bytes.length - 1) + 1;
        let length = bytes.length - Math.max(start, pos);
        if (length > 0 && bytes[bytes.length - 1] === CR) length--;
        if (length > limit) throw new UrlLengthError(length, limit, -1, Math.max(start, pos));
      }
      memory.reserve({ input: take + COPY_SKEW, count: perLine > 0 ? (take + 1) * perLine : 1, url: take, rows: rows ? rowsFor(take) : 0 });
      const at = memory.copyIn(bytes.subarray(pos, pos + take), memory.inputAt);
      const n = call(at, take, final && take === rest);
      if (n > 0 || take === rest) return n;
      if (take < Math.min(rest, most)) {
        take = Math.min(take * 2, rest, most);
        continue;
      }
      // No line break within maxUrlBytes + 1 bytes: measure the line.
      const nl = bytes.indexOf(LF, pos);
      const end = nl < 0 ? bytes.length : nl;
      let length = end - pos;
      if ((nl >= 0 || final) && length > 0 && bytes[end - 1] === CR) length--;
      if (length > limit) throw new UrlLengthError(length, limit, -1, pos, nl >= 0 || final);
      // A CRLF line of exactly maxUrlBytes (or an unterminated tail): one chunk reaches its end.
      take = Math.min(rest, end - pos + 1);
    }
  }
}

let engine: WasmEngine | undefined;
/**
 * The longest line of the first `count` span records (SPAN_WORDS u32 words each, abi.ts
 * SPAN), and the widest line plus host: what a span batch's scratch and rows must hold.
 */
function spanExtent(spans: Uint32Array, count: number): { longest: number; widest: number } {
  let longest = 0;
  let widest = 0;
  for (let i = 0; i < count; i++) {
    const line = spans[i * SPAN_WORDS + (SP_LINE_LENGTH >>> 2)]!;
    longest = Math.max(longest, line);
    widest = Math.max(widest, line + spans[i * SPAN_WORDS + (SP_HOST_LENGTH >>> 2)]!);
  }
  return { longest, widest };
}

/** The engine of this thread, created on first use (synchronously: no await needed). */
export function getEngine(): WasmEngine {
  return (engine ??= new WasmEngine());
}

/**
 * Sets the limits of this thread's engine (src/wasm/limits.ts), which every matcher of
 * the thread uses; omitted keys keep their current value. Each thread has its own:
 * MatchPool and CLI workers keep the defaults unless set there too. Returns the limits
 * now in force.
 * @throws RangeError when a limit is not an integer within its range (nothing changes)
 * @example setEngineLimits({ maxMemoryBytes: 2 ** 31 }).maxUrlBytes // 16777216
 */
export function setEngineLimits(limits: Partial<EngineLimits>): EngineLimits {
  const next = checkLimits(limits, engineLimits());
  threadLimits = next;
  engine?.setLimits(next);
  return next;
}

/** The limits of this thread's engine. */
export function engineLimits(): EngineLimits {
  return engine?.limits ?? threadLimits;
}
