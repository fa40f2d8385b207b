// Without SSH the live feed runs on the kubelet's metrics and the Ready condition alone, through a real
// HTTP API server (the loopback stand-in) and the real Kubernetes client: a scrape that hangs past its
// deadline is recorded as 'hung', a 403 as 'forbidden' with what is missing, Ready changes as they happen.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { KubeNode } from '../../../src/core/kube/objects';
import { newTimelineSession } from '../../../src/core/timeline/newSession';
import { applySessionDelta } from '../../../src/core/timeline/session';
import { startFakeApiServer, type NodeProxyAnswer } from '../../../src/demo/apiServer/server';
import { createKubeGateway } from '../../../src/infra/kube/createGateway';
import { runLiveFeed } from '../../../src/infra/timeline/liveFeed';
import { KubeconfigDir } from '../kube/kubeconfigFiles';

const METRICS = readFileSync(join(__dirname, '../../fixtures/real-kubelet-1.32/metrics-healthy.txt'), 'utf8');
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const node = (ready: 'True' | 'False', message: string): KubeNode => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name: 'n1', uid: 'n1-uid', resourceVersion: '1' },
  status: {
    conditions: [{ type: 'Ready', status: ready, reason: ready === 'True' ? 'KubeletReady' : 'KubeletNotReady', message }],
    nodeInfo: { kubeletVersion: 'v1.26.15' },
    capacity: { pods: '58' },
  },
});

describe('live feed without SSH', () => {
  it('scrapes, marks hung and forbidden scrapes, follows Ready, and says what it lacks', async () => {
    const server = await startFakeApiServer({ nodes: [node('True', 'kubelet is posting ready status')] });
    cleanups.push(() => server.close());
    let mode: 'ok' | 'hang' | 'forbidden' = 'ok';
    server.setNodeProxy((_node, path): NodeProxyAnswer | Promise<NodeProxyAnswer> | undefined => {
      if (path !== '/metrics') return undefined;
      if (mode === 'forbidden') return { status: 403, body: '{"kind":"Status","code":403}' };
      if (mode === 'hang') return new Promise((resolve) => setTimeout(() => resolve({ body: METRICS }), 1_500));
      return { body: METRICS.replace(/^kubelet_pleg_last_seen_seconds \S+$/mu, `kubelet_pleg_last_seen_seconds ${Math.floor(Date.now() / 1000) - 2}`) };
    });
    const dir = new KubeconfigDir();
    cleanups.push(() => dir.remove());
    const gateway = createKubeGateway({ env: { KUBECONFIG: dir.write('config', [{ name: 'prod', server: server.url }]) } });
    cleanups.push(() => gateway.dispose());
    // The client loads on its first call; the editor's gateway is warm by the time a panel opens.
    await gateway.getNode('prod', 'n1');

    const settings = { relistPeriodMs: 1_000, thresholdMs: 180_000, runtimeRequestTimeoutMs: 120_000, profile: '1.32+' as const, evented: false };
    const session = newTimelineSession({ node: 'n1', context: 'prod', source: 'live', startedAt: new Date(), settings });
    const controller = new AbortController();
    cleanups.push(() => controller.abort());
    const done = runLiveFeed({ node: 'n1', settings, signal: controller.signal, onDelta: (d) => applySessionDelta(session, d), kube: { gateway, context: 'prod', intervalMs: 200, timeoutMs: 800 } });
    const waitFor = async (what: string, cond: () => boolean): Promise<void> => {
      const until = Date.now() + 15_000;
      while (!cond()) {
        if (Date.now() > until) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(session.kubelet.slice(-2))}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    await waitFor('two scrapes', () => session.kubelet.filter((k) => k.scrape === 'ok').length >= 2);
    // The node's kubelet version picks the model profile; its capacity is the projection's pod count.
    expect(session.kubeletVersion).toBe('v1.26.15');
    expect(session.settings).toMatchObject({ profile: '1.26-1.31', maxPods: 58 });
    expect(session.lacks.join(' ')).toMatch(/no SSH access/u);
    expect(session.ready).toEqual([expect.objectContaining({ status: 'True', reason: 'KubeletReady' })]);
    const ok = session.kubelet.find((k) => k.scrape === 'ok');
    expect(ok?.lastSeenAgeS).toBeGreaterThanOrEqual(1);
    expect(ok?.lastSeenAgeS).toBeLessThan(5);
    expect(ok?.runningPods).toBe(4);

    mode = 'hang';
    await waitFor('a hung scrape', () => session.kubelet.some((k) => k.scrape === 'hung'));
    expect(session.kubelet.find((k) => k.scrape === 'hung')?.detail).toBe('/metrics gave no answer within 800 ms');

    mode = 'forbidden';
    server.upsertNode({ ...node('False', 'PLEG is not healthy: pleg was last seen active 3m3.1s ago; threshold is 3m0s'), metadata: { name: 'n1', uid: 'n1-uid', resourceVersion: '2' } });
    await waitFor('forbidden and NotReady', () => session.kubelet.some((k) => k.scrape === 'forbidden') && session.ready.length === 2);
    expect(session.ready[1]).toMatchObject({ status: 'False', reason: 'KubeletNotReady' });
    expect(session.lacks.join(' ')).toMatch(/needs get on nodes\/proxy/u);
    expect(session.relists).toEqual([]);
    controller.abort();
    await done;
  });
});
