// The flap tracker and the verdict log of the cluster session: which nodes get their events fetched (only
// those whose Ready condition changed within the window, once per transition), what a failure does, and
// the "verdict …" log lines a flip writes.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { classifyNode } from '../../../../src/core/classify/classifyNode';
import type { KubeEvent } from '../../../../src/core/kube/objects';
import { NodeTreeModel } from '../../../../src/core/tree/nodeTreeModel';
import type { Logger } from '../../../../src/core/util/logger';
import { ClusterSession } from '../../../../src/host/cluster/clusterSession';
import { FlapTracker } from '../../../../src/host/cluster/flapTracker';
import type { ContextInfo, KubeGateway, WatchState } from '../../../../src/infra/kube/gateway';
import { FakeNodeSource } from '../../../support/fakeNodeSource';
import { makeNode, minutesAgo } from '../../../support/nodeFixtures';

const NOW = new Date('2026-11-22T04:00:00Z');

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const push = (level: string) => (m: string | Error) => void lines.push(`${level} ${m instanceof Error ? m.message : m}`);
  return { lines, trace: push('trace'), debug: push('debug'), info: push('info'), warn: push('warn'), error: push('error') };
}

function flaps(node: string, minutes: number[]): KubeEvent[] {
  return minutes.map((m) => ({ reason: 'NodeNotReady', involvedObject: { kind: 'Node', name: node }, message: `Node ${node} status is now: NodeNotReady`, count: 1, lastTimestamp: minutesAgo(m) }));
}

describe('FlapTracker', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.setSystemTime(NOW);
  });
  afterEach(() => vi.useRealTimers());

  function setup(events: (node: string) => Promise<KubeEvent[]>) {
    const model = new NodeTreeModel({ classify: classifyNode });
    model.setContexts([{ name: 'prod', isCurrent: true }]);
    const source = new FakeNodeSource('prod');
    model.attach(source);
    const asked: string[] = [];
    const gateway = {
      listNodeEvents: (_c: string, node: string) => {
        asked.push(node);
        return events(node);
      },
    } as unknown as KubeGateway;
    const logger = recordingLogger();
    const tracker = new FlapTracker(model, () => gateway, logger, { settleMs: 100 });
    return { model, source, asked, logger, tracker };
  }

  it('fetches events only for nodes whose Ready condition changed in the last 30 min, once per transition', async () => {
    const { model, source, asked, tracker } = setup((node) => Promise.resolve(node === 'b' ? flaps('b', [2, 9, 15]) : []));
    source.list([makeNode('a', { status: 'True', since: minutesAgo(300) }), makeNode('b', { status: 'True', since: minutesAgo(1) }), makeNode('c', { status: 'False', since: minutesAgo(45) })]);
    await vi.advanceTimersByTimeAsync(500);
    expect(asked).toEqual(['b']);
    expect(model.group('prod')!.get('b')?.readyEvents).toHaveLength(3);
    // Another change that leaves b's transition where it was: no new request.
    source.upsert(makeNode('a', { status: 'True', since: minutesAgo(300), heartbeat: minutesAgo(0) }));
    await vi.advanceTimersByTimeAsync(500);
    expect(asked).toEqual(['b']);
    // b flips again: its transition moved, so it is fetched again.
    source.upsert(makeNode('b', { status: 'False', since: minutesAgo(0) }));
    await vi.advanceTimersByTimeAsync(500);
    expect(asked).toEqual(['b', 'b']);
    tracker.dispose();
  });

  it('logs a failed fetch and tries again on the next change in the tree', async () => {
    let fail = true;
    const { source, asked, logger, tracker } = setup(() => (fail ? Promise.reject(new Error('403 Forbidden: cannot list events')) : Promise.resolve([])));
    source.list([makeNode('b', { status: 'True', since: minutesAgo(1) })]);
    await vi.advanceTimersByTimeAsync(500);
    expect(logger.lines).toEqual(['warn events of prod/b (for its flap count): 403 Forbidden: cannot list events']);
    fail = false;
    source.upsert(makeNode('c', { status: 'True', since: minutesAgo(600) }));
    await vi.advanceTimersByTimeAsync(500);
    expect(asked).toEqual(['b', 'b']);
    tracker.dispose();
  });
});

describe('ClusterSession verdict log', () => {
  it('writes one "verdict" line per change, including the first sighting of an unhealthy node', async () => {
    const watches = new Map<string, FakeNodeSource<WatchState>>();
    const info: ContextInfo = { name: 'prod', cluster: 'prod', user: 'u', server: 'https://prod:6443', isCurrent: true };
    const gateway = {
      listContexts: () => [info],
      watchNodes: (c: string) => {
        const w = new FakeNodeSource<WatchState>(c);
        watches.set(c, w);
        return w;
      },
      listNodeEvents: () => Promise.resolve([]),
      dispose: () => undefined,
    } as unknown as KubeGateway;
    const logger = recordingLogger();
    const session = new ClusterSession(classifyNode, () => Promise.resolve(gateway), logger);
    await session.configure({ kubeconfigPaths: [], excludedContexts: [] });
    watches.get('prod')!.list([makeNode('a', { status: 'True' }), makeNode('b', { status: 'Unknown', since: minutesAgo(2) })]);
    watches.get('prod')!.upsert(makeNode('a', { status: 'False', since: minutesAgo(0) }));
    const verdicts = logger.lines.filter((l) => l.startsWith('info verdict '));
    expect(verdicts).toEqual([
      'info verdict prod/b: (first seen) → No heartbeat (Ready=Unknown) Kubelet stopped posting node status.',
      expect.stringMatching(/^info verdict prod\/a: Ready → PLEG \(Ready=False\) PLEG is not healthy: pleg was last seen active 3m46\.752815514s ago; threshold is 3m0s$/),
    ]);
    session.dispose();
  });
});
