// The debug pod's requests through the real gateway (its context, deadline and error mapping) to a recording
// client: the REST paths and bodies core/v1 and apps/v1 take, a 404 as "not there", any other failure as a
// KubeRequestError naming verb and resource. The same requests meet the real API server in
// test/integration/realk8s/debugPod.test.ts.

import { describe, expect, it } from 'vitest';
import { inClusterKubeconfig, IN_CLUSTER_CONTEXT } from '../../../../src/infra/agent/inCluster';
import { createKubeGateway, KubeRequestError } from '../../../../src/infra/kube/createGateway';
import { KubeHttpError } from '../../../../src/infra/kube/errors';
import type { KubeClient, TextRequestOptions } from '../../../../src/infra/kube/kubeClient';

interface Sent {
  method: string;
  path: string;
  query?: unknown;
  body?: unknown;
  accept?: string;
}

function setup(answer: (sent: Sent) => unknown) {
  const sent: Sent[] = [];
  const reply = (s: Sent): Promise<unknown> => {
    sent.push(s);
    try {
      return Promise.resolve(answer(s));
    } catch (err) {
      return Promise.reject(err);
    }
  };
  const client: KubeClient = {
    server: 'https://127.0.0.1:6443',
    getText: (path, options: TextRequestOptions) => reply({ method: 'GET', path, ...(options.accept !== undefined ? { accept: options.accept } : {}) }) as never,
    getJson: (path, query) => reply({ method: 'GET', path, query }),
    postJson: (path, body) => reply({ method: 'POST', path, body: JSON.parse(body) }),
    deleteJson: (path, body) => reply({ method: 'DELETE', path, body: body !== undefined ? JSON.parse(body) : undefined }),
    streamLines: () => Promise.reject(new Error('not used')),
  };
  const gateway = createKubeGateway({
    kubeconfigTexts: [{ file: 'test', text: inClusterKubeconfig('https://127.0.0.1:6443', { tokenFile: '/t', caFile: '/c' }) }],
    createClient: () => Promise.resolve(client),
    env: {},
  });
  gateway.listContexts();
  const api = gateway.podsApi?.(IN_CLUSTER_CONTEXT);
  if (api === undefined) throw new Error('no podsApi');
  return { api, sent, gateway };
}

const notFound = (): never => {
  throw new KubeHttpError(404, JSON.stringify({ kind: 'Status', code: 404, reason: 'NotFound', message: 'pods "x" not found' }), 'u');
};

describe('podsApi through the gateway', () => {
  it('creates, reads, reads the log (no text/plain: the API server answers 406 to it), deletes with grace 0', async () => {
    const pod = { metadata: { name: 'p', namespace: 'ns', creationTimestamp: '2026-11-28T13:00:00Z' }, spec: { nodeName: 'n1', activeDeadlineSeconds: 60 }, status: { phase: 'Failed', reason: 'DeadlineExceeded', containerStatuses: [{ name: 'snapshot', state: { terminated: { exitCode: 137, reason: 'Error' } } }] } };
    const { api, sent, gateway } = setup((s) => (s.path.endsWith('/log?container=snapshot') ? { status: 200, body: 'the log' } : pod));
    try {
      expect(await api.createPod('ns', { kind: 'Pod' })).toMatchObject({ name: 'p', node: 'n1', phase: 'Failed', reason: 'DeadlineExceeded', activeDeadlineSeconds: 60 });
      expect((await api.getPod('ns', 'p'))?.containers).toEqual([{ name: 'snapshot', terminated: { exitCode: 137, reason: 'Error' } }]);
      expect(await api.readPodLog('ns', 'p', 'snapshot', { maxBytes: 1000 })).toBe('the log');
      expect(await api.deletePod('ns', 'p', 0)).toBe(true);
      expect(sent).toEqual([
        { method: 'POST', path: '/api/v1/namespaces/ns/pods', body: { kind: 'Pod' } },
        { method: 'GET', path: '/api/v1/namespaces/ns/pods/p', query: {} },
        { method: 'GET', path: '/api/v1/namespaces/ns/pods/p/log?container=snapshot' },
        { method: 'DELETE', path: '/api/v1/namespaces/ns/pods/p', body: { kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 0, propagationPolicy: 'Background' } },
      ]);
    } finally {
      gateway.dispose();
    }
  });

  it("the gateway's listPods is the same list, with a field selector, as the API server sent it (the agent pick reads labels and readiness)", async () => {
    const item = { metadata: { name: 'agent-1', namespace: 'pleg-doctor', labels: { app: 'x' } }, status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } };
    const { sent, gateway } = setup(() => ({ items: [item] }));
    try {
      expect(await gateway.listPods?.(IN_CLUSTER_CONTEXT, 'pleg-doctor', { labelSelector: 'app=x', fieldSelector: 'spec.nodeName=n1' })).toEqual([item]);
      expect(sent).toEqual([{ method: 'GET', path: '/api/v1/namespaces/pleg-doctor/pods', query: { labelSelector: 'app=x', fieldSelector: 'spec.nodeName=n1', limit: 500 } }]);
    } finally {
      gateway.dispose();
    }
  });

  it('404 is "not there" for get, delete and the DaemonSet; lists go by label and field selectors', async () => {
    const { api, sent, gateway } = setup((s) => (s.method === 'GET' && (s.path.endsWith('/pods') || s.path.endsWith('/events')) ? { items: [{ metadata: { name: 'a', namespace: 'ns' } }] } : notFound()));
    try {
      expect(await api.getPod('ns', 'x')).toBeUndefined();
      expect(await api.deletePod('ns', 'x', 0)).toBe(false);
      expect(await api.daemonSetImages('ns', 'pleg-doctor-agent')).toBeUndefined();
      expect((await api.listPods('ns', 'a=b')).map((p) => p.name)).toEqual(['a']);
      await api.podEvents('ns', 'x');
      expect(sent.map((s) => [s.path, s.query])).toEqual([
        ['/api/v1/namespaces/ns/pods/x', {}],
        ['/api/v1/namespaces/ns/pods/x', undefined],
        ['/apis/apps/v1/namespaces/ns/daemonsets/pleg-doctor-agent', {}],
        ['/api/v1/namespaces/ns/pods', { labelSelector: 'a=b', limit: 500 }],
        ['/api/v1/namespaces/ns/events', { fieldSelector: 'involvedObject.kind=Pod,involvedObject.name=x', limit: 100 }],
      ]);
    } finally {
      gateway.dispose();
    }
  });

  it('a refusal is a KubeRequestError naming the verb and resource; a log answer that is not 2xx too', async () => {
    const forbidden = JSON.stringify({ kind: 'Status', code: 403, message: 'pods "p" is forbidden: violates PodSecurity "baseline:latest": host namespaces (hostNetwork=true)' });
    const { api, gateway } = setup((s) => {
      if (s.path.includes('/log')) return { status: 400, body: JSON.stringify({ kind: 'Status', code: 400, message: 'container "snapshot" in pod "p" is waiting to start: ContainerCreating' }) };
      throw new KubeHttpError(403, forbidden, 'u');
    });
    try {
      const create = await api.createPod('ns', {}).catch((e: unknown) => e);
      expect(create).toBeInstanceOf(KubeRequestError);
      expect((create as KubeRequestError).error).toMatchObject({ kind: 'forbidden', verb: 'create', resource: 'pods', detail: expect.stringContaining('violates PodSecurity') as unknown });
      const log = await api.readPodLog('ns', 'p', 'snapshot', { maxBytes: 1000 }).catch((e: unknown) => e);
      expect((log as KubeRequestError).error.message).toMatch(/HTTP 400 for "get pods\/log": container "snapshot" in pod "p" is waiting to start/);
    } finally {
      gateway.dispose();
    }
  });
});
