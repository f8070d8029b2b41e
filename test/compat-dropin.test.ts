// robots-parser swapped for this package under npm `overrides`: packages that require it, CommonJS and ESM, get the compat function.
//
// The recipe of docs/COMPAT.md, end to end: `npm pack` this package, three stand-in
// dependents that each depend on robots-parser ^3 (simplecrawler's
// `require('robots-parser')(url, body)`, Crawlee's compiled `__importDefault(require(…))`
// and `(0, robots_parser_1.default)(…)`, and an ES `import robotsParser from
// 'robots-parser'`), a scratch app whose `overrides` replace robots-parser with the packed
// tarball, an offline install (no runtime dependencies, nothing to download), then the
// dependents' answers. A second app takes the registry form of the recipe, an
// `npm:robotstxt-wasm@^0.1.0` alias, from a registry stand-in on 127.0.0.1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { listenOnLoopback, type Loopback } from './helpers/loopback.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; version: string };

const ROBOTS_URL = 'https://shop.example/robots.txt';
const BODY = [
  'User-agent: *', //            1
  'Disallow: /cart', //          2
  'Allow: /cart/help', //        3
  'Crawl-delay: 2', //           4
  'Sitemap: https://shop.example/sitemap.xml', // 5
  '',
  'User-agent: hungrybot', //    7
  'Disallow: /', //              8
].join('\n');
const URLS = ['https://shop.example/cart/1', 'https://shop.example/cart/help', 'https://shop.example/', 'https://other.example/cart'];
const UA = 'PoliteBot/2.0';

// What robots-parser 3 answers for BODY (no RFC 9309 difference is involved).
const EXPECTED = {
  allowed: ['false', 'true', 'true', 'undefined'],
  lines: [2, 3, -1, -1],
  hungry: 'false',
  delay: 2,
  sitemaps: ['https://shop.example/sitemap.xml'],
};

// The body every stand-in runs on its parser object `r` (`call` builds it).
const ANSWERS = (call: string): string => `
  const r = ${call};
  return {
    allowed: urls.map((u) => String(r.isAllowed(u, ua))),
    lines: urls.map((u) => r.getMatchingLineNumber(u, ua)),
    hungry: String(r.isAllowed(urls[2], 'HungryBot/1.0')),
    delay: r.getCrawlDelay(ua),
    sitemaps: r.getSitemaps(),
  };`;

// Three stand-in dependents, each declaring robots-parser as a dependency as the real ones do.
const DEPENDENTS: Record<string, { type?: 'module'; main: string; source: string }> = {
  // simplecrawler: `var robotsParser = require("robots-parser")` and a direct call.
  'fake-simplecrawler': {
    main: 'index.js',
    source: [
      "'use strict';",
      "const robotsParser = require('robots-parser');",
      `exports.answers = function (robotsUrl, body, urls, ua) {${ANSWERS('robotsParser(robotsUrl, body)')}\n};`,
    ].join('\n'),
  },
  // Crawlee: TypeScript with esModuleInterop compiled to CommonJS, tslib's __importDefault.
  'fake-crawlee': {
    main: 'index.js',
    source: [
      "'use strict';",
      "Object.defineProperty(exports, '__esModule', { value: true });",
      '// What tslib.__importDefault does: keep an ES-shaped module, wrap anything else as its default.',
      'const __importDefault = (mod) => (mod && mod.__esModule ? mod : { default: mod });',
      "const robots_parser_1 = __importDefault(require('robots-parser'));",
      `exports.answers = function (robotsUrl, body, urls, ua) {${ANSWERS('(0, robots_parser_1.default)(robotsUrl, body)')}\n};`,
    ].join('\n'),
  },
  'fake-esm-crawler': {
    type: 'module',
    main: 'index.js',
    source: [
      "import robotsParser from 'robots-parser';",
      `export function answers(robotsUrl, body, urls, ua) {${ANSWERS('robotsParser(robotsUrl, body)')}\n}`,
    ].join('\n'),
  },
};

let work = '';
let tarball = '';
let app = '';

function childEnv(cache: string): NodeJS.ProcessEnv {
  // A plain environment (an outer `npm test` leaks npm_config_*) and an empty cache of its
  // own, which proves the offline install needs nothing cached.
  return { PATH: process.env.PATH, HOME: process.env.HOME ?? work, NODE_NO_WARNINGS: '1', npm_config_cache: cache };
}

function run(cmd: string, args: string[], cwd: string): string {
  try {
    return execFileSync(cmd, args, { cwd, env: childEnv(join(work, 'npm-cache')), encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'], timeout: 90_000 });
  } catch (error) {
    const e = error as { stderr?: string; stdout?: string; message: string };
    throw new Error(`${cmd} ${args.join(' ')} failed in ${cwd}:\n${e.stderr ?? ''}${e.stdout ?? ''}${e.message}`);
  }
}

/** Packs each stand-in dependent into `work` and returns `{ name: "file:<tarball>" }`. */
function packDependents(): Record<string, string> {
  const deps: Record<string, string> = {};
  for (const [name, d] of Object.entries(DEPENDENTS)) {
    const dir = join(work, 'src', name);
    mkdirSync(dir, { recursive: true });
    const manifest = { name, version: '1.0.0', main: d.main, ...(d.type ? { type: d.type } : {}), dependencies: { 'robots-parser': '^3.0.1' } };
    writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
    writeFileSync(join(dir, d.main), d.source);
    run('npm', ['pack', '--silent', '--pack-destination', work], dir);
    deps[name] = `file:${join(work, `${name}-1.0.0.tgz`)}`;
  }
  return deps;
}

/** The dependents' answers from inside `project`, one line of JSON per dependent. */
function answersIn(project: string): Record<string, unknown> {
  writeFileSync(
    join(project, 'answers.mjs'),
    [
      ...Object.keys(DEPENDENTS).map((name, i) => `import * as dep${i} from '${name}';`),
      `const args = [${JSON.stringify(ROBOTS_URL)}, ${JSON.stringify(BODY)}, ${JSON.stringify(URLS)}, ${JSON.stringify(UA)}];`,
      `console.log(JSON.stringify({ ${Object.keys(DEPENDENTS).map((name, i) => `'${name}': dep${i}.answers(...args)`).join(', ')} }));`,
    ].join('\n'),
  );
  return JSON.parse(run('node', ['answers.mjs'], project)) as Record<string, unknown>;
}

beforeAll(() => {
  for (const f of ['dist/index.js', 'dist/compat.js']) {
    if (!existsSync(join(root, f))) throw new Error(`${f} is missing: run \`npm run build\` first`);
  }
  work = mkdtempSync(join(tmpdir(), 'robotstxt-dropin-'));
  const out = run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], root);
  tarball = join(work, (JSON.parse(out.slice(out.indexOf('['))) as Array<{ filename: string }>)[0]!.filename);

  app = join(work, 'app');
  mkdirSync(app);
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify(
      {
        name: 'app',
        private: true,
        type: 'module',
        dependencies: { ...packDependents(), [pkg.name]: `file:${tarball}` },
        // The switch: every robots-parser in the tree becomes this package.
        overrides: { 'robots-parser': `file:${tarball}` },
      },
      null,
      2,
    ),
  );
  run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], app);
}, 180_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('robots-parser replaced through npm overrides (offline, packed tarball)', () => {
  it('installs this package under the name robots-parser', () => {
    const installed = JSON.parse(readFileSync(join(app, 'node_modules', 'robots-parser', 'package.json'), 'utf8')) as { name: string };
    expect(installed.name).toBe(pkg.name);
  });

  it("answers simplecrawler's require(), Crawlee's __importDefault and an ES import alike", () => {
    expect(answersIn(app)).toEqual({
      'fake-simplecrawler': EXPECTED,
      'fake-crawlee': EXPECTED,
      'fake-esm-crawler': EXPECTED,
    });
  });

  it('keeps the named exports of the root and the compat entry for require() and import', () => {
    writeFileSync(
      join(app, 'shape.cjs'),
      [
        `const root = require('${pkg.name}');`,
        `const compat = require('${pkg.name}/compat');`,
        "const r = root.Robots.parse('User-agent: *\\nDisallow: /x\\n');",
        'console.log(JSON.stringify({',
        "  rootCall: typeof root, rootDefault: root.default === root, rootAllowed: r.isAllowed('/x', 'bot'),",
        "  rootToken: root.isValidProductToken('bot'),",
        '  compatCall: typeof compat, compatDefault: compat.default === compat, compatNamed: compat.robotsParser === compat,',
        "  compatReduce: compat.reduceUserAgent('Sams-Bot/1.0'),",
        "  compatAnswer: compat('http://h/robots.txt', 'User-agent: *\\nDisallow: /x').isAllowed('http://h/x'),",
        '}));',
      ].join('\n'),
    );
    expect(JSON.parse(run('node', ['shape.cjs'], app))).toEqual({
      rootCall: 'function', rootDefault: true, rootAllowed: false, rootToken: true,
      compatCall: 'function', compatDefault: true, compatNamed: true, compatReduce: 'sams-bot', compatAnswer: false,
    });
    writeFileSync(
      join(app, 'shape.mjs'),
      [
        `import robotsParser, { Robots } from '${pkg.name}';`,
        `import compat, { robotsParser as named } from '${pkg.name}/compat';`,
        "console.log(JSON.stringify([typeof robotsParser, Robots.parse('User-agent: *\\nDisallow: /').isAllowed('/a', 'b'), compat === named, robotsParser === compat]));",
      ].join('\n'),
    );
    expect(JSON.parse(run('node', ['shape.mjs'], app))).toEqual(['function', false, true, true]);
  });

  it("type-checks code written against robots-parser's types (the Robot type, the default import)", () => {
    writeFileSync(
      join(app, 'crawler.ts'),
      [
        "import robotsParser, { type Robot } from 'robots-parser';",
        `import type { Robot as CompatRobot } from '${pkg.name}/compat';`,
        "const robot: Robot = robotsParser('https://a.test/robots.txt', 'User-agent: *');",
        'const same: CompatRobot = robot;',
        "const allowed: boolean | undefined = robot.isAllowed('https://a.test/', 'Bot');",
        'const delay: number | undefined = same.getCrawlDelay();',
        'export { allowed, delay };',
      ].join('\n'),
    );
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    run('node', [tsc, '--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022',
      '--types', 'node', '--typeRoots', join(root, 'node_modules', '@types'), 'crawler.ts'], app);
  });
});

describe('robots-parser replaced through an npm: alias (registry on 127.0.0.1)', () => {
  let registry: Loopback | undefined;

  afterAll(async () => {
    await registry?.close();
  });

  it(`installs "npm:${pkg.name}@^${pkg.version}" for robots-parser and the dependents use it`, async () => {
    const bytes = readFileSync(tarball);
    const file = `${pkg.name}-${pkg.version}.tgz`;
    let origin = '';
    // Just enough of the registry protocol for npm: the package document and the tarball.
    const server = createServer((req, res) => {
      if (req.url === `/${pkg.name}`) {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({
          name: pkg.name,
          'dist-tags': { latest: pkg.version },
          versions: {
            [pkg.version]: {
              name: pkg.name,
              version: pkg.version,
              dist: {
                tarball: `${origin}/${file}`,
                shasum: createHash('sha1').update(bytes).digest('hex'),
                integrity: `sha512-${createHash('sha512').update(bytes).digest('base64')}`,
              },
            },
          },
        }));
      } else if (req.url === `/${file}`) {
        res.setHeader('content-type', 'application/octet-stream');
        res.end(bytes);
      } else {
        res.statusCode = 404;
        res.end(JSON.stringify({ error: 'not found' }));
      }
    });
    registry = await listenOnLoopback(server);
    origin = registry.origin;

    const aliased = join(work, 'aliased');
    mkdirSync(aliased);
    const deps = Object.fromEntries(Object.keys(DEPENDENTS).map((name) => [name, `file:${join(work, `${name}-1.0.0.tgz`)}`]));
    writeFileSync(
      join(aliased, 'package.json'),
      JSON.stringify({ name: 'aliased', private: true, dependencies: deps, overrides: { 'robots-parser': `npm:${pkg.name}@^${pkg.version}` } }),
    );
    // Asynchronous: the registry answers from this process's event loop.
    await promisify(execFile)('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--registry', `${origin}/`], {
      cwd: aliased,
      env: childEnv(join(work, 'npm-cache-aliased')),
      timeout: 90_000,
    });
    const installed = JSON.parse(readFileSync(join(aliased, 'node_modules', 'robots-parser', 'package.json'), 'utf8')) as { name: string };
    expect(installed.name).toBe(pkg.name);
    expect(answersIn(aliased)).toEqual({
      'fake-simplecrawler': EXPECTED,
      'fake-crawlee': EXPECTED,
      'fake-esm-crawler': EXPECTED,
    });
  }, 120_000);
});
