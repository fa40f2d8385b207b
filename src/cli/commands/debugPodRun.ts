// The CLI's side of every debug pod run (issue #29), whatever the pod does: read the node, plan the pod,
// have it confirmed (the words of debugPodConfirmation at a terminal, or --yes; without a terminal and
// without --yes nothing is created, exit 2), run it, and on SIGINT/SIGTERM exit 130/143 once the pod is
// deleted; a failed pod is exit 1 with its reason, and leftover debug pods of the namespace are named.
// `snapshot --access debug-pod` (debugPodSnapshot.ts) and `logs --access debug-pod` (debugPodLogs.ts) plug
// in what their pod is and what to print.

import { createInterface } from 'node:readline/promises';
import { describeLeftovers } from '../../core/nodeAccess/debugPodLeftovers';
import type { KubeNode } from '../../core/kube/objects';
import { timeoutSignal } from '../../core/util/deadlineSignal';
import { errorText } from '../../core/util/errorText';
import type { Logger } from '../../core/util/logger';
import type { KubeGateway } from '../../infra/kube/gateway';
import type { PodsApi } from '../../infra/kube/podsApi';
import { DebugPodSetupError, type DebugPodPlan } from '../../infra/nodeAccess/debugPod/debugPodSnapshot';
import { findDebugPodLeftovers } from '../../infra/nodeAccess/debugPod/leftovers';
import { DebugPodAbortedError, DebugPodError } from '../../infra/nodeAccess/debugPod/runDebugPod';
import type { DebugPodTimeouts } from '../../infra/nodeAccess/debugPod/runDebugPod';
import { CliUsageError } from '../io';
import type { CliIo } from '../io';
import { chooseContext, gatewayOptions } from '../kubeContext';
import type { KubeGatewayFactory } from '../kubeContext';
import { stderrLogger } from '../stderrLogger';

/** How the command asks y/N: at a terminal only. */
export interface Confirmer {
  /** Whether a person can answer (standard input is a terminal). */
  interactive: boolean;
  /** Shows `text` and the question; resolves with the answer line. */
  ask(text: string, signal: AbortSignal): Promise<string>;
}

/** The process's terminal: the question on stderr (stdout carries the output), the answer from stdin. */
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

export interface DebugPodCommandDeps {
  createGateway: KubeGatewayFactory;
  confirmer: () => Confirmer;
  /** Tests shorten the polling; production uses the defaults of runDebugPod. */
  timeouts?: Partial<DebugPodTimeouts>;
}

/** 130 for SIGINT, 143 for SIGTERM (processIo.ts aborts with "interrupted by SIGNAL"). */
export function interruptedCode(signal: AbortSignal): number {
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

export interface DebugPodCommandRun {
  command: string;
  node: string;
  namespace: string;
  yes: boolean;
  context?: string;
  kubeconfigs: string[];
  /** Reads what it needs and returns the pod to create; creates nothing. */
  plan(api: PodsApi, node: KubeNode, signal: AbortSignal): Promise<DebugPodPlan>;
  /** Runs the confirmed pod and prints its result; the exit code (a pod not confirmed deleted: 1). */
  run(api: PodsApi, plan: DebugPodPlan, logger: Logger): Promise<number>;
}

export async function runDebugPodCommand(r: DebugPodCommandRun, deps: DebugPodCommandDeps, io: CliIo): Promise<number> {
  const logger = stderrLogger(io, r.command, true);
  const gateway = deps.createGateway(gatewayOptions(r.kubeconfigs, logger, io));
  try {
    const { name: context } = chooseContext(r.command, gateway, r.context);
    const api = gateway.podsApi?.(context);
    if (api === undefined) throw new Error('this Kubernetes gateway cannot create pods');
    let node: KubeNode;
    try {
      node = await gateway.getNode(context, r.node, io.signal);
    } catch (err) {
      if (io.signal.aborted) return interruptedCode(io.signal);
      io.stderr.write(`pleg-doctor: ${r.command}: cannot read node "${r.node}" in context "${context}": ${errorText(err)}\n`);
      return 1;
    }
    let plan;
    try {
      plan = await r.plan(api, node, io.signal);
    } catch (err) {
      if (err instanceof DebugPodSetupError) throw new CliUsageError(`${r.command}: ${err.message}`);
      if (io.signal.aborted) return interruptedCode(io.signal);
      throw err;
    }
    logger.info(`image from ${plan.imageFrom}`);
    if (!r.yes) {
      const confirmer = deps.confirmer();
      if (!confirmer.interactive) {
        io.stderr.write(`${plan.confirmation}\n`);
        throw new CliUsageError(`${r.command}: creating a debug pod needs a confirmation: standard input is not a terminal, so pass --yes to create it`);
      }
      let answer;
      try {
        answer = await confirmer.ask(plan.confirmation, io.signal);
      } catch (err) {
        if (io.signal.aborted) return interruptedCode(io.signal);
        throw err;
      }
      if (!/^y(es)?$/i.test(answer.trim())) {
        io.stderr.write(`pleg-doctor: ${r.command}: not confirmed; nothing was created\n`);
        return 2;
      }
    } else {
      // Logged as the editor logs it: what was created, with the words the user would have confirmed.
      logger.info(`--yes given:\n${plan.confirmation}`);
    }
    try {
      const code = await r.run(api, plan, logger);
      await nameLeftovers(gateway, context, r.namespace, logger);
      return code;
    } catch (err) {
      if (err instanceof DebugPodAbortedError) {
        io.stderr.write(`pleg-doctor: ${r.command}: ${err.message}\n`);
        return interruptedCode(io.signal);
      }
      if (err instanceof DebugPodError) {
        io.stderr.write(`pleg-doctor: ${r.command}: ${err.message}\n`);
        await nameLeftovers(gateway, context, r.namespace, logger);
        return 1;
      }
      throw err;
    }
  } finally {
    gateway.dispose();
  }
}
