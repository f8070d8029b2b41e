// `robotstxt diff OLD NEW [URLS]`: the URLs whose verdict a robots.txt change flips, with the deciding rules before and after.
import { readFileSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { selectGroups } from '../parse/groups.js';
import type { Profile } from '../parse/lexer.js';
import { Robots } from '../robots.js';
import type { AgentMatcher } from '../matcher.js';
import { checkAgent } from './agent.js';
import { stringOption, type Command } from './command.js';
import { CliError, fileErrorText } from './errors.js';
import { countOf } from './output.js';
import { checkUrlInputs, oneOf } from './options.js';

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

function readRobots(path: string, profile: Profile): Robots {
  let body: Uint8Array;
  try {
    body = readFileSync(path);
  } catch (error) {
    throw new CliError(`cannot read ${path}: ${fileErrorText(error)}`);
  }
  return Robots.parse(body, { profile });
}

async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
  return Buffer.concat(chunks).toString('utf8');
}

/** The URL lines of the files in turn (`-`: stdin), without line breaks and empty lines. */
async function readUrls(paths: readonly string[], stdin: Readable): Promise<string[]> {
  const urls: string[] = [];
  for (const path of paths) {
    let text: string;
    if (path === '-') text = await readAll(stdin);
    else {
      try {
        text = readFileSync(path, 'utf8');
      } catch (error) {
        throw new CliError(`cannot read URLs from ${path}: ${fileErrorText(error)}`);
      }
    }
    for (const line of text.split('\n')) {
      const url = line.endsWith('\r') ? line.slice(0, -1) : line;
      if (url !== '') urls.push(url);
    }
  }
  return urls;
}

/** A TSV field: backslash, TAB, LF and CR escaped as the other commands' rows escape them. */
function field(value: string): string {
  return value.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));
}

/**
 * One row: TSV `CHANGE<TAB>OLD LINE<TAB>OLD RULE<TAB>NEW LINE<TAB>NEW RULE<TAB>URL` (a rule
 * is `-` when none decided), or a JSON object.
 * @example formatRow(row, 'tsv') // 'allow→disallow\t0\t-\t3\tdisallow: /private\t/private/a'
 */
export function formatRow(row: DiffRow, format: 'tsv' | 'jsonl'): string {
  if (format === 'jsonl') return JSON.stringify(row);
  return [row.change, String(row.old.line), field(row.old.rule ?? '-'), String(row.new.line), field(row.new.rule ?? '-'), field(row.url)].join('\t');
}

/** `robotstxt diff`: one entry of the CLI's command table (src/cli/main.ts). */
export const diffCommand: Command = {
  name: 'diff',
  summary: 'the URLs whose verdict changes between two robots.txt files',
  synopsis: ['diff --agent TOKEN [options] OLD NEW [URLS...|-]'],
  description: `Judges each URL (one per line of the URLS files, '-' for stdin) against OLD and NEW
and prints a row only where the verdict changes:
  allow→disallow|disallow→allow<TAB>OLD LINE<TAB>OLD RULE<TAB>NEW LINE<TAB>NEW RULE<TAB>URL
A line is that file's deciding rule (0 and rule - when none decided: allowed by default).
Without URLS, the URLs compared are generated from both files' rules for --agent (each
pattern's path, '*' read as 'x', and one path below it, plus /); stderr says so.
A summary per direction goes to stderr.

Exit status: 0 no verdict changes, 1 some do (as diff(1)), 2 error.`,
  options: {
    agent: { type: 'string', value: 'TOKEN', help: 'product token matched against User-agent lines (required)' },
    profile: { type: 'string', value: 'rfc|google', help: 'rule semantics (default rfc: RFC 9309)' },
    format: { type: 'string', value: 'tsv|jsonl', help: 'output rows (default tsv)' },
    quiet: { type: 'boolean', help: 'no summary on stderr' },
  },
  async run(args, context) {
    const [oldPath, newPath, ...urlPaths] = args.positionals;
    if (oldPath === undefined || newPath === undefined) throw new CliError(`diff needs OLD and NEW robots.txt files, got ${args.positionals.length === 0 ? 'none' : `only ${JSON.stringify(oldPath)}`}`);
    const agent = checkAgent(stringOption(args, 'agent'));
    const profile = oneOf<Profile>('profile', stringOption(args, 'profile'), ['rfc', 'google'], 'rfc');
    const format = oneOf<'tsv' | 'jsonl'>('format', stringOption(args, 'format'), ['tsv', 'jsonl'], 'tsv');
    const oldRobots = readRobots(oldPath, profile);
    const newRobots = readRobots(newPath, profile);
    checkUrlInputs(urlPaths);
    const generated = urlPaths.length === 0;
    const urls = generated ? generatePaths([oldRobots, newRobots], agent) : await readUrls(urlPaths, context.stdin);
    const { rows, compared } = diffVerdicts(oldRobots, newRobots, agent, urls);
    if (rows.length > 0) context.stdout.write(`${rows.map((row) => formatRow(row, format)).join('\n')}\n`);
    if (args.values.quiet !== true) {
      const closed = rows.filter((r) => r.change === 'allow→disallow').length;
      const source = generated ? ` (no URLS given: paths generated from the rules of ${oldPath} and ${newPath})` : '';
      context.stderr.write(`${countOf(compared, 'url')} compared${source}: ${closed} allow→disallow, ${rows.length - closed} disallow→allow\n`);
    }
    return rows.length === 0 ? 0 : 1;
  },
};
