// Differential: where RFC 9309 and robots-parser agree, robotstxt-wasm/compat answers exactly as robots-parser does.
//
// Two sources of inputs: hand-written bodies covering the whole API, and generated files
// from a grammar that avoids every documented difference (docs/COMPAT.md, "Where it answers differently"):
// no other records between user-agent lines, no rule-less groups, no /robots.txt, no
// percent escapes, `$` only at the end of a pattern, product tokens only.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import referenceParser from 'robots-parser';
import robotsParser, { type RobotsParserCompat } from '../src/compat.js';

type Reference = (url: string, contents: string) => Omit<RobotsParserCompat, 'robots'>;
const reference = referenceParser as unknown as Reference;

const lines = (...l: string[]): string => l.join('\n');

const BODIES: ReadonlyArray<readonly [string, string]> = [
  ['readme example', lines(
    'User-agent: *', 'Disallow: /dir/', 'Disallow: /test.html', 'Allow: /dir/test.html', 'Allow: /test.html',
    'Crawl-delay: 1', 'Sitemap: http://example.com/sitemap.xml', 'Host: example.com',
  )],
  ['several groups', lines(
    '# shop', 'User-agent: *', 'Disallow: /cart/', 'Allow: /cart/view', 'Crawl-delay: 3', '',
    'User-agent: fast-bot', 'User-agent: Other_Bot', 'Disallow: /', 'Allow: /public/', 'Crawl-delay: 0.5', '',
    'User-agent: slow-bot', 'Disallow: /*.pdf$', 'Disallow: /tmp*', 'Crawl-delay: 30', '',
    'Sitemap: https://www.example.com/a.xml', 'Sitemap: https://www.example.com/b.xml', 'Host: WWW.Example.com',
  )],
  ['wildcards and anchors', lines(
    'User-agent: *', 'Disallow: /*/', 'Allow: /x/', 'Disallow: /a*b*c$', 'Allow: /a*c', 'Disallow: /q?*=',
    'Disallow: /fish*.php', 'Allow: /fish/index.php', 'Disallow: /end$',
  )],
  ['merged groups of the same agent', lines(
    'User-agent: bot', 'Disallow: /one', '', 'User-agent: *', 'Disallow: /star', '', 'User-agent: BOT', 'Disallow: /two', 'Allow: /two/ok',
  )],
  ['unicode and comments', lines(
    'User-agent: *  # all', 'Disallow: /café # accents', 'Disallow: /日本/', 'Allow: /日本/公開', 'Disallow: /x y',
  )],
  ['line endings', 'User-agent: *\r\nDisallow: /crlf\rDisallow: /cr\nDisallow: /lf\n'],
  ['rules before any group and empty values', lines(
    'Disallow: /orphan', 'User-agent: *', 'Disallow:', 'Allow:', 'Disallow: /real',
  )],
  ['empty', ''],
];

const PATHS = [
  '/', '/dir/', '/dir/test.html', '/test.html', '/Test.html', '/cart/', '/cart/view', '/cart/edit?id=1',
  '/public/x', '/private', '/file.pdf', '/file.pdf?x', '/tmp', '/tmpfiles/a', '/x/', '/xx/', '/abc', '/abcd', '/ac',
  '/q?a=1', '/q?a', '/fish.php', '/fish/index.php', '/fishy/cat.php', '/end', '/end/x', '/one', '/two', '/two/ok',
  '/star', '/café', '/caf%C3%A9', '/日本/x', '/日本/公開/a', '/crlf', '/cr', '/lf', '/orphan', '/real/1',
  '/page?param=1#frag', '/a/../dir/x',
];
const AGENTS = [undefined, 'fast-bot', 'Other_Bot/2.0', 'slow-bot', 'BOT', 'bot/1', 'unknown', 'Mozilla/5.0 (compatible; x)'];
const ORIGIN = 'https://www.example.com';
const FOREIGN = ['http://www.example.com/dir/', 'https://example.com/dir/', 'https://www.example.com:8443/dir/', '/dir/'];

function compare(
  body: string,
  paths: readonly string[],
  agents: readonly (string | undefined)[],
  compareDelay: (ua: string | undefined) => boolean = () => true,
): void {
  const ours = robotsParser(`${ORIGIN}/robots.txt`, body);
  const theirs = reference(`${ORIGIN}/robots.txt`, body);
  for (const ua of agents) {
    for (const url of [...paths.map((p) => ORIGIN + p), ...FOREIGN]) {
      const label = `${JSON.stringify(body)} ${url} ${String(ua)}`;
      expect(ours.isAllowed(url, ua), `isAllowed ${label}`).toBe(theirs.isAllowed(url, ua));
      expect(ours.isDisallowed(url, ua), `isDisallowed ${label}`).toBe(theirs.isDisallowed(url, ua));
      expect(ours.getMatchingLineNumber(url, ua), `line ${label}`).toBe(theirs.getMatchingLineNumber(url, ua));
    }
    if (compareDelay(ua)) expect(ours.getCrawlDelay(ua), `crawl-delay ${String(ua)}`).toBe(theirs.getCrawlDelay(ua));
  }
  expect(ours.getSitemaps()).toEqual(theirs.getSitemaps());
  expect(ours.getPreferredHost()).toBe(theirs.getPreferredHost());
}

describe('differential against robots-parser 3', () => {
  it.each(BODIES)('%s: every method agrees', (_name, body) => {
    compare(body, PATHS, AGENTS);
  });

  // Generated files. Characters avoid escapes, so pattern length in octets is the same
  // for both libraries and "longest match" means the same thing.
  const pathChar = fc.constantFrom('a', 'b', 'c', '/', '.', '-', '?', '=');
  const pathText = fc.array(pathChar, { maxLength: 6 }).map((c) => '/' + c.join(''));
  const pattern = fc
    .tuple(fc.array(fc.oneof(pathChar, fc.constant('*')), { maxLength: 6 }), fc.boolean())
    .map(([c, end]) => '/' + c.join('') + (end ? '$' : ''));
  const rule = fc.tuple(fc.boolean(), pattern).map(([allow, p]) => `${allow ? 'Allow' : 'Disallow'}: ${p}`);
  const group = fc.tuple(
    fc.uniqueArray(fc.constantFrom('*', 'alpha', 'Beta', 'gamma-bot'), { minLength: 1, maxLength: 2 }),
    fc.array(rule, { minLength: 1, maxLength: 5 }),
    fc.option(fc.integer({ min: 0, max: 60 }), { nil: undefined }),
  ).map(([agents, rules, delay]) => [
    ...agents.map((a) => `User-agent: ${a}`),
    ...rules,
    // Only after the rules: a Crawl-delay between user-agent lines is a documented difference.
    ...(delay === undefined ? [] : [`Crawl-delay: ${delay}`]),
    '',
  ]);
  const file = fc.array(group, { minLength: 1, maxLength: 4 }).map((groups) => groups.flat().join('\n'));

  it('generated files and URLs: isAllowed, line numbers and crawl-delay agree', () => {
    fc.assert(
      fc.property(file, fc.array(pathText, { minLength: 1, maxLength: 8 }), (body, paths) => {
        // Several groups of one agent each with a Crawl-delay pick different values by
        // design (first vs last wins): their delay is left out, everything else compared.
        compare(body, paths, ['alpha', 'beta/1.0', 'Gamma-Bot', 'delta', undefined], (ua) => !ambiguousDelay(body, ua));
      }),
      { numRuns: 400, seed: 9309 },
    );
  });
});

/** Whether `body` gives `ua`'s groups more than one Crawl-delay (first-wins vs last-wins). */
function ambiguousDelay(body: string, ua: string | undefined): boolean {
  const name = ua === undefined ? '*' : ua.toLowerCase().split('/')[0]!.trim();
  const blocks = body.split('\n\n');
  const names = (b: string) => b.split('\n').filter((l) => l.startsWith('User-agent: ')).map((l) => l.slice(12).toLowerCase());
  let own = blocks.filter((b) => names(b).includes(name));
  if (own.length === 0) own = blocks.filter((b) => names(b).includes('*'));
  return own.filter((b) => b.includes('Crawl-delay:')).length > 1;
}
