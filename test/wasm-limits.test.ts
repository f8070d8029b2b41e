// The engine's memory limits: offsets past 2 GiB, capacities that grow apart, failed grows, maxMemoryBytes, maxUrlBytes, and a fresh instance after a huge call.
//
// Issue #17 points 1 and 2. Mechanisms run on private engines with small limits; one
// real run takes a 257 MiB line (Wasm memory past 2 GiB) through the CLI's row path.
// After every failure the same engine must answer a known verdict.
import { describe, expect, it } from 'vitest';
import { Robots } from '../src/index.js';
import {
  DEFAULT_MAX_MEMORY_BYTES, DEFAULT_MAX_URL_BYTES, engineLimits, getEngine, MemoryLimitError, setEngineLimits, SPAN_FIELDS, SPAN_HOST_ID,
  UrlLengthError, WasmEngine,
} from '../src/wasm/index.js';
import { align16 } from '../src/wasm/memory.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const m = Robots.parse('User-agent: *\nDisallow: /private\nAllow: /private/ok\n').forAgent('bot');
const table = m.table;

/** The engine still judges: /a allowed, /private/x disallowed by line 2, /private/ok allowed by line 3. */
function expectHealthy(engine: WasmEngine): void {
  const verdicts = new Uint8Array(3);
  const lines = new Uint32Array(3);
  engine.matchStrings(table, ['/a', '/private/x', '/private/ok'], verdicts, lines);
  expect([...verdicts, ...lines]).toEqual([1, 0, 1, 0, 2, 3]);
  const all = engine.matchAllLines(table, encoder.encode('/private/x\r\n/b\n/private/ok'), true);
  expect([...all.verdicts, ...all.lines!]).toEqual([0, 1, 1, 2, 0, 3]);
  const rows = engine.formatLineRows(table, encoder.encode('/private/x\n'), true, 0);
  expect(decoder.decode(Buffer.concat(rows.rows))).toBe('disallow\t2\t/private/x\n');
}

function thrown(call: () => unknown): unknown {
  try {
    call();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to throw');
}

describe('offsets never wrap', () => {
  it('align16 is exact past 2^31 and 2^32 (the old `& ~15` made 2^31 + 1 negative)', () => {
    expect(align16(2 ** 31 + 1)).toBe(2 ** 31 + 16);
    expect(align16(2 ** 32 - 1)).toBe(2 ** 32);
    expect(align16(2 ** 40 + 17)).toBe(2 ** 40 + 32);
    expect(align16(0)).toBe(0);
  });
});

describe('maxMemoryBytes', () => {
  it('a call over the limit is a MemoryLimitError naming both sizes; the engine answers as before and stays within the limit', () => {
    const engine = new WasmEngine({ maxMemoryBytes: 16 << 20 });
    expectHealthy(engine);
    const error = thrown(() => engine.matchStrings(table, [`/${'a'.repeat(6 << 20)}`], new Uint8Array(1), null));
    expect(error).toBeInstanceOf(MemoryLimitError);
    expect(error).toBeInstanceOf(RangeError);
    const { requested, limit, message } = error as MemoryLimitError;
    expect(limit).toBe(16 << 20);
    expect(requested).toBeGreaterThan(limit);
    expect(message).toContain(`needs ${requested} bytes of Wasm memory, over the engine's limit of ${16 << 20} bytes (maxMemoryBytes)`);
    expect(engine.memoryBytes).toBeLessThanOrEqual(16 << 20);
    expectHealthy(engine);
    // Lines and rows too (6 bytes of rows per line byte).
    expect(thrown(() => engine.formatLineRows(table, encoder.encode(`/${'b'.repeat(3 << 20)}\n`), true, 0))).toBeInstanceOf(MemoryLimitError);
    expectHealthy(engine);
    // What fits is judged: a 1 MiB URL.
    const v = new Uint8Array(2);
    engine.matchStrings(table, [`/private/${'c'.repeat(1 << 20)}`, '/a'], v, null);
    expect([...v]).toEqual([0, 1]);
  });

  it('a grow the runtime refuses is a MemoryLimitError with the cause, and leaves every offset as it was', () => {
    const engine = new WasmEngine();
    expectHealthy(engine);
    const memory = (engine as unknown as { memory: { exports: { memory: WebAssembly.Memory }; inputAt: number; scratchAt: number; rowsAt: number; generation: number } }).memory;
    const wasmMemory = memory.exports.memory;
    const before = { inputAt: memory.inputAt, scratchAt: memory.scratchAt, rowsAt: memory.rowsAt, generation: memory.generation, size: wasmMemory.buffer.byteLength };
    Object.defineProperty(wasmMemory, 'grow', { configurable: true, value: () => { throw new RangeError('WebAssembly.Memory.grow(): Unable to grow instance memory'); } });
    try {
      const error = thrown(() => engine.matchStrings(table, [`/${'a'.repeat(8 << 20)}`], new Uint8Array(1), null));
      expect(error).toBeInstanceOf(MemoryLimitError);
      expect((error as Error).message).toMatch(/runtime refused to grow it: WebAssembly\.Memory\.grow\(\): Unable to grow/);
      expect((error as Error).cause).toBeInstanceOf(RangeError);
      expect({ inputAt: memory.inputAt, scratchAt: memory.scratchAt, rowsAt: memory.rowsAt, generation: memory.generation, size: wasmMemory.buffer.byteLength }).toEqual(before);
      // Calls that need no growth are unaffected while grow still fails.
      expectHealthy(engine);
    } finally {
      delete (wasmMemory as unknown as { grow?: unknown }).grow;
    }
    expectHealthy(engine);
  });

  it('each capacity grows on its own: a 5 MB URL, then a 4 MiB line, hold tens of MB, not gigabytes', () => {
    const engine = new WasmEngine();
    const v = new Uint8Array(1);
    engine.matchStrings(table, [`/${'a'.repeat(5_000_000)}`], v, null);
    expect(v[0]).toBe(1);
    const rows = engine.formatLineRows(table, encoder.encode(`/private/${'d'.repeat(4 << 20)}\n`), true, 0);
    expect(rows.disallowed).toBe(1);
    // Input ≈ 5 MB + 4 MiB, scratch 3 × 5 MB, rows 6 × 4 MiB, the 1 MiB arena: under 100 MB
    // (the old layout doubled every region together and held 2.3 GB).
    expect(engine.memoryBytes).toBeLessThan(100_000_000);
    expectHealthy(engine);
  });
});

describe('a fresh instance after a call that left memory over retainMemoryBytes', () => {
  it('memory goes back down; tables and the HostIndex come back on their next use', () => {
    const engine = new WasmEngine({ retainMemoryBytes: 32 << 20 });
    expectHealthy(engine);
    engine.resetHostIndex(16);
    const host = encoder.encode('example.com');
    // The span hash the Wasm computes for the host, learnt from a scan before it is indexed.
    const probe = engine.scanHosts(encoder.encode('https://example.com/x\n'), true);
    const hash = probe.spans[4]!;
    expect(engine.insertHost(host, hash, 7)).toBe(true);
    const scanned = engine.scanHosts(encoder.encode('https://Example.COM/private\n'), true);
    expect(scanned.spans[SPAN_HOST_ID]).toBe(7);
    const v = new Uint8Array(1);
    engine.matchStrings(table, [`/private/${'e'.repeat(12 << 20)}`], v, null);
    expect(v[0]).toBe(0);
    expect(engine.recycled).toBe(1);
    expect(engine.memoryBytes).toBeLessThan(32 << 20);
    const again = engine.scanHosts(encoder.encode('/x\nhttps://example.com/a\n'), true);
    expect([again.spans[SPAN_HOST_ID], again.spans[SPAN_FIELDS + SPAN_HOST_ID]]).toEqual([0, 7]);
    expectHealthy(engine);
    expect(engine.recycled).toBe(1);
  });

  it('matchBatch of a 150 MB URL: judged (maxUrlBytes raised), then the thread’s memory is given back', () => {
    const engine = new WasmEngine({ maxUrlBytes: 256 << 20 });
    const v = new Uint8Array(2);
    engine.matchStrings(table, [`/private/${'a'.repeat(150e6)}`, '/a'], v, null);
    expect([...v]).toEqual([0, 1]);
    expect(engine.memoryBytes).toBeLessThan(64 << 20);
    expectHealthy(engine);
  });
});

describe('maxUrlBytes', () => {
  const limit = 1000;
  const small = (): WasmEngine => new WasmEngine({ maxUrlBytes: limit });

  it('has documented defaults, and the thread’s limits can be set and read back', () => {
    expect(DEFAULT_MAX_URL_BYTES).toBe(16 << 20);
    expect(DEFAULT_MAX_MEMORY_BYTES).toBe(1 << 30);
    const before = engineLimits();
    try {
      expect(setEngineLimits({ maxUrlBytes: 5000 }).maxUrlBytes).toBe(5000);
      expect(getEngine().limits.maxUrlBytes).toBe(5000);
      expect(thrown(() => m.matchBatch([`/${'x'.repeat(5000)}`]))).toBeInstanceOf(UrlLengthError);
      expect(thrown(() => setEngineLimits({ maxMemoryBytes: 2 ** 33 }))).toBeInstanceOf(RangeError);
      expect(thrown(() => setEngineLimits({ maxUrlBytes: 0 }))).toBeInstanceOf(RangeError);
    } finally {
      setEngineLimits(before);
    }
    expect(m.isAllowed(`/${'x'.repeat(5000)}`)).toBe(true);
  });

  it('strings: a URL of limit bytes is judged, one byte more is a UrlLengthError with its index, length and the limit', () => {
    const engine = small();
    const v = new Uint8Array(3);
    engine.matchStrings(table, ['/a', `/private${'x'.repeat(limit - 8)}`, '/b'], v, null);
    expect([...v]).toEqual([1, 0, 1]);
    const error = thrown(() => engine.matchStrings(table, ['/a', '/b', `/${'x'.repeat(limit)}`], new Uint8Array(3), null)) as UrlLengthError;
    expect(error).toBeInstanceOf(UrlLengthError);
    expect(error).toBeInstanceOf(RangeError);
    expect({ length: error.length, limit: error.limit, index: error.index }).toEqual({ length: 1001, limit, index: 2 });
    expect(error.message).toBe(`robotstxt-wasm: urls[2] is at least 1001 bytes long, over the engine's URL limit of ${limit} bytes (maxUrlBytes)`);
    // Counted in UTF-8 bytes: 600 'é' are 600 UTF-16 units but 1,201 bytes.
    const utf8 = thrown(() => engine.matchStrings(table, [`/${'é'.repeat(600)}`], new Uint8Array(1), null)) as UrlLengthError;
    expect({ length: utf8.length, index: utf8.index }).toEqual({ length: 1201, index: 0 });
    expect(utf8.message).toContain('urls[0] is 1201 bytes long');
    expect(thrown(() => engine.matchOne(table, `/${'é'.repeat(600)}`, null))).toBeInstanceOf(UrlLengthError);
    expect(thrown(() => engine.preparePath(`/${'y'.repeat(limit)}`, 0))).toBeInstanceOf(UrlLengthError);
    expect(thrown(() => engine.matchEncoded(table, new Uint8Array(1001), Uint32Array.of(1001), new Uint8Array(1), null))).toBeInstanceOf(UrlLengthError);
    expectHealthy(engine);
  });

  it('lines: limit bytes (LF or CRLF) judged; longer lines, terminated or last, are a UrlLengthError at their offset', () => {
    const engine = small();
    const ok = `/private${'x'.repeat(limit - 8)}`;
    const long = `/${'x'.repeat(limit)}`;
    // Lines of exactly the limit, with both breaks, many per chunk and across the limit-sized chunks.
    const fine = encoder.encode(`${ok}\n${ok}\r\n/a\n${ok}`);
    expect([...engine.matchAllLines(table, fine, false).verdicts]).toEqual([0, 0, 1, 0]);
    expect([...engine.matchAllLines(table, encoder.encode(`${ok}\r`), false).verdicts]).toEqual([0]);
    for (const [input, offset] of [
      [`/a\n${long}\n/b\n`, 3], [`/a\n/b\r\n${long}`, 7], [`${long}\r\n`, 0], [`/a\n${long}\r`, 3], [`/a\n${'/'.repeat(5000)}\n`, 3],
    ] as const) {
      const error = thrown(() => engine.matchAllLines(table, encoder.encode(input), false)) as UrlLengthError;
      expect(error, input.slice(0, 12)).toBeInstanceOf(UrlLengthError);
      expect({ offset: error.offset, limit: error.limit, over: error.length > limit }).toEqual({ offset, limit, over: true });
      expect(error.message).toContain(`the line at byte ${offset} is`);
      expectHealthy(engine);
    }
    // Rows: those of the lines before the long one have reached the sink.
    const seen: string[] = [];
    const error = thrown(() => engine.formatLineRows(table, encoder.encode(`/a\n/private/x\n${long}\n/b\n`), true, 0, (rows) => seen.push(decoder.decode(rows)))) as UrlLengthError;
    expect(error.offset).toBe(14);
    expect(seen.join('')).toBe('allow\t0\t/a\ndisallow\t2\t/private/x\n');
    expect(thrown(() => engine.scanHosts(encoder.encode(`https://h/${'x'.repeat(limit)}\n`), true))).toBeInstanceOf(UrlLengthError);
    expectHealthy(engine);
  });
});

describe('one real run past 2 GiB of Wasm memory: a 257 MiB URL line (issue #17 point 1)', () => {
  it('check’s row path writes the two rows (not NUL bytes), and the engine answers afterwards', () => {
    const engine = new WasmEngine({ maxUrlBytes: 512 << 20, maxMemoryBytes: 2 ** 32 });
    const n = 257 << 20;
    const input = Buffer.alloc(1 + n + 12, 'a'.charCodeAt(0));
    input[0] = 0x2f;
    input.write('\n/private/x\n', 1 + n, 'latin1');
    let peak = 0;
    const out: Buffer[] = [];
    const result = engine.formatLineRows(table, input, true, 0, (rows) => {
      peak = Math.max(peak, engine.memoryBytes);
      out.push(Buffer.from(rows));
    });
    expect({ count: result.count, allowed: result.allowed, disallowed: result.disallowed, consumed: result.consumed }).toEqual({ count: 2, allowed: 1, disallowed: 0 + 1, consumed: input.length });
    expect(peak).toBeGreaterThan(2 ** 31);
    const all = Buffer.concat(out);
    expect(all.length).toBe('allow\t0\t'.length + 1 + n + 1 + 'disallow\t2\t/private/x\n'.length);
    expect(all.subarray(0, 9).toString('latin1')).toBe('allow\t0\t/');
    expect(all.indexOf(0)).toBe(-1);
    expect(all.subarray(all.length - 22).toString('latin1')).toBe('disallow\t2\t/private/x\n');
    expect(engine.memoryBytes).toBeLessThan(64 << 20);
    expectHealthy(engine);
  }, 300_000);
});
