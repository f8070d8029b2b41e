// Evaluates one (robots, agent, url, profile) through every public matching path and asserts they all agree.
import { expect } from 'vitest';
import { Robots, type Explanation, type Profile } from '../../src/index.js';

/** The agreed answer of every path: verdict, 1-based line of the deciding rule (0 = none) and its text. */
export interface PathVerdict {
  readonly allowed: boolean;
  readonly line: number;
  readonly rule: string | null;
}

/** Options beyond the profile, passed to `Robots.parse`. */
export interface EvaluateOptions {
  readonly maxBytes?: number;
}

const encoder = new TextEncoder();

// Parsing is deterministic, so one Robots per (profile, limit, body) is reused across
// cases: this also exercises the per-agent AgentMatcher cache the way a crawler would.
const parsed = new Map<string, Robots>();

function cacheKey(body: string | Uint8Array, profile: Profile, options: EvaluateOptions): string {
  const text = typeof body === 'string' ? `s${body}` : `b${Buffer.from(body).toString('base64')}`;
  return `${profile}\u0000${options.maxBytes ?? ''}\u0000${text}`;
}

/**
 * `Robots.parse(body, { profile, ...options })`, memoized.
 * @example parseCached('user-agent: *\ndisallow: /\n', 'rfc').groups.length // 1
 */
export function parseCached(body: string | Uint8Array, profile: Profile, options: EvaluateOptions = {}): Robots {
  const key = cacheKey(body, profile, options);
  let robots = parsed.get(key);
  if (robots === undefined) {
    robots = Robots.parse(body, { profile, ...options });
    parsed.set(key, robots);
  }
  return robots;
}

function pick(e: Explanation): PathVerdict {
  return { allowed: e.allowed, line: e.line, rule: e.rule };
}

/**
 * Runs `url` for `agent` against `body` under `profile` through `Robots#isAllowed`,
 * `Robots#explain`, and the `AgentMatcher`'s `isAllowed`, `explain`, `matchBatch` (with
 * and without `out`), `decideBatch`, `matchLines` (LF and CRLF) and `decideLines`; a
 * string body is also parsed as its UTF-8 bytes. Fails the current test, naming the
 * path, if any verdict or deciding line disagrees. (The CLI is checked in bulk by
 * conformance.test.ts: one process-free `runCheck` per robots.txt and agent.)
 *
 * @example
 * const { allowed, line } = evaluateAllPaths('user-agent: *\ndisallow: /x\n', 'FooBot', '/x/y', 'rfc');
 * // allowed === false, line === 2
 */
export function evaluateAllPaths(
  body: string | Uint8Array,
  agent: string,
  url: string,
  profile: Profile,
  options: EvaluateOptions = {},
): PathVerdict {
  const robots = parseCached(body, profile, options);
  expect(robots.profile, 'robots.profile').toBe(profile);

  const allowed = robots.isAllowed(url, agent);
  const explained = pick(robots.explain(url, agent));

  const matcher = robots.forAgent(agent);
  expect(matcher.profile, 'forAgent().profile').toBe(profile);
  // Matchers are cached per lowercased token, so the first spelling asked for is kept.
  expect(matcher.userAgent.toLowerCase(), 'forAgent().userAgent').toBe(agent.toLowerCase());
  const matcherExplained = pick(matcher.explain(url));

  const verdicts: Record<string, boolean> = {
    'robots.isAllowed': allowed,
    'robots.explain': explained.allowed,
    'forAgent().isAllowed': matcher.isAllowed(url),
    'forAgent().explain': matcherExplained.allowed,
    'forAgent().matchBatch': verdictOf(matcher.matchBatch([url]), 'matchBatch'),
    'forAgent().matchBatch(out)': verdictOf(matcher.matchBatch([url], new Uint8Array(4)), 'matchBatch(out)', false),
  };
  // decideBatch/decideLines carry the deciding line too: it must be explain()'s line.
  const decidedBatch = matcher.decideBatch([url]);
  verdicts['forAgent().decideBatch'] = verdictOf(decidedBatch.verdicts, 'decideBatch');
  expect(decidedBatch.lines[0], 'decideBatch line vs explain line').toBe(explained.line);
  // matchLines splits its input at CR and LF, so a URL that itself holds one of them
  // cannot be carried as a single line: that path is skipped for such URLs only.
  if (!/[\r\n]/.test(url)) {
    verdicts['forAgent().matchLines(LF)'] = verdictOf(matcher.matchLines(encoder.encode(`${url}\n`)), 'matchLines(LF)');
    verdicts['forAgent().matchLines(CRLF)'] = verdictOf(
      matcher.matchLines(encoder.encode(`${url}\r\n`), new Uint8Array(4)),
      'matchLines(CRLF, out)',
      false,
    );
    const decidedLines = matcher.decideLines(encoder.encode(`${url}\n`));
    verdicts['forAgent().decideLines'] = verdictOf(decidedLines.verdicts, 'decideLines');
    expect(decidedLines.lines[0], 'decideLines line vs explain line').toBe(explained.line);
  }
  if (typeof body === 'string') {
    // The same body handed over as UTF-8 bytes must parse to the same rules.
    const fromBytes = parseCached(encoder.encode(body), profile, options);
    verdicts['Robots.parse(bytes).isAllowed'] = fromBytes.isAllowed(url, agent);
    expect(pick(fromBytes.explain(url, agent)), 'Robots.parse(bytes).explain vs Robots.parse(string).explain').toEqual(
      explained,
    );
  }

  const agreeing = Object.fromEntries(Object.keys(verdicts).map((path) => [path, allowed]));
  expect(verdicts, `every path must agree for ${JSON.stringify(url)} / ${JSON.stringify(agent)}`).toEqual(agreeing);
  expect(matcherExplained, 'forAgent().explain vs robots.explain').toEqual(explained);
  // An explanation names a rule exactly when it cites a line.
  expect(explained.rule === null, `rule ${JSON.stringify(explained.rule)} vs line ${explained.line}`).toBe(
    explained.line === 0,
  );
  return explained;
}

function verdictOf(out: Uint8Array, path: string, exactLength = true): boolean {
  // One input URL or line → exactly one verdict, 1 = allowed, 0 = disallowed; a final
  // line ending terminates the last line, it does not open an empty one. With a caller's
  // `out` larger than needed, only the first byte is specified.
  if (exactLength) expect(out.length, `${path} returns one verdict per URL`).toBe(1);
  else expect(out.length, `${path} returns at least one verdict`).toBeGreaterThanOrEqual(1);
  const v = out[0];
  expect(v === 0 || v === 1, `${path} verdict byte is 0 or 1, got ${v}`).toBe(true);
  return v === 1;
}
