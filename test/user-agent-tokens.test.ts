// User-agent tokens on both sides: file values that are no product token (§2.3.1.5), crawler strings that are none (refused, with a suggestion), and explain's agentLines.
import { describe, expect, it } from 'vitest';
import referenceParser from 'robots-parser';
import { Robots, suggestProductToken, type Profile } from '../src/index.js';
import robotsParser from '../src/compat.js';

const PROFILES: readonly Profile[] = ['rfc', 'google'];
const lines = (...l: string[]): string => l.join('\n');
type Reference = (url: string, contents: string) => { isAllowed(url: string, ua?: string): boolean | undefined; getCrawlDelay(ua?: string): number | undefined };
const reference = referenceParser as unknown as Reference;

describe('RFC 9309 §2.3.1.5: a user-agent value that is no product token names its leading token', () => {
  // [value written in the file, the token it names]
  const forms: [string, string][] = [
    ['foo/1.2', 'foo'],
    ['foo bar', 'foo'],
    ['foo;', 'foo'],
    ['foo*', 'foo'],
    ['Googlebot/2.1', 'googlebot'],
    ['MJ12bot', 'mj'],
  ];
  for (const profile of PROFILES) {
    it.each(forms)(`${profile}: "User-agent: %s" names %j`, (value, token) => {
      const robots = Robots.parse(lines('User-agent: *', 'Allow: /', '', `User-agent: ${value}`, 'Disallow: /x', 'Crawl-delay: 3'), { profile });
      expect(robots.groups[1]!.agents).toEqual([token]);
      expect(robots.isAllowed('/x', token)).toBe(false);
      expect(robots.isAllowed('/x', token.toUpperCase())).toBe(false);
      expect(robots.crawlDelay(token)).toBe(3);
      // Another crawler still reads the * group.
      expect(robots.isAllowed('/x', 'other')).toBe(true);
    });

    it(`${profile}: a valid product token is still matched whole (no prefix match)`, () => {
      const robots = Robots.parse(lines('User-agent: FooBot', 'Disallow: /x'), { profile });
      expect(robots.isAllowed('/x', 'Foo')).toBe(true);
      expect(robots.isAllowed('/x', 'FooBot')).toBe(false);
    });

    it(`${profile}: a value without a leading token ("/x", "123") names no crawler`, () => {
      const robots = Robots.parse(lines('User-agent: 123', 'User-agent: /x', 'Disallow: /'), { profile });
      expect(robots.groups[0]!.agents).toEqual(['', '']);
      expect(robots.isAllowed('/a', 'bot')).toBe(true);
    });
  }

  it('rfc: only a bare * is global; google-compat: "* anything" too', () => {
    const body = lines('User-agent: * x', 'Disallow: /');
    expect(Robots.parse(body).isAllowed('/a', 'bot')).toBe(true);
    expect(Robots.parse(body, { profile: 'google' }).isAllowed('/a', 'bot')).toBe(false);
  });
});

describe('a crawler string that is no product token is refused, with a suggestion (no silent * fallback)', () => {
  const robots = Robots.parse(lines('User-agent: Googlebot', 'Allow: /', '', 'User-agent: *', 'Disallow: /'));
  const header = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
  const calls: [string, (agent: string) => unknown][] = [
    ['isAllowed', (a) => robots.isAllowed('/x', a)],
    ['explain', (a) => robots.explain('/x', a)],
    ['forAgent', (a) => robots.forAgent(a)],
    ['rulesFor', (a) => robots.rulesFor(a)],
    ['crawlDelay', (a) => robots.crawlDelay(a)],
  ];
  for (const [name, call] of calls) {
    it(`${name}: 'Googlebot/2.1', a whole header and '' throw a TypeError`, () => {
      expect(() => call('Googlebot/2.1')).toThrow(new TypeError(
        `userAgent must be a product token (letters, '_' and '-', RFC 9309 §2.2.1) or '*', got "Googlebot/2.1"; did you mean 'Googlebot'?`,
      ));
      expect(() => call(header)).toThrow(/got "Mozilla\/5\.0 .*"; did you mean 'Googlebot'\?$/);
      expect(() => call('')).toThrow(/or '\*', got ""$/);
    });
  }

  it("'*' asks for the * groups, and the token itself answers as before", () => {
    expect(robots.isAllowed('/x', '*')).toBe(false);
    expect(robots.isAllowed('/x', 'Googlebot')).toBe(true);
    expect(robots.isAllowed('/x', 'googlebot')).toBe(true);
  });
});

describe('suggestProductToken', () => {
  it.each([
    ['Googlebot', 'Googlebot'],
    ['Googlebot/2.1', 'Googlebot'],
    ['  ExampleBot/1.0 (+https://example.com/bot)', 'ExampleBot'],
    ['foo bar', 'foo'],
    ['MJ12bot', 'MJ'],
    ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'Googlebot'],
    ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0 Safari/537.36', 'bingbot'],
    ['Mozilla/5.0 (Linux; Android 10) AppleWebKit/537.36 Chrome/120 Mobile Safari/537.36 Bytespider', 'Bytespider'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36', undefined],
    ['', undefined],
    ['/1.0', undefined],
    ['12345', undefined],
  ])('%j → %j', (value, expected) => {
    expect(suggestProductToken(value)).toBe(expected);
  });

  it('throws a TypeError for a non-string', () => {
    expect(() => suggestProductToken(42 as unknown as string)).toThrow(/value must be a string, got number/);
  });
});

describe('compat keeps taking whole User-Agent strings, as robots-parser does', () => {
  const body = lines('User-agent: Mozilla', 'Disallow: /m', '', 'User-agent: googlebot', 'Disallow: /g', 'Crawl-delay: 2', '', 'User-agent: *', 'Disallow: /all');
  const uas = [
    'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    'Googlebot/2.1',
    'googlebot',
    'Googlebot / 2.1',
    '',
    undefined,
    'Other Bot/1.0',
  ];
  it.each(uas.map((ua) => [ua]))('%j: isAllowed and getCrawlDelay as robots-parser', (ua) => {
    const ours = robotsParser('https://a.test/robots.txt', body);
    const theirs = reference('https://a.test/robots.txt', body);
    for (const path of ['/m', '/g', '/all', '/free']) {
      expect(ours.isAllowed(`https://a.test${path}`, ua), path).toBe(theirs.isAllowed(`https://a.test${path}`, ua));
    }
    expect(ours.getCrawlDelay(ua)).toBe(theirs.getCrawlDelay(ua));
  });

  it('a UA whose name is no product token is read like a file line written the same way', () => {
    // robots-parser compares 'mj12bot' with 'mj12bot'; both sides read 'mj' here.
    const ours = robotsParser('https://a.test/robots.txt', lines('User-agent: MJ12bot', 'Disallow: /'));
    expect(ours.isAllowed('https://a.test/x', 'MJ12bot/v1.4.8')).toBe(false);
    expect(ours.isAllowed('https://a.test/x', 'Other')).toBe(true);
  });
});

describe('explain reports the user-agent lines that formed the group (agentLines)', () => {
  // blu-ray.com's layout: bingbot's only record is a Crawl-delay, so (RFC 9309 §2.2.4) its
  // user-agent line joins the next group, whose `Disallow: /` then applies to bingbot.
  const body = lines('User-agent: bingbot', 'Crawl-delay: 10', '', 'User-agent: *', 'Disallow: /', '', 'User-agent: Googlebot', 'Allow: /');
  it.each(PROFILES)('%s: bingbot is disallowed by the group of lines 1 and 4, its delay is still 10', (profile) => {
    const robots = Robots.parse(body, { profile });
    expect(robots.explain('/page', 'bingbot')).toEqual({ allowed: false, line: 5, rule: 'disallow: /', agentLines: [1, 4] });
    expect(robots.explain('/page', 'other')).toEqual({ allowed: false, line: 5, rule: 'disallow: /', agentLines: [1, 4] });
    expect(robots.explain('/page', 'Googlebot')).toEqual({ allowed: true, line: 8, rule: 'allow: /', agentLines: [7] });
    expect(robots.crawlDelay('bingbot')).toBe(10);
  });

  it('merged groups list every line, in file order; no group gives []', () => {
    const robots = Robots.parse(lines('User-agent: a', 'Disallow: /x', 'User-agent: b', 'User-agent: A', 'Disallow: /y'));
    expect(robots.explain('/y', 'a').agentLines).toEqual([1, 3, 4]);
    expect(robots.explain('/y', 'zz').agentLines).toEqual([]);
  });
});
