// `pleg-doctor snapshot --host H …`: connect to one node over SSH (host key verified), pick how to speak
// CRI there, take one kubelet-style runtime snapshot and print it as JSON with every call's timing.

import { TransportSelectionError } from '../../infra/cri/transports/select';
import { SudoCheckError } from '../../infra/nodeSnapshot/collectNodeSnapshot';
import { HostKeyChangedError, HostKeyRevokedError, HostKeyUnknownError, SshError } from '../../infra/ssh/errors';
import { parseCommandArgs } from '../args';
import { CliUsageError } from '../io';
import type { CliCommand } from '../io';
import { snapshotOverSsh, SSH_OPTIONS, SSH_OPTIONS_HELP, sshArgsFrom } from '../sshNodeAccess';
import type { SshArgs } from '../sshNodeAccess';
import { stderrLogger } from '../stderrLogger';
// --- debug pod (issue #29): `--access debug-pod` and the in-pod `--cri-socket` mode, in modules of their own.
import { createKubeGateway } from '../../infra/kube/createGateway';
import { accessRequested, createDebugPodSnapshotCommand, DEBUG_POD_SNAPSHOT_HELP, terminalConfirmer } from './debugPodSnapshot';
import { LOCAL_SNAPSHOT_HELP, localSnapshotCommand, wantsLocalSnapshot } from './localSnapshot';
// --- end debug pod

export const SNAPSHOT_USAGE = `Usage: pleg-doctor snapshot --host HOST [options]

Connects to a node over SSH, selects a CRI transport and prints one runtime snapshot as JSON (Version,
Status, ListPodSandbox, ListContainers, then PodSandboxStatus/ContainerStatus per item, each timed).

Options:
  --host HOST              address or ~/.ssh/config Host alias (required)
${SSH_OPTIONS_HELP}${LOCAL_SNAPSHOT_HELP}  -h, --help               show this help

Exit codes: 0 snapshot taken and every call answered; 1 connection, transport or runtime failure (a
snapshot with failed calls is still printed); 2 bad options, or a host key that is unknown, changed or
revoked; 130 interrupted.
${DEBUG_POD_SNAPSHOT_HELP}`;

type SnapshotArgs = SshArgs & { host: string };

export function parseSnapshotArgs(argv: readonly string[]): SnapshotArgs | 'help' {
  const parsed = parseCommandArgs(argv, { command: 'snapshot', options: SSH_OPTIONS });
  if (parsed.help) return 'help';
  const { host, ...rest } = sshArgsFrom('snapshot', parsed.values);
  if (host === undefined) throw new CliUsageError('snapshot: --host is required');
  return { host, ...rest };
}

// --- debug pod (issue #29)
const debugPodSnapshotCommand = createDebugPodSnapshotCommand({ createGateway: createKubeGateway, confirmer: terminalConfirmer });
// --- end debug pod

export const snapshotCommand: CliCommand = async (argv, io) => {
  // --- debug pod (issue #29): the way is picked before the SSH options are parsed.
  if (accessRequested(argv) === 'debug-pod') return debugPodSnapshotCommand(argv, io, SNAPSHOT_USAGE);
  if (wantsLocalSnapshot(argv)) return localSnapshotCommand(argv, io, SNAPSHOT_USAGE);
  // --- end debug pod
  const args = parseSnapshotArgs(argv);
  if (args === 'help') {
    io.stdout.write(SNAPSHOT_USAGE);
    return 0;
  }
  const logger = stderrLogger(io, 'snapshot');
  try {
    const report = await snapshotOverSsh('snapshot', args.host, args, io, logger, io.signal);
    io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return report.snapshot.errors.length === 0 ? 0 : 1;
  } catch (error) {
    // snapshotOverSsh already printed how to check and accept the key.
    if (error instanceof HostKeyUnknownError) return 2;
    if (error instanceof HostKeyChangedError || error instanceof HostKeyRevokedError) {
      io.stderr.write(`pleg-doctor: snapshot: ${error.message}\n`);
      return 2;
    }
    if (error instanceof SudoCheckError) {
      io.stderr.write(`pleg-doctor: snapshot: --sudo: ${error.message}\n`);
      return 1;
    }
    if (error instanceof SshError || error instanceof TransportSelectionError) {
      io.stderr.write(`pleg-doctor: snapshot: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
};
