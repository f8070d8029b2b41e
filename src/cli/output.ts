// Formats verdict lines (`allow<TAB>LINE<TAB>URL`) straight from the input bytes.
import type { Writable } from 'node:stream';

const ALLOW = Buffer.from('allow\t');
const DISALLOW = Buffer.from('disallow\t');

/** Counts of one run, for the summary line. */
export interface RunTotals {
  urls: number;
  allowed: number;
  disallowed: number;
}

/**
 * Appends one output row per line of `chunk` (LF or CRLF separated; the CR is not
 * echoed) to a buffer and returns it. `extra` (e.g. a host column) comes before the URL.
 */
export function formatRows(chunk: Uint8Array, verdicts: Uint8Array, lines: Uint32Array, count: number, totals: RunTotals): Buffer {
  const parts: Buffer[] = [];
  let start = 0;
  for (let i = 0; i < count; i++) {
    let end = chunk.indexOf(0x0a, start);
    const next = end < 0 ? chunk.length : end + 1;
    if (end < 0) end = chunk.length;
    if (end > start && chunk[end - 1] === 0x0d) end--;
    const allowed = verdicts[i] === 1;
    parts.push(allowed ? ALLOW : DISALLOW, Buffer.from(`${lines[i]}\t`), Buffer.from(chunk.buffer, chunk.byteOffset + start, end - start), NEWLINE);
    if (allowed) totals.allowed++;
    else totals.disallowed++;
    totals.urls++;
    start = next;
  }
  return Buffer.concat(parts);
}

const NEWLINE = Buffer.from('\n');

/** Writes `data`, waiting for the stream to drain so memory stays bounded. */
export async function writeAll(out: Writable, data: Buffer): Promise<void> {
  if (data.length === 0) return;
  if (!out.write(data)) await new Promise<void>((resolve) => out.once('drain', resolve));
}
