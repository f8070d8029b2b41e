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
