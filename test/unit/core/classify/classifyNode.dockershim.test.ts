// Every Ready message form a real kubelet 1.22.4 with dockershim posted while its dockerd was stopped
// (test/fixtures/k8s-1.22-fault/*ready.log, read verbatim): the tree must say what the Node says.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { classifyNode } from '../../../../src/core/classify/classifyNode';
import type { KubeNode } from '../../../../src/core/kube/objects';

const DIR = join(__dirname, '../../../fixtures/k8s-1.22-fault');
const NOW = new Date('2026-11-28T03:10:00Z');

/** Each distinct `status|reason|message` the polls saw, in the order first seen. */
function forms(): { status: string; reason: string; message: string }[] {
  const seen = new Map<string, { status: string; reason: string; message: string }>();
  for (const file of ['run1-ready.log', 'ready.log', 'run3-rrt2m-ready.log']) {
    for (const line of readFileSync(join(DIR, file), 'utf8').split('\n')) {
      const m = /^\d\d:\d\d:\d\d (?:before|\+\d+s) (True|False|Unknown)\|([^|]*)\|(.*)$/u.exec(line);
      if (m !== null && !seen.has(line.slice(line.indexOf(' ', 9) + 1))) seen.set(line.slice(line.indexOf(' ', 9) + 1), { status: m[1] ?? '', reason: m[2] ?? '', message: m[3] ?? '' });
    }
  }
  return [...seen.values()];
}

function node(status: string, reason: string, message: string): KubeNode {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: 'k122-node' },
    status: {
      conditions: [{ type: 'Ready', status, reason, message, lastHeartbeatTime: '2026-11-28T03:00:53Z', lastTransitionTime: '2026-11-28T02:57:53Z' }],
      nodeInfo: { kubeletVersion: 'v1.22.4+k3s1', containerRuntimeVersion: 'docker://20.10.24+dfsg1' },
    },
  } as KubeNode;
}

const RUNTIME_NOT_READY = 'container runtime not ready: RuntimeReady=false reason:DockerDaemonNotReady message:docker: failed to get docker version: operation timeout: context deadline exceeded';

describe('the Ready messages of a real dockershim kubelet whose dockerd is stopped', () => {
  const all = forms();

  it('the fixtures hold the five forms the issue names', () => {
    expect(all.map((f) => f.message)).toEqual([
      'kubelet is posting ready status',
      `[container runtime is down, ${RUNTIME_NOT_READY}]`,
      '[container runtime is down, PLEG is not healthy: pleg was last seen active 3m53.056047513s ago; threshold is 3m0s, ' + RUNTIME_NOT_READY + ']',
      'container runtime is down',
      '[container runtime is down, PLEG is not healthy: pleg was last seen active 3m57.082898342s ago; threshold is 3m0s]',
      '[container runtime is down, PLEG is not healthy: pleg was last seen active 4m57.024806412s ago; threshold is 3m0s, ' + RUNTIME_NOT_READY + ']',
    ]);
  });

  it.each(all.map((f) => [f.message, f] as const))('%s', (_m, f) => {
    const c = classifyNode(node(f.status, f.reason, f.message), NOW);
    expect(c.warnings).toEqual([]);
    expect(c.errors.filter((e) => e.kind === 'other')).toEqual([]);
    if (f.status === 'True') {
      expect(c.verdict).toBe('ready');
      return;
    }
    const pleg = /pleg was last seen active (\S+) ago/u.exec(f.message);
    if (pleg !== null) {
      expect(c.verdict).toBe('pleg');
      expect(c.errors.find((e) => e.kind === 'pleg-stale')).toMatchObject({ lastSeenAgo: pleg[1], threshold: '3m0s' });
      expect(c.plegThresholdSeconds).toBe(180);
    } else {
      expect(c.verdict).toBe('runtime-down');
    }
    expect(c.errors[0]).toEqual({ kind: 'runtime-down', text: 'container runtime is down' });
    if (f.message.includes('RuntimeReady=false')) {
      // The open-ended "not ready" error runs to the end, without the aggregate's closing bracket.
      expect(c.errors.at(-1)).toEqual({ kind: 'runtime-not-ready', text: RUNTIME_NOT_READY });
    }
  });
});
