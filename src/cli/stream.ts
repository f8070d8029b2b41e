// Streams newline-separated input in bounded chunks: complete lines out, the tail carried over.
import type { Readable } from 'node:stream';

/** Largest chunk handed to a consumer, unless a single line is longer. */
export const CHUNK_BYTES = 1 << 20;

/**
 * Yields buffers that each end at a line break (the last one may not), never holding
 * more than one chunk plus one partial line in memory.
 */
export async function* completeLines(input: Readable): AsyncGenerator<Buffer> {
  let carry: Buffer = Buffer.alloc(0);
  for await (const piece of input) {
    const chunk = typeof piece === 'string' ? Buffer.from(piece) : (piece as Buffer);
    const data = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
    const lastBreak = data.lastIndexOf(0x0a);
    if (lastBreak < 0) {
      carry = data;
      continue;
    }
    carry = Buffer.from(data.subarray(lastBreak + 1));
    yield data.subarray(0, lastBreak + 1);
  }
  if (carry.length > 0) yield carry;
}
