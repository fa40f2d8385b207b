// Builders for Node objects and classifications used by the tree tests.

import type { NodeClassification } from '../../src/core/classify/types';
import type { KubeNode, NodeCondition } from '../../src/core/kube/objects';

export const NOW = new Date('2026-11-22T04:00:00Z');

export function minutesAgo(minutes: number): string {
  return new Date(NOW.getTime() - minutes * 60_000).toISOString();
}

export const PLEG_MESSAGE = 'PLEG is not healthy: pleg was last seen active 3m46.752815514s ago; threshold is 3m0s';

export function makeNode(
  name: string,
  ready: { status: 'True' | 'False' | 'Unknown'; reason?: string; message?: string; since?: string; heartbeat?: string },
  extra: { unschedulable?: boolean; conditions?: NodeCondition[] } = {},
): KubeNode {
  return {
    kind: 'Node',
    metadata: { name, uid: `uid-${name}` },
    spec: extra.unschedulable === undefined ? {} : { unschedulable: extra.unschedulable },
    status: {
      conditions: [
        ...(extra.conditions ?? []),
        {
          type: 'Ready',
          status: ready.status,
          reason: ready.reason ?? (ready.status === 'True' ? 'KubeletReady' : ready.status === 'False' ? 'KubeletNotReady' : 'NodeStatusUnknown'),
          message: ready.message ?? (ready.status === 'True' ? 'kubelet is posting ready status' : ready.status === 'False' ? PLEG_MESSAGE : 'Kubelet stopped posting node status.'),
          lastTransitionTime: ready.since ?? minutesAgo(60),
          lastHeartbeatTime: ready.heartbeat ?? minutesAgo(0),
        },
      ],
      nodeInfo: { kubeletVersion: 'v1.32.0', containerRuntimeVersion: 'containerd://1.7.24', kernelVersion: '6.1.0-28-amd64', osImage: 'Debian GNU/Linux 12 (bookworm)' },
      capacity: { pods: '110' },
      allocatable: { pods: '110' },
    },
  };
}

export function classification(overrides: Partial<NodeClassification> & { name: string }): NodeClassification {
  return {
    verdict: 'ready',
    summary: '',
    message: 'kubelet is posting ready status',
    readyStatus: 'True',
    cordoned: false,
    pressures: [],
    errors: [],
    versions: {},
    pods: {},
    taints: [],
    warnings: [],
    ...overrides,
  };
}

/**
 * node-problem-detector's PLEGAtRisk condition with the fields NPD writes (problemclient SetConditions:
 * type, status, lastHeartbeatTime, lastTransitionTime, reason, message) and the reasons and message forms
 * of deploy/node-problem-detector/pleg-doctor-monitor.json and `pleg-doctor npd-plugin`.
 */
export function atRiskCondition(status: 'True' | 'False' | 'Unknown', at: { since: string; heartbeat?: string; message?: string }): NodeCondition {
  return {
    type: 'PLEGAtRisk',
    status,
    lastHeartbeatTime: at.heartbeat ?? at.since,
    lastTransitionTime: at.since,
    reason: status === 'True' ? 'NotReadyPredicted' : 'NoNotReadyPredicted',
    message: at.message ?? (status === 'True' ? 'NotReady predicted in 1m35s: runtime-hung' : 'pleg-doctor predicts no PLEG NotReady'),
  };
}
