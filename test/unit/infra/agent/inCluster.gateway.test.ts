// The agent's gateway (src/cli/commands/agent.ts): the in-memory in-cluster kubeconfig and a client made by
// the agent's own factory (serviceAccountKubeClient in production, never client-node), so a Node read goes
// to the server the kubeconfig names through that client.

import { describe, expect, it } from 'vitest';
import { inClusterKubeconfig, IN_CLUSTER_CONTEXT } from '../../../../src/infra/agent/inCluster';
import { createKubeGateway } from '../../../../src/infra/kube/createGateway';
import type { KubeClient } from '../../../../src/infra/kube/kubeClient';

describe('the agent\u2019s in-cluster gateway', () => {
  it('reads the Node through the client its factory made for the in-cluster context', async () => {
    const made: string[] = [];
    const asked: string[] = [];
    const client: KubeClient = {
      server: 'https://127.0.0.1:6443',
      getText: () => Promise.reject(new Error('not used')),
      getJson: (path) => {
        asked.push(path);
        return Promise.resolve({ metadata: { name: 'worker-1' }, status: { conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'ok' }] } });
      },
      streamLines: () => Promise.reject(new Error('not used')),
    };
    const gateway = createKubeGateway({
      kubeconfigTexts: [{ file: 'in-cluster config', text: inClusterKubeconfig('https://127.0.0.1:6443', { tokenFile: '/sa/token', caFile: '/sa/ca.crt' }) }],
      createClient: (ctx) => {
        made.push(ctx.info.server);
        return Promise.resolve(client);
      },
      env: {},
    });
    try {
      expect(gateway.listContexts().map((c) => c.name)).toEqual([IN_CLUSTER_CONTEXT]);
      const node = await gateway.getNode(IN_CLUSTER_CONTEXT, 'worker-1');
      expect(node.metadata?.name).toBe('worker-1');
      expect(made).toEqual(['https://127.0.0.1:6443']);
      expect(asked).toEqual(['/api/v1/nodes/worker-1']);
    } finally {
      gateway.dispose();
    }
  });
});
