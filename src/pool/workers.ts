// The one worker-thread pool of the package: workers started per slot, requests answered by sequence number, a death or exit turned into a clear error, all closed together.
//
// MatchPool (pool/index.ts, through pool/requests.ts) and the CLI's streaming run
// (cli/run.ts) both run their workers through a WorkerSet; what a worker does with a
// request, and what the owner keeps per worker, stay with each owner. A worker whose
// requests are all answered is `unref()`'d, so an idle set never keeps the process
// alive; one with a request pending is `ref()`'d until it answers or dies.
import { type Transferable, Worker, type WorkerOptions } from 'node:worker_threads';

/** A request or a reply: each reply carries the `seq` of the request it answers. */
export interface Sequenced {
  readonly seq: number;
}

/** How a WorkerSet starts its workers. */
export interface WorkerSetOptions<Extra> {
  /** The worker's module. */
  readonly url: URL;
  /** What errors call a worker: `${label} (thread N) crashed: …`. */
  readonly label: string;
  /** More options for each Worker (workerData, resourceLimits); execArgv is the process's (see startWorker). */
  readonly worker?: Omit<WorkerOptions, 'execArgv'>;
  /** What the owner keeps per worker (say, the tables sent to it), made as it starts. */
  readonly extra: (worker: Worker) => Extra;
  /** Told of each worker lost (crashed or exited) while the set was open, after its pending requests rejected. */
  readonly onLost?: (error: WorkerLostError) => void;
}

/**
 * A worker crashed (an uncaught error, its `cause`) or exited: every request it had not
 * answered rejects with this. The set starts a new worker in its slot on next use.
 */
export class WorkerLostError extends Error {}

interface Waiter<Reply> {
  readonly resolve: (reply: Reply) => void;
  readonly reject: (error: Error) => void;
}

/** A started worker of a WorkerSet: its slot, its requests not answered yet, and what its owner keeps for it. */
export interface PooledWorker<Reply, Extra> {
  readonly worker: Worker;
  readonly threadId: number;
  readonly slot: number;
  readonly extra: Extra;
  readonly waiting: Map<number, Waiter<Reply>>;
  /** Set once its error or exit was seen, or the set was closed. */
  lost: boolean;
}

/**
 * Worker threads by slot, started on first use. `send` posts a request numbered by the
 * set and resolves with the reply that carries its number; a worker that crashes or
 * exits rejects its pending requests with a WorkerLostError and frees its slot.
 * @example
 * const set = new WorkerSet<Req, Reply, null>({ url: new URL('./worker.js', import.meta.url), label: 'my worker', extra: () => null });
 * const reply = await set.send(set.thread(0), (seq) => ({ seq, data }));
 * await set.close(new Error('closed'));
 */
export class WorkerSet<Request extends Sequenced, Reply extends Sequenced, Extra> {
  /** The workers by slot; a slot is empty until first used and after its worker is lost. */
  readonly slots: (PooledWorker<Reply, Extra> | undefined)[] = [];
  private nextSeq = 1;
  private closed = false;

  constructor(private readonly options: WorkerSetOptions<Extra>) {}

  /**
   * The worker in `slot`, started now if the slot is empty.
   * @throws Error when the set is closed, or what `new Worker` throws
   */
  thread(slot: number): PooledWorker<Reply, Extra> {
    if (this.closed) throw new Error(`${this.options.label}s are closed`);
    return (this.slots[slot] ??= this.start(slot));
  }

  /**
   * Posts `build(seq)` to `w` (moving `transfer`) and resolves with its reply; rejects
   * with a WorkerLostError when `w` crashes or exits first (or already had), or with
   * the closing error when the set is closed first.
   */
  send(w: PooledWorker<Reply, Extra>, build: (seq: number) => Request, transfer?: readonly Transferable[]): Promise<Reply> {
    const seq = this.nextSeq++;
    const request = build(seq);
    if (w.lost) return Promise.reject(new WorkerLostError(`${this.options.label} (thread ${w.threadId}) was lost before the request was sent`));
    return new Promise<Reply>((resolve, reject) => {
      // A worker with requests pending keeps the process alive until it answers.
      if (w.waiting.size === 0) w.worker.ref();
      w.waiting.set(seq, { resolve, reject });
      try {
        w.worker.postMessage(request, transfer);
      } catch (error) {
        this.settled(w, seq);
        reject(error as Error);
      }
    });
  }

  /**
   * Terminates every worker: requests still pending reject with `error` now (a reply
   * already on its way is ignored), and the set starts no worker again.
   */
  async close(error: Error): Promise<void> {
    this.closed = true;
    const started = this.slots.splice(0).filter((w) => w !== undefined);
    for (const w of started) this.lose(w, error);
    // Node can let the event loop run dry while a terminated worker's thread stops, before
    // the 'exit' event that settles terminate()'s promise (seen on Node 20 with a worker
    // terminated mid-request: the process then ended with an unsettled `await`). A timer
    // holds the loop open until every worker has stopped.
    const hold = setInterval(() => undefined, 1 << 30);
    try {
      await Promise.all(started.map((w) => w.worker.terminate()));
    } finally {
      clearInterval(hold);
    }
  }

  /** Forgets request `seq` of `w`, which lets an idle worker go. */
  private settled(w: PooledWorker<Reply, Extra>, seq: number): Waiter<Reply> | undefined {
    const waiter = w.waiting.get(seq);
    if (waiter === undefined) return undefined;
    w.waiting.delete(seq);
    if (w.waiting.size === 0) w.worker.unref();
    return waiter;
  }

  private start(slot: number): PooledWorker<Reply, Extra> {
    const { label } = this.options;
    const worker = startWorker(this.options.url, this.options.worker ?? {});
    // Idle workers must not keep the process alive; `send` refs a worker while it is busy.
    worker.unref();
    const w: PooledWorker<Reply, Extra> = { worker, threadId: worker.threadId, slot, extra: this.options.extra(worker), waiting: new Map(), lost: false };
    worker.on('message', (reply: Reply) => this.settled(w, reply.seq)?.resolve(reply));
    worker.on('error', (error) => {
      this.lose(w, new WorkerLostError(`${label} (thread ${w.threadId}) crashed: ${error.message}`, { cause: error }));
    });
    worker.on('exit', (code) => {
      this.lose(w, new WorkerLostError(`${label} (thread ${w.threadId}) exited with code ${code} before answering`));
    });
    return w;
  }

  /** `w` is gone: its slot is freed for a new worker and its pending requests reject with `error`. */
  private lose(w: PooledWorker<Reply, Extra>, error: Error): void {
    if (w.lost) return;
    w.lost = true;
    if (this.slots[w.slot] === w) this.slots[w.slot] = undefined;
    const left = [...w.waiting.values()];
    w.waiting.clear();
    for (const waiter of left) waiter.reject(error);
    if (!this.closed && error instanceof WorkerLostError) this.options.onLost?.(error);
  }
}

/**
 * A worker with the process's Node options (a loader, say), except --input-type (for
 * `node -e`), which makes a worker started from a file fail to load. Node refuses V8 and
 * process-wide options in a worker (`--max-old-space-size`, `--trace-gc`, …); with any of
 * those the worker starts without the parent's options, which it does not need.
 */
function startWorker(url: URL, options: Omit<WorkerOptions, 'execArgv'>): Worker {
  try {
    return new Worker(url, { ...options, execArgv: process.execArgv.filter((a) => !a.startsWith('--input-type')) });
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw error;
    return new Worker(url, { ...options, execArgv: [] });
  }
}
