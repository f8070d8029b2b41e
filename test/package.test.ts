// The published package: `npm pack` contents, zero runtime deps, and a clean install that imports and runs.
//
// Packs the built tree into a temp dir, installs the tarball offline into a fresh
// project (possible because the package has no dependencies) and uses it the way a
// consumer would: ESM import of ".", "./compat" and "./pool" (whose worker thread must
// load from node_modules too), require() on Node ≥ 20.19, the type declarations through
// "exports" and, for `moduleResolution: node10`, through "typesVersions", and the
// `robotstxt` bin. The tarball carries the docs and no path of the machine it was built on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  name: string;
  engines: { node: string };
  repository?: { type: string; url: string };
  typesVersions?: Record<string, Record<string, string[]>>;
  dependencies?: Record<string, string>;
  exports: Record<string, string | Record<string, string>>;
  bin: Record<string, string>;
};

// Published files: compiled JS and its declarations, the docs (README's relative links
// point into docs/), and the metadata files. REQUIRED is derived partly from
// package.json so a moved bin is still checked.
const ALLOWED = /^(?:dist\/.+\.(?:js|d\.ts|wasm)|docs\/.+\.md|README\.md|CHANGELOG\.md|LICENSE|package\.json)$/;
const REQUIRED = [
  'package.json', 'README.md', 'LICENSE', 'CHANGELOG.md', 'docs/API.md', 'docs/COMPAT.md',
  'docs/CLI.md', 'docs/PERFORMANCE.md', 'docs/PROFILES.md', 'docs/ACAP.md', 'docs/FETCH.md',
  'docs/RELIABILITY.md', 'docs/TESTING.md',
  'dist/index.js', 'dist/index.d.ts', 'dist/compat.js', 'dist/compat.d.ts',
  'dist/pool/index.js', 'dist/pool/index.d.ts', 'dist/pool/worker.js',
  ...Object.values(pkg.bin).map((p) => p.replace(/^\.\//, '')),
];

let work = '';
let tarball = '';
let packed: string[] = [];
let project = '';

function run(cmd: string, args: string[], cwd: string): string {
  // npm_config_* from an outer `npm test` would leak into the nested npm (e.g. a
  // different prefix); the child gets a plain environment plus PATH and HOME, and an
  // empty npm cache of its own, which proves the offline install needs nothing cached.
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME ?? work,
    NODE_NO_WARNINGS: '1',
    npm_config_cache: join(work, 'npm-cache'),
  };
  return execFileSync(cmd, args, { cwd, env, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'], timeout: 60_000 });
}

beforeAll(() => {
  for (const f of ['dist/index.js', 'dist/compat.js', 'dist/pool/index.js', ...Object.values(pkg.bin)]) {
    if (!existsSync(join(root, f))) throw new Error(`${f} is missing: run \`npm run build\` first`);
  }
  work = mkdtempSync(join(tmpdir(), 'robotstxt-pack-'));
  const out = run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], root);
  const info = JSON.parse(out.slice(out.indexOf('['))) as Array<{ filename: string; files: Array<{ path: string }> }>;
  tarball = join(work, info[0]!.filename);
  packed = info[0]!.files.map((f) => f.path).sort();

  project = join(work, 'consumer');
  run('mkdir', ['-p', project], work);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball], project);
}, 90_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('npm pack', () => {
  it('writes a tarball', () => {
    expect(existsSync(tarball)).toBe(true);
  });

  it('ships only built files, declarations, docs, README, CHANGELOG, LICENSE and package.json', () => {
    expect(packed.filter((p) => !ALLOWED.test(p))).toEqual([]);
    expect(packed.filter((p) => /^(?:src|test|assembly|bench|scripts|examples|build)\//.test(p))).toEqual([]);
  });

  it('ships every file of docs/', () => {
    const docs = readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);
    expect(docs.length).toBeGreaterThan(0);
    for (const doc of docs) expect(packed, doc).toContain(doc);
  });

  it('names its repository, so relative links resolve on the registry page', () => {
    expect(pkg.repository).toEqual({ type: 'git', url: 'git+https://github.com/robotstxt-wasm/robotstxt-wasm.git' });
  });

  it('has no path of the build machine in any shipped file', () => {
    // Absolute paths of a developer's or CI's machine mean nothing to a user.
    const machinePath = /(?:\/work\/|\/home\/[a-z]|\/root\/|\/Users\/[A-Za-z]|[A-Z]:\\Users\\)/;
    const found: string[] = [];
    for (const file of packed) {
      const text = readFileSync(join(project, 'node_modules', pkg.name, file), 'utf8');
      text.split('\n').forEach((line, i) => {
        if (machinePath.test(line)) found.push(`${file}:${i + 1}: ${line.trim().slice(0, 120)}`);
      });
    }
    expect(found).toEqual([]);
  });

  it('says in "engines" the Node that require() of its ES modules needs (20.19)', () => {
    expect(pkg.engines.node).toBe('>=20.19');
    const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
    expect(major > 20 || (major === 20 && minor >= 19), `tests run on Node ${process.versions.node}`).toBe(true);
  });

  it.each(REQUIRED)('ships %s', (file) => {
    expect(packed).toContain(file);
  });

  it('ships a .d.ts next to every .js entry point', () => {
    for (const js of packed.filter((p) => p.endsWith('.js'))) {
      expect(packed, js).toContain(js.replace(/\.js$/, '.d.ts'));
    }
  });

  it('has zero runtime dependencies', () => {
    expect(Object.keys(pkg.dependencies ?? {})).toEqual([]);
  });

  it('points every "exports" target and the bin at a shipped file', () => {
    const targets: string[] = [];
    for (const value of Object.values(pkg.exports)) {
      if (typeof value === 'string') targets.push(value);
      else targets.push(...Object.values(value));
    }
    targets.push(...Object.values(pkg.bin));
    for (const t of targets) expect(packed, t).toContain(t.replace(/^\.\//, ''));
    expect(pkg.exports['./compat'], 'package.json "exports" needs "./compat"').toBeDefined();
    expect(pkg.exports['./pool'], 'package.json "exports" needs "./pool"').toEqual({ types: './dist/pool/index.d.ts', default: './dist/pool/index.js' });
  });

  it('marks the CLI as a node script', () => {
    for (const bin of Object.values(pkg.bin)) {
      const cli = readFileSync(join(project, 'node_modules', pkg.name, bin), 'utf8');
      expect(cli.startsWith('#!/usr/bin/env node'), bin).toBe(true);
    }
  });
});

describe('installed tarball', () => {
  it('imports "." and "./compat" as ES modules', () => {
    writeFileSync(
      join(project, 'esm.mjs'),
      [
        `import { Robots, toMatchPath } from '${pkg.name}';`,
        `import robotsParser, { robotsParser as named } from '${pkg.name}/compat';`,
        `const r = Robots.parse('User-agent: *\\nDisallow: /private/\\n');`,
        `const c = robotsParser('https://example.com/robots.txt', 'User-agent: *\\nDisallow: /private/\\n');`,
        'console.log(JSON.stringify({',
        `  priv: r.isAllowed('https://example.com/private/x', 'bot'),`,
        `  pub: r.isAllowed('/public', 'bot'),`,
        `  path: toMatchPath('https://example.com/a/b?c#d'),`,
        `  compat: c.isAllowed('https://example.com/private/x', 'Bot/1.0'),`,
        `  foreign: String(c.isAllowed('https://other.example/private/x')),`,
        '  same: named === robotsParser,',
        '}));',
      ].join('\n'),
    );
    expect(JSON.parse(run('node', ['esm.mjs'], project))).toEqual({
      priv: false,
      pub: true,
      path: '/a/b?c',
      compat: false,
      foreign: 'undefined',
      same: true,
    });
  });

  it('imports "./pool" and judges a batch on a worker thread started from node_modules', () => {
    writeFileSync(
      join(project, 'pool.mjs'),
      [
        `import { Robots } from '${pkg.name}';`,
        `import { MatchPool } from '${pkg.name}/pool';`,
        `const m = Robots.parse('User-agent: *\\nDisallow: /x\\n').forAgent('bot');`,
        'const pool = new MatchPool({ threads: 2, minParallelBytes: 0 });',
        `const verdicts = await pool.matchLines(m, new TextEncoder().encode('/x\\n/y\\n/x\\n/y\\n'));`,
        'console.log(JSON.stringify({ verdicts: [...verdicts], shares: pool.lastSplit.map((s) => s.lines), threads: new Set(pool.lastSplit.map((s) => s.threadId)).size }));',
        'await pool.close();',
      ].join('\n'),
    );
    expect(JSON.parse(run('node', ['pool.mjs'], project))).toEqual({ verdicts: [0, 1, 0, 1], shares: [2, 2], threads: 2 });
  });

  it('can be require()d from CommonJS (Node ≥ 20.19: no top-level await in the graph)', () => {
    writeFileSync(
      join(project, 'cjs.cjs'),
      [
        `const { Robots } = require('${pkg.name}');`,
        `const robotsParser = require('${pkg.name}/compat').default;`,
        `const r = Robots.parse('User-agent: *\\nDisallow: /x\\n');`,
        `const c = robotsParser('http://h/robots.txt', 'User-agent: *\\nDisallow: /x\\n');`,
        `console.log(JSON.stringify([r.isAllowed('/x', 'bot'), c.isDisallowed('http://h/x')]));`,
      ].join('\n'),
    );
    expect(JSON.parse(run('node', ['cjs.cjs'], project))).toEqual([false, true]);
  });

  it('type-checks a consumer through the "exports" map', () => {
    writeFileSync(
      join(project, 'consumer.ts'),
      [
        `import { Robots, type Explanation } from '${pkg.name}';`,
        `import robotsParser from '${pkg.name}/compat';`,
        `import { MatchPool, type PoolShare } from '${pkg.name}/pool';`,
        `const e: Explanation = Robots.parse('User-agent: *').explain('/', 'bot');`,
        `const allowed: boolean | undefined = robotsParser('https://a.test/robots.txt', '').isAllowed('https://a.test/');`,
        `const shares: readonly PoolShare[] = new MatchPool({ threads: 1 }).lastSplit;`,
        'export { e, allowed, shares };',
      ].join('\n'),
    );
    const tsc = join(root, 'node_modules', '.bin', 'tsc');
    const args = ['--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022',
      '--types', 'node', '--typeRoots', join(root, 'node_modules', '@types'), 'consumer.ts'];
    expect(() => run(tsc, args, project)).not.toThrow();
  });

  it('type-checks a node10-style consumer (no "exports") of every subpath through "typesVersions"', () => {
    // node10 ignores "exports"; without typesVersions `robotstxt-wasm/compat` finds no types.
    // TypeScript 7 (ours) dropped the node10 option itself; `bundler` with
    // --resolvePackageJsonExports false is its lookup (main/types, typesVersions, files).
    expect(Object.keys(pkg.typesVersions?.['*'] ?? {}).sort()).toEqual(
      Object.keys(pkg.exports).filter((k) => k !== '.' && k !== './package.json').map((k) => k.slice(2)).sort(),
    );
    writeFileSync(
      join(project, 'node10.ts'),
      [
        `import { Robots } from '${pkg.name}';`,
        `import robotsParser, { type Robot } from '${pkg.name}/compat';`,
        `import { RobotsCache } from '${pkg.name}/fetch';`,
        `import { MatchPool } from '${pkg.name}/pool';`,
        `const r: Robot = robotsParser('https://a.test/robots.txt', 'User-agent: *');`,
        `const ok: boolean = Robots.parse('').isAllowed('/', 'bot');`,
        'export { r, ok, RobotsCache, MatchPool };',
      ].join('\n'),
    );
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    const args = [tsc, '--noEmit', '--strict', '--module', 'esnext', '--moduleResolution', 'bundler', '--resolvePackageJsonExports', 'false',
      '--target', 'es2022', '--skipLibCheck', '--types', 'node', '--typeRoots', join(root, 'node_modules', '@types'), 'node10.ts'];
    let out = '';
    try {
      out = run('node', args, project);
    } catch (error) {
      out = `${(error as { stdout?: string }).stdout ?? ''}${(error as Error).message}`;
    }
    expect(out).toBe('');
  });

  it('runs the robotstxt bin from node_modules/.bin', () => {
    writeFileSync(join(project, 'robots.txt'), 'User-agent: *\nDisallow: /private/\nAllow: /private/ok\n');
    writeFileSync(join(project, 'urls.txt'), '/private/x\n/private/ok\n/public\n');
    const bin = join(project, 'node_modules', '.bin', 'robotstxt');
    const out = run(bin, ['check', '--robots', 'robots.txt', '--agent', 'bot', 'urls.txt'], project);
    expect(out.trimEnd().split('\n')).toEqual([
      'disallow\t2\t/private/x',
      'allow\t3\t/private/ok',
      'allow\t0\t/public',
    ]);
  });
});
