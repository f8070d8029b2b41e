// RFC 9309 §2.1 (protocol definition): what a group is, where it ends, and rules outside any group.
//
// §2.1: "Group: One or more user-agent lines that are followed by one or more rules. The
//   group is terminated by a user-agent line or end of file. [...] The last group may have
//   no rules, which means it implicitly allows everything."
// §2.1 ABNF: group = startgroupline *(startgroupline / emptyline) *(rule / emptyline)
// §2.2.2: "The crawler SHOULD ignore "disallow" and "allow" rules that are not in any
//   group (for example, any rule that precedes the first user-agent line)."
import { describe, expect, it } from 'vitest';
import { evaluateAllPaths } from './helpers/all-paths.js';
import { describeRows, type Row } from './helpers/cases.js';

// The example file of robots_test.cc / robotstxt-spec-test "groups".
const GROUPS = [
  'allow: /foo/bar/', //         1  before any user-agent: ignored
  '',
  'user-agent: FooBot', //       3
  'disallow: /',
  'allow: /x/', //               5
  'user-agent: BarBot', //       6  a user-agent after rules starts a new group
  'disallow: /',
  'allow: /y/',
  '',
  '',
  'allow: /w/', //              11  blank lines do not end BarBot's group
  'user-agent: BazBot', //      12
  '',
  'user-agent: FooBot', //      14  BazBot and FooBot share this group
  'allow: /z/',
  'disallow: /',
  '',
].join('\n');

const groupRows: Row[] = [
  [GROUPS, 'FooBot', 'http://foo.bar/x/b', true, 'first FooBot group allows /x/'],
  [GROUPS, 'FooBot', 'http://foo.bar/z/d', true, 'second FooBot group allows /z/ (groups merge)'],
  [GROUPS, 'FooBot', 'http://foo.bar/y/c', false, "BarBot's allow /y/ is not FooBot's"],
  [GROUPS, 'BarBot', 'http://foo.bar/y/c', true, 'BarBot allows /y/'],
  [GROUPS, 'BarBot', 'http://foo.bar/w/a', true, 'allow after blank lines stays in the group'],
  [GROUPS, 'BarBot', 'http://foo.bar/z/d', false, "FooBot's allow /z/ is not BarBot's"],
  [GROUPS, 'BazBot', 'http://foo.bar/z/d', true, 'consecutive user-agent lines share one group'],
  [GROUPS, 'FooBot', 'http://foo.bar/foo/bar/', false, 'rule before the first user-agent ignored (FooBot)'],
  [GROUPS, 'BarBot', 'http://foo.bar/foo/bar/', false, 'rule before the first user-agent ignored (BarBot)'],
  [GROUPS, 'BazBot', 'http://foo.bar/foo/bar/', false, 'rule before the first user-agent ignored (BazBot)'],
  [GROUPS, 'QuxBot', 'http://foo.bar/anything', true, 'no group for QuxBot and no * group'],
];

const boundaryRows: Row[] = [
  ['', 'FooBot', '/', true, 'empty file: no groups, no rules'],
  ['# nothing but a comment\n\n', 'FooBot', '/x', true, 'only comments and blank lines'],
  ['disallow: /\n', 'FooBot', '/x', true, 'a rule with no group at all is ignored'],
  ['disallow: /\nuser-agent: *\nallow: /a\n', 'FooBot', '/x', true, 'orphan disallow does not join the next group'],
  ['user-agent: *\ndisallow: /\nuser-agent: FooBot\n', 'FooBot', '/x', true, 'last group without rules allows all'],
  ['user-agent: *\ndisallow: /\nuser-agent: FooBot\n', 'BarBot', '/x', false, 'the * group still applies to others'],
  ['user-agent: FooBot\n', 'FooBot', '/x', true, 'a lone user-agent line'],
  ['user-agent: a\n\n\nuser-agent: b\ndisallow: /x\n', 'a', '/x', false, 'blank lines between user-agent lines do not split'],
  ['user-agent: a\nuser-agent: b\ndisallow: /x\n', 'b', '/x', false, 'second user-agent line of a group'],
  ['user-agent: a\ndisallow: /x\nuser-agent: b\ndisallow: /y\n', 'a', '/y', true, 'a group ends at the next user-agent after rules'],
  ['user-agent: a\ndisallow: /x\nuser-agent: b\ndisallow: /y\n', 'b', '/x', true, 'rules do not carry into the next group'],
  ['user-agent: a\ndisallow: /x\n\n\n\ndisallow: /y\n', 'a', '/y', false, 'blank lines inside a group keep its rules together'],
  ['user-agent: a\ndisallow: /x\n# comment\ndisallow: /y\n', 'a', '/y', false, 'comment lines inside a group'],
  ['user-agent: a\ndisallow: /x', 'a', '/x', false, 'last line without a line ending is still read'],
];

describeRows('RFC 9309 §2.1: groups (robots_test.cc ID_LineSyntax_Groups)', groupRows);
describeRows('RFC 9309 §2.1: group boundaries', boundaryRows);

describe('RFC 9309 §2.1: explain() cites the deciding line of the merged groups', () => {
  for (const profile of ['rfc', 'google'] as const) {
    it(`${profile}: lines come from the group where the rule was written`, () => {
      expect(evaluateAllPaths(GROUPS, 'FooBot', '/z/d', profile)).toMatchObject({ allowed: true, line: 15 });
      expect(evaluateAllPaths(GROUPS, 'FooBot', '/x/b', profile)).toMatchObject({ allowed: true, line: 5 });
      // Both FooBot groups disallow "/": equal priority, the first in file order is cited
      // (robots.cc keeps a match unless a later one is strictly longer).
      expect(evaluateAllPaths(GROUPS, 'FooBot', '/q', profile)).toEqual({ allowed: false, line: 4, rule: 'disallow: /' });
      expect(evaluateAllPaths(GROUPS, 'QuxBot', '/q', profile)).toEqual({ allowed: true, line: 0, rule: null });
    });
  }
});
