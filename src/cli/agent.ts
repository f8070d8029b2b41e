// `--agent` must be a product token (RFC 9309 §2.2.1): anything else would silently get the `*` group.
import { isValidProductToken } from '../paths.js';
import { CliError } from './errors.js';

/**
 * The product token a crawler most likely meant by `value`: the token of a
 * `(compatible; Token/x.y; …)` part of a whole User-Agent header, else the leading run of
 * token characters (`Googlebot/2.1` → `Googlebot`, `foo bar` → `foo`). Null when there is none.
 * @example suggestProductToken('Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)') // 'Googlebot'
 * @example suggestProductToken('Googlebot/2.1') // 'Googlebot'
 * @example suggestProductToken('*') // null
 */
export function suggestProductToken(value: string): string | null {
  const compatible = /\(\s*compatible\s*;\s*([A-Za-z_-]+)/i.exec(value);
  if (compatible) return compatible[1]!;
  const leading = /^\s*([A-Za-z_-]+)/.exec(value);
  return leading ? leading[1]! : null;
}

/**
 * Checks `--agent`: required, and a valid product token (the library's
 * `isValidProductToken`). A value that is not gets an error suggesting the token in it.
 * @example checkAgent('Googlebot') // 'Googlebot'
 * @example checkAgent('Googlebot/2.1') // throws: … did you mean --agent Googlebot?
 */
export function checkAgent(value: string | undefined): string {
  if (value === undefined) throw new CliError('--agent TOKEN is required (the product token matched against User-agent lines, e.g. --agent ExampleBot)');
  if (isValidProductToken(value)) return value;
  const what = `--agent must be a product token (letters, '_' and '-', RFC 9309 §2.2.1), got ${JSON.stringify(value)}`;
  const token = suggestProductToken(value);
  if (token === null) throw new CliError(`${what}: give the token your crawler looks for in User-agent lines, e.g. --agent ExampleBot`);
  // A whole header was probably meant for the HTTP request.
  const header = /\(|\/\S*\s/.test(value) ? ' (--user-agent sets the HTTP User-Agent header when fetching)' : '';
  throw new CliError(`${what}; did you mean --agent ${token}?${header}`);
}
