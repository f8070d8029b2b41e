// Check rows (`formatLines`) and classify rows (`formatSpans`, a host's runs) of a table whose paths the batch loops queue for the DFA: written in rounds after the queue's verdicts, the same rows as one path at a time, whatever room the output has.
import { describe, expect, it } from 'vitest';
import { Robots } from '../src/index.js';
import { ClassifyProcessor } from '../src/cli/jobs.js';
import { ROW_HOST, SPAN_SIZE, SP_LINE_LENGTH, SP_LINE_START, SP_HOST_LENGTH, SP_HOST_START, TABLE_SLOT_SIZE } from '../src/table/abi.js';
import { getEngine, WasmEngine } from '../src/wasm/index.js';
import { PlacedTable } from './helpers/placed-table.js';
import { ReferenceRobots } from './reference/index.js';
import { random, randomWord } from './reference/prng.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** 40 wildcard rules (a DFA from the first path) and 60 plain ones. */
const BODY = [
  'User-agent: *',
  ...Array.from({ length: 40 }, (_v, i) => `${i % 4 === 0 ? 'Allow' : 'Disallow'}: /*${['?', 'x', '.', '/'][i % 4]}${i % 10}*${['a', 'b='][i % 2]}`),
  ...Array.from({ length: 60 }, (_v, i) => `${i % 3 === 0 ? 'Allow' : 'Disallow'}: /p${i % 20}/${i % 7}`),
  'Disallow: /~x',
].join('\n');

/** 700 lines (more than two rounds of 256): plain paths, ones rewritten into scratch (%7e, %41, uppercase host), /robots.txt, CRLF. */
function workload(seed: number): string[] {
  const r = random(seed);
  return Array.from({ length: 700 }, (_v, i) => {
    const path = `/p${Math.floor(r() * 22)}/${randomWord(r, '0123456789ab?=x./', 1 + Math.floor(r() * 14))}`;
    if (i % 50 === 7) return 'https://www.example.com/robots.txt';
    if (i % 13 === 5) return `https://Www.Example.com/%7ex${randomWord(r, 'ab%41', 4)}`;
    if (i % 17 === 3) return `${path}\r`;
    return `https://www.example.com${path}`;
  });
}

describe('check rows of a DFA table: queued in rounds', () => {
  it('700 lines: every row as decideLines and the reference say, in input order, with and without a final line break', () => {
    const matcher = Robots.parse(BODY).forAgent('ExampleBot');
    const ref = ReferenceRobots.parse(BODY, { profile: 'rfc' });
    for (const seed of [1, 2]) {
      const lines = workload(seed);
      for (const ending of ['\n', '']) {
        const bytes = encoder.encode(lines.join('\n') + ending);
        const decided = matcher.decideLines(bytes);
        const batch = getEngine().formatLineRows(matcher.table, bytes, true, 0);
        const rows = batch.rows.map((b) => decoder.decode(b)).join('').split('\n').slice(0, -1);
        expect(batch.count).toBe(lines.length);
        expect(rows).toHaveLength(lines.length);
        expect(batch.allowed + batch.disallowed).toBe(lines.length);
        rows.forEach((row, i) => {
          const [verdict, line, url] = row.split('\t');
          expect({ verdict, line: Number(line) }, `line ${i}`).toEqual({ verdict: decided.verdicts[i] === 1 ? 'allow' : 'disallow', line: decided.lines[i] });
          expect(url, `line ${i}`).toBe(lines[i]!.replace(/\r$/, ''));
        });
        lines.slice(0, 120).forEach((u, i) => {
          const want = ref.explain(u.replace(/\r$/, ''), 'ExampleBot');
          expect({ allowed: decided.verdicts[i] === 1, line: decided.lines[i] }, u).toEqual({ allowed: want.allowed, line: want.line });
        });
      }
    }
  });

  it('output room for a few rows at a time: the calls resume where the last stopped, and their rows joined are the one-call rows', () => {
    const table = Robots.parse(BODY).forAgent('ExampleBot').table;
    const placed = new PlacedTable(table);
    const ex = placed.exports;
    const lines = workload(3);
    // The last line has no '\n': not taken while `final` is 0.
    const input = encoder.encode(`${lines.join('\n')}`);
    const inputAt = (placed.index + ex.indexBytes(placed.at, 0) + 64 + 15) & ~15;
    const scratch = (inputAt + input.length + 64 + 15) & ~15;
    const out = (scratch + 3 * input.length + 64 + 15) & ~15;
    const outCap = 1 << 20;
    const need = out + outCap + 64;
    if (need > ex.memory.buffer.byteLength) ex.memory.grow(Math.ceil((need - ex.memory.buffer.byteLength) / 65536));
    new Uint8Array(ex.memory.buffer).set(input, inputAt);
    const call = (from: number, cap: number, final: number): { n: number; consumed: number; text: string } => {
      const n = ex.formatLines(placed.at, placed.index, inputAt + from, input.length - from, final, out, cap, 0, scratch);
      const written = ex.written();
      expect(written).toBeLessThanOrEqual(cap);
      return { n, consumed: ex.consumed(), text: decoder.decode(new Uint8Array(ex.memory.buffer, out, written)) };
    };
    const whole = call(0, outCap, 1);
    expect(whole.n).toBe(lines.length);
    for (const cap of [400, 1000, 4000]) {
      let from = 0;
      let text = '';
      let n = 0;
      // Room for one to a few dozen rows a call: many rounds of fewer than 256 lines.
      for (let calls = 0; calls < 2000; calls++) {
        const got = call(from, cap, 0);
        if (got.n === 0) break;
        n += got.n;
        text += got.text;
        from += got.consumed;
      }
      expect(n, `cap ${cap}`).toBe(lines.length - 1);
      const last = call(from, cap, 1);
      expect(last.n).toBe(1);
      expect(text + last.text, `cap ${cap}`).toBe(whole.text);
    }
  });
});

describe('classify rows of a DFA table: a host\'s runs queued in rounds', () => {
  /** Lines of three hosts: runs of 1, 2, 3, 4, 300 and 700 lines of the DFA host between lines of a plain host and of one without robots.txt. */
  function stream(): string[] {
    const dfaLines = workload(4).map((u) => u.replace(/^\/p/, 'https://www.example.com/p'));
    const out: string[] = [];
    let next = 0;
    for (const run of [1, 2, 3, 4, 300, 1, 700, 2]) {
      for (let j = 0; j < run; j++) out.push(dfaLines[next++ % dfaLines.length]!);
      out.push(`https://plain.example/q${run}`, `https://missing.example/x${run}`);
    }
    return out;
  }
  const bodies = new Map([['www.example.com', encoder.encode(BODY)], ['plain.example', encoder.encode('User-agent: *\nDisallow: /q3\n')]]);
  const matchers = new Map([...bodies].map(([host, body]) => [host, Robots.parse(body).forAgent('ExampleBot')]));

  it('every row as each line judged alone says, in input order (a crowd of 1,000+ lines, CRLF, rewritten paths, /robots.txt)', async () => {
    const lines = stream();
    const processor = new ClassifyProcessor(
      { kind: 'classify', robotsDir: '', agent: 'ExampleBot', profile: 'rfc', missing: 'disallow', cacheHosts: 100, format: 'tsv', only: null },
      { load: (host) => bodies.get(host) ?? null },
      new WasmEngine(),
    );
    const result = await processor.process(encoder.encode(`${lines.join('\n')}\n`));
    const rows = decoder.decode(Buffer.concat(result.rows)).split('\n');
    expect(rows.pop()).toBe('');
    expect(rows).toHaveLength(lines.length);
    lines.forEach((line, i) => {
      const url = line.replace(/\r$/, '');
      const host = /^https:\/\/([^/]+)/.exec(url)![1]!.toLowerCase();
      const matcher = matchers.get(host);
      const e = matcher ? matcher.explain(url) : { allowed: false, line: 0 };
      expect(rows[i], `line ${i}`).toBe(`${e.allowed ? 'allow' : 'disallow'}\t${e.line}\t${host}\t${url}`);
    });
  });

  it('output room for a few rows at a time: the calls resume where the last stopped, and their rows joined are the one-call rows', () => {
    const table = Robots.parse(BODY).forAgent('ExampleBot').table;
    const placed = new PlacedTable(table);
    const ex = placed.exports;
    const lines = workload(5);
    const input = encoder.encode(`${lines.join('\n')}\n`);
    const n = lines.length;
    const inputAt = (placed.index + ex.indexBytes(placed.at, 0) + 64 + 15) & ~15;
    const spans = (inputAt + input.length + 64 + 15) & ~15;
    const ids = spans + n * SPAN_SIZE;
    const slots = ids + 4 * n;
    const scratch = (slots + TABLE_SLOT_SIZE + 64 + 15) & ~15;
    const out = (scratch + 3 * input.length + 64 + 15) & ~15;
    const outCap = 1 << 20;
    const need = out + outCap + 64;
    if (need > ex.memory.buffer.byteLength) ex.memory.grow(Math.ceil((need - ex.memory.buffer.byteLength) / 65536));
    new Uint8Array(ex.memory.buffer).set(input, inputAt);
    expect(ex.scanHosts(inputAt, input.length, 1, spans, n, 0, 0)).toBe(n);
    // Table 0 for every line but every 40th (no robots.txt: TABLE_NONE), so runs of 39.
    const idView = new Int32Array(ex.memory.buffer, ids, n);
    for (let i = 0; i < n; i++) idView[i] = i % 40 === 39 ? -1 : 0;
    new Uint32Array(ex.memory.buffer, slots, 2).set([placed.at, placed.index]);
    const call = (from: number, cap: number): { n: number; text: string } => {
      const judged = ex.formatSpans(inputAt, spans, from, n, ids, slots, out, cap, ROW_HOST, scratch);
      const written = ex.written();
      expect(written).toBeLessThanOrEqual(cap);
      return { n: judged, text: decoder.decode(new Uint8Array(ex.memory.buffer, out, written)) };
    };
    const whole = call(0, outCap);
    expect(whole.n).toBe(n);
    const view = new DataView(ex.memory.buffer);
    const rows = whole.text.split('\n').slice(0, -1);
    rows.forEach((row, i) => {
      const at = spans + i * SPAN_SIZE;
      const url = decoder.decode(new Uint8Array(ex.memory.buffer, inputAt + view.getUint32(at + SP_LINE_START, true), view.getUint32(at + SP_LINE_LENGTH, true)));
      const host = decoder.decode(new Uint8Array(ex.memory.buffer, inputAt + view.getUint32(at + SP_HOST_START, true), view.getUint32(at + SP_HOST_LENGTH, true)));
      const alone = i % 40 === 39 ? { allowed: true, line: 0 } : matchers.get('www.example.com')!.explain(url);
      expect(row, `line ${i}`).toBe(`${alone.allowed ? 'allow' : 'disallow'}\t${alone.line}\t${host.toLowerCase()}\t${url}`);
    });
    // Room for one to a few dozen rows a call (a row's bound with its host column is about 500 bytes).
    for (const cap of [1000, 2500, 8000]) {
      let from = 0;
      let text = '';
      for (let calls = 0; calls < 2000 && from < n; calls++) {
        const got = call(from, cap);
        expect(got.n, `cap ${cap}`).toBeGreaterThan(0);
        from += got.n;
        text += got.text;
      }
      expect(from).toBe(n);
      expect(text, `cap ${cap}`).toBe(whole.text);
    }
  });
});
