// The only file that touches WebAssembly: instantiation, the memory layout, one call per batch.
//
// Linear memory, all regions 16-byte aligned, placed by the host (the module allocates
// nothing; it only reads and writes where it is told):
//
//   0 ────────── heapBase ─ tableAt ─────────── inputAt ──── lengthsAt ── outAt ── linesAt ── scratchAt ───┐
//   │ static data │        │ active RuleTable  │ URL bytes  │ u32 × N    │ u8 × N │ u32 × N  │ 3 × input │
//   └─────────────┴────────┴───────────────────┴────────────┴────────────┴────────┴──────────┴───────────┘
//
// Only the table region persists between calls (it is re-copied when another table is
// used); the other regions are scratch for one call and move when a larger table or
// batch needs more room. Views are rebuilt after every memory.grow.
import { WASM_BASE64 } from './wasm-bytes.js';
import { FORMAT_VERSION, H_WILDCARD_COUNT } from './table/format.js';

interface WasmExports {
  readonly memory: WebAssembly.Memory;
  /** First byte free for the host. */
  heapBase(): number;
  /** Judges `count` back-to-back URLs whose byte lengths are at `lengths`. */
  matchUrls(table: number, input: number, lengths: number, count: number, out: number, linesOut: number, scratch: number): void;
  /** Judges LF-separated URLs; returns lines judged, `consumed()` the bytes they covered. */
  matchLines(table: number, input: number, len: number, out: number, linesOut: number, scratch: number, final: number): number;
  consumed(): number;
  /** Prepares one URL under `flags`; the bytes are at `preparedPtr()`. */
  prepareUrl(flags: number, url: number, len: number, scratch: number): number;
  preparedPtr(): number;
  /** Writes the ids of every wildcard rule matching the URL (u32 each) to `out`. */
  collectMatches(table: number, url: number, len: number, out: number, scratch: number): number;
  readonly formatVersion: WebAssembly.Global;
}

function decodeBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

const PAGE_BYTES = 65536;
/** Characters of JS strings copied per matchUrls call. */
const STRING_CHUNK_CHARS = 1 << 16;
/** URLs per matchUrls call. */
const STRING_CHUNK_COUNT = 1 << 14;
/** Bytes per matchLines call (a longer line gets a larger chunk). */
export const LINE_CHUNK_BYTES = 1 << 18;

function align16(n: number): number {
  return (n + 15) & ~15;
}

const encoder = new TextEncoder();

/** Result of one streaming `matchLineChunk` call. */
export interface LineChunkResult {
  /** Lines judged (verdicts written). */
  readonly count: number;
  /** Input bytes those lines covered, line breaks included. */
  readonly consumed: number;
}

/** Owns one instance of the matcher module and its memory. One per thread. */
export class WasmEngine {
  private readonly exports: WasmExports;
  private u8!: Uint8Array;
  private u32!: Uint32Array;
  private readonly tableAt: number;
  private tableCap = 0;
  private inputCap = 0;
  private countCap = 0;
  private inputAt = 0;
  private lengthsAt = 0;
  private outAt = 0;
  private linesAt = 0;
  private scratchAt = 0;
  private active: Uint8Array | null = null;

  constructor() {
    const module = new WebAssembly.Module(decodeBase64(WASM_BASE64) as Uint8Array<ArrayBuffer>);
    this.exports = new WebAssembly.Instance(module, {}).exports as unknown as WasmExports;
    const version = this.exports.formatVersion.value as number;
    if (version !== FORMAT_VERSION) {
      throw new Error(`robotstxt-wasm: Wasm module reads rule table v${version}, host writes v${FORMAT_VERSION}; rebuild with npm run build`);
    }
    this.tableAt = align16(this.exports.heapBase());
    this.refreshViews();
    this.reserve(0, 4096, 1024);
  }

  private refreshViews(): void {
    const buffer = this.exports.memory.buffer;
    this.u8 = new Uint8Array(buffer);
    this.u32 = new Uint32Array(buffer);
  }

  /** Makes room for a table of `tableBytes`, `inputBytes` of URLs and `count` results. */
  private reserve(tableBytes: number, inputBytes: number, count: number): void {
    if (tableBytes <= this.tableCap && inputBytes <= this.inputCap && count <= this.countCap) return;
    const grow = (cap: number, need: number): number => (need <= cap ? cap : Math.max(need, cap * 2));
    this.tableCap = align16(grow(this.tableCap, tableBytes));
    this.inputCap = align16(grow(this.inputCap, inputBytes));
    this.countCap = align16(grow(this.countCap, count));
    this.inputAt = this.tableAt + this.tableCap;
    this.lengthsAt = align16(this.inputAt + this.inputCap);
    this.outAt = align16(this.lengthsAt + 4 * this.countCap);
    this.linesAt = align16(this.outAt + this.countCap);
    this.scratchAt = align16(this.linesAt + 4 * this.countCap);
    const end = this.scratchAt + 3 * this.inputCap + 16;
    const memory = this.exports.memory;
    if (end > memory.buffer.byteLength) {
      memory.grow(Math.ceil((end - memory.buffer.byteLength) / PAGE_BYTES));
      this.refreshViews();
    }
  }

  /** Copies `table` into the table region unless it is already there. */
  private use(table: Uint8Array): void {
    if (this.active === table) return;
    this.reserve(table.length, 0, 0);
    this.u8.set(table, this.tableAt);
    this.active = table;
  }

  /**
   * Judges `urls[from, to)` into `verdicts[from, to)` (and `lines`, when given).
   * ASCII strings are copied in one `encodeInto` per chunk; a chunk holding any
   * non-ASCII URL is re-encoded per URL to learn its byte lengths.
   */
  matchStrings(table: Uint8Array, urls: readonly string[], verdicts: Uint8Array, lines: Uint32Array | null): void {
    this.use(table);
    const total = urls.length;
    let i = 0;
    while (i < total) {
      let j = i;
      let chars = 0;
      while (j < total && j - i < STRING_CHUNK_COUNT) {
        const url = urls[j];
        if (typeof url !== 'string') {
          throw new TypeError(`urls[${j}] must be a string, got ${url === null ? 'null' : typeof url}`);
        }
        if (chars > 0 && chars + url.length > STRING_CHUNK_CHARS) break;
        chars += url.length;
        j++;
      }
      const count = j - i;
      this.reserve(0, chars * 3, count);
      const input = this.u8.subarray(this.inputAt, this.inputAt + this.inputCap);
      const joined = count === 1 ? urls[i]! : urls.slice(i, j).join('');
      const { written } = encoder.encodeInto(joined, input);
      const lengthBase = this.lengthsAt >>> 2;
      if (written === joined.length) {
        for (let k = 0; k < count; k++) this.u32[lengthBase + k] = urls[i + k]!.length;
      } else {
        let offset = 0;
        for (let k = 0; k < count; k++) {
          const bytes = encoder.encodeInto(urls[i + k]!, input.subarray(offset)).written;
          this.u32[lengthBase + k] = bytes;
          offset += bytes;
        }
      }
      this.exports.matchUrls(this.tableAt, this.inputAt, this.lengthsAt, count, this.outAt, lines ? this.linesAt : 0, this.scratchAt);
      verdicts.set(this.u8.subarray(this.outAt, this.outAt + count), i);
      if (lines) lines.set(this.u32.subarray(this.linesAt >>> 2, (this.linesAt >>> 2) + count), i);
      i = j;
    }
  }

  /** Judges one URL; returns the verdict (1/0) and, through `lineOut[0]`, the deciding line. */
  matchOne(table: Uint8Array, url: string, lineOut: Uint32Array | null): number {
    this.use(table);
    if (url.length * 3 > this.inputCap) this.reserve(0, url.length * 3, 1);
    const written = encoder.encodeInto(url, this.u8.subarray(this.inputAt, this.inputAt + this.inputCap)).written;
    this.u32[this.lengthsAt >>> 2] = written;
    this.exports.matchUrls(this.tableAt, this.inputAt, this.lengthsAt, 1, this.outAt, lineOut ? this.linesAt : 0, this.scratchAt);
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
    this.use(table);
    let count = 0;
    let consumed = 0;
    while (consumed < bytes.length) {
      let take = Math.min(LINE_CHUNK_BYTES, bytes.length - consumed);
      let n = 0;
      let used = 0;
      for (;;) {
        const last = final && consumed + take === bytes.length;
        this.reserve(0, take, take + 1);
        this.u8.set(bytes.subarray(consumed, consumed + take), this.inputAt);
        n = this.exports.matchLines(this.tableAt, this.inputAt, take, this.outAt, lines ? this.linesAt : 0, this.scratchAt, last ? 1 : 0);
        used = this.exports.consumed();
        // A line longer than the chunk: retry with a chunk that reaches its end.
        if (n > 0 || consumed + take === bytes.length) break;
        take = Math.min(take * 2, bytes.length - consumed);
      }
      if (n === 0) break;
      verdicts.set(this.u8.subarray(this.outAt, this.outAt + n), outIndex + count);
      if (lines) lines.set(this.u32.subarray(this.linesAt >>> 2, (this.linesAt >>> 2) + n), outIndex + count);
      count += n;
      consumed += used;
    }
    return { count, consumed };
  }

  /** The path+params+query the matcher compares for `url` under table `flags`. */
  preparePath(url: string, flags: number): Uint8Array {
    this.reserve(0, url.length * 3, 1);
    const written = encoder.encodeInto(url, this.u8.subarray(this.inputAt, this.inputAt + this.inputCap)).written;
    const len = this.exports.prepareUrl(flags, this.inputAt, written, this.scratchAt);
    const at = this.exports.preparedPtr();
    return this.u8.slice(at, at + len);
  }

  /** Ids of every wildcard-list rule of `table` that matches `url`. */
  collectMatches(table: Uint8Array, url: string): number[] {
    this.use(table);
    const wildcardCount = new DataView(table.buffer, table.byteOffset).getUint32(H_WILDCARD_COUNT, true);
    this.reserve(0, url.length * 3, wildcardCount);
    const written = encoder.encodeInto(url, this.u8.subarray(this.inputAt, this.inputAt + this.inputCap)).written;
    const n = this.exports.collectMatches(this.tableAt, this.inputAt, written, this.lengthsAt, this.scratchAt);
    return Array.from(this.u32.subarray(this.lengthsAt >>> 2, (this.lengthsAt >>> 2) + n));
  }
}

let engine: WasmEngine | undefined;
/** The engine of this thread, created on first use (synchronously: no await needed). */
export function getEngine(): WasmEngine {
  return (engine ??= new WasmEngine());
}
