#!/usr/bin/env node
// The `robotstxt` command: argument parsing and dispatch to subcommands.
import { parseArgs } from 'node:util';
import { runCheck } from './check.js';
import { CliError } from './errors.js';
import type { Profile } from '../parse.js';

const USAGE = `Usage:
  robotstxt check --robots FILE --agent TOKEN [--profile rfc|google] [URLS|-]

Reads one URL per line (from URLS, or stdin when URLS is '-' or absent) and prints,
in input order, allow<TAB>LINE<TAB>URL or disallow<TAB>LINE<TAB>URL, where LINE is the
line of the deciding rule in the robots.txt (0 if none).`;

function profileOf(value: string | undefined): Profile {
  if (value === undefined || value === 'rfc' || value === 'google') return value ?? 'rfc';
  throw new CliError(`--profile must be rfc or google, got ${value}`);
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return command === undefined ? 2 : 0;
  }
  if (command !== 'check') throw new CliError(`unknown command ${JSON.stringify(command)}\n\n${USAGE}`);
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      allowPositionals: true,
      strict: true,
      options: {
        robots: { type: 'string' },
        agent: { type: 'string' },
        profile: { type: 'string' },
      },
    });
  } catch (error) {
    throw new CliError(`${(error as Error).message}\n\n${USAGE}`);
  }
  const { values, positionals } = parsed;
  if (!values.robots) throw new CliError('--robots FILE is required');
  if (values.agent === undefined) throw new CliError('--agent TOKEN is required');
  if (positionals.length > 1) throw new CliError(`expected at most one URLS argument, got ${positionals.length}`);
  await runCheck(
    { robotsPath: values.robots, agent: values.agent, profile: profileOf(values.profile), urlsPath: positionals[0] },
    process.stdin,
    process.stdout,
  );
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof CliError) {
      process.stderr.write(`robotstxt: ${error.message}\n`);
      process.exitCode = 2;
    } else {
      process.stderr.write(`robotstxt: internal error: ${(error as Error).stack ?? String(error)}\n`);
      process.exitCode = 70;
    }
  },
);
