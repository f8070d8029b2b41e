// Seeded inputs for the retail scenario: a large retail/news site's robots.txt (facets, sessions, locales) and its URLs.
import { rng } from './fixtures.mjs';

const LOCALES = ['en-gb', 'de-de', 'fr-fr', 'es-es', 'it-it'];
const SECTIONS = ['women', 'men', 'kids', 'home', 'garden', 'electronics', 'sport', 'beauty', 'toys', 'books'];
const KINDS = ['shoes', 'dresses', 'jackets', 'lamps', 'sofas', 'phones', 'laptops', 'bikes', 'bags', 'watches'];
const NEWS = ['world', 'business', 'tech', 'science', 'culture', 'sport', 'travel', 'opinion'];
const WORDS = ['blue', 'classic', 'slim', 'leather', 'outdoor', 'pro', 'mini', 'organic', 'vintage', 'smart', 'wool', 'linen'];
const COLORS = ['red', 'black', 'white', 'navy', 'green'];
const SIZES = ['xs', 's', 'm', 'l', 'xl', '42'];

function pick(r, list) {
  return list[Math.floor(r() * list.length)];
}

/** Plain directory rules of the `*` group (copied under each locale prefix below). */
const PLAIN = [
  'Disallow: /cart/', 'Disallow: /checkout/', 'Disallow: /account/', 'Disallow: /wishlist/', 'Disallow: /compare/',
  'Disallow: /search/', 'Disallow: /orders/', 'Disallow: /returns/form', 'Allow: /account/help', 'Allow: /search/popular',
];

/** Facet, sort, session and tracking rules: the wildcard rules that large shops pile up. */
const QUERY_RULES = [
  'Disallow: /*?*sort=', 'Disallow: /*?*color=*&size=', 'Disallow: /*?*size=*&color=', 'Disallow: /*?*price=',
  'Disallow: /*?*brand=*&', 'Disallow: /*?*sessionid=', 'Disallow: /*?*sid=', 'Disallow: /*?*utm_', 'Disallow: /*?*ref=',
  'Disallow: /*?*view=grid', 'Disallow: /*?*filter=', 'Disallow: /*?*q=', 'Disallow: /*&page=', 'Disallow: /*?*material=',
  'Disallow: /*?*rating=', 'Disallow: /*?*instock=', 'Allow: /*?page=', 'Allow: /*?*color=$', 'Disallow: /*?*gclid=',
  'Disallow: /*?*fbclid=', 'Disallow: /*;jsessionid=', 'Disallow: /*?*currency=',
];

/** `$`-anchored and in-path wildcard rules (files, print and AMP views, comments). */
const PATH_RULES = [
  'Disallow: /*.pdf$', 'Disallow: /*.json$', 'Disallow: /*.xml$', 'Allow: /sitemap*.xml$', 'Disallow: /*/print$',
  'Disallow: /*/amp$', 'Disallow: /news/*/comments', 'Disallow: /live/*?*page=', 'Disallow: /*/reviews/write',
  'Disallow: /*/quickview', 'Disallow: /*-p*/size-guide', 'Disallow: /*/embed$',
];

/**
 * A robots.txt of about 150 rules in its `*` group (≥ 50 with `*` or `$`): plain
 * directories, facet/sort/session query rules, file and view rules, the same plain and
 * query rules again under each locale prefix, plus a Googlebot group and another bot's.
 */
export function retailRobots(seed = 1) {
  const r = rng(seed);
  const lines = ['# seeded retail/news robots.txt for bench/ (retail-gen.mjs)', '', 'User-agent: AdsBot-Google', 'Disallow: /checkout/', ''];
  lines.push('User-agent: Googlebot', 'Disallow: /cart/', 'Disallow: /checkout/', 'Disallow: /account/', 'Disallow: /*?*sessionid=');
  lines.push('Disallow: /*?*sort=', 'Disallow: /*?*color=*&size=', 'Allow: /*?page=', 'Disallow: /*.json$', '');
  lines.push('User-agent: *');
  lines.push(...PLAIN, ...QUERY_RULES, ...PATH_RULES);
  for (const loc of LOCALES) {
    for (const rule of PLAIN.slice(0, 6)) lines.push(rule.replace(': /', `: /${loc}/`));
    // Real files repeat a few query rules per locale even though `/*?…` already covers them.
    for (const rule of QUERY_RULES.slice(0, 4)) lines.push(rule.replace(': /', `: /${loc}/`));
    lines.push(`Disallow: /${loc}/*/print$`);
  }
  // Campaign and retired sections: plain prefixes, some with an allowed landing page.
  for (let i = 0; i < 30; i++) {
    const dir = `/${pick(r, SECTIONS)}/${pick(r, WORDS)}-${pick(r, KINDS)}-${i}/`;
    lines.push(`Disallow: ${dir}`);
    if (i % 5 === 0) lines.push(`Allow: ${dir}landing`);
  }
  lines.push('Crawl-delay: 2', '', 'Sitemap: https://www.example-shop.co.uk/sitemap.xml', '');
  return lines.join('\n');
}

/** One product, listing, article or account path, with the queries a crawl frontier collects. */
function retailPath(r) {
  const loc = r() < 0.4 ? `/${pick(r, LOCALES)}` : '';
  const x = r();
  let p;
  if (x < 0.45) p = `${loc}/${pick(r, SECTIONS)}/${pick(r, KINDS)}/${pick(r, WORDS)}-${pick(r, WORDS)}-${pick(r, KINDS)}-p${Math.floor(r() * 1e6)}`;
  else if (x < 0.7) p = `${loc}/${pick(r, SECTIONS)}/${pick(r, KINDS)}`;
  else if (x < 0.87) p = `/news/${pick(r, NEWS)}/${pick(r, WORDS)}-${pick(r, WORDS)}-${pick(r, KINDS)}-${Math.floor(r() * 1e5)}`;
  else if (x < 0.95) p = `${loc}/${pick(r, ['cart', 'checkout', 'account', 'wishlist', 'search'])}/${pick(r, WORDS)}`;
  else p = `/${pick(r, SECTIONS)}/${pick(r, WORDS)}-${pick(r, KINDS)}-${Math.floor(r() * 40)}/${pick(r, ['landing', 'index'])}`;
  const tail = r();
  if (tail < 0.05) p += pick(r, ['/print', '/amp', '.pdf', '/comments', '/quickview', '.json']);
  if (tail >= 0.05 && tail < 0.66) {
    const q = r();
    if (q < 0.18) p += `?page=${1 + Math.floor(r() * 20)}`;
    else if (q < 0.4) p += `?sort=${pick(r, ['price', 'new', 'rating'])}`;
    else if (q < 0.55) p += `?color=${pick(r, COLORS)}&size=${pick(r, SIZES)}`;
    else if (q < 0.65) p += `?color=${pick(r, COLORS)}`;
    else if (q < 0.75) p += `?utm_source=${pick(r, ['mail', 'ads', 'social'])}&utm_medium=cpc`;
    else if (q < 0.85) p += `?sessionid=${Math.floor(r() * 1e9).toString(16)}`;
    else p += `?id=${Math.floor(r() * 1e5)}&view=${pick(r, ['list', 'grid'])}`;
  }
  return p;
}

/** `count` absolute URLs on the retail site (seeded), in the mix `retailPath` draws. */
export function retailUrls(count, seed = 2, origin = 'https://www.example-shop.co.uk') {
  const r = rng(seed);
  const urls = new Array(count);
  for (let i = 0; i < count; i++) urls[i] = origin + retailPath(r);
  // Flat strings (not the ropes + built), as a crawler holds URLs read from a file.
  return JSON.parse(JSON.stringify(urls));
}
