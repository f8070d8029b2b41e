// The CLI's input chunker (src/cli/stream.ts): chunks of complete lines, in order, from
// any split of the input into pieces, in one reused buffer.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { completeLines, readFileReusing } from '../src/cli/stream.js';
import { chunkBufferBytes } from '../src/cli/run.js';

async function* piecesOf(bytes: Buffer, cuts: readonly number[], reuse: boolean): AsyncGenerator<Buffer> {
  // A reusing source overwrites one buffer on every read, as readFileReusing does.
  const shared = Buffer.alloc(bytes.length);
  let at = 0;
  for (const cut of [...cuts, bytes.length]) {
    const end = Math.min(bytes.length, Math.max(at, cut));
    if (reuse) {
      bytes.copy(shared, 0, at, end);
      yield shared.subarray(0, end - at);
      shared.fill(0x23); // junk where the piece was: a chunker that kept it would show it
    } else {
      yield Buffer.from(bytes.subarray(at, end));
    }
    at = end;
  }
}

/** Every chunk, copied as it is yielded (a chunk is valid until the next is asked for). */
async function chunksOf(input: AsyncIterable<Buffer | string>, minBytes: number): Promise<Buffer[]> {
  const chunks: Buffer[] = [];
  for await (const chunk of completeLines(input, minBytes)) chunks.push(Buffer.from(chunk));
  return chunks;
}

function expectWellCut(chunks: readonly Buffer[], input: Buffer): void {
  expect(Buffer.concat(chunks).equals(input)).toBe(true);
  chunks.forEach((chunk, i) => {
    expect(chunk.length).toBeGreaterThan(0);
    // Every chunk but the last ends a line.
    if (i < chunks.length - 1) expect(chunk[chunk.length - 1]).toBe(0x0a);
  });
}

describe('completeLines', () => {
  it('cuts any split of any input into chunks of whole lines, in order, nothing lost', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.string({ unit: fc.constantFrom('a', 'b', '/', '\n', '\r', 'é'), maxLength: 40 }), { maxLength: 30 }),
        fc.array(fc.nat(2000), { maxLength: 12 }),
        fc.integer({ min: 1, max: 64 }),
        fc.boolean(),
        async (lines, cuts, minBytes, reuse) => {
          const input = Buffer.from(lines.join('\n'));
          const chunks = await chunksOf(piecesOf(input, [...cuts].sort((a, b) => a - b), reuse), minBytes);
          expectWellCut(chunks, input);
          // A chunk is cut only once minBytes have arrived, the carried tail included, and
          // the next chunk takes that tail: two chunks in a row hold at least minBytes.
          for (let i = 0; i + 1 < chunks.length; i++) expect(chunks[i]!.length + chunks[i + 1]!.length).toBeGreaterThanOrEqual(minBytes);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('takes string pieces (a stdin with an encoding set)', async () => {
    async function* strings(): AsyncGenerator<string> {
      yield '/a\n/b';
      yield 'c\n/d';
    }
    const chunks = await chunksOf(strings(), 1);
    expect(chunks.map(String)).toEqual(['/a\n', '/bc\n', '/d']);
  });

  it('yields every chunk out of one buffer: no allocation per chunk', async () => {
    // Chunks of 8 KiB and more, above Buffer's 4 KiB pool: a buffer allocated per chunk
    // would have an ArrayBuffer of its own, not share a pool slab with the others.
    const input = Buffer.from(Array.from({ length: 30_000 }, (_, i) => `/page/${i}`).join('\n') + '\n');
    const cuts = Array.from({ length: 40 }, (_, i) => Math.floor(((i + 1) * input.length) / 41));
    const buffers = new Set<ArrayBufferLike>();
    let count = 0;
    for await (const chunk of completeLines(piecesOf(input, cuts, true), 8192)) {
      buffers.add(chunk.buffer);
      count++;
    }
    expect(count).toBeGreaterThan(20);
    // The first buffer is grown once to hold a chunk and a piece, then kept.
    expect(buffers.size).toBe(1);
  });

  it('gathers a line many times longer than a chunk, arriving in small pieces, whole', async () => {
    // 8 MB in 1 KB pieces: the search for a line break reads each byte once (a search of
    // everything held per piece would read 32 GB here).
    const long = Buffer.alloc(8 << 20, 0x61);
    const input = Buffer.concat([Buffer.from('/x\n/'), long, Buffer.from('\n/y\n')]);
    const cuts = Array.from({ length: input.length >> 10 }, (_, i) => (i + 1) << 10);
    const chunks = await chunksOf(piecesOf(input, cuts, true), 4096);
    expectWellCut(chunks, input);
    expect(chunks.some((c) => c.length >= long.length)).toBe(true);
  });

  it('yields nothing for empty input and the unterminated rest at the end', async () => {
    expect(await chunksOf(piecesOf(Buffer.alloc(0), [], false), 16)).toEqual([]);
    const chunks = await chunksOf(piecesOf(Buffer.from('/a\n/b'), [1, 2], false), 100);
    expect(chunks.map(String)).toEqual(['/a\n/b']);
  });
});

describe('readFileReusing', () => {
  const withFile = async (bytes: Buffer, run: (path: string) => Promise<void>): Promise<void> => {
    const dir = mkdtempSync(join(tmpdir(), 'robotstxt-stream-'));
    try {
      writeFileSync(join(dir, 'urls.txt'), bytes);
      await run(join(dir, 'urls.txt'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  const bytes = Buffer.from(Array.from({ length: 300 }, (_, i) => `/p/${i}\n`).join(''));

  it('reads the file in order in pieces of the given size, each valid until the next is asked for', async () => {
    // Pieces of 8 KiB, above Buffer's 4 KiB pool: each buffer has an ArrayBuffer of its own.
    const large = Buffer.from(Array.from({ length: 6000 }, (_, i) => `/p/${i}\n`).join(''));
    await withFile(large, async (path) => {
      const pieces: Buffer[] = [];
      const buffers = new Set<ArrayBufferLike>();
      for await (const piece of readFileReusing(path, 8192)) {
        // Copied now: the next read (already running) goes into the other buffer.
        pieces.push(Buffer.from(piece));
        buffers.add(piece.buffer);
        expect(piece.length).toBeLessThanOrEqual(8192);
      }
      expect(Buffer.concat(pieces).equals(large)).toBe(true);
      expect(pieces.length).toBe(Math.ceil(large.length / 8192));
      // Two buffers used in turn, however many reads: no allocation per read.
      expect(pieces.length).toBeGreaterThan(4);
      expect(buffers.size).toBe(2);
    });
  });

  it('lets a caller stop early: the read in flight settles and the file closes', async () => {
    await withFile(bytes, async (path) => {
      let seen = 0;
      for await (const piece of readFileReusing(path, 100)) {
        seen += piece.length;
        if (seen >= 200) break;
      }
      expect(seen).toBe(200);
    });
  });

  it('feeds completeLines the same lines as the file holds', async () => {
    await withFile(bytes, async (path) => {
      const chunks: Buffer[] = [];
      for await (const chunk of completeLines(readFileReusing(path, 50), 120)) chunks.push(Buffer.from(chunk));
      expectWellCut(chunks, bytes);
    });
  });
});

describe('chunk buffers for workers (src/cli/run.ts)', () => {
  it('a buffer made for one chunk holds the later chunks of lines of varying length', async () => {
    // URLs of 20 to 219 bytes: chunk lengths differ by up to a line from one to the next.
    // A buffer sized exactly to its first chunk was too small for a later one about a
    // quarter of the time, and each too-small buffer was dropped for a new one.
    let seed = 7;
    const lines: string[] = [];
    for (let i = 0; i < 4000; i++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      lines.push(`https://h${i % 97}.example/${'p'.repeat(20 + (seed % 200))}`);
    }
    const bytes = Buffer.from(lines.join('\n') + '\n');
    const cuts: number[] = [];
    for (let at = 8192; at < bytes.length; at += 8192) cuts.push(at);
    const chunks = await chunksOf(piecesOf(bytes, cuts, true), 8192);
    expect(chunks.length).toBeGreaterThan(20);
    const capacity = chunkBufferBytes(chunks[0]!.length);
    // The last chunk is the input's rest, shorter: every full one must fit.
    for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(capacity);
  });
});
