// Issue #29's node-side commands in code-server without SSH, on the kit's real node, before the freeze
// (treeInCodeServer.ts calls this once the agent runs; ../../e2e/lib/kitNodeAccessCheck.mjs drives the
// page and says what is checked). Here: the facts the editor is held to, each read from its own source,
// never from the editor: the agent pod and its container id from the API server, the image from the agent
// DaemonSet, our debug pods from the API server (debugPodCli.ts), containerd's running tasks with ctr, and
// the node's kubelet journal with journalctl. The kit's node is this machine (cluster.sh), so journalctl
// reads the very directory the debug pod mounts.

import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_NODE_JOURNAL_DIRS } from '../../../src/infra/nodeAccess/debugPod/debugPodKubeletLog';
import { runKitNodeAccessChecks, type NodeAccessFacts } from '../../e2e/lib/kitNodeAccessCheck.mjs';
import { KIT_TREE_SHOTS, type KitTreeSession } from '../../e2e/lib/kitTreeCheck.mjs';
import { AGENT_NAMESPACE, waitAgentPod } from './agentInstall';
import { kubectl, type RealCluster } from './cluster';
import { debugPods, runningTasks } from './debugPodCli';

// The editor's debug pod mounts DEFAULT_NODE_JOURNAL_DIRS, which is /var/log/journal alone.
const JOURNAL_DIR = DEFAULT_NODE_JOURNAL_DIRS[0] as string;

/** `journalctl -D DIR -u kubelet -o short-precise` for the window, in UTC as the debug pod prints it. */
function nodeJournal(sinceS: number, untilS: number): { stdout: string; stderr: string } {
  const dir = JOURNAL_DIR;
  const r = spawnSync('journalctl', ['-D', dir, '-u', 'kubelet', '-o', 'short-precise', '--no-pager', '--since', `@${sinceS}`, '--until', `@${untilS}`], {
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, TZ: 'UTC' },
  });
  if (r.status !== 0) throw new Error(`journalctl -D ${dir} failed (exit ${r.status}): ${r.stderr}`);
  return { stdout: r.stdout, stderr: r.stderr };
}

export async function nodeAccessInCodeServer(s: KitTreeSession, cluster: RealCluster, log: (line: string) => void): Promise<void> {
  const agent = await waitAgentPod(cluster, 30_000);
  const facts: NodeAccessFacts = {
    node: cluster.nodeName,
    agentPod: `${AGENT_NAMESPACE}/${agent}`,
    agentContainerId: kubectl(cluster, ['get', 'pod', agent, '-n', AGENT_NAMESPACE, '-o', 'jsonpath={.status.containerStatuses[0].containerID}']).replace(/^containerd:\/\//u, ''),
    agentImage: kubectl(cluster, ['get', 'daemonset', 'pleg-doctor-agent', '-n', AGENT_NAMESPACE, '-o', 'jsonpath={.spec.template.spec.containers[?(@.name=="agent")].image}']),
    // plegDoctor.nodeAccess.debugPod.namespace is left at its default, the agent's namespace.
    namespace: AGENT_NAMESPACE,
    debugPods: () => debugPods(cluster),
    runningTasks: () => runningTasks(cluster),
    journalDir: JOURNAL_DIR,
    nodeJournal,
  };
  log(`node access in code-server, no SSH: agent ${facts.agentPod} (container ${facts.agentContainerId.slice(0, 13)}, image ${facts.agentImage})`);
  const kept: Record<string, unknown> = { kit: cluster.kit, facts: { ...facts, debugPods: undefined, runningTasks: undefined, nodeJournal: undefined } };
  try {
    await runKitNodeAccessChecks({ page: s.page, facts, shot: (name) => s.shot(name), log, keep: (name, value) => void (kept[name] = value) });
  } finally {
    // Beside the screenshots (CI keeps test-results/): what the editor showed, against what it was held to.
    writeFileSync(join(KIT_TREE_SHOTS, `realk8s-${cluster.kit}-node-access.json`), `${JSON.stringify(kept, null, 2)}\n`);
  }
}
