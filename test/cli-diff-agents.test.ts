// The built CLI's `diff --agents`: a row per URL × agent whose verdict flips (agent column), the summary per agent and direction, exit 0/1/2.
//
// Needs `npm run build` (npm test runs it first).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './helpers/cli.js';
import { Robots } from '../src/index.js';
import { diffVerdicts, diffVerdictsForAgents } from '../src/lint/diff.js';

// GPTBot loses everything, Googlebot gains /private/ok, CCBot (falls to `*`) gets /tmp closed.
const OLD = 'User-agent: *\nDisallow: /private/\n\nUser-agent: googlebot\nDisallow: /private/\n';
const NEW = 'User-agent: *\nDisallow: /private/\nDisallow: /tmp\n\nUser-agent: googlebot\nDisallow: /private/\nAllow: /private/ok\n\nUser-agent: gptbot\nDisallow: /\n';
const AGENTS = ['Googlebot', 'GPTBot', 'CCBot'];

let dir = '';
let oldPath = '';
let newPath = '';
const path = (name: string): string => join(dir, name);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'robotstxt-diff-agents-'));
  oldPath = path('old.txt');
  newPath = path('new.txt');
  writeFileSync(oldPath, OLD);
  writeFileSync(newPath, NEW);
  writeFileSync(path('agents.txt'), '# audited\nGooglebot\nGPTBot\nCCBot\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('robotstxt diff --agents', () => {
  it('a row per URL and agent whose verdict flips, the agent after the change; summary per agent and direction; exit 1', () => {
    const r = runCli(['diff', '--agents', AGENTS.join(','), oldPath, newPath, '-'], '/public\n/private/ok/1\n/tmp/x\n');
    expect(r.status).toBe(1);
    expect(r.stdout).toBe([
      'allow→disallow\tGPTBot\t0\t-\t10\tdisallow: /\t/public',
      'disallow→allow\tGooglebot\t5\tdisallow: /private/\t7\tallow: /private/ok\t/private/ok/1',
      'allow→disallow\tGPTBot\t0\t-\t10\tdisallow: /\t/tmp/x',
      'allow→disallow\tCCBot\t0\t-\t3\tdisallow: /tmp\t/tmp/x',
      '',
    ].join('\n'));
    expect(r.stderr.trimEnd().split('\n')).toEqual([
      '3 urls compared: 3 allow→disallow, 1 disallow→allow',
      'Googlebot: 0 allow→disallow, 1 disallow→allow',
      'GPTBot: 2 allow→disallow, 0 disallow→allow',
      'CCBot: 1 allow→disallow, 0 disallow→allow',
    ]);
  });

  it('each agent\'s rows are what diff --agent gives for it (generated paths: from every agent\'s rules)', () => {
    const oldRobots = Robots.parse(OLD);
    const newRobots = Robots.parse(NEW);
    const urls = ['/', '/public', '/private/', '/private/x', '/private/ok', '/private/ok/x', '/tmp', '/tmp/x'];
    const { rows } = diffVerdictsForAgents(oldRobots, newRobots, AGENTS, urls);
    for (const agent of AGENTS) {
      expect(rows.filter((row) => row.agent === agent).map(({ agent: _agent, ...row }) => row)).toEqual(diffVerdicts(oldRobots, newRobots, agent, urls).rows);
    }
    const generated = runCli(['diff', '--agents-file', path('agents.txt'), '--format', 'jsonl', oldPath, newPath]);
    expect(generated.status).toBe(1);
    const found = generated.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as { agent: string; url: string; change: string });
    // /private/ok comes from Googlebot's new rule, /tmp from `*`'s: both agents' paths are compared.
    expect(found).toContainEqual(expect.objectContaining({ agent: 'Googlebot', url: '/private/ok', change: 'disallow→allow' }));
    expect(found).toContainEqual(expect.objectContaining({ agent: 'CCBot', url: '/tmp', change: 'allow→disallow' }));
    expect(generated.stderr).toMatch(/compared \(no URLS given: paths generated from the rules of /);
  });

  it('exit 0 when no agent\'s verdict changes (no rows); 2 on flag errors', () => {
    const same = runCli(['diff', '--agents', 'Googlebot,CCBot', oldPath, oldPath, '-'], '/public\n/private/x\n');
    expect(same.status).toBe(0);
    expect(same.stdout).toBe('');
    expect(same.stderr.trimEnd().split('\n')).toEqual([
      '2 urls compared: 0 allow→disallow, 0 disallow→allow', 'Googlebot: 0 allow→disallow, 0 disallow→allow', 'CCBot: 0 allow→disallow, 0 disallow→allow',
    ]);
    for (const [args, message] of [
      [['--agent', 'a', '--agents', 'b'], /--agent and --agents exclude each other/],
      [['--agents', ''], /--agents names no agent/],
      [['--agents', 'Googlebot/2.1'], /--agents entry 1 must be a product token .*did you mean Googlebot\?/],
    ] as const) {
      const r = runCli(['diff', ...args, oldPath, newPath, '-'], '/x\n');
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(message);
    }
  });
});
