import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { classifyNode, plegDurationSeconds } from '../../../../src/core/classify/classifyNode';
import type { KubeNode, NodeCondition } from '../../../../src/core/kube/objects';

const NOW = new Date('2026-11-22T02:45:00Z');

function fixture(name: string): unknown {
  return JSON.parse(readFileSync(new URL(`../../../fixtures/nodes/${name}`, import.meta.url), 'utf8')) as unknown;
}

function nodeWith(ready: NodeCondition | undefined, extra: Partial<KubeNode> = {}, others: NodeCondition[] = []): KubeNode {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: 'n1' },
    ...extra,
    status: { conditions: [...others, ...(ready !== undefined ? [ready] : [])], ...extra.status },
  };
}

const notReady = (message: string, lastTransitionTime = '2026-11-22T02:00:00Z'): NodeCondition => ({
  type: 'Ready',
  status: 'False',
  reason: 'KubeletNotReady',
  message,
  lastHeartbeatTime: '2026-11-22T02:44:50Z',
  lastTransitionTime,
});

describe('classifyNode on fixtures', () => {
  it('NotReady PLEG node with not-ready taints', () => {
    const c = classifyNode(fixture('node-pleg-notready.json') as KubeNode, NOW);
    expect(c).toMatchObject({
      name: 'ip-10-0-1-17.eu-west-1.compute.internal',
      verdict: 'pleg',
      readyStatus: 'False',
      readyReason: 'KubeletNotReady',
      since: '2026-11-22T02:41:07.000Z',
      lastHeartbeat: '2026-11-22T02:44:53.000Z',
      cordoned: false,
      plegLastSeenAgoSeconds: 226.752815514,
      plegThresholdSeconds: 180,
      message: 'PLEG is not healthy: pleg was last seen active 3m46.752815514s ago; threshold is 3m0s',
      summary: 'PLEG not healthy · last relist 3m46s ago (threshold 3m0s)',
      versions: { kubelet: 'v1.29.4', runtime: 'containerd://1.7.13', kernel: '5.15.0-1056-aws', osImage: 'Ubuntu 22.04.4 LTS' },
      pods: { capacity: 110, allocatable: 110 },
      taints: ['node.kubernetes.io/not-ready:NoSchedule', 'node.kubernetes.io/not-ready:NoExecute'],
      pressures: [],
      warnings: [],
    });
  });

  it('cordoned ready node', () => {
    const c = classifyNode(fixture('node-cordoned-ready.json') as KubeNode, NOW);
    expect(c).toMatchObject({ verdict: 'ready', cordoned: true, summary: 'Ready · cordoned', message: 'kubelet is posting ready status. AppArmor enabled' });
    expect(c.errors).toEqual([]);
    expect(c.taints).toEqual(['node.kubernetes.io/unschedulable:NoSchedule']);
    expect(c.plegLastSeenAgoSeconds).toBeUndefined();
  });

  it('lease-lost node with unreachable taints', () => {
    const c = classifyNode(fixture('node-lease-lost.json') as KubeNode, NOW);
    expect(c).toMatchObject({
      verdict: 'lease-lost',
      readyStatus: 'Unknown',
      readyReason: 'NodeStatusUnknown',
      message: 'Kubelet stopped posting node status.',
      summary: 'Kubelet stopped posting status for 1h39m27s',
      taints: ['node.kubernetes.io/unreachable:NoSchedule', 'node.kubernetes.io/unreachable:NoExecute'],
    });
    expect(c.pressures).toEqual([]); // Unknown pressure is not pressure
  });

  it('a node with no conditions is not-ready-other with an explanation, not a crash', () => {
    const c = classifyNode(fixture('node-no-conditions.json') as KubeNode, NOW);
    expect(c).toMatchObject({
      verdict: 'not-ready-other',
      readyStatus: 'missing',
      message: 'The Node has no status conditions: the kubelet has never reported its status.',
      summary: 'No status conditions',
    });
  });

  it('NodeList items', () => {
    const list = fixture('nodelist.json') as { items: KubeNode[] };
    expect(list.items.map((n) => [n.metadata?.name, classifyNode(n, NOW).verdict])).toEqual([
      ['worker-1', 'ready'],
      ['worker-3', 'pleg'],
      ['worker-4', 'network'],
      ['worker-5', 'runtime-down'],
    ]);
    const w3 = classifyNode(list.items[1] as KubeNode, NOW);
    expect(w3.errors.map((e) => e.kind)).toEqual(['runtime-down', 'pleg-stale']);
    expect(w3.plegLastSeenAgoSeconds).toBeCloseTo(1023.143817273, 9);
    const w4 = classifyNode(list.items[2] as KubeNode, NOW);
    expect(w4.networkUnavailable).toBe(true);
    expect(w4.summary).toBe('Network not ready · NetworkUnavailable');
  });
});

describe('verdicts for every Ready form', () => {
  it.each([
    ['PLEG is not healthy: pleg was last seen active 3m4.612899233s ago; threshold is 3m0s', 'pleg'],
    ['EventedPLEG is not healthy: EventedPLEG: pleg event channel capacity is full with 1000 events', 'pleg'],
    ['container runtime is down', 'runtime-down'],
    ['container runtime not ready: RuntimeReady=false reason:NotReady message:x', 'runtime-down'],
    ['container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:cni plugin not initialized', 'network'],
    ['missing node capacity for resources: pods', 'not-ready-other'],
    ['node is shutting down', 'not-ready-other'],
    ['[container runtime is down, PLEG is not healthy: pleg was last seen active 3m3.143817273s ago; threshold is 3m0s]', 'pleg'],
    ['container runtime is down,PLEG is not healthy: pleg was last seen active 3m5s ago; threshold is 3m0s', 'pleg'],
    ['runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:docker: network plugin is not ready: cni config uninitialized,PLEG is not healthy: pleg was last seen active 3m5s ago; threshold is 3m0s', 'pleg'],
    ['something brand new', 'not-ready-other'],
    ['Kubelet stopped posting node status.', 'lease-lost'],
  ])('%s → %s', (message, verdict) => {
    expect(classifyNode(nodeWith(notReady(message)), NOW).verdict).toBe(verdict);
  });

  it('Kubelet never posted node status → lease-lost', () => {
    const c = classifyNode(
      nodeWith({ type: 'Ready', status: 'Unknown', reason: 'NodeStatusNeverUpdated', message: 'Kubelet never posted node status.', lastTransitionTime: '2026-11-22T02:40:00Z' }),
      NOW,
    );
    expect(c.verdict).toBe('lease-lost');
    expect(c.summary).toBe('Kubelet never posted status');
  });

  it('Ready=Unknown keeps the PLEG figures of the last kubelet message', () => {
    const c = classifyNode(
      nodeWith({ type: 'Ready', status: 'Unknown', message: 'PLEG is not healthy: pleg was last seen active 3m4s ago; threshold is 3m0s' }),
      NOW,
    );
    expect(c.verdict).toBe('lease-lost');
    expect(c.plegLastSeenAgoSeconds).toBe(184);
  });
});

describe('startup transients (R2 and "may not have completed yet")', () => {
  const R2 = 'PLEG is not healthy: pleg has yet to be successful';
  const PENDING = 'container runtime status check may not have completed yet';
  const BOTH = `[${PENDING}, ${R2}]`;

  it.each([
    [R2, '2026-11-22T02:44:30Z', 'startup'],
    [R2, '2026-11-22T02:42:00Z', 'startup'], // exactly 3m0s: still the grace period
    [R2, '2026-11-22T02:41:59Z', 'pleg'],
    [R2, '2026-11-22T01:00:00Z', 'pleg'],
    [PENDING, '2026-11-22T02:44:30Z', 'startup'],
    [PENDING, '2026-11-22T02:30:00Z', 'runtime-down'],
    [BOTH, '2026-11-22T02:44:50Z', 'startup'],
    [BOTH, '2026-11-22T02:30:00Z', 'pleg'],
    [`[container runtime is down, ${R2}]`, '2026-11-22T02:44:50Z', 'runtime-down'],
  ])('%s since %s → %s', (message, since, verdict) => {
    const c = classifyNode(nodeWith(notReady(message, since)), NOW);
    expect(c.verdict).toBe(verdict);
    expect(c.warnings).toEqual([]);
  });

  it('R2 sets plegLastSeenAgoSeconds to null (never)', () => {
    const c = classifyNode(nodeWith(notReady(R2, '2026-11-22T02:44:30Z')), NOW);
    expect(c.plegLastSeenAgoSeconds).toBeNull();
    expect(c.plegThresholdSeconds).toBeUndefined();
    expect(c.summary).toBe('Kubelet starting for 30s');
  });

  it('without a transition time it flags (pleg) and says why', () => {
    const c = classifyNode(nodeWith({ type: 'Ready', status: 'False', message: R2 }), NOW);
    expect(c.verdict).toBe('pleg');
    expect(c.warnings.join()).toContain('cannot tell a startup transient');
  });
});

describe('durations', () => {
  it.each([
    ['3m46.752815514s', 226.752815514],
    ['3m0s', 180],
    ['3m0.195184382s', 180.195184382],
    ['1h2m3.5s', 3723.5],
    ['3m0.5s1µs', 180.500001],
    ['3m0.5s1μs', 180.500001],
    ['3m0.5s1us', 180.500001],
    ['250ms', 0.25],
    ['2562047h47m16.854775807s', null],
    ['2562047h0m0s', null],
    ['9999999h0m0s', null],
  ])('%s → %s', (text, seconds) => {
    expect(plegDurationSeconds(text)).toEqual({ seconds });
  });

  it('the max-duration form (old kubelets) reads as never', () => {
    const c = classifyNode(
      nodeWith(notReady('PLEG is not healthy: pleg was last seen active 2562047h47m16.854775807s ago; threshold is 3m0s')),
      NOW,
    );
    expect(c).toMatchObject({ verdict: 'pleg', plegLastSeenAgoSeconds: null, plegThresholdSeconds: 180, summary: 'PLEG not healthy · never relisted' });
  });

  it('an overflowing duration below the never-mark is a warning', () => {
    expect(plegDurationSeconds('99999999999999999999s')).toHaveProperty('error');
    const c = classifyNode(nodeWith(notReady('PLEG is not healthy: pleg was last seen active 99999999999999999999s ago; threshold is 3m0s')), NOW);
    expect(c.verdict).toBe('pleg');
    expect(c.plegLastSeenAgoSeconds).toBeUndefined();
    expect(c.plegThresholdSeconds).toBe(180);
    expect(c.warnings.join()).toMatch(/last seen active.*overflows/u);
    expect(c.summary).toBe('PLEG not healthy · last relist 99999999999999999999s ago');
  });
});

describe('bad input gives warnings, never exceptions', () => {
  it('duplicate Ready conditions: the latest heartbeat wins, with a warning', () => {
    const c = classifyNode(
      nodeWith(undefined, {}, [
        { type: 'Ready', status: 'True', message: 'kubelet is posting ready status', lastHeartbeatTime: '2026-11-22T02:00:00Z' },
        notReady('container runtime is down'),
      ]),
      NOW,
    );
    expect(c.verdict).toBe('runtime-down');
    expect(c.warnings).toEqual(['2 Ready conditions; using the one with the latest heartbeat']);
  });

  it('missing Ready among other conditions', () => {
    const c = classifyNode(nodeWith(undefined, {}, [{ type: 'DiskPressure', status: 'True' }]), NOW);
    expect(c).toMatchObject({ verdict: 'not-ready-other', readyStatus: 'missing', pressures: ['DiskPressure'], summary: 'No Ready condition · DiskPressure' });
    expect(c.warnings).toContain('no Ready condition among status.conditions');
  });

  it('invalid status, timestamps, pods and unschedulable', () => {
    const c = classifyNode(
      {
        metadata: { name: 'x' },
        spec: { unschedulable: 'yes' as unknown as boolean },
        status: {
          capacity: { pods: 'lots' },
          conditions: [{ type: 'Ready', status: 'Maybe', lastTransitionTime: 'yesterday' }],
        },
      },
      NOW,
    );
    expect(c.verdict).toBe('not-ready-other');
    expect(c.cordoned).toBe(false);
    expect(c.since).toBeUndefined();
    expect(c.warnings).toEqual([
      'spec.unschedulable is not a boolean: "yes"',
      'status.capacity.pods is not a whole number: "lots"',
      'Ready condition has an invalid status "Maybe"',
      'the Ready lastTransitionTime is not a valid timestamp: "yesterday"',
    ]);
  });

  it('lower-case status is read, with a warning', () => {
    const c = classifyNode(nodeWith({ type: 'Ready', status: 'true' }), NOW);
    expect(c.verdict).toBe('ready');
    expect(c.warnings[0]).toContain('not spelled as Kubernetes does');
  });

  it.each([null, undefined, 42, 'node', [], [1, 2], { status: { conditions: 'nope' } }, { metadata: 7 }, { kind: 'Pod', metadata: { name: 'p' } }])(
    '%j',
    (input) => {
      const c = classifyNode(input as KubeNode, NOW);
      expect(c.verdict).toBe('not-ready-other');
      expect(c.warnings.length).toBeGreaterThan(0);
    },
  );

  it('accepts Date objects (client-node) for timestamps', () => {
    const c = classifyNode(nodeWith({ type: 'Ready', status: 'True', lastTransitionTime: new Date('2026-11-01T00:00:00Z') }), NOW);
    expect(c.since).toBe('2026-11-01T00:00:00.000Z');
  });

  it('an empty Ready message gets an explanation', () => {
    const c = classifyNode(nodeWith({ type: 'Ready', status: 'False', reason: 'KubeletNotReady' }), NOW);
    expect(c.message).toBe('Ready=False with no message (reason KubeletNotReady).');
    expect(c.summary).toBe('NotReady · KubeletNotReady');
  });
});

describe('flags', () => {
  it('pressures, NetworkUnavailable and taints with values', () => {
    const c = classifyNode(
      nodeWith(
        { type: 'Ready', status: 'True', message: 'kubelet is posting ready status' },
        { spec: { unschedulable: true, taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }, { key: 'bare' }, { value: 'nokey' }] } },
        [
          { type: 'MemoryPressure', status: 'True' },
          { type: 'PIDPressure', status: 'True' },
          { type: 'DiskPressure', status: 'False' },
          { type: 'NetworkUnavailable', status: 'True' },
        ],
      ),
      NOW,
    );
    expect(c.verdict).toBe('ready');
    expect(c.pressures).toEqual(['MemoryPressure', 'PIDPressure']);
    expect(c.taints).toEqual(['dedicated=gpu:NoSchedule', 'bare']);
    expect(c.summary).toBe('Ready · cordoned · MemoryPressure · PIDPressure · NetworkUnavailable');
  });

  it('NetworkUnavailable=True makes a Ready=False node with no kubelet error `network`', () => {
    const c = classifyNode(nodeWith(notReady(''), {}, [{ type: 'NetworkUnavailable', status: 'True' }]), NOW);
    expect(c.verdict).toBe('network');
  });
});

describe('summary lines', () => {
  it.each([
    ['PLEG is not healthy: pleg has yet to be successful', '2026-11-22T02:00:00Z', 'PLEG not healthy · no successful relist since kubelet start for 45m0s'],
    ['EventedPLEG is not healthy: EventedPLEG: pleg event channel capacity is full with 1000 events', '2026-11-22T02:00:00Z', 'EventedPLEG not healthy · event channel full'],
    ['container runtime is down', '2026-11-22T02:00:00Z', 'Container runtime down'],
    ['container runtime not ready: RuntimeReady=false reason:x message:y', '2026-11-22T02:00:00Z', 'Container runtime not ready'],
    ['container runtime status check may not have completed yet', '2026-11-22T02:00:00Z', 'Container runtime never answered its status check for 45m0s'],
    ['container runtime network not ready: NetworkReady=false', '2026-11-22T02:00:00Z', 'Network not ready'],
    ['node is shutting down', '2026-11-22T02:00:00Z', 'Node shutting down'],
    ['missing node capacity for resources: pods', '2026-11-22T02:00:00Z', 'NotReady · missing node capacity'],
    ['PLEG is not healthy: pleg was last seen active 1h2m3.9s ago; threshold is 3m0s', '2026-11-22T02:00:00Z', 'PLEG not healthy · last relist 1h2m3s ago (threshold 3m0s)'],
  ])('%s', (message, since, summary) => {
    expect(classifyNode(nodeWith(notReady(message, since)), NOW).summary).toBe(summary);
  });
});
