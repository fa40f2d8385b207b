// `pleg-doctor snapshot --node NAME --access debug-pod`: the CRI snapshot of a node through a one-shot pod
// on it (src/infra/nodeAccess/debugPod), for clusters without SSH to their nodes. Creating the pod is a
// mutation: the user confirms the words of debugPodConfirmation at a terminal, or passes --yes; without a
// terminal and without --yes nothing is created (exit 2). SIGINT/SIGTERM delete the pod before exiting
// 130/143. The output is the SSH path's document plus `access` (the way, as wayLabel names it).

import { DEFAULT_DEBUG_NAMESPACE, planDebugPodSnapshot, takeDebugPodSnapshot } from '../../infra/nodeAccess/debugPod/debugPodSnapshot';
import { durationOption, parseCommandArgs } from '../args';
import { CliUsageError } from '../io';
import type { CliIo } from '../io';
import { CONTEXT_OPTION_HELP } from '../kubeContext';
import { positiveInt } from '../sshNodeAccess';
import { runDebugPodCommand, type DebugPodCommandDeps } from './debugPodRun';

export { terminalConfirmer, type Confirmer } from './debugPodRun';

export const DEBUG_POD_SNAPSHOT_HELP = `
Through a debug pod (--access debug-pod), without SSH:
  pleg-doctor snapshot --node NAME --access debug-pod [--yes] [--image IMG] [--namespace NS]
  --node NAME              the node (required)
  --access debug-pod       create a one-shot pod on the node that takes the snapshot from the node's CRI
                           socket; it is deleted when its output is read (docs/node-access-debug-pod.md)
  --yes                    create it without asking (needed when standard input is not a terminal)
  --image IMG              the agent image to run (default: the pleg-doctor-agent DaemonSet's in --namespace)
  --namespace NS           where the pod is created (default ${DEFAULT_DEBUG_NAMESPACE})
  --cri-socket PATH        the CRI socket on the node (default: containerd's or CRI-O's, from the Node's runtime)
  --deadline DURATION      the pod's activeDeadlineSeconds (default 2m, 10s to 1h)
  --timeout MS             per-call deadline of the CRI calls in the pod (default 5000)
${CONTEXT_OPTION_HELP}  Exit codes: 0 snapshot taken, every call answered, pod deleted; 1 a failed pod, failed calls, or a
  deletion not confirmed; 2 bad options, or not confirmed; 130/143 interrupted (SIGINT/SIGTERM), pod deleted.
`;

const OPTIONS = {
  node: { type: 'string' },
  access: { type: 'string' },
  yes: { type: 'boolean' },
  image: { type: 'string' },
  namespace: { type: 'string' },
  'cri-socket': { type: 'string' },
  deadline: { type: 'string' },
  timeout: { type: 'string' },
  context: { type: 'string' },
  kubeconfig: { type: 'string', multiple: true },
} as const;

export interface DebugPodSnapshotArgs {
  node: string;
  yes: boolean;
  image?: string;
  namespace: string;
  criSocket?: string;
  deadlineSeconds: number;
  callDeadlineMs: number;
  context?: string;
  kubeconfigs: string[];
}

/** `--access debug-pod` (or `--access=debug-pod`) before any `--`: the way this module handles. */
export function accessRequested(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') return undefined;
    if (arg === '--access') return argv[i + 1];
    if (arg.startsWith('--access=')) return arg.slice('--access='.length);
  }
  return undefined;
}

export function parseDebugPodSnapshotArgs(argv: readonly string[]): DebugPodSnapshotArgs | 'help' {
  const parsed = parseCommandArgs(argv, { command: 'snapshot', options: OPTIONS });
  if (parsed.help) return 'help';
  const v = parsed.values;
  if (v.access !== 'debug-pod') throw new CliUsageError(`snapshot: these options are the debug pod's (--access debug-pod), got --access ${JSON.stringify(v.access ?? '')}`);
  if (v.node === undefined) throw new CliUsageError('snapshot: --access debug-pod needs --node NAME');
  const deadlineMs = v.deadline !== undefined ? durationOption('snapshot', 'deadline', v.deadline, 10_000) : 120_000;
  if (deadlineMs > 3_600_000) throw new CliUsageError(`snapshot: --deadline must be at most 1h, got ${JSON.stringify(v.deadline)}`);
  return {
    node: v.node,
    yes: v.yes === true,
    ...(v.image !== undefined ? { image: v.image } : {}),
    namespace: v.namespace ?? DEFAULT_DEBUG_NAMESPACE,
    ...(v['cri-socket'] !== undefined ? { criSocket: v['cri-socket'] } : {}),
    deadlineSeconds: Math.ceil(deadlineMs / 1000),
    callDeadlineMs: v.timeout !== undefined ? positiveInt('snapshot', '--timeout', v.timeout, 3_600_000) : 5_000,
    ...(v.context !== undefined ? { context: v.context } : {}),
    kubeconfigs: v.kubeconfig ?? [],
  };
}

export type DebugPodSnapshotDeps = DebugPodCommandDeps;

export function createDebugPodSnapshotCommand(deps: DebugPodSnapshotDeps): (argv: string[], io: CliIo, usage: string) => Promise<number> {
  return async (argv, io, usage) => {
    const args = parseDebugPodSnapshotArgs(argv);
    if (args === 'help') {
      io.stdout.write(usage);
      return 0;
    }
    return runDebugPodCommand(
      {
        command: 'snapshot',
        node: args.node,
        namespace: args.namespace,
        yes: args.yes,
        ...(args.context !== undefined ? { context: args.context } : {}),
        kubeconfigs: args.kubeconfigs,
        plan: (api, node, signal) =>
          planDebugPodSnapshot(api, { node, namespace: args.namespace, ...(args.image !== undefined ? { image: args.image } : {}), ...(args.criSocket !== undefined ? { criSocket: args.criSocket } : {}), deadlineSeconds: args.deadlineSeconds, callDeadlineMs: args.callDeadlineMs }, signal),
        run: async (api, plan, logger) => {
          const { report, deleted } = await takeDebugPodSnapshot(api, plan.manifest, { logger, signal: io.signal, ...(deps.timeouts !== undefined ? { timeouts: deps.timeouts } : {}) });
          io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
          if (!deleted) return 1;
          return report.snapshot.errors.length === 0 ? 0 : 1;
        },
      },
      deps,
      io,
    );
  };
}
