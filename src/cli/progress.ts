// A progress line on an interactive stderr: bar, URLs done, rate and ETA, redrawn in place.
import { fstatSync } from 'node:fs';
import type { RunTotals } from './output.js';
import type { ProgressSink } from './run.js';

/** The slice of tty.WriteStream this needs. */
export interface ProgressStream {
  write(text: string): boolean;
  readonly columns?: number;
}

const REDRAW_MS = 200;

/** What decides whether a progress line is drawn. */
export interface TerminalState {
  /** `--quiet` was given. */
  readonly quiet: boolean;
  readonly stderrIsTTY: boolean;
  readonly stdoutIsTTY: boolean;
  /** stdout and stderr are the same terminal device. */
  readonly sameTerminal: boolean;
}

/**
 * Whether to draw the progress line: stderr is a terminal, and the rows do not go to that
 * same terminal (a row written while the line is drawn would be appended to it, and the
 * next redraw would overwrite the row). Rows on the terminal show progress themselves.
 * @example shouldDrawProgress({ quiet: false, stderrIsTTY: true, stdoutIsTTY: false, sameTerminal: false }) // true: rows go to a file or pipe
 * @example shouldDrawProgress({ quiet: false, stderrIsTTY: true, stdoutIsTTY: true, sameTerminal: true }) // false
 */
export function shouldDrawProgress(state: TerminalState): boolean {
  return !state.quiet && state.stderrIsTTY && !(state.stdoutIsTTY && state.sameTerminal);
}

/**
 * Whether two open file descriptors are the same terminal device (same device number).
 * @example sameTerminal(1, 2) // true in an interactive shell without redirection
 */
export function sameTerminal(a: number, b: number): boolean {
  try {
    const x = fstatSync(a);
    const y = fstatSync(b);
    return x.isCharacterDevice() && y.isCharacterDevice() && x.rdev === y.rdev;
  } catch {
    // A descriptor that cannot be examined is not known to be another terminal.
    return true;
  }
}
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
  // The first update draws at once; later ones at most every REDRAW_MS.
  private lastDraw = -Infinity;
  private drawn = false;

  constructor(private readonly stream: ProgressStream, private readonly totalBytes: number | null) {}

  update(totals: RunTotals, bytesRead: number): void {
    const now = performance.now();
    if (now - this.lastDraw < REDRAW_MS) return;
    this.lastDraw = now;
    const seconds = (now - this.started) / 1000;
    const rate = seconds > 0 ? totals.urls / seconds : 0;
    let line = `${compact(totals.urls)} ${totals.urls === 1 ? 'url' : 'urls'}  ${compact(rate)} urls/s`;
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

  /**
   * Erases the progress line, if one is drawn: before the summary, an error message, or
   * the process's exit (also after `| head` closed stdout). Safe to call again.
   */
  finish(): void {
    if (!this.drawn) return;
    this.drawn = false;
    this.stream.write(`\r${' '.repeat(this.width())}\r`);
  }

  /** Columns to draw in: the terminal's (0 when it does not say) minus one, at least 40. */
  private width(): number {
    return Math.max(40, (this.stream.columns || 80) - 1);
  }
}
