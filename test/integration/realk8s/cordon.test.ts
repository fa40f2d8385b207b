// Cordon, the one remediation that goes through the API (Remediate Node… → Cordon), on the real API
// server: the strategic-merge PATCH of spec.unschedulable is accepted and undone, and a user without
// `patch` on nodes gets the real 403 that names the verb. An extra Node object is used, so the real
// node and the other tests never see a cordon.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKubeGateway, KubeRequestError } from '../../../src/infra/kube/createGateway';
import type { RealCluster } from './cluster';
import { createExtraNode, kubectl, realCluster, scratchDir, userKubeconfig } from './cluster';
import { timeoutSignal } from '../../../src/core/util/deadlineSignal';

const NODE = 'pleg-cordon-target';
const READ_ONLY = 'pleg-test-read-nodes';
let cluster: RealCluster;
let scratch: { dir: string; remove: () => void };

function unschedulable(): string {
  return kubectl(cluster, ['get', 'node', NODE, '-o', 'jsonpath={.spec.unschedulable}']).trim();
}

beforeAll(() => {
  cluster = realCluster();
  scratch = scratchDir();
  createExtraNode(cluster, NODE);
  const role = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: READ_ONLY }, rules: [{ apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list', 'watch'] }] };
  const binding = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: READ_ONLY },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: READ_ONLY },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: READ_ONLY }],
  };
  kubectl(cluster, ['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [role, binding] }));
});

afterAll(() => {
  if (cluster) {
    kubectl(cluster, ['delete', 'node', NODE, '--ignore-not-found', '--wait=false']);
    kubectl(cluster, ['delete', 'clusterrole,clusterrolebinding', READ_ONLY, '--ignore-not-found']);
  }
  scratch?.remove();
});

describe('cordon on the real API server', () => {
  it('sets spec.unschedulable and clears it again', async () => {
    const gateway = createKubeGateway({ kubeconfigPaths: [cluster.kubeconfig] });
    try {
      const context = gateway.listContexts()[0]?.name ?? '';
      expect(gateway.setUnschedulable).toBeDefined();
      const cordoned = await gateway.setUnschedulable!(context, NODE, true, timeoutSignal(15_000));
      expect(cordoned.spec?.unschedulable).toBe(true);
      expect(unschedulable()).toBe('true');
      const uncordoned = await gateway.setUnschedulable!(context, NODE, false, timeoutSignal(15_000));
      expect(uncordoned.spec?.unschedulable ?? false).toBe(false);
      expect(unschedulable()).toBe('');
    } finally {
      gateway.dispose();
    }
  });

  it('a user who may only read nodes gets the 403 that names patch, and the node stays schedulable', async () => {
    const gateway = createKubeGateway({ kubeconfigPaths: [userKubeconfig(cluster, scratch.dir, READ_ONLY)] });
    try {
      const context = gateway.listContexts()[0]?.name ?? '';
      const error = await gateway.setUnschedulable!(context, NODE, true, timeoutSignal(15_000)).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(error).toBeInstanceOf(KubeRequestError);
      expect((error as KubeRequestError).error).toMatchObject({ kind: 'forbidden', httpStatus: 403, verb: 'patch', resource: 'nodes' });
      expect(unschedulable()).toBe('');
    } finally {
      gateway.dispose();
    }
  });
});
