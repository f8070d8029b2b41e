// Output plumbing shared by the subcommands: run totals, back-pressured writes, the summary line.
import type { Writable } from 'node:stream';

/** Counts of one run, for the summary line. */
export interface RunTotals {
  urls: number;
  allowed: number;
  disallowed: number;
}

/**
 * Writes `data`, waiting for the stream to drain so memory stays bounded. Rejects when
 * the stream fails (e.g. EPIPE once the reader of a pipe has gone).
 */
export async function writeAll(out: Writable, data: Uint8Array): Promise<void> {
  if (data.length === 0) return;
  if (out.write(data)) return;
  await new Promise<void>((resolve, reject) => {
    const done = (): void => {
      cleanup();
      resolve();
    };
    const fail = (error: Error): void => {
      cleanup();
      reject(error);
    };
    const cleanup = (): void => {
      out.off('drain', done);
      out.off('close', done);
      out.off('error', fail);
    };
    out.on('drain', done);
    out.on('close', done);
    out.on('error', fail);
  });
}

/**
 * `1 url`, `2 urls`.
 * @example countOf(1, 'url') // '1 url'
 */
export function countOf(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/**
 * Runs shorter than this print no rate: their time reads `0.00 s`, and a rate over it
 * would be startup noise.
 */
export const MIN_RATE_SECONDS = 0.005;

/**
 * `R urls/s`, or null when there is nothing to measure (no URLs, or a run shorter than
 * MIN_RATE_SECONDS). Below 10/s two significant digits (`0.25 urls/s` for a URL typed
 * every 4 s), never a rounded `0 urls/s`.
 * @example formatRate(10, 0.5) // '20 urls/s'
 * @example formatRate(1, 8) // '0.13 urls/s'
 * @example formatRate(0, 3) // null
 */
export function formatRate(urls: number, seconds: number): string | null {
  if (urls === 0 || !(seconds >= MIN_RATE_SECONDS)) return null;
  const rate = urls / seconds;
  return `${rate >= 10 ? Math.round(rate) : Number(rate.toPrecision(2))} urls/s`;
}

/**
 * `N urls, A allowed, D disallowed, T s, R urls/s`, the line the subcommands print on
 * stderr; the rate as formatRate decides (absent when there is nothing to measure).
 * @example formatSummary({ urls: 10, allowed: 7, disallowed: 3 }, 0.5) // '10 urls, 7 allowed, 3 disallowed, 0.50 s, 20 urls/s'
 * @example formatSummary({ urls: 1, allowed: 1, disallowed: 0 }, 0.001) // '1 url, 1 allowed, 0 disallowed, 0.00 s'
 */
export function formatSummary(totals: RunTotals, seconds: number): string {
  const parts = [countOf(totals.urls, 'url'), `${totals.allowed} allowed`, `${totals.disallowed} disallowed`, `${seconds.toFixed(2)} s`];
  const rate = formatRate(totals.urls, seconds);
  if (rate !== null) parts.push(rate);
  return parts.join(', ');
}

/**
 * A growable byte buffer that output rows are copied into, so a run can reuse one
 * allocation for every chunk instead of making garbage per chunk (constant memory).
 * @example const out = new OutputBuffer(); out.append(rows); await writeAll(stdout, out.view());
 */
export class OutputBuffer {
  private bytes: Uint8Array;
  private length = 0;

  /** @param initial a buffer to fill (from the start), or the capacity of a new one */
  constructor(initial: Uint8Array | number = 1 << 20) {
    this.bytes = typeof initial === 'number' ? new Uint8Array(initial) : initial;
  }

  append(data: Uint8Array): void {
    if (this.length + data.length > this.bytes.length) {
      const next = new Uint8Array(Math.max(this.length + data.length, 2 * this.bytes.length));
      next.set(this.bytes.subarray(0, this.length));
      this.bytes = next;
    }
    this.bytes.set(data, this.length);
    this.length += data.length;
  }

  /** The bytes appended since the last `clear`. */
  view(): Uint8Array {
    return this.bytes.subarray(0, this.length);
  }

  clear(): void {
    this.length = 0;
  }
}
