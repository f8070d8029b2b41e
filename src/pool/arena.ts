// Memory that carries input to a pool's workers, reused from call to call: shared arenas (MatchPool) and moved spare buffers (the CLI's chunks).
//
// Moving a fresh ArrayBuffer of tens of megabytes to a worker and back on every call
// made V8's external-memory accounting trigger garbage collections on the calling
// thread (about 25 ms per million URLs on the bench machine). Instead each worker gets
// SharedArrayBuffers ("arenas") it is sent once and keeps until told to drop them; a
// call holds the arenas its pieces sit in until the worker has answered all of them,
// then hands them back for the next call. Pages already written stay mapped, which
// also spares the page faults of fresh memory (30 ms against 4 ms for 32 MB).
//
// The CLI's `--workers` run moves each chunk and its rows to a worker and back instead
// (the rows are written by the worker into that buffer, so a shared one would have to
// be held until written anyway); SpareBuffers keeps those buffers for the next chunks.

/** Idle arenas kept per worker: enough for one call's pieces, even when a piece overflowed into a second arena. */
const IDLE_ARENAS = 2;
/** Arena sizes are rounded up to this (64 KiB), and grown with 1/8 to spare: shares change size with the split. */
const ARENA_GRANULE = 1 << 16;

/** One SharedArrayBuffer that a worker keeps under `id` once it has been sent. */
export interface Arena {
  readonly id: number;
  readonly bytes: Uint8Array;
  /** Whether the worker has it (a request carries the buffer only until then). */
  sent: boolean;
  /** Bytes in use by the call holding it. */
  used: number;
}

/** A region of an arena, for one piece of input. */
export interface ArenaRegion {
  readonly arena: Arena;
  readonly offset: number;
}

let nextArenaId = 1;

/**
 * The arenas of one worker. A call gathers the arenas it writes into in a `held` list
 * (see place) and gives them back with release once the worker has answered every
 * request that reads them.
 * @example
 * const arenas = new WorkerArenas((arena) => worker.postMessage({ kind: 'drop-arena', arena: arena.id }));
 * const held: Arena[] = [];
 * const { arena, offset } = arenas.place(held, piece.length, piece.byteOffset & 7, share.length);
 * arena.bytes.set(piece, offset); // … post, await the reply …
 * arenas.release(held);
 */
export class WorkerArenas {
  private readonly idle: Arena[] = [];

  /** `drop` tells the worker to forget an arena it was sent that is no longer kept. */
  constructor(private readonly drop: (arena: Arena) => void) {}

  /**
   * `length` bytes starting at an offset congruent to `skew` modulo 8 (so that copying a
   * view with that offset in runs at memcpy speed), after what the call already wrote
   * into its last held arena; else at the start of another, which joins `held`: the
   * smallest idle arena of at least `hint` bytes (what the call expects to write in all)
   * and `length`, or a new one.
   */
  place(held: Arena[], length: number, skew: number, hint: number): ArenaRegion {
    const last = held[held.length - 1];
    if (last !== undefined) {
      const offset = ((last.used + 7) & ~7) + skew;
      if (offset + length <= last.bytes.length) {
        last.used = offset + length;
        return { arena: last, offset };
      }
    }
    const need = Math.max(length + 8, hint);
    let best = -1;
    for (const [i, arena] of this.idle.entries()) {
      if (arena.bytes.length >= need && (best === -1 || arena.bytes.length < this.idle[best]!.bytes.length)) best = i;
    }
    let arena: Arena;
    if (best !== -1) {
      arena = this.idle.splice(best, 1)[0]!;
    } else {
      const bytes = new Uint8Array(new SharedArrayBuffer(Math.ceil((need + (need >>> 3)) / ARENA_GRANULE) * ARENA_GRANULE));
      arena = { id: nextArenaId++, bytes, sent: false, used: 0 };
    }
    held.push(arena);
    arena.used = skew + length;
    return { arena, offset: skew };
  }

  /** Takes back the arenas of a finished call; keeps the largest IDLE_ARENAS, drops the rest. */
  release(held: readonly Arena[]): void {
    this.idle.push(...held);
    if (this.idle.length <= IDLE_ARENAS) return;
    this.idle.sort((a, b) => b.bytes.length - a.bytes.length);
    for (const arena of this.idle.splice(IDLE_ARENAS)) if (arena.sent) this.drop(arena);
  }
}

/**
 * Buffers that come back from workers (moved there and back with a request), kept to be
 * sent again: a run that sends one per chunk allocates none once warm. At most `keep`
 * are kept; more are left to the garbage collector.
 * @example
 * const spare = new SpareBuffers(4);
 * const buffer = spare.take(chunk.length, (n) => n + (n >>> 3)); // … moved to a worker and back …
 * spare.give(buffer);
 */
export class SpareBuffers {
  private readonly spare: ArrayBuffer[] = [];

  constructor(private readonly keep: number) {}

  /**
   * A spare buffer of at least `length` bytes, else a new one of `size(length)` bytes
   * (a spare one too small is dropped: lengths only grow past it again).
   */
  take(length: number, size: (length: number) => number = (n) => n): ArrayBuffer {
    const buffer = this.spare.pop();
    return buffer !== undefined && buffer.byteLength >= length ? buffer : new ArrayBuffer(size(length));
  }

  /** Any spare buffer, whatever its size (the worker grows what it fills), or undefined. */
  takeAny(): ArrayBuffer | undefined {
    return this.spare.pop();
  }

  /** Keeps `buffer` for a later take, unless `keep` are kept already. */
  give(buffer: ArrayBuffer): void {
    if (this.spare.length < this.keep) this.spare.push(buffer);
  }
}
