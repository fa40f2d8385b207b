// `pleg-doctor <command> …`: picks the subcommand, maps failures to exit codes and one
// `pleg-doctor: <command>: <message>` line on stderr. Exit codes: 0 ok, 1 findings or a runtime failure,
// 2 usage or bad input (a kubeconfig or context that cannot be used included), 130 interrupted; each
// command's --help says which of them it uses and what for.
// Kept apart from main.ts so that tests run it in-process with their own CliIo and registry.

import { NodeInputError } from '../core/classify/nodeInput';
import { isCliUsageError } from './io';
import type { CliIo } from './io';
import type { CommandEntry } from './registry';
import { errorText } from '../core/util/errorText';

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;
export const EXIT_INTERRUPTED = 130;

function usage(registry: Readonly<Record<string, CommandEntry>>): string {
  const names = Object.keys(registry).filter((n) => registry[n]?.hidden !== true).sort();
  const width = Math.max(0, ...names.map((n) => n.length));
  return [
    'Usage: pleg-doctor <command> [options]',
    '',
    'Finds and explains Kubernetes nodes that go NotReady with "PLEG is not healthy".',
    '',
    'Commands:',
    ...names.map((n) => `  ${n.padEnd(width)}  ${registry[n]?.summary ?? ''}`),
    '',
    'Options:',
    '  -h, --help     show this help (or `pleg-doctor <command> --help`)',
    '  -V, --version  print the version',
    '',
    'Commands that reach a cluster read the kubeconfig as kubectl does (--kubeconfig, else KUBECONFIG, else',
    '~/.kube/config) and use its current-context unless --context is given.',
    '',
    'Exit codes: 0 ok, 1 findings or runtime failure, 2 usage, bad input or an unusable kubeconfig,',
    '130 interrupted; `pleg-doctor <command> --help` gives each command\'s own.',
    '',
  ].join('\n');
}

export async function runCli(
  argv: readonly string[],
  io: CliIo,
  registry: Readonly<Record<string, CommandEntry>>,
  version: string,
): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined) {
    io.stderr.write(usage(registry));
    return EXIT_USAGE;
  }
  if (first === '-h' || first === '--help' || first === 'help') {
    io.stdout.write(usage(registry));
    return EXIT_OK;
  }
  if (first === '-V' || first === '--version') {
    io.stdout.write(`${version}\n`);
    return EXIT_OK;
  }
  const entry = Object.hasOwn(registry, first) ? registry[first] : undefined;
  if (entry === undefined) {
    const what = first.startsWith('-') ? `unknown option "${first}"` : `unknown command "${first}"`;
    io.stderr.write(`pleg-doctor: ${what} (commands: ${Object.keys(registry).filter((n) => registry[n]?.hidden !== true).sort().join(', ')}; try --help)\n`);
    return EXIT_USAGE;
  }
  try {
    const command = await entry.load();
    const code = await command(rest, io);
    return io.signal.aborted && code !== EXIT_OK ? EXIT_INTERRUPTED : code;
  } catch (e) {
    // A CliUsageError's message already starts with the command; every other error gets it here.
    if (isCliUsageError(e)) {
      io.stderr.write(`pleg-doctor: ${e.message}\n`);
      return EXIT_USAGE;
    }
    if (e instanceof NodeInputError) {
      io.stderr.write(`pleg-doctor: ${first}: ${e.message}\n`);
      return EXIT_USAGE;
    }
    if (io.signal.aborted) {
      io.stderr.write(`pleg-doctor: ${first}: ${errorText(io.signal.reason ?? e)}\n`);
      return EXIT_INTERRUPTED;
    }
    io.stderr.write(`pleg-doctor: ${first}: ${errorText(e)}\n`);
    return EXIT_FAILURE;
  }
}
