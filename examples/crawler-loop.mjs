// Example: a polite crawl loop (robots.txt fetch + cache, crawl-delay) over a site it serves itself.
//
//   node examples/crawler-loop.mjs
//
// Starts a tiny site on 127.0.0.1, then crawls it breadth-first as ExampleBot:
// robots.txt is fetched once per origin by RobotsCache (RFC 9309 §2.3, cached per §2.4),
// disallowed links are skipped with the line that forbids them, and requests to the
// host are spaced by its Crawl-delay.
import { createServer } from 'node:http';
import { RobotsCache, createHostPoliteness } from '../dist/fetch/index.js';

const USER_AGENT = 'ExampleBot/1.0 (+https://example.com/bot)';

// The site: robots.txt plus pages that link to each other, some of them private.
const ROBOTS_TXT = [
  'User-agent: *',
  'Disallow: /private/',
  'Disallow: /*?session=',
  'Crawl-delay: 0.05',
  '',
  'User-agent: OtherBot',
  'Disallow: /',
  '',
  'Sitemap: /sitemap.xml',
].join('\n');
const PAGES = {
  '/': ['/about', '/products/', '/private/admin'],
  '/about': ['/', '/products/?session=42'],
  '/products/': ['/products/1', '/products/2', '/private/prices'],
  '/products/1': ['/products/2'],
  '/products/2': ['/products/1', '/about'],
};

function serveSite() {
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    if (path === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end(ROBOTS_TXT);
      return;
    }
    const links = PAGES[path];
    if (links === undefined) {
      res.writeHead(404).end('not found');
      return;
    }
    const body = links.map((href) => `<a href="${href}">${href}</a>`).join('\n');
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><body>${body}</body>`);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Breadth-first crawl from `start`, staying on its origin. Returns what was fetched and skipped. */
async function crawl(start, { log = console.log } = {}) {
  const cache = new RobotsCache({ userAgent: USER_AGENT });
  // Crawl-delay is read in seconds and capped, so a hostile value cannot stall the loop.
  const polite = createHostPoliteness({ maxDelayMs: 1_000 });
  const origin = new URL(start).origin;
  const queue = [start];
  const seen = new Set(queue);
  const fetched = [];
  const skipped = [];

  while (queue.length > 0) {
    const url = queue.shift();
    const path = url.slice(origin.length);
    const verdict = await cache.explain(url);
    if (!verdict.allowed) {
      skipped.push(path);
      log(`skip  ${path}  (robots.txt line ${verdict.line}: ${verdict.rule})`);
      continue;
    }
    const { robots } = await cache.get(url);
    await polite.waitFor(url, robots, cache.productToken);
    const response = await fetch(url, { headers: { 'user-agent': USER_AGENT } });
    const html = await response.text();
    fetched.push(path);
    log(`fetch ${path}  ${response.status}`);
    for (const [, href] of html.matchAll(/href="([^"]+)"/g)) {
      const next = new URL(href, url);
      if (next.origin !== origin || seen.has(next.href)) continue;
      seen.add(next.href);
      queue.push(next.href);
    }
  }
  const entry = await cache.get(start);
  return { fetched, skipped, sitemaps: entry.robots.sitemaps, crawlDelay: entry.robots.crawlDelay(cache.productToken) };
}

const server = await serveSite();
try {
  const { port } = server.address();
  const summary = await crawl(`http://127.0.0.1:${port}/`);
  console.log(JSON.stringify(summary));
} finally {
  server.close();
}
