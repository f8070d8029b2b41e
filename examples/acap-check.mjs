// Example: ACAP 1.0 permissions next to the conventional robots.txt verdict, per crawler and usage.
//
//   node examples/acap-check.mjs
//
// A news site allows crawling and indexing of /news/, snippets of at most 200
// characters, no thumbnails, and lets only archive-bot preserve copies.
import { Robots } from '../dist/index.js';

const ROBOTS_TXT = [
  '##ACAP version=1.0',
  'User-agent: *',
  'Disallow: /private/',
  '',
  'ACAP-crawler: *',
  'ACAP-disallow-crawl: /private/',
  'ACAP-allow-crawl: /news/',
  'ACAP-allow-index: /news/',
  'ACAP-allow-present-snippet: /news/ max-length=200-chars',
  'ACAP-disallow-present-thumbnail: /news/',
  'ACAP-disallow-preserve: /',
  '',
  'ACAP-crawler: archive-bot',
  'ACAP-allow-preserve: /news/',
].join('\n');

const robots = Robots.parse(ROBOTS_TXT);
const acap = robots.acap;
if (acap === null) throw new Error('expected ACAP records in the file');

const checks = [
  ['/news/2024/story.html', 'search-bot', 'crawl'],
  ['/news/2024/story.html', 'search-bot', 'present-snippet'],
  ['/news/2024/story.html', 'search-bot', 'present-thumbnail'],
  ['/news/2024/story.html', 'search-bot', 'preserve'],
  ['/news/2024/story.html', 'archive-bot', 'preserve'],
  ['/private/report', 'search-bot', 'crawl'],
];

console.log(`ACAP version ${acap.version}, ${acap.diagnostics.length} diagnostics`);
for (const [url, crawler, usage] of checks) {
  const v = acap.check(url, crawler, usage);
  const qualifiers = v.qualifiers.map((q) => q.text).join(' ');
  const rep = robots.isAllowed(url, crawler) ? 'allow' : 'disallow';
  console.log(
    [url, crawler, usage, v.allowed ? 'allow' : 'disallow', `line=${v.line}`, `source=${v.source}`, `rep=${rep}`, qualifiers]
      .join('\t')
      .trimEnd(),
  );
}
