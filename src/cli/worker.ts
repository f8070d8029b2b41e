// Worker thread for `--workers N`: runs the job's processor on the chunks it is sent.
import { parentPort, workerData } from 'node:worker_threads';
import { createProcessor, type Job } from './jobs.js';
import { CliError } from './errors.js';
import type { WorkerReply, WorkerRequest } from './run.js';

const port = parentPort!;
const processor = createProcessor(workerData as Job);

/** Chunks are processed one after another: a processor reuses its buffers between awaits. */
let queue: Promise<void> = Promise.resolve();

async function handle({ seq, chunk }: WorkerRequest): Promise<void> {
  let reply: WorkerReply;
  const transfer: ArrayBuffer[] = [];
  try {
    const result = await processor.process(chunk);
    // Row buffers are fresh copies: hand them over instead of copying them again.
    for (const rows of result.rows) transfer.push(rows.buffer as ArrayBuffer);
    reply = { seq, result };
  } catch (error) {
    reply = { seq, error: { message: (error as Error).message, cli: error instanceof CliError } };
  }
  port.postMessage(reply, transfer);
}

port.on('message', (request: WorkerRequest) => {
  queue = queue.then(() => handle(request));
});
