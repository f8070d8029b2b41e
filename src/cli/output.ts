// Output plumbing shared by the subcommands: run totals, back-pressured writes, the summary line, rows for over-long URL lines.
import { readFileSync, readlinkSync } from 'node:fs';
import { Writable } from 'node:stream';

/** Counts of one run, for the summary line. */
export interface RunTotals {
  urls: number;
  allowed: number;
  disallowed: number;
  /** Lines over --max-url-bytes, each also counted in urls and disallowed (absent: none). */
  overLong?: number;
  /** With --agents: lines each agent may fetch (over-long lines not among them). */
  agentsAllowed?: number[];
}

/**
 * Set once the process is to end on a signal (see stopOutput): every later writeAll
 * waits for ever instead of writing, so no row starts after the rows already handed to
 * the stream, which then only has to drain.
 */
let stopped = false;

/**
 * Stops all output written through writeAll from here on (its promises never settle).
 * main.ts calls it on SIGINT/SIGTERM, then ends the process once stdout has drained, so
 * the output ends on a whole row.
 */
export function stopOutput(): void {
  stopped = true;
}

/** Exit status when output cannot be written (sysexits.h EX_IOERR). */
export const EXIT_OUTPUT_ERROR = 74;

/**
 * Whether this process was started with its stdout closed (`>&-`). Node replaces a
 * closed descriptor 0-2 by /dev/null opened read-write before any script runs, so every
 * write would succeed into nothing; a shell's `> /dev/null` opens it write-only. Linux
 * only (read from /proc); elsewhere false. A stdout opened read-write on /dev/null on
 * purpose (`1<> /dev/null`, daemon(3)) looks the same and is taken as closed too.
 */
export function stdoutWasClosed(): boolean {
  try {
    if (readlinkSync('/proc/self/fd/1') !== '/dev/null') return false;
    const flags = /^flags:\s*([0-7]+)$/m.exec(readFileSync('/proc/self/fdinfo/1', 'latin1'));
    // O_ACCMODE is 3, O_RDWR 2.
    return flags !== null && (Number.parseInt(flags[1]!, 8) & 3) === 2;
  } catch {
    return false;
  }
}

/**
 * A stream in place of a closed stdout: every write fails with EBADF, as it would have
 * in a program that did not get /dev/null in its place.
 */
export function closedOutput(): Writable {
  return new Writable({
    write(_data, _encoding, done) {
      done(Object.assign(new Error('stdout is closed'), { code: 'EBADF' }));
    },
  });
}

/**
 * Writes `data`, waiting for the stream to drain so memory stays bounded. Rejects when
 * the stream fails (e.g. EPIPE once the reader of a pipe has gone). After stopOutput it
 * writes nothing and never settles.
 */
export async function writeAll(out: Writable, data: Uint8Array): Promise<void> {
  if (stopped) return new Promise<void>(() => undefined);
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
 * Lines over --max-url-bytes, when there were any, are counted before the time.
 * @example formatSummary({ urls: 10, allowed: 7, disallowed: 3 }, 0.5) // '10 urls, 7 allowed, 3 disallowed, 0.50 s, 20 urls/s'
 * @example formatSummary({ urls: 1, allowed: 1, disallowed: 0 }, 0.001) // '1 url, 1 allowed, 0 disallowed, 0.00 s'
 * @example formatSummary({ urls: 3, allowed: 1, disallowed: 2, overLong: 1 }, 0.001) // '3 urls, 1 allowed, 2 disallowed, 1 url over --max-url-bytes, 0.00 s'
 */
export function formatSummary(totals: RunTotals, seconds: number): string {
  const parts = [countOf(totals.urls, 'url'), `${totals.allowed} allowed`, `${totals.disallowed} disallowed`];
  if (totals.overLong !== undefined && totals.overLong > 0) parts.push(`${countOf(totals.overLong, 'url')} over --max-url-bytes`);
  parts.push(`${seconds.toFixed(2)} s`);
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

/** The fields of a command's rows, for rows run.ts writes itself (over-long lines). */
export interface RowShape {
  readonly format: 'tsv' | 'jsonl';
  /** `--only`: an over-long line's row is a `disallow` row. */
  readonly only: 'allowed' | 'disallowed' | null;
  /** Rows have a HOST field (classify). */
  readonly host: boolean;
  /** JSONL rows have an `"outcome"` field (classify --fetch, check --robots URL). */
  readonly outcome: boolean;
  /**
   * `check`/`classify --agents`: one `disallow:0` field (TSV) or `"verdicts"` entry (JSONL) per
   * agent, in this order, instead of the verdict and line fields (absent: one agent).
   */
  readonly agents?: readonly string[];
}

/**
 * The row of a URL line over --max-url-bytes, or null when `--only allowed` leaves it
 * out. No robots.txt was asked about it, so it is no verdict on the URL: verdict
 * `disallow` (a crawler that acts on verdicts leaves the unjudged line alone), line 0, HOST empty, JSONL `"outcome":"none"`, and a
 * URL field that no input line can produce: a line feed (which ends every input line,
 * so no real URL field holds one; TSV shows it as `\n`) then
 * `[N bytes over --max-url-bytes]`. JSONL rows add `"urlBytes":N`. N is the line's
 * length in bytes, its line feed excluded.
 * With `agents` (check --agents) every agent gets `disallow`, line 0, in the same places.
 * @example overLongRow({ format: 'tsv', only: null, host: false, outcome: false }, 3000000) // 'disallow\t0\t\\n[3000000 bytes over --max-url-bytes]\n'
 * @example overLongRow({ format: 'tsv', only: null, host: false, outcome: false, agents: ['a', 'b'] }, 9) // 'disallow:0\tdisallow:0\t\\n[9 bytes over --max-url-bytes]\n'
 */
export function overLongRow(shape: RowShape, bytes: number): string | null {
  if (shape.only === 'allowed') return null;
  const text = `[${bytes} bytes over --max-url-bytes]`;
  if (shape.agents !== undefined) {
    const outcome = shape.outcome ? ',"outcome":"none"' : '';
    if (shape.format === 'tsv') return `${shape.agents.map(() => 'disallow:0\t').join('')}${shape.host ? '\t' : ''}\\n${text}\n`;
    const verdicts = shape.agents.map((agent) => `${JSON.stringify(agent)}:{"verdict":"disallow","line":0}`).join(',');
    return `{"url":"\\n${text}"${shape.host ? ',"host":""' : ''},"verdicts":{${verdicts}}${outcome},"urlBytes":${bytes}}\n`;
  }
  if (shape.format === 'tsv') return `disallow\t0\t${shape.host ? '\t' : ''}\\n${text}\n`;
  const host = shape.host ? ',"host":""' : '';
  const outcome = shape.outcome ? ',"outcome":"none"' : '';
  return `{"verdict":"disallow","line":0${host},"url":"\\n${text}"${outcome},"urlBytes":${bytes}}\n`;
}
