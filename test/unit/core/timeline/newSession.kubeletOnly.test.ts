// One behaviour for a session without a model (no CRI): its threshold is the kubelet's own 3 min, whatever
// the caller asked for, in the live feed the panel and the CLI both run (infra/timeline/liveFeed.ts) and in
// a session made of saved scrapes. The panel's plegDoctor.timeline.thresholdMs (10 s in the e2e) and the
// CLI's --threshold are the model's only.

import { describe, expect, it } from 'vitest';
import { PLEG_CONSTANTS } from '../../../../src/core/pleg/profiles';
import { kubeletOnlySettings } from '../../../../src/core/timeline/newSession';
import { sessionFromMetricsSeries } from '../../../../src/core/timeline/fromMetrics';
import type { SessionDelta, SessionSettings } from '../../../../src/core/timeline/session';
import type { KubeGateway } from '../../../../src/infra/kube/gateway';
import { runLiveFeed } from '../../../../src/infra/timeline/liveFeed';

const asked: SessionSettings = { relistPeriodMs: 1_000, thresholdMs: 10_000, runtimeRequestTimeoutMs: 30_000, profile: '1.32+', evented: false };

/** A cluster whose Node cannot be read and whose kubelet never answers: enough for the feed's first delta. */
function silentGateway(): KubeGateway {
  const none = { dispose: () => undefined };
  return {
    listContexts: () => [],
    kubeconfigSummary: () => ({ files: [], searched: [] }),
    watchNodes: (context: string) => ({ context, nodes: new Map(), state: { kind: 'connecting' }, onDidChangeNodes: () => none, onDidChangeState: () => none, refresh: () => undefined, dispose: () => undefined }),
    listNodeEvents: () => Promise.resolve([]),
    countPods: () => Promise.resolve(0),
    getNode: () => Promise.reject(new Error('no such node in this fake')),
    nodeProxyGet: () => Promise.resolve({ kind: 'timeout', ms: 1 }),
    dispose: () => undefined,
  } as unknown as KubeGateway;
}

async function firstSettings(connectCri: boolean): Promise<SessionSettings | undefined> {
  const controller = new AbortController();
  const deltas: SessionDelta[] = [];
  const feed = runLiveFeed({
    node: 'n1',
    settings: asked,
    ...(connectCri ? { connectCri: () => Promise.reject(new Error('no runtime in this test')) } : { noCriReason: 'no SSH' }),
    kube: { gateway: silentGateway(), context: 'c', intervalMs: 50 },
    signal: controller.signal,
    onDelta: (d) => {
      deltas.push(d);
      if (d.settings !== undefined) controller.abort();
    },
  });
  await feed;
  return deltas.find((d) => d.settings !== undefined)?.settings;
}

describe('a session without a model keeps the kubelet\'s threshold', () => {
  it('the live feed without CRI states 3m0s although 10 s was asked for', async () => {
    expect((await firstSettings(false))?.thresholdMs).toBe(PLEG_CONSTANTS.relistThresholdMs);
  });

  it('the live feed with CRI (a model) keeps the threshold asked for', async () => {
    expect((await firstSettings(true))?.thresholdMs).toBe(10_000);
  });

  it('kubeletOnlySettings changes the threshold only, and a session from saved scrapes has it', () => {
    expect(kubeletOnlySettings(asked)).toEqual({ ...asked, thresholdMs: 180_000 });
    expect(sessionFromMetricsSeries({ scrapes: [], node: 'n1' }).settings.thresholdMs).toBe(180_000);
  });
});
