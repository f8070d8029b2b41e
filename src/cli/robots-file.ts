// Reads robots.txt files from disk: regular files only, at most the parse limit + 1 bytes (RFC 9309 §2.5), and counts those refused.
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { DEFAULT_MAX_BYTES } from '../robots.js';

/** A path that names no regular file (a FIFO, device, directory or socket): nothing is read from it. */
export class NotRegularFileError extends Error {
  override readonly name = 'NotRegularFileError';

  constructor(readonly path: string, readonly kind: string) {
    // A directory in the words `cat` uses (errors.ts); anything else says what it is not.
    super(kind === 'a directory' ? 'is a directory' : `is ${kind}, not a regular file`);
  }
}

/** What a non-regular file is, in words. */
function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  return 'an unknown kind of file';
}

// O_NONBLOCK: opening a FIFO for reading then returns at once instead of waiting for a
// writer (POSIX open()); the fstat below refuses it before any read. A regular file
// ignores the flag. Windows has no such flag and no FIFOs to open.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * The first `limit + 1` bytes of the regular file at `path` (all of a shorter one). The
 * byte past the limit is what lets Robots.parse see the body was cut (`truncated`) and
 * whether the cut falls on a line end; the rest of a larger file is never read, as
 * RFC 9309 §2.5 allows past a limit of at least 500 KiB. The file's type is checked on
 * the open descriptor (no stat-then-open race).
 * @throws NotRegularFileError for a FIFO, device, directory or socket; the open/read error otherwise (ENOENT…)
 * @example readRobotsFile('robots.txt').length // ≤ DEFAULT_MAX_BYTES + 1
 */
export function readRobotsFile(path: string, limit: number = DEFAULT_MAX_BYTES): Uint8Array {
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Platforms that refuse to open a directory, and sockets (open() gives ENXIO).
    if (code === 'EISDIR') throw new NotRegularFileError(path, 'a directory');
    if (code === 'ENXIO') throw new NotRegularFileError(path, 'a socket or device');
    throw error;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new NotRegularFileError(path, kindOf(stats));
    const want = limit + 1;
    // Sized by the file, but read to the end whatever its size now (it may be growing).
    let buffer = Buffer.allocUnsafe(Math.max(1, Math.min(want, stats.size + 1)));
    let length = 0;
    while (length < want) {
      if (length === buffer.length) {
        const grown = Buffer.allocUnsafe(Math.min(want, buffer.length * 2));
        buffer.copy(grown, 0, 0, length);
        buffer = grown;
      }
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
    }
    return new Uint8Array(buffer.buffer, buffer.byteOffset, length);
  } finally {
    closeSync(fd);
  }
}

/** Hash slots of a SharedFileCount: distinct files told apart (more are still counted). */
const SLOTS = 4096;
/** Bytes kept of the first file's path, for the message. */
const FIRST_BYTES = 1024;
const COUNT = 0;
const FIRST_LENGTH = 1;
const HEADER = 2;

/**
 * Distinct files counted across worker threads through one SharedArrayBuffer (posted with
 * the job: workers share it, not a copy), with the first one's path and reason kept for
 * the message. Paths are told apart by a 32-bit hash in up to 4,096 slots.
 * @example
 * const count = new SharedFileCount(SharedFileCount.buffer());
 * count.add('robots/a.txt', 'a FIFO'); count.add('robots/a.txt', 'a FIFO'); count.count; // 1
 */
export class SharedFileCount {
  private readonly slots: Int32Array;
  private readonly first: Uint8Array;

  /** A new, empty buffer for a SharedFileCount. */
  static buffer(): SharedArrayBuffer {
    return new SharedArrayBuffer((HEADER + SLOTS) * 4 + FIRST_BYTES);
  }

  constructor(readonly shared: SharedArrayBuffer) {
    this.slots = new Int32Array(shared, 0, HEADER + SLOTS);
    this.first = new Uint8Array(shared, (HEADER + SLOTS) * 4, FIRST_BYTES);
  }

  /** Counts `path` once, whichever thread meets it first. */
  add(path: string, reason: string): void {
    let hash = 0x811c9dc5;
    for (let k = 0; k < path.length; k++) hash = Math.imul(hash ^ path.charCodeAt(k), 0x01000193);
    hash |= 1; // 0 marks a free slot
    for (let probe = 0; probe < SLOTS; probe++) {
      const slot = HEADER + ((hash + probe) & (SLOTS - 1));
      const was = Atomics.compareExchange(this.slots, slot, 0, hash);
      if (was === hash) return;
      if (was === 0) break;
    }
    if (Atomics.add(this.slots, COUNT, 1) !== 0) return;
    const { written } = new TextEncoder().encodeInto(`${path}: ${reason}`, this.first);
    Atomics.store(this.slots, FIRST_LENGTH, written);
  }

  /** Files counted. */
  get count(): number {
    return Atomics.load(this.slots, COUNT);
  }

  /** The first file counted and why, as `path: reason` (null if none). */
  get firstFile(): string | null {
    const length = Atomics.load(this.slots, FIRST_LENGTH);
    if (this.count === 0) return null;
    // Copied out: TextDecoder does not read shared memory.
    return new TextDecoder().decode(this.first.slice(0, length));
  }
}
