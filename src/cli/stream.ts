// Streams newline-separated input in bounded chunks: complete lines out, the tail carried over.
import { open } from 'node:fs/promises';
import type { Readable } from 'node:stream';

/** Bytes gathered before a chunk is handed on (fewer Wasm and worker round trips). */
export const CHUNK_BYTES = 1 << 20;

/**
 * Reads a file in pieces of `size` bytes into two buffers used in turn: while the caller
 * handles one piece, the next is already being read into the other (the read runs on
 * libuv's thread pool, so it overlaps the caller's work instead of following it). A
 * piece is valid only until the next one is asked for (completeLines copies it at once).
 * @example for await (const chunk of completeLines(readFileReusing('urls.txt'))) handle(chunk);
 */
export async function* readFileReusing(path: string, size = CHUNK_BYTES): AsyncGenerator<Buffer> {
  const file = await open(path, 'r');
  const buffers = [Buffer.allocUnsafe(size), Buffer.allocUnsafe(size)];
  let next = 0;
  // One read in flight at a time, at the file's position: pieces come in file order.
  let pending = file.read(buffers[0]!, 0, size, null);
  try {
    for (;;) {
      const { bytesRead, buffer } = await pending;
      if (bytesRead === 0) return;
      next ^= 1;
      pending = file.read(buffers[next]!, 0, size, null);
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    // A read still in flight (the caller stopped early, or a read failed) is let finish
    // before the file closes; its own failure is not the one to report.
    await pending.catch(() => undefined);
    await file.close();
  }
}

/**
 * Yields the input in chunks that each end at a line break (the last one may not): once
 * at least `minBytes` have arrived, everything up to the last line break among them.
 * Every chunk is a view of one buffer this generator reuses (grown only for a line longer
 * than it): valid until the next one is asked for, then overwritten. Memory stays one
 * chunk plus one partial line, with no allocation per chunk (a fresh buffer per chunk
 * left garbage that V8 collected late: about 25 MB of dead chunks in a 10M-URL run).
 * @example for await (const chunk of completeLines(process.stdin)) handle(chunk);
 */
export async function* completeLines(input: AsyncIterable<Buffer | string>, minBytes = CHUNK_BYTES): AsyncGenerator<Buffer> {
  // Room for a chunk and a piece after it; a source's pieces are copied in at once, so
  // the source may reuse its own buffer for its next read.
  let buffer = Buffer.allocUnsafe(0);
  let held = 0;
  // buffer[0, searched) holds no line break: each byte is searched once, so a line of
  // many megabytes arriving in small pieces costs linear time, not quadratic.
  let searched = 0;
  for await (const piece of input) {
    const fresh = typeof piece === 'string' ? Buffer.from(piece) : piece;
    if (fresh.length === 0) continue;
    if (held + fresh.length > buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(held + fresh.length, 2 * buffer.length, minBytes + fresh.length));
      buffer.copy(grown, 0, 0, held);
      buffer = grown;
    }
    fresh.copy(buffer, held);
    held += fresh.length;
    if (held < minBytes) continue;
    const found = buffer.subarray(searched, held).lastIndexOf(0x0a);
    if (found < 0) {
      // One line longer than minBytes so far: keep gathering it.
      searched = held;
      continue;
    }
    const end = searched + found + 1;
    yield buffer.subarray(0, end);
    // The caller is done with the chunk: the carried tail (no line break) moves to the front.
    buffer.copy(buffer, 0, end, held);
    held -= end;
    searched = held;
  }
  if (held > 0) yield buffer.subarray(0, held);
}
