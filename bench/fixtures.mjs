// Deterministic bench inputs: a realistic ~100-rule robots.txt, ~60-byte URLs (half allowed), many hosts, adversarial cases.

/** mulberry32: a tiny seeded PRNG, so every run (and every peer) sees the same inputs. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  'news', 'sport', 'video', 'shop', 'product', 'category', 'article', 'blog', 'user', 'account',
  'search', 'tag', 'archive', 'media', 'image', 'static', 'api', 'help', 'about', 'press',
  'world', 'local', 'review', 'cart', 'checkout', 'login', 'share', 'print', 'feed', 'topic',
];

function pick(r, list) {
  return list[Math.floor(r() * list.length)];
}

/**
 * A robots.txt shaped like a large real site's: a named group for another crawler, then a
 * `*` group of about `ruleCount` rules: plain directory prefixes, allow overrides under
 * them, `$`-anchored files and `*` patterns (session ids, file types, print views).
 */
export function syntheticRobots(seed = 1, ruleCount = 100) {
  const r = rng(seed);
  const lines = ['# synthetic robots.txt for bench/ (seeded)', 'User-agent: OtherBot', 'Disallow: /'];
  lines.push('', 'User-agent: *');
  const dirs = new Set();
  while (dirs.size < Math.round(ruleCount * 0.6)) dirs.add(`/${pick(r, WORDS)}/${pick(r, WORDS)}${Math.floor(r() * 20)}/`);
  const dirList = [...dirs];
  for (const d of dirList) lines.push(`Disallow: ${d}`);
  for (let i = 0; i < Math.round(ruleCount * 0.15); i++) lines.push(`Allow: ${dirList[i * 3 % dirList.length]}${pick(r, WORDS)}`);
  for (let i = 0; i < Math.round(ruleCount * 0.1); i++) lines.push(`Disallow: /${pick(r, WORDS)}/${pick(r, WORDS)}.html$`);
  const wild = [
    '/*?sessionid=', '/*.pdf$', '/*/print$', '/*&sort=', '/search*q=', '/*.json$', '/*?*utm_',
    '/api/*/private', '/*/edit', '/user/*/settings', '/*.php$', '/*?replytocom=', '/*/amp/', '/*%20',
    '/tag/*/feed', '/*.xml$',
  ];
  for (let i = 0; lines.length < ruleCount + 5; i++) lines.push(`${i % 3 === 2 ? 'Allow' : 'Disallow'}: ${wild[i % wild.length]}`);
  lines.push('Crawl-delay: 1', '', 'Sitemap: https://www.example.com/sitemap.xml', '');
  return lines.join('\n');
}

/** A random path of about `bytes` bytes, sometimes under one of `prefixes`. */
function randomPath(r, bytes, prefixes) {
  let p = r() < 0.55 ? pick(r, prefixes) : `/${pick(r, WORDS)}/`;
  while (p.length < bytes - 12) p += `${pick(r, WORDS)}-${Math.floor(r() * 1000)}/`;
  const tail = r();
  if (tail < 0.1) p += `doc${Math.floor(r() * 100)}.pdf`;
  else if (tail < 0.2) p += `?sessionid=${Math.floor(r() * 1e6)}`;
  else if (tail < 0.3) p += `?id=${Math.floor(r() * 1e4)}&sort=asc`;
  else if (tail < 0.4) p += 'print';
  else p += `${pick(r, WORDS)}.html`;
  return p;
}

/** Disallow/allow prefixes of a robots.txt body (for steering URLs into its rules). */
export function rulePrefixes(body) {
  const out = [];
  for (const line of body.split('\n')) {
    const m = /^(?:dis)?allow:\s*(\/[^*$\s]*)/i.exec(line);
    if (m && m[1].length > 1) out.push(m[1]);
  }
  return out.length > 0 ? out : ['/'];
}

/**
 * `count` absolute URLs of about `bytes` bytes on `origin`, half allowed by `judge`
 * (url → boolean), in a seeded random order.
 */
export function balancedUrls(count, { origin = 'https://www.example.com', bytes = 60, seed = 2, body, judge }) {
  const r = rng(seed);
  const prefixes = rulePrefixes(body);
  const want = [Math.floor(count / 2), count - Math.floor(count / 2)];
  const pools = [[], []];
  const pathBytes = bytes - origin.length;
  let guard = 0;
  while ((pools[0].length < want[0] || pools[1].length < want[1]) && guard++ < count * 50) {
    const batch = [];
    for (let i = 0; i < 4096; i++) batch.push(origin + randomPath(r, pathBytes, prefixes));
    const verdicts = judge(batch);
    for (let i = 0; i < batch.length; i++) {
      const v = verdicts[i] ? 1 : 0;
      if (pools[v].length < want[v]) pools[v].push(batch[i]);
    }
  }
  const urls = [];
  let a = 0;
  let d = 0;
  while (a < pools[1].length || d < pools[0].length) {
    if (d >= pools[0].length || (a < pools[1].length && r() < 0.5)) urls.push(pools[1][a++]);
    else urls.push(pools[0][d++]);
  }
  // Flat strings, as a crawler holds URLs read from a file or a response (split, JSON),
  // not the ropes that += built above; every engine gets these same strings.
  return JSON.parse(JSON.stringify(urls));
}

/** UTF-8 bytes of `urls`, one per line. */
export function toLines(urls) {
  return new TextEncoder().encode(urls.join('\n') + '\n');
}

/** Total UTF-8 bytes of `urls` (line breaks not counted). */
export function byteLength(urls) {
  let n = 0;
  for (const u of urls) n += Buffer.byteLength(u);
  return n;
}
