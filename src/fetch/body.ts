// Reads a response body through its stream reader, never holding more than a byte limit.

/** The bytes kept from a body and whether more followed. */
export interface LimitedBody {
  readonly bytes: Uint8Array;
  /** True when the body had more than `maxBytes` bytes; the rest was never read. */
  readonly truncated: boolean;
}

/**
 * Reads `body` chunk by chunk and stops as soon as more than `maxBytes` bytes have arrived,
 * then cancels the stream so the transport stops sending (RFC 9309 §2.5: a parsing limit
 * protects the crawler; §3: memory management). At most one chunk beyond the limit is
 * ever held, and only until its head has been copied.
 *
 * Rejects with the stream's error (connection reset, abort) so that the caller can treat
 * a body cut short by the network as unreachable rather than parse half a file. When
 * `signal` aborts, the reader is cancelled and the promise rejects with `signal.reason`,
 * even if the stream's source never ends on its own.
 *
 * @example
 * const { bytes, truncated } = await readLimited(new Response('abc').body, 2);
 * // bytes → Uint8Array [0x61, 0x62], truncated → true
 */
export async function readLimited(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  signal?: AbortSignal,
): Promise<LimitedBody> {
  signal?.throwIfAborted();
  if (body === null) return { bytes: new Uint8Array(0), truncated: false };
  const reader = body.getReader();
  // A fetch implementation may ignore its request's signal and keep the stream open (or
  // dripping) for ever: cancelling the reader on abort ends a pending read() whatever the
  // implementation does, and the abort's reason is what the caller then gets.
  const onAbort = (): void => void reader.cancel(signal?.reason).catch(() => undefined);
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    return await readChunks(reader, maxBytes, signal);
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}

async function readChunks(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  maxBytes: number,
  signal: AbortSignal | undefined,
): Promise<LimitedBody> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  let truncated = false;
  // Invariant: length = sum of chunks' lengths ≤ maxBytes. Each iteration either ends the
  // loop or adds a whole chunk that still fits, so it runs once per chunk received.
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const room = maxBytes - length;
    if (value.byteLength > room) {
      // Copy the head now so the oversized chunk can be released with the stream.
      if (room > 0) chunks.push(value.slice(0, room));
      length += room;
      truncated = true;
      break;
    }
    chunks.push(value);
    length += value.byteLength;
  }
  // A read ended by the abort looks like the end of the body: it is not one.
  signal?.throwIfAborted();
  if (truncated) {
    // Cancelling tells the transport to stop (undici closes the socket). The verdict is
    // already decided by the bytes we kept, so a failure to cancel cannot change it.
    await reader.cancel().catch(() => undefined);
  }
  reader.releaseLock();
  return { bytes: concat(chunks, length), truncated };
}

function concat(chunks: readonly Uint8Array[], length: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

/**
 * Cancels a body that will not be read (a redirect's or an error page's) so that its
 * connection is released instead of downloaded.
 *
 * @example
 * await discardBody(new Response('moved'));
 */
export async function discardBody(response: Response): Promise<void> {
  if (response.body === null || response.bodyUsed) return;
  // Nothing depends on this body; a failure to cancel it is not the verdict's concern.
  await response.body.cancel().catch(() => undefined);
}
