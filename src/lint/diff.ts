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

/** What a diff found: the rows, and how many URLs were compared. */
export interface DiffResult {
  readonly rows: readonly DiffRow[];
  readonly compared: number;
}

/**
 * Paths to compare when no URL list is given: for every rule of the groups that apply to
 * `agent` in either file, the path its pattern stands for (`*` read as `x`, a final `$`
 * dropped, rooted at `/`) and one path below it, plus `/`. Each rule's own boundary is
 * thereby tested on both files.
 * @example generatePaths([old, next], 'ExampleBot') // ['/', '/private/', '/private/x', …]
 */
export function generatePaths(files: readonly Robots[], agent: string): string[] {
  const paths = new Set<string>(['/']);
  for (const robots of files) {
    for (const group of selectGroups(robots.groups, agent)) {
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

function decided(matcher: AgentMatcher, line: number): { line: number; rule: string | null } {
  return { line, rule: matcher.ruleText(line) };
}
