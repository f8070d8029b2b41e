// Hostile robots.txt bodies: NUL, invalid UTF-8, 100 MB, a 1 MB line, 100k rules, 10k `*`, `$` storms, whitespace only, binary files.
//
// RFC 9309 §2.5: "Crawlers SHOULD impose a parsing limit to protect their systems"; §3:
// parsers must be robust to what a server sends. Every body below gets a defined result
// (the verdicts, truncated/byteLength, lines), never an exception from inside the parser,
// compiler or Wasm, and bounded work: sizes are chosen so that anything super-linear would
// blow the suite's timeout, but no test asserts a time. Where the reference matcher
// (test/reference/) is cheap enough it is the oracle; elsewhere the answer is derived by hand.
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_BYTES, Robots, type Profile } from '../src/index.js';
import { validateRuleTable } from '../src/table/validate.js';
import { ReferenceRobots } from './reference/index.js';
import { randomBytes } from './reference/prng.js';
import { utf8 } from './helpers/cases.js';

const PROFILES: readonly Profile[] = ['rfc', 'google'];
const encoder = new TextEncoder();

/** Every URL judged through explain, decideBatch and decideLines agrees with the reference. */
function expectReference(body: string | Uint8Array, agent: string, urls: readonly (string | Uint8Array)[], profile: Profile, maxBytes?: number): void {
  const options = maxBytes === undefined ? { profile } : { profile, maxBytes };
  const ref = ReferenceRobots.parse(body, options);
  const robots = Robots.parse(body, options);
  expect({ truncated: robots.truncated, byteLength: robots.byteLength }).toEqual({ truncated: ref.truncated, byteLength: ref.byteLength });
  const m = robots.forAgent(agent);
  validateRuleTable(m.table);
  const textUrls = urls.filter((u): u is string => typeof u === 'string');
  const decided = m.decideBatch(textUrls);
  textUrls.forEach((url, i) => {
    const want = ref.explain(url, agent);
    expect({ allowed: decided.verdicts[i] === 1, line: decided.lines[i] }, `${profile} ${JSON.stringify(url)}`).toEqual({ allowed: want.allowed, line: want.line });
    expect(m.explain(url), `${profile} explain ${JSON.stringify(url)}`).toEqual(want);
  });
  for (const url of urls) {
    const bytes = typeof url === 'string' ? encoder.encode(url) : url;
    if (bytes.includes(0x0a) || bytes[bytes.length - 1] === 0x0d) continue;
    const want = ref.explain(bytes, agent);
    const got = m.decideLines(Uint8Array.from([...bytes, 0x0a]));
    expect({ allowed: got.verdicts[0] === 1, line: got.lines[0] }, `${profile} line ${Buffer.from(bytes).toString('hex')}`).toEqual({ allowed: want.allowed, line: want.line });
  }
}

/** Bytes from a mix of text and byte values. */
function bytes(...parts: (string | number[])[]): Uint8Array {
  return Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? [...encoder.encode(p)] : p)));
}

describe('NUL bytes', () => {
  // Google-compat: robots.cc reads each line as a C string, so NUL ends the line there;
  // RFC 9309 has no such rule, NUL is an octet like any other (and is percent-encoded by no one).
  const body = bytes('User-agent: *\nDisallow: /a', [0], 'b\nDisallow: /c\n', [0], 'Disallow: /d\nUser-agent: x', [0], 'y\nDisallow: /\n');
  const rows: [url: string, rfc: boolean, google: boolean, note: string][] = [
    ['/ax', true, false, 'google reads "Disallow: /a"'],
    ['/a\u0000b', false, false, 'rfc matches the NUL octet itself'],
    ['/c', false, false, 'the line after a NUL line is intact'],
    ['/d', true, true, 'a line starting with NUL: empty in google, an unknown key in rfc'],
  ];
  it.each(rows)('%j → rfc %s, google %s (%s)', (url, rfc, google) => {
    expect(Robots.parse(body, { profile: 'rfc' }).isAllowed(url, 'bot')).toBe(rfc);
    expect(Robots.parse(body, { profile: 'google' }).isAllowed(url, 'bot')).toBe(google);
  });
  it('"User-agent: x\\0y": both profiles read the token "x" (google: the line ends; rfc: §2.3.1.5 leading token)', () => {
    expect(Robots.parse(body, { profile: 'google' }).isAllowed('/z', 'x')).toBe(false);
    expect(Robots.parse(body, { profile: 'rfc' }).isAllowed('/z', 'x')).toBe(false);
    expect(() => Robots.parse(body, { profile: 'rfc' }).isAllowed('/z', 'x\u0000y')).toThrow(TypeError);
  });
  it.each(PROFILES)('%s: agrees with the reference, bodies of only NULs included', (profile) => {
    expectReference(body, 'bot', rows.map((r) => r[0]), profile);
    expectReference(new Uint8Array(10_000), 'bot', ['/', '/a'], profile);
    expectReference(bytes([0], 'User-agent: *\n', [0, 0], '\nDisallow: /\n'), 'bot', ['/'], profile);
  });
});

describe('invalid UTF-8', () => {
  const body = bytes(
    'User-agent: *\nDisallow: /', [0xff], '\nDisallow: /x', [0xc3], '\nAllow: /x', [0xc3, 0xa9], '\n',
    'User-agent: b', [0xff], 'd\nDisallow: /\n', [0xed, 0xa0, 0x80], ': junk\n', [0xf8, 0x88, 0x80, 0x80, 0x80], '\n',
  );
  it.each(PROFILES)('%s: never throws and agrees with the reference (strings and raw bytes)', (profile) => {
    const urls = ['/%FF', '/%ff', '/\u00ff', '/x%C3', '/x%C3%A9', '/xé', '/ok', '/x\uFFFD'];
    const raw = [bytes('/', [0xff]), bytes('/x', [0xc3]), bytes('/x', [0xc3, 0xa9]), bytes('/', [0xfe, 0xfe])];
    expectReference(body, 'bot', [...urls, ...raw], profile);
    // "User-agent: b\xFFd" names its leading token "b" (RFC 9309 §2.3.1.5).
    expectReference(body, 'b', ['/'], profile);
  });
  it('the rule text shows invalid bytes as U+FFFD', () => {
    const robots = Robots.parse(body, { profile: 'google' });
    expect(robots.explain('/%FF', 'bot')).toEqual({ allowed: false, line: 2, rule: 'disallow: /\uFFFD', agentLines: [1] });
    // rfc: the raw 0xFF octet in a URL is percent-encoded, so it meets the encoded rule.
    expect(Robots.parse(body, { profile: 'rfc' }).forAgent('bot').decideLines(bytes('/', [0xff], '\n')).verdicts[0]).toBe(0);
  });
});

describe('a 100 MB body', () => {
  const HUNDRED_MB = 100 * 1024 * 1024;
  const head = 'User-agent: *\nDisallow: /a\n';
  it.each(PROFILES)('%s: as bytes, the default limit reads the first 512,000 bytes, whole lines only', (profile) => {
    const body = new Uint8Array(HUNDRED_MB).fill(0x20);
    body.set(utf8(head));
    // A rule line every 100 bytes after the head: "Disallow: /rNNNNNN", spaces, "\n".
    for (let at = head.length, i = 0; at + 100 <= body.length && at < 2 * DEFAULT_MAX_BYTES; at += 100, i++) {
      body.set(utf8(`Disallow: /r${String(i).padStart(6, '0')}`), at);
      body[at + 99] = 0x0a;
    }
    const robots = Robots.parse(body, { profile });
    expect(robots.truncated).toBe(true);
    expect(robots.byteLength).toBeLessThanOrEqual(DEFAULT_MAX_BYTES);
    // The last kept byte is a line break: the line the limit cuts through is dropped.
    expect(body[robots.byteLength - 1]).toBe(0x0a);
    expect(robots.byteLength).toBe(head.length + Math.floor((DEFAULT_MAX_BYTES - head.length) / 100) * 100);
    const kept = (robots.byteLength - head.length) / 100;
    expect(robots.rulesFor('bot')).toHaveLength(kept + 1);
    expect(robots.isAllowed('/a', 'bot')).toBe(false);
    expect(robots.isAllowed(`/r${String(kept - 1).padStart(6, '0')}`, 'bot')).toBe(false);
    expect(robots.isAllowed(`/r${String(kept).padStart(6, '0')}`, 'bot')).toBe(true);
  });
  it('as a string, the same limit applies and only the first maxBytes + 1 characters are encoded', () => {
    const body = head + 'Disallow: /b\n' + '#'.repeat(HUNDRED_MB) + '\nDisallow: /c\n';
    const robots = Robots.parse(body);
    expect(robots.truncated).toBe(true);
    expect(robots.byteLength).toBe(head.length + 'Disallow: /b\n'.length);
    expect([robots.isAllowed('/b', 'bot'), robots.isAllowed('/c', 'bot')]).toEqual([false, true]);
  });
  it.each(PROFILES)('%s: with maxBytes above it, a 100 MB comment line is read whole and the rules around it count', (profile) => {
    const body = new Uint8Array(HUNDRED_MB + 64).fill(0x23); // '#'
    body.set(utf8(head));
    const tail = utf8('\nDisallow: /c\n');
    body.set(tail, body.length - tail.length);
    const robots = Robots.parse(body, { profile, maxBytes: body.length });
    expect(robots.truncated).toBe(false);
    expect(robots.byteLength).toBe(body.length);
    expect(robots.lineCount).toBe(4);
    expect(robots.explain('/c', 'bot')).toEqual({ allowed: false, line: 4, rule: 'disallow: /c', agentLines: [1] });
  });
  it('Robots.parse keeps no view of a caller buffer larger than what it parsed', () => {
    // A 100 MB fetch buffer must not stay alive (nor stay mutable) behind a 30-byte robots.txt.
    const body = new Uint8Array(HUNDRED_MB);
    body.set(utf8(head));
    const robots = Robots.parse(body, { maxBytes: head.length });
    for (const group of robots.groups) for (const r of group.rules) expect(r.pattern.buffer.byteLength, 'rule pattern buffer').toBeLessThan(HUNDRED_MB);
  });
});

describe('the caller’s buffer is not aliased', () => {
  // A crawler reuses its fetch buffers: changing or transferring the bytes after parsing
  // must not change the verdicts of the Robots parsed from them.
  const text = 'User-agent: *\nDisallow: /private\n';
  it.each(PROFILES)('%s: overwriting the body after parse changes nothing', (profile) => {
    const body = utf8(text);
    const robots = Robots.parse(body, { profile });
    body.fill(0x20);
    expect(robots.explain('/private', 'bot')).toEqual({ allowed: false, line: 2, rule: 'disallow: /private', agentLines: [1] });
  });
  it.each(PROFILES)('%s: transferring (detaching) the body after parse changes nothing', (profile) => {
    const body = utf8(text);
    const robots = Robots.parse(body, { profile });
    structuredClone(body.buffer, { transfer: [body.buffer] });
    expect(robots.explain('/private', 'bot')).toEqual({ allowed: false, line: 2, rule: 'disallow: /private', agentLines: [1] });
  });
});

describe('a single 1 MB line', () => {
  const MB = 1 << 20;
  const GOOGLE_LINE = 16_663;
  const prefix = 'Disallow: /';
  const body = `User-agent: *\n${prefix}${'a'.repeat(MB)}\nDisallow: /z\n`;
  // Google-compat: the line keeps its first 16,663 bytes, so the pattern is "/" + 16,652 a's.
  const googleA = GOOGLE_LINE - prefix.length;
  const rows: [url: string, rfc: boolean, google: boolean][] = [
    [`/${'a'.repeat(MB)}`, false, false],
    [`/${'a'.repeat(MB - 1)}`, true, false],
    [`/${'a'.repeat(googleA)}`, true, false],
    [`/${'a'.repeat(googleA - 1)}`, true, true],
    ['/z', false, false],
  ];
  for (const [url, rfc, google] of rows) {
    it(`URL of ${url.length} bytes → rfc ${rfc}, google ${google}`, () => {
      const opts = { maxBytes: 2 * MB };
      expect(Robots.parse(body, { profile: 'rfc', ...opts }).isAllowed(url, 'bot')).toBe(rfc);
      expect(Robots.parse(body, { profile: 'google', ...opts }).isAllowed(url, 'bot')).toBe(google);
    });
  }
  it.each(PROFILES)('%s: a 1 MB line without a final line break, a 1 MB agent token, a 1 MB key', (profile) => {
    const noBreak = Robots.parse(`User-agent: *\nDisallow: /${'b'.repeat(MB)}`, { profile, maxBytes: 2 * MB });
    expect(noBreak.isAllowed(`/${'b'.repeat(MB)}`, 'bot')).toBe(false);
    const token = 'T'.repeat(MB);
    const agentLine = Robots.parse(`User-agent: ${token}\nDisallow: /\n`, { profile, maxBytes: 2 * MB });
    // rfc reads the whole token; google cuts the line at 16,663 bytes and so reads a shorter token.
    expect(agentLine.isAllowed('/x', token)).toBe(profile === 'google');
    const keyLine = Robots.parse(`User-agent: *\n${'k'.repeat(MB)}: /x\nDisallow: /y\n`, { profile, maxBytes: 2 * MB });
    expect([keyLine.isAllowed('/x', 'bot'), keyLine.isAllowed('/y', 'bot')]).toEqual([true, false]);
  });
  it('the default limit drops a 1 MB line entirely rather than reading half of it', () => {
    const robots = Robots.parse(body);
    expect(robots.truncated).toBe(true);
    expect(robots.isAllowed('/a', 'bot')).toBe(true);
    expect(robots.isAllowed('/z', 'bot')).toBe(true);
  });
});

describe('100k rules', () => {
  const N = 100_000;
  const lines = ['User-agent: *'];
  for (let i = 0; i < N; i++) lines.push(i % 2 === 0 ? `Disallow: /p${i}/` : `Allow: /p${i - 1}/ok${i}`);
  const body = `${lines.join('\n')}\n`;
  const lineOf = (i: number): number => i + 2;
  it.each(PROFILES)('%s: 100k plain rules compile into a valid table and match', (profile) => {
    const robots = Robots.parse(body, { profile, maxBytes: body.length });
    expect(robots.truncated).toBe(false);
    const m = robots.forAgent('bot');
    expect(m.ruleCount).toBe(N);
    validateRuleTable(m.table);
    const urls = ['/p0/x', '/p99998/x', '/p99998/ok99999', '/p5/ok5', '/p4/ok5', '/q', '/p1/x', '/p'];
    expect(Array.from(m.matchBatch(urls))).toEqual([0, 0, 1, 1, 1, 1, 1, 1]);
    expect(m.explain('/p99998/ok99999/z')).toEqual({ allowed: true, line: lineOf(99_999), rule: 'allow: /p99998/ok99999' });
    expect(m.explain('/p4242/zz').line).toBe(lineOf(4242));
  });
  it.each(PROFILES)('%s: 20k wildcard rules (every one scanned for a URL none matches) agree with the reference', (profile) => {
    const wild = ['User-agent: *'];
    for (let i = 0; i < 20_000; i++) wild.push(`Disallow: /*w${i}*x`);
    const text = `${wild.join('\n')}\n`;
    const urls = ['/w19999/x', '/aw7x', '/w7', '/nothing-here-at-all', `/${'w1'.repeat(500)}`];
    expectReference(text, 'bot', urls, profile, text.length);
  });
  it('100k user-agent groups: selecting the group is one pass', () => {
    const groups: string[] = [];
    // Letters only: a digit would end the product token (RFC 9309 §2.2.1, §2.3.1.5).
    const name = (i: number): string => `bot-${i.toString(26).replace(/[0-9]/g, (d) => String.fromCharCode(0x71 + Number(d)))}`;
    for (let i = 0; i < N; i++) groups.push(`User-agent: ${name(i)}\nDisallow: /g${i}\n`);
    const text = groups.join('');
    const robots = Robots.parse(text, { maxBytes: text.length });
    expect(robots.groups).toHaveLength(N);
    expect(new Set(robots.groups.map((g) => g.agents[0])).size).toBe(N);
    expect(robots.isAllowed('/g5', name(5))).toBe(false);
    expect(robots.isAllowed('/g6', name(5))).toBe(true);
  });
});

describe('10k `*` in one pattern', () => {
  it.each(PROFILES)('%s: "/" + 10,000 × "*" + "x" matches exactly the URLs with an x after /', (profile) => {
    const robots = Robots.parse(`User-agent: *\nDisallow: /${'*'.repeat(10_000)}x\n`, { profile });
    const m = robots.forAgent('bot');
    validateRuleTable(m.table);
    expect(Array.from(m.matchBatch(['/x', '/abcx', '/abc', '/', `/${'a'.repeat(100_000)}x`]))).toEqual([0, 0, 1, 1, 0]);
  });
  it.each(PROFILES)('%s: "/" + 5,000 × "*a" + "$" needs 5,000 a\'s, and gives up fast on 100k a\'s plus one b', (profile) => {
    const robots = Robots.parse(`User-agent: *\nDisallow: /${'*a'.repeat(5000)}$\n`, { profile });
    const m = robots.forAgent('bot');
    const urls = [`/${'a'.repeat(5000)}`, `/${'a'.repeat(4999)}`, `/${'ba'.repeat(5000)}`, `/${'a'.repeat(100_000)}b`, `/${'a'.repeat(100_000)}`];
    expect(Array.from(m.matchBatch(urls))).toEqual([0, 1, 0, 1, 0]);
    expect(m.explain(urls[0]!).line).toBe(2);
  });
  it.each(PROFILES)('%s: 10k-star patterns of every shape agree with the reference on short URLs', (profile) => {
    const body = [
      'User-agent: *', `Disallow: ${'*'.repeat(10_000)}`, `Allow: /a${'*'.repeat(10_000)}$`,
      `Disallow: /b${'*b'.repeat(5_000)}`, `Allow: /c${'*$'.repeat(5_000)}`,
    ].join('\n');
    expectReference(body, 'bot', ['/', '/a', '/ab', `/b${'b'.repeat(20)}`, '/c', '/c$$$', '/c$'], profile);
  });
});

describe('`$` storms', () => {
  const patterns = ['$', '$$', '$$$$$$$$', '/$', '/$$', '/a$b$c$', '*$', '$*', '/*$$', '/%24$', `/${'$'.repeat(10_000)}`, `/${'*$'.repeat(200)}`];
  const urls = ['/', '/$', '/$$', '/$$$$$$$', '/a$b$c', '/a$b$cd', '/x', `/${'$'.repeat(9_999)}`, `/${'$'.repeat(10_000)}`, '/%24', '/$$$$$$$$$$$$$$$$'];
  for (const profile of PROFILES) {
    it.each(patterns.map((p) => [p.length > 30 ? `${p.slice(0, 12)}…(${p.length})` : p, p] as const))(`${profile}: Disallow: %s`, (_name, pattern) => {
      expectReference(`User-agent: *\nDisallow: ${pattern}\nAllow: /x\n`, 'bot', urls, profile);
    });
  }
  it('google: only the last $ anchors; rfc: other $ match a literal $ (as %24)', () => {
    const body = 'User-agent: *\nDisallow: /a$b$\n';
    expect(Robots.parse(body, { profile: 'google' }).isAllowed('/a$b', 'bot')).toBe(false);
    expect(Robots.parse(body, { profile: 'google' }).isAllowed('/a$bc', 'bot')).toBe(true);
    expect(Robots.parse(body, { profile: 'rfc' }).isAllowed('/a$b', 'bot')).toBe(false);
    expect(Robots.parse(body, { profile: 'rfc' }).isAllowed('/a%24b', 'bot')).toBe(false);
  });
});

describe('only whitespace, only line breaks, nothing', () => {
  const bodies: [name: string, body: string | Uint8Array][] = [
    ['empty string', ''],
    ['empty bytes', new Uint8Array(0)],
    ['spaces, tabs, VT, FF', ' \t\u000b\u000c'.repeat(25_000)],
    ['whitespace on 10k CRLF lines', ' \t\r\n'.repeat(10_000)],
    ['1M LF', '\n'.repeat(1_000_000)],
    ['1M CR', '\r'.repeat(1_000_000)],
    ['1M CRLF', '\r\n'.repeat(1_000_000)],
    ['a BOM only', bytes([0xef, 0xbb, 0xbf])],
    ['a BOM and whitespace', bytes([0xef, 0xbb, 0xbf], '  \n\t')],
  ];
  for (const profile of PROFILES) {
    it.each(bodies)(`${profile}: %s → no groups, everything allowed`, (_name, body) => {
      const robots = Robots.parse(body, { profile, maxBytes: 4_000_000 });
      expect(robots.groups).toHaveLength(0);
      expect(robots.truncated).toBe(false);
      expect(robots.explain('/', 'bot')).toEqual({ allowed: true, line: 0, rule: null, agentLines: [] });
      expect(Array.from(robots.forAgent('bot').matchBatch(['/', '/x']))).toEqual([1, 1]);
    });
  }
});

describe('binary files', () => {
  const MB = 1 << 20;
  for (const profile of PROFILES) {
    it.each([1, 2, 3])(`${profile}: 1 MB of random bytes (seed %i) parses, compiles and agrees with the reference`, (seed) => {
      const body = randomBytes(MB, seed);
      const robots = Robots.parse(body, { profile, maxBytes: MB });
      expect(robots.truncated).toBe(false);
      expectReference(body, 'bot', ['/', '/a', '/%FF', `/${String.fromCharCode(...randomBytes(8, seed).map((b) => 0x21 + (b % 90)))}`], profile, MB);
    });
  }
  it.each(PROFILES)('%s: a gzip-compressed robots.txt served undecoded is just noise: nothing disallowed', async (profile) => {
    const { gzipSync } = await import('node:zlib');
    const gz = gzipSync(Buffer.from('User-agent: *\nDisallow: /\n'.repeat(100)));
    const robots = Robots.parse(new Uint8Array(gz), { profile });
    expect(robots.isAllowed('/x', 'bot')).toBe(true);
    expectReference(new Uint8Array(gz), 'bot', ['/x'], profile);
  });
  it.each(PROFILES)('%s: random bytes shaped like records (keys, separators, wildcards) agree with the reference', (profile) => {
    const alphabet = utf8('User-agent:*Disallow:/Allow:$%#\n\r \t');
    const noise = randomBytes(200_000, 99).map((b) => alphabet[b % alphabet.length]!);
    expectReference(noise, 'bot', ['/', '/D', '/*', '/$', '/a%'], profile, noise.length);
  });
});
