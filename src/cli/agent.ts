// `--agent` must be a product token (RFC 9309 §2.2.1): anything else would silently get the `*` group.
import { isValidProductToken, suggestProductToken } from '../parse/product-token.js';
import { CliError } from './errors.js';

/**
 * Checks `--agent`: required, and a valid product token (the library's
 * `isValidProductToken`). A value that is not gets an error suggesting the token in it.
 * @example checkAgent('Googlebot') // 'Googlebot'
 * @example checkAgent('Googlebot/2.1') // throws: … did you mean --agent Googlebot?
 */
export function checkAgent(value: string | undefined, where = '--agent'): string {
  if (value === undefined) throw new CliError('--agent TOKEN is required (the product token matched against User-agent lines, e.g. --agent ExampleBot)');
  if (isValidProductToken(value)) return value;
  // `where` names the list entry (`--agents entry 2`) when the token came from --agents.
  const what = `${where} must be a product token (letters, '_' and '-', RFC 9309 §2.2.1), got ${JSON.stringify(value)}`;
  const flag = where === '--agent' ? '--agent ' : '';
  const token = suggestProductToken(value);
  if (token === undefined) throw new CliError(`${what}: give the token your crawler looks for in User-agent lines, e.g. ${flag}ExampleBot`);
  // A whole header was probably meant for the HTTP request.
  const header = /\(|\/\S*\s/.test(value) ? ' (--user-agent sets the HTTP User-Agent header when fetching)' : '';
  throw new CliError(`${what}; did you mean ${flag}${token}?${header}`);
}
