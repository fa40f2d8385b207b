// The one argv parser of every `pleg-doctor <command>`: node:util parseArgs in strict mode, plus what each
// command would otherwise repeat: `-h/--help` on every command, and usage errors that name the offending
// flag and the command (`logs: unknown option "--gapp"`), which the dispatcher turns into exit 2.

import { parseArgs } from 'node:util';
import { CliUsageError } from './io';
import { errorText } from '../core/util/errorText';
import { parseGoDurationNs } from '../core/util/goDuration';

/** One option, as node:util parseArgs takes it (no defaults: a command applies its own). */
export interface CliOption {
  type: 'string' | 'boolean';
  short?: string;
  multiple?: boolean;
}

export type CliOptions = Readonly<Record<string, CliOption>>;

/** The parsed value of one option: string(s) or boolean(s), as parseArgs gives it. */
type ValueOf<O extends CliOption> = O['type'] extends 'string'
  ? O['multiple'] extends true
    ? string[]
    : string
  : O['multiple'] extends true
    ? boolean[]
    : boolean;

export type CliValues<T extends CliOptions> = { -readonly [K in keyof T]?: ValueOf<T[K]> };

export interface CommandArgsSpec<T extends CliOptions> {
  /** The subcommand's name, which starts every error message. */
  command: string;
  /** Its options, without -h/--help (always added). */
  options: T;
  /** Whether positional arguments (FILE, "-") are allowed; without, the first one is an error naming it. */
  positionals?: boolean;
  /** Hint after an unexpected positional, e.g. "use --node NAME". */
  positionalHint?: string;
}

export type CommandArgs<T extends CliOptions> =
  | { help: true }
  | {
      help: false;
      /** Each option given, by its long name; absent when not given. Keys are in order of first appearance. */
      values: CliValues<T>;
      positionals: string[];
    };

const HELP: CliOptions = { help: { type: 'boolean', short: 'h' } };

/** True when -h or --help comes before any `--`: help then wins over every other error. */
function asksForHelp(argv: readonly string[]): boolean {
  for (const arg of argv) {
    if (arg === '--') return false;
    if (arg === '-h' || arg === '--help') return true;
  }
  return false;
}

function usageError(command: string, e: unknown, spec: CommandArgsSpec<CliOptions>): CliUsageError {
  const code = (e as { code?: unknown }).code;
  const message = errorText(e);
  const quoted = /'(-[^']*)'/u.exec(message)?.[1];
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && quoted !== undefined) {
    return new CliUsageError(`${command}: unknown option ${JSON.stringify(quoted)}`);
  }
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    const arg = /'([^']*)'/u.exec(message)?.[1] ?? '';
    const hint = spec.positionalHint !== undefined ? ` (${spec.positionalHint})` : ` (see pleg-doctor ${command} --help)`;
    return new CliUsageError(`${command}: unexpected argument ${JSON.stringify(arg)}${hint}`);
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    // "Option '--gap <value>' argument missing", or an ambiguous "--gap --year" (a value that looks like a flag).
    const name = /'(--?[A-Za-z0-9-]+)/u.exec(message)?.[1];
    const option = name !== undefined ? name : 'an option';
    const known = name !== undefined ? Object.entries(spec.options).find(([long, o]) => `--${long}` === name || `-${o.short ?? ''}` === name) : undefined;
    if (known !== undefined && known[1].type === 'boolean') return new CliUsageError(`${command}: ${option} takes no value`);
    return new CliUsageError(`${command}: ${option} needs a value`);
  }
  return new CliUsageError(`${command}: ${message}`);
}

/**
 * parseArgs refuses `--metrics-interval -5` as ambiguous (the value looks like a flag). A negative number
 * is never a flag here, so it becomes `--metrics-interval=-5` and the command's own check names it.
 */
function joinNegativeValues(argv: readonly string[], options: CliOptions): string[] {
  const stringFlags = new Set(Object.entries(options).flatMap(([long, o]) => (o.type === 'string' ? [`--${long}`, ...(o.short !== undefined ? [`-${o.short}`] : [])] : [])));
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') {
      out.push(...argv.slice(i));
      break;
    }
    const next = argv[i + 1];
    if (stringFlags.has(arg) && next !== undefined && /^-\d/u.test(next)) {
      out.push(arg.startsWith('--') ? `${arg}=${next}` : `${arg}${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/**
 * Parses a subcommand's argv (after the subcommand name). Returns `{ help: true }` for -h/--help; throws
 * CliUsageError naming the flag for an unknown option, a missing value, a value given to a boolean, or
 * (without `positionals`) a stray argument; an empty value (`--context ""`) is a missing one. `-` is a
 * positional (standard input); `--` ends options.
 */
export function parseCommandArgs<T extends CliOptions>(argv: readonly string[], spec: CommandArgsSpec<T>): CommandArgs<T> {
  if (asksForHelp(argv)) return { help: true };
  let parsed;
  try {
    parsed = parseArgs({ args: joinNegativeValues(argv, spec.options), options: { ...spec.options, ...HELP }, strict: true, allowPositionals: spec.positionals ?? false });
  } catch (e) {
    throw usageError(spec.command, e, spec as CommandArgsSpec<CliOptions>);
  }
  const values = { ...(parsed.values as Record<string, unknown>) };
  delete values['help'];
  // `--context ""` (an unset shell variable, usually) is a mistake, never a name.
  for (const [name, value] of Object.entries(values)) {
    if (value === '' || (Array.isArray(value) && value.includes(''))) throw new CliUsageError(`${spec.command}: --${name} needs a value`);
  }
  return { help: false, values: values as CliValues<T>, positionals: parsed.positionals };
}

/** `--NAME DURATION` (a Go duration such as 500ms, 90s, 10m) in ms, at least `minMs`; a usage error names the command. */
export function durationOption(command: string, name: string, text: string, minMs: number): number {
  let ns: bigint;
  try {
    ns = parseGoDurationNs(text);
  } catch {
    throw new CliUsageError(`${command}: --${name} must be a duration such as 500ms, 90s or 10m, got ${JSON.stringify(text)}`);
  }
  const ms = Number(ns / 1_000_000n);
  if (ms < minMs) throw new CliUsageError(`${command}: --${name} must be at least ${minMs} ms, got ${JSON.stringify(text)}`);
  return ms;
}
