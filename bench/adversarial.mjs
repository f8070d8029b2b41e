// Scenario: inputs built to hurt matchers: backtracking globs, long URLs, huge rule lists, escape-heavy paths.
import robotsParser from 'robots-parser';
import { Robots } from '../dist/index.js';
import { NaiveMatcher } from './naive.mjs';
import { byteLength } from './fixtures.mjs';
import { measure, printTable } from './lib.mjs';

const AGENT = 'ExampleBot';
const ORIGIN = 'https://www.example.com';

function cases(smoke) {
  const long = smoke ? 2_000 : 8_000;
  const manyRules = smoke ? 200 : 5_000;
  return [
    {
      name: `backtracking: 12 stars vs a ${long}-byte path of 'a'`,
      body: `User-agent: *\nDisallow: /${'*a'.repeat(12)}*b\nAllow: /${'a*'.repeat(12)}c$\n`,
      urls: Array.from({ length: smoke ? 5 : 50 }, (_, i) => `${ORIGIN}/${'a'.repeat(long + i)}`),
      parserUrls: smoke ? 1 : 2,
      naiveUrls: smoke ? 5 : 50,
    },
    {
      name: `${manyRules} wildcard rules, 100-byte URLs`,
      body: `User-agent: *\n${Array.from({ length: manyRules }, (_, i) => `Disallow: /*q${i}*x${i}$`).join('\n')}\n`,
      urls: Array.from({ length: smoke ? 20 : 2_000 }, (_, i) => `${ORIGIN}/${'p'.repeat(60)}?q${i}=${'y'.repeat(10)}&x${i + 1}`),
      parserUrls: smoke ? 2 : 50,
      naiveUrls: smoke ? 5 : 100,
    },
    {
      name: 'escape-heavy URLs (percent-normalization slow path)',
      body: 'User-agent: *\nDisallow: /%7Euser/\nAllow: /~user/public\nDisallow: /*%2F\n',
      urls: Array.from({ length: smoke ? 200 : 200_000 }, (_, i) => `${ORIGIN}/%7euser/${'%41%62'.repeat(8)}${i}/%e3%83%84?x=%2f`),
      parserUrls: smoke ? 20 : 5_000,
      naiveUrls: smoke ? 200 : 50_000,
    },
  ];
}

export async function run({ smoke }) {
  const all = [];
  for (const c of cases(smoke)) {
    const matcher = Robots.parse(c.body).forAgent(AGENT);
    const naive = new NaiveMatcher(c.body, AGENT);
    const parser = robotsParser(`${ORIGIN}/robots.txt`, c.body);
    const parserUrls = c.urls.slice(0, c.parserUrls);
    const naiveUrls = c.urls.slice(0, c.naiveUrls);
    const bytes = byteLength(c.urls);
    const rows = await measure(
      [
        { engine: 'wasm matchBatch', urls: c.urls.length, bytes, fn: () => matcher.matchBatch(c.urls) },
        {
          engine: 'naive per-rule', urls: naiveUrls.length, bytes: byteLength(naiveUrls), peer: true,
          fn: () => { for (const u of naiveUrls) naive.isAllowed(u); },
        },
        {
          engine: 'robots-parser', urls: parserUrls.length, bytes: byteLength(parserUrls), peer: true,
          fn: () => { for (const u of parserUrls) parser.isAllowed(u, AGENT); },
        },
      ],
      { smoke },
    );
    printTable(`adversarial: ${c.name}`, rows);
    all.push(...rows);
  }
  return all;
}
