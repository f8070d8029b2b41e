// Fetches and validates an ACAP permissions file named by `ACAP-permissions-reference`.
import type { Robots } from '../robots.js';
import { fetchRobotsFile, type FetchRobotsOptions, type RobotsFetchResult } from './fetch-robots.js';
import { describe, parseHttpUrl } from './http.js';

/**
 * The record key (lowercase) that points from robots.txt to a separate ACAP permissions file.
 * @example robots.others.filter((o) => o.key.toLowerCase() === ACAP_REFERENCE_KEY);
 */
export const ACAP_REFERENCE_KEY = 'acap-permissions-reference';

/**
 * - `ok`: fetched and parsed; `robots` holds the file.
 * - `unavailable` / `unreachable`: the fetch's own status (RFC 9309 §2.3.1.3 / §2.3.1.4).
 * - `invalid`: the reference cannot be resolved, or the file refers onward (see `diagnostic`).
 */
export type AcapReferenceStatus = 'ok' | 'unavailable' | 'unreachable' | 'invalid';

/** Why a reference is `invalid`. */
export interface AcapReferenceDiagnostic {
  /** `bad-reference`: not a path or http(s) URL; `nested-reference`: the file has its own reference. */
  readonly code: 'bad-reference' | 'nested-reference';
  readonly message: string;
  /** For `nested-reference`: the 1-based line of the onward reference in the fetched file. */
  readonly line?: number;
}

/** The outcome of {@link fetchAcapReference}. */
export interface AcapReferenceResult {
  readonly status: AcapReferenceStatus;
  /** The resolved URL of the permissions file, when the reference could be resolved. */
  readonly url: string | undefined;
  /** The parsed permissions file, only when `status` is `ok`. */
  readonly robots: Robots | null;
  /** The fetch (status, redirects, truncation…), when one was made. */
  readonly fetch: RobotsFetchResult | undefined;
  readonly diagnostic?: AcapReferenceDiagnostic;
}

/**
 * Resolves an `ACAP-permissions-reference` value against the robots.txt that holds it
 * (a same-origin path such as `/acap.txt`, or an absolute http(s) URL), fetches the file
 * through {@link fetchRobotsFile} (same redirects, limits and deadlines as robots.txt) and
 * parses it with `Robots.parse`. A referenced file that itself contains an
 * `ACAP-permissions-reference` record is rejected as `invalid` / `nested-reference`, so
 * references never chain or loop. Interpreting the ACAP records is the caller's job.
 *
 * Rejects only for invalid `baseRobotsUrl` / options or a caller abort; the reference
 * comes from untrusted content, so a bad one is a status, not an exception.
 *
 * @example
 * const ref = robots.others.find((o) => o.key.toLowerCase() === 'acap-permissions-reference');
 * const acap = await fetchAcapReference('https://example.com/robots.txt', ref.value, { userAgent: 'ExampleBot/1.0' });
 * acap.status; // → 'ok'
 * acap.url;    // → 'https://example.com/acap-permissions.txt'
 */
export async function fetchAcapReference(
  baseRobotsUrl: string | URL,
  reference: string,
  options: FetchRobotsOptions,
): Promise<AcapReferenceResult> {
  const base = parseHttpUrl(baseRobotsUrl, 'baseRobotsUrl');
  if (typeof reference !== 'string') {
    throw new TypeError(`reference must be the record's value as a string, got ${describe(reference)}`);
  }
  const value = reference.trim();
  let target: URL | undefined;
  try {
    target = value === '' ? undefined : new URL(value, base);
  } catch {
    target = undefined;
  }
  if (target === undefined || (target.protocol !== 'http:' && target.protocol !== 'https:')) {
    return {
      status: 'invalid',
      url: undefined,
      robots: null,
      fetch: undefined,
      diagnostic: {
        code: 'bad-reference',
        message: `ACAP-permissions-reference must be a path or an http(s) URL, got ${JSON.stringify(value)}`,
      },
    };
  }
  target.hash = '';
  const url = target.href;
  const fetched = await fetchRobotsFile(url, options);
  if (fetched.status !== 'ok') return { status: fetched.status, url, robots: null, fetch: fetched };
  const onward = findAcapReference(fetched.robots);
  if (onward !== undefined) {
    return {
      status: 'invalid',
      url,
      robots: null,
      fetch: fetched,
      diagnostic: {
        code: 'nested-reference',
        message: `${url} line ${onward.line} refers onward to ${JSON.stringify(onward.value)}; a permissions file must not contain ACAP-permissions-reference`,
        line: onward.line,
      },
    };
  }
  return { status: 'ok', url, robots: fetched.robots, fetch: fetched };
}

/**
 * The first `ACAP-permissions-reference` record of `robots` (key compared
 * case-insensitively), or undefined.
 *
 * @example
 * findAcapReference(Robots.parse('ACAP-Permissions-Reference: /acap.txt'))?.value; // → '/acap.txt'
 */
export function findAcapReference(robots: Robots): { key: string; value: string; line: number } | undefined {
  return robots.others.find((record) => record.key.trim().toLowerCase() === ACAP_REFERENCE_KEY);
}
