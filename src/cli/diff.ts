// `robotstxt diff OLD NEW [URLS]`: the URLs whose verdict a robots.txt change flips, with the deciding rules before and after.
import { readFileSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { diffVerdicts, diffVerdictsForAgents, generatePaths, type AgentDiffRow, type DiffRow } from '../lint/diff.js';
import type { Profile } from '../parse/lexer.js';
import { Robots } from '../robots.js';
import { checkAgent } from './agent.js';
import { agentListOption } from './check-agents.js';
import { stringOption, type Command } from './command.js';
import { CliError, fileErrorText } from './errors.js';
import { countOf } from './output.js';
import { checkUrlInputs, oneOf } from './options.js';

// The comparison itself lives in src/lint/diff.ts (no Node API) so the tester page bundles it too.
export {
  diffVerdicts, diffVerdictsForAgents, generatePaths, type AgentDiffRow, type DiffResult, type DiffRow, type VerdictChange,
} from '../lint/diff.js';

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
 * is `-` when none decided), the agent after CHANGE for a row of `--agents`, or a JSON object.
 * @example formatRow(row, 'tsv') // 'allow→disallow\t0\t-\t3\tdisallow: /private\t/private/a'
 */
export function formatRow(row: DiffRow | AgentDiffRow, format: 'tsv' | 'jsonl'): string {
  if (format === 'jsonl') return JSON.stringify(row);
  const agent = 'agent' in row ? [row.agent] : [];
  return [row.change, ...agent, String(row.old.line), field(row.old.rule ?? '-'), String(row.new.line), field(row.new.rule ?? '-'), field(row.url)].join('\t');
}

/**
 * The summary lines of a `diff --agents` run after the first: per agent, each direction.
 * @example agentChanges(['GPTBot'], rows) // ['GPTBot: 2 allow→disallow, 0 disallow→allow']
 */
export function agentChanges(agents: readonly string[], rows: readonly AgentDiffRow[]): string[] {
  return agents.map((agent) => {
    const mine = rows.filter((row) => row.agent === agent);
    const closed = mine.filter((row) => row.change === 'allow→disallow').length;
    return `${agent}: ${closed} allow→disallow, ${mine.length - closed} disallow→allow`;
  });
}

/** `robotstxt diff`: one entry of the CLI's command table (src/cli/main.ts). */
export const diffCommand: Command = {
  name: 'diff',
  summary: 'the URLs whose verdict changes between two robots.txt files',
  synopsis: ['diff --agent TOKEN [options] OLD NEW [URLS...|-]', 'diff --agents A,B,... | --agents-file FILE [options] OLD NEW [URLS...|-]'],
  description: `Judges each URL (one per line of the URLS files, '-' for stdin) against OLD and NEW
and prints a row only where the verdict changes:
  allow→disallow|disallow→allow<TAB>OLD LINE<TAB>OLD RULE<TAB>NEW LINE<TAB>NEW RULE<TAB>URL
A line is that file's deciding rule (0 and rule - when none decided: allowed by default).
Without URLS, the URLs compared are generated from both files' rules for --agent (each
pattern's path, '*' read as 'x', and one path below it, plus /); stderr says so.
A summary per direction goes to stderr.

--agents / --agents-file: a row per URL and agent whose verdict changes, the agent after
the change (JSONL: an "agent" field); the generated URLs come from every agent's rules;
the summary adds each agent's counts per direction.

Exit status: 0 no verdict changes, 1 some do (as diff(1)), 2 error.`,
  options: {
    agent: { type: 'string', value: 'TOKEN', help: 'product token matched against User-agent lines (this, --agents or --agents-file is required)' },
    agents: { type: 'string', value: 'A,B,...', help: 'several product tokens, comma-separated: rows for each agent whose verdict changes' },
    'agents-file': { type: 'string', value: 'FILE', help: "like --agents, one token per line ('#' comments and blank lines skipped)" },
    profile: { type: 'string', value: 'rfc|google', help: 'rule semantics (default rfc: RFC 9309)' },
    format: { type: 'string', value: 'tsv|jsonl', help: 'output rows (default tsv)' },
    quiet: { type: 'boolean', help: 'no summary on stderr' },
  },
  async run(args, context) {
    const [oldPath, newPath, ...urlPaths] = args.positionals;
    if (oldPath === undefined || newPath === undefined) throw new CliError(`diff needs OLD and NEW robots.txt files, got ${args.positionals.length === 0 ? 'none' : `only ${JSON.stringify(oldPath)}`}`);
    const agents = agentListOption(args);
    const agent = agents === null ? checkAgent(stringOption(args, 'agent')) : agents[0]!;
    const profile = oneOf<Profile>('profile', stringOption(args, 'profile'), ['rfc', 'google'], 'rfc');
    const format = oneOf<'tsv' | 'jsonl'>('format', stringOption(args, 'format'), ['tsv', 'jsonl'], 'tsv');
    const oldRobots = readRobots(oldPath, profile);
    const newRobots = readRobots(newPath, profile);
    checkUrlInputs(urlPaths);
    const generated = urlPaths.length === 0;
    const urls = generated ? generatePaths([oldRobots, newRobots], agents ?? agent) : await readUrls(urlPaths, context.stdin);
    const { rows, compared } = agents === null ? diffVerdicts(oldRobots, newRobots, agent, urls) : diffVerdictsForAgents(oldRobots, newRobots, agents, urls);
    if (rows.length > 0) context.stdout.write(`${rows.map((row) => formatRow(row, format)).join('\n')}\n`);
    if (args.values.quiet !== true) {
      const closed = rows.filter((r) => r.change === 'allow→disallow').length;
      const source = generated ? ` (no URLS given: paths generated from the rules of ${oldPath} and ${newPath})` : '';
      context.stderr.write(`${countOf(compared, 'url')} compared${source}: ${closed} allow→disallow, ${rows.length - closed} disallow→allow\n`);
      if (agents !== null) for (const line of agentChanges(agents, rows as readonly AgentDiffRow[])) context.stderr.write(`${line}\n`);
    }
    return rows.length === 0 ? 0 : 1;
  },
};
