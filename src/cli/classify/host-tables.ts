// The CLI's classifier cache: each host's compiled robots.txt, found per URL through the engine's HostIndex, evicted a least-recently-used quarter at a time.
import { lowerAsciiBytes } from '../../rules/normalize.js';
import { SPAN_HOST_HASH, SPAN_HOST_LENGTH, SPAN_HOST_START, type WasmEngine } from '../../wasm/index.js';

/** Longest host[:port] looked up: RFC 1035 names are at most 253 bytes. */
export const MAX_HOST_BYTES = 260;

/**
 * Whether bytes[start, start + length), ASCII-lowercased, equal `key`.
 * @example sameHost(utf8('https://A.example/'), 8, 9, utf8('a.example')) // true
 */
export function sameHost(bytes: Uint8Array, start: number, length: number, key: Uint8Array): boolean {
  if (length !== key.length) return false;
  for (let k = 0; k < length; k++) {
    let c = bytes[start + k]!;
    if (c >= 0x41 && c <= 0x5a) c |= 0x20;
    if (c !== key[k]) return false;
  }
  return true;
}

/**
 * The lookup key of the host at bytes[start, start + length): its bytes ASCII-lowercased
 * (as Wasm's scanHosts hashes them), in a copy of their own, since a cache keeps keys
 * longer than the chunk they came from lives.
 * @example hostKey(utf8('https://A.example/'), 8, 9) // utf8('a.example')
 */
export function hostKey(bytes: Uint8Array, start: number, length: number): Uint8Array {
  const view = bytes.subarray(start, start + length);
  const lower = lowerAsciiBytes(view);
  return lower === view ? view.slice() : lower;
}

/** What HostTables keeps of a host; each source adds its compiled rules. */
export interface CachedHost {
  /** The host's lowercase `host[:port]` bytes (hostKey). */
  readonly key: Uint8Array;
  /** Wasm's hash of `key` (SPAN_HOST_HASH). */
  readonly hash: number;
  /** HostIndex id, set by HostTables.add. */
  id: number;
  /** Last batch that used the host: the least recently used go first. */
  used: number;
}

const latin1 = new TextDecoder('latin1');

/**
 * The hosts a classifier has compiled rules for, by HostIndex id (the id Wasm's scanHosts
 * writes to SPAN_HOST_ID for each URL whose host is indexed; 0 is never used) and by key.
 * At most `capacity` hosts are kept: when full, or when the index runs out of key space,
 * the least recently used quarter is dropped and the index rebuilt, so that a run naming
 * more hosts than the cache holds rebuilds it once per quarter, not once per new host.
 * @example
 * const tables = new HostTables<MyHost>(getEngine(), 10_000);
 * tables.index(); // before the first scanHosts
 * tables.add({ key, hash, id: 0, used: batch, rules });
 * tables.byId(spans[at + SPAN_HOST_ID]).rules;
 */
export class HostTables<H extends CachedHost> {
  /** Cached hosts by HostIndex id (id 0 is never used). */
  private readonly entries: (H | undefined)[] = [undefined];
  /** The same hosts by their key read as latin1 (one character per byte, so keys stay distinct). */
  private readonly byKey = new Map<string, H>();
  private readonly freeIds: number[] = [];
  private indexed = false;

  constructor(private readonly engine: WasmEngine, private readonly capacity: number) {}

  /** Builds the engine's HostIndex on first call (it is the engine's, and empty until then). */
  index(): void {
    if (this.indexed) return;
    this.rebuildIndex();
    this.indexed = true;
  }

  /** The host a nonzero SPAN_HOST_ID names. */
  byId(id: number): H {
    return this.entries[id]!;
  }

  /** The cached host with this key, if any. */
  find(key: Uint8Array): H | undefined {
    return this.byKey.get(latin1.decode(key));
  }

  /** Caches `host` (evicting the least recently used quarter when full) and indexes it. */
  add(host: H): void {
    if (this.byKey.size >= this.capacity) this.evictQuarter();
    host.id = this.freeIds.pop() ?? this.entries.length;
    this.entries[host.id] = host;
    this.byKey.set(latin1.decode(host.key), host);
    // The index ran out of key space (a dropped host's key bytes come back only when the
    // index is rebuilt): make room the same way, which also re-adds `host`.
    if (!this.engine.insertHost(host.key, host.hash, host.id)) this.evictQuarter();
  }

  /**
   * Drops the least recently used quarter of the cached hosts (at least one) and
   * rebuilds the index. Hosts the current batch uses may go too: what a batch needs of
   * them is in its own table slots by then. (Keeping them let a batch naming more hosts
   * than the cache holds evict nothing, and every later miss rebuilt the index.)
   */
  private evictQuarter(): void {
    const live: H[] = [];
    for (let id = 1; id < this.entries.length; id++) {
      const host = this.entries[id];
      if (host !== undefined) live.push(host);
    }
    live.sort((a, b) => a.used - b.used);
    const drop = Math.max(1, live.length >> 2);
    for (let k = 0; k < drop; k++) this.drop(live[k]!);
    this.rebuildIndex();
  }

  /** Refills the engine's HostIndex with every cached host (dropping any that no longer fits). */
  private rebuildIndex(): void {
    const engine = this.engine;
    engine.resetHostIndex(this.capacity);
    for (let id = 1; id < this.entries.length; id++) {
      const host = this.entries[id];
      if (host !== undefined && !engine.insertHost(host.key, host.hash, id)) this.drop(host);
    }
  }

  private drop(host: H): void {
    this.entries[host.id] = undefined;
    this.byKey.delete(latin1.decode(host.key));
    this.freeIds.push(host.id);
  }
}

/** Lines of one batch waiting for a host that is not cached (hosts with equal hashes chained). */
export interface Miss<T> {
  readonly key: Uint8Array;
  readonly hash: number;
  /** The source's record of which lines wait (line numbers, per scheme…). */
  readonly lines: T;
  readonly next: Miss<T> | undefined;
}

/**
 * The lines of one batch whose host is not cached, grouped by host: one `lines` record per
 * distinct host, made by `makeLines` on the host's first line.
 * @example
 * const misses = new Misses<number[]>(() => []);
 * misses.of(bytes, spans, i * SPAN_FIELDS)?.push(i);
 * for (const miss of misses) load(miss.key);
 */
export class Misses<T> {
  private readonly byHash = new Map<number, Miss<T>>();

  constructor(private readonly makeLines: () => T) {}

  /**
   * The record of the host of the line whose span starts at spans[at], or null for a line
   * with no host (a relative URL) or none a robots.txt could be named for (too long).
   */
  of(bytes: Uint8Array, spans: Int32Array | Uint32Array, at: number): T | null {
    const start = spans[at + SPAN_HOST_START]!;
    const length = spans[at + SPAN_HOST_LENGTH]!;
    if (length === 0 || length > MAX_HOST_BYTES) return null;
    const hash = spans[at + SPAN_HOST_HASH]!;
    let miss = this.byHash.get(hash);
    while (miss !== undefined && !sameHost(bytes, start, length, miss.key)) miss = miss.next;
    if (miss === undefined) {
      miss = { key: hostKey(bytes, start, length), hash, lines: this.makeLines(), next: this.byHash.get(hash) };
      this.byHash.set(hash, miss);
    }
    return miss.lines;
  }

  /** Every host met, chains in order. */
  *[Symbol.iterator](): IterableIterator<Miss<T>> {
    for (const head of this.byHash.values()) {
      for (let miss: Miss<T> | undefined = head; miss !== undefined; miss = miss.next) yield miss;
    }
  }
}
