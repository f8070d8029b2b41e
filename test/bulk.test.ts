// Bulk paths: matchBatch/matchLines/decide* across chunk boundaries, out-buffer reuse, many resident tables, classify.
//
// The batch paths copy URLs into Wasm memory in chunks (src/wasm/batches.ts: 16,384 strings or
// 256 Ki characters per matchUrls call, 256 KiB per matchLines call, longer lines get a
// larger chunk) and keep every table a matcher uses resident in an arena that is emptied
// and grown when full. Each case below crosses one of those boundaries and checks the
// result, in input order, against per-URL `explain` or against verdicts known by construction.
import { describe, expect, it } from 'vitest';
import { Robots, type AgentMatcher } from '../src/index.js';
import { ClassifyProcessor, type ClassifyJob } from '../src/cli/jobs.js';
import { WasmEngine } from '../src/wasm/index.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

// A small site: plain prefixes, an allow override, anchored and floating wildcards.
const SITE = [
  'User-agent: *',
  'Disallow: /private/',
  'Allow: /private/press/',
  'Disallow: /*.pdf$',
  'Disallow: /*?sessionid=',
  'Allow: /*/public$',
  'Disallow: /search',
].join('\n');
const site = Robots.parse(SITE).forAgent('ExampleBot');

const PATHS = ['/', '/private/x', '/private/press/1', '/doc.pdf', '/doc.pdfx', '/a?sessionid=1', '/private/public', '/search?q', '/ok'];

/** `count` URLs cycling through PATHS on a few hosts, some absolute, some relative. */
function urls(count: number, pad = 0): string[] {
  return Array.from({ length: count }, (_, i) => {
    const path = PATHS[i % PATHS.length]!;
    const tail = pad > 0 ? `${path.includes('?') ? '&' : '?'}p=${'x'.repeat(pad)}${i}` : '';
    return i % 3 === 0 ? `${path}${tail}` : `https://h${i % 7}.example${path}${tail}`;
  });
}

/** Verdicts and lines by explain(), one URL at a time: the oracle for every bulk path. */
function oracle(matcher: AgentMatcher, list: readonly string[]): { verdicts: number[]; lines: number[] } {
  const verdicts: number[] = [];
  const lines: number[] = [];
  for (const url of list) {
    const e = matcher.explain(url);
    verdicts.push(e.allowed ? 1 : 0);
    lines.push(e.line);
  }
  return { verdicts, lines };
}

describe('matchBatch / decideBatch across chunk boundaries', () => {
  const cases: [string, string[]][] = [
    ['more URLs than one chunk (40,000 > 16,384)', urls(40_000)],
    ['more characters than one chunk (3,000 URLs of ~200 chars)', urls(3_000, 180)],
    ['one URL longer than a chunk (300 Ki chars) between short ones', [...urls(5), `/private/${'a'.repeat(300_000)}`, ...urls(5)]],
    ['non-ASCII URLs in a chunk (re-encoded per URL)', urls(20_000).map((u, i) => (i % 1000 === 7 ? `${u}ツé` : u))],
  ];
  it.each(cases)('%s', (_name, list) => {
    const expected = oracle(site, list);
    expect(Array.from(site.matchBatch(list))).toEqual(expected.verdicts);
    const decided = site.decideBatch(list);
    expect(Array.from(decided.verdicts)).toEqual(expected.verdicts);
    expect(Array.from(decided.lines)).toEqual(expected.lines);
  });
});

describe('matchLines / decideLines across chunk boundaries', () => {
  const list = urls(30_000, 3); // ~1 MB: four 256 KiB chunks
  const cases: [string, string, string[]][] = [
    ['LF, final line ending', `${list.join('\n')}\n`, list],
    ['CRLF, no final line ending', list.join('\r\n'), list],
    ['empty lines are judged as the URL ""', `/private/x\n\n\n/ok\n\n`, ['/private/x', '', '', '/ok', '']],
    [
      'a line longer than the chunk (600 KiB) between short ones',
      `/ok\n/private/${'b'.repeat(600_000)}\r\n/private/x\n`,
      ['/ok', `/private/${'b'.repeat(600_000)}`, '/private/x'],
    ],
    ['one unterminated line longer than the chunk', `/search/${'c'.repeat(300_000)}`, [`/search/${'c'.repeat(300_000)}`]],
  ];
  it.each(cases)('%s', (_name, text, expectedUrls) => {
    const bytes = encoder.encode(text);
    const expected = oracle(site, expectedUrls);
    expect(Array.from(site.matchLines(bytes))).toEqual(expected.verdicts);
    const decided = site.decideLines(bytes);
    expect(Array.from(decided.verdicts)).toEqual(expected.verdicts);
    expect(Array.from(decided.lines)).toEqual(expected.lines);
  });
});

describe('out-buffer reuse', () => {
  it('matchBatch writes only the first verdicts of a larger out, call after call', () => {
    const out = new Uint8Array(10).fill(9);
    expect(site.matchBatch(['/private/x', '/ok', '/doc.pdf'], out)).toBe(out);
    expect(Array.from(out)).toEqual([0, 1, 0, 9, 9, 9, 9, 9, 9, 9]);
    expect(site.matchBatch(['/ok'], out)).toBe(out);
    expect(Array.from(out.subarray(0, 4))).toEqual([1, 1, 0, 9]);
  });
  it('matchLines reuses out across chunk-sized inputs', () => {
    const list = urls(20_000);
    const out = new Uint8Array(list.length + 5).fill(9);
    const expected = oracle(site, list).verdicts;
    for (let round = 0; round < 2; round++) {
      expect(site.matchLines(encoder.encode(list.join('\n')), out)).toBe(out);
      expect(Array.from(out.subarray(0, list.length))).toEqual(expected);
      expect(Array.from(out.subarray(list.length))).toEqual([9, 9, 9, 9, 9]);
    }
  });
});

describe('decide* report the lines explain() reports', () => {
  const bodies: [string, string][] = [
    ['site', SITE],
    ['equal-length allow and disallow (allow wins, earliest line)', 'User-agent: *\nDisallow: /a\nAllow: /a\nDisallow: /a*\nAllow: /a*\n'],
    ['wildcards only', 'User-agent: *\nDisallow: /*x*y\nAllow: /*x*y$\nDisallow: /*%41\n'],
  ];
  const list = [...PATHS, '/axy', '/axyz', '/a', '/ab', '/%41', '/A', '/x/y', '/robots.txt'];
  it.each(bodies)('%s', (_name, body) => {
    for (const profile of ['rfc', 'google'] as const) {
      const matcher = Robots.parse(body, { profile }).forAgent('ExampleBot');
      const expected = oracle(matcher, list);
      expect(Array.from(matcher.decideBatch(list).lines), profile).toEqual(expected.lines);
      expect(Array.from(matcher.decideLines(encoder.encode(list.join('\n'))).lines), profile).toEqual(expected.lines);
    }
  });
});

/**
 * Host k's robots.txt: `Disallow: /k<k>/` on line 2, then enough filler rules that 80
 * such tables overflow the 1 MiB resident-table arena of the shared engine (forcing it
 * to be emptied and grown).
 */
function hostBody(k: number, filler = 900): string {
  const rules = Array.from({ length: filler }, (_, i) => `Disallow: /filler-${k}-${i}-${'z'.repeat(20)}/`);
  return `User-agent: *\nDisallow: /k${k}/\nDisallow: /*.k${k}$\n${rules.join('\n')}\n`;
}

describe('many tables alternating (resident arena emptied and grown)', () => {
  const HOSTS = 80;
  const matchers = Array.from({ length: HOSTS }, (_, k) => Robots.parse(hostBody(k)).forAgent('ExampleBot'));
  it('each table keeps its own verdicts whatever was used in between', () => {
    const table0 = matchers[0]!.table.length;
    expect(table0 * HOSTS).toBeGreaterThan(2 << 20); // really more than the first arena
    for (let round = 0; round < 3; round++) {
      for (let k = 0; k < HOSTS; k++) {
        const j = (k * 7 + round) % HOSTS;
        const got = matchers[j]!.decideBatch([`/k${j}/a`, `/k${(j + 1) % HOSTS}/a`, `/x.k${j}`, '/ok']);
        expect(Array.from(got.verdicts), `host ${j}`).toEqual([0, 1, 0, 1]);
        expect(Array.from(got.lines), `host ${j}`).toEqual([2, 0, 3, 0]);
        expect(matchers[j]!.isAllowed(`/k${j}/b`)).toBe(false);
      }
    }
  });
});

/** An engine that counts how often classify rebuilds its host index (resetHostIndex). */
function countingRebuilds(): { engine: WasmEngine; rebuilds: () => number } {
  const engine = new WasmEngine();
  let count = 0;
  const reset = engine.resetHostIndex.bind(engine);
  engine.resetHostIndex = (capacity: number): void => {
    count++;
    reset(capacity);
  };
  return { engine, rebuilds: () => count };
}

describe('classify rows: each line against its own host, hosts cached and evicted', () => {
  // 60 tables of ~8 KiB against an engine whose arena starts at 16 KiB and stops growing
  // at 64 KiB: the tables of one batch never fit at once, so the arena is emptied (and
  // grown) in the middle of batches, moving the buffers the rows are made from.
  const HOSTS = 60;
  const bodies = new Map(Array.from({ length: HOSTS }, (_, k) => [`h${k}.example`, encoder.encode(hostBody(k, 120))]));
  const matchers = new Map(Array.from(bodies, ([host, body]) => [host, Robots.parse(body).forAgent('ExampleBot')]));
  const job = (cacheHosts: number, missing: 'allow' | 'disallow'): ClassifyJob => ({
    kind: 'classify', robotsDir: '', agent: 'ExampleBot', profile: 'rfc', missing, cacheHosts, format: 'tsv', only: null,
  });
  // Random-ish host order, a host without robots.txt, a relative URL and upper-case hosts.
  const lines = Array.from({ length: 6_000 }, (_, i) => {
    const k = (i * 37) % (HOSTS + 1);
    const host = k === HOSTS ? 'no-robots.example' : `${i % 5 === 0 ? 'H' : 'h'}${k}.example`;
    if (i % 101 === 0) return `/k${k}/relative`;
    return `https://${host}/${i % 2 === 0 ? `k${k}` : `k${k + 1}`}/${i}`;
  });

  it.each([
    ['every host cached (cacheHosts 1,000)', 1_000],
    ['LRU far smaller than the hosts (cacheHosts 3)', 3],
  ])('%s', async (_name, cacheHosts) => {
    for (const missing of ['allow', 'disallow'] as const) {
      const engine = new WasmEngine({ arenaBytes: 16 << 10, arenaMaxBytes: 64 << 10 });
      const processor = new ClassifyProcessor(job(cacheHosts, missing), { load: (host) => bodies.get(host) ?? null }, engine);
      const result = await processor.process(encoder.encode(`${lines.join('\n')}\n`));
      const rows = decoder.decode(Buffer.concat(result.rows)).split('\n');
      expect(rows.pop()).toBe('');
      expect(rows).toHaveLength(lines.length);
      lines.forEach((url, i) => {
        const host = /^https:\/\/([^/]+)/.exec(url)?.[1]?.toLowerCase() ?? '';
        const matcher = matchers.get(host);
        const e = matcher ? matcher.explain(url) : { allowed: missing === 'allow', line: 0 };
        expect(rows[i], url).toBe(`${e.allowed ? 'allow' : 'disallow'}\t${e.line}\t${host}\t${url}`);
      });
      expect(result.allowed + result.disallowed).toBe(lines.length);
    }
  });

  it('a batch with more hosts than the cache evicts a quarter at a time, not rebuilding the index per miss', async () => {
    const { engine, rebuilds } = countingRebuilds();
    const cacheHosts = 8;
    const processor = new ClassifyProcessor(job(cacheHosts, 'allow'), { load: (host) => bodies.get(host) ?? null }, engine);
    // One batch naming all 60 hosts (and the host without a file): 61 misses.
    const some = Array.from({ length: HOSTS + 1 }, (_, k) => (k === HOSTS ? 'https://no-robots.example/x' : `https://h${k}.example/k${k}/x`));
    const result = await processor.process(encoder.encode(`${some.join('\n')}\n`));
    const rows = decoder.decode(Buffer.concat(result.rows)).split('\n');
    rows.pop();
    expect(rows).toEqual(some.map((url, k) => (k === HOSTS ? `allow\t0\tno-robots.example\t${url}` : `disallow\t2\th${k}.example\t${url}`)));
    // The first build, then one per eviction of cacheHosts / 4 hosts: 61 misses past a
    // full cache of 8 make ⌈53 / 2⌉ = 27 evictions. Keeping every host this batch used
    // made every miss past the eighth rebuild the index (107 rebuilds before the fix).
    expect(rebuilds()).toBeLessThanOrEqual(1 + Math.ceil((HOSTS + 1 - cacheHosts) / (cacheHosts / 4)));
    expect(rebuilds()).toBeGreaterThan(1);
  });

  it('long host names that fill the index key space evict too, instead of rebuilding the index per miss', async () => {
    const { engine, rebuilds } = countingRebuilds();
    // The index keeps about 48 key bytes per cached host (plus 4 KiB): 200-byte names
    // fill it at about 44 hosts, long before a cache of 100 is full.
    const name = (k: number): string => `${'h'.repeat(190)}${String(k).padStart(4, '0')}.example`;
    const body = encoder.encode('User-agent: *\nDisallow: /private/\n');
    const processor = new ClassifyProcessor(job(100, 'allow'), { load: () => body }, engine);
    const some = Array.from({ length: 300 }, (_, k) => `https://${name(k)}/private/${k}`);
    for (let round = 0; round < 2; round++) {
      const result = await processor.process(encoder.encode(`${some.join('\n')}\n`));
      const rows = decoder.decode(Buffer.concat(result.rows)).split('\n');
      rows.pop();
      expect(rows).toEqual(some.map((url, k) => `disallow\t2\t${name(k)}\t${url}`));
    }
    // Each eviction drops a quarter of what is cached (about 10 of 40 hosts): 49 rebuilds
    // for the 600 misses. Rebuilding without evicting (before the fix) made nearly every
    // miss past the 44th rebuild the index: 513 rebuilds.
    expect(rebuilds()).toBeLessThan(100);
    expect(rebuilds()).toBeGreaterThan(10);
  });

  it('waits for a source that answers asynchronously (as a fetching source would)', async () => {
    const slow = { load: (host: string) => new Promise<Uint8Array | null>((resolve) => setTimeout(() => resolve(bodies.get(host) ?? null), 1)) };
    const processor = new ClassifyProcessor(job(1_000, 'allow'), slow);
    const some = lines.slice(0, 500);
    for (let round = 0; round < 2; round++) {
      const result = await processor.process(encoder.encode(some.join('\n')));
      const rows = decoder.decode(Buffer.concat(result.rows)).split('\n');
      rows.pop();
      expect(rows).toHaveLength(some.length);
      some.forEach((url, i) => {
        const host = /^https:\/\/([^/]+)/.exec(url)?.[1]?.toLowerCase() ?? '';
        const e = matchers.get(host)?.explain(url) ?? { allowed: true, line: 0 };
        expect(rows[i], url).toBe(`${e.allowed ? 'allow' : 'disallow'}\t${e.line}\t${host}\t${url}`);
      });
    }
  });
});

/** A TSV field as the rows write it (PostgreSQL text COPY escapes, assembly/rows.ts). */
function tsvField(s: string): string {
  return s.replace(/[\x00-\x1f\\\x7f]/g, (c) => {
    const named: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
    return named[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;
  });
}

/** The host column of an `https://` URL: after the last '@', without an empty or :443 port (outside brackets), lowercase. */
function rowHost(url: string): string {
  const rest = url.slice('https://'.length);
  const cut = rest.search(/[/?;#]/);
  let host = rest.slice(0, cut < 0 ? rest.length : cut);
  host = host.slice(host.lastIndexOf('@') + 1);
  const colon = host.lastIndexOf(':');
  if (colon >= 0 && host.lastIndexOf(']') < colon) {
    const port = host.slice(colon + 1);
    if (port === '' || (/^[0-9]+$/.test(port) && Number(port) === 443)) host = host.slice(0, colon);
  }
  return host.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

describe('classify rows: the host and URL columns at every 16-byte block edge', () => {
  // The Wasm scans (userinfo '@', the port's ':', TSV escapes, lowercasing) go 16 bytes
  // at a time: hosts, userinfo and escapes of every length and position up to 40 bytes.
  const userinfos = ['', 'u@', 'user:pw@', 'a@b@', `${'x'.repeat(17)}@`, `${'y'.repeat(14)}@${'z'.repeat(16)}@`];
  const ports = ['', ':', ':443', ':0443', ':8080', ':44'];
  const specials = ['\t', '\\', '\x01', '\x7f'];
  const lines: string[] = [];
  for (let length = 1; length <= 40; length++) {
    const name = Array.from({ length }, (_, k) => ((k * 7 + length) % 3 === 0 ? 'AB' : 'cd')[k % 2]).join('');
    for (const [u, userinfo] of userinfos.entries()) {
      const port = ports[(length + u) % ports.length]!;
      const hostBad = length % 5 === 0 ? `${name.slice(0, length >> 1)}${specials[u % 4]}${name.slice(length >> 1)}` : name;
      const at = (length * 3 + u) % 41;
      const path = `/${'p'.repeat(at)}${specials[length % 4]}${'q'.repeat(u * 3)}`;
      lines.push(`https://${userinfo}${hostBad}${port}${path}`);
      lines.push(`https://${userinfo}[2001:DB8::${name}]${port}/${'r'.repeat(at)}`);
    }
  }

  it('match a per-URL reference', async () => {
    const job: ClassifyJob = { kind: 'classify', robotsDir: '', agent: 'ExampleBot', profile: 'rfc', missing: 'allow', cacheHosts: 1_000, format: 'tsv', only: null };
    const processor = new ClassifyProcessor(job, { load: () => null }, new WasmEngine());
    const result = await processor.process(encoder.encode(`${lines.join('\n')}\n`));
    const rows = decoder.decode(Buffer.concat(result.rows)).split('\n');
    expect(rows.pop()).toBe('');
    expect(rows).toEqual(lines.map((url) => `allow\t0\t${tsvField(rowHost(url))}\t${tsvField(url)}`));
  });
});

describe('matchLines/decideLines: results past 2^20 lines, then fewer, then as many again', () => {
  it('each call gets its own verdicts and lines', () => {
    const m = Robots.parse('User-agent: *\nDisallow: /d\n').forAgent('ExampleBot');
    const big = (1 << 20) + 4_321;
    const lines = (n: number, shift: number): Uint8Array => encoder.encode(Array.from({ length: n }, (_, i) => ((i + shift) % 3 === 0 ? '/d' : '/a')).join('\n'));
    for (const [n, shift] of [[big, 0], [10, 1], [big, 2], [big, 1]] as const) {
      const { verdicts, lines: decided } = m.decideLines(lines(n, shift));
      expect(verdicts.length).toBe(n);
      expect(decided.length).toBe(n);
      // Compared in a plain loop: a deep equal over a million elements takes seconds.
      let wrong = 0;
      for (let i = 0; i < n; i++) {
        const blocked = (i + shift) % 3 === 0;
        if (verdicts[i] !== (blocked ? 0 : 1) || decided[i] !== (blocked ? 2 : 0)) wrong++;
      }
      expect(wrong).toBe(0);
      expect(Buffer.compare(m.matchLines(lines(n, shift)), verdicts)).toBe(0);
    }
  });
});
