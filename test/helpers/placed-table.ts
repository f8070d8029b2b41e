// One rule table placed and indexed in a fresh Wasm module instance, for tests that read the module's own diagnostics (automaton, DFA) or call its raw exports.
import { expect } from 'vitest';
import { instantiate, type WasmExports } from '../../src/wasm/instance.js';

/** One table placed and indexed in a fresh module instance, judged through the raw `matchLines` export. */
export class PlacedTable {
  readonly exports: WasmExports = instantiate();
  /** Where the table and its RuleIndex sit in the instance's memory. */
  readonly at: number;
  readonly index: number;
  private readonly free: number;

  constructor(table: Uint8Array) {
    this.at = (this.exports.heapBase() + 15) & ~15;
    this.grow(this.at + table.length + 64);
    new Uint8Array(this.exports.memory.buffer).set(table, this.at);
    this.index = (this.at + table.length + 64 + 15) & ~15;
    const bytes = this.exports.indexBytes(this.at, 0);
    this.grow(this.index + bytes + 64);
    this.exports.indexTable(this.at, this.index, 0);
    this.free = (this.index + bytes + 64 + 15) & ~15;
  }

  private grow(bytes: number): void {
    const memory = this.exports.memory;
    if (bytes > memory.buffer.byteLength) memory.grow(Math.ceil((bytes - memory.buffer.byteLength) / 65536));
  }

  /** Verdicts and deciding lines of `urls`, with the DFA on or off. */
  judge(urls: readonly string[], dfa: boolean): { allowed: boolean; line: number }[] {
    const input = new TextEncoder().encode(`${urls.join('\n')}\n`);
    const n = urls.length;
    const inputAt = this.free;
    const out = (inputAt + input.length + 64 + 15) & ~15;
    const lines = (out + n + 16 + 15) & ~15;
    const scratch = lines + 4 * (n + 1) + 16;
    this.grow(scratch + 3 * input.length + 1 + 64);
    new Uint8Array(this.exports.memory.buffer).set(input, inputAt);
    this.exports.useDfa(dfa ? 1 : 0);
    const judged = this.exports.matchLines(this.at, this.index, inputAt, input.length, out, lines, scratch, 1);
    this.exports.useDfa(1);
    expect(judged).toBe(n);
    const verdicts = new Uint8Array(this.exports.memory.buffer, out, n);
    const decided = new Uint32Array(this.exports.memory.buffer, lines, n);
    return Array.from(verdicts, (v, i) => ({ allowed: v === 1, line: decided[i]! }));
  }

  /** LOOPS records in the DFA's cache (dfaStatus 8): the distinct sets of LOOP positions its states share. */
  loopRecords(): number {
    return this.exports.dfaStatus(this.at, this.index, 8);
  }

  /** Bytes of the DFA's region (dfaStatus 7; 0: none). */
  dfaRegionBytes(): number {
    return this.exports.dfaStatus(this.at, this.index, 7);
  }

  /** The DFA's cached states, flushes, whether it is in use, its trial's window (paths left, rule matches counted), its mode and the plain rules it took in (dfaStatus). */
  status(): { states: number; flushes: number; enabled: boolean; trialLeft: number; trialCalls: number; mode: 'carry' | 'step'; plainRules: number } {
    return {
      states: this.exports.dfaStatus(this.at, this.index, 0),
      flushes: this.exports.dfaStatus(this.at, this.index, 1),
      enabled: this.exports.dfaStatus(this.at, this.index, 2) === 1,
      trialLeft: this.exports.dfaStatus(this.at, this.index, 3),
      trialCalls: this.exports.dfaStatus(this.at, this.index, 4),
      mode: this.exports.dfaStatus(this.at, this.index, 5) === 1 ? 'step' : 'carry',
      plainRules: this.exports.dfaStatus(this.at, this.index, 6),
    };
  }
}
