// Builds the tester page into one self-contained HTML file (default tester/dist/index.html): `node scripts/build-tester.mjs [--out DIR]`.
//
// The page's script and the engine (src/, the Wasm bytes inlined by scripts/embed-wasm.mjs)
// are bundled by esbuild into ONE classic inline script: Chromium refuses module scripts
// on file:// URLs, so a page made of <script type=module src> files would not open from
// disk. The stylesheet is inlined too, so the folder needs no server and no network.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const source = join(root, 'tester', 'src');

function outDir(argv) {
  const at = argv.indexOf('--out');
  if (at === -1) return join(root, 'tester', 'dist');
  const dir = argv[at + 1];
  if (dir === undefined || dir.startsWith('--')) throw new Error('--out needs a directory, e.g. --out tester/dist');
  return resolve(dir);
}

/** Text placed inside an inline <script> or <style> must not close the element early. */
function checkInline(text, tag, what) {
  if (new RegExp(`</${tag}`, 'i').test(text)) throw new Error(`${what} contains "</${tag}", which would end the inline <${tag}> early`);
  return text;
}

export async function buildTester(dir) {
  if (!existsSync(join(root, 'src', 'wasm', 'bytes.ts'))) {
    throw new Error('src/wasm/bytes.ts is missing: run `npm run build` first (it inlines the Wasm bytes)');
  }
  const result = await build({
    entryPoints: [join(source, 'main.ts')],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    charset: 'utf8',
    write: false,
    logLevel: 'warning',
  });
  const script = checkInline(result.outputFiles[0].text, 'script', 'the bundled script');
  const style = checkInline(readFileSync(join(source, 'style.css'), 'utf8'), 'style', 'style.css');
  const template = readFileSync(join(source, 'index.html'), 'utf8');
  for (const marker of ['/*@STYLE@*/', '/*@SCRIPT@*/']) {
    if (template.split(marker).length !== 2) throw new Error(`tester/src/index.html must hold ${marker} exactly once`);
  }
  // Replacer functions: the bundle holds `$&`-like sequences that a replacement string would expand.
  const html = template.replace('/*@STYLE@*/', () => style).replace('/*@SCRIPT@*/', () => script);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'index.html');
  writeFileSync(file, html);
  return { file, bytes: Buffer.byteLength(html) };
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const { file, bytes } = await buildTester(outDir(process.argv.slice(2)));
    process.stdout.write(`tester page: ${file} (${(bytes / 1024).toFixed(0)} KiB); open it in a browser, from disk or any static host\n`);
  } catch (error) {
    process.stderr.write(`build-tester: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
