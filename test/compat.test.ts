// robotstxt-wasm/compat: the documented behaviour of npm robots-parser v3, and each RFC 9309 difference.
//
// Cases are written for this project from robots-parser's README and the behaviours its
// test suite describes. Where robots-parser and RFC 9309 disagree, the "RFC differences"
// table asserts OUR answer and, next to it, robots-parser's own answer, so every
// documented difference is proven real (docs/COMPAT.md).
import { describe, expect, it } from 'vitest';
import referenceParser from 'robots-parser';
import robotsParser, { reduceUserAgent, robotsParser as namedParser } from '../src/compat.js';
import { Robots } from '../src/index.js';

const SITE = 'https://shop.example';
const ROBOTS_URL = `${SITE}/robots.txt`;
const lines = (...l: string[]): string => l.join('\n');

type Reference = (url: string, contents: string) => {
  isAllowed(url: string, ua?: string): boolean | undefined;
  getMatchingLineNumber(url: string, ua?: string): number;
  getCrawlDelay(ua?: string): number | undefined;
};
const reference = referenceParser as unknown as Reference;

describe('API shape', () => {
  it('exports the factory as default and by name', () => {
    expect(robotsParser).toBe(namedParser);
    expect(typeof robotsParser).toBe('function');
  });

  it('returns the robots-parser method set plus the core object', () => {
    const r = robotsParser(ROBOTS_URL, 'User-agent: *\nDisallow: /x');
    for (const m of ['isAllowed', 'isDisallowed', 'getMatchingLineNumber', 'getCrawlDelay', 'getSitemaps', 'getPreferredHost']) {
      expect(typeof (r as unknown as Record<string, unknown>)[m], m).toBe('function');
    }
    expect(r.robots).toBeInstanceOf(Robots);
    expect(r.robots.profile).toBe('rfc');
  });

  it('accepts the body as UTF-8 bytes', () => {
    const r = robotsParser(ROBOTS_URL, new TextEncoder().encode('User-agent: *\nDisallow: /café'));
    expect(r.isAllowed(`${SITE}/café/menu`)).toBe(false);
    expect(r.isAllowed(`${SITE}/cafe`)).toBe(true);
  });

  it.each([
    [null, 'null'],
    [undefined, 'undefined'],
    ['', 'empty string'],
  ])('treats %s contents (%s) as an empty file that allows everything', (contents, _label) => {
    const r = robotsParser(ROBOTS_URL, contents as string);
    expect(r.isAllowed(`${SITE}/anything`, 'Bot')).toBe(true);
    expect(r.getMatchingLineNumber(`${SITE}/anything`, 'Bot')).toBe(-1);
    expect(r.getSitemaps()).toEqual([]);
    expect(r.getPreferredHost()).toBe(null);
    expect(r.getCrawlDelay('Bot')).toBe(undefined);
  });

  it.each([
    [42, 'number'],
    [{}, 'object'],
    [['User-agent: *'], 'array'],
  ])('rejects contents %j with a TypeError naming the argument', (contents, kind) => {
    expect(() => robotsParser(ROBOTS_URL, contents as unknown as string)).toThrow(TypeError);
    expect(() => robotsParser(ROBOTS_URL, contents as unknown as string)).toThrow(`contents must be a string, Uint8Array, null or undefined, got ${kind}`);
  });

  it('rejects a non-string user agent with a TypeError naming the argument', () => {
    const r = robotsParser(ROBOTS_URL, '');
    expect(() => r.isAllowed(`${SITE}/`, 7 as unknown as string)).toThrow('ua must be a string or undefined, got number');
  });
});

describe('user-agent reduction (robots-parser convention)', () => {
  it.each([
    [undefined, '*'],
    ['', '*'],
    ['Sams-Bot/1.0', 'sams-bot'],
    ['ExampleBot', 'examplebot'],
    ['b / 1.0', 'b'],
    ['dd / 0-32-3', 'dd'],
    ['Mozilla/5.0 (compatible; ExampleBot/0.1)', 'mozilla'],
    ['/1.0', '*'],
    ['  Spaced-Bot  ', 'spaced-bot'],
  ] as const)('%j → %j', (ua, reduced) => {
    expect(reduceUserAgent(ua)).toBe(reduced);
  });
});

// [title, robots.txt lines, allowed URLs, disallowed URLs], every URL on SITE, no user agent
// (robots-parser then reads the `*` group).
const BEHAVIOURS: ReadonlyArray<readonly [string, string, string[], string[]]> = [
  [
    'disallow is a case-sensitive prefix match',
    lines('User-agent: *', 'Disallow: /cart/', 'Disallow: /checkout.html'),
    ['/cart', '/Checkout.html', '/CART/x'],
    ['/cart/', '/cart/items?id=3', '/checkout.html', '/checkout.html5'],
  ],
  [
    'a longer allow overrides a shorter disallow',
    lines('User-agent: *', 'Disallow: /cart/', 'Disallow: /checkout.html', 'Allow: /cart/view.html', 'Allow: /checkout.html'),
    ['/cart/view.html', '/checkout.html', '/cart'],
    ['/cart/', '/cart/edit'],
  ],
  [
    '* matches any run of characters and a final $ anchors the end',
    lines('User-agent: *', 'Disallow: /img*.png', 'Disallow: /*.bak$', 'Disallow: /tmp*'),
    ['/IMG1.png', '/file.bak1', '/a/tmp', '/x.BAK'],
    ['/img.png', '/img/a/b.png?size=2', '/notes.bak', '/x.bak.bak', '/tmp', '/tmpfiles/a'],
  ],
  [
    'the most specific (longest) rule wins; equal length goes to allow',
    lines(
      'User-agent: *',
      'Disallow: /img*.png',
      'Allow: /img/logo.png',
      'Disallow: /docs',
      'Allow: /docs/',
      'Disallow: /same/',
      'Allow: /same/',
      'Allow: /tie/',
      'Disallow: /tie/',
    ),
    ['/img/logo.png', '/docs/', '/docs/intro', '/same/', '/tie/', '/other/'],
    ['/img.png', '/img/a/b.png', '/docs', '/docs.html'],
  ],
  [
    'a wildcard rule loses to a longer literal allow',
    lines('User-agent: *', 'Disallow: /*/', 'Allow: /pub/'),
    ['/pub/', '/page.html', '/about'],
    ['/b/', '/pubs/', '/about/team'],
  ],
  [
    'CR line endings',
    ['User-agent: *', 'Disallow: /cart/', 'Disallow: /checkout.html'].join('\r'),
    ['/cart', '/Checkout.html'],
    ['/cart/x', '/checkout.html'],
  ],
  [
    'CRLF line endings',
    ['User-agent: *', 'Disallow: /cart/', 'Disallow: /checkout.html'].join('\r\n'),
    ['/cart', '/Checkout.html'],
    ['/cart/x', '/checkout.html'],
  ],
  [
    'mixed line endings and trailing blank lines',
    'User-agent: *\rDisallow: /cart/\r\nDisallow: /checkout.html\n\n\r\n',
    ['/cart', '/Checkout.html'],
    ['/cart/x', '/checkout.html'],
  ],
  [
    'rules before the first user-agent line belong to no group',
    lines('Disallow: /cart/', 'Disallow: /admin'),
    ['/cart/x', '/admin', '/admin/users'],
    [],
  ],
  [
    'comments, whole-line and trailing, are ignored',
    lines('# shop rules', '#', 'User-agent: * # everyone', '# Disallow: /', 'Disallow: /cart/ # no carts', 'Disallow: /checkout.html'),
    ['/', '/cartoon', '/Checkout.html'],
    ['/cart/', '/checkout.html'],
  ],
  [
    'lines that are not records, and unknown records, are ignored',
    lines('not a record', 'User-agent: *', 'Disallow: /cart/', '::: still not a record :::', 'Disallow: /checkout.html', 'Colour: blue'),
    ['/', '/cart'],
    ['/cart/x', '/checkout.html'],
  ],
  [
    'an empty user-agent line names no crawler',
    lines('User-agent:', 'Disallow: /cart/', 'Disallow: /checkout.html'),
    ['/cart/x', '/checkout.html', '/'],
    [],
  ],
  [
    'an empty disallow value disallows nothing',
    lines('User-agent: *', 'Disallow:'),
    ['/', '/cart/x'],
    [],
  ],
  [
    'keys are case-insensitive and may have spaces around the colon',
    lines('USER-AGENT : *', 'disallow:/cart/', '  DisAllow  :   /checkout.html  '),
    ['/cart'],
    ['/cart/x', '/checkout.html'],
  ],
  [
    'an empty file allows everything',
    '',
    ['/', '/cart/x', '/robots.txt'],
    [],
  ],
  [
    'percent-encoded and raw UTF-8 paths are the same path',
    lines(
      'User-agent: *',
      'Disallow: /%CF%80',
      'Disallow: /%e2%9d%83',
      'Disallow: /🍕',
      'Disallow: /✼*t$',
      'Disallow: /%E2%9C%A4*t$',
      'Disallow: /http%3A%2F%2Fexample.org',
    ),
    ['/✼tests', '/%E2%9C%BCtests', '/✤tests', '/http://example.org', '/http:%2F%2Fexample.org'],
    [
      '/%CF%80', '/%cf%80/x', '/π', '/π/x',
      '/%E2%9D%83', '/❃/x',
      '/%F0%9F%8D%95', '/🍕/slice',
      '/✼t', '/%E2%9C%BCtest', '/✤test', '/%E2%9C%A4tt',
      '/http%3A%2F%2Fexample.org',
    ],
  ],
  [
    'a % not followed by two hex digits is a literal %, on both sides',
    lines('User-agent: *', 'Disallow: /%z%z', 'Disallow: /✿%q'),
    ['/z', '/%25zz'],
    ['/%z%z', '/%z%z/x', '/✿%q', '/%E2%9C%BF%qx'],
  ],
  [
    'many wildcards stay correct (the core matcher is linear-time)',
    lines('User-agent: *', `Disallow: /${'*'.repeat(2048)}.html`),
    [`/${'sub'.repeat(2048)}folder/index.php`, '/html'],
    ['/secret.html', `/${'a/'.repeat(500)}x.html`],
  ],
];

describe.each(BEHAVIOURS)('%s', (_title, body, allowed, disallowed) => {
  const r = robotsParser(ROBOTS_URL, body);
  it.each(allowed)('allows %s', (path) => {
    expect(r.isAllowed(SITE + path)).toBe(true);
    expect(r.isDisallowed(SITE + path)).toBe(false);
  });
  if (disallowed.length > 0) {
    it.each(disallowed)('disallows %s', (path) => {
      expect(r.isAllowed(SITE + path)).toBe(false);
      expect(r.isDisallowed(SITE + path)).toBe(true);
    });
  }
});

describe('user agents', () => {
  it('a group may name several agents, matched case-insensitively', () => {
    const r = robotsParser(ROBOTS_URL, lines('User-agent: alpha-bot', 'User-agent: Beta_Bot', 'Disallow: /cart'));
    expect(r.isAllowed(`${SITE}/cart`, 'ALPHA-BOT')).toBe(false);
    expect(r.isAllowed(`${SITE}/cart`, 'beta_bot/2.0')).toBe(false);
    expect(r.isAllowed(`${SITE}/cart`, 'gamma-bot')).toBe(true);
  });

  it('an agent without a group of its own follows the * group', () => {
    const r = robotsParser(ROBOTS_URL, lines('User-agent: *', 'Disallow: /a', '', 'User-agent: named', 'Disallow: /b'));
    expect(r.isAllowed(`${SITE}/a`, 'Other/1.0')).toBe(false);
    expect(r.isAllowed(`${SITE}/b`, 'Other/1.0')).toBe(true);
    expect(r.isAllowed(`${SITE}/a`, 'Named/1.0')).toBe(true);
    expect(r.isAllowed(`${SITE}/b`, 'Named/1.0')).toBe(false);
  });

  it('the version after / is ignored, the name is matched whole', () => {
    const r = robotsParser(ROBOTS_URL, lines('User-agent: *', 'Disallow: /star', '', 'User-agent: b', 'Disallow: /b'));
    expect(r.isAllowed(`${SITE}/b`, 'b/1.0')).toBe(false);
    expect(r.isAllowed(`${SITE}/star`, 'b/1.0')).toBe(true);
    expect(r.isAllowed(`${SITE}/b`, 'b / 1.0')).toBe(false);
    expect(r.isAllowed(`${SITE}/b`, 'bb/1.0')).toBe(true);
    expect(r.isAllowed(`${SITE}/star`, 'bb/1.0')).toBe(false);
  });

  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])(
    'an agent called %s is an ordinary name',
    (ua) => {
      const r = robotsParser(ROBOTS_URL, lines('User-agent: *', 'Disallow: /cart'));
      expect(r.isAllowed(`${SITE}/cart`, ua)).toBe(false);
      expect(r.isAllowed(`${SITE}/shop`, ua)).toBe(true);
    },
  );
});

describe('URLs of other origins, relative URLs, invalid URLs', () => {
  const body = lines('User-agent: *', 'Disallow: /private', 'Allow: /private/open');

  it.each([
    ['https://example.com/private', 'other host'],
    ['https://sub.shop.example/private', 'subdomain'],
    ['http://shop.example/private', 'other scheme'],
    ['https://shop.example:8443/private', 'other port'],
    ['https://sh op.example/private', 'invalid host'],
    ['shop.example/private', 'no scheme: a relative path'],
    ['/private', 'relative URL'],
    [':::::;;`\\|/.example/x', 'garbage'],
  ])('%s (%s) → isAllowed undefined, isDisallowed true, line -1', (url) => {
    const r = robotsParser(ROBOTS_URL, body);
    expect(r.isAllowed(url)).toBe(undefined);
    // robots-parser 3 answers !undefined === true here (its README says undefined): kept.
    expect(r.isDisallowed(url)).toBe(true);
    expect(r.getMatchingLineNumber(url)).toBe(-1);
  });

  it.each([
    ['https://SHOP.Example/private', false],
    ['https://shop.example:443/private', false],
    ['https://shop.example/private/open', true],
    ['https://shop.example/public#private', true],
  ])('%s is on the same origin → %s', (url, allowed) => {
    expect(robotsParser(ROBOTS_URL, body).isAllowed(url)).toBe(allowed);
  });

  it('hosts compare after IDNA: Unicode, punycode and percent-encoded forms are one host', () => {
    const forms = ['http://www.münich.example', 'http://www.xn--mnich-kva.example', 'http://www.m%C3%BCnich.example'];
    for (const robotsOrigin of forms) {
      const r = robotsParser(`${robotsOrigin}/robots.txt`, body);
      for (const origin of forms) {
        expect(r.isAllowed(`${origin}/private`), `${robotsOrigin} vs ${origin}`).toBe(false);
        expect(r.isAllowed(`${origin}/index.html`), `${robotsOrigin} vs ${origin}`).toBe(true);
      }
    }
  });

  it('default ports: http is :80, https is :443, an explicit port must match', () => {
    const http = robotsParser('http://shop.example/robots.txt', body);
    expect(http.isAllowed('http://shop.example:80/private')).toBe(false);
    expect(http.isAllowed('http://shop.example:443/private')).toBe(undefined);
    const https = robotsParser('https://shop.example:443/robots.txt', body);
    expect(https.isAllowed('https://shop.example/private')).toBe(false);
    expect(https.isAllowed('https://shop.example:80/private')).toBe(undefined);
    const custom = robotsParser('http://shop.example:8080/robots.txt', body);
    expect(custom.isAllowed('http://shop.example:8080/private')).toBe(false);
    expect(custom.isAllowed('http://shop.example/private')).toBe(undefined);
  });

  it('a relative robots.txt URL accepts relative URLs only', () => {
    const r = robotsParser('/robots.txt', body);
    expect(r.isAllowed('/private/open')).toBe(true);
    expect(r.isAllowed('/private')).toBe(false);
    expect(r.getMatchingLineNumber('/private')).toBe(2);
    expect(r.isAllowed('https://shop.example/private')).toBe(undefined);
  });

  it.each([
    ['https://sh op.example/robots.txt', 'invalid URL'],
    [undefined, 'undefined'],
    [null, 'null'],
    [42, 'number'],
  ])('an unusable robots.txt URL (%s, %s) answers undefined but keeps sitemaps and host', (url, _label) => {
    const r = robotsParser(url as unknown as string, lines('User-agent: *', 'Disallow: /', 'Host: www.shop.example', 'Sitemap: /sitemap.xml'));
    expect(r.isAllowed('https://www.shop.example/')).toBe(undefined);
    expect(r.isAllowed('/private')).toBe(undefined);
    expect(r.getPreferredHost()).toBe('www.shop.example');
    expect(r.getSitemaps()).toEqual(['/sitemap.xml']);
  });

  it('octets not allowed in a URI are compared percent-encoded, as a browser sends them', () => {
    const r = robotsParser(ROBOTS_URL, lines('User-agent: *', 'Disallow: /a%20b', 'Disallow: /c%7Bd%7D'));
    expect(r.isAllowed(`${SITE}/a b`)).toBe(false);
    expect(r.isAllowed(`${SITE}/a%20b/x`)).toBe(false);
    expect(r.isAllowed(`${SITE}/c{d}`)).toBe(false);
    expect(r.isAllowed(`${SITE}/ab`)).toBe(true);
  });

  it('a path that starts with // is still a path, not a host', () => {
    const r = robotsParser(ROBOTS_URL, lines('User-agent: *', 'Disallow: /$', 'Disallow: //x'));
    expect(r.isAllowed(`${SITE}/`)).toBe(false);
    expect(r.isAllowed(`${SITE}//`)).toBe(true);
    expect(r.isAllowed(`${SITE}//x/y`)).toBe(false);
    expect(r.getMatchingLineNumber(`${SITE}//x/y`)).toBe(3);
  });

  it('paths are compared as a browser would request them: dot segments resolved', () => {
    const r = robotsParser(ROBOTS_URL, lines('User-agent: *', 'Disallow: /private'));
    expect(r.isAllowed(`${SITE}/public/../private/x`)).toBe(false);
    expect(r.isAllowed(`${SITE}/private/../public`)).toBe(true);
  });
});

describe('getMatchingLineNumber', () => {
  const body = lines(
    '', //                          1
    'User-agent: *', //             2
    '', //                          3
    'Disallow: /cart/', //          4
    'Disallow: /checkout.html', //  5
    'Allow: /cart/view.html', //    6
    'Allow: /checkout.html', //     7
    '', //                          8
    'User-agent: a', //             9
    'Allow: /', //                  10
    '', //                          11
    'User-agent: b', //             12
    'Disallow: /check', //          13
    'Disallow: /c*t', //            14
    '', //                          15
    'User-agent: c', //             16
    'Disallow: /img*.png', //       17
    'Allow: /img/logo.png', //      18
  );
  it.each([
    ['/cart', undefined, -1],
    ['/cart/view.html', undefined, 6],
    ['/Checkout.html', undefined, -1],
    ['/cart/edit', undefined, 4],
    ['/cart/', undefined, 4],
    ['/checkout.html', undefined, 7],
    ['/checkout.html', 'a', 10],
    ['/checkout.html', 'b/1.0', 13],
    ['/cat', 'b', 14],
    ['/img.png', 'c', 17],
    ['/img/logo.png', 'c', 18],
  ] as const)('%s for %s → line %i', (path, ua, line) => {
    const r = robotsParser(ROBOTS_URL, body);
    expect(r.getMatchingLineNumber(SITE + path, ua)).toBe(line);
  });
});

describe('getCrawlDelay', () => {
  it('reads the delay of the groups that apply, * when none names the agent', () => {
    const r = robotsParser(
      ROBOTS_URL,
      // Each group has a rule before its Crawl-delay: a Crawl-delay between user-agent lines
      // would not end the group (RFC 9309 §2.2.4, see the differences below).
      lines('User-agent: *', 'Disallow: /w', 'Crawl-delay: 1', '', 'User-agent: a', 'Disallow: /x', 'Crawl-delay: 2.5', '', 'User-agent: b', 'Disallow: /y'),
    );
    expect(r.getCrawlDelay()).toBe(1);
    expect(r.getCrawlDelay('unknown')).toBe(1);
    expect(r.getCrawlDelay('A/1.0')).toBe(2.5);
    // b has a group of its own, without a delay: no fallback to *.
    expect(r.getCrawlDelay('b')).toBe(undefined);
  });

  it('is undefined when no group applies', () => {
    const r = robotsParser(ROBOTS_URL, lines('User-agent: a', 'Crawl-delay: 3'));
    expect(r.getCrawlDelay('a')).toBe(3);
    expect(r.getCrawlDelay('z')).toBe(undefined);
    expect(r.getCrawlDelay()).toBe(undefined);
  });

  it.each(['1.2.1', '1.a0', '10a', 'soon', ''])('ignores the malformed value %j', (value) => {
    const r = robotsParser(ROBOTS_URL, lines('User-agent: *', `Crawl-delay: ${value}`));
    expect(r.getCrawlDelay()).toBe(undefined);
  });
});

describe('getSitemaps and getPreferredHost', () => {
  const body = lines(
    'User-agent: a',
    'Crawl-delay: 1',
    'Sitemap: https://shop.example/a.xml',
    'Host: www.shop.example',
    'User-agent: b',
    'Disallow: /d',
    'Sitemap: /relative.xml',
    'Sitemap:     https://shop.example/b.xml     ',
    'Sitemap:',
    'HOST: Shop.Example # the last non-empty Host wins',
    'Host:',
  );

  it('lists every non-empty sitemap, in order, as written', () => {
    const r = robotsParser(ROBOTS_URL, body);
    expect(r.getSitemaps()).toEqual(['https://shop.example/a.xml', '/relative.xml', 'https://shop.example/b.xml']);
  });

  it('returns a copy each time', () => {
    const r = robotsParser(ROBOTS_URL, body);
    r.getSitemaps().push('mutated');
    expect(r.getSitemaps()).toHaveLength(3);
  });

  it('takes the last non-empty Host record, lowercased', () => {
    expect(robotsParser(ROBOTS_URL, body).getPreferredHost()).toBe('shop.example');
  });

  it('is null when there is no Host record', () => {
    expect(robotsParser(ROBOTS_URL, lines('User-agent: *', 'Disallow: /d')).getPreferredHost()).toBe(null);
  });

  it('never throws on empty or odd directives', () => {
    const odd = lines(
      'user-agent:', 'user-agent:::: a::', 'crawl-delay:', 'crawl-delay:::: 0:', 'host:', 'host:: example.com',
      'sitemap:', 'sitemap:: site:map.xml', 'disallow:', 'disallow::: /:', 'allow:', 'allow::: /:',
    );
    const r = robotsParser(ROBOTS_URL, odd);
    expect(r.getSitemaps()).toEqual([': site:map.xml']);
    expect(r.getPreferredHost()).toBe(': example.com');
    expect(r.isAllowed(`${SITE}/x`)).toBe(true);
  });
});

// [title, RFC 9309 section, robots.txt, path on SITE, user agent, ours, robots-parser's]
// Each row is a place where robots-parser 3.0.1 contradicts the RFC; we follow the RFC.
const RFC_DIFFERENCES: ReadonlyArray<readonly [string, string, string, string, string | undefined, boolean, boolean]> = [
  ['/robots.txt is implicitly allowed', '§2.2.2', lines('User-agent: *', 'Disallow: /'), '/robots.txt', undefined, true, false],
  ['percent-encoded unreserved octets in the URL are decoded', '§2.2.2', lines('User-agent: *', 'Disallow: /baz'), '/%62%61%7A', undefined, false, true],
  ['percent-encoded unreserved octets in the rule are decoded', '§2.2.2', lines('User-agent: *', 'Disallow: /%7Euser'), '/~user', undefined, false, true],
  ['%2A in a rule matches a literal *', '§2.2.3', lines('User-agent: *', 'Disallow: /file-with-a-%2A.html'), '/file-with-a-*.html', undefined, false, true],
  ['%24 in a rule matches a literal $', '§2.2.3', lines('User-agent: *', 'Disallow: /foo-%24'), '/foo-$', undefined, false, true],
  ['a Sitemap record does not end the user-agent lines of a group', '§2.2.4', lines('User-agent: a', 'Sitemap: https://shop.example/s.xml', 'User-agent: b', 'Disallow: /x'), '/x', 'a', false, true],
  ['a Crawl-delay record does not end the user-agent lines of a group', '§2.2.4', lines('User-agent: a', 'Crawl-delay: 5', 'User-agent: b', 'Disallow: /x'), '/x', 'a', false, true],
  ['an unknown record does not end the user-agent lines of a group', '§2.2.4', lines('User-agent: a', 'Colour: blue', 'User-agent: b', 'Disallow: /x'), '/x', 'a', false, true],
  ['a last group without rules still matches its agent (allow all), no fallback to *', '§2.1, §2.2.1', lines('User-agent: *', 'Disallow: /', 'User-agent: b'), '/x', 'b', true, false],
  ['a user-agent value that is no product token names its leading token: "foo bar" names foo', '§2.3.1.5', lines('User-agent: foo bar', 'Disallow: /x'), '/x', 'foo', false, true],
  ['"|" is compared as the same octet on both sides', '§2.2.2', lines('User-agent: *', 'Disallow: /a|b'), '/a|b', undefined, false, true],
  ['"^" is compared as the same octet on both sides', '§2.2.2', lines('User-agent: *', 'Disallow: /a^b'), '/a^b', undefined, false, true],
];

describe('RFC 9309 differences from robots-parser (ours follows the RFC)', () => {
  it.each(RFC_DIFFERENCES)('%s (RFC 9309 %s)', (_title, _section, body, path, ua, ours, theirs) => {
    expect(robotsParser(ROBOTS_URL, body).isAllowed(SITE + path, ua)).toBe(ours);
    expect(reference(ROBOTS_URL, body).isAllowed(SITE + path, ua)).toBe(theirs);
  });

  it('the implicit /robots.txt allow reports no rule line (-1)', () => {
    const body = lines('User-agent: *', 'Disallow: /');
    expect(robotsParser(ROBOTS_URL, body).getMatchingLineNumber(`${SITE}/robots.txt`)).toBe(-1);
    expect(reference(ROBOTS_URL, body).getMatchingLineNumber(`${SITE}/robots.txt`)).toBe(2);
  });

  it('content beyond the 500 KiB parsing limit is ignored (§2.5)', () => {
    const padding = `# ${'x'.repeat(511_990)}\n`;
    const body = `User-agent: *\n${padding}Disallow: /late\n`;
    const r = robotsParser(ROBOTS_URL, body);
    expect(r.robots.truncated).toBe(true);
    expect(r.isAllowed(`${SITE}/late`)).toBe(true);
    expect(reference(ROBOTS_URL, body).isAllowed(`${SITE}/late`)).toBe(false);
  });
});

describe('other differences (outside RFC 9309)', () => {
  it('Crawl-delay: the first plain decimal value of the applicable groups wins', () => {
    const body = lines('User-agent: *', 'Crawl-delay: 2', 'Crawl-delay: 7');
    expect(robotsParser(ROBOTS_URL, body).getCrawlDelay()).toBe(2);
    expect(reference(ROBOTS_URL, body).getCrawlDelay()).toBe(7);
  });

  it.each([
    ['0x10', 16],
    ['1e1', 10],
    ['-1', -1],
  ])('Crawl-delay %j is not a delay (robots-parser reads %d)', (value, theirs) => {
    const body = lines('User-agent: *', `Crawl-delay: ${value}`);
    expect(robotsParser(ROBOTS_URL, body).getCrawlDelay()).toBe(undefined);
    expect(reference(ROBOTS_URL, body).getCrawlDelay()).toBe(theirs);
  });

  it('a lone surrogate becomes U+FFFD on both sides, so rule and URL match', () => {
    const body = lines('User-agent: *', 'Disallow: /\uD800');
    expect(robotsParser(ROBOTS_URL, body).isAllowed(`${SITE}/\uD800`)).toBe(false);
    expect(reference(ROBOTS_URL, body).isAllowed(`${SITE}/\uD800`)).toBe(true);
  });
});
