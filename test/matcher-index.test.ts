// The RuleIndex (assembly/match.ts) against the reference matcher: its wildcard prefilter never drops a matching rule (each condition at its edge, across 16-rule blocks) and its walk records find every plain rule (wide nodes, long labels).
//
// The prefilter may let through rules that do not match (they are then matched for real),
// but a rule it wrongly rejects changes a verdict silently. So each case below is built to
// sit on one condition's edge: a path exactly as long as the rule, one byte shorter, the
// tested byte right or off by one, more than 8 rare bytes competing for the 8 classes,
// rules straddling the 16-rule blocks, pieces longer than the 254-byte length cap.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Robots, type Profile } from '../src/index.js';
import { ReferenceRobots } from './reference/index.js';

const PROFILES: readonly Profile[] = ['rfc', 'google'];

/** Every URL's verdict and deciding line from decideBatch, matchLines and isAllowed equal the reference's. */
function agrees(body: string, urls: readonly string[]): void {
  for (const profile of PROFILES) {
    const ref = ReferenceRobots.parse(body, { profile });
    const m = Robots.parse(body, { profile }).forAgent('FooBot');
    const decided = m.decideBatch(urls);
    const lines = m.matchLines(new TextEncoder().encode(urls.join('\n') + '\n'));
    urls.forEach((url, i) => {
      const want = ref.explain(url, 'FooBot');
      const got = { allowed: decided.verdicts[i] === 1, line: decided.lines[i] };
      expect(got, `${profile} ${JSON.stringify(url)} against ${JSON.stringify(body)}`).toEqual({ allowed: want.allowed, line: want.line });
      expect(lines[i] === 1, `matchLines ${profile} ${JSON.stringify(url)}`).toBe(want.allowed);
      expect(m.isAllowed(url), `isAllowed ${profile} ${JSON.stringify(url)}`).toBe(want.allowed);
    });
  }
}

function body(rules: readonly string[]): string {
  return ['User-agent: FooBot', ...rules].join('\n');
}

describe('RuleIndex conditions at their edges', () => {
  it('second and third byte of the first piece: right, wrong, and paths too short to have them', () => {
    const rules = ['Disallow: /x*', 'Disallow: /ab*z', 'Allow: /abc*q', 'Disallow: /*'.replace('/*', '/a*c$')];
    agrees(body(rules), ['/', '/x', '/y', '/a', '/ab', '/abz', '/abcq', '/abdq', '/ac', '/a/c', '/bbz', '/aXz']);
  });

  it('last and penultimate byte of an anchored last piece, including a one-byte piece and `*$`', () => {
    const rules = ['Disallow: /*.pdf$', 'Disallow: /*f$', 'Allow: /*/x*$', 'Disallow: /q*z$', 'Allow: /*df$'];
    agrees(body(rules), ['/', '/f', '/a.pdf', '/a.pdf?x', '/pdf', '/df', '/a.pd', '/qz', '/q', '/z', '/q/z', '/q.z', '/a/x', '/a/xy']);
  });

  it('minimum length: a path exactly as long as the pieces, and one byte shorter', () => {
    const rules = ['Disallow: /abc*def*ghi', 'Allow: /abc*defx'];
    agrees(body(rules), ['/abcdefghi', '/abcdefgh', '/abcdefx', '/abcdef', '/abc-def-ghi', '/abcghidef']);
  });

  it('more than 16 rare bytes: rules whose bytes got no class still match', () => {
    const rare = ['?', '=', '&', '%25', '!', '~', '+', ',', ';', ':', '@', '(', ')', "'", '[', ']', '^', '|', '{', '}', 'Q', 'X', 'Z', 'J'];
    const rules = rare.map((c, i) => `${i % 2 ? 'Allow' : 'Disallow'}: /*${c}k${i}`);
    const urls = rare.flatMap((c, i) => [`/a${c}k${i}`, `/a${c}k${i + 1}`, `/ak${i}`]);
    agrees(body(rules), urls);
  });

  it('rules straddling 16-rule blocks keep priority order and earliest-line ties', () => {
    const rules: string[] = [];
    for (let i = 0; i < 40; i++) rules.push(`${i % 3 === 0 ? 'Allow' : 'Disallow'}: /${'s'.repeat(i % 7)}*t${i % 5}`);
    const urls: string[] = [];
    for (let i = 0; i < 40; i++) urls.push(`/${'s'.repeat(i % 9)}xt${i % 6}`, `/${'s'.repeat(i % 4)}t${i % 5}`);
    agrees(body(rules), urls);
  });

  it('pair classes: a pair found at every position of paths of 3 to 41 bytes, across 16-byte steps, up to the last byte', () => {
    // Few rules, so every class is a pair of adjacent bytes (xy, qz, kw).
    const rules = ['Disallow: /*xy', 'Allow: /*qz$', 'Disallow: /*kw*m'];
    const urls: string[] = [];
    for (let n = 3; n <= 41; n++) {
      // The pair at path[k], path[k + 1]; the path is n bytes long.
      for (let k = 1; k + 1 < n; k++) {
        const at = (pair: string): string => `/${'a'.repeat(k - 1)}${pair}${'a'.repeat(n - k - 2)}`;
        urls.push(at('xy'), at('qz'), `${at('kw')}m`, at('x-'), `${at('x-')}y`);
      }
    }
    agrees(body(rules), urls);
  });

  it('pair classes: a pair across a `*` proves nothing, even when another rule has it', () => {
    const rules = ['Disallow: /*ab*cd', 'Allow: /*bc', 'Allow: /x*y', 'Disallow: /*xy', 'Disallow: /*e*f$', 'Allow: /*ef'];
    agrees(body(rules), ['/abcd', '/ab-cd', '/a-bcd', '/bc', '/xy', '/x-y', '/ef', '/e-f', '/fe', '/e', '/f']);
  });

  it('more wildcard rules than classes: single bytes shared between rules, pairs where they fit', () => {
    const letters = 'bcdfghjklmnpqrstvwxz';
    const rules: string[] = [];
    const urls: string[] = [];
    for (let i = 0; i < 40; i++) {
      const pair = `${letters[i % letters.length]}${letters[(i * 7 + 3) % letters.length]}`;
      rules.push(`${i % 2 ? 'Allow' : 'Disallow'}: /*${pair}${i}`);
      urls.push(`/o${pair}${i}`, `/o${pair[0]}-${pair[1]}${i}`, `/${pair}${i}/o`);
    }
    agrees(body(rules), urls);
  });

  it('pieces longer than the 254-byte length cap, and paths around it', () => {
    const long = 'p'.repeat(300);
    const rules = [`Disallow: /*${long}`, `Allow: /${'p'.repeat(250)}*q`];
    agrees(body(rules), [`/${long}`, `/${long.slice(1)}`, `/${'p'.repeat(250)}q`, `/${'p'.repeat(253)}q`, `/x${long}`]);
  });
});

describe('RuleIndex walk records (the trie re-laid out for the walk)', () => {
  it('nodes with up to 256 children: the first 16 from the record, the rest from the table', () => {
    // One child per byte value 0x21‥0x7e under /d/, and a few high bytes (percent-encoded in rfc).
    const bytes = Array.from({ length: 0x7e - 0x21 + 1 }, (_, i) => String.fromCharCode(0x21 + i)).filter((c) => c !== '#' && c !== '$' && c !== '*');
    const rules = bytes.map((c, i) => `${i % 2 ? 'Allow' : 'Disallow'}: /d/${c}x`);
    rules.push('Disallow: /d/');
    const urls = bytes.flatMap((c) => [`/d/${c}x`, `/d/${c}`, `/d/${c}y`]);
    agrees(body(rules), [...urls, '/d/', '/d', '/d/\u00e9x']);
  });

  it('labels of 1 to 300 bytes: every byte compared, in the record (bytes 1-8) and past it', () => {
    const rules: string[] = [];
    const urls: string[] = [];
    // Most trie labels here are `${n}/` and the n letters: 3 to 302 bytes, 7 to 12 among them.
    for (const n of [1, 2, 5, 6, 7, 8, 9, 10, 11, 15, 16, 17, 18, 33, 300]) {
      const label = 'abcdefghijklmnopqrstuvwxyz'.repeat(12).slice(0, n);
      rules.push(`Disallow: /${n}/${label}`, `Allow: /${n}/${label}/in`);
      urls.push(`/${n}/${label}`, `/${n}/${label}/in`, `/${n}/${label.slice(0, -1)}`, `/${n}/${label}Z`);
      // The same label with one byte changed, at each position around the record's edge.
      for (const k of new Set([0, 1, 7, 8, 9, 10, 15, 16, 17, n - 1])) {
        if (k < n) urls.push(`/${n}/${label.slice(0, k)}Z${label.slice(k + 1)}`);
      }
    }
    agrees(body(rules), urls);
  });
});

describe('RuleIndex: random wildcard-heavy tables', () => {
  // Rules over a small alphabet with rare bytes mixed in, so classes, byte conditions
  // and priorities collide often; 1–60 rules spans one to four blocks.
  const byte = fc.constantFrom('a', 'b', 'a', '/', '.', '?', '=', '&', '%3F', 'z', '-');
  const piece = fc.array(byte, { maxLength: 4 }).map((b) => b.join(''));
  const pattern = fc
    .tuple(fc.array(piece, { minLength: 1, maxLength: 3 }), fc.boolean())
    .map(([pieces, anchored]) => `/${pieces.join('*')}${pieces.length > 1 || anchored ? '' : '*'}${anchored ? '$' : ''}`);
  const rule = fc.tuple(fc.constantFrom('Allow', 'Disallow'), pattern).map(([k, p]) => `${k}: ${p}`);
  /** `runs` random tables of up to `maxRules` rules, each against 30 URLs of `url`, agree with the reference. */
  const tablesAgree = (runs: number, maxRules: number, url: fc.Arbitrary<string>): void => {
    fc.assert(
      fc.property(fc.array(rule, { minLength: 1, maxLength: maxRules }), fc.array(url, { minLength: 30, maxLength: 30 }), (rules, urls) => {
        agrees(body(rules), urls);
      }),
      { numRuns: runs },
    );
  };
  const path = (minLength: number, maxLength: number): fc.Arbitrary<string> => fc.array(byte, { minLength, maxLength }).map((b) => `/${b.join('')}`);
  it('300 tables × 30 URLs × both profiles agree with the reference', () => tablesAgree(300, 60, path(0, 12)), 60_000);
  it('100 tables × 30 URLs of 13 to 41 bytes (classes found across 16-byte steps) agree with the reference', () => tablesAgree(100, 20, path(12, 40)), 60_000);
});
