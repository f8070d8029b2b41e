// RFC 9309 §2.2.3 (special characters): "#" comments, "$" end anchor, "*" wildcard, and %2A / %24 for literals.
//
// §2.2.3: "Crawlers MUST support the following special characters: # (Designates a line
//   comment), $ (Designates the end of the match pattern), * (Designates 0 or more
//   instances of any character)."
// §2.2.3: "If crawlers match special characters verbatim in the URI, crawlers SHOULD use
//   "%" encoding." Examples: /path/file-with-a-%2A.html matches
//   https://www.example.com/path/file-with-a-*.html, /path/foo-%24 matches .../path/foo-$
//
// Profile difference (asserted): Google's matcher compares the URL as given, so a rule's
// %2A / %24 only match a URL that also spells them %2A / %24.
import { describeRows, type Row } from './helpers/cases.js';

const ua = (rules: string): string => `User-agent: FooBot\n${rules}`;

const wildcardRows: Row[] = [
  [ua('Disallow: /foo/bar/quz\nAllow: /foo/*/qux\n'), 'FooBot', '/foo/bar/quz', false, 'special-characters/0: no wildcard match'],
  [ua('Disallow: /foo/bar/quz\nAllow: /foo/*/qux\n'), 'FooBot', '/foo/quz', true, 'special-characters/0: unrelated path'],
  [ua('Disallow: /foo/\nAllow: /foo/*/qux\n'), 'FooBot', '/foo/bar/qux', true, '* spans one segment'],
  [ua('Disallow: /foo/\nAllow: /foo/*/qux\n'), 'FooBot', '/foo/a/b/c/qux', true, '* spans several segments'],
  [ua('Disallow: /foo/\nAllow: /foo/*/qux\n'), 'FooBot', '/foo//qux', true, '* matches zero characters'],
  [ua('Disallow: /fish*\n'), 'FooBot', '/fish', false, 'trailing * is the same as none'],
  [ua('Disallow: /fish*\n'), 'FooBot', '/fishheads/yummy.html', false, 'trailing * (longer path)'],
  [ua('Disallow: /fish*\n'), 'FooBot', '/catfish', true, 'the pattern still starts at the first octet'],
  [ua('Disallow: /*.php\n'), 'FooBot', '/folder/filename.php?parameters', false, 'leading wildcard'],
  [ua('Disallow: /*.php\n'), 'FooBot', '/index?f=filename.php/', false, 'wildcard runs into the query'],
  [ua('Disallow: /*.php\n'), 'FooBot', '/windows.PHP', true, 'literal parts stay case sensitive'],
  [ua('Disallow: /*.php\n'), 'FooBot', '/php/', true, 'the literal part must appear'],
  [ua('Disallow: /fish*.php\n'), 'FooBot', '/fishheads/catfish.php?parameters', false, 'wildcard in the middle'],
  [ua('Disallow: /fish*.php\n'), 'FooBot', '/Fish.PHP', true, 'wildcard in the middle, case differs'],
  [ua('Disallow: /a**b\n'), 'FooBot', '/axxb', false, 'consecutive wildcards'],
  [ua('Disallow: /a*b*c\n'), 'FooBot', '/a-b-b-c-c', false, 'several wildcards, backtracking'],
  [ua('Disallow: /a*b*c\n'), 'FooBot', '/a-c-b', true, 'several wildcards, wrong order'],
  [ua('Disallow: *\n'), 'FooBot', '/anything', false, 'a lone *'],
];

const anchorRows: Row[] = [
  [ua('Disallow: /foo/bar$\nAllow: /foo/bar/qux\n'), 'FooBot', '/foo/bar', false, 'special-characters/1: anchored match'],
  [ua('Disallow: /foo/bar$\nAllow: /foo/bar/qux\n'), 'FooBot', '/foo/bar/', true, 'anchored: a longer path does not match'],
  [ua('Disallow: /foo/bar$\nAllow: /foo/bar/qux\n'), 'FooBot', '/foo/bar/baz', true, 'anchored: neither rule'],
  [ua('Disallow: /foo/bar$\n'), 'FooBot', '/foo/bar?x', true, 'anchored: the query counts'],
  [ua('Disallow: /*.php$\n'), 'FooBot', '/folder/filename.php', false, 'wildcard then anchor'],
  [ua('Disallow: /*.php$\n'), 'FooBot', '/filename.php?parameters', true, 'wildcard then anchor, query after'],
  [ua('Disallow: /*.php$\n'), 'FooBot', '/filename.php5', true, 'wildcard then anchor, suffix'],
  [ua('Disallow: /*.php$\n'), 'FooBot', '/a.php/b.php', false, 'the anchor tries every occurrence'],
  [ua('Disallow: /$\n'), 'FooBot', '/', false, '/$ is the root only'],
  [ua('Disallow: /$\n'), 'FooBot', '/a', true, '/$ is the root only (other path)'],
  [ua('Disallow: /*$\n'), 'FooBot', '/any', false, '*$ matches everything'],
];

const commentRows: Row[] = [
  [ua('# Disallow: /\nDisallow: /foo/quz#qux\nAllow: /\n'), 'FooBot', '/foo/bar', true, 'special-characters/2: commented-out rule'],
  [ua('# Disallow: /\nDisallow: /foo/quz#qux\nAllow: /\n'), 'FooBot', '/foo/quz', false, 'special-characters/2: # ends the pattern'],
  [ua('Disallow: /foo/quz#qux\n'), 'FooBot', '/foo/quz#qux', false, "the URL's fragment is dropped too"],
  [ua('Disallow: /a # comment\n'), 'FooBot', '/a', false, 'comment after whitespace'],
  [ua('Disallow: # /a\n'), 'FooBot', '/a', true, 'comment swallows the whole value'],
  ['User-agent: FooBot # me\nDisallow: /a\n', 'FooBot', '/a', false, 'comment after a user-agent value'],
  ['# User-agent: FooBot\nUser-agent: *\nDisallow: /a\n', 'FooBot', '/a', false, 'commented-out user-agent line'],
  ['  # indented comment\nUser-agent: *\nDisallow: /a\n', 'FooBot', '/a', false, 'indented comment line'],
];

const literalRows: Row[] = [
  // RFC 9309 §2.2.3: %2A and %24 in a rule match a literal * and $ in the URL (rfc profile).
  [ua('Disallow: /path/file-with-a-%2A.html\n'), 'FooBot', 'https://www.example.com/path/file-with-a-*.html', { rfc: false, google: true }, 'RFC example: %2A matches *'],
  [ua('Disallow: /path/foo-%24\n'), 'FooBot', 'https://www.example.com/path/foo-$', { rfc: false, google: true }, 'RFC example: %24 matches $'],
  [ua('Disallow: /path/foo-%24\n'), 'FooBot', '/path/foo-%24', false, '%24 matches %24'],
  [ua('Disallow: /path/file-with-a-%2a.html\n'), 'FooBot', '/path/file-with-a-*.html', { rfc: false, google: true }, 'lowercase %2a'],
  [ua('Disallow: /path/file-with-a-%2A.html\n'), 'FooBot', '/path/file-with-a-x.html', true, '%2A is not a wildcard'],
  [ua('Disallow: /path/foo-%24\n'), 'FooBot', '/path/foo-', true, '%24 is not an anchor'],
  [ua('Disallow: /path/foo-%24\n'), 'FooBot', '/path/foo-$bar', { rfc: false, google: true }, '%24 then more path'],
  [ua('Disallow: /a$b\n'), 'FooBot', '/a$b', false, '$ before the end is a literal'],
  [ua('Disallow: /a$b\n'), 'FooBot', '/a', true, '$ before the end is not an anchor'],
  [ua('Disallow: /a*\n'), 'FooBot', '/a*', false, 'a wildcard also matches a literal *'],
  [ua('Disallow: /a%2A\n'), 'FooBot', '/a%2A', false, '%2A matches %2A'],
  [ua('Disallow: /a%2A\n'), 'FooBot', '/a%2a', { rfc: false, google: true }, '%2a in the URL is uppercased (rfc only)'],
];

describeRows('RFC 9309 §2.2.3: * designates 0 or more instances of any character', wildcardRows);
describeRows('RFC 9309 §2.2.3: $ designates the end of the match pattern', anchorRows);
describeRows('RFC 9309 §2.2.3: # designates a line comment', commentRows);
describeRows('RFC 9309 §2.2.3: %2A and %24 match a literal * and $', literalRows);
