// Streams newline-separated input in bounded chunks: complete lines out, the tail carried over.
import { open } from 'node:fs/promises';
import type { Readable } from 'node:stream';

/** Bytes gathered before a chunk is handed on (fewer Wasm and worker round trips). */
export const CHUNK_BYTES = 1 << 20;

/**
 * Reads a file in pieces of `size` bytes into one buffer that is reused for every read:
 * a piece is valid only until the next one is asked for (see completeLines' `reused`).
 * @example for await (const chunk of completeLines(readFileReusing('urls.txt'), CHUNK_BYTES, true)) handle(chunk);
 */
export async function* readFileReusing(path: string, size = CHUNK_BYTES): AsyncGenerator<Buffer> {
  const file = await open(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(size);
    for (;;) {
      const { bytesRead } = await file.read(buffer, 0, size, null);
      if (bytesRead === 0) return;
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    await file.close();
  }
}

/**
 * Yields buffers that each end at a line break (the last one may not), of at least
 * `minBytes` unless the input ends first, never holding more than one chunk plus one
 * partial line in memory. A yielded buffer is valid until the next one is asked for.
 * With `reused` (the source overwrites its buffer on the next read, as
 * readFileReusing does), pieces held across reads are copied first.
 * @example for await (const chunk of completeLines(process.stdin)) handle(chunk);
 */
export async function* completeLines(input: AsyncIterable<Buffer | string>, minBytes = CHUNK_BYTES, reused = false): AsyncGenerator<Buffer> {
  let pieces: Buffer[] = [];
  let held = 0;
  for await (const piece of input) {
    const fresh = typeof piece === 'string' ? Buffer.from(piece) : piece;
    if (fresh.length === 0) continue;
    // A piece kept until the next read must not share the source's buffer.
    const chunk = reused && held + fresh.length < minBytes ? Buffer.from(fresh) : fresh;
    pieces.push(chunk);
    held += chunk.length;
    if (held < minBytes) continue;
    const data = pieces.length === 1 ? chunk : Buffer.concat(pieces, held);
    const lastBreak = data.lastIndexOf(0x0a);
    if (lastBreak < 0) {
      // One line longer than minBytes so far: keep gathering it.
      pieces = [data === fresh && reused ? Buffer.from(data) : data];
      continue;
    }
    // The carried tail is copied: the yielded chunk may be reused or transferred.
    const tail = Buffer.from(data.subarray(lastBreak + 1));
    pieces = tail.length > 0 ? [tail] : [];
    held = tail.length;
    yield data.subarray(0, lastBreak + 1);
  }
  if (held > 0) yield pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces, held);
}
