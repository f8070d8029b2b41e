// The plain-rule trie is canonical: the same rules give the same table bytes in any insertion order, however paths resume and labels split.
//
// The encoder (src/table/trie.ts) resumes each rule on the previous rule's path and
// splits a label in place, keeping the split node where it is in its parent's list and
// index. None of that may show in the table: the trie of a set of plain patterns, written
// breadth-first with children sorted by first byte and the earliest line per rule kind, is
// one and the same whatever order built it. Rules listed sorted share long prefixes with
// the rule before them (every resume takes the previous path); listed reversed or
// shuffled they mostly do not, so comparing the orders compares the two ways of building.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeRuleTable, type TableRule } from '../src/table/encode.js';
import { validateRuleTable } from '../src/table/validate.js';

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

// Eleven one-byte pieces (more than the 8 children that give a node its byte index) and
// longer ones, so labels are long, split part-way and nodes grow wide.
const PIECES = ['/', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'ab', '/a', 'abc/', 'x/y'];

/** Plain rules (no `*`), some anchored, each on its own line. */
const rules = fc
  .array(fc.tuple(fc.array(fc.constantFrom(...PIECES), { minLength: 0, maxLength: 8 }), fc.boolean(), fc.boolean()), { minLength: 1, maxLength: 60 })
  .map((rows) => rows.map(([pieces, allow, anchored], i): TableRule => ({ allow, pattern: utf8(`/${pieces.join('')}${anchored ? '$' : ''}`), line: i + 1 })));

const compare = (a: Uint8Array, b: Uint8Array): number => {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
};

const encode = (list: readonly TableRule[]): Uint8Array => {
  const table = encodeRuleTable(list, { flags: 0 });
  validateRuleTable(table);
  return table;
};

describe('trie tables do not depend on the order rules are inserted in', () => {
  it('file order, sorted by pattern, reversed and shuffled give the same bytes', () => {
    fc.assert(
      fc.property(rules, fc.integer(), (list, seed) => {
        const table = encode(list);
        const sorted = [...list].sort((x, y) => compare(x.pattern, y.pattern) || x.line - y.line);
        expect(encode(sorted)).toEqual(table);
        expect(encode([...sorted].reverse())).toEqual(table);
        // A seeded Fisher-Yates shuffle: fast-check shrinks the seed with the rest.
        const shuffled = [...list];
        let state = seed >>> 0;
        for (let i = shuffled.length - 1; i > 0; i--) {
          state = (Math.imul(state, 1103515245) + 12345) >>> 0;
          const j = state % (i + 1);
          [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
        }
        expect(encode(shuffled)).toEqual(table);
      }),
      { numRuns: 300, seed: 18 },
    );
  });

  it('a split node keeps its children and lines (a wide node split under a shared prefix)', () => {
    // `/shop/` gets 11 children (a byte index), then `/sh` splits the label above it
    // while the previous rule's path runs through it, then more children join `/shop/`.
    const letters = 'abcdefghijk'.split('');
    const list: TableRule[] = [
      ...letters.map((c, i) => ({ allow: false, pattern: utf8(`/shop/${c}`), line: i + 1 })),
      { allow: true, pattern: utf8('/shop/'), line: 20 },
      { allow: true, pattern: utf8('/sh'), line: 21 },
      { allow: false, pattern: utf8('/shop/z'), line: 22 },
      { allow: false, pattern: utf8('/shop/0'), line: 23 },
    ];
    const table = encode(list);
    expect(encode([...list].reverse())).toEqual(table);
    expect(encode([list[13]!, list[11]!, ...list.slice(0, 11), list[12]!, list[14]!])).toEqual(table);
  });
});
