// Small public helpers about what the matcher compares: URL paths and product tokens.
import type { Profile } from './parse.js';
import { profileFlags } from './compile.js';
import { getEngine } from './wasm/index.js';
import { expectProfile, expectString } from './errors.js';

const decoder = new TextDecoder();

/**
 * The path+params+query the matcher compares for `url` under `profile`: scheme,
 * authority and fragment dropped, empty path → `/`; in the rfc profile also
 * percent-normalized (RFC 9309 §2.2.2), in the google profile taken as given.
 * @example toMatchPath('https://example.com/a%7eb?q#frag') // '/a~b?q'
 * @example toMatchPath('https://example.com/a%7eb', 'google') // '/a%7eb'
 */
export function toMatchPath(url: string, profile: Profile = 'rfc'): string {
  expectString(url, 'url');
  expectProfile(profile, 'profile');
  return decoder.decode(getEngine().preparePath(url, profileFlags(profile)));
}

/**
 * Whether `token` is a valid product token (RFC 9309 §2.2.1: only `a-z`, `A-Z`, `_`
 * and `-`, at least one). Google's `IsValidUserAgentToObey` applies the same test.
 * @example isValidProductToken('Googlebot-Image') // true
 * @example isValidProductToken('Googlebot/2.1') // false
 */
export function isValidProductToken(token: string): boolean {
  expectString(token, 'token');
  return /^[A-Za-z_-]+$/.test(token);
}

/**
 * The product token `value` most likely means, to suggest when `value` is not one
 * (`did you mean 'Googlebot'?`); `value` itself when it already is one; `undefined` when
 * no token can be read from it. Read in this order:
 * 1. the product after `compatible;` in a whole `User-Agent` header
 *    (`Mozilla/5.0 (compatible; Googlebot/2.1; +http://…)` → `Googlebot`);
 * 2. in a header that starts with `Mozilla/` (a browser-style header without
 *    `compatible;`), the first product whose name says bot, crawler or spider
 *    (`… Chrome/120 Safari/537.36 bingbot/2.0` → `bingbot`), else none;
 * 3. otherwise the leading run of `[A-Za-z_-]`, as a user-agent line of a robots.txt
 *    is read (`Googlebot/2.1` → `Googlebot`, `foo bar` → `foo`, `MJ12bot` → `MJ`).
 * @throws TypeError when `value` is not a string
 * @example suggestProductToken('Googlebot/2.1') // 'Googlebot'
 * @example suggestProductToken('Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)') // 'bingbot'
 * @example suggestProductToken('') // undefined
 */
export function suggestProductToken(value: string): string | undefined {
  expectString(value, 'value');
  if (/^[A-Za-z_-]+$/.test(value)) return value;
  const compatible = /\bcompatible;\s*([A-Za-z_-]+)/i.exec(value);
  if (compatible !== null) return compatible[1];
  const trimmed = value.trim();
  if (/^mozilla\//i.test(trimmed)) {
    // A browser's header names no crawler: suggest only a product that says it is one.
    for (const match of trimmed.matchAll(/(?:^|[\s;(])([A-Za-z_-]*(?:bot|crawler|spider)[A-Za-z_-]*)(?=[/;)\s]|$)/gi)) return match[1];
    return undefined;
  }
  const run = /^[A-Za-z_-]+/.exec(trimmed);
  return run === null ? undefined : run[0];
}

/**
 * The TypeError for a user agent that is not a product token: what came, what was
 * expected, and the token {@link suggestProductToken} reads from it.
 * @example productTokenError('userAgent', 'Googlebot/2.1').message
 * // "userAgent must be a product token (letters, '_' and '-', RFC 9309 §2.2.1) or '*', got \"Googlebot/2.1\"; did you mean 'Googlebot'?"
 */
export function productTokenError(name: string, value: string): TypeError {
  const suggestion = suggestProductToken(value);
  const hint = suggestion === undefined ? '' : `; did you mean '${suggestion}'?`;
  return new TypeError(`${name} must be a product token (letters, '_' and '-', RFC 9309 §2.2.1) or '*', got ${JSON.stringify(value)}${hint}`);
}
