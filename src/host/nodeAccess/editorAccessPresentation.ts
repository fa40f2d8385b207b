// What the editor shows around the choice of a node access way (Take CRI Snapshot, Diagnose Node): pure (no
// vscode), so the trust gate, the debug pod's modal, the "no way" error and whether SSH counts as configured
// are tested without an editor. The way's own words come from wayLabel (core/nodeAccess/accessWay.ts).

import type { DebugPodPlan } from '../../infra/nodeAccess/debugPod/debugPodSnapshot';
import { problemsBlocking, type NodeAccessConfig, type NodeAccessSettingsProblem } from '../../infra/ssh/nodeAccessSettings';
import type { Localize } from '../../core/tree/localize';

/**
 * SSH to a node counts as configured when its context has a plegDoctor.nodeAccess.clusters entry with no
 * blocking problem (the live timeline, Take CRI Snapshot and Diagnose Node all ask here); `withoutEntry` (Diagnose Node with nodeSide "always")
 * drops the need for the entry: the node's InternalIP through ~/.ssh/config.
 */
export function sshAccessFor(
  config: NodeAccessConfig,
  problems: readonly NodeAccessSettingsProblem[],
  context: string,
  node: string,
  withoutEntry = false,
): { configured: true } | { configured: false; why: string } {
  if (!withoutEntry && config.clusters.clusters[context] === undefined) return { configured: false, why: `context "${context}" has no entry in plegDoctor.nodeAccess.clusters` };
  const blocking = problemsBlocking(problems, context, node);
  if (blocking.length > 0) return { configured: false, why: `the node access settings have problems: ${blocking.map((p) => p.message).join('; ')}` };
  return { configured: true };
}

export type DebugPodGate = { allowed: true } | { allowed: false; reason: string };

/** A debug pod is created only from a trusted workspace: a cloned repository's settings must not be able to create pods. */
export function debugPodGate(options: { workspaceTrusted: boolean }): DebugPodGate {
  if (!options.workspaceTrusted) return { allowed: false, reason: 'a debug pod is not created from an untrusted workspace' };
  return { allowed: true };
}

export interface DebugPodModal {
  message: string;
  /** debugPodConfirmation of the exact manifest that will be sent, and where the image comes from. */
  detail: string;
  confirm: string;
}

/** The modal asked before a debug pod is created; `why` says why neither the agent nor SSH is used. */
export function debugPodModal(node: string, plan: DebugPodPlan, why: string, t: Localize): DebugPodModal {
  return {
    message: t('Reach node {0} through a debug pod?', node),
    detail: `${plan.confirmation}\n  image from: ${plan.imageFrom}\n\n${t('Neither the agent nor SSH can be used: {0}', why)}`,
    confirm: t('Create Debug Pod'),
  };
}

export type NoAccessAction = 'configure' | 'settings';

/** Take CRI Snapshot's error when no way reaches the node: `why` names what is missing and what would give one. */
export function noAccessPresentation(node: string, why: string, t: Localize): { message: string; actions: NoAccessAction[] } {
  return { message: t('CRI snapshot of {0}: no way to reach the node: {1}', node, why), actions: ['configure', 'settings'] };
}
