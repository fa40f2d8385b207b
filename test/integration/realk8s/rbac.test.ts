// RBAC for real: users authenticated by client certificates signed by the cluster CA, authorized by the
// real API server's RBAC. A user who may only list nodes gets the 403 that names `watch`; a user who may
// read nodes, events and pods but not nodes/proxy gets the diagnosis without the kubelet endpoints, each
// marked forbidden, and the gap that names the missing grant.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diagnose } from '../../../src/core/diagnose/runDiagnosis';
import type { Logger } from '../../../src/core/util/logger';
import { silentLogger } from '../../../src/core/util/logger';
import { collectNodeEvidence } from '../../../src/infra/diagnose/collectEvidence';
import { createKubeGateway } from '../../../src/infra/kube/createGateway';
import type { RealCluster } from './cluster';
import { kubectl, realCluster, scratchDir, until, userKubeconfig } from './cluster';

let cluster: RealCluster;
let scratch: { dir: string; remove: () => void };
const ROLES = ['pleg-test-list-nodes', 'pleg-test-no-proxy'];

function rbac(name: string, rules: { resources: string[]; verbs: string[] }[]): string {
  const role = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name }, rules: rules.map((r) => ({ apiGroups: [''], ...r })) };
  const binding = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name }],
  };
  return JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [role, binding] });
}

beforeAll(() => {
  cluster = realCluster();
  scratch = scratchDir();
  kubectl(cluster, ['apply', '-f', '-'], rbac(ROLES[0] ?? '', [{ resources: ['nodes'], verbs: ['list'] }]));
  kubectl(cluster, ['apply', '-f', '-'], rbac(ROLES[1] ?? '', [
    { resources: ['nodes'], verbs: ['get', 'list', 'watch'] },
    { resources: ['events', 'pods'], verbs: ['list'] },
  ]));
});

afterAll(() => {
  if (cluster) for (const r of ROLES) kubectl(cluster, ['delete', 'clusterrole,clusterrolebinding', r, '--ignore-not-found']);
  scratch?.remove();
});

describe('RBAC on the real API server', () => {
  it('a user allowed only `list nodes`: the list works, the watch gets 403 naming watch', async () => {
    const kubeconfig = userKubeconfig(cluster, scratch.dir, ROLES[0] ?? '');
    const lines: string[] = [];
    const logger: Logger = { ...silentLogger, warn: (m) => void lines.push(String(m)) };
    const gateway = createKubeGateway({ kubeconfigPaths: [kubeconfig], logger });
    try {
      const watch = gateway.watchNodes(ROLES[0] ?? '');
      const state = await until('the watch to fail', () => (watch.state.kind === 'error' ? watch.state : undefined), 20_000);
      expect(state.error).toMatchObject({ kind: 'forbidden', httpStatus: 403, verb: 'watch', resource: 'nodes', message: '403 Forbidden: cannot watch nodes' });
      // The real server's own words are kept for the log.
      expect(state.error.detail).toMatch(/User "pleg-test-list-nodes" cannot watch resource "nodes"/);
      // The list itself was allowed: the store holds the real node.
      expect(watch.nodes.has(cluster.nodeName)).toBe(true);
      expect(lines.some((l) => l.includes('watch failed: 403 Forbidden: cannot watch nodes'))).toBe(true);
    } finally {
      gateway.dispose();
    }
  });

  it('a user without nodes/proxy: the kubelet endpoints are forbidden and the report names the grant it needs', async () => {
    const kubeconfig = userKubeconfig(cluster, scratch.dir, ROLES[1] ?? '');
    const gateway = createKubeGateway({ kubeconfigPaths: [kubeconfig] });
    try {
      const context = ROLES[1] ?? '';
      const direct = await gateway.nodeProxyGet(context, cluster.nodeName, '/metrics', { timeoutMs: 10_000 });
      expect(direct).toMatchObject({ kind: 'httpError', httpStatus: 403, error: { kind: 'forbidden', verb: 'get', resource: 'nodes/proxy', message: '403 Forbidden: cannot get nodes/proxy' } });
      if (direct.kind === 'httpError') expect((JSON.parse(direct.body) as { message?: string }).message).toMatch(/User "pleg-test-no-proxy" cannot get resource "nodes\/proxy"/);

      const node = await gateway.getNode(context, cluster.nodeName);
      const evidence = await collectNodeEvidence({ gateway, context, node, useNodeProxy: true, proxyTimeoutMs: 10_000, metricsIntervalMs: 0, logger: silentLogger, nodeSideSkipReason: 'not configured in this test' });
      for (const source of ['metrics', 'configz', 'healthz', 'goroutines'] as const) {
        expect(evidence[source]).toMatchObject({ status: 'forbidden', message: '403 Forbidden: cannot get nodes/proxy' });
      }
      // What the user may read still arrives.
      expect(evidence.events.status).toBe('ok');
      expect(evidence.podCount.status).toBe('ok');
      const diagnosis = diagnose(evidence);
      expect(diagnosis.gaps.join('\n')).toMatch(/were refused \(403\): reading them through the API server needs `get` on `nodes\/proxy`/);
      expect(diagnosis.verdict).toBe('ready');
    } finally {
      gateway.dispose();
    }
  });
});
