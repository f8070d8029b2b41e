// Where `classify` gets each host's robots.txt: the RobotsSource seam, and a directory of files (with its outcomes.tsv).
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
  /**
   * For a host `load` found no robots.txt for: whether its fetch was recorded as
   * unavailable (RFC 9309 §2.3.1.3: allowed) or unreachable (§2.3.1.4: disallowed), which
   * decides over `--missing`. Undefined: nothing recorded, `--missing` applies.
   */
  outcomeOf?(host: string): FetchedOutcome | undefined;
}

/** A recorded fetch that left no robots.txt file. */
export type FetchedOutcome = 'unavailable' | 'unreachable';

/**
 * The file of a `--robots-dir` that `robotstxt fetch` writes next to the robots.txt files:
 * one row per origin it fetched. Host files end in `.txt`, so no host can collide with it.
 * @example OUTCOMES_FILE // 'outcomes.tsv'
 */
export const OUTCOMES_FILE = 'outcomes.tsv';
/**
 * The header row of OUTCOMES_FILE, and its columns: the origin fetched, its RFC 9309 §2.3.1
 * outcome (ok, unavailable, unreachable), the last HTTP status (`-` when no response came),
 * the robots.txt file name the host has in the directory (written only for ok), and why
 * (fetchRobots' reason: success, client-error, server-error, timeout, network-error, …).
 */
export const OUTCOMES_HEADER = 'origin\toutcome\tstatus\tfile\treason';

/**
 * Reads `DIR/outcomes.tsv` (absent: an empty map) into file name → outcome, for the files
 * whose last row is unavailable or unreachable. Rows are checked: a malformed one is an error
 * that names the file, the line, what was expected and what came.
 * @example readOutcomes('robots/').get('example.com_8080.txt') // 'unreachable'
 */
export function readOutcomes(dir: string): Map<string, FetchedOutcome> {
  const path = join(dir, OUTCOMES_FILE);
  const outcomes = new Map<string, FetchedOutcome>();
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return outcomes;
    throw new CliError(`cannot read ${path}: ${code ?? (error as Error).message}`);
  }
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  lines.forEach((line, index) => {
    if (index === 0 && line === OUTCOMES_HEADER) return;
    const fields = line.split('\t');
    const outcome = fields[1];
    const file = fields[3];
    if (fields.length !== 5 || (outcome !== 'ok' && outcome !== 'unavailable' && outcome !== 'unreachable') || file === undefined || !file.endsWith('.txt')) {
      throw new CliError(
        `${path} line ${index + 1}: expected ${JSON.stringify(OUTCOMES_HEADER)} columns (outcome ok, unavailable or unreachable; file ending .txt), got ${JSON.stringify(line)}`,
      );
    }
    // Runs append: the last row for a file is its current outcome.
    if (outcome === 'ok') outcomes.delete(file);
    else outcomes.set(file, outcome);
  });
  return outcomes;
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
 * without robots.txt, unless the directory's outcomes.tsv (written by `robotstxt fetch`)
 * records its fetch as unavailable or unreachable; any other read error stops the run.
 * @example new DirectorySource('robots/').load('example.com') // bytes of robots/example.com.txt
 */
export class DirectorySource implements RobotsSource {
  private readonly outcomes: Map<string, FetchedOutcome>;

  constructor(readonly dir: string) {
    this.outcomes = readOutcomes(dir);
  }

  outcomeOf(host: string): FetchedOutcome | undefined {
    const name = hostFileName(host);
    return name === null ? undefined : this.outcomes.get(name);
  }

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
