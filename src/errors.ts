// Argument checks for the public API: each error names the argument, what was expected and what came.

/** `typeof`, but telling null and arrays apart, for error messages. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (value instanceof Uint8Array) return 'Uint8Array';
  return typeof value;
}

export function expectString(value: unknown, name: string): asserts value is string {
  if (typeof value !== 'string') throw new TypeError(`${name} must be a string, got ${describe(value)}`);
}

export function expectBytes(value: unknown, name: string): asserts value is Uint8Array {
  if (!(value instanceof Uint8Array)) throw new TypeError(`${name} must be a Uint8Array, got ${describe(value)}`);
  // A detached buffer reads as empty and would silently judge nothing. Node 20 has no
  // ArrayBuffer#detached, but constructing a view over a detached buffer throws.
  if (value.byteLength === 0 && value.buffer.byteLength === 0) {
    try {
      new Uint8Array(value.buffer);
    } catch {
      throw new TypeError(`${name} is a view of a detached ArrayBuffer`);
    }
  }
}

/** Returns `out` when it is a Uint8Array of at least `length` bytes, else a new one. */
export function expectOut(out: Uint8Array | undefined, length: number, name: string): Uint8Array {
  if (out === undefined) return new Uint8Array(length);
  if (!(out instanceof Uint8Array)) throw new TypeError(`${name} must be a Uint8Array, got ${describe(out)}`);
  if (out.length < length) throw new RangeError(`${name} has room for ${out.length} verdicts, ${length} needed`);
  return out;
}

/** `'rfc'` or `'google'`, else a TypeError naming the argument. */
export function expectProfile(value: unknown, name: string): asserts value is 'rfc' | 'google' {
  if (value !== 'rfc' && value !== 'google') throw new TypeError(`${name} must be 'rfc' or 'google', got ${JSON.stringify(value)}`);
}
