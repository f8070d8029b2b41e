// toMatchPath: the path+query the matcher compares for a URL, read by the same Wasm code that judges it.
import type { Profile } from './parse/lexer.js';
import { profileFlags } from './rules/compile.js';
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
