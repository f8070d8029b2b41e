// Least-recently-used map: the bounded store behind RobotsCache and the politeness helper.

/**
 * A `Map` that holds at most `maxEntries` keys and forgets the least recently used one
 * first. It relies on `Map` keeping insertion order: a touched key is re-inserted at the
 * end, so the first key is always the coldest. Every operation is O(1).
 *
 * @example
 * const lru = new LruMap<string, number>(2);
 * lru.set('a', 1); lru.set('b', 2); lru.get('a'); lru.set('c', 3);
 * [...lru.keys()]; // → ['a', 'c']  ('b' was the least recently used)
 */
export class LruMap<K, V> {
  private readonly map = new Map<K, V>();

  /** @param maxEntries how many keys to keep; an integer ≥ 1. */
  constructor(readonly maxEntries: number) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1) {
      throw new RangeError(`maxEntries must be an integer >= 1, got ${String(maxEntries)}`);
    }
  }

  /** Number of keys held. */
  get size(): number {
    return this.map.size;
  }

  /** Returns the value and marks the key as most recently used. */
  get(key: K): V | undefined {
    const value = this.map.get(key);
    if (value === undefined) return undefined;
    this.map.delete(key);
    this.map.set(key, value);
    return value;
  }

  /** Returns the value without changing the eviction order. */
  peek(key: K): V | undefined {
    return this.map.get(key);
  }

  /** Stores the value as most recently used, evicting the coldest key when full. */
  set(key: K, value: V): this {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.maxEntries) {
      // Map iterates in insertion order, so the first key is the least recently used.
      const coldest = this.map.keys().next();
      if (coldest.done !== true) this.map.delete(coldest.value);
    }
    return this;
  }

  delete(key: K): boolean {
    return this.map.delete(key);
  }

  clear(): void {
    this.map.clear();
  }

  /** Keys from least to most recently used. */
  keys(): IterableIterator<K> {
    return this.map.keys();
  }
}
