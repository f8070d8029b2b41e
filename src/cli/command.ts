// A subcommand as one table entry (name, option schema, help text, run function), and the parser of its arguments.
import type { Readable, Writable } from 'node:stream';
import { CliError } from './errors.js';
import type { TtyProgress } from './progress.js';

/** One option of a command: `--name VALUE` (string) or `--name` (boolean). */
export interface OptionSpec {
  readonly type: 'string' | 'boolean';
  /** The value's placeholder in help, for string options: `FILE|URL`, `N`, `tsv|jsonl`. */
  readonly value?: string;
  /** Help text; each further line is printed indented under the first. */
  readonly help: string;
}

/** A command's options by long name (without the leading `--`). */
export type OptionSchema = Readonly<Record<string, OptionSpec>>;

/** Parsed arguments: string options as strings, boolean ones as `true`, in command-line order of positionals. */
export interface ParsedArgs {
  readonly values: Readonly<Partial<Record<string, string | true>>>;
  readonly positionals: readonly string[];
}

/** What a command runs with: the process's streams and its progress line. */
export interface CommandContext {
  readonly stdin: Readable;
  readonly stdout: Writable;
  readonly stderr: Writable;
  /**
   * A progress line over `totalBytes` of input (null: unknown, e.g. stdin), or null when
   * none is to be drawn (`quiet`, stderr not a terminal, or stdout on the same terminal).
   * Erased when the process exits, however it exits.
   */
  progress(quiet: boolean, totalBytes: number | null): TtyProgress | null;
}

/**
 * A subcommand. main.ts dispatches on `name`, parses with `options` (anything else is an
 * error), prints `help` for `--help`, and runs `run`, whose result is the exit status.
 */
export interface Command {
  readonly name: string;
  /** One line for the command list of `robotstxt --help`. */
  readonly summary: string;
  /** Synopsis lines, each after `robotstxt `. */
  readonly synopsis: readonly string[];
  /** Prose between the synopsis and the option list of the command's help. */
  readonly description: string;
  readonly options: OptionSchema;
  run(args: ParsedArgs, context: CommandContext): Promise<number>;
}

/** Help lines are wrapped to fit this many columns (a terminal's usual 80). */
const HELP_COLUMNS = 80;

/** `text` in lines of at most `width` characters, broken at spaces (a longer word stays whole). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(' ')) {
      if (line !== '' && line.length + 1 + word.length > width) {
        lines.push(line);
        line = word;
      } else {
        line = line === '' ? word : `${line} ${word}`;
      }
    }
    lines.push(line);
  }
  return lines;
}

const HELP_OPTION: OptionSpec = { type: 'boolean', help: 'show this help' };

/**
 * A command's help: synopsis, description, and its options only.
 * @example commandHelp(checkCommand) // 'Usage:\n  robotstxt check --robots FILE|URL …'
 */
export function commandHelp(command: Command): string {
  const rows = Object.entries({ ...command.options, help: HELP_OPTION }).map(([name, spec]) => [
    `${name === 'help' ? '-h, ' : ''}--${name}${spec.value === undefined ? '' : ` ${spec.value}`}`,
    spec.help,
  ] as const);
  const width = Math.max(...rows.map(([left]) => left.length)) + 2;
  const indent = `\n  ${' '.repeat(width)}`;
  const options = rows.map(([left, help]) => `  ${left.padEnd(width)}${wrap(help, HELP_COLUMNS - 2 - width).join(indent)}`);
  return [
    'Usage:',
    ...command.synopsis.map((line) => `  robotstxt ${line}`),
    '',
    command.description,
    '',
    'Options:',
    ...options,
  ].join('\n');
}

/**
 * Edit distance with adjacent transpositions (optimal string alignment): `frmat` is 1
 * from `format`, `agnet` 1 from `agent`.
 */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The name among `names` that `typed` most likely meant: the closest by edit distance when
 * that is at most a third of the longer name's length (a typo, not another word), else the
 * only name that starts with `typed` (`timeout` → `timeout-ms`). Null when none fits.
 * @example closestName('frmat', ['format', 'profile']) // 'format'
 */
export function closestName(typed: string, names: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const name of names) {
    const distance = editDistance(typed.toLowerCase(), name);
    if (distance < bestDistance) {
      best = name;
      bestDistance = distance;
    }
  }
  if (best !== null && bestDistance > 0 && bestDistance <= Math.max(1, Math.floor(Math.max(typed.length, best.length) / 3))) return best;
  if (best !== null && bestDistance === 0) return best;
  const prefixed = typed.length >= 3 ? names.filter((name) => name.startsWith(typed.toLowerCase())) : [];
  return prefixed.length === 1 ? prefixed[0]! : null;
}

function unknownOption(command: Command, typed: string, all: readonly Command[]): CliError {
  const name = typed.replace(/^-+/, '').split('=')[0]!;
  const owners = all.filter((other) => other !== command && Object.hasOwn(other.options, name)).map((other) => other.name);
  if (owners.length > 0 && typed.startsWith('--')) {
    return new CliError(`--${name} belongs to ${owners.join(' and ')}, not ${command.name} (robotstxt help ${command.name} lists its options)`);
  }
  const guess = closestName(name, [...Object.keys(command.options), 'help']);
  if (guess !== null) return new CliError(`unknown option ${typed.split('=')[0]} for ${command.name}; did you mean --${guess}?`);
  return new CliError(`unknown option ${typed.split('=')[0]} for ${command.name} (robotstxt help ${command.name} lists its options)`);
}

/**
 * Parses `args` against `command.options`: `--name VALUE`, `--name=VALUE`, boolean
 * `--name`, `--` ending the options, `-` as a positional (stdin). Returns 'help' for
 * `-h`/`--help` anywhere before `--`. Errors name the option and what was expected: an option of another
 * command, a typo (with the closest option), a missing value, a value given to a
 * boolean option, an option given twice.
 * @example parseCommandLine(check, ['--agent', 'x', 'urls.txt'], commands) // { values: { agent: 'x' }, positionals: ['urls.txt'] }
 */
export function parseCommandLine(command: Command, args: readonly string[], all: readonly Command[]): ParsedArgs | 'help' {
  // Asking for help wins over any mistake made on the same line.
  const end = args.indexOf('--');
  if ((end < 0 ? args : args.slice(0, end)).some((arg) => arg === '-h' || arg === '--help')) return 'help';
  const values: Partial<Record<string, string | true>> = {};
  const positionals: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (arg === '-' || !arg.startsWith('-')) {
      positionals.push(arg);
      continue;
    }
    if (!arg.startsWith('--')) throw unknownOption(command, arg, all);
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    const spec = Object.hasOwn(command.options, name) ? command.options[name] : undefined;
    if (spec === undefined) throw unknownOption(command, arg, all);
    let value: string | true;
    if (spec.type === 'boolean') {
      if (eq >= 0) throw new CliError(`--${name} takes no value, got ${JSON.stringify(arg.slice(eq + 1))}`);
      value = true;
    } else if (eq >= 0) {
      value = arg.slice(eq + 1);
    } else {
      const next = args[i + 1];
      if (next === undefined) throw new CliError(`--${name} needs a value: --${name} ${spec.value ?? 'VALUE'}`);
      // `--robots --agent x` forgot the value; a value that starts with '-' is written --name=-value.
      if (next.startsWith('-') && next !== '-') {
        throw new CliError(`--${name} needs a value (--${name} ${spec.value ?? 'VALUE'}), got the option ${next}; write --${name}=${next} if that is the value`);
      }
      value = next;
      i++;
    }
    if (values[name] !== undefined) throw new CliError(`--${name} is given twice`);
    values[name] = value;
  }
  return { values, positionals };
}

/** The string value of a string option (undefined when absent). */
export function stringOption(args: ParsedArgs, name: string): string | undefined {
  const value = args.values[name];
  return typeof value === 'string' ? value : undefined;
}
