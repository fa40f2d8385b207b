// Whether a node's context is the built-in demo's. Kept apart from the snapshot command so that callers
// loaded at activation (the timeline panel) do not pull ssh2 and the CRI code into dist/extension.js.

import type { Logger } from '../../core/util/logger';
import { loadKubeconfigs } from '../../infra/kube/kubeconfig';
import type { ClusterSession } from '../cluster/clusterSession';
import { isDemoCluster } from './snapshotFailure';
import { errorText } from '../../core/util/errorText';

/** Whether the node's context comes from the demo's kubeconfig (its cluster carries the demo's extension). */
export function isDemoContext(session: ClusterSession, context: string, logger: Logger): boolean {
  try {
    const source = session.kube?.listContexts().find((c) => c.name === context)?.source;
    if (source === undefined) return false;
    return isDemoCluster(loadKubeconfigs([source], {}).contexts.find((c) => c.info.name === context)?.cluster);
  } catch (error) {
    logger.debug(`could not tell whether context ${context} is the demo's: ${errorText(error)}`);
    return false;
  }
}
