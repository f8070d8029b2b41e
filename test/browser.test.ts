// The ESM entry (dist/index.js) in a real browser: headless Chromium, main thread and a module Web Worker.
//
// dist/ must load with no Node API (the Wasm bytes are inlined, instantiation is
// synchronous), so the same verdicts come out of Node, the page and the worker. The
// browser is CHROMIUM_PATH, a system Chrome/Chromium or the packaged @sparticuz/chromium
// (test/helpers/chromium.ts); the test's name says which one ran.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { Robots } from '../src/index.js';
import { startStaticServer, type StaticServer } from './browser/server.js';
import { resolveChromium } from './helpers/chromium.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// Resolved while the file is collected, so the describe name can say which browser runs;
// a machine with none fails here with a message saying how to provide one.
const CHROMIUM = await resolveChromium();

const ROBOTS = [
  'User-agent: *', //           1
  'Disallow: /private/', //     2
  'Allow: /private/open$', //   3
  'Disallow: /*.pdf$', //       4
  'Disallow: /café', //         5
  '', //                        6
  'User-agent: FooBot', //      7
  'Disallow: /', //             8
  'Allow: /public/', //         9
].join('\n');

// [agent, url, allowed, line, note]
const CASES: ReadonlyArray<readonly [string, string, boolean, number, string]> = [
  ['OtherBot', '/private/a', false, 2, 'prefix disallow'],
  ['OtherBot', '/private/open', true, 3, 'longer allow wins (RFC 9309 §2.2.2)'],
  ['OtherBot', '/private/open2', false, 2, '$ anchors the end'],
  ['OtherBot', '/doc.pdf', false, 4, 'wildcard and $'],
  ['OtherBot', '/doc.pdf?x=1', true, 0, 'query defeats $'],
  ['OtherBot', '/', true, 0, 'no rule matches'],
  ['OtherBot', '/%70rivate/a', false, 2, '%70 is unreserved "p", decoded (RFC 9309 §2.2.2)'],
  ['OtherBot', '/caf%C3%A9/menu', false, 5, 'UTF-8 pattern vs percent-encoded URL'],
  ['OtherBot', '/café', false, 5, 'UTF-8 pattern vs raw UTF-8 URL'],
  ['OtherBot', 'https://example.com/private/x', false, 2, 'absolute URL'],
  ['FooBot', '/public/a', true, 9, 'own group, longer allow'],
  ['FooBot', '/x', false, 8, 'own group disallows all'],
  ['FooBot', '/robots.txt', true, 0, '/robots.txt implicitly allowed (RFC 9309 §2.2.2)'],
];

interface Classified {
  allowed: boolean[];
  lines: number[];
  batch: number[];
  matchLines: number[];
  bytes: boolean[];
  compat: (boolean | undefined)[];
}
interface SideResult {
  results: Classified[];
  env: { hasProcess: boolean; hasBuffer: boolean; isWorker: boolean };
}

function pageCases() {
  const agents = [...new Set(CASES.map(([agent]) => agent))];
  return agents.map((agent) => ({
    robots: ROBOTS,
    agent,
    origin: 'https://example.com',
    urls: CASES.filter(([a]) => a === agent).map(([, url]) => url),
  }));
}

let browser: Browser | undefined;
let server: StaticServer | undefined;

beforeAll(async () => {
  if (!existsSync(join(root, 'dist', 'index.js')) || !existsSync(join(root, 'dist', 'compat.js'))) {
    throw new Error('dist/index.js or dist/compat.js is missing: run `npm run build` first');
  }
  server = await startStaticServer({ '/dist/': join(root, 'dist'), '/': join(root, 'test', 'browser') });
  browser = await chromium.launch({ executablePath: CHROMIUM.executablePath, args: [...CHROMIUM.args] });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('browser: dist/index.js in Chromium', () => {
  it(`gives the same verdicts on the main thread, in a module worker and in Node [${CHROMIUM.label}]`, async () => {
    const page = await browser!.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`console: ${m.text()} (${m.location().url})`);
    });
    await page.goto(`${server!.origin}/page.html`);
    await page.waitForFunction(() => (globalThis as { pageReady?: boolean }).pageReady === true, undefined, {
      timeout: 20_000,
    });
    const cases = pageCases();
    const { main, worker } = (await page.evaluate(
      (c) => (globalThis as unknown as { runCases(c: unknown): Promise<unknown> }).runCases(c),
      cases,
    )) as { main: SideResult; worker: SideResult };
    await page.close();

    expect(errors).toEqual([]);
    expect(main.env).toEqual({ hasProcess: false, hasBuffer: false, isWorker: false });
    expect(worker.env).toEqual({ hasProcess: false, hasBuffer: false, isWorker: true });
    expect(server!.requests).toContain('/dist/index.js');
    expect(server!.requests).toContain('/worker.js');

    const node = Robots.parse(ROBOTS);
    for (const side of [main, worker]) {
      cases.forEach((c, i) => {
        const got = side.results[i]!;
        const want = CASES.filter(([a]) => a === c.agent);
        c.urls.forEach((url, j) => {
          const [agent, , allowed, line, note] = want[j]!;
          const label = `${side.env.isWorker ? 'worker' : 'main'} ${agent} ${url} (${note})`;
          expect(got.allowed[j], label).toBe(allowed);
          expect(got.lines[j], label).toBe(line);
          expect(got.batch[j], label).toBe(allowed ? 1 : 0);
          expect(got.matchLines[j], label).toBe(allowed ? 1 : 0);
          expect(got.bytes[j], label).toBe(allowed);
          expect(got.compat[j], label).toBe(allowed);
          expect(node.isAllowed(url, agent), `node ${label}`).toBe(allowed);
        });
      });
    }
  }, 60_000);
});
