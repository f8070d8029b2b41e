// The CLI's `--workers` threads (src/cli/run.ts on the shared WorkerSet of src/pool/workers.ts): a worker that crashes or exits mid-run stops the run with an error naming it, and leaves no thread behind.
//
// A worker is made to fail through the run's private worker list: sent `null` in place of
// a chunk (its message handler throws, an uncaught error, as a crash), or terminated (an
// exit before answering). Workers run the built JavaScript, so this suite imports dist/.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as RunModule from '../src/cli/run.js';
import type { CheckJob } from '../src/cli/jobs.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const distRun = join(root, 'dist', 'cli', 'run.js');
if (!existsSync(distRun)) throw new Error('dist/cli/run.js is missing: run `npm run build` first');
const { ChunkWorkers, runChunks, runJob } = (await import(pathToFileURL(distRun).href)) as typeof RunModule;

const JOB: CheckJob = {
  kind: 'check', robots: new TextEncoder().encode('User-agent: *\nDisallow: /private\n'), agent: 'bot', profile: 'rfc', format: 'tsv', only: null,
};
/** 40,000 lines read 1,000 at a time (about 14 KB): 40 chunks, several in flight on each worker. */
const LINES = Array.from({ length: 40_000 }, (_v, i) => (i % 3 === 0 ? `/private/${i}` : `/page/${i}`));
const ROWS = LINES.map((url, i) => (i % 3 === 0 ? `disallow\t2\t${url}\n` : `allow\t0\t${url}\n`)).join('');
const CHUNK_BYTES = 4096;

async function* input(): AsyncGenerator<Buffer> {
  for (let i = 0; i < LINES.length; i += 1000) yield Buffer.from(`${LINES.slice(i, i + 1000).join('\n')}\n`);
}

interface Private {
  set: { slots: ({ worker: { postMessage(message: unknown): void; terminate(): Promise<number> }; threadId: number } | undefined)[] };
}

/** A stream that keeps what is written; `onFirst` runs before the first write completes. */
function collector(onFirst: () => Promise<unknown>): { stream: Writable; text: () => string } {
  const parts: Buffer[] = [];
  let first = true;
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      parts.push(Buffer.from(chunk));
      if (!first) return callback();
      first = false;
      onFirst().then(() => callback(), callback);
    },
  });
  return { stream, text: () => Buffer.concat(parts).toString() };
}

describe('a run whose worker fails', () => {
  it('without a failure, the rows of every chunk in input order (the baseline of the tests below)', async () => {
    const workers = new ChunkWorkers(JOB, 2);
    const out = collector(async () => undefined);
    try {
      const totals = await runChunks(workers, { source: input() }, out.stream, { window: 4, chunkBytes: CHUNK_BYTES });
      expect(totals.urls).toBe(LINES.length);
    } finally {
      await workers.close();
    }
    expect(out.text()).toBe(ROWS);
  });

  it('a worker that crashes (an uncaught error) rejects the run with "robotstxt worker (thread N) crashed: …", the error as cause', async () => {
    const workers = new ChunkWorkers(JOB, 2);
    const { worker, threadId } = (workers as unknown as Private).set.slots[0]!;
    // Messages are handled in order: the worker dies on this one, before the first chunk.
    worker.postMessage(null);
    const out = collector(async () => undefined);
    let error: unknown;
    try {
      await runChunks(workers, { source: input() }, out.stream, { window: 4, chunkBytes: CHUNK_BYTES });
    } catch (caught) {
      error = caught;
    } finally {
      await workers.close();
    }
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(new RegExp(`^robotstxt worker \\(thread ${threadId}\\) crashed: \\S`));
    expect((error as Error).cause).toBeInstanceOf(Error);
    // Worker 0 had the first chunk: no row was written.
    expect(out.text()).toBe('');
  });

  it('a worker that exits mid-run rejects the run with "robotstxt worker (thread N) exited with code 1 before answering"; rows before are whole and in order', async () => {
    const workers = new ChunkWorkers(JOB, 2);
    const { worker, threadId } = (workers as unknown as Private).set.slots[0]!;
    // Terminated while the first rows are written, with more chunks to come.
    const out = collector(() => worker.terminate());
    await expect(runChunks(workers, { source: input() }, out.stream, { window: 4, chunkBytes: CHUNK_BYTES }))
      .rejects.toThrow(new RegExp(`^robotstxt worker \\(thread ${threadId}\\) exited with code 1 before answering$`));
    await workers.close();
    const text = out.text();
    expect(text.length).toBeGreaterThan(0);
    expect(text.length).toBeLessThan(ROWS.length);
    expect(ROWS.startsWith(text)).toBe(true);
    expect(text.endsWith('\n')).toBe(true);
  });

  it('a worker that crashes as it starts (the job cannot be compiled) rejects runJob naming the worker and the cause', async () => {
    const broken = { ...JOB, robots: 42 } as unknown as CheckJob;
    const out = collector(async () => undefined);
    await expect(runJob(broken, { source: input() }, out.stream, { workers: 2, chunkBytes: CHUNK_BYTES }))
      .rejects.toThrow(/^robotstxt worker \(thread \d+\) crashed: .*robots/);
    expect(out.text()).toBe('');
  });
});

describe('no thread is left behind', () => {
  /** Runs `body` (module code with runJob, ChunkWorkers, runChunks, JOB, input() in scope) in a fresh process, which must exit by itself. */
  const script = (body: string): string => [
    `const { ChunkWorkers, runChunks, runJob } = await import(${JSON.stringify(pathToFileURL(distRun).href)});`,
    `const JOB = { kind: 'check', robots: new TextEncoder().encode('User-agent: *\\nDisallow: /p\\n'), agent: 'bot', profile: 'rfc', format: 'tsv', only: null };`,
    `async function* input() { for (let k = 0; k < 40; k++) yield Buffer.from(Array.from({ length: 1000 }, (_, i) => '/p/' + i).join('\\n') + '\\n'); }`,
    `const { Writable } = await import('node:stream');`,
    'const sink = () => new Writable({ write(_c, _e, cb) { cb(); } });',
    body,
  ].join('\n');
  const run = (body: string): string =>
    execFileSync(process.execPath, ['--input-type=module', '-e', script(body)], { encoding: 'utf8', timeout: 30_000 }).trim();

  it('after a run, a crash or an exit mid-run, the process exits with nothing left to wait for', () => {
    expect(run(`console.log((await runJob(JOB, { source: input() }, sink(), { workers: 2, chunkBytes: 4096 })).urls);`)).toBe('40000');
    expect(run([
      'const w = new ChunkWorkers(JOB, 2);',
      'w.set.slots[1].worker.postMessage(null);',
      'try { await runChunks(w, { source: input() }, sink(), { window: 4, chunkBytes: 4096 }); } catch (e) { console.log(e.message.split(":")[0]); }',
      'await w.close();',
    ].join('\n'))).toMatch(/^robotstxt worker \(thread \d+\) crashed$/);
    expect(run([
      'const w = new ChunkWorkers(JOB, 2);',
      'let first = true;',
      // A timer holds the event loop open while the worker stops: Node can otherwise end the
      // loop before the 'exit' event that settles terminate() (as WorkerSet.close guards).
      'const out = new Writable({ write(_c, _e, cb) { if (!first) return cb(); first = false; const hold = setInterval(() => {}, 1 << 30); w.set.slots[0].worker.terminate().then(() => { clearInterval(hold); cb(); }); } });',
      'try { await runChunks(w, { source: input() }, out, { window: 4, chunkBytes: 4096 }); } catch (e) { console.log(e.message.replace(/[0-9]+/, "N")); }',
      'await w.close();',
    ].join('\n'))).toBe('robotstxt worker (thread N) exited with code 1 before answering');
    expect(run([
      `try { await runJob({ ...JOB, robots: 42 }, { source: input() }, sink(), { workers: 2, chunkBytes: 4096 }); } catch (e) { console.log(e.message.split(":")[0]); }`,
    ].join('\n'))).toMatch(/^robotstxt worker \(thread \d+\) crashed$/);
  });
});
