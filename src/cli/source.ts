// Where `classify` gets each host's robots.txt: the RobotsSource seam, and a directory of files.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CliError, fileErrorText } from './errors.js';

/**
 * A place that knows the robots.txt of hosts. `classify` asks once per host (then caches
 * the compiled rules), with the host key as `hostFileName` explains: lowercase host,
 * `:port` kept. `null` means the host has no robots.txt (RFC 9309 §2.3.1.3 "unavailable"):
 * classify then allows everything, or disallows with `--missing disallow`.
 *
 * `load` may return a promise. Fetching (`classify --fetch`) does not go through this
 * seam: its rules belong to an origin, scheme included (RFC 9309 §2.3), and every fetch
 * outcome already is rules (allow-all, disallow-all), so it has its own processor that
 * asks an `OriginRobots` (src/cli/fetch-classify.ts).
 * @example
 * const source: RobotsSource = { load: (host) => host === 'example.com' ? utf8('User-agent: *\nDisallow: /') : null };
 */
export interface RobotsSource {
  load(host: string): Uint8Array | null | Promise<Uint8Array | null>;
}

// What a host key may hold to be looked up as a file: RFC 3986 reg-name / IP-literal
// bytes (unreserved, sub-delims, '%', ':' and brackets). Anything else cannot name a file
// we wrote, and could escape the directory, so it is treated as having none.
const HOST_KEY = /^[a-z0-9\-._~!$&'()*+,;=%:[\]]+$/;

/**
 * The file name of a host's robots.txt in a `--robots-dir`: the lowercase host, its
 * `:port` (when the URL has one) written as `_port`, and `.txt`. IPv6 literals keep
 * their brackets. Returns null for keys that cannot name a file (empty, `.`/`..`, or
 * holding bytes outside RFC 3986's host and port syntax).
 * @example hostFileName('example.com') // 'example.com.txt'
 * @example hostFileName('example.com:8080') // 'example.com_8080.txt'
 * @example hostFileName('[2001:db8::1]:443') // '[2001:db8::1]_443.txt'
 */
export function hostFileName(host: string): string | null {
  if (host === '.' || host === '..' || !HOST_KEY.test(host)) return null;
  const portAt = host.lastIndexOf(':');
  // A ':' inside an IPv6 literal is not a port separator.
  if (portAt < 0 || portAt < host.lastIndexOf(']')) return `${host}.txt`;
  return `${host.slice(0, portAt)}_${host.slice(portAt + 1)}.txt`;
}

/**
 * robots.txt files in one directory, named by `hostFileName`. A missing file is a host
 * without robots.txt; any other read error stops the run.
 * @example new DirectorySource('robots/').load('example.com') // bytes of robots/example.com.txt
 */
export class DirectorySource implements RobotsSource {
  constructor(readonly dir: string) {}

  load(host: string): Uint8Array | null {
    const name = hostFileName(host);
    if (name === null) return null;
    try {
      return readFileSync(join(this.dir, name));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return null;
      throw new CliError(`cannot read ${join(this.dir, name)}: ${fileErrorText(error)}`);
    }
  }
}
