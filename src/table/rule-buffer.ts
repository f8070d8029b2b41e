// RuleBuffer: the encoder's input, every rule's normalized pattern back to back in one byte array.
//
// Every later pass (prefix sharing, trie walk, label and segment copies) then reads one
// array, not a view per rule (each view costs V8 a setup per loop over it). Rule i's
// pattern is bytes[start[i], end[i]); star[i] is its first `*` as an offset from
// start[i], or -1. Writers append through `push` (a finished pattern) or
// `openPattern`/`closePattern` (a pattern normalized straight into the buffer, as
// src/rules/compile.ts does); the encoder (encode.ts) only reads the fields.

const STAR = 0x2a;

function grow(a: Int32Array, capacity: number): Int32Array {
  const grown = new Int32Array(capacity);
  grown.set(a);
  return grown;
}

/**
 * Rules laid out for the encoder. One instance is reused across compiles
 * (acquireRuleBuffer).
 * @example
 * const rules = new RuleBuffer();
 * rules.push(new TextEncoder().encode('/private'), false, 2, 0);
 * encodeRuleBuffer(rules, { flags: 0 }); // same table as encodeRuleTable gives
 */
export class RuleBuffer {
  /** Pattern bytes; read-only outside this class. */
  bytes: Uint8Array = new Uint8Array(1 << 16);
  /** `bytes` as 32-bit words (the same buffer): patterns start 4-aligned, so two compare a word at a time. */
  words: Int32Array = new Int32Array(this.bytes.buffer);
  /** `bytes` as a DataView (the same buffer), for word reads at any offset. */
  view: DataView = new DataView(this.bytes.buffer);
  /** Bytes of `bytes` in use. */
  private size = 0;
  /** Rules in use. */
  count = 0;
  start: Int32Array = new Int32Array(1024);
  end: Int32Array = new Int32Array(1024);
  star: Int32Array = new Int32Array(1024);
  allow: Uint8Array = new Uint8Array(1024);
  line: Int32Array = new Int32Array(1024);
  id: Int32Array = new Int32Array(1024);

  /** Empties the buffer (its arrays are kept for the next compile). */
  reset(): void {
    this.size = 0;
    this.count = 0;
  }

  /** Room for `rules` more rules and `bytes` more pattern bytes. */
  private reserve(rules: number, bytes: number): void {
    // (+ 3: closePattern pads each pattern to a 4-byte boundary.)
    if (this.size + bytes + 3 > this.bytes.length) {
      const grown = new Uint8Array(Math.max(this.size + bytes + 3, this.bytes.length * 2));
      grown.set(this.bytes.subarray(0, this.size));
      this.bytes = grown;
      this.words = new Int32Array(grown.buffer);
      this.view = new DataView(grown.buffer);
    }
    const need = this.count + rules;
    if (need > this.start.length) {
      const capacity = Math.max(need, this.start.length * 2);
      this.start = grow(this.start, capacity);
      this.end = grow(this.end, capacity);
      this.star = grow(this.star, capacity);
      this.line = grow(this.line, capacity);
      this.id = grow(this.id, capacity);
      const allow = new Uint8Array(capacity);
      allow.set(this.allow);
      this.allow = allow;
    }
  }

  /**
   * Opens room for the next pattern, at most `maxBytes` bytes (and `rules` rules: a
   * writer that derives a second rule from the first asks for both at once). Returns the
   * array to write it into from `patternAt`, valid until the next openPattern; bytes
   * written there by a previous open that was not closed are not kept.
   * @example
   * const bytes = rules.openPattern(n); bytes.set(pattern, rules.patternAt); rules.closePattern(n, -1, false, 2);
   */
  openPattern(maxBytes: number, rules = 1): Uint8Array {
    this.reserve(rules, maxBytes);
    return this.bytes;
  }

  /** Where the open pattern starts in the array openPattern returned. */
  get patternAt(): number {
    return this.size;
  }

  /**
   * Appends the open pattern, whose `length` bytes are written from `patternAt`, as a
   * rule; `star` is the offset of its first `*` (-1: none), `id` defaults to the rule's index.
   */
  closePattern(length: number, star: number, allow: boolean, line: number, id = this.count): void {
    const i = this.count++;
    const start = this.size;
    this.start[i] = start;
    this.end[i] = start + length;
    // Patterns start 4-aligned, so two of them compare a word at a time.
    this.size = (start + length + 3) & ~3;
    this.star[i] = star;
    this.allow[i] = allow ? 1 : 0;
    this.line[i] = line;
    this.id[i] = id;
  }

  /** Appends a rule, copying its pattern and finding its first `*`. */
  push(pattern: Uint8Array, allow: boolean, line: number, id: number): void {
    const n = pattern.length;
    const bytes = this.openPattern(n);
    const at = this.size;
    let star = -1;
    for (let i = 0; i < n; i++) {
      const c = pattern[i]!;
      bytes[at + i] = c;
      if (c === STAR && star < 0) star = i;
    }
    this.closePattern(n, star, allow, line, id);
  }
}

const sharedBuffer = new RuleBuffer();
let sharedInUse = false;

/**
 * The encoder's input for one compile: the shared, reused RuleBuffer, emptied, or a new
 * one while the shared one is in use (a getter on a caller's rule object could re-enter
 * a compile from inside the loop that fills it). Pair with releaseRuleBuffer.
 * @example const rules = acquireRuleBuffer(); try { rules.push(p, false, 2, 0); encodeRuleBuffer(rules, { flags: 0 }); } finally { releaseRuleBuffer(rules); }
 */
export function acquireRuleBuffer(): RuleBuffer {
  if (sharedInUse) return new RuleBuffer();
  sharedInUse = true;
  sharedBuffer.reset();
  return sharedBuffer;
}

/**
 * Hands back a buffer from acquireRuleBuffer.
 * @example releaseRuleBuffer(rules)
 */
export function releaseRuleBuffer(rules: RuleBuffer): void {
  if (rules === sharedBuffer) sharedInUse = false;
}
