// Worker thread for `--workers N`: runs the job's processor on the chunks it is sent.
import { parentPort, workerData } from 'node:worker_threads';
import { setEngineLimits } from '../wasm/index.js';
import { createProcessor, type Job } from './jobs.js';
import { CliError } from './errors.js';
import { OutputBuffer } from './output.js';
import type { WorkerReply, WorkerRequest } from './run.js';

const port = parentPort!;
const job = workerData as Job;
// The run's engine limits (--max-memory-mb, the URL limit), before this thread's first call.
if (job.engine !== undefined) setEngineLimits(job.engine);
const processor = createProcessor(job);

/** Chunks are processed one after another: a processor reuses its buffers between awaits. */
let queue: Promise<void> = Promise.resolve();

async function handle({ seq, chunk, rows }: WorkerRequest): Promise<void> {
  let reply: WorkerReply;
  // Rows go into the buffer the pool sent (grown if a chunk needs more), which moves
  // back with the chunk's: neither side allocates per chunk. A new one has room for
  // twice the chunk (tab-separated rows take about 1.6 times their URLs): starting at
  // 1 MiB, every buffer grew once and left the first behind as garbage.
  const out = new OutputBuffer(rows ?? 2 * chunk.length);
  try {
    const result = await processor.process(chunk, (piece) => out.append(piece));
    reply = { seq, result: { ...result, rows: [out.view()] }, chunk };
  } catch (error) {
    // The name travels too: the main thread reports engine limit errors as such (errors.ts).
    reply = { seq, error: { message: (error as Error).message, name: (error as Error).name, cli: error instanceof CliError }, chunk };
  }
  const transfer = [chunk.buffer as ArrayBuffer];
  if ('result' in reply) transfer.push(out.view().buffer as ArrayBuffer);
  port.postMessage(reply, transfer);
}

port.on('message', (request: WorkerRequest) => {
  queue = queue.then(() => handle(request));
});
