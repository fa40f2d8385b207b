// `pleg-doctor snapshot --cri-socket PATH`: one snapshot of the runtime on this machine, printed as the same
// NodeSnapshotReport document the SSH path prints. Run on a node by hand, and in the debug pod
// (core/nodeAccess/debugPodSpec.ts): its stdout is the pod's log, which the client reads back.

import { localNodeSnapshot } from '../../infra/nodeSnapshot/localSnapshot';
import { parseCommandArgs } from '../args';
import { CliUsageError } from '../io';
import type { CliIo } from '../io';
import { positiveInt } from '../sshNodeAccess';
import { stderrLogger } from '../stderrLogger';

export const LOCAL_SNAPSHOT_OPTIONS = {
  'cri-socket': { type: 'string' },
  timeout: { type: 'string' },
} as const;

export const LOCAL_SNAPSHOT_HELP = `  --cri-socket PATH        instead of SSH: the runtime's socket on this machine (what the debug pod runs)
`;

/** True when argv asks for the local snapshot (`--cri-socket` given), before any `--`. */
export function wantsLocalSnapshot(argv: readonly string[]): boolean {
  for (const arg of argv) {
    if (arg === '--') return false;
    if (arg === '--cri-socket' || arg.startsWith('--cri-socket=')) return true;
  }
  return false;
}

export async function localSnapshotCommand(argv: string[], io: CliIo, usage: string): Promise<number> {
  const parsed = parseCommandArgs(argv, { command: 'snapshot', options: LOCAL_SNAPSHOT_OPTIONS });
  if (parsed.help) {
    io.stdout.write(usage);
    return 0;
  }
  const socket = parsed.values['cri-socket'];
  if (socket === undefined) throw new CliUsageError('snapshot: --cri-socket needs a socket path');
  const timeoutMs = parsed.values.timeout !== undefined ? positiveInt('snapshot', '--timeout', parsed.values.timeout, 3_600_000) : 5_000;
  const logger = stderrLogger(io, 'snapshot');
  const report = await localNodeSnapshot(socket, { deadlineMs: timeoutMs, logger, signal: io.signal });
  io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  return report.snapshot.errors.length === 0 ? 0 : 1;
}
