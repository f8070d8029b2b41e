// The built CLI's `fetch --out DIR` against servers on 127.0.0.1: the directory it writes makes `classify --robots-dir` agree with `classify --fetch`.
//
// RFC 9309 §2.3.1: 2xx → the file's rules, 4xx → unavailable (allow all), 5xx / network →
// unreachable (disallow all). The directory holds a file per ok origin and an outcomes.tsv
// row per origin; classify reads both. Needs `npm run build` (npm test runs it first).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, status, text, type Handler, type TestServer } from './helpers/http-server.js';
import { CLI, spawnCli, type CliRun } from './helpers/cli.js';

const cli = (args: string[], input = ''): Promise<CliRun> => spawnCli(args, input);
const AGENT = 'ExampleBot';
const BODY = 'User-agent: *\nDisallow: /private/\n\nUser-agent: ExampleBot\nDisallow: /*.pdf$\nAllow: /private/ok\n';



let dir = '';
const servers: TestServer[] = [];
async function serve(robots: Handler): Promise<TestServer> {
  const server = await startServer({ '/robots.txt': robots });
  servers.push(server);
  return server;
}
/** A port nothing listens on: a server started and closed again (connection refused). */
async function closedPort(): Promise<number> {
  const server = await startServer();
  await server.close();
  return server.port;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'robotstxt-cli-fetch-out-'));
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('fetch --out DIR', () => {
  it('gives classify --robots-dir DIR the verdicts of classify --fetch: ok, 404, 500 and unreachable origins', async () => {
    const ok = await serve(text(BODY));
    const gone = await serve(status(404));
    const failing = await serve(status(500));
    const refused = await closedPort();
    const paths = ['/', '/private/a', '/private/ok', '/doc.pdf', '/robots.txt'];
    const origins = [ok.origin, ok.localhostOrigin, gone.origin, failing.origin, `http://127.0.0.1:${refused}`];
    const urls = [
      ...origins.flatMap((o) => paths.map((p) => `${o}${p}`)),
      '/relative/x', // no origin: --missing decides in both modes
      `HTTP://LOCALHOST:${ok.port}/private/a`,
    ];
    const input = `${urls.join('\n')}\n`;
    const out = join(dir, 'equal');
    const fetched = await cli(['fetch', '--out', out, '--quiet'], input);
    expect(fetched.stderr).toBe('');
    expect(fetched.status).toBe(0);
    expect(readdirSync(out).sort()).toEqual([`127.0.0.1_${ok.port}.txt`, `localhost_${ok.port}.txt`, 'outcomes.tsv']);
    expect(readFileSync(join(out, `127.0.0.1_${ok.port}.txt`), 'utf8')).toBe(BODY);
    expect(readFileSync(join(out, 'outcomes.tsv'), 'utf8').split('\n')).toEqual([
      'origin\toutcome\tstatus\tfile\treason',
      `${ok.origin}\tok\t200\t127.0.0.1_${ok.port}.txt\tsuccess`,
      `${ok.localhostOrigin}\tok\t200\tlocalhost_${ok.port}.txt\tsuccess`,
      `${gone.origin}\tunavailable\t404\t127.0.0.1_${gone.port}.txt\tclient-error`,
      `${failing.origin}\tunreachable\t500\t127.0.0.1_${failing.port}.txt\tserver-error`,
      `http://127.0.0.1:${refused}\tunreachable\t-\t127.0.0.1_${refused}.txt\tnetwork-error`,
      '',
    ]);
    // Each origin was asked once.
    expect(ok.hits('/robots.txt')).toBe(2); // two authorities: 127.0.0.1 and localhost
    expect([gone.hits('/robots.txt'), failing.hits('/robots.txt')]).toEqual([1, 1]);

    for (const missing of ['allow', 'disallow']) {
      const web = await cli(['classify', '--fetch', '--agent', AGENT, '--missing', missing, '--quiet'], input);
      const files = await cli(['classify', '--robots-dir', out, '--agent', AGENT, '--missing', missing, '--quiet'], input);
      expect(web.status).toBe(0);
      expect(files.stderr).toBe('');
      expect(files.stdout).toBe(web.stdout);
      // The outcomes are really there: 404 allows, 500 and refused disallow, with line 0.
      const rows = web.stdout.split('\n');
      expect(rows[2 * 5 + 1]).toBe(`allow\t0\t127.0.0.1:${gone.port}\t${gone.origin}/private/a`);
      expect(rows[3 * 5 + 1]).toBe(`disallow\t0\t127.0.0.1:${failing.port}\t${failing.origin}/private/a`);
      expect(rows[4 * 5 + 1]).toBe(`disallow\t0\t127.0.0.1:${refused}\thttp://127.0.0.1:${refused}/private/a`);
    }
  });

  it('reads a URL file, fetches each origin once whatever its spelling, and prints its summary', async () => {
    const ok = await serve(text(BODY));
    const file = join(dir, 'urls.txt');
    // http://localhost:PORT and its uppercase spelling are one origin: fetched once.
    writeFileSync(file, `${ok.origin}/a\nHTTP://LocalHost:${ok.port}/b\n${ok.localhostOrigin}/c\nftp://x.example/\n`);
    const out = join(dir, 'named');
    const r = await cli(['fetch', '--out', out, file]);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe(
      `robots.txt: 2 ok, 0 unavailable (all allowed), 0 unreachable (all disallowed)\n4 urls, 2 files written to ${out}, outcomes in ${join(out, 'outcomes.tsv')}\n`,
    );
    expect(ok.hits('/robots.txt')).toBe(2);
    expect(existsSync(join(out, `localhost_${ok.port}.txt`))).toBe(true);
  });

  it('a later run replaces what an earlier one wrote: a stale file goes when the origin turns unreachable', async () => {
    const server = await serve(text(BODY));
    const out = join(dir, 'rerun');
    const url = `${server.origin}/private/a\n`;
    await cli(['fetch', '--out', out, '--quiet'], url);
    expect(existsSync(join(out, `127.0.0.1_${server.port}.txt`))).toBe(true);
    server.route('/robots.txt', status(503));
    await cli(['fetch', '--out', out, '--quiet'], url);
    expect(existsSync(join(out, `127.0.0.1_${server.port}.txt`))).toBe(false);
    const outcomes = readFileSync(join(out, 'outcomes.tsv'), 'utf8').split('\n');
    expect(outcomes.slice(1)).toEqual([
      `${server.origin}\tok\t200\t127.0.0.1_${server.port}.txt\tsuccess`,
      `${server.origin}\tunreachable\t503\t127.0.0.1_${server.port}.txt\tserver-error`,
      '',
    ]);
    // The last row per file counts: the host is now disallowed, line 0.
    const r = await cli(['classify', '--robots-dir', out, '--agent', AGENT, '--quiet'], `${server.origin}/public\n`);
    expect(r.stdout).toBe(`disallow\t0\t127.0.0.1:${server.port}\t${server.origin}/public\n`);
  });

  it('a host under both http:// and https:// has one file: the origin seen first is fetched, the other counted as skipped', async () => {
    const server = await serve(text(BODY));
    const out = join(dir, 'schemes');
    const r = await cli(['fetch', '--out', out], `${server.origin}/x\nhttps://127.0.0.1:${server.port}/y\n`);
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/, 1 origins skipped \(their host's file came from the other scheme\)\n$/);
    expect(readFileSync(join(out, 'outcomes.tsv'), 'utf8').split('\n')).toHaveLength(3); // header, one row, ''
  });

  it('refuses bad arguments with a message and status 2', async () => {
    const cases: [string[], RegExp][] = [
      [['fetch'], /--out DIR is required/],
      [['fetch', '--out', dir, '--agent', 'Bot/1.0'], /--agent .*"Bot\/1\.0".*did you mean --agent Bot\?/],
      [['fetch', '--out', dir, '--concurrency', '0'], /--concurrency must be a positive integer, got "0"/],
      [['fetch', '--out', dir, '--robots-dir', dir], /--robots-dir belongs to classify, not fetch/],
    ];
    for (const [args, message] of cases) {
      const r = await cli(args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(message);
    }
  });
});

describe('classify --robots-dir reads DIR/outcomes.tsv', () => {
  it('unavailable hosts are allowed and unreachable ones disallowed (line 0) whatever --missing says; a file wins over a row', async () => {
    const out = join(dir, 'handmade');
    rmSync(out, { recursive: true, force: true });
    await cli(['fetch', '--out', out, '--quiet'], ''); // creates DIR and the header
    writeFileSync(join(out, 'outcomes.tsv'), [
      'origin\toutcome\tstatus\tfile\treason',
      'https://gone.example\tunavailable\t404\tgone.example.txt\tclient-error',
      'https://down.example\tunreachable\t503\tdown.example.txt\tserver-error',
      'https://back.example\tunreachable\t-\tback.example.txt\tnetwork-error',
      '',
    ].join('\n'));
    writeFileSync(join(out, 'back.example.txt'), 'User-agent: *\nDisallow: /x\n');
    const input = 'https://gone.example/a\nhttps://down.example/a\nhttps://down.example/robots.txt\nhttps://back.example/a\nhttps://none.example/a\n';
    const r = await cli(['classify', '--robots-dir', out, '--agent', AGENT, '--missing', 'disallow', '--quiet'], input);
    expect(r.stdout.split('\n')).toEqual([
      'allow\t0\tgone.example\thttps://gone.example/a',
      'disallow\t0\tdown.example\thttps://down.example/a',
      // RFC 9309 §2.2.2: /robots.txt stays allowed in the rfc profile, as Robots.disallowAll() says.
      'allow\t0\tdown.example\thttps://down.example/robots.txt',
      'allow\t0\tback.example\thttps://back.example/a',
      'disallow\t0\tnone.example\thttps://none.example/a',
      '',
    ]);
    const two = await cli(['classify', '--robots-dir', out, '--agent', AGENT, '--missing', 'disallow', '--workers', '2', '--quiet'], input);
    expect(two.stdout).toBe(r.stdout);
  });

  it('a malformed row is an error naming the file and line', async () => {
    const out = join(dir, 'malformed');
    await cli(['fetch', '--out', out, '--quiet'], '');
    writeFileSync(join(out, 'outcomes.tsv'), 'origin\toutcome\tstatus\tfile\treason\nhttps://a.example\tbroken\t-\ta.example.txt\tx\n');
    const r = await cli(['classify', '--robots-dir', out, '--agent', AGENT], 'https://a.example/\n');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/outcomes\.tsv line 2: expected .* got "https:\/\/a\.example\\tbroken\\t-\\ta\.example\.txt\\tx"/);
  });
});
