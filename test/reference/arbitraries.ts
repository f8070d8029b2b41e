// fast-check generators for robots.txt bodies, agents and URLs: a grammar biased toward the places parsers disagree.
//
// Bodies are lists of chunks (text or raw bytes) so that invalid UTF-8, NUL, a BOM or a
// partial one, CR/LF/CRLF, VT/FF whitespace, key typos, missing colons and Google's
// 16,663-byte line cut all appear, while most lines stay well-formed enough to match.
import fc from 'fast-check';

const encoder = new TextEncoder();

/** A piece of a body or URL: text (UTF-8 encoded) or raw bytes (possibly invalid UTF-8). */
export type Chunk = string | Uint8Array;

/**
 * Bytes of the chunks, in order.
 * @example chunkBytes(['ab', Uint8Array.of(0xff)]) // Uint8Array [0x61, 0x62, 0xff]
 */
export function chunkBytes(chunks: readonly Chunk[]): Uint8Array {
  const parts = chunks.map((c) => (typeof c === 'string' ? encoder.encode(c) : c));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Flips the ASCII case of the letters of `word` selected by the bits of `mask`. */
function withCase(word: string, mask: number): string {
  let out = '';
  for (let i = 0; i < word.length; i++) {
    const ch = word[i]!;
    out += (mask >> (i % 30)) & 1 ? (ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase()) : ch;
  }
  return out;
}

const KEYS = [
  'user-agent', 'user-agent', 'user-agent', 'useragent', 'user agent', 'user-agents', 'user_agent',
  'allow', 'allow', 'allow', 'allowed', 'alow',
  'disallow', 'disallow', 'disallow', 'dissallow', 'dissalow', 'disalow', 'diasllow', 'disallaw', 'disallowed',
  'sitemap', 'site-map', 'crawl-delay', 'host', 'noindex', '',
];

const SEPARATORS = [':', ':', ':', ': ', ' : ', ':\t', '\t:\t', ' :', '::', ' ', '\t', ' \t ', '\u000b', '\u000c', ': \u000b', ''];
const SPACES = ['', '', '', ' ', '\t', '  ', '\u000b', '\u000c'];
const COMMENTS = ['', '', '', '', '#', ' # note', '#x: /y', '# ünï', '\t#'];
const NEWLINES = ['\n', '\n', '\n', '\r\n', '\r\n', '\r'];

const AGENT_VALUES = [
  'FooBot', 'foobot', 'FOOBOT', 'BarBot', 'barbot', '*', '*', '* ', '*\tjunk', '* FooBot', '*x', '*FooBot',
  'Foo Bar', 'FooBot/1.0', 'FooBot*', 'foo_bot', 'foo-bot', '', 'baz', 'f\u00f6o', 'Foo\tBot',
];

/** Agent tokens asked for; several overlap the user-agent values above. */
export const AGENTS = [
  'FooBot', 'foobot', 'FOOBOT', 'BarBot', 'foo', 'Foo Bar', 'foo bar', 'foo_bot', 'foo-bot', '', '*', 'baz', 'f\u00f6o', 'FooBot/1.0', 'qux',
] as const;

/** Pieces paths and patterns are made of: wildcards, anchors, escapes valid and not, non-ASCII. */
const PATH_PIECES = [
  '/', '/', '/', 'a', 'a', 'b', 'A', 'B', '*', '*', '$', '$', '%', '%2F', '%2f', '%41', '%61', '%7E', '%7e', '%24',
  '%2A', '%2a', '%4', '%G1', '%C3%A9', '%c3%a9', '?', '=', ';', '&', 'é', 'ツ', '~', '.', '-', '_', 'index.htm',
  'index.html', 'x.php', ' ', ':', '%20', '+', '@', '!', "'", '(', ')', ',', '"', '<', '\u007f', '\u0001',
];

const pathPiece = fc.constantFrom(...PATH_PIECES);

/** A pattern or path body: a start (usually '/') then pieces. */
export const pathText = fc
  .tuple(fc.constantFrom('/', '/', '/', '/', '', '*', 'a', '$'), fc.array(pathPiece, { maxLength: 8 }))
  .map(([head, pieces]) => head + pieces.join(''));

const rawBytes = fc.constantFrom(
  Uint8Array.of(0xff), Uint8Array.of(0xc3), Uint8Array.of(0x80), Uint8Array.of(0xe3, 0x83), Uint8Array.of(0x00),
  Uint8Array.of(0xc3, 0xa9), Uint8Array.of(0xf0, 0x9f, 0x98, 0x80), Uint8Array.of(0xed, 0xa0, 0x80),
);

const mask = fc.integer({ min: 0, max: 0x3fffffff });

/** `key sep value` with optional whitespace and comment; the value matches the key's kind. */
const recordLine: fc.Arbitrary<Chunk[]> = fc
  .tuple(
    fc.constantFrom(...KEYS), mask, fc.constantFrom(...SEPARATORS), fc.constantFrom(...SPACES), fc.constantFrom(...SPACES),
    fc.constantFrom(...COMMENTS), pathText, fc.constantFrom(...AGENT_VALUES), fc.option(rawBytes, { freq: 8 }),
  )
  .map(([key, caseMask, sep, lead, trail, comment, path, agent, raw]) => {
    const isAgent = /^user/.test(key);
    const value = isAgent ? agent : key === 'sitemap' || key === 'site-map' ? `https://h${path}` : path;
    const chunks: Chunk[] = [lead + withCase(key, caseMask) + sep + value];
    if (raw !== null) chunks.push(raw, isAgent ? '' : path);
    chunks.push(trail + comment);
    return chunks;
  });

/** A line robots.cc cuts: the 16,663-byte limit falls near the interesting bytes. */
const longLine: fc.Arbitrary<Chunk[]> = fc
  .tuple(fc.constantFrom('disallow: /', 'allow: /', 'user-agent: '), fc.integer({ min: -12, max: 12 }), pathText)
  .map(([key, delta, tail]) => [key + 'l'.repeat(16663 - key.length + delta) + tail]);

const otherLine: fc.Arbitrary<Chunk[]> = fc.oneof(
  fc.constantFrom<Chunk[]>([''], [''], ['# just a comment'], ['   '], ['\t\u000b\u000c'], ['no separator here'], ['disallow /a /b']),
  fc.array(fc.constantFrom('a', ':', ' ', '/', '#', '*', '\u0000', 'é'), { maxLength: 12 }).map((cs) => [cs.join('')]),
  rawBytes.map((b): Chunk[] => [b]),
);

const line: fc.Arbitrary<Chunk[]> = fc.oneof(
  { weight: 14, arbitrary: recordLine },
  { weight: 4, arbitrary: otherLine },
  { weight: 1, arbitrary: fc.constant<Chunk[]>(['']) },
);

/** A robots.txt body as chunks, with rare BOMs and rare 16 KB lines. */
export const bodyChunks: fc.Arbitrary<Chunk[]> = fc
  .tuple(
    fc.constantFrom<Chunk[]>([], [], [], [], [], [Uint8Array.of(0xef, 0xbb, 0xbf)], ['\ufeff'], [Uint8Array.of(0xef, 0xbb)], [Uint8Array.of(0xef)]),
    fc.array(fc.tuple(fc.oneof({ weight: 60, arbitrary: line }, { weight: 1, arbitrary: longLine }), fc.constantFrom(...NEWLINES)), { maxLength: 24 }),
    fc.boolean(),
  )
  .map(([bom, lines, finalNewline]) => {
    const out: Chunk[] = [...bom];
    lines.forEach(([chunks, nl], i) => {
      out.push(...chunks);
      if (i < lines.length - 1 || finalNewline) out.push(nl);
    });
    return out;
  });

const URL_PREFIXES = [
  '', '', '', 'http://example.com', 'https://h', 'https://h:8080', '//h', 'h', 'example.com', 'http://u:p@h', 'a://', 'ftp://x/y',
  'http://h?', 'http://h#', 'HTTP://H', 'http:/h', '?', ';', '#',
];
const URL_TAILS = ['', '', '', '?q=1', '?', '#frag', '#', '?a=b#c', ';p', '/robots.txt', '/robots.txt?x', '/ROBOTS.TXT', '/robots%2Etxt', '//'];

/** A URL as text: prefix, path made of pattern pieces, tail. Never holds CR or LF. */
export const urlText = fc
  .tuple(fc.constantFrom(...URL_PREFIXES), pathText, fc.constantFrom(...URL_TAILS), fc.option(fc.constantFrom('\ud800', '\u0000', '😀', '\t'), { freq: 10 }))
  .map(([prefix, path, tail, odd]) => prefix + path + (odd ?? '') + tail);

/** A URL line as raw bytes, sometimes not UTF-8 (only `matchLines` can carry these). */
export const urlBytes = fc
  .tuple(urlText, rawBytes, pathText)
  .map(([head, raw, tail]) => chunkBytes([head, raw.includes(0x0a) ? '' : raw, tail]));
