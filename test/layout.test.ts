// The source layout stays what it claims: data flows forward through layers that never import back up.
//
// The pipeline is body → parse/ (lexer, grouping policy) → rules/ (pattern normaliser,
// compile) → table/ (the binary spec and its encoder) → wasm/ (the engine) → verdicts
// (matcher.ts). A module may import only from its own layer and from the layers listed as
// below it here, so for instance the lexer never learns about compiling, the table encoder
// never about patterns as written, and the matcher never compiles. The test reads the
// import statements of src/ itself (not dist/), so it needs no build.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');

/** Layer of a file, by its path under src/ (first match wins). */
const LAYERS: ReadonlyArray<readonly [layer: string, test: RegExp]> = [
  ['errors', /^errors\.ts$/],
  ['table', /^table\//],
  ['parse', /^parse\//],
  ['wasm', /^wasm\//],
  ['matcher', /^(matcher|multi-agent)\.ts$/],
  ['rules', /^rules\//],
  ['pool', /^pool\//],
  ['acap', /^acap\//],
  ['paths', /^paths\.ts$/],
  ['robots', /^robots\.ts$/],
  ['lint', /^lint\//],
  ['compat', /^compat(-url)?\.ts$/],
  ['fetch', /^fetch\//],
  ['index', /^index\.ts$/],
  ['commonjs', /^commonjs\.ts$/],
  ['cli', /^cli\//],
];

/** What each layer may import besides itself: only layers further down the pipeline or shared specs. */
const MAY_IMPORT: Readonly<Record<string, readonly string[]>> = {
  errors: [],
  table: [],
  parse: ['errors'],
  wasm: ['table'],
  matcher: ['parse', 'wasm', 'table', 'errors'],
  rules: ['parse', 'table', 'matcher', 'errors'],
  pool: ['matcher', 'wasm', 'parse', 'errors'],
  acap: ['parse', 'rules', 'table', 'wasm', 'errors'],
  paths: ['parse', 'rules', 'wasm', 'errors'],
  robots: ['parse', 'rules', 'matcher', 'acap', 'errors'],
  lint: ['robots', 'parse', 'rules', 'acap', 'errors'],
  compat: ['robots', 'matcher', 'parse', 'errors'],
  fetch: ['robots', 'parse', 'errors'],
  index: ['robots', 'matcher', 'parse', 'paths', 'compat', 'rules', 'table', 'wasm', 'acap', 'lint'],
  commonjs: ['index', 'compat'],
  cli: ['index', 'robots', 'matcher', 'parse', 'rules', 'table', 'wasm', 'pool', 'fetch', 'paths', 'errors', 'acap', 'compat', 'lint'],
};

function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files.push(...sourceFiles(path));
    else if (name.endsWith('.ts')) files.push(path);
  }
  return files;
}

/** The file's path under src/ with '/' separators. */
function srcPath(file: string): string {
  return relative(src, file).split(sep).join('/');
}

function layerOf(path: string): string {
  const found = LAYERS.find(([, test]) => test.test(path));
  if (found === undefined) throw new Error(`src/${path} belongs to no layer: add it to LAYERS in test/layout.test.ts`);
  return found[0];
}

/** Relative module specifiers of static imports, re-exports and dynamic imports, resolved to paths under src/. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [
    ...text.matchAll(/^\s*(?:import|export)\b[^;'"]*?\bfrom\s+['"](\.{1,2}\/[^'"]+)['"]/gm),
    ...text.matchAll(/^\s*import\s+['"](\.{1,2}\/[^'"]+)['"]/gm),
    ...text.matchAll(/\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g),
  ].map((m) => m[1]!);
  return specs.map((spec) => srcPath(resolve(dirname(file), spec.replace(/\.js$/, '.ts'))));
}

const files = sourceFiles(src);
const edges = files.flatMap((file) => importsOf(file).map((to) => ({ from: srcPath(file), to })));

describe('src/ layout', () => {
  it('finds the source files and their imports (the parser below is not blind)', () => {
    expect(files.length).toBeGreaterThan(40);
    expect(edges).toContainEqual({ from: 'robots.ts', to: 'parse/lexer.ts' });
    expect(edges).toContainEqual({ from: 'rules/compile.ts', to: 'table/encode.ts' });
  });

  it('puts every file in a layer and every import inside src/', () => {
    for (const file of files) layerOf(srcPath(file));
    for (const { from, to } of edges) expect(to.startsWith('..'), `src/${from} imports ${to}, outside src/`).toBe(false);
  });

  it('imports only forward: no layer calls up the pipeline', () => {
    const backwards: string[] = [];
    for (const { from, to } of edges) {
      const a = layerOf(from);
      const b = layerOf(to);
      if (a !== b && !MAY_IMPORT[a]!.includes(b)) backwards.push(`src/${from} (${a}) imports src/${to} (${b})`);
    }
    expect(backwards, 'imports against the layer order').toEqual([]);
  });

  it('has an acyclic layer order (so "below" means something)', () => {
    const visiting = new Set<string>();
    const done = new Set<string>();
    const visit = (layer: string, path: string[]): void => {
      if (done.has(layer)) return;
      if (visiting.has(layer)) throw new Error(`layer cycle: ${[...path, layer].join(' → ')}`);
      visiting.add(layer);
      for (const next of MAY_IMPORT[layer]!) visit(next, [...path, layer]);
      visiting.delete(layer);
      done.add(layer);
    };
    for (const [layer] of LAYERS) expect(() => visit(layer, []), layer).not.toThrow();
  });

  it('keeps at most 10 files at the root of src/', () => {
    const rootFiles = readdirSync(src).filter((name) => statSync(join(src, name)).isFile());
    expect(rootFiles.length, rootFiles.join(', ')).toBeLessThanOrEqual(10);
  });

  it('opens each source file with a line saying its job', () => {
    const assembly = join(root, 'assembly');
    for (const file of [...files, ...sourceFiles(assembly)]) {
      const lines = readFileSync(file, 'utf8').split('\n');
      const first = lines[0]!.startsWith('#!') ? lines[1]! : lines[0]!;
      expect(first, relative(root, file)).toMatch(/^\/\/ \S.{10,}/);
    }
  });
});
