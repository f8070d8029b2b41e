// A plain-rule table over COMPACT_NODES trie nodes: walked without walk/reach records, same verdicts and lines as the reference, both profiles, and a RuleIndex of bounded size.
//
// assembly/rule-index.ts gives a table of at most COMPACT_NODES nodes 52 bytes of walk,
// reach and depth records a node; a larger one gets none and assembly/trie-walk.ts walks
// its NODE records directly. The generated file has enough rules (seeded, the same on every
// run) to pass the threshold, with nodes of more than 16 children, labels longer than the
// 8 bytes a walk record would hold, exact (`$`) rules, repeated patterns of both kinds, the
// root's own rules (an empty `allow:` and `disallow:`, kept by the google profile) before the
// step to "/" that needs no lookup, and, in a second file, patterns that do not start with '/'.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Robots, type Profile } from '../src/index.js';
import { H_NODE_COUNT, H_WILDCARD_COUNT } from '../src/table/format.js';
import { ruleIndexBytes } from '../src/wasm/arena.js';
import { instantiate } from '../src/wasm/instance.js';
import { ReferenceRobots } from './reference/index.js';
import { randomBytes } from './reference/prng.js';

const RULE_INDEX = readFileSync(new URL('../assembly/rule-index.ts', import.meta.url), 'utf8');
const PERFORMANCE = readFileSync(new URL('../docs/PERFORMANCE.md', import.meta.url), 'utf8');

/** A `u32` constant of assembly/rule-index.ts, read from its source (the host has no copy). */
function indexConstant(name: string): number {
  const m = new RegExp(`export const ${name}: u32 = (\\d+);`).exec(RULE_INDEX);
  if (m === null) throw new Error(`expected \`export const ${name}: u32 = N;\` in assembly/rule-index.ts, found none`);
  return Number(m[1]);
}

const COMPACT_NODES = indexConstant('COMPACT_NODES');
const I_HEADER = indexConstant('I_HEADER');
const BLOCK_SIZE = indexConstant('BLOCK_SIZE');
/** walk (32) + reach (16) + depth (4) bytes per node, as rule-index.ts lays them out. */
const RECORD_BYTES = indexConstant('WALK_SIZE') + indexConstant('REACH_SIZE') + 4;

const RULES = 12_000;
const URLS = 300;
const PROFILES: readonly Profile[] = ['rfc', 'google'];
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** Seeded draws in [0, n). */
function draws(seed: number): (n: number) => number {
  const bytes = randomBytes(1 << 22, seed);
  let at = 0;
  return (n) => {
    const v = (bytes[at % bytes.length]! | (bytes[(at + 1) % bytes.length]! << 8) | (bytes[(at + 2) % bytes.length]! << 16)) >>> 0;
    at += 3;
    return v % n;
  };
}

function word(pick: (n: number) => number, length: number): string {
  let s = '';
  for (let i = 0; i < length; i++) s += ALPHABET[pick(ALPHABET.length)];
  return s;
}

/**
 * `RULES` plain rules after `User-agent: *` and an empty `Allow:` and `Disallow:` (the root's
 * rules in the google profile). With `bare`, one pattern in 200 does not start with '/', so
 * the root has more children than "/" and the walk cannot skip its step.
 */
function bigFile(seed: number, bare: boolean): { body: string; patterns: string[] } {
  const pick = draws(seed);
  // Words of 1‥4 bytes (first bytes from 36, so nodes get more than 16 children) and some of 12‥30 (long labels).
  const words = Array.from({ length: 400 }, (_, i) => word(pick, i % 5 === 0 ? 12 + pick(19) : 1 + pick(4)));
  const lines = ['User-agent: *', 'Allow:', 'Disallow:'];
  const patterns: string[] = [];
  for (let i = 0; i < RULES; i++) {
    let p: string;
    if (i > 0 && pick(20) === 0) {
      p = patterns[pick(patterns.length)]!; // the same pattern again: the earlier line wins its ties
    } else {
      p = bare && pick(200) === 0 ? '' : '/';
      const segments = 1 + pick(4);
      for (let s = 0; s < segments; s++) p += (s > 0 ? '/-._'[pick(4)]! : '') + words[pick(words.length)]!;
    }
    patterns.push(p);
    lines.push(`${pick(3) === 0 ? 'Allow' : 'Disallow'}: ${p}${pick(7) === 0 ? '$' : ''}`);
  }
  return { body: lines.join('\n') + '\n', patterns };
}

/** URLs on and around the patterns: whole, cut short, extended, one byte changed; and a few no rule mentions. */
function urlsFor(patterns: readonly string[], count: number): string[] {
  const pick = draws(1818);
  const urls: string[] = [];
  for (let i = 0; i < count; i++) {
    let p = patterns[pick(patterns.length)]!;
    if (!p.startsWith('/')) p = `/${p}`;
    switch (pick(5)) {
      case 0: break;
      case 1: p = p.slice(0, 1 + pick(p.length)); break;
      case 2: p += ['/', 'x', '-a1', '?q=1', '.html', '/' + word(pick, 20)][pick(6)]; break;
      case 3: { const k = pick(p.length); p = p.slice(0, k) + ALPHABET[pick(ALPHABET.length)] + p.slice(k + 1); break; }
      default: p = `/${word(pick, 1 + pick(6))}`;
    }
    urls.push(`https://example.com${p}`);
  }
  return urls;
}

describe(`a plain-rule table of more than COMPACT_NODES (${COMPACT_NODES}) trie nodes`, () => {
  const files = { slash: bigFile(18, false), bare: bigFile(1818, true) };
  const cases = PROFILES.flatMap((profile) => [[profile, 'slash'], [profile, 'bare']] as const);

  it.each(cases)('%s profile, %s patterns: every verdict and deciding line is the reference\'s', (profile, kind) => {
    const { body, patterns } = files[kind];
    // The reference tries every rule on every URL: fewer URLs for the second file.
    const urls = urlsFor(patterns, kind === 'slash' ? URLS : URLS / 3);
    const matcher = Robots.parse(body, { profile }).forAgent('ExampleBot');
    const header = new DataView(matcher.table.buffer, matcher.table.byteOffset, matcher.table.byteLength);
    expect(header.getUint32(H_NODE_COUNT, true), 'the generated table must pass the threshold').toBeGreaterThan(COMPACT_NODES);
    const reference = ReferenceRobots.parse(body, { profile });
    const got = matcher.decideBatch(urls);
    const mismatches: string[] = [];
    for (let i = 0; i < urls.length; i++) {
      const want = reference.explain(urls[i]!, 'ExampleBot');
      const verdict = got.verdicts[i] === 1;
      if (verdict !== want.allowed || got.lines[i] !== want.line) {
        mismatches.push(`${urls[i]}: expected ${want.allowed ? 'allow' : 'disallow'} line ${want.line}, got ${verdict ? 'allow' : 'disallow'} line ${got.lines[i]}`);
      }
    }
    expect(mismatches.slice(0, 5)).toEqual([]);
    // The paths themselves reach plain rules: most verdicts come from a line.
    expect(got.lines.filter((l) => l > 3).length).toBeGreaterThan(urls.length / 2);
  }, 120_000);

  it('its RuleIndex has no per-node bytes: the header and the wildcard blocks only', () => {
    const table = Robots.parse(files.slash.body).forAgent('ExampleBot').table;
    const wildcards = new DataView(table.buffer, table.byteOffset, table.byteLength).getUint32(H_WILDCARD_COUNT, true);
    const bytes = ruleIndexBytes(instantiate(), table);
    expect(bytes).toBeLessThanOrEqual(I_HEADER + BLOCK_SIZE * Math.ceil(wildcards / 16));
  });
});

describe('the RuleIndex\'s trie part is bounded', () => {
  const exports = instantiate();
  const trieBytes = (nodes: number): number => exports.indexBytesFor(0, 0, nodes, 0, 0, 0) - I_HEADER;

  it.each([1, 2, 100, COMPACT_NODES - 1, COMPACT_NODES])('%i nodes: 52 bytes a node (records), rounded up to 16', (nodes) => {
    expect(trieBytes(nodes)).toBe(Math.ceil((nodes * RECORD_BYTES) / 16) * 16);
  });

  it.each([COMPACT_NODES + 1, 25_459, 1_000_000])('%i nodes: none', (nodes) => {
    expect(trieBytes(nodes)).toBe(0);
  });

  it('docs/PERFORMANCE.md quotes the threshold and the bound', () => {
    expect(PERFORMANCE).toContain(COMPACT_NODES.toLocaleString('en-US'));
    expect(PERFORMANCE).toContain((COMPACT_NODES * RECORD_BYTES).toLocaleString('en-US'));
  });
});
