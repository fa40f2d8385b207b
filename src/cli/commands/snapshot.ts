// `pleg-doctor snapshot --host H …`: connect to one node over SSH (host key verified), pick how to speak
// CRI there, take one kubelet-style runtime snapshot and print it as JSON with every call's timing.
// `pleg-doctor snapshot --node N`: the same snapshot through the node's access way (--access): the agent's
// (the one its last diagnosis took, with its age: never shown as fresh), SSH to the node, or a debug pod
// (debugPodSnapshot.ts: its own options, so it is dispatched before the others are parsed).
// `pleg-doctor snapshot --cri-socket PATH`: the runtime on this machine (localSnapshot.ts; what the debug pod runs).

import { TransportSelectionError } from '../../infra/cri/transports/select';
import { SudoCheckError } from '../../infra/nodeSnapshot/collectNodeSnapshot';
import { HostKeyChangedError, HostKeyRevokedError, HostKeyUnknownError, SshError } from '../../infra/ssh/errors';
import { parseCommandArgs } from '../args';
import { CliUsageError } from '../io';
import type { CliCommand, CliIo } from '../io';
import { ACCESS_OPTIONS, ACCESS_OPTIONS_HELP, accessArgsFrom, chooseNodeAccess, type AccessArgs } from '../accessOption';
import { chooseContext, CONTEXT_OPTION_HELP, gatewayOptions, type KubeGatewayFactory } from '../kubeContext';
import { snapshotOverSsh, SSH_OPTIONS, SSH_OPTIONS_HELP, sshArgsFrom } from '../sshNodeAccess';
import type { SshArgs } from '../sshNodeAccess';
import { stderrLogger } from '../stderrLogger';
import type { Logger } from '../../core/util/logger';
import { sshHostOf } from './diagnose';
import { snapshotFromAgent } from './snapshotAgent';
import { accessRequested, createDebugPodSnapshotCommand, DEBUG_POD_SNAPSHOT_HELP, terminalConfirmer } from './debugPodSnapshot';
import { LOCAL_SNAPSHOT_HELP, localSnapshotCommand, wantsLocalSnapshot } from './localSnapshot';

export const SNAPSHOT_USAGE = `Usage: pleg-doctor snapshot --host HOST [options]
       pleg-doctor snapshot --node NAME [--context NAME] [--access WAY] [options]

Prints one runtime snapshot of a node as JSON (Version, Status, ListPodSandbox, ListContainers, then
PodSandboxStatus/ContainerStatus per item, each timed). With --host: over SSH, selecting a CRI transport.
With --node: through the node's access way (--access; default the agent when a pleg-doctor-agent pod runs
on the node, else SSH when --host is given): the agent's is the snapshot of its last diagnosis, read
through the API server's pod port-forward, and says how old it is ("takenAt", "ageSeconds", and on
stderr "taken 1m10s ago by the agent").

Options:
  --host HOST              address or ~/.ssh/config Host alias (SSH)
  --node NAME              the node, to reach through --access
${CONTEXT_OPTION_HELP}${ACCESS_OPTIONS_HELP}${SSH_OPTIONS_HELP}${LOCAL_SNAPSHOT_HELP}  -h, --help               show this help

Exit codes: 0 snapshot taken and every call answered; 1 connection, transport or runtime failure (a
snapshot with failed calls is still printed), or the agent has no snapshot; 2 bad options, or a host key
that is unknown, changed or revoked; 130 interrupted.
${DEBUG_POD_SNAPSHOT_HELP}`;

export interface SnapshotArgs {
  ssh: SshArgs;
  node?: string;
  context?: string;
  kubeconfigs: string[];
  access: AccessArgs;
}

const OPTIONS = { ...SSH_OPTIONS, ...ACCESS_OPTIONS, node: { type: 'string' }, context: { type: 'string' }, kubeconfig: { type: 'string', multiple: true } } as const;

export function parseSnapshotArgs(argv: readonly string[]): SnapshotArgs | 'help' {
  const parsed = parseCommandArgs(argv, { command: 'snapshot', options: OPTIONS });
  if (parsed.help) return 'help';
  const v = parsed.values;
  const args: SnapshotArgs = { ssh: sshArgsFrom('snapshot', v), kubeconfigs: v.kubeconfig ?? [], access: accessArgsFrom('snapshot', v) };
  if (v.node !== undefined) args.node = v.node;
  if (v.context !== undefined) args.context = v.context;
  if (args.node === undefined) {
    if (args.ssh.host === undefined) throw new CliUsageError('snapshot: --host (SSH) or --node (through --access) is required');
    if (args.access.requested !== undefined && args.access.requested !== 'ssh') throw new CliUsageError(`snapshot: --access ${args.access.requested} needs --node`);
    const cluster = ['--context', '--kubeconfig', '--agent-namespace'].find((o) => v[o.slice(2) as 'context' | 'kubeconfig' | 'agent-namespace'] !== undefined);
    if (cluster !== undefined) throw new CliUsageError(`snapshot: ${cluster} is for --node; with --host alone the snapshot is taken over SSH`);
  }
  return args;
}

/** SSH as before --node existed: the report, and the exit code its errors give. */
async function overSsh(host: string, args: SshArgs, io: CliIo, logger: Logger): Promise<number> {
  try {
    const report = await snapshotOverSsh('snapshot', host, args, io, logger, io.signal);
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
}

export function createSnapshotCommand(createGateway: KubeGatewayFactory): CliCommand {
  const throughDebugPod = createDebugPodSnapshotCommand({ createGateway, confirmer: terminalConfirmer });
  return async (argv, io) => {
    // The debug pod and the local socket take options of their own: the way is picked before the others are parsed.
    if (accessRequested(argv) === 'debug-pod') return throughDebugPod(argv, io, SNAPSHOT_USAGE);
    if (wantsLocalSnapshot(argv)) return localSnapshotCommand(argv, io, SNAPSHOT_USAGE);
    const args = parseSnapshotArgs(argv);
    if (args === 'help') {
      io.stdout.write(SNAPSHOT_USAGE);
      return 0;
    }
    const logger = stderrLogger(io, 'snapshot');
    if (args.node === undefined) return overSsh(args.ssh.host as string, args.ssh, io, logger);
    const node = args.node;
    const gateway = createGateway(gatewayOptions(args.kubeconfigs, logger, io));
    try {
      const context = chooseContext('snapshot', gateway, args.context).name;
      const sshConfigured = args.ssh.host !== undefined || args.access.requested === 'ssh';
      const access = await chooseNodeAccess('snapshot', { access: args.access, node, sshConfigured, cluster: { gateway, context } }, io, logger);
      switch (access.way) {
        case 'agent':
          return await snapshotFromAgent(access.connection, io);
        case 'ssh':
          return await overSsh(args.ssh.host ?? sshHostOf(await gateway.getNode(context, node, io.signal), node), args.ssh, io, logger);
        case 'debug-pod':
          // Only when asked for by name, which was dispatched above.
          return await throughDebugPod(argv, io, SNAPSHOT_USAGE);
        case 'none':
          io.stderr.write(`pleg-doctor: snapshot: ${access.why}\n`);
          return 1;
      }
    } finally {
      gateway.dispose();
    }
  };
}
