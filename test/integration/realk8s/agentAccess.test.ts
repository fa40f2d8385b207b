// Node access through the agent on the real 1.26 cluster (#29): with the agent DaemonSet installed and no
// SSH option, `timeline`, `snapshot` and `diagnose` read the node's side from the agent pod through the API
// server's pod port-forward, and say so. The pods proxy cannot be used here: the API server refuses to
// proxy to the hostNetwork pod's loopback IP ("address not allowed"), as it does on any cluster whose pod
// IP is not proxyable; docs/node-access.md. A user with the namespaced grants docs/node-access.md lists is
// enough; one without pods/portforward is told that grant. No fault window: the runtime runs normally.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TimelineSession } from '../../../src/core/timeline/session';
import { AGENT_NAMESPACE, installAgent, removeAgent } from './agentInstall';
import type { RealCluster } from './cluster';
import { cli, kubectl, realCluster, scratchDir, until, userKubeconfig } from './cluster';

let cluster: RealCluster;
let scratch: { dir: string; remove: () => void };
let pod: string;
const NO_FORWARD = 'pleg-test-agent-no-forward';
const SCOPED = 'pleg-test-agent-scoped';

function binding(kind: 'ClusterRole' | 'Role', name: string, rules: { resources: string[]; verbs: string[] }[]): string {
  const ns = kind === 'Role' ? { namespace: AGENT_NAMESPACE } : {};
  const role = { apiVersion: 'rbac.authorization.k8s.io/v1', kind, metadata: { name, ...ns }, rules: rules.map((r) => ({ apiGroups: [''], ...r })) };
  const bind = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: `${kind}Binding`,
    metadata: { name, ...ns },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind, name },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name }],
  };
  return JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [role, bind] });
}

beforeAll(async () => {
  cluster = realCluster();
  scratch = scratchDir();
  pod = await installAgent(cluster, scratch.dir);
  // Everything but the port-forward; and, in the agent's namespace only, exactly what docs/node-access.md lists.
  kubectl(cluster, ['apply', '-f', '-'], binding('ClusterRole', NO_FORWARD, [{ resources: ['nodes'], verbs: ['get', 'list', 'watch'] }, { resources: ['pods'], verbs: ['list'] }]));
  kubectl(cluster, ['apply', '-f', '-'], binding('Role', SCOPED, [{ resources: ['pods'], verbs: ['list'] }, { resources: ['pods/portforward'], verbs: ['get', 'create'] }]));
}, 300_000);

afterAll(() => {
  if (cluster) {
    kubectl(cluster, ['delete', 'clusterrole,clusterrolebinding', NO_FORWARD, '--ignore-not-found']);
    removeAgent(cluster);
  }
  scratch?.remove();
});

const env = (): NodeJS.ProcessEnv => ({ KUBECONFIG: cluster.kubeconfig });
const via = (): string => `via agent pod ${AGENT_NAMESPACE}/${pod}`;

/** The agent answers /v1/diagnosis once its first diagnosis is done (503 before): retried until then. */
async function snapshotThroughAgent(args: string[], extraEnv: NodeJS.ProcessEnv = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return until(
    'the agent\u2019s first diagnosis',
    () => {
      const r = cli(['snapshot', '--node', cluster.nodeName, ...args], { ...env(), ...extraEnv });
      return /has not finished its first diagnosis/.test(r.stderr) ? undefined : r;
    },
    90_000,
    2_000,
  );
}

describe('node access through the agent pod (real 1.26 cluster, no SSH)', () => {
  it('timeline without SSH options records the agent\u2019s relists with the real runtime\u2019s latencies, and names the way', () => {
    const out = join(scratch.dir, 'session.json');
    const r = cli(['timeline', '--node', cluster.nodeName, '--for', '8s', '--out', out], env(), 60_000);
    expect(r.stderr).toContain(`node access ${via()}`);
    expect(r.status, r.stderr).toBe(0);
    const session = JSON.parse(readFileSync(out, 'utf8')) as TimelineSession;
    expect(session.via).toBe(via());
    expect(session.node).toBe(cluster.nodeName);
    // The agent's model on the real containerd: relists that listed the runtime (the agent's own container
    // at least) with measured CRI latencies.
    const listed = session.relists.filter((x) => x.ok && (x.containers ?? 0) >= 1);
    expect(listed.length).toBeGreaterThan(3);
    expect(listed.some((x) => x.rpcs.some((c) => c.rpc === 'ListPodSandbox' && c.latencyMs > 0 && c.error === undefined))).toBe(true);
    // The since-cursor deltas were applied up to the end: the session reaches the last seconds of the
    // recording, which the first read (8 s before the end) could not have held.
    expect(Date.parse(session.startedAt) + session.durationMs).toBeGreaterThan(Date.now() - 6_000);
    expect(r.stderr).toMatch(new RegExp(`\\d+ relists \\(0 failed\\), \\d+ kubelet scrapes of ${cluster.nodeName} ${via()} written to`));
  });

  it('snapshot --node: the agent\u2019s CRI snapshot of the real containers, with its age', async () => {
    const r = await snapshotThroughAgent([]);
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { via: string; takenAt: string; ageSeconds: number; snapshot: { runtime?: { name: string }; containers: { labels?: Record<string, string> }[] } };
    expect(report.via).toBe(via());
    expect(report.snapshot.runtime?.name).toBe('containerd');
    expect(report.snapshot.containers.some((c) => c.labels?.['io.kubernetes.pod.name'] === pod)).toBe(true);
    expect(report.ageSeconds).toBeGreaterThanOrEqual(0);
    expect(Date.now() - Date.parse(report.takenAt)).toBeGreaterThanOrEqual(report.ageSeconds * 1000);
    expect(r.stderr).toMatch(/snapshot: taken (\d+m)?\d+s ago by the agent \(its last diagnosis, /);
    expect(r.stderr).toContain(via());
  });

  it('diagnose: the node tier is the agent\u2019s snapshot, merged with the API tier, and says the way', async () => {
    await snapshotThroughAgent([]);
    const dir = join(scratch.dir, 'evidence');
    const r = cli(['diagnose', '--node', cluster.nodeName, '-o', 'json', '--metrics-interval', '0', '--log-window', '0', '--save-evidence', dir], env(), 90_000);
    expect([0, 1], r.stderr).toContain(r.status);
    expect(r.stderr).toContain(`node access ${via()}`);
    expect(r.stderr).toMatch(/node side taken (\d+m)?\d+s ago by the agent/);
    const manifest = JSON.parse(readFileSync(join(dir, 'bundle.json'), 'utf8')) as { nodeSide?: { transport: { reason: string }; reachedBy?: string } };
    expect(manifest.nodeSide?.transport.reason).toContain(via());
    // The way and the age, as the editor shows them too (readAgentSnapshot): in the evidence and the report's table.
    expect(manifest.nodeSide?.reachedBy).toMatch(/^via agent pod \S+, taken (\d+m)?\d+s ago$/);
    expect(manifest.nodeSide?.reachedBy?.startsWith(`${via()}, taken `)).toBe(true);
    expect(readFileSync(join(dir, 'report.md'), 'utf8')).toContain(`| ${manifest.nodeSide?.reachedBy} |`);
    const snapshot = JSON.parse(readFileSync(join(dir, 'snapshot.json'), 'utf8')) as { containers: { labels?: Record<string, string> }[] };
    expect(snapshot.containers.some((c) => c.labels?.['io.kubernetes.pod.name'] === pod)).toBe(true);
    // The API tier the CLI collects itself is there too (the kubelet's metrics through the node proxy).
    expect(readFileSync(join(dir, 'metrics.txt'), 'utf8')).toContain('kubelet_pleg_relist_duration_seconds');
    expect((JSON.parse(r.stdout) as { node: string }).node).toBe(cluster.nodeName);
  });

  it('a user without pods/portforward is told the grant; one with only the namespaced grants gets the snapshot', async () => {
    const denied = cli(['snapshot', '--node', cluster.nodeName, '--access', 'agent', '--kubeconfig', userKubeconfig(cluster, scratch.dir, NO_FORWARD)]);
    expect(denied.status).toBe(1);
    expect(denied.stderr).toContain(`403 Forbidden: cannot get pods/portforward in namespace ${AGENT_NAMESPACE}`);
    const allowed = await snapshotThroughAgent(['--kubeconfig', userKubeconfig(cluster, scratch.dir, SCOPED)]);
    expect(allowed.status, allowed.stderr).toBe(0);
    expect((JSON.parse(allowed.stdout) as { via: string }).via).toBe(via());
  });
});
