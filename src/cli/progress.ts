// A progress line on an interactive stderr: bar, URLs done, rate and ETA, redrawn in place.
import type { RunTotals } from './output.js';
import type { ProgressSink } from './run.js';

/** The slice of tty.WriteStream this needs. */
export interface ProgressStream {
  write(text: string): boolean;
  readonly columns?: number;
}

const REDRAW_MS = 200;
const BAR_CELLS = 24;

function compact(n: number): string {
  if (n >= 1e9) return `${(n / 1e9).toFixed(2)}G`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(2)}M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)}k`;
  return String(Math.round(n));
}

function clock(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const m = Math.floor(s / 60);
  return `${Math.floor(m / 60)}:${String(m % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

/**
 * Redraws at most every 200 ms. With `totalBytes` (a file) it shows a bar and an ETA
 * from bytes read; on a pipe it shows the count and the rate only.
 * @example const p = new TtyProgress(process.stderr, statSync(file).size); …; p.finish();
 */
export class TtyProgress implements ProgressSink {
  private readonly started = performance.now();
  private lastDraw = 0;
  private drawn = false;

  constructor(private readonly stream: ProgressStream, private readonly totalBytes: number | null) {}

  update(totals: RunTotals, bytesRead: number): void {
    const now = performance.now();
    if (now - this.lastDraw < REDRAW_MS) return;
    this.lastDraw = now;
    const seconds = (now - this.started) / 1000;
    const rate = seconds > 0 ? totals.urls / seconds : 0;
    let line = `${compact(totals.urls)} urls  ${compact(rate)} urls/s`;
    if (this.totalBytes !== null && this.totalBytes > 0) {
      const done = Math.min(1, bytesRead / this.totalBytes);
      const cells = Math.round(done * BAR_CELLS);
      const eta = done > 0 ? seconds * (1 - done) / done : 0;
      line = `[${'#'.repeat(cells)}${'-'.repeat(BAR_CELLS - cells)}] ${(done * 100).toFixed(1).padStart(5)}%  ${line}  ETA ${clock(eta)}`;
    }
    const width = this.width();
    this.stream.write(`\r${line.slice(0, width).padEnd(width)}`);
    this.drawn = true;
  }

  /** Clears the progress line (before the summary is printed). */
  finish(): void {
    if (this.drawn) this.stream.write(`\r${' '.repeat(this.width())}\r`);
  }

  /** Columns to draw in: the terminal's (0 when it does not say) minus one, at least 40. */
  private width(): number {
    return Math.max(40, (this.stream.columns || 80) - 1);
  }
}
