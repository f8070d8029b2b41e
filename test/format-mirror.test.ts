// One source of truth per binary layout: src/table/format.ts and src/table/abi.ts agree with their mirrors assembly/table.ts and assembly/abi.ts constant for constant, and their diagrams agree with both.
//
// Both files are read as text and their `export const` lines evaluated, so the check needs
// no AssemblyScript toolchain and catches a constant changed on one side only. The
// format.ts diagram (header box and record field lists) is parsed too: a field moved in
// code but not in the picture fails here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as F from '../src/table/format.js';
import * as A from '../src/table/abi.js';

const HOST = readFileSync(new URL('../src/table/format.ts', import.meta.url), 'utf8');
const WASM = readFileSync(new URL('../assembly/table.ts', import.meta.url), 'utf8');

/** Constants the host needs and the matcher never reads. */
const HOST_ONLY = new Set(['KNOWN_FLAGS']);

/**
 * `export const NAME[: type] = expr;` → value. Expressions may use integer literals,
 * earlier constants, `<<`, `|`, `&`, `+`, `*` and parentheses; anything else fails loudly.
 */
function readConstants(source: string): Map<string, number> {
  const values = new Map<string, number>();
  const re = /^export const ([A-Z][A-Z0-9_]*)(?:\s*:\s*\w+)?\s*=\s*([^;]+);/gm;
  for (const [, name, expr] of source.matchAll(re)) {
    const substituted = expr!.replace(/0x[0-9a-f]+|\d+|[A-Za-z_][A-Za-z0-9_]*/gi, (id) => {
      if (/^(0x[0-9a-f]+|\d+)$/i.test(id)) return id;
      const known = values.get(id);
      if (known === undefined) throw new Error(`${name} = ${expr}: unknown identifier ${id}`);
      return String(known);
    });
    if (!/^[\s0-9a-fx<>|&+*()-]+$/i.test(substituted)) throw new Error(`${name} = ${expr}: unsupported expression`);
    values.set(name!, Number(new Function(`return (${substituted});`)()));
  }
  return values;
}

const host = readConstants(HOST);
const wasm = readConstants(WASM);

describe('assembly/table.ts mirrors src/table/format.ts', () => {
  it('both files define constants (the parser found them)', () => {
    expect(host.size).toBeGreaterThan(40);
    expect(wasm.size).toBeGreaterThan(40);
  });
  it('the parsed host values equal the module the host actually imports', () => {
    for (const [name, value] of host) expect((F as Record<string, unknown>)[name], name).toBe(value);
  });
  it.each([...host.keys()].filter((n) => !HOST_ONLY.has(n)))('%s has the same value on both sides', (name) => {
    expect(wasm.has(name), `${name} missing from assembly/table.ts`).toBe(true);
    expect(wasm.get(name), name).toBe(host.get(name));
  });
  it('assembly/table.ts defines nothing the format does not', () => {
    expect([...wasm.keys()].filter((n) => !host.has(n))).toEqual([]);
  });
  it('the mirror comment names the current version', () => {
    expect(WASM).toMatch(new RegExp(`mirrors src/table/format\\.ts v${F.FORMAT_VERSION}\\b`));
  });
});

type Width = 'u8' | 'u16' | 'u32';
const WIDTH_BYTES: Record<Width, number> = { u8: 1, u16: 2, u32: 4 };

/** `labelOffset` for `N_LABEL_OFFSET`: the diagram's camelCase field names. */
function camel(suffix: string): string {
  return suffix.toLowerCase().replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
}

/** Fields of the header box: `│ 12 │ u32 │ nodeCount …`. */
const headerFields = [...HOST.matchAll(/│\s*(\d+)\s*│\s*(u8|u16|u32)\s*│\s*(\w+)/g)].map(([, offset, width, name]) => ({
  offset: Number(offset), width: width as Width, name: name!,
}));

/** Fields of a record list: `0 u32 labelOffset`, between the record's heading and the next. */
function recordFields(heading: string, nextHeading: string): { offset: number; width: Width; name: string }[] {
  const start = HOST.indexOf(heading);
  const end = HOST.indexOf(nextHeading, start + heading.length);
  expect(start, `diagram heading ${heading}`).toBeGreaterThanOrEqual(0);
  const block = HOST.slice(start, end < 0 ? undefined : end);
  return [...block.matchAll(/(?:^\/\/\s+|,\s*|:\s*)(\d+) (u8|u16|u32)\s+(\w+)/gm)].map(([, offset, width, name]) => ({
    offset: Number(offset), width: width as Width, name: name!,
  }));
}

const RECORDS = [
  { prefix: 'H_', size: F.HEADER_SIZE, fields: headerFields },
  // The headings also state each record's size, so they must match the constants too.
  { prefix: 'N_', size: F.NODE_SIZE, fields: recordFields(`NODE (${F.NODE_SIZE} bytes)`, 'Rules with `*`') },
  { prefix: 'W_', size: F.WILDCARD_SIZE, fields: recordFields(`WILDCARD records (${F.WILDCARD_SIZE} bytes)`, 'SEGMENT (') },
  { prefix: 'S_', size: F.SEGMENT_SIZE, fields: recordFields(`SEGMENT (${F.SEGMENT_SIZE} bytes)`, 'export const') },
] as const;

describe('the format.ts diagram agrees with the constants', () => {
  for (const { prefix, size, fields } of RECORDS) {
    const constants = [...host].filter(([name]) => name.startsWith(prefix));
    it(`${prefix}*: every constant is a diagram field at the same offset`, () => {
      expect(constants.length).toBeGreaterThan(2);
      for (const [name, offset] of constants) {
        const field = fields.find((f) => f.name.toLowerCase().startsWith(camel(name.slice(prefix.length)).toLowerCase()));
        expect(field, `${name} in the diagram`).toBeDefined();
        expect(field!.offset, `${name} offset`).toBe(offset);
      }
    });
    it(`${prefix}*: diagram fields tile the ${size}-byte record without overlap`, () => {
      const sorted = [...fields].sort((a, b) => a.offset - b.offset);
      for (let i = 0; i < sorted.length; i++) {
        const f = sorted[i]!;
        const end = f.offset + WIDTH_BYTES[f.width];
        expect(f.offset % WIDTH_BYTES[f.width], `${f.name} aligned`).toBe(0);
        expect(end, `${f.name} ends inside the record`).toBeLessThanOrEqual(size);
        if (i + 1 < sorted.length) expect(end, `${f.name} overlaps ${sorted[i + 1]!.name}`).toBeLessThanOrEqual(sorted[i + 1]!.offset);
      }
    });
  }
  it('record sizes keep u32 fields aligned in arrays of records', () => {
    for (const size of [F.HEADER_SIZE, F.NODE_SIZE, F.WILDCARD_SIZE, F.SEGMENT_SIZE]) expect(size % 4).toBe(0);
  });
  it('flags are distinct single bits and KNOWN_FLAGS is their union', () => {
    const flags = [...host].filter(([n]) => n.startsWith('FLAG_')).map(([, v]) => v);
    expect(flags.length).toBeGreaterThan(0);
    for (const f of flags) expect(f & (f - 1), `flag ${f} is one bit`).toBe(0);
    expect(new Set(flags).size).toBe(flags.length);
    expect(flags.reduce((a, b) => a | b, 0)).toBe(F.KNOWN_FLAGS);
  });
  it('the magic spells "RTBL" in little-endian order', () => {
    const bytes = new Uint8Array(4);
    new DataView(bytes.buffer).setUint32(0, F.TABLE_MAGIC, true);
    expect(new TextDecoder().decode(bytes)).toBe('RTBL');
  });
});

// The same contract for every other layout the host and the module share: src/table/abi.ts
// and its mirror assembly/abi.ts (span record, HostIndex slot, table slot, rows, RuleIndex placement).
const ABI_HOST = readFileSync(new URL('../src/table/abi.ts', import.meta.url), 'utf8');
const ABI_WASM = readFileSync(new URL('../assembly/abi.ts', import.meta.url), 'utf8');
const abiHost = readConstants(ABI_HOST);
const abiWasm = readConstants(ABI_WASM);

describe('assembly/abi.ts mirrors src/table/abi.ts', () => {
  it('both files define constants (the parser found them)', () => {
    expect(abiHost.size).toBeGreaterThan(20);
    expect(abiWasm.size).toBe(abiHost.size);
  });
  it('the parsed host values equal the module the host actually imports', () => {
    for (const [name, value] of abiHost) expect((A as Record<string, unknown>)[name], name).toBe(value);
  });
  it.each([...abiHost.keys()])('%s has the same value on both sides', (name) => {
    expect(abiWasm.has(name), `${name} missing from assembly/abi.ts`).toBe(true);
    expect(abiWasm.get(name), name).toBe(abiHost.get(name));
  });
  it('assembly/abi.ts defines nothing the spec does not', () => {
    expect([...abiWasm.keys()].filter((n) => !abiHost.has(n))).toEqual([]);
  });
  it('the mirror comment names the current version', () => {
    expect(ABI_WASM).toMatch(new RegExp(`mirrors src/table/abi\\.ts v${A.ABI_VERSION}\\b`));
  });
  it('the assembly code reads the mirror, not literals of its own', () => {
    const index = readFileSync(new URL('../assembly/index.ts', import.meta.url), 'utf8');
    const host = readFileSync(new URL('../assembly/host.ts', import.meta.url), 'utf8');
    for (const name of ['SPAN_SIZE', 'SP_HOST_ID', 'SP_LINE_LENGTH', 'TABLE_SLOT_SIZE', 'TS_INDEX_AT']) expect(index, name).toMatch(new RegExp(`\\b${name}\\b`));
    for (const name of ['HOST_SLOT_SIZE', 'HS_ID', 'HS_KEY_AT']) expect(host, name).toMatch(new RegExp(`\\b${name}\\b`));
  });
});

describe('the abi.ts diagrams agree with the constants', () => {
  /** Fields of the SPAN box: `│ 28 │ u32 │ hostId …`. */
  const spanBox = ABI_HOST.slice(ABI_HOST.indexOf(`SPAN record (${A.SPAN_SIZE} bytes)`), ABI_HOST.indexOf('export const SPAN_SIZE'));
  const spanFields = [...spanBox.matchAll(/│\s*(\d+)\s*│\s*(u8|u16|u32)\s*│\s*(\w+)/g)].map(([, offset, width, name]) => ({
    offset: Number(offset), width: width as Width, name: name!,
  }));
  /** Fields of a record list (`12 u32 id`) between a heading and the constant that ends it. */
  const listFields = (heading: string, end: string): { offset: number; width: Width; name: string }[] =>
    [...ABI_HOST.slice(ABI_HOST.indexOf(heading), ABI_HOST.indexOf(end)).matchAll(/^\/\/\s+(\d+) (u8|u16|u32|i32)\s+(\w+)/gm)].map(([, offset, width, name]) => ({
      // A signed field is as wide as its unsigned twin.
      offset: Number(offset), width: width!.replace('i', 'u') as Width, name: name!,
    }));
  const slotFields = listFields(`HOST_SLOT (${A.HOST_SLOT_SIZE} bytes)`, 'export const HOST_SLOT_SIZE');
  const tableSlotFields = listFields(`TABLE_SLOT (${A.TABLE_SLOT_SIZE} bytes)`, 'export const TABLE_SLOT_SIZE');
  const groupEntryFields = listFields(`GROUP_ENTRY (${A.GROUP_ENTRY_SIZE} bytes)`, 'export const GROUP_ENTRY_SIZE');
  const columnFields = listFields(`COLUMN (${A.COLUMN_SIZE} bytes)`, 'export const COLUMN_SIZE');
  const ABI_RECORDS = [
    { prefix: 'SP_', size: A.SPAN_SIZE, fields: spanFields },
    { prefix: 'HS_', size: A.HOST_SLOT_SIZE, fields: slotFields },
    { prefix: 'TS_', size: A.TABLE_SLOT_SIZE, fields: tableSlotFields },
    { prefix: 'GE_', size: A.GROUP_ENTRY_SIZE, fields: groupEntryFields },
    { prefix: 'CL_', size: A.COLUMN_SIZE, fields: columnFields },
  ];
  for (const { prefix, size, fields } of ABI_RECORDS) {
    it(`${prefix}*: every constant is a diagram field at the same offset, inside the ${size}-byte record`, () => {
      const constants = [...abiHost].filter(([name]) => name.startsWith(prefix));
      expect(constants.length).toBeGreaterThan(1);
      for (const [name, offset] of constants) {
        const field = fields.find((f) => f.name.toLowerCase() === camel(name.slice(prefix.length)).toLowerCase());
        expect(field, `${name} in the diagram`).toBeDefined();
        expect(field!.offset, `${name} offset`).toBe(offset);
        expect(offset % WIDTH_BYTES[field!.width], `${name} aligned`).toBe(0);
        expect(offset + WIDTH_BYTES[field!.width], `${name} ends inside the record`).toBeLessThanOrEqual(size);
      }
    });
  }
  it('row options are distinct single bits', () => {
    const options = [...abiHost].filter(([n]) => n.startsWith('ROW_') && !/BYTES/.test(n)).map(([, v]) => v);
    expect(options.length).toBe(8);
    for (const o of options) expect(o & (o - 1), `option ${o} is one bit`).toBe(0);
    expect(new Set(options).size).toBe(options.length);
  });
  it('outcome values are distinct and table codes are distinct negative ids', () => {
    const outcomes = [...abiHost].filter(([n]) => n.startsWith('OUTCOME_')).map(([, v]) => v);
    expect(outcomes.length).toBe(5);
    expect(new Set(outcomes).size).toBe(outcomes.length);
    const codes = [...abiHost].filter(([n]) => /^TABLE_(NONE|UNAVAILABLE|UNREACHABLE)$/.test(n)).map(([, v]) => v);
    expect(codes.length).toBe(3);
    for (const c of codes) expect(c).toBeLessThan(0);
    expect(new Set(codes).size).toBe(codes.length);
  });
});
