// The resident-table arena: each RuleTable a matcher uses, copied into Wasm memory once with its RuleIndex.
//
// Switching between hosts' tables costs a WeakMap lookup, not a copy. When the arena is
// full it is emptied at once (a new epoch) and refilled on demand. It doubles (up to
// 192 MB, or the largest table seen) when the tables it held had been resident before,
// so that a working set that filled it fits next time; a stream of one-off tables does
// not grow it. A working set that fills it even at its largest would be copied in and
// indexed again at every switch: from then on, tables are placed lean (their RuleIndex
// without its DFA or automaton region, most of the bytes of a table with one) and placed
// again in full once they have judged PROMOTE_PATHS paths, while the tables so placed take
// at most half the arena. A lean table refused for want of room that goes on to judge
// RENEW_PATHS paths is placed in full past that half, or, in a full arena, empties it for
// itself at the next call that uses no other table. The io regions (memory.ts) follow it
// and move when it grows or moves; placing a table again in full never moves them.
import { H_BYTE_LENGTH, H_FLAGS, H_NODE_COUNT, H_POOL_LENGTH, H_SEGMENT_COUNT, H_WILDCARD_COUNT } from '../table/format.js';
import { RULE_INDEX_ALIGN, SIMD_SLACK } from '../table/abi.js';
import { validateRuleTable } from '../table/validate.js';
import type { WasmExports } from './instance.js';
import { align16, type WasmMemory } from './memory.js';
import { MemoryLimitError, type EngineLimits } from './limits.js';

/** Initial bytes of the resident-table arena. */
const ARENA_BYTES = 1 << 20;
/**
 * The arena doubles, when it fills with tables in use, up to this size: the tables a
 * workload keeps switching between stay resident. A table with 8 or more wildcard rules
 * brings a DFA or automaton region of up to 768 KiB, or more within 1 MiB a table
 * (assembly/rule-index.ts AGENT_BYTES): the 1,183 corpus sites with URL lists take 131 MB
 * with their indexes (Googlebot), all 2,343 take 323 MB. Beyond it, a full arena is
 * emptied and refilled. Below the default
 * retainMemoryBytes (256 MiB, src/wasm/limits.ts), with room for the io regions, so that
 * a grown arena outlives the call.
 */
const ARENA_MAX_BYTES = 192 << 20;

/**
 * Paths a table placed lean judges (rule by rule) before it is placed again in full, with
 * its DFA or automaton region. Classifying every corpus host in random order measured the
 * same within its noise with 256, 1,024, 2,048 or never (docs/PERFORMANCE.md, "Many hosts,
 * one engine"); a table that then gets long runs of URLs gains its DFA early (the retail
 * table: 12 M URLs/s through it, 5 M rule by rule), and a trial table starts rule by rule
 * anyway (assembly/dfa.ts TRIAL_PATHS).
 */
export const PROMOTE_PATHS = 256;

/**
 * Paths a lean table refused a full place (no room, or the half-arena budget spent) judges
 * before it is placed in full anyway: past the half-arena budget when the arena has room,
 * else by a call that uses it alone (`soleSlot`), which empties the arena for it.
 * Without it, a host that stays busy after a many-hosts phase would be matched rule by rule
 * for as long as the epoch lasts (the retail file's table: 5.1 M URLs/s instead of 12.4,
 * docs/PERFORMANCE.md, "Many hosts, one engine"). The emptied tables are copied in again
 * on their next use: a cost this many paths pay for many times over.
 */
export const RENEW_PATHS = 1 << 16;

/** Where one table lives in the arena, valid while `epoch` is the arena's. */
export interface Slot {
  readonly tableAt: number;
  readonly indexAt: number;
  readonly epoch: number;
  /**
   * Address of the lean RuleIndex's count of paths judged (`leanCounter`); 0 when the
   * table was placed in full.
   */
  readonly counterAt: number;
  /**
   * The count at `counterAt` from which the table is tried again: PROMOTE_PATHS, then
   * RENEW_PATHS once refused a full place this epoch (Infinity: larger than the arena).
   */
  readonly ripeAt: number;
}

/** Sizes of a WasmEngine's resident-table arena (tests shrink them to exercise eviction), and its limits (src/wasm/limits.ts). */
export interface EngineOptions extends Partial<EngineLimits> {
  /** Initial arena bytes (default 1 MiB). */
  readonly arenaBytes?: number;
  /** The arena doubles when full up to this many bytes (default 192 MB). */
  readonly arenaMaxBytes?: number;
}

/**
 * Bytes of the RuleIndex the module derives from `table` (a RuleTable), full or `lean`,
 * without alignment or slack: the layout belongs to the module (assembly/rule-index.ts),
 * which sizes it from the table's header fields.
 * @example ruleIndexBytes(instantiate(), Robots.parse('User-agent: *\nDisallow: /a*b\n').forAgent('x').table)
 */
export function ruleIndexBytes(exports: WasmExports, table: Uint8Array, lean = false): number {
  const header = new DataView(table.buffer, table.byteOffset, table.byteLength);
  return exports.indexBytesFor(
    header.getUint16(H_FLAGS, true), header.getUint32(H_WILDCARD_COUNT, true), header.getUint32(H_NODE_COUNT, true),
    header.getUint32(H_SEGMENT_COUNT, true), header.getUint32(H_POOL_LENGTH, true), lean ? 1 : 0,
  );
}

/** Rounds up to RULE_INDEX_ALIGN (a power of two ≤ 2^32), exact for any integer up to 2^53 (see align16). */
function alignIndex(n: number): number {
  return n + (-n & (RULE_INDEX_ALIGN - 1));
}

/** Arena bytes of a table of `tableLength` bytes and its RuleIndex of `indexBytes`. */
function slotBytesOf(tableLength: number, indexBytes: number): number {
  return alignIndex(tableLength + SIMD_SLACK) + align16(indexBytes + SIMD_SLACK);
}

/** The tables resident in Wasm memory, by identity of their Uint8Array. */
export class TableArena {
  private at: number;
  private cap: number;
  private readonly max: number;
  private used = 0;
  /** Bumped whenever the arena is emptied: slots of an older epoch are stale. */
  epoch = 0;
  /** Admissions in this epoch, and how many of them were of tables resident before. */
  private epochAdmits = 0;
  private epochReadmits = 0;
  private readonly slots = new WeakMap<Uint8Array, Slot>();
  /** Whether tables are placed lean first: once a working set filled the arena at its largest. */
  lean = false;
  /** Bytes of the slots placed again in full this epoch (at most half the arena). */
  private promotedBytes = 0;
  /** The slot of the last table used (skips the WeakMap on repeated calls). */
  private lastTable: Uint8Array | null = null;
  private lastSlot: Slot | null = null;

  private readonly initialCap: number;

  constructor(private readonly memory: WasmMemory, at: number, options: EngineOptions) {
    this.at = at;
    this.cap = this.initialCap = align16(options.arenaBytes ?? ARENA_BYTES);
    this.max = options.arenaMaxBytes ?? ARENA_MAX_BYTES;
  }

  /**
   * Empties the arena for a fresh instance (WasmEngine.recycle) at `at`: every slot is
   * stale, tables are copied in again on their next use. A capacity grown past the
   * arena's maximum for one huge table goes back to the initial one.
   */
  reset(at: number): void {
    this.newEpoch();
    this.lastTable = null;
    this.lastSlot = null;
    if (this.cap > this.max) this.cap = this.initialCap;
    this.at = at;
    this.memory.placeAt(this.end);
  }

  /** First byte after the arena: where the io regions start. */
  get end(): number {
    return this.at + this.cap;
  }

  /** Moves the (emptied) arena to `at`, for a HostIndex placed before it. */
  moveTo(at: number): void {
    // Placed first: when memory cannot hold it, nothing has moved.
    this.memory.placeAt(at + this.cap, 'the host index');
    this.at = at;
    this.epoch++;
    this.used = 0;
    this.promotedBytes = 0;
  }

  /**
   * The arena slot of `table`, copying it in (and indexing it) when it is not resident;
   * a lean one that judged PROMOTE_PATHS paths is placed again in full when there is room.
   */
  slot(table: Uint8Array): Slot {
    return this.slotFor(table, false);
  }

  /**
   * `slot`, for a call that uses no other table (so that no other slot is held): a lean
   * table refused a full place that has judged RENEW_PATHS paths since empties the arena (a
   * new epoch) and is placed in full, when it fits the arena's capacity.
   */
  soleSlot(table: Uint8Array): Slot {
    return this.slotFor(table, true);
  }

  private slotFor(table: Uint8Array, sole: boolean): Slot {
    const last = this.lastSlot;
    if (table === this.lastTable && last!.epoch === this.epoch && (last!.counterAt === 0 || this.memory.u32[last!.counterAt >>> 2]! < last!.ripeAt)) return last!;
    let slot = this.slots.get(table);
    slot = slot === undefined || slot.epoch !== this.epoch ? this.admit(table) : this.ripened(table, slot, sole);
    this.lastTable = table;
    this.lastSlot = slot;
    return slot;
  }

  /**
   * The slot of `table` when it is resident in the current epoch (placed again in full
   * when it is ripe, as `slot` does: that never empties the arena).
   */
  residentSlot(table: Uint8Array): Slot | undefined {
    const slot = this.slots.get(table);
    return slot === undefined || slot.epoch !== this.epoch ? undefined : this.ripened(table, slot, false);
  }

  /**
   * `slot` (resident, of `table`), or, when it is lean and has judged PROMOTE_PATHS paths,
   * a new slot holding the table with its full RuleIndex, placed after the others: when
   * the arena has room without emptying it or moving memory and the slots placed again
   * this epoch stay within half of it. Earlier slots stay valid (same epoch), so a caller
   * may hold several. A lean slot refused stays lean and is tried again at RENEW_PATHS
   * paths: then placed in full wherever the arena has room, past the half too, or, with
   * none, when a `sole` call (holding no other slot) finds the arena's capacity holds
   * it, in an arena emptied for it (a new epoch).
   */
  private ripened(table: Uint8Array, slot: Slot, sole: boolean): Slot {
    const memory = this.memory;
    if (slot.counterAt === 0) return slot;
    const paths = memory.u32[slot.counterAt >>> 2]!;
    if (paths < slot.ripeAt) return slot;
    // Sized and copied from the resident copy, validated when it was admitted: the
    // caller's array may have changed since.
    const length = memory.u32[(slot.tableAt + H_BYTE_LENGTH) >>> 2]!;
    const need = slotBytesOf(length, memory.exports.indexBytes(slot.tableAt, 0) >>> 0);
    const busy = paths >= RENEW_PATHS;
    const resident = memory.u8.subarray(slot.tableAt, slot.tableAt + length);
    let ripe: Slot;
    if (this.used + need <= this.cap && (busy || 2 * (this.promotedBytes + need) <= this.cap)) {
      ripe = this.place(resident, false);
      this.used += need;
      this.promotedBytes += need;
    } else if (sole && busy && need <= this.cap) {
      // Copied to the arena's start, over itself maybe: `set` from the same buffer copies
      // as if through a clone of the source.
      this.newEpoch();
      ripe = this.place(resident, false);
      this.used = need;
      this.promotedBytes = need;
    } else {
      // Tried again at RENEW_PATHS; never, once a sole call found it larger than the arena.
      const ripeAt = busy && sole ? Infinity : RENEW_PATHS;
      if (slot.ripeAt === ripeAt) return slot;
      ripe = { ...slot, ripeAt };
    }
    this.slots.set(table, ripe);
    if (this.lastTable === table) this.lastSlot = ripe;
    return ripe;
  }

  /** Whether `table` can be admitted without emptying the arena. */
  fits(table: Uint8Array): boolean {
    return this.used + this.slotBytes(table, this.lean) <= this.cap;
  }

  /** Whether `table` is resident, or can be admitted without emptying the arena. */
  residentOrFits(table: Uint8Array): boolean {
    const slot = table === this.lastTable ? this.lastSlot : this.slots.get(table);
    if (slot !== undefined && slot !== null && slot.epoch === this.epoch) return true;
    return this.fits(table);
  }

  /** Arena bytes `table` and its RuleIndex (full, or lean) take. */
  private slotBytes(table: Uint8Array, lean: boolean): number {
    return slotBytesOf(table.length, ruleIndexBytes(this.memory.exports, table, lean));
  }

  /**
   * Empties the arena (a new epoch) with room for all of `tables` at once, growing it when
   * they need more than it holds: a many-agents row needs every agent's table resident
   * together. Throws MemoryLimitError, having changed nothing, when memory cannot hold them.
   */
  emptyFor(tables: readonly Uint8Array[]): void {
    let need = 0;
    for (const table of tables) need += this.slotBytes(table, this.lean);
    const cap = align16(Math.max(need, this.cap));
    if (cap > this.cap) {
      this.memory.placeAt(this.at + cap, 'the table arena');
      this.cap = cap;
    }
    this.newEpoch();
  }

  /** Starts a new epoch, empty: every slot of the last one becomes stale. */
  private newEpoch(): void {
    this.epoch++;
    this.epochReadmits = 0;
    this.epochAdmits = 0;
    this.used = 0;
    this.promotedBytes = 0;
  }

  /**
   * Copies `table` in and builds its RuleIndex (lean once the arena places tables lean),
   * emptying (and maybe growing) the arena when it is full.
   */
  admit(table: Uint8Array): Slot {
    // The module trusts what it reads, and a table's array may have changed since it was
    // built or validated: check it now (no other code runs until it is copied below).
    validateRuleTable(table);
    let need = this.slotBytes(table, this.lean);
    if (this.used + need > this.cap) {
      // Full: start a new epoch (every other slot becomes stale). The arena grows, while
      // it may, when at least a quarter of this epoch's tables had been resident before (a
      // working set that no longer fits); not for a stream of new tables, which would fill
      // any size. A working set that fills it at its largest turns on lean placing.
      const reused = 4 * this.epochReadmits >= this.epochAdmits;
      if (reused && !this.lean && this.cap >= this.max) {
        this.lean = true;
        need = this.slotBytes(table, true);
      }
      const cap = align16(Math.max(need, reused ? Math.min(this.max, this.cap * 2) : this.cap));
      if (cap > this.cap) {
        // The io regions move first (memory grown, or MemoryLimitError with nothing
        // changed); a doubling the limit refuses falls back to what the table needs.
        const least = align16(Math.max(need, this.cap));
        try {
          this.memory.placeAt(this.at + cap, 'the table arena');
          this.cap = cap;
        } catch (error) {
          if (!(error instanceof MemoryLimitError) || least >= cap) throw error;
          this.memory.placeAt(this.at + least, 'the table arena');
          this.cap = least;
        }
      }
      this.newEpoch();
    }
    if (this.slots.has(table)) this.epochReadmits++;
    this.epochAdmits++;
    const slot = this.place(table, this.lean);
    this.slots.set(table, slot);
    this.used += need;
    return slot;
  }

  /**
   * Copies `bytes` (a table: the caller's array, or a resident copy in this memory) in at
   * the arena's first free byte and builds its RuleIndex (full, or lean); the caller
   * records the slot and counts the bytes.
   */
  private place(bytes: Uint8Array, lean: boolean): Slot {
    const exports = this.memory.exports;
    const tableAt = this.at + this.used;
    const indexAt = alignIndex(tableAt + bytes.length + SIMD_SLACK);
    this.memory.u8.set(bytes, tableAt);
    exports.indexTable(tableAt, indexAt, lean ? 1 : 0);
    return { tableAt, indexAt, epoch: this.epoch, counterAt: lean ? exports.leanCounter(tableAt, indexAt) >>> 0 : 0, ripeAt: PROMOTE_PATHS };
  }
}
