// The only file that touches WebAssembly: instantiation, the memory layout, one call per batch.
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
// HostIndex (classify): host bytes → the caller's id for that host, looked up by Wasm
// while it splits lines, so JS never handles a URL whose host it already knows. It exists
// only once `resetHostIndex` is called, which moves the arena behind it.
//
// Resident tables: each table a matcher uses is copied into the arena once, with the
// RuleIndex the module derives from it (assembly/match.ts), and stays there; switching
// between hosts' tables costs a WeakMap lookup, not a copy. When the arena is full it is
// emptied at once (a new epoch) and refilled on demand. It doubles (up to 64 MB, or the
// largest table seen) when the tables it held had been resident before, so that a
// working set that filled it fits next time; a stream of one-off tables does not grow it.
// The io regions after it are scratch for one call and move when the arena or a batch
// needs more room. Typed-array views are rebuilt after every memory.grow.
import { WASM_BASE64 } from './wasm-bytes.js';
import { FORMAT_VERSION, H_NODE_COUNT, H_WILDCARD_COUNT } from './table/format.js';
import { validateRuleTable } from './table/validate.js';

interface WasmExports {
  readonly memory: WebAssembly.Memory;
  /** First byte free for the host. */
  heapBase(): number;
  /** Bytes of the RuleIndex of the table at `table`. */
  indexBytes(table: number): number;
  /** Bytes of the RuleIndex of a table with these counts (the arena sizes slots with it). */
  indexBytesFor(wildcardCount: number, nodeCount: number): number;
  /** Builds the RuleIndex of the table at `table` into `index`. */
  indexTable(table: number, index: number): void;
  /** Judges `count` back-to-back URLs whose byte lengths are at `lengths`. */
  matchUrls(table: number, index: number, input: number, lengths: number, count: number, out: number, linesOut: number, scratch: number): void;
  /** Judges LF-separated URLs; returns lines judged, `consumed()` the bytes they covered. */
  matchLines(table: number, index: number, input: number, len: number, out: number, linesOut: number, scratch: number, final: number): number;
  consumed(): number;
  /** Prepares one URL under `flags`; the bytes are at `preparedPtr()`. */
  prepareUrl(flags: number, url: number, len: number, scratch: number): number;
  preparedPtr(): number;
  /** Writes the ids of every wildcard rule matching the URL (u32 each) to `out`. */
  collectMatches(table: number, url: number, len: number, out: number, scratch: number): number;
  /** Judges LF-separated URLs against one table and writes their output rows. */
  formatLines(table: number, index: number, input: number, len: number, final: number, out: number, outCap: number, options: number, scratch: number): number;
  /** Splits lines and writes one span record (SPAN_*) per line with its host and HostIndex id. */
  scanHosts(input: number, len: number, final: number, spans: number, maxCount: number, hosts: number, hostMask: number): number;
  /** Judges span records, line i against table slot ids[i], and writes rows with a host column. */
  formatSpans(input: number, spans: number, first: number, count: number, ids: number, slots: number, out: number, outCap: number, options: number, scratch: number): number;
  written(): number;
  allowed(): number;
  disallowed(): number;
  readonly formatVersion: WebAssembly.Global;
}

function decodeBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

const PAGE_BYTES = 65536;
/** Readable bytes kept after every region: the Wasm scanners load 16 bytes at a time. */
const SIMD_SLACK = 16;
/** Bytes past the start of a region where copyIn may put data (see there). */
const COPY_SKEW = 7;
/** Characters of JS strings copied per matchUrls call. */
const STRING_CHUNK_CHARS = 1 << 18;
/** URLs per matchUrls call. */
const STRING_CHUNK_COUNT = 1 << 14;
/** Bytes per matchLines call (a longer line gets a larger chunk). */
export const LINE_CHUNK_BYTES = 1 << 18;
/** Initial bytes of the resident-table arena. */
const ARENA_BYTES = 1 << 20;
/**
 * The arena doubles, when it fills with tables in use, up to this size: the tables a
 * workload keeps switching between stay resident (the corpus's 2,343 Googlebot tables
 * and their indexes take about 15 MB). Beyond it, a full arena is emptied and refilled.
 */
const ARENA_MAX_BYTES = 64 << 20;
/** Span records (classify) per scanHosts call, and their size (assembly/index.ts). */
const SPAN_COUNT = 1 << 14;
const SPAN_BYTES = 32;
/** u32 fields of a span record. */
export const SPAN_FIELDS = SPAN_BYTES / 4;
export const SPAN_LINE_START = 0;
export const SPAN_LINE_LENGTH = 1;
export const SPAN_HOST_START = 2;
export const SPAN_HOST_LENGTH = 3;
export const SPAN_HOST_HASH = 4;
/** The HostIndex id of the line's host (0: not in the index). */
export const SPAN_HOST_ID = 7;
/** HostIndex slot: u32 hash, keyAt, keyLength, id (assembly/host.ts). */
const HOST_SLOT_BYTES = 16;
/** Key bytes reserved per host of HostIndex capacity (longer hosts just fill it sooner). */
const HOST_KEY_BYTES = 48;

/** Output-row options (assembly/rows.ts ROW_*). */
export const ROW_JSONL = 1;
export const ROW_ONLY_ALLOWED = 2;
export const ROW_ONLY_DISALLOWED = 4;
export const ROW_HOST = 8;
export const ROW_MISSING_DISALLOW = 16;
export const ROW_OUTCOME = 32;
export const ROW_UNAVAILABLE = 64;
export const ROW_UNREACHABLE = 128;
/**
 * A negative table id of formatSpanRows (assembly/index.ts TABLE_*): the line gets line 0 and
 * this verdict. NONE: no robots.txt (allowed unless ROW_MISSING_DISALLOW); UNREACHABLE:
 * disallowed (RFC 9309 §2.3.1.4); UNAVAILABLE: allowed (§2.3.1.3).
 */
export const TABLE_NONE = -1;
export const TABLE_UNREACHABLE = -2;
export const TABLE_UNAVAILABLE = -3;

function align16(n: number): number {
  return (n + 15) & ~15;
}

import { encodeUrls, notAString } from './url-bytes.js';

const encoder = new TextEncoder();

/** Result of one streaming `matchLineChunk` call. */
export interface LineChunkResult {
  /** Lines judged (verdicts written). */
  readonly count: number;
  /** Input bytes those lines covered, line breaks included. */
  readonly consumed: number;
}

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

/** Span records of one scanHosts call: SPAN_FIELDS u32 per line. */
export interface SpanBatch {
  readonly spans: Uint32Array;
  readonly count: number;
  readonly consumed: number;
}

/** Where one table lives in the arena, valid while `epoch` is the arena's. */
interface Slot {
  readonly tableAt: number;
  readonly indexAt: number;
  readonly epoch: number;
}

/** Sizes of a WasmEngine's resident-table arena (tests shrink them to exercise eviction). */
export interface EngineOptions {
  /** Initial arena bytes (default 1 MiB). */
  readonly arenaBytes?: number;
  /** The arena doubles when full up to this many bytes (default 64 MiB). */
  readonly arenaMaxBytes?: number;
}

/** Owns one instance of the matcher module and its memory. One per thread. */
export class WasmEngine {
  private readonly exports: WasmExports;
  private u8!: Uint8Array;
  private u32!: Uint32Array;
  private arenaAt: number;
  private hostsAt = 0;
  private hostMask = 0;
  private hostKeysAt = 0;
  private hostKeysCap = 0;
  private hostKeysUsed = 0;
  private hostCount = 0;
  private arenaCap: number;
  private readonly arenaMax: number;
  private arenaUsed = 0;
  private epoch = 0;
  /** Admissions in this epoch, and how many of them were of tables resident before. */
  private epochAdmits = 0;
  private epochReadmits = 0;
  private readonly slots = new WeakMap<Uint8Array, Slot>();
  private inputCap = 0;
  private countCap = 0;
  private inputAt = 0;
  private lengthsAt = 0;
  private outAt = 0;
  private linesAt = 0;
  private scratchAt = 0;
  private spansAt = 0;
  private idsAt = 0;
  private slotsAt = 0;
  private rowsAt = 0;
  private rowsCap = 0;
  /** Verdicts and lines of the last matchAllLines call (reused: valid until the next one). */
  private allVerdicts = new Uint8Array(1024);
  private allLines = new Uint32Array(1024);
  /** Span records of the last scanHosts call (reused: valid until the next one). */
  private spanCopy = new Uint32Array(0);
  /** The URLs of the chunk being copied (reused between calls). */
  private readonly batch: string[] = [];
  /** The slot of the last table used (skips the WeakMap on repeated calls). */
  private lastTable: Uint8Array | null = null;
  private lastSlot: Slot | null = null;

  constructor(options: EngineOptions = {}) {
    this.arenaCap = align16(options.arenaBytes ?? ARENA_BYTES);
    this.arenaMax = options.arenaMaxBytes ?? ARENA_MAX_BYTES;
    const module = new WebAssembly.Module(decodeBase64(WASM_BASE64) as Uint8Array<ArrayBuffer>);
    this.exports = new WebAssembly.Instance(module, {}).exports as unknown as WasmExports;
    const version = this.exports.formatVersion.value as number;
    if (version !== FORMAT_VERSION) {
      throw new Error(`robotstxt-wasm: Wasm module reads rule table v${version}, host writes v${FORMAT_VERSION}; rebuild with npm run build`);
    }
    this.arenaAt = align16(this.exports.heapBase());
    this.refreshViews();
    this.layout(4096, 1024);
  }

  private refreshViews(): void {
    const buffer = this.exports.memory.buffer;
    this.u8 = new Uint8Array(buffer);
    this.u32 = new Uint32Array(buffer);
  }

  /** Places the io regions after the arena with room for `inputBytes` and `count` results. */
  private layout(inputBytes: number, count: number): void {
    this.inputCap = align16(inputBytes);
    this.countCap = align16(count);
    this.inputAt = this.arenaAt + this.arenaCap;
    this.lengthsAt = align16(this.inputAt + this.inputCap + SIMD_SLACK);
    this.outAt = align16(this.lengthsAt + 4 * this.countCap);
    this.linesAt = align16(this.outAt + this.countCap);
    this.scratchAt = align16(this.linesAt + 4 * this.countCap);
    this.spansAt = align16(this.scratchAt + 3 * this.inputCap + 2 * SIMD_SLACK);
    this.idsAt = this.spansAt + SPAN_BYTES * SPAN_COUNT;
    this.slotsAt = this.idsAt + 4 * SPAN_COUNT;
    this.rowsAt = this.slotsAt + 8 * SPAN_COUNT;
    // A row is at most 64 + 6 bytes per URL byte (JSON escapes): one always fits.
    this.rowsCap = 6 * this.inputCap + 1024;
    const end = this.rowsAt + this.rowsCap + SIMD_SLACK;
    const memory = this.exports.memory;
    if (end > memory.buffer.byteLength) {
      memory.grow(Math.ceil((end - memory.buffer.byteLength) / PAGE_BYTES));
      this.refreshViews();
    }
  }

  /** Makes room for `inputBytes` of URLs and `count` results (amortized doubling). */
  private reserve(inputBytes: number, count: number): void {
    if (inputBytes <= this.inputCap && count <= this.countCap) return;
    this.layout(Math.max(inputBytes, this.inputCap * 2), Math.max(count, this.countCap * 2));
  }

  /** The arena slot of `table`, copying it in (and indexing it) when it is not resident. */
  private slot(table: Uint8Array): Slot {
    if (table === this.lastTable && this.lastSlot!.epoch === this.epoch) return this.lastSlot!;
    let slot = this.slots.get(table);
    if (slot === undefined || slot.epoch !== this.epoch) slot = this.admit(table);
    this.lastTable = table;
    this.lastSlot = slot;
    return slot;
  }

  /**
   * Creates (or empties) the HostIndex, sized for `capacity` hosts. Growing it empties
   * the table arena (tables are re-admitted on demand).
   */
  resetHostIndex(capacity: number): void {
    let slots = 16;
    while (slots < capacity * 2) slots *= 2;
    const keyBytes = align16(capacity * HOST_KEY_BYTES + 4096);
    if (this.hostsAt === 0 || slots - 1 > this.hostMask || keyBytes > this.hostKeysCap) {
      this.hostsAt = align16(this.exports.heapBase());
      this.hostMask = slots - 1;
      this.hostKeysAt = this.hostsAt + slots * HOST_SLOT_BYTES;
      this.hostKeysCap = keyBytes;
      this.arenaAt = align16(this.hostKeysAt + keyBytes + SIMD_SLACK);
      this.epoch++;
      this.arenaUsed = 0;
      this.layout(this.inputCap, this.countCap);
    }
    this.u8.fill(0, this.hostsAt, this.hostsAt + (this.hostMask + 1) * HOST_SLOT_BYTES);
    this.hostKeysUsed = 0;
    this.hostCount = 0;
  }

  /**
   * Adds host `key` (lowercase bytes, `hash` from its span) with `id` ≥ 1 to the
   * HostIndex. Returns false when the index is full: the caller resets and refills it.
   */
  insertHost(key: Uint8Array, hash: number, id: number): boolean {
    if (this.hostsAt === 0) throw new Error('robotstxt-wasm: insertHost before resetHostIndex');
    if (2 * (this.hostCount + 1) > this.hostMask + 1 || this.hostKeysUsed + key.length > this.hostKeysCap) return false;
    const keyAt = this.hostKeysAt + this.hostKeysUsed;
    this.u8.set(key, keyAt);
    this.hostKeysUsed += key.length;
    // Linear probing, as assembly/host.ts lookupHost reads it.
    let i = hash & this.hostMask;
    while (this.u32[((this.hostsAt + i * HOST_SLOT_BYTES) >>> 2) + 3] !== 0) i = (i + 1) & this.hostMask;
    const slot = (this.hostsAt + i * HOST_SLOT_BYTES) >>> 2;
    this.u32[slot] = hash;
    this.u32[slot + 1] = keyAt;
    this.u32[slot + 2] = key.length;
    this.u32[slot + 3] = id;
    this.hostCount++;
    return true;
  }

  /** Arena bytes `table` and its RuleIndex take. */
  private slotBytes(table: Uint8Array): number {
    const header = new DataView(table.buffer, table.byteOffset, table.byteLength);
    // The RuleIndex layout belongs to assembly/match.ts; it says how big one is.
    const indexBytes = this.exports.indexBytesFor(header.getUint32(H_WILDCARD_COUNT, true), header.getUint32(H_NODE_COUNT, true));
    return align16(table.length + SIMD_SLACK) + align16(indexBytes + SIMD_SLACK);
  }

  /** The slot of `table` when it is resident in the current epoch. */
  private residentSlot(table: Uint8Array): Slot | undefined {
    const slot = this.slots.get(table);
    return slot === undefined || slot.epoch !== this.epoch ? undefined : slot;
  }

  /** Whether `table` is resident, or can be admitted without emptying the arena. */
  private residentOrFits(table: Uint8Array): boolean {
    const slot = table === this.lastTable ? this.lastSlot : this.slots.get(table);
    if (slot !== undefined && slot !== null && slot.epoch === this.epoch) return true;
    return this.arenaUsed + this.slotBytes(table) <= this.arenaCap;
  }

  private admit(table: Uint8Array): Slot {
    // The module trusts what it reads, and a table's array may have changed since it was
    // built or validated: check it now (no other code runs until it is copied below).
    validateRuleTable(table);
    const need = this.slotBytes(table);
    if (this.arenaUsed + need > this.arenaCap) {
      // Full: start a new epoch (every other slot becomes stale). The arena grows, while
      // it may, when at least a quarter of this epoch's tables had been resident before (a
      // working set that no longer fits); not for a stream of new tables, which would fill
      // any size.
      const reused = 4 * this.epochReadmits >= this.epochAdmits;
      this.epoch++;
      this.epochReadmits = 0;
      this.epochAdmits = 0;
      this.arenaUsed = 0;
      const cap = Math.max(need, reused ? Math.min(this.arenaMax, this.arenaCap * 2) : this.arenaCap);
      if (cap > this.arenaCap) {
        this.arenaCap = align16(cap);
        this.layout(this.inputCap, this.countCap);
      }
    }
    const tableAt = this.arenaAt + this.arenaUsed;
    const indexAt = align16(tableAt + table.length + SIMD_SLACK);
    this.u8.set(table, tableAt);
    this.exports.indexTable(tableAt, indexAt);
    this.arenaUsed += need;
    const slot: Slot = { tableAt, indexAt, epoch: this.epoch };
    if (this.slots.has(table)) this.epochReadmits++;
    this.slots.set(table, slot);
    this.epochAdmits++;
    return slot;
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
      this.reserve(chars * 3, count);
      const slot = this.slot(table);
      bytes += encodeUrls(batch, 0, count, this.u8.subarray(this.inputAt, this.inputAt + this.inputCap), this.u32, this.lengthsAt >>> 2);
      this.judgeUrls(slot, this.inputAt, this.lengthsAt, count, verdicts, lines, i);
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
      this.reserve(size + COPY_SKEW, count + 1);
      const slot = this.slot(table);
      const urlsAt = this.copyIn(bytes.subarray(offset, offset + size), this.inputAt);
      const lengthsAt = this.copyIn(new Uint8Array(lengths.buffer, lengths.byteOffset + 4 * i, 4 * count), this.lengthsAt);
      this.judgeUrls(slot, urlsAt, lengthsAt, count, verdicts, lines, i);
      i += count;
      offset += size;
    }
  }

  /** Runs matchUrls on `count` URLs in Wasm memory and copies their verdicts (and lines) to index `at` on. */
  private judgeUrls(slot: Slot, urlsAt: number, lengthsAt: number, count: number, verdicts: Uint8Array, lines: Uint32Array | null, at: number): void {
    this.exports.matchUrls(slot.tableAt, slot.indexAt, urlsAt, lengthsAt, count, this.outAt, lines ? this.linesAt : 0, this.scratchAt);
    verdicts.set(this.u8.subarray(this.outAt, this.outAt + count), at);
    if (lines) lines.set(this.u32.subarray(this.linesAt >>> 2, (this.linesAt >>> 2) + count), at);
  }

  /**
   * Copies `bytes` into Wasm memory at `region` (16-aligned) or up to 7 bytes past it,
   * wherever the address agrees with theirs modulo 8, and returns it. V8 copies out of
   * a SharedArrayBuffer at memcpy speed only when both sides agree modulo 8 (byte by
   * byte otherwise, about 6 times slower), and MatchPool hands the matcher views of
   * shared memory that start at any line break. Callers reserve COPY_SKEW bytes more.
   */
  private copyIn(bytes: Uint8Array, region: number): number {
    const at = region + (bytes.byteOffset & 7);
    this.u8.set(bytes, at);
    return at;
  }

  /** Judges one URL; returns the verdict (1/0) and, through `lineOut[0]`, the deciding line. */
  matchOne(table: Uint8Array, url: string, lineOut: Uint32Array | null): number {
    if (url.length * 3 > this.inputCap) this.reserve(url.length * 3, 1);
    const { tableAt, indexAt } = this.slot(table);
    const written = encoder.encodeInto(url, this.u8.subarray(this.inputAt, this.inputAt + this.inputCap)).written;
    this.u32[this.lengthsAt >>> 2] = written;
    this.exports.matchUrls(tableAt, indexAt, this.inputAt, this.lengthsAt, 1, this.outAt, lineOut ? this.linesAt : 0, this.scratchAt);
    if (lineOut) lineOut[0] = this.u32[this.linesAt >>> 2]!;
    return this.u8[this.outAt]!;
  }

  /**
   * Judges the complete LF-terminated lines of `bytes` (all of them when `final`),
   * writing verdicts (and lines) from index `outIndex`. Returns how many lines were
   * judged and how many bytes they covered; the caller carries the rest over.
   */
  matchLineChunk(
    table: Uint8Array, bytes: Uint8Array, final: boolean,
    verdicts: Uint8Array, lines: Uint32Array | null, outIndex: number,
  ): LineChunkResult {
    let count = 0;
    const consumed = this.eachLineChunk(table, bytes, final, lines !== null, (n) => {
      verdicts.set(this.u8.subarray(this.outAt, this.outAt + n), outIndex + count);
      if (lines) lines.set(this.u32.subarray(this.linesAt >>> 2, (this.linesAt >>> 2) + n), outIndex + count);
      count += n;
    });
    return { count, consumed };
  }

  /**
   * The loop behind the line paths: copies `bytes` in LINE_CHUNK_BYTES chunks (a line
   * longer than a chunk gets a larger one), runs matchLines on each and calls `judged(n)`
   * while the n verdicts (and lines) sit at outAt (linesAt). Returns the bytes covered.
   */
  private eachLineChunk(table: Uint8Array, bytes: Uint8Array, final: boolean, withLines: boolean, judged: (n: number) => void): number {
    let consumed = 0;
    while (consumed < bytes.length) {
      let take = Math.min(LINE_CHUNK_BYTES, bytes.length - consumed);
      let n = 0;
      let used = 0;
      for (;;) {
        const last = final && consumed + take === bytes.length;
        this.reserve(take + COPY_SKEW, take + 1);
        const { tableAt, indexAt } = this.slot(table);
        const at = this.copyIn(bytes.subarray(consumed, consumed + take), this.inputAt);
        n = this.exports.matchLines(tableAt, indexAt, at, take, this.outAt, withLines ? this.linesAt : 0, this.scratchAt, last ? 1 : 0);
        used = this.exports.consumed();
        // A line longer than the chunk: retry with a chunk that reaches its end.
        if (n > 0 || consumed + take === bytes.length) break;
        take = Math.min(take * 2, bytes.length - consumed);
      }
      if (n === 0) break;
      judged(n);
      consumed += used;
    }
    return consumed;
  }

  /**
   * Judges every LF-separated line of `bytes` (a last line without a line break too)
   * and returns the verdicts (and lines) as views of buffers this engine reuses: valid
   * until its next call. The line count comes out of the same pass, so the caller needs
   * no counting pass of its own.
   */
  matchAllLines(table: Uint8Array, bytes: Uint8Array, withLines: boolean): { count: number; verdicts: Uint8Array; lines: Uint32Array | null } {
    let count = 0;
    this.eachLineChunk(table, bytes, true, withLines, (n) => {
      if (count + n > this.allVerdicts.length) {
        const grown = new Uint8Array(Math.max(count + n, 2 * this.allVerdicts.length));
        grown.set(this.allVerdicts.subarray(0, count));
        this.allVerdicts = grown;
      }
      this.allVerdicts.set(this.u8.subarray(this.outAt, this.outAt + n), count);
      if (withLines) {
        if (count + n > this.allLines.length) {
          const grown = new Uint32Array(Math.max(count + n, 2 * this.allLines.length));
          grown.set(this.allLines.subarray(0, count));
          this.allLines = grown;
        }
        this.allLines.set(this.u32.subarray(this.linesAt >>> 2, (this.linesAt >>> 2) + n), count);
      }
      count += n;
    });
    return { count, verdicts: this.allVerdicts.subarray(0, count), lines: withLines ? this.allLines.subarray(0, count) : null };
  }

  /** Hands the `written` bytes of the rows region to `sink`, or copies them into `rows`. */
  private emitRows(written: number, rows: Uint8Array[], sink: RowSink | undefined): void {
    if (sink) sink(this.u8.subarray(this.rowsAt, this.rowsAt + written));
    else rows.push(this.u8.slice(this.rowsAt, this.rowsAt + written));
  }

  /**
   * Judges the LF-separated URLs of `bytes` (an unterminated last line too when `final`)
   * against `table` and returns their output rows (assembly/rows.ts, `options` ROW_*),
   * formatted in Wasm: the caller never loops per line. With a `sink`, rows go there
   * instead of being copied into the result.
   */
  formatLineRows(table: Uint8Array, bytes: Uint8Array, final: boolean, options: number, sink?: RowSink): RowBatch {
    const rows: Uint8Array[] = [];
    let count = 0;
    let allowed = 0;
    let disallowed = 0;
    let pos = 0;
    let take = Math.min(LINE_CHUNK_BYTES, bytes.length);
    while (pos < bytes.length) {
      take = Math.min(take, bytes.length - pos);
      const last = final && pos + take === bytes.length;
      this.reserve(take, 1);
      const { tableAt, indexAt } = this.slot(table);
      this.u8.set(bytes.subarray(pos, pos + take), this.inputAt);
      const n = this.exports.formatLines(tableAt, indexAt, this.inputAt, take, last ? 1 : 0, this.rowsAt, this.rowsCap, options, this.scratchAt);
      if (n === 0) {
        // Only an unterminated tail is left, or a line longer than the chunk: take more.
        if (pos + take === bytes.length) break;
        take *= 2;
        continue;
      }
      const written = this.exports.written();
      if (written > 0) this.emitRows(written, rows, sink);
      count += n;
      allowed += this.exports.allowed();
      disallowed += this.exports.disallowed();
      pos += this.exports.consumed();
      take = LINE_CHUNK_BYTES;
    }
    return { rows, count, allowed, disallowed, consumed: pos };
  }

  /**
   * Splits `bytes` into lines (an unterminated last line too when `final`) and finds
   * each line's host and its HostIndex id, for classify. At most SPAN_COUNT lines per
   * call: `consumed` says where to continue. The batch is valid until the next call.
   */
  scanHosts(bytes: Uint8Array, final: boolean): SpanBatch {
    let take = Math.min(LINE_CHUNK_BYTES, bytes.length);
    for (;;) {
      const last = final && take === bytes.length;
      this.reserve(take, 1);
      this.u8.set(bytes.subarray(0, take), this.inputAt);
      const count = this.exports.scanHosts(this.inputAt, take, last ? 1 : 0, this.spansAt, SPAN_COUNT, this.hostsAt, this.hostMask);
      if (count > 0 || take === bytes.length) {
        // Copied out (Wasm memory may move before formatSpanRows) into a buffer reused by
        // the next call: classify allocates nothing per batch here.
        if (this.spanCopy.length < count * SPAN_FIELDS) this.spanCopy = new Uint32Array(SPAN_COUNT * SPAN_FIELDS);
        const spans = this.spanCopy.subarray(0, count * SPAN_FIELDS);
        spans.set(this.u32.subarray(this.spansAt >>> 2, (this.spansAt >>> 2) + count * SPAN_FIELDS));
        return { spans, count, consumed: this.exports.consumed() };
      }
      take = Math.min(take * 2, bytes.length);
    }
  }

  /**
   * Judges the lines of a `scanHosts` batch of the same `bytes`, line i against
   * `tables[tableIds[i]]` (negative: a TABLE_* code, no table), and returns
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
    this.reserve(consumed, 1);
    const rows: Uint8Array[] = [];
    let allowed = 0;
    let disallowed = 0;
    let first = 0;
    // Judges lines [first, end) with the slots written so far, in as many calls as the rows need.
    const flush = (end: number): void => {
      while (first < end) {
        const n = this.exports.formatSpans(
          this.inputAt, this.spansAt, first, end, this.idsAt, this.slotsAt, this.rowsAt, this.rowsCap, options | ROW_HOST, this.scratchAt,
        );
        const written = this.exports.written();
        if (written > 0) this.emitRows(written, rows, sink);
        allowed += this.exports.allowed();
        disallowed += this.exports.disallowed();
        first += n;
      }
    };
    const load = (): void => {
      this.u8.set(bytes.subarray(0, consumed), this.inputAt);
      this.u32.set(spans, this.spansAt >>> 2);
      new Int32Array(this.u32.buffer, this.idsAt, count).set(tableIds.subarray(0, count));
    };
    const place = (id: number, slot: Slot): void => {
      this.u32[(this.slotsAt >>> 2) + 2 * id] = slot.tableAt;
      this.u32[(this.slotsAt >>> 2) + 2 * id + 1] = slot.indexAt;
    };
    // Fast path: admit every table of the batch without emptying the arena (admissions
    // that fit never move memory), then judge the whole batch in one pass.
    let together = true;
    for (let id = 0; id < tableCount; id++) {
      const table = tables[id]!;
      let slot = this.residentSlot(table);
      if (slot === undefined) {
        if (this.arenaUsed + this.slotBytes(table) > this.arenaCap) {
          together = false;
          break;
        }
        slot = this.admit(table);
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
      if (id < 0 || epochOf[id] === this.epoch) continue;
      if (!this.residentOrFits(tables[id]!)) {
        flush(i);
        const inputAt = this.inputAt;
        this.slot(tables[id]!); // empties the arena, and may move the io regions
        if (this.inputAt !== inputAt) load();
      }
      place(id, this.slot(tables[id]!));
      epochOf[id] = this.epoch;
    }
    flush(count);
    return { rows, count, allowed, disallowed, consumed };
  }

  /** The path+params+query the matcher compares for `url` under table `flags`. */
  preparePath(url: string, flags: number): Uint8Array {
    this.reserve(url.length * 3, 1);
    const written = encoder.encodeInto(url, this.u8.subarray(this.inputAt, this.inputAt + this.inputCap)).written;
    const len = this.exports.prepareUrl(flags, this.inputAt, written, this.scratchAt);
    const at = this.exports.preparedPtr();
    return this.u8.slice(at, at + len);
  }

  /** Ids of every wildcard-list rule of `table` that matches `url`. */
  collectMatches(table: Uint8Array, url: string): number[] {
    const wildcardCount = new DataView(table.buffer, table.byteOffset).getUint32(H_WILDCARD_COUNT, true);
    this.reserve(url.length * 3, wildcardCount);
    const { tableAt } = this.slot(table);
    const written = encoder.encodeInto(url, this.u8.subarray(this.inputAt, this.inputAt + this.inputCap)).written;
    const n = this.exports.collectMatches(tableAt, this.inputAt, written, this.lengthsAt, this.scratchAt);
    return Array.from(this.u32.subarray(this.lengthsAt >>> 2, (this.lengthsAt >>> 2) + n));
  }
}

let engine: WasmEngine | undefined;
/** The engine of this thread, created on first use (synchronously: no await needed). */
export function getEngine(): WasmEngine {
  return (engine ??= new WasmEngine());
}
