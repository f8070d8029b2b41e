// Runs every examples/*.mjs script and every docs/API.md and README.md example, as a user would, so that examples cannot rot.
import { afterAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const run = promisify(execFile);

async function example(name: string, ...args: string[]): Promise<string[]> {
  if (!existsSync(join(root, 'dist', 'index.js'))) throw new Error('dist/ is missing: run `npm run build` first');
  const { stdout } = await run(process.execPath, [join(root, 'examples', name), ...args], { cwd: root, timeout: 30_000 });
  return stdout.trimEnd().split('\n');
}

describe('examples', () => {
  it('every example script has a test here', () => {
    const scripts = readdirSync(join(root, 'examples')).filter((f) => f.endsWith('.mjs')).sort();
    expect(scripts).toEqual(['acap-check.mjs', 'bulk-job.mjs', 'crawler-loop.mjs']);
  });

  it('crawler-loop.mjs fetches allowed pages, skips disallowed ones with their rule', async () => {
    const out = await example('crawler-loop.mjs');
    const summary = JSON.parse(out.at(-1)!) as Record<string, unknown>;
    expect(summary).toEqual({
      fetched: ['/', '/about', '/products/', '/products/1', '/products/2'],
      skipped: ['/private/admin', '/products/?session=42', '/private/prices'],
      sitemaps: ['/sitemap.xml'],
      crawlDelay: 0.05,
    });
    expect(out).toContain('skip  /private/admin  (robots.txt line 2: disallow: /private/)');
    expect(out).toContain('skip  /products/?session=42  (robots.txt line 3: disallow: /*?session=)');
  });

  it('bulk-job.mjs classifies a generated file in chunks and agrees with isAllowed', async () => {
    const out = await example('bulk-job.mjs', '20000', '--verify');
    expect(out[0]).toBe('urls 20000 allowed 12631 disallowed 7369');
    expect(out[1]).toMatch(/^throughput \d+ URLs\/s/);
    expect(out[2]).toBe('verify: every verdict equals robots.isAllowed');
  });

  it('bulk-job.mjs handles chunk boundaries (more than 1 MiB of URLs)', async () => {
    const out = await example('bulk-job.mjs', '60000', '--verify');
    expect(out[0]).toMatch(/^urls 60000 allowed \d+ disallowed \d+$/);
    expect(out[2]).toBe('verify: every verdict equals robots.isAllowed');
  });

  it('acap-check.mjs prints ACAP verdicts with qualifiers next to the REP verdict', async () => {
    const out = await example('acap-check.mjs');
    expect(out).toEqual([
      'ACAP version 1.0, 0 diagnostics',
      '/news/2024/story.html\tsearch-bot\tcrawl\tallow\tline=7\tsource=acap\trep=allow',
      '/news/2024/story.html\tsearch-bot\tpresent-snippet\tallow\tline=9\tsource=acap\trep=allow\tmax-length=200-chars',
      '/news/2024/story.html\tsearch-bot\tpresent-thumbnail\tdisallow\tline=10\tsource=acap\trep=allow',
      '/news/2024/story.html\tsearch-bot\tpreserve\tdisallow\tline=11\tsource=acap\trep=allow',
      '/news/2024/story.html\tarchive-bot\tpreserve\tallow\tline=14\tsource=acap\trep=allow',
      '/private/report\tsearch-bot\tcrawl\tdisallow\tline=6\tsource=acap\trep=disallow',
    ]);
  });
});

// docs/API.md: each ```js block runs as an ES module against dist/. A statement line
// `expr; // → value` (or `expr;` then a line `// → value`) asserts deep equality, with
// typed arrays compared as plain arrays.
const API_MD = join(root, 'docs', 'API.md');
const ENTRY_POINTS: Record<string, string> = {
  'robotstxt-wasm': 'dist/index.js',
  'robotstxt-wasm/fetch': 'dist/fetch/index.js',
  'robotstxt-wasm/compat': 'dist/compat.js',
  'robotstxt-wasm/pool': 'dist/pool/index.js',
};
const CHECK_PRELUDE = `import { deepStrictEqual as __equal } from 'node:assert';
const __plain = (v) => ArrayBuffer.isView(v) && !(v instanceof DataView) ? Array.from(v)
  : Array.isArray(v) ? v.map(__plain)
  : v !== null && typeof v === 'object' && [Object.prototype, null].includes(Object.getPrototypeOf(v))
    ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, __plain(x)]))
  : v;
const __check = (actual, expected, where) => __equal(__plain(actual), __plain(expected), where);
`;

interface DocBlock {
  readonly line: number;
  readonly heading: string;
  readonly code: string;
}

function docBlocks(markdown: string): DocBlock[] {
  const blocks: DocBlock[] = [];
  const lines = markdown.split('\n');
  let heading = '';
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.startsWith('#')) heading = lines[i]!.replace(/^#+\s*/, '');
    if (lines[i] !== '```js') continue;
    const start = i + 1;
    while (i + 1 < lines.length && lines[i + 1] !== '```') i++;
    blocks.push({ line: start + 1, heading, code: lines.slice(start, i + 1).join('\n') });
    i++;
  }
  return blocks;
}

/** Rewrites package imports to dist/ and `// →` comments to assertions; `doc` names the page in messages. */
function toModule(block: DocBlock, doc = 'docs/API.md'): string {
  const src = block.code
    .replace(/from '(robotstxt-wasm(?:\/\w+)?)'/g, (m, name: string) => {
      const target = ENTRY_POINTS[name];
      if (target === undefined) throw new Error(`${doc} line ${block.line}: unknown import ${name}`);
      return `from '${pathToFileURL(join(root, target)).href}'`;
    })
    // `expr;` followed by a line holding only `// → value`: join them.
    .replace(/;\n\s*\/\/ → (.+)/g, '; // → $1');
  const out = src.split('\n').map((text, k) => {
    const m = /^(\s*)(.+?);\s*\/\/ → (.+)$/.exec(text);
    if (m === null || /^(const|let|var|import|export)\b/.test(m[2]!)) return text;
    return `${m[1]}__check(${m[2]}, ${m[3]}, ${JSON.stringify(`${doc} line ${block.line + k}: ${m[2]}`)});`;
  });
  return CHECK_PRELUDE + out.join('\n');
}

/** Names exported by a TypeScript entry file (`export { a, type B } from …`, `export function c`). */
function exportedNames(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const names = new Set<string>();
  for (const [, list] of text.matchAll(/export\s*(?:type\s*)?\{([^}]*)\}/g)) {
    for (const part of list!.split(',')) {
      const name = part.trim().replace(/^type\s+/, '').split(/\s+as\s+/).pop()!.trim();
      if (name) names.add(name);
    }
  }
  for (const [, name] of text.matchAll(/export\s+(?:declare\s+)?(?:async\s+)?(?:function|class|const|interface|type)\s+(\w+)/g)) {
    names.add(name!);
  }
  return [...names].sort();
}

describe('docs/API.md', () => {
  const markdown = readFileSync(API_MD, 'utf8');
  const headings = markdown.split('\n').filter((l) => l.startsWith('### '));
  const work = mkdtempSync(join(tmpdir(), 'robotstxt-docs-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it.each([...exportedNames('src/index.ts'), ...exportedNames('src/compat.ts'), ...exportedNames('src/pool/index.ts')])('has a section for %s', (name) => {
    expect(headings.some((h) => h.includes(`\`${name}\``)), `no "### \`${name}\`" heading in docs/API.md`).toBe(true);
  });

  it.each(exportedNames('src/fetch/index.ts'))('mentions robotstxt-wasm/fetch export %s', (name) => {
    const fetchPart = markdown.slice(markdown.indexOf('## `robotstxt-wasm/fetch`'), markdown.indexOf('## `robotstxt-wasm/compat`'));
    expect(fetchPart).toContain(`\`${name}\``);
  });

  const blocks = docBlocks(markdown);
  it('has runnable examples', () => {
    expect(blocks.length).toBeGreaterThan(30);
  });

  it.each(blocks.map((b) => [`line ${b.line} (${b.heading})`, b] as const))('example at %s runs and its → values hold', async (_label, block) => {
    if (!existsSync(join(root, 'dist', 'index.js'))) throw new Error('dist/ is missing: run `npm run build` first');
    const file = join(work, `block-${block.line}.mjs`);
    writeFileSync(file, toModule(block));
    try {
      await run(process.execPath, [file], { cwd: root, timeout: 30_000 });
    } catch (error) {
      const { stderr, message } = error as { stderr?: string; message: string };
      throw new Error(`docs/API.md example at line ${block.line} failed:\n${stderr || message}`);
    }
  });
});

// README.md's library example runs too (from the repository root, where examples/ is).
describe('README.md', () => {
  const blocks = docBlocks(readFileSync(join(root, 'README.md'), 'utf8'));
  const work = mkdtempSync(join(tmpdir(), 'robotstxt-readme-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('has a runnable library example with checked values', () => {
    expect(blocks.length).toBeGreaterThan(0);
    expect(blocks.some((b) => b.code.includes('// →'))).toBe(true);
  });

  it.each(blocks.map((b) => [`line ${b.line}`, b] as const))('example at %s runs and its → values hold', async (_label, block) => {
    if (!existsSync(join(root, 'dist', 'index.js'))) throw new Error('dist/ is missing: run `npm run build` first');
    const file = join(work, `block-${block.line}.mjs`);
    writeFileSync(file, toModule(block, 'README.md'));
    try {
      await run(process.execPath, [file], { cwd: root, timeout: 30_000 });
    } catch (error) {
      const { stderr, message } = error as { stderr?: string; message: string };
      throw new Error(`README.md example at line ${block.line} failed:\n${stderr || message}`);
    }
  });
});
