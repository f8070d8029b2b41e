// The HostIndex: host bytes → the caller's id for that host, written by the host, read by Wasm while it splits lines.
//
// classify looks each line's host up in Wasm (assembly/host.ts lookupHost), so JS never
// handles a URL whose host it already knows. The index exists only once `reset` is
// called; it sits between the module's static data and the arena, so creating or growing
// it moves (and empties) the arena. Slot layout: src/table/abi.ts HOST_SLOT.
//
// The entries are also kept on the JS side, so that a fresh instance (WasmEngine.recycle)
// gets them back on the index's next use, without the caller knowing.
import { HOST_SLOT_SIZE, HS_HASH, HS_ID, HS_KEY_AT, HS_KEY_LENGTH, SIMD_SLACK } from '../table/abi.js';
import type { TableArena } from './arena.js';
import { align16, type WasmMemory } from './memory.js';

/** Key bytes reserved per host of capacity (longer hosts just fill it sooner). */
const HOST_KEY_BYTES = 48;

/** Slot fields as u32 word offsets. */
const W_HASH = HS_HASH >>> 2;
const W_KEY_AT = HS_KEY_AT >>> 2;
const W_KEY_LENGTH = HS_KEY_LENGTH >>> 2;
const W_ID = HS_ID >>> 2;

/** The HostIndex of one engine. */
export class HostIndex {
  /** Address of slot 0 (0: no index in this instance), and slots − 1. */
  at = 0;
  mask = 0;
  private keysAt = 0;
  private keysCap = 0;
  private keysUsed = 0;
  private count = 0;
  /** Capacity asked for by the last reset (-1: never), and the entries inserted since, for a fresh instance. */
  private capacity = -1;
  private readonly keys: Uint8Array[] = [];
  private readonly hashes: number[] = [];
  private readonly ids: number[] = [];

  constructor(private readonly memory: WasmMemory, private readonly arena: TableArena) {}

  /** The instance was replaced: the index is uploaded again on its next use. */
  forget(): void {
    this.at = 0;
    this.mask = 0;
    this.keysCap = 0;
  }

  /** Uploads the entries into a fresh instance when the index was forgotten. */
  ensure(): void {
    if (this.at !== 0 || this.capacity < 0) return;
    this.place(this.capacity);
    for (let i = 0; i < this.keys.length; i++) this.write(this.keys[i]!, this.hashes[i]!, this.ids[i]!);
  }

  /**
   * Creates (or empties) the index, sized for `capacity` hosts. Growing it empties the
   * table arena (tables are re-admitted on demand). Throws MemoryLimitError, with the
   * index as it was, when memory cannot hold it.
   */
  reset(capacity: number): void {
    this.place(capacity);
    this.capacity = capacity;
    this.keys.length = 0;
    this.hashes.length = 0;
    this.ids.length = 0;
  }

  private place(capacity: number): void {
    let slots = 16;
    while (slots < capacity * 2) slots *= 2;
    const keyBytes = align16(capacity * HOST_KEY_BYTES + 4096);
    if (this.at === 0 || slots - 1 > this.mask || keyBytes > this.keysCap) {
      const at = align16(this.memory.exports.heapBase());
      const keysAt = at + slots * HOST_SLOT_SIZE;
      // The arena moves first: when memory cannot hold the index, nothing has changed.
      this.arena.moveTo(align16(keysAt + keyBytes + SIMD_SLACK));
      this.at = at;
      this.mask = slots - 1;
      this.keysAt = keysAt;
      this.keysCap = keyBytes;
    }
    this.memory.u8.fill(0, this.at, this.at + (this.mask + 1) * HOST_SLOT_SIZE);
    this.keysUsed = 0;
    this.count = 0;
  }

  /**
   * Adds host `key` (lowercase bytes, `hash` from its span) with `id` ≥ 1. Returns false
   * when the index is full: the caller resets and refills it.
   */
  insert(key: Uint8Array, hash: number, id: number): boolean {
    if (this.capacity < 0) throw new Error('robotstxt-wasm: insertHost before resetHostIndex');
    this.ensure();
    if (2 * (this.count + 1) > this.mask + 1 || this.keysUsed + key.length > this.keysCap) return false;
    this.write(key, hash, id);
    this.keys.push(key);
    this.hashes.push(hash);
    this.ids.push(id);
    return true;
  }

  private write(key: Uint8Array, hash: number, id: number): void {
    const { u8, u32 } = this.memory;
    const keyAt = this.keysAt + this.keysUsed;
    u8.set(key, keyAt);
    this.keysUsed += key.length;
    // Linear probing, as assembly/host.ts lookupHost reads it.
    let i = hash & this.mask;
    while (u32[((this.at + i * HOST_SLOT_SIZE) >>> 2) + W_ID] !== 0) i = (i + 1) & this.mask;
    const slot = (this.at + i * HOST_SLOT_SIZE) >>> 2;
    u32[slot + W_HASH] = hash;
    u32[slot + W_KEY_AT] = keyAt;
    u32[slot + W_KEY_LENGTH] = key.length;
    u32[slot + W_ID] = id;
    this.count++;
  }
}
