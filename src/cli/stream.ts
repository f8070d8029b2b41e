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
 * Default longest URL line, in bytes before its line feed: Chromium's limit on a URL
 * (url::kMaxURLChars, 2 MiB); RFC 9110 §4.1 asks only that 8,000 octets be supported.
 * A longer line is never buffered whole (see lineChunks).
 */
export const DEFAULT_MAX_URL_BYTES = 2 * 1024 * 1024;

/** A line longer than the limit, streamed past: its length in bytes, line feed excluded. */
export interface OverLongLine {
  readonly overLong: number;
}

/**
 * Yields the input in chunks that each end at a line break (the last one may not): once
 * at least `minBytes` have arrived, everything up to the last line break among them.
 * Every chunk is a view of one buffer this generator reuses (grown only for a line longer
 * than it): valid until the next one is asked for, then overwritten. Memory stays one
 * chunk plus one partial line, with no allocation per chunk (a fresh buffer per chunk
 * left garbage that V8 collected late: about 25 MB of dead chunks in a 10M-URL run).
 *
 * A line of more than `maxLineBytes` bytes (its line feed excluded) is not in any chunk:
 * the lines before it are yielded first (a chunk however short), then, once its line feed
 * or the input's end comes, an OverLongLine in its place. Its bytes are dropped as they
 * arrive, so memory stays bounded however long it is (an endless line, like /dev/zero,
 * is read for ever in constant memory).
 * @example for await (const item of lineChunks(process.stdin, CHUNK_BYTES, 100)) if ('overLong' in item) note(item.overLong); else handle(item);
 */
export async function* lineChunks(
  input: AsyncIterable<Buffer | string>, minBytes = CHUNK_BYTES, maxLineBytes = Infinity,
): AsyncGenerator<Buffer | OverLongLine> {
  // Room for a chunk and a piece after it; a source's pieces are copied in at once, so
  // the source may reuse its own buffer for its next read.
  let buffer = Buffer.allocUnsafe(0);
  let held = 0;
  // buffer[0, searched) holds no line break: each byte is searched once, so a line of
  // many megabytes arriving in small pieces costs linear time, not quadratic.
  let searched = 0;
  // Every line before lineStart is known to be within maxLineBytes; a line starts there.
  let lineStart = 0;
  // Bytes of an over-long line dropped so far, or -1 when not inside one.
  let skipped = -1;
  for await (const piece of input) {
    let fresh = typeof piece === 'string' ? Buffer.from(piece) : piece;
    if (skipped >= 0) {
      const end = fresh.indexOf(0x0a);
      if (end < 0) {
        skipped += fresh.length;
        continue;
      }
      yield { overLong: skipped + end };
      skipped = -1;
      fresh = fresh.subarray(end + 1);
    }
    if (fresh.length === 0) continue;
    if (held + fresh.length > buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(held + fresh.length, 2 * buffer.length, minBytes + fresh.length));
      buffer.copy(grown, 0, 0, held);
      buffer = grown;
    }
    fresh.copy(buffer, held);
    held += fresh.length;
    // Whether the line at lineStart ends within maxLineBytes: the last line feed among
    // its first maxLineBytes + 1 bytes starts the next line to check. A search from the
    // end stops at the first line feed it meets, so this costs little for short lines.
    while (held - lineStart > maxLineBytes) {
      const found = buffer.subarray(lineStart, lineStart + maxLineBytes + 1).lastIndexOf(0x0a);
      if (found >= 0) {
        lineStart += found + 1;
        continue;
      }
      // The line at lineStart is too long: the lines before it go out now, then it is dropped.
      if (lineStart > 0) yield buffer.subarray(0, lineStart);
      const end = buffer.subarray(lineStart, held).indexOf(0x0a);
      if (end < 0) {
        skipped = held - lineStart;
        held = 0;
      } else {
        yield { overLong: end };
        // What followed its line feed is kept, and checked in turn.
        const next = lineStart + end + 1;
        buffer.copy(buffer, 0, next, held);
        held -= next;
      }
      searched = 0;
      lineStart = 0;
    }
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
    lineStart = 0;
  }
  if (skipped >= 0) yield { overLong: skipped };
  else if (held > 0) yield buffer.subarray(0, held);
}

/**
 * lineChunks without a line length limit: chunks of whole lines only.
 * @example for await (const chunk of completeLines(process.stdin)) handle(chunk);
 */
export async function* completeLines(input: AsyncIterable<Buffer | string>, minBytes = CHUNK_BYTES): AsyncGenerator<Buffer> {
  for await (const item of lineChunks(input, minBytes)) if (!('overLong' in item)) yield item;
}
