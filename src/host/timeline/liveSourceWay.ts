// Which way the live timeline reaches a node's side: chooseEditorAccess (dist/kube.js) with the timeline's
// ways, the agent pod or SSH. A timeline through a debug pod is not offered: it would keep a privileged pod
// running for as long as the panel is open. Reads the settings here (vscode) and hands the choice values.

import type { EditorAccess } from '../nodeAccess/chooseEditorAccess';
import { sshAccessFor } from '../nodeAccess/editorAccessPresentation';
import type { NodeAccessConfig } from '../../infra/ssh/nodeAccessSettings';
import type { Logger } from '../../core/util/logger';
import { loadKubeBundle } from '../bundles/kubeLoader';
import { readAccessWaySettings, readNodeAccessConfig } from '../config/settings';
import type { KubeGateway } from '../../infra/kube/gateway';

/** The ways the timeline can use. */
export const TIMELINE_WAYS = ['agent', 'ssh'] as const;

export interface TimelineWay {
  access: EditorAccess;
  /** The SSH settings when the way is SSH. */
  ssh: NodeAccessConfig | undefined;
}

/** The node access settings, and why SSH cannot serve this node (sshAccessFor: one wording for every feature). */
function noSsh(context: string, node: string): { config: NodeAccessConfig; why: string | undefined } {
  const read = readNodeAccessConfig();
  const ssh = sshAccessFor(read.config, read.problems, context, node);
  return { config: read.config, why: ssh.configured ? undefined : ssh.why };
}

/** Rejects only when `signal` aborts. */
export async function chooseTimelineWay(gateway: KubeGateway | undefined, context: string, node: string, signal: AbortSignal, logger: Logger): Promise<TimelineWay> {
  const ssh = noSsh(context, node);
  const ways = readAccessWaySettings();
  for (const problem of ways.problems) logger.warn(`timeline of ${node}: ${problem}`);
  // No API server: no agent to look for, and no Node object to take the SSH address from.
  if (gateway === undefined) return { access: { way: 'none', why: 'the kubeconfig is not loaded' }, ssh: undefined };
  const kube = await loadKubeBundle();
  const access = await kube.chooseEditorAccess({
    gateway,
    context,
    node,
    ways: ways.settings,
    ssh: ssh.why === undefined ? { configured: true } : { configured: false, why: ssh.why },
    supports: TIMELINE_WAYS,
    signal,
    logger,
  });
  logger.info(`timeline of ${node} (context ${context}): ${access.way === 'none' ? 'no node access' : access.way}: ${access.why}`);
  return { access, ssh: access.way === 'ssh' ? ssh.config : undefined };
}
