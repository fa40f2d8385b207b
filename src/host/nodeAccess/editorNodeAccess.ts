// The editor's way to one node's side for Take CRI Snapshot and Diagnose Node: chooseEditorAccess (the
// agent pod, else SSH) under a cancellable progress; where it offers a debug pod, the pod is planned (the
// exact manifest), refused in an untrusted workspace, and created only after the user confirms it in a
// modal. Every step is in the output channel: asked, confirmed or declined, then runDebugPod's created,
// finished and deleted. In dist/kube.js with the gateway (its errors and AgentAccessError are told apart
// with instanceof).

import * as vscode from 'vscode';
import type { AccessWay } from '../../core/nodeAccess/accessWay';
import type { AccessWaySettings } from '../../core/nodeAccess/accessWaySettings';
import type { NodeEntry } from '../../core/tree/contextNodes';
import { withDeadline } from '../../core/util/deadlineSignal';
import { errorText } from '../../core/util/errorText';
import type { Logger } from '../../core/util/logger';
import type { PodsApi } from '../../infra/kube/podsApi';
import type { AgentConnection } from '../../infra/nodeAccess/agent/agentConnection';
import { DebugPodSetupError, planDebugPodSnapshot, takeDebugPodSnapshot, type DebugPodPlan, type DebugPodSnapshotReport } from '../../infra/nodeAccess/debugPod/debugPodSnapshot';
import { CommandIds } from '../../shared/commandIds';
import type { ClusterSession } from '../cluster/clusterSession';
import { NODE_ACCESS_SECTION, readAccessWaySettings, readNodeAccessConfig } from '../config/settings';
import { t } from '../l10n';
import { chooseEditorAccess } from './chooseEditorAccess';
import { debugPodGate, debugPodModal, noAccessPresentation, sshAccessFor } from './editorAccessPresentation';

/** Looking for the agent pod and planning a debug pod (two or three API reads) together. */
const CHOOSE_DEADLINE_MS = 30_000;
/** The debug pod's activeDeadlineSeconds and its CRI calls' deadline: the CLI's defaults (debugPodSnapshot.ts). */
const DEBUG_POD_DEADLINE_SECONDS = 120;
const DEBUG_POD_CALL_DEADLINE_MS = 5_000;
const IMAGE_SETTING = 'plegDoctor.nodeAccess.debugPod.image';

export type ResolvedAccess =
  | { way: 'agent'; connection: AgentConnection; why: string }
  | { way: 'ssh'; why: string }
  /** Confirmed by the user: `plan.manifest` is what the modal showed. */
  | { way: 'debug-pod'; api: PodsApi; plan: DebugPodPlan; why: string }
  /** A debug pod was the only way and was not created: declined, or refused in an untrusted workspace. */
  | { way: 'declined'; why: string }
  | { way: 'none'; why: string }
  | { way: 'cancelled' };

export interface ResolveRequest {
  session: ClusterSession;
  logger: Logger;
  /** For the log, e.g. "CRI snapshot". */
  purpose: string;
  /** The progress notification's title (localized). */
  title: string;
  supports: readonly AccessWay[];
  /** SSH counts as configured without a plegDoctor.nodeAccess.clusters entry (plegDoctor.diagnostics.nodeSide "always"). */
  sshWithoutEntry?: boolean;
  /**
   * Only a debug pod can do this (the other ways were tried, or cannot serve it): skip the choice, plan this
   * pod, and say `why` in the modal. Still refused unless plegDoctor.nodeAccess.ways allows a debug pod.
   */
  debugPodOnly?: { why: string; plan: (api: PodsApi, ways: AccessWaySettings, signal: AbortSignal) => Promise<DebugPodPlan> };
}

type Chosen = { way: 'agent'; connection: AgentConnection; why: string } | { way: 'ssh'; why: string } | { way: 'debug-pod'; api: PodsApi; plan: DebugPodPlan; why: string } | { way: 'none'; why: string };

async function chooseAndPlan(entry: NodeEntry, req: ResolveRequest, signal: AbortSignal): Promise<Chosen> {
  const gateway = req.session.kube;
  if (gateway === undefined) return { way: 'none', why: 'the kubeconfig is not loaded yet' };
  const { settings, problems } = readAccessWaySettings();
  for (const p of problems) req.logger.warn(`settings: ${p}`);
  if (req.debugPodOnly !== undefined) return planOnly(entry, req.debugPodOnly, gateway, settings, signal);
  const nodeAccess = readNodeAccessConfig();
  const ssh = sshAccessFor(nodeAccess.config, nodeAccess.problems, entry.context, entry.name, req.sshWithoutEntry === true);
  const choice = await chooseEditorAccess({ gateway, context: entry.context, node: entry.name, ways: settings, ssh, supports: req.supports, signal, logger: req.logger });
  if (choice.way !== 'debug-pod') return choice;
  const api = gateway.podsApi?.(entry.context);
  if (api === undefined) return { way: 'none', why: `${choice.why}; and this cluster connection cannot create pods` };
  try {
    const image = settings.debugPod.image;
    const plan = await planDebugPodSnapshot(
      api,
      {
        node: entry.node,
        namespace: settings.debugPod.namespace,
        agentNamespace: settings.agentNamespace,
        ...(image !== '' ? { image } : {}),
        imageOption: `the setting ${IMAGE_SETTING}`,
        deadlineSeconds: DEBUG_POD_DEADLINE_SECONDS,
        callDeadlineMs: DEBUG_POD_CALL_DEADLINE_MS,
      },
      signal,
    );
    return { way: 'debug-pod', api, plan, why: choice.why };
  } catch (err) {
    if (signal.aborted) throw err;
    const cause = err instanceof DebugPodSetupError ? err.message : `planning a debug pod failed: ${errorText(err)}`;
    return { way: 'none', why: `${choice.why}; a debug pod cannot be offered: ${cause}` };
  }
}

/** The debug pod as the one way left (ResolveRequest.debugPodOnly): planned when the settings allow it. */
async function planOnly(entry: NodeEntry, only: NonNullable<ResolveRequest['debugPodOnly']>, gateway: NonNullable<ClusterSession['kube']>, settings: AccessWaySettings, signal: AbortSignal): Promise<Chosen> {
  if (!settings.allowed.includes('debug-pod')) return { way: 'none', why: `${only.why}; a debug pod is not among plegDoctor.nodeAccess.ways` };
  const api = gateway.podsApi?.(entry.context);
  if (api === undefined) return { way: 'none', why: `${only.why}; and this cluster connection cannot create pods` };
  try {
    return { way: 'debug-pod', api, plan: await only.plan(api, settings, signal), why: only.why };
  } catch (err) {
    if (signal.aborted) throw err;
    const cause = err instanceof DebugPodSetupError ? err.message : `planning a debug pod failed: ${errorText(err)}`;
    return { way: 'none', why: `${only.why}; a debug pod cannot be offered: ${cause}` };
  }
}

/** Asks before anything is created; refuses in an untrusted workspace. Every answer is logged. */
async function confirmDebugPod(entry: NodeEntry, chosen: Extract<Chosen, { way: 'debug-pod' }>, req: ResolveRequest): Promise<ResolvedAccess> {
  const { logger } = req;
  const pod = `${chosen.plan.manifest.metadata.namespace}/${chosen.plan.manifest.metadata.name}`;
  const prefix = `${req.purpose} of node ${entry.name}`;
  const gate = debugPodGate({ workspaceTrusted: vscode.workspace.isTrusted });
  if (!gate.allowed) {
    logger.warn(`${prefix}: debug pod ${pod} not created: ${gate.reason}`);
    void vscode.window.showErrorMessage(t('{0}: PLEG Doctor does not create a debug pod from an untrusted workspace; nothing was created. Trust the workspace, install the agent, or configure SSH.', entry.name));
    return { way: 'declined', why: gate.reason };
  }
  const modal = debugPodModal(entry.name, chosen.plan, chosen.why, t);
  logger.info(`${prefix}: asking to create debug pod ${pod} (${chosen.why}):\n${chosen.plan.confirmation}\n  image from: ${chosen.plan.imageFrom}`);
  const picked = await vscode.window.showWarningMessage(modal.message, { modal: true, detail: modal.detail }, modal.confirm);
  if (picked !== modal.confirm) {
    logger.info(`${prefix}: debug pod ${pod} declined; nothing was created`);
    return { way: 'declined', why: 'a debug pod was offered and not confirmed; nothing was created' };
  }
  logger.info(`${prefix}: debug pod ${pod} confirmed`);
  return chosen;
}

/** The way to the node for one command, with the user's consent where a debug pod is the way. */
export async function resolveNodeAccess(entry: NodeEntry, req: ResolveRequest): Promise<ResolvedAccess> {
  const chosen = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: req.title, cancellable: true }, async (progress, token): Promise<Chosen | undefined> => {
    progress.report({ message: t('Choosing how to reach the node…') });
    const controller = new AbortController();
    const subscription = token.onCancellationRequested(() => controller.abort(new Error('cancelled by the user')));
    const signal = withDeadline(controller.signal, CHOOSE_DEADLINE_MS);
    try {
      return await chooseAndPlan(entry, req, signal);
    } catch (err) {
      if (controller.signal.aborted) return undefined;
      return { way: 'none', why: `choosing the way took longer than ${CHOOSE_DEADLINE_MS / 1000} s or failed: ${errorText(err)}` };
    } finally {
      subscription.dispose();
    }
  });
  if (chosen === undefined) {
    req.logger.info(`${req.purpose} of node ${entry.name}: cancelled while choosing the way`);
    return { way: 'cancelled' };
  }
  req.logger.info(`${req.purpose} of node ${entry.name} (context ${entry.context}): ${chosen.way === 'none' ? 'no way' : `way ${chosen.way}`}: ${chosen.why}`);
  return chosen.way === 'debug-pod' ? confirmDebugPod(entry, chosen, req) : chosen;
}

/** Runs the confirmed debug pod (runDebugPod deletes it on every path, cancel included) and logs its end. */
export async function snapshotThroughDebugPod(access: Extract<ResolvedAccess, { way: 'debug-pod' }>, signal: AbortSignal, logger: Logger): Promise<DebugPodSnapshotReport> {
  const { report, deleted } = await takeDebugPodSnapshot(access.api, access.plan.manifest, { logger, signal });
  logger.info(`${report.access.label}: finished, ${report.snapshot.sandboxes.length} pod sandboxes, ${report.snapshot.containers.length} containers, ${report.snapshot.errors.length} failed calls`);
  if (!deleted) {
    const { namespace, name } = access.plan.manifest.metadata;
    void vscode.window.showWarningMessage(t('The debug pod {0} could not be confirmed deleted: remove it with kubectl delete pod -n {1} {2}', `${namespace}/${name}`, namespace, name));
  }
  return report;
}

/** No way reaches the node: the error says why and offers the two places that give one. */
export async function showNoAccess(node: string, why: string): Promise<void> {
  const p = noAccessPresentation(node, why, t);
  const labels = { configure: t('Configure Node Access'), settings: t('Open Settings') };
  const picked = await vscode.window.showErrorMessage(p.message, ...p.actions.map((a) => labels[a]));
  if (picked === labels.configure) await vscode.commands.executeCommand(CommandIds.configureNodeAccess);
  else if (picked === labels.settings) await vscode.commands.executeCommand('workbench.action.openSettings', NODE_ACCESS_SECTION);
}
