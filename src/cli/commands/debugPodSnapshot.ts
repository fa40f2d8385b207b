// `pleg-doctor snapshot --node NAME --access debug-pod`: the CRI snapshot of a node through a one-shot pod
// on it (src/infra/nodeAccess/debugPod), for clusters without SSH to their nodes. Creating the pod is a
// mutation: the user confirms the words of debugPodConfirmation at a terminal, or passes --yes; without a
// terminal and without --yes nothing is created (exit 2). SIGINT/SIGTERM delete the pod before exiting
// 130/143. The output is the SSH path's document plus `access` (the way, as wayLabel names it).

import { createInterface } from 'node:readline/promises';
import { describeLeftovers } from '../../core/nodeAccess/debugPodLeftovers';
import { timeoutSignal } from '../../core/util/deadlineSignal';
import { errorText } from '../../core/util/errorText';
import type { Logger } from '../../core/util/logger';
import type { KubeGateway } from '../../infra/kube/gateway';
import type { KubeNode } from '../../core/kube/objects';
import { DEFAULT_DEBUG_NAMESPACE, DebugPodSetupError, planDebugPodSnapshot, takeDebugPodSnapshot } from '../../infra/nodeAccess/debugPod/debugPodSnapshot';
import { findDebugPodLeftovers } from '../../infra/nodeAccess/debugPod/leftovers';
import { DebugPodAbortedError, DebugPodError } from '../../infra/nodeAccess/debugPod/runDebugPod';
import type { DebugPodTimeouts } from '../../infra/nodeAccess/debugPod/runDebugPod';
import { durationOption, parseCommandArgs } from '../args';
import { CliUsageError } from '../io';
import type { CliIo } from '../io';
import { chooseContext, CONTEXT_OPTION_HELP, gatewayOptions } from '../kubeContext';
import type { KubeGatewayFactory } from '../kubeContext';
import { positiveInt } from '../sshNodeAccess';
import { stderrLogger } from '../stderrLogger';

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

/** How the command asks y/N: at a terminal only. */
export interface Confirmer {
  /** Whether a person can answer (standard input is a terminal). */
  interactive: boolean;
  /** Shows `text` and the question; resolves with the answer line. */
  ask(text: string, signal: AbortSignal): Promise<string>;
}

/** The process's terminal: the question on stderr (stdout carries the JSON), the answer from stdin. */
export function terminalConfirmer(): Confirmer {
  return {
    interactive: process.stdin.isTTY === true,
    async ask(text, signal) {
      const rl = createInterface({ input: process.stdin, output: process.stderr });
      try {
        return await rl.question(`${text}\nCreate it? [y/N] `, { signal });
      } finally {
        rl.close();
      }
    },
  };
}

export interface DebugPodSnapshotDeps {
  createGateway: KubeGatewayFactory;
  confirmer: () => Confirmer;
  /** Tests shorten the polling; production uses the defaults of runDebugPod. */
  timeouts?: Partial<DebugPodTimeouts>;
}

/** 130 for SIGINT, 143 for SIGTERM (processIo.ts aborts with "interrupted by SIGNAL"). */
function interruptedCode(signal: AbortSignal): number {
  return /SIGTERM/.test(errorText(signal.reason)) ? 143 : 130;
}

async function nameLeftovers(gateway: KubeGateway, context: string, namespace: string, logger: Logger): Promise<void> {
  const api = gateway.podsApi?.(context);
  if (api === undefined) return;
  try {
    const line = describeLeftovers(await findDebugPodLeftovers(api, namespace, Date.now(), timeoutSignal(10_000)));
    if (line !== undefined) logger.warn(line);
  } catch (err) {
    logger.warn(`could not look for leftover debug pods in ${namespace} (list pods): ${errorText(err)}`);
  }
}

export function createDebugPodSnapshotCommand(deps: DebugPodSnapshotDeps): (argv: string[], io: CliIo, usage: string) => Promise<number> {
  return async (argv, io, usage) => {
    const args = parseDebugPodSnapshotArgs(argv);
    if (args === 'help') {
      io.stdout.write(usage);
      return 0;
    }
    const logger = stderrLogger(io, 'snapshot', true);
    const gateway = deps.createGateway(gatewayOptions(args.kubeconfigs, logger, io));
    try {
      const { name: context } = chooseContext('snapshot', gateway, args.context);
      const api = gateway.podsApi?.(context);
      if (api === undefined) throw new Error('this Kubernetes gateway cannot create pods');
      let node: KubeNode;
      try {
        node = await gateway.getNode(context, args.node, io.signal);
      } catch (err) {
        if (io.signal.aborted) return interruptedCode(io.signal);
        io.stderr.write(`pleg-doctor: snapshot: cannot read node "${args.node}" in context "${context}": ${errorText(err)}\n`);
        return 1;
      }
      let plan;
      try {
        plan = await planDebugPodSnapshot(api, { node, namespace: args.namespace, ...(args.image !== undefined ? { image: args.image } : {}), ...(args.criSocket !== undefined ? { criSocket: args.criSocket } : {}), deadlineSeconds: args.deadlineSeconds, callDeadlineMs: args.callDeadlineMs }, io.signal);
      } catch (err) {
        if (err instanceof DebugPodSetupError) throw new CliUsageError(`snapshot: ${err.message}`);
        if (io.signal.aborted) return interruptedCode(io.signal);
        throw err;
      }
      logger.info(`image from ${plan.imageFrom}`);
      if (!args.yes) {
        const confirmer = deps.confirmer();
        if (!confirmer.interactive) {
          io.stderr.write(`${plan.confirmation}\n`);
          throw new CliUsageError('snapshot: creating a debug pod needs a confirmation: standard input is not a terminal, so pass --yes to create it');
        }
        let answer;
        try {
          answer = await confirmer.ask(plan.confirmation, io.signal);
        } catch (err) {
          if (io.signal.aborted) return interruptedCode(io.signal);
          throw err;
        }
        if (!/^y(es)?$/i.test(answer.trim())) {
          io.stderr.write('pleg-doctor: snapshot: not confirmed; nothing was created\n');
          return 2;
        }
      } else {
        // Logged as the editor logs it: what was created, with the words the user would have confirmed.
        logger.info(`--yes given:\n${plan.confirmation}`);
      }
      try {
        const { report, deleted } = await takeDebugPodSnapshot(api, plan.manifest, { logger, signal: io.signal, ...(deps.timeouts !== undefined ? { timeouts: deps.timeouts } : {}) });
        io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
        await nameLeftovers(gateway, context, args.namespace, logger);
        if (!deleted) return 1;
        return report.snapshot.errors.length === 0 ? 0 : 1;
      } catch (err) {
        if (err instanceof DebugPodAbortedError) {
          io.stderr.write(`pleg-doctor: snapshot: ${err.message}\n`);
          return interruptedCode(io.signal);
        }
        if (err instanceof DebugPodError) {
          io.stderr.write(`pleg-doctor: snapshot: ${err.message}\n`);
          await nameLeftovers(gateway, context, args.namespace, logger);
          return 1;
        }
        throw err;
      }
    } finally {
      gateway.dispose();
    }
  };
}
