// Crawlee's own RobotsTxtFile (@crawlee/utils) with robots-parser switched to this package by npm `overrides`: same answers as with robots-parser, except documented rows.
//
// The recipe of docs/COMPAT.md applied to the real dependent, offline: `npm pack` this
// package and @crawlee/utils (as installed by `npm ci`), a scratch app depending on the
// latter with `overrides: { "robots-parser": <this package> }`, `npm install --offline`.
// The packed @crawlee/utils declares only its robots-parser dependency, so nothing needs
// downloading; its other dependencies (tslib, @apify/log, …) resolve from this
// repository's node_modules through NODE_PATH. A child process then loads
// `RobotsTxtFile` from both installs (the switched one and the untouched one in this
// repository's node_modules) and compares `from(url, body).isAllowed` and `getSitemaps`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; version: string };
const crawleeDir = join(root, 'node_modules', '@crawlee', 'utils');

interface Site {
  readonly name: string;
  readonly robotsUrl: string;
  readonly body: string;
  readonly urls: readonly string[];
}

const EXAMPLE_URLS = readFileSync(join(root, 'examples', 'urls.txt'), 'utf8').split('\n').filter((u) => u !== '');

const SITES: readonly Site[] = [
  {
    // The README's example file with its URL list.
    name: 'examples/robots.txt',
    robotsUrl: 'https://www.example.com/robots.txt',
    body: readFileSync(join(root, 'examples', 'robots.txt'), 'utf8'),
    urls: [...EXAMPLE_URLS, 'https://www.example.com/robots.txt', 'https://other.example/search', 'http://www.example.com/search'],
  },
  {
    // The ACAP fixture: a news site whose conventional records are read as well.
    name: 'test/fixtures/acap/news-site.txt',
    robotsUrl: 'https://news.example/robots.txt',
    body: readFileSync(join(root, 'test', 'fixtures', 'acap', 'news-site.txt'), 'utf8'),
    urls: ['https://news.example/', 'https://news.example/private/x', 'https://news.example/archive/2020/a.html', 'https://news.example/robots.txt'],
  },
  {
    // A shop: several groups, wildcards, sitemaps on this host, another host and another scheme.
    name: 'shop',
    robotsUrl: 'https://shop.example/robots.txt',
    body: [
      'User-agent: *', //                       1
      'Disallow: /cart', //                     2
      'Allow: /cart/help', //                   3
      'Disallow: /*?sort=', //                  4
      'Disallow: /*.json$', //                  5
      '',
      'User-agent: Googlebot', //               7
      'Disallow: /beta/', //                    8
      '',
      'User-agent: hungrybot', //               10
      'Disallow: /', //                         11
      '',
      'Sitemap: https://shop.example/sitemap.xml',
      'Sitemap: https://cdn.shop.example/sitemap-2.xml',
      'Sitemap: ftp://shop.example/sitemap.xml',
    ].join('\n'),
    urls: [
      'https://shop.example/', 'https://shop.example/cart', 'https://shop.example/cart/help', 'https://shop.example/list?sort=price',
      'https://shop.example/api/items.json', 'https://shop.example/api/items.json?x', 'https://shop.example/beta/new',
      'https://SHOP.example:443/cart', 'https://shop.example/a/../cart/1', 'https://shop.example/cart#top',
    ],
  },
  {
    // Documented differences (docs/COMPAT.md rows 1, 2, 5 and 7) next to agreeing URLs.
    name: 'documented differences',
    robotsUrl: 'https://rfc.example/robots.txt',
    body: [
      'User-agent: rowfive', //       1
      'Crawl-delay: 5', //            2
      'User-agent: rowfive-b', //     3
      'Disallow: /five', //           4
      '',
      'User-agent: *', //             6
      'Disallow: /', //               7
      'Allow: /open/', //             8
      'Disallow: /baz', //            9
      'Allow: /baz/ok', //            10
      '',
      'User-agent: rowseven', //      12
    ].join('\n'),
    urls: ['https://rfc.example/robots.txt', 'https://rfc.example/%6Fpen/a', 'https://rfc.example/open/a', 'https://rfc.example/five', 'https://rfc.example/baz/ok', 'https://rfc.example/x'],
  },
];

const AGENTS = [undefined, 'Googlebot', 'hungrybot/2.0', 'rowfive', 'rowseven', 'OtherBot/1.0'] as const;

/**
 * Where Crawlee answers differently once switched, each a row of docs/COMPAT.md
 * ("Where it answers differently"). Keyed `site | url | agent`.
 */
const DOCUMENTED: Readonly<Record<string, string>> = {
  // Row 1: /robots.txt is implicitly allowed (RFC 9309 §2.2.2); robots-parser disallows it under `Disallow: /`.
  'documented differences | https://rfc.example/robots.txt | *': 'row 1',
  'documented differences | https://rfc.example/robots.txt | Googlebot': 'row 1',
  'documented differences | https://rfc.example/robots.txt | hungrybot/2.0': 'row 1',
  'documented differences | https://rfc.example/robots.txt | OtherBot/1.0': 'row 1',
  // Row 2: /%6Fpen/ is /open/ (escapes of unreserved characters decoded before comparison).
  'documented differences | https://rfc.example/%6Fpen/a | *': 'row 2',
  'documented differences | https://rfc.example/%6Fpen/a | Googlebot': 'row 2',
  'documented differences | https://rfc.example/%6Fpen/a | hungrybot/2.0': 'row 2',
  'documented differences | https://rfc.example/%6Fpen/a | OtherBot/1.0': 'row 2',
  // Row 5: the Crawl-delay record does not end rowfive's group; rowfive shares `Disallow: /five`.
  'documented differences | https://rfc.example/five | rowfive': 'row 5',
  // Row 7: the last group, rule-less, allows everything for rowseven instead of falling back to `*`.
  'documented differences | https://rfc.example/robots.txt | rowseven': 'rows 1 and 7',
  'documented differences | https://rfc.example/%6Fpen/a | rowseven': 'rows 2 and 7',
  'documented differences | https://rfc.example/five | rowseven': 'row 7',
  'documented differences | https://rfc.example/x | rowseven': 'row 7',
};

let work = '';
let app = '';

function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): string {
  try {
    return execFileSync(cmd, args, {
      cwd,
      // A plain environment (an outer `npm test` leaks npm_config_*), an empty npm cache.
      env: { PATH: process.env.PATH, HOME: process.env.HOME ?? work, NODE_NO_WARNINGS: '1', npm_config_cache: join(work, 'npm-cache'), ...env },
      encoding: 'utf8',
      stdio: ['pipe', 'pipe', 'pipe'],
      timeout: 120_000,
    });
  } catch (error) {
    const e = error as { stderr?: string; stdout?: string; message: string };
    throw new Error(`${cmd} ${args.join(' ')} failed in ${cwd}:\n${e.stderr ?? ''}${e.stdout ?? ''}${e.message}`);
  }
}

function pack(dir: string): string {
  const out = run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], dir);
  return join(work, (JSON.parse(out.slice(out.indexOf('['))) as Array<{ filename: string }>)[0]!.filename);
}

interface Answers {
  readonly robotsParserFile: string;
  readonly switchedName: string;
  readonly switchedIsCompat: boolean;
  readonly sites: Record<string, { allowed: Record<string, [boolean, boolean, boolean]>; sitemaps: [string[], string[]] }>;
}

/** Runs Crawlee's RobotsTxtFile from both installs inside `app`. */
function answers(): Answers {
  const script = `
    const path = require('node:path');
    const switched = require('@crawlee/utils');
    const original = require(${JSON.stringify(crawleeDir)});
    const reference = require(${JSON.stringify(join(root, 'node_modules', 'robots-parser'))});
    const crawleeMain = require.resolve('@crawlee/utils');
    const robotsParserFile = require.resolve('robots-parser', { paths: [path.dirname(crawleeMain)] });
    const sites = {};
    for (const site of ${JSON.stringify(SITES)}) {
      const a = switched.RobotsTxtFile.from(site.robotsUrl, site.body);
      const b = original.RobotsTxtFile.from(site.robotsUrl, site.body);
      const plain = reference(site.robotsUrl, site.body);
      const allowed = {};
      for (const url of site.urls) for (const ua of ${JSON.stringify(AGENTS.map((a) => a ?? null))}) {
        const agent = ua === null ? undefined : ua;
        allowed[url + ' | ' + (agent ?? '*')] = [a.isAllowed(url, agent), b.isAllowed(url, agent), plain.isAllowed(url, agent) ?? true];
      }
      sites[site.name] = { allowed, sitemaps: [a.getSitemaps(), b.getSitemaps()] };
    }
    const switchedParser = switched.RobotsTxtFile.from('https://a.test/robots.txt', '').robots;
    console.log('ANSWERS ' + JSON.stringify({
      robotsParserFile,
      switchedName: require(path.join(path.dirname(path.dirname(robotsParserFile)), 'package.json')).name,
      switchedIsCompat: typeof switchedParser.robots === 'object' && typeof switchedParser.robots.forAgent === 'function',
      sites,
    }));`;
  writeFileSync(join(app, 'answers.cjs'), script);
  const out = run('node', ['answers.cjs'], app, { NODE_PATH: join(root, 'node_modules') });
  const line = out.split('\n').find((l) => l.startsWith('ANSWERS '));
  if (line === undefined) throw new Error(`answers.cjs printed no ANSWERS line:\n${out}`);
  return JSON.parse(line.slice('ANSWERS '.length)) as Answers;
}

beforeAll(() => {
  for (const f of ['dist/index.js', 'dist/compat.js', 'dist/commonjs.js']) {
    if (!existsSync(join(root, f))) throw new Error(`${f} is missing: run \`npm run build\` first`);
  }
  if (!existsSync(join(crawleeDir, 'package.json'))) {
    throw new Error('node_modules/@crawlee/utils is missing: it is a devDependency, run `npm ci`');
  }
  work = mkdtempSync(join(tmpdir(), 'robotstxt-crawlee-'));
  const tarball = pack(root);

  // @crawlee/utils as installed, declaring only its robots-parser dependency (the one the
  // override replaces) so that the install needs no registry.
  const crawleeCopy = join(work, 'crawlee-utils');
  cpSync(crawleeDir, crawleeCopy, { recursive: true, dereference: true });
  const manifest = JSON.parse(readFileSync(join(crawleeCopy, 'package.json'), 'utf8')) as Record<string, unknown> & { dependencies: Record<string, string> };
  const range = manifest.dependencies['robots-parser'];
  if (range === undefined) throw new Error('@crawlee/utils no longer depends on robots-parser: this test has nothing to switch');
  manifest.dependencies = { 'robots-parser': range };
  delete manifest.scripts;
  writeFileSync(join(crawleeCopy, 'package.json'), JSON.stringify(manifest, null, 2));
  const crawleeTarball = pack(crawleeCopy);

  app = join(work, 'app');
  mkdirSync(app);
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({
      name: 'crawler-app',
      private: true,
      dependencies: { '@crawlee/utils': `file:${crawleeTarball}` },
      // The switch (docs/COMPAT.md): every robots-parser in the tree becomes this package.
      overrides: { 'robots-parser': `file:${tarball}` },
    }, null, 2),
  );
  run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], app);
}, 240_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('Crawlee RobotsTxtFile with robots-parser switched by npm overrides', () => {
  let result: Answers;
  beforeAll(() => {
    result = answers();
  }, 60_000);

  it("resolves Crawlee's require('robots-parser') to this package, which hands it the compat parser", () => {
    expect(result.switchedName).toBe(pkg.name);
    expect(result.robotsParserFile.startsWith(join(app, 'node_modules', 'robots-parser'))).toBe(true);
    expect(result.switchedIsCompat).toBe(true);
  });

  it.each(SITES.map((s) => s.name))('%s: isAllowed agrees with robots-parser outside documented rows', (name) => {
    const { allowed } = result.sites[name]!;
    const differences: string[] = [];
    for (const [key, [switched, original, plain]] of Object.entries(allowed)) {
      // Crawlee unswitched is robots-parser's answer with `undefined` read as allowed.
      expect(original, `unswitched Crawlee vs robots-parser: ${key}`).toBe(plain);
      if (switched !== original) differences.push(`${name} | ${key}`);
    }
    const documented = Object.keys(DOCUMENTED).filter((k) => k.startsWith(`${name} | `));
    expect(differences.sort()).toEqual(documented.sort());
  });

  it.each(SITES.map((s) => s.name))('%s: getSitemaps agrees (Crawlee filters them alike)', (name) => {
    const [switched, original] = result.sites[name]!.sitemaps;
    expect(switched).toEqual(original);
  });

  it('keeps the shop sitemap filter: same host only, http(s) only', () => {
    expect(result.sites.shop!.sitemaps[0]).toEqual(['https://shop.example/sitemap.xml']);
  });
});
