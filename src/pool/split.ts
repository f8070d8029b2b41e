// Where MatchPool (pool/index.ts) cuts a batch: whole-line shares sized to how fast each thread judged the last ones.

/**
 * Shares smaller than this give no speed sample: their time is mostly messaging and
 * timer noise, not judging.
 */
const MIN_SAMPLE_BYTES = 64 * 1024;
/**
 * Calls remembered per side. A thread that was descheduled for part of a call looks
 * slower than it is, never faster: the fastest of the last few calls is its speed.
 */
const SAMPLES = 8;
/**
 * Bounds of the speed ratio between the calling thread and a worker, by default: further
 * from even than this, the measurements are more likely disturbed (a side busy for all
 * of the last calls) than the threads that different.
 */
const MIN_RATIO = 0.5;
const MAX_RATIO = 2;

/**
 * Where to cut `bytes` into runs of whole lines: 0, one cut per target (ascending,
 * within the input) where possible, then the length. Each cut goes just after the line
 * break nearest its target, on either side; a cut that would leave a share empty (one
 * line longer than a share, or no line break at all) is dropped, so there may be fewer
 * shares than targets + 1.
 * @example splitAtLines(new TextEncoder().encode('/a\n/b\n/c\n'), [4]) // [0, 3, 9]
 */
export function splitAtLines(bytes: Uint8Array, targets: readonly number[]): number[] {
  const length = bytes.length;
  const cuts = [0];
  for (const target of targets) {
    const previous = cuts[cuts.length - 1]!;
    // Just after the first '\n' at or past the target, and after the last one before it
    // (searched back to the previous cut only); 0 when there is none.
    const after = bytes.indexOf(0x0a, target) + 1;
    const back = target > previous ? bytes.subarray(previous, target).lastIndexOf(0x0a) : -1;
    const before = back === -1 ? 0 : previous + back + 1;
    // A cut lies strictly inside the input and past the previous one: no share is empty.
    const inside = (cut: number): boolean => cut > previous && cut < length;
    if (inside(before) && (!inside(after) || target - before <= after - target)) cuts.push(before);
    else if (inside(after)) cuts.push(after);
  }
  cuts.push(length);
  return cuts;
}

/**
 * Targets for `shares` shares of `length` bytes: the first (the calling thread's) gets
 * `first` (a fraction, 0 < first < 1) of the input, the others equal parts of the rest.
 * @example shareTargets(100, 3, 0.2) // [20, 60]
 */
export function shareTargets(length: number, shares: number, first: number): number[] {
  const targets: number[] = [];
  const own = length * first;
  for (let i = 1; i < shares; i++) targets.push(Math.floor(own + ((i - 1) * (length - own)) / (shares - 1)));
  return targets;
}

/**
 * How fast the calling thread gets through its share compared with a worker, learnt
 * from the calls that finished: the split follows it so that all threads finish
 * together. The calling thread's time includes copying the workers' shares (a worker
 * starts on its share's head while the rest is copied); a worker's includes copying a
 * share of shared memory into private memory. One thread may also share its core with
 * other work. Only sizes change: every line is judged the same wherever it lands.
 */
export class ShareBalance {
  /** Milliseconds per byte of the last calls, on the calling thread (copies included) and on the workers. */
  private readonly own: number[] = [];
  private readonly workers: number[] = [];
  /** Milliseconds the calling thread spent per byte of the workers' shares handing them over (see sample). */
  private readonly handOff: number[] = [];

  /**
   * `maxRatio`: how much slower per byte than a worker the calling thread may be taken
   * to be. String batches need more than the default: there the calling thread's time
   * spent encoding for the workers comes off their side (see first).
   */
  constructor(private readonly maxRatio = MAX_RATIO) {}

  /** The calling thread's fraction of a batch split `shares` ways (1 when not split). */
  first(shares: number): number {
    if (shares < 2) return 1;
    // Even until measured.
    if (this.own.length === 0) return 1 / shares;
    // The calling thread first hands every worker its share (h per byte of theirs), then
    // judges its own (o per byte); a worker judges its share (w per byte). All finish
    // together when o·own = (w − (shares − 1)·h)·(1 − own)/(shares − 1): a worker counts
    // as judging at w less the hand-off, kept above a sixteenth of w (beyond that the
    // bound on the ratio decides anyway). Each speed is the fastest of its last samples,
    // separately, so that one slow call on either side does not move the split.
    const worker = Math.min(...this.workers);
    const effective = Math.max(worker - (shares - 1) * Math.min(...this.handOff), worker / 16);
    const ratio = Math.min(this.maxRatio, Math.max(MIN_RATIO, Math.min(...this.own) / effective));
    return 1 / (1 + (shares - 1) * ratio);
  }

  /**
   * Learns from one finished call: the calling thread judged `ownBytes` in `ownMs`, the
   * workers judged `workerBytes[i]` in `workerMs[i]` (without messaging), and handing
   * their shares over took the calling thread `handOffMs` in all, when that is counted
   * apart (string batches: encoding) rather than in `ownMs` (line batches: copies).
   */
  sample(ownBytes: number, ownMs: number, workerBytes: readonly number[], workerMs: readonly number[], handOffMs = 0): void {
    if (ownBytes < MIN_SAMPLE_BYTES || ownMs <= 0) return;
    let bytes = 0;
    let ms = 0;
    for (const [i, b] of workerBytes.entries()) {
      if (b < MIN_SAMPLE_BYTES) return;
      bytes += b;
      ms += workerMs[i]!;
    }
    if (bytes === 0 || ms <= 0) return;
    this.own.push(ownMs / ownBytes);
    this.workers.push(ms / bytes);
    this.handOff.push(handOffMs / bytes);
    if (this.own.length > SAMPLES) {
      this.own.shift();
      this.workers.shift();
      this.handOff.shift();
    }
  }
}
