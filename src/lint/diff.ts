// Change impact between two robots.txt files: the URLs whose verdict flips, and the paths to compare when no URL list is given.
//
// Browser-safe (no Node API), so the CLI's `robotstxt diff` and the tester page share it.
import { selectGroups } from '../parse/groups.js';
import type { Robots } from '../robots.js';

type AgentMatcher = ReturnType<Robots['forAgent']>;

/** Which way a verdict changed. */
export type VerdictChange = 'allow→disallow' | 'disallow→allow';

/** One URL whose verdict differs between the two files. */
export interface DiffRow {
  readonly change: VerdictChange;
  readonly url: string;
  /** The deciding line and rule in OLD (0 and null: no rule decided, allowed by default). */
  readonly old: { readonly line: number; readonly rule: string | null };
  readonly new: { readonly line: number; readonly rule: string | null };
}

/** A changed verdict of one agent (diffVerdictsForAgents). */
export interface AgentDiffRow extends DiffRow {
  readonly agent: string;
}

/** What a diff found: the rows, and how many URLs were compared. */
export interface DiffResult {
  readonly rows: readonly DiffRow[];
  readonly compared: number;
}

/**
 * Paths to compare when no URL list is given: for every rule of the groups that apply to
 * `agent` (or to any of several agents) in either file, the path its pattern stands for (`*` read as `x`, a final `$`
 * dropped, rooted at `/`) and one path below it, plus `/`. Each rule's own boundary is
 * thereby tested on both files.
 * @example generatePaths([old, next], 'ExampleBot') // ['/', '/private/', '/private/x', …]
 */
export function generatePaths(files: readonly Robots[], agent: string | readonly string[]): string[] {
  const paths = new Set<string>(['/']);
  const agents = typeof agent === 'string' ? [agent] : agent;
  for (const robots of files) {
    for (const group of agents.flatMap((one) => selectGroups(robots.groups, one))) {
      for (const rule of group.rules) {
        if (rule.pattern.length === 0) continue;
        let text = new TextDecoder().decode(rule.pattern);
        const anchored = text.endsWith('$');
        if (anchored) text = text.slice(0, -1);
        text = text.replace(/\*/g, 'x');
        if (!text.startsWith('/')) text = `/${text}`;
        paths.add(text);
        if (!anchored) paths.add(text.endsWith('/') ? `${text}x` : `${text}/x`);
      }
    }
  }
  return [...paths];
}

/**
 * Compares the verdicts of `oldRobots` and `newRobots` for `agent` on `urls` (one batch call
 * per file) and returns a row for each URL whose verdict changed, in input order.
 * @example diffVerdicts(Robots.parse('User-agent: *\nDisallow: /a'), Robots.parse('User-agent: *\nDisallow: /b'), 'bot', ['/a', '/b']).rows.map((r) => r.change) // ['disallow→allow', 'allow→disallow']
 */
export function diffVerdicts(oldRobots: Robots, newRobots: Robots, agent: string, urls: readonly string[]): DiffResult {
  const before = oldRobots.forAgent(agent);
  const after = newRobots.forAgent(agent);
  const a = before.decideBatch(urls);
  const b = after.decideBatch(urls);
  const rows: DiffRow[] = [];
  for (let i = 0; i < urls.length; i++) {
    if (a.verdicts[i] === b.verdicts[i]) continue;
    rows.push({
      change: a.verdicts[i] === 1 ? 'allow→disallow' : 'disallow→allow',
      url: urls[i]!,
      old: decided(before, a.lines[i]!),
      new: decided(after, b.lines[i]!),
    });
  }
  return { rows, compared: urls.length };
}

/**
 * diffVerdicts for several agents at once (each URL read once per file, Robots#forAgents):
 * a row for each URL × agent whose verdict changed, URL by URL, agents in the order given.
 * @example diffVerdictsForAgents(old, next, ['Googlebot', 'GPTBot'], ['/a']).rows.map((r) => r.agent) // ['GPTBot'] when only GPTBot's verdict on /a changed
 */
export function diffVerdictsForAgents(oldRobots: Robots, newRobots: Robots, agents: readonly string[], urls: readonly string[]): { readonly rows: readonly AgentDiffRow[]; readonly compared: number } {
  const before = oldRobots.forAgents(agents);
  const after = newRobots.forAgents(agents);
  const a = before.decideBatch(urls);
  const b = after.decideBatch(urls);
  const width = agents.length;
  const rows: AgentDiffRow[] = [];
  for (let i = 0, k = 0; i < urls.length; i++) {
    for (let j = 0; j < width; j++, k++) {
      if (a.verdicts[k] === b.verdicts[k]) continue;
      rows.push({
        change: a.verdicts[k] === 1 ? 'allow→disallow' : 'disallow→allow',
        agent: agents[j]!,
        url: urls[i]!,
        old: decided(before.matchers[j]!, a.lines[k]!),
        new: decided(after.matchers[j]!, b.lines[k]!),
      });
    }
  }
  return { rows, compared: urls.length };
}

function decided(matcher: AgentMatcher, line: number): { line: number; rule: string | null } {
  return { line, rule: matcher.ruleText(line) };
}
