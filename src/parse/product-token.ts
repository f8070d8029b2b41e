// Product tokens (RFC 9309 §2.2.1): the check, the suggestion for a value that is not one, and the leading run a line names.
import { expectString } from '../errors.js';

/** RFC 9309 §2.2.1: "The product token MUST contain only uppercase and lowercase letters ("a-z" and "A-Z"), underscores ("_"), and hyphens ("-")." */
const PRODUCT_TOKEN = /^[A-Za-z_-]+$/;

/**
 * Whether `token` is a valid product token (RFC 9309 §2.2.1: only `a-z`, `A-Z`, `_`
 * and `-`, at least one). Google's `IsValidUserAgentToObey` applies the same test.
 * @example isValidProductToken('Googlebot-Image') // true
 * @example isValidProductToken('Googlebot/2.1') // false
 */
export function isValidProductToken(token: string): boolean {
  expectString(token, 'token');
  return PRODUCT_TOKEN.test(token);
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
  if (PRODUCT_TOKEN.test(value)) return value;
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

/**
 * The token a user-agent value names, read as parse/groups.ts reads a file's user-agent
 * line (without the `*` rule): the whole value when it is a product token, else its longest
 * leading `[A-Za-z_-]` run, lowercased; '' when it starts with no such character.
 * @example leadingToken('Googlebot/2.1') // 'googlebot'
 */
export function leadingToken(value: string): string {
  const run = /^[A-Za-z_-]*/.exec(value)![0];
  return run.toLowerCase();
}
