// `pleg-doctor replay --kubelet 1.26|1.32 FILE...`: replays oracle traces through the PLEG model and prints
// the results in the oracle schema (test/fixtures/pleg-oracle/README.md).

import type { ReplayKubelet } from '../../core/pleg/replay';
import { replayTrace } from '../../core/pleg/replay';
import { TraceError } from '../../core/pleg/traceSchema';
import { parseCommandArgs } from '../args';
import { CliUsageError } from '../io';
import type { CliCommand } from '../io';
import { readInput } from '../readInput';

export const REPLAY_USAGE = `Usage: pleg-doctor replay --kubelet VERSION FILE...

Replays PLEG traces (a bare trace or a {trace, result} oracle file; "-" reads standard input) through the
kubelet PLEG model and prints the result in the oracle schema. One FILE prints {"steps":[...]}; several
print one JSON line per file, {"file":"<path as given>","result":{"steps":[...]}}, in the order given.

Options:
  --kubelet VERSION  1.26 (also 1.27–1.31, same PLEG) or 1.32 (also 1.33 and later)
  -h, --help         show this help

Exit codes: 0 replayed; 2 bad options, or a FILE that cannot be read or is not a trace; 130 interrupted.
`;

/** Maps a --kubelet value to the replayed behaviour: 1.26–1.31 share one PLEG, 1.32+ the other. */
export function replayKubeletFor(value: string): ReplayKubelet {
  const m = /^v?1\.(\d+)(?:\.\d+)?$/u.exec(value.trim());
  const minor = m ? Number(m[1]) : Number.NaN;
  if (minor >= 26 && minor <= 31) return '1.26';
  if (minor >= 32) return '1.32';
  throw new CliUsageError(`replay: --kubelet must be 1.26–1.31 or 1.32 and later, got "${value}"`);
}

const SPEC = { command: 'replay', options: { kubelet: { type: 'string' } }, positionals: true } as const;

interface ReplayArgs {
  kubelet: ReplayKubelet;
  files: string[];
}

function parseReplayArgs(argv: readonly string[]): ReplayArgs | 'help' {
  const parsed = parseCommandArgs(argv, SPEC);
  if (parsed.help) return 'help';
  const { values, positionals: files } = parsed;
  if (values.kubelet === undefined) throw new CliUsageError('replay: missing --kubelet 1.26|1.32');
  const kubelet = replayKubeletFor(values.kubelet);
  if (files.length === 0) throw new CliUsageError('replay: missing FILE (use "-" for standard input)');
  if (files.filter((f) => f === '-').length > 1) throw new CliUsageError('replay: standard input ("-") can be given only once');
  return { kubelet, files };
}

function replayFile(text: string, file: string, kubelet: ReplayKubelet): unknown {
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch (e) {
    throw new CliUsageError(`replay: ${file}: not JSON (${(e as Error).message})`);
  }
  try {
    return replayTrace(input, kubelet);
  } catch (e) {
    if (e instanceof TraceError) throw new CliUsageError(`replay: ${file}: ${e.message}`);
    throw e;
  }
}

export const replayCommand: CliCommand = async (argv, io) => {
  const args = parseReplayArgs(argv);
  if (args === 'help') {
    io.stdout.write(REPLAY_USAGE);
    return 0;
  }
  const single = args.files.length === 1;
  for (const file of args.files) {
    if (io.signal.aborted) return 130;
    const result = replayFile((await readInput(file, io, (reason) => new CliUsageError(`replay: ${reason}`))).text, file, args.kubelet);
    io.stdout.write(`${JSON.stringify(single ? result : { file, result })}\n`);
  }
  return 0;
};
