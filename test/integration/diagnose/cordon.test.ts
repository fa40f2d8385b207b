// Cordon through the real gateway: one PATCH of spec.unschedulable (strategic merge patch) to the node,
// sent to the API stand-in. The stand-in implements only GET and answers 405 to anything else, so what this
// proves is the request (method, path, body type) and that a refusal comes back as a named error.

import { afterEach, describe, expect, it } from 'vitest';
import { startFakeApiServer } from '../../../src/demo/apiServer/server';
import { makeNode } from '../../../src/demo/nodeFactory';
import { KubeRequestError, createKubeGateway } from '../../../src/infra/kube/createGateway';
import { KubeconfigDir } from '../kube/kubeconfigFiles';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('cordon (setUnschedulable)', () => {
  it('sends PATCH /api/v1/nodes/{name}; a refusal names the verb, the resource and the status', async () => {
    const server = await startFakeApiServer({ nodes: [makeNode({ name: 'node-07' })] });
    cleanups.push(() => server.close());
    const dir = new KubeconfigDir();
    cleanups.push(() => dir.remove());
    const gateway = createKubeGateway({ env: { KUBECONFIG: dir.write('config', [{ name: 'prod', server: server.url }]) } });
    cleanups.push(() => gateway.dispose());
    server.clearRequestLog();
    const error = await gateway.setUnschedulable?.('prod', 'node-07', true).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(server.requestLog).toEqual(['PATCH /api/v1/nodes/node-07']);
    expect(error).toBeInstanceOf(KubeRequestError);
    if (!(error instanceof KubeRequestError)) return;
    expect(error.error.httpStatus).toBe(405);
    expect(error.message).toMatch(/405/u);
  });
});
