// RFC 9309 §2.2.1 (the user-agent line): which groups apply to a crawler, merging and the `*` fallback.
//
// §2.2.1: "Crawlers MUST use case-insensitive matching to find the group that matches the
//   product token and then obey the rules of the group. If there is more than one group
//   matching the user-agent, the matching groups' rules MUST be combined into one group"
// §2.2.1: "If no matching group exists, crawlers MUST obey the group with a user-agent line
//   with the "*" value, if present." ... "If no group matches the product token and there
//   is no group with a user-agent line with the "*" value, or no groups are present at
//   all, no rules apply."
// §2.2.1 ABNF: product-token = identifier / "*"; identifier = 1*(%x2D / %x41-5A / %x5F / %x61-7A)
//
// Both profiles read a user-agent value that is not a product token by its leading
// [A-Za-z_-] run ("Foo Bar" and "FooBot/1.0" name foo/foobot): RFC 9309 §2.3.1.5 asks
// crawlers to "use the parseable rules", and Google's matcher reads it so. Profile
// difference (asserted, not skipped): Google-compat treats "* anything" as global.
// A crawler's own token that is not a product token is refused (test/user-agent-tokens.test.ts).
import { describe, expect, it } from 'vitest';
import { parseCached } from './helpers/all-paths.js';
import { describeRows, type Row } from './helpers/cases.js';

const MERGE = 'user-agent: ExampleBot\ndisallow: /foo\ndisallow: /bar\n\nuser-agent: ExampleBot\ndisallow: /baz\n';
const FALLBACK = 'user-agent: *\ndisallow: /foo\ndisallow: /bar\n\nuser-agent: BazBot\ndisallow: /baz\n';
const TWO_GLOBALS = 'user-agent: *\ndisallow: /a\n\nuser-agent: FooBot\ndisallow: /\n\nuser-agent: *\ndisallow: /b\n';
const SPECIFIC_OVER_GLOBAL = 'user-agent: *\ndisallow: /x\nuser-agent: FooBot\nallow: /x/y\n';

const matchingRows: Row[] = [
  ['user-agent: FooBot\ndisallow: /\n', 'FooBot', '/', false, 'exact token'],
  ['user-agent: FooBot\ndisallow: /\n', 'foobot', '/', false, 'crawler token lowercased'],
  ['user-agent: FooBot\ndisallow: /\n', 'FOOBOT', '/', false, 'crawler token uppercased'],
  ['user-agent: FOOBOT\ndisallow: /\n', 'FooBot', '/', false, 'line value uppercased'],
  ['user-agent: fOoBoT\ndisallow: /\n', 'FooBot', '/', false, 'line value mixed case'],
  ['user-agent: foo_bot\ndisallow: /\n', 'Foo_Bot', '/', false, 'underscore in token'],
  ['user-agent: foo-bot\ndisallow: /\n', 'FOO-BOT', '/', false, 'hyphen in token'],
  ['user-agent: Foo\ndisallow: /\n', 'FooBot', '/', true, 'a shorter line value is not a prefix match'],
  ['user-agent: FooBot\ndisallow: /\n', 'Foo', '/', true, 'a shorter crawler token is not a prefix match'],
  ['user-agent: BarFooBot\ndisallow: /\n', 'FooBot', '/', true, 'no substring match'],
  ['user-agent: FooBot  \ndisallow: /\n', 'FooBot', '/', false, 'trailing whitespace is not part of the value'],
  ['user-agent: FooBot # the crawler\ndisallow: /\n', 'FooBot', '/', false, 'trailing comment is not part of the value'],
];

const mergeRows: Row[] = [
  [MERGE, 'ExampleBot', '/foo', false, 'RFC example: merged group keeps /foo'],
  [MERGE, 'ExampleBot', '/bar', false, 'RFC example: merged group keeps /bar'],
  [MERGE, 'ExampleBot', '/baz', false, 'RFC example: merged group adds /baz'],
  [MERGE, 'examplebot', '/baz', false, 'merge is case-insensitive too'],
  [MERGE, 'ExampleBot', '/qux', true, 'merged group: no match → allowed'],
  ['user-agent: FooBot\ndisallow: /a\nuser-agent: FooBot\nallow: /a/b\n', 'FooBot', '/a/b', true, 'longest match across merged groups'],
  ['user-agent: FooBot\nallow: /a/b\nuser-agent: FOOBOT\ndisallow: /a\n', 'FooBot', '/a/c', false, 'merge across differently cased lines'],
  ['user-agent: a\nuser-agent: FooBot\ndisallow: /x\nuser-agent: FooBot\ndisallow: /y\n', 'FooBot', '/y', false, 'multi-agent group merged with a later one'],
];

const fallbackRows: Row[] = [
  [FALLBACK, 'ExampleBot', '/foo', false, 'RFC example: * applies to an unnamed crawler'],
  [FALLBACK, 'ExampleBot', '/bar', false, 'RFC example: * applies (second rule)'],
  [FALLBACK, 'ExampleBot', '/baz', true, "RFC example: BazBot's rule is not ExampleBot's"],
  [FALLBACK, 'BazBot', '/foo', true, 'a named group replaces * entirely'],
  [FALLBACK, 'BazBot', '/baz', false, 'named group rules apply'],
  [TWO_GLOBALS, 'BarBot', '/a', false, 'two * groups merge (first)'],
  [TWO_GLOBALS, 'BarBot', '/b', false, 'two * groups merge (second)'],
  [TWO_GLOBALS, 'BarBot', '/c', true, 'merged * group: no match → allowed'],
  [TWO_GLOBALS, 'FooBot', '/c', false, 'the named crawler ignores both * groups'],
  [SPECIFIC_OVER_GLOBAL, 'FooBot', '/x/y', true, 'specific group wins over * (spec-test global-rules)'],
  [SPECIFIC_OVER_GLOBAL, 'BarBot', '/x/y', false, 'others obey *'],
  [SPECIFIC_OVER_GLOBAL, 'FooBot', '/x/z', true, '* rules are not added to a named group'],
  ['user-agent: FooBot\nallow: /\nuser-agent: BarBot\ndisallow: /\n', 'QuxBot', '/x', true, 'no match, no * → no rules apply'],
  ['user-agent: *\ndisallow: /\nuser-agent: FooBot\nuser-agent: *\nallow: /x\n', 'BarBot', '/x', true, '* may share a group with a named agent'],
  ['user-agent: *\ndisallow: /\nuser-agent: FooBot\nuser-agent: *\nallow: /x\n', 'BarBot', '/y', false, 'the plain * group still applies'],
];

const tokenRows: Row[] = [
  // RFC 9309 §2.3.1.5 (both profiles): a value that is not a product token names its leading [A-Za-z_-] run.
  ['user-agent: FooBot/1.0\ndisallow: /\n', 'FooBot', '/', false, 'version suffix on the line'],
  ['user-agent: Foo Bar\nallow: /x/\ndisallow: /\n', 'Foo', '/a', false, 'two words on the line'],
  ['user-agent: Foo Bar\nallow: /x/\ndisallow: /\n', 'Foo', '/x/y', true, 'two words: /x/ allowed either way'],
  ['user-agent: *\ndisallow: /\nuser-agent: Foo Bar\nallow: /x/\ndisallow: /\n', 'Foo', '/x/y', true, 'spec-test user-agent-name/0/0'],
  ['user-agent: AB42bot\ndisallow: /\n', 'AB', '/', false, 'digits end the token'],
  ['user-agent: FooBot\ndisallow: /\n', 'Foo', '/', true, 'a product token is still matched whole'],
  // RFC 9309 §2.2.1: only the value "*" is global; Google-compat: "*" followed by whitespace too.
  ['user-agent: * foo\ndisallow: /\n', 'BarBot', '/', { rfc: true, google: false }, '"* foo" is not the global token'],
  ['user-agent: *\tfoo\ndisallow: /\n', 'BarBot', '/', { rfc: true, google: false }, '"*<TAB>foo" is not the global token'],
  ['user-agent: *foo\ndisallow: /\n', 'BarBot', '/', true, '"*foo" is global in neither profile'],
  ['user-agent:*\ndisallow: /\n', 'BarBot', '/', false, '"*" without a space after the colon'],
];

describeRows('RFC 9309 §2.2.1: case-insensitive product-token matching', matchingRows);
describeRows('RFC 9309 §2.2.1: matching groups MUST be combined', mergeRows);
describeRows('RFC 9309 §2.2.1: the * group when no group matches', fallbackRows);
describeRows('RFC 9309 §2.2.1, §2.3.1.5: the product token of a user-agent value', tokenRows);

describe('RFC 9309 §2.2.1: groups as parsed', () => {
  it('rfc: agents are the lowercased tokens (leading run of a value that is none), "*" sets global', () => {
    const robots = parseCached('User-agent: FooBot\nUser-agent: *\nUser-agent: Foo Bar\nDisallow: /\n', 'rfc');
    expect(robots.groups).toHaveLength(1);
    expect(robots.groups[0]!.agents).toEqual(['foobot', 'foo']);
    expect(robots.groups[0]!.global).toBe(true);
    expect(robots.groups[0]!.line).toBe(1);
  });
  it('google: agents are cut at the first byte outside [A-Za-z_-]', () => {
    const robots = parseCached('User-agent: FooBot/2.1\nUser-agent: * x\nUser-agent: Foo Bar\nDisallow: /\n', 'google');
    expect(robots.groups).toHaveLength(1);
    expect(robots.groups[0]!.agents).toEqual(['foobot', 'foo']);
    expect(robots.groups[0]!.global).toBe(true);
  });
  it('a user-agent line after rules opens a new group with its own line number', () => {
    const robots = parseCached('user-agent: a\ndisallow: /x\n\nuser-agent: b\nuser-agent: c\nallow: /y\n', 'rfc');
    expect(robots.groups.map((g) => [g.agents, g.line, g.rules.map((r) => [r.allow, r.line])])).toEqual([
      [['a'], 1, [[false, 2]]],
      [['b', 'c'], 4, [[true, 6]]],
    ]);
  });
});
