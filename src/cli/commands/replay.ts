// `pleg-doctor replay --kubelet 1.26|1.32|1.36 FILE...`: replays oracle traces through the PLEG model and prints
// the results in the oracle schema (test/fixtures/pleg-oracle/README.md).

import { profileIdForMinor } from '../../core/pleg/profiles';
import type { ReplayKubelet } from '../../core/pleg/replay';
import type { KubeletProfileId } from '../../core/pleg/types';
import { replayTrace } from '../../core/pleg/replay';
import { parseTraceJson, TraceError } from '../../core/pleg/traceSchema';
import { parseCommandArgs } from '../args';
import { CliUsageError } from '../io';
import type { CliCommand } from '../io';
import { readInput } from '../readInput';

export const REPLAY_USAGE = `Usage: pleg-doctor replay --kubelet VERSION FILE...

Replays PLEG traces (a bare trace or a {trace, result} oracle file; "-" reads standard input) through the
kubelet PLEG model and prints the result in the oracle schema. One FILE prints {"steps":[...]}; several
print one JSON line per file, {"file":"<path as given>","result":{"steps":[...]}}, in the order given.

Options:
  --kubelet VERSION  1.26 (also 1.27–1.31, same PLEG), 1.32 (also 1.33–1.35) or 1.36 (also later);
                     traces with the on-demand relist ops (setRuntime, requestRelist, processRelistQueue)
                     or config.onDemandRelist need 1.36
  -h, --help         show this help

Exit codes: 0 replayed; 2 bad options, or a FILE that cannot be read or is not a trace; 130 interrupted.
`;

/** The replayed behaviour of each PLEG profile that has an oracle corpus (profiles.ts maps minors to profiles). */
const REPLAYED: Partial<Record<KubeletProfileId, ReplayKubelet>> = { '1.26-1.31': '1.26', '1.32+': '1.32', '1.36+': '1.36' };

/** Maps a --kubelet value to the replayed behaviour through the one minor → profile mapping. */
export function replayKubeletFor(value: string): ReplayKubelet {
  const m = /^v?1\.(\d+)(?:\.\d+)?$/u.exec(value.trim());
  const replayed = m ? REPLAYED[profileIdForMinor(Number(m[1]))] : undefined;
  if (replayed === undefined) throw new CliUsageError(`replay: --kubelet must be 1.26 or later (e.g. 1.26, 1.32, 1.36), got "${value}"`);
  return replayed;
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
  if (values.kubelet === undefined) throw new CliUsageError('replay: missing --kubelet 1.26|1.32|1.36');
  const kubelet = replayKubeletFor(values.kubelet);
  if (files.length === 0) throw new CliUsageError('replay: missing FILE (use "-" for standard input)');
  if (files.filter((f) => f === '-').length > 1) throw new CliUsageError('replay: standard input ("-") can be given only once');
  return { kubelet, files };
}

function replayFile(text: string, file: string, kubelet: ReplayKubelet): unknown {
  let input: unknown;
  try {
    input = parseTraceJson(text);
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
