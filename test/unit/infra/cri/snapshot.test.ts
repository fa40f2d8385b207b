// Snapshot assembly over a scripted CriReader: parallel bound, error collection, findings, and the
// conversion to the PLEG model's RuntimePod.

import { describe, expect, it } from 'vitest';
import { takeSnapshot, snapshotToRuntimePods, findingsOf } from '../../../../src/infra/cri/snapshot';
import { boundedMap } from '../../../../src/infra/cri/boundedMap';
import { CriError } from '../../../../src/infra/cri/criError';
import type { CriCallTiming, CriReader } from '../../../../src/infra/cri/reader';
import type { CriContainer, CriPodSandbox } from '../../../../src/core/parse/criTypes';

const sandbox = (id: string, uid: string, state: CriPodSandbox['state'] = 'SANDBOX_READY'): CriPodSandbox => ({
  id,
  metadata: { name: `pod-${uid}`, uid, namespace: 'ns', attempt: 0 },
  state,
  createdAtNs: '1',
  labels: {},
  annotations: {},
  runtimeHandler: '',
});
const container = (id: string, podSandboxId: string, state: CriContainer['state'], labels: Record<string, string> = {}): CriContainer => ({
  id,
  podSandboxId,
  metadata: { name: 'c', attempt: 0 },
  image: 'i',
  imageRef: 'r',
  state,
  createdAtNs: '1',
  labels,
  annotations: {},
});

function scripted(sandboxes: CriPodSandbox[], containers: CriContainer[], hangSandbox?: string): CriReader & { maxInFlight: number } {
  const listeners = new Set<(t: CriCallTiming) => void>();
  let inFlight = 0;
  const reader = {
    description: 'scripted',
    maxInFlight: 0,
    onCall: (l: (t: CriCallTiming) => void) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    close: () => undefined,
    version: () => Promise.resolve({ version: '0.1.0', runtimeName: 'fake', runtimeVersion: '1', runtimeApiVersion: 'v1' }),
    status: () => Promise.resolve({ conditions: [{ type: 'RuntimeReady', status: true, reason: '', message: '' }], info: {} }),
    listPodSandbox: () => Promise.resolve(sandboxes),
    listContainers: () => Promise.resolve(containers),
    listContainerStats: () => Promise.resolve([]),
    podSandboxStatus: async (id: string) => {
      inFlight++;
      reader.maxInFlight = Math.max(reader.maxInFlight, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight--;
      if (id === hangSandbox) throw new CriError(4, 'no reply within the 100 ms deadline (client-side)', 'PodSandboxStatus', 100);
      const s = sandboxes.find((x) => x.id === id) as CriPodSandbox;
      return { ...s, ip: '10.0.0.1', additionalIps: [], info: { processStatus: 'running' } };
    },
    containerStatus: (id: string) => {
      const c = containers.find((x) => x.id === id) as CriContainer;
      return Promise.resolve({ ...c, startedAtNs: '2', finishedAtNs: '0', exitCode: 0, reason: '', message: '', logPath: '', info: {} });
    },
  };
  return reader;
}

describe('takeSnapshot', () => {
  it('bounds the per-sandbox calls and turns a timed-out shim call into a hungShim finding', async () => {
    const sandboxes = Array.from({ length: 12 }, (_, i) => sandbox(`s${i}`, `u${i}`));
    const reader = scripted(sandboxes, [container('c0', 's0', 'CONTAINER_RUNNING')], 's3');
    const snapshot = await takeSnapshot(reader, { concurrency: 3, deadlineMs: 100, now: () => new Date('2026-01-01T00:00:00Z') });
    expect(reader.maxInFlight).toBe(3);
    expect(snapshot.time).toBe('2026-01-01T00:00:00.000Z');
    expect(snapshot.sandboxStatuses).toHaveLength(11);
    expect(snapshot.errors).toEqual([{ method: 'PodSandboxStatus', id: 's3', code: 4, codeName: 'DEADLINE_EXCEEDED', message: 'no reply within the 100 ms deadline (client-side)', ms: 100 }]);
    expect(snapshot.findings).toEqual([expect.objectContaining({ kind: 'hungShim', sandboxId: 's3', podName: 'pod-u3', podNamespace: 'ns' })]);
  });

  it('a runtime that does not answer the list calls is unresponsive, not a hung shim', () => {
    const errors = ['Version', 'ListPodSandbox', 'ListContainers'].map((method) => ({ method, code: 4, codeName: 'DEADLINE_EXCEEDED', message: 'x', ms: 100 }));
    expect(findingsOf({ errors, timings: [], sandboxes: [], sandboxStatuses: [] }, 100)).toEqual([
      expect.objectContaining({ kind: 'runtimeUnresponsive', methods: ['Version', 'ListPodSandbox', 'ListContainers'] }),
    ]);
  });

  it('a runtime that refuses the list calls is unreachable', () => {
    const errors = ['Version', 'ListPodSandbox'].map((method) => ({ method, code: 14, codeName: 'UNAVAILABLE', message: 'connect /run/x.sock: ECONNREFUSED', ms: 1 }));
    expect(findingsOf({ errors, timings: [], sandboxes: [], sandboxStatuses: [] }, 100)).toEqual([
      {
        kind: 'runtimeUnreachable',
        methods: ['Version', 'ListPodSandbox'],
        message: 'the runtime could not be asked (UNAVAILABLE: connect /run/x.sock: ECONNREFUSED): it is not running, or the transport to its socket failed',
      },
    ]);
  });

  it('reports slow successful calls', () => {
    const timings = [{ method: 'ListPodSandbox', ms: 1500, ok: true }];
    expect(findingsOf({ errors: [], timings, sandboxes: [], sandboxStatuses: [] }, 5000)).toEqual([expect.objectContaining({ kind: 'slowCalls', methods: ['ListPodSandbox'] })]);
  });
});

describe('snapshotToRuntimePods', () => {
  it('groups by pod UID, maps states, keeps sandbox-less containers by their pod labels', () => {
    const pods = snapshotToRuntimePods({
      sandboxes: [sandbox('s1', 'u1'), sandbox('s1b', 'u1', 'SANDBOX_NOTREADY'), sandbox('s2', 'u2')],
      containers: [
        container('c1', 's1', 'CONTAINER_RUNNING'),
        container('c2', 's1b', 'CONTAINER_EXITED'),
        container('c3', 'gone', 'CONTAINER_UNKNOWN', { 'io.kubernetes.pod.uid': 'u3', 'io.kubernetes.pod.name': 'orphan', 'io.kubernetes.pod.namespace': 'ns3' }),
      ],
      sandboxStatuses: [{ ...sandbox('s1', 'u1'), ip: '10.1.1.1', additionalIps: ['fd00::1'], info: {} }],
    });
    expect(pods).toEqual([
      {
        uid: 'u1',
        name: 'pod-u1',
        namespace: 'ns',
        ips: ['10.1.1.1', 'fd00::1'],
        sandboxes: [
          { id: 's1', state: 'running' },
          { id: 's1b', state: 'exited' },
        ],
        containers: [
          { id: 'c1', state: 'running' },
          { id: 'c2', state: 'exited' },
        ],
      },
      { uid: 'u2', name: 'pod-u2', namespace: 'ns', sandboxes: [{ id: 's2', state: 'running' }], containers: [] },
      { uid: 'u3', name: 'orphan', namespace: 'ns3', sandboxes: [], containers: [{ id: 'c3', state: 'unknown' }] },
    ]);
  });
});

describe('boundedMap', () => {
  it('keeps order, settles every item and rejects a bad limit', async () => {
    const results = await boundedMap([3, 1, 2], 2, async (n) => {
      await new Promise((resolve) => setTimeout(resolve, n));
      if (n === 1) throw new Error('one');
      return n * 10;
    });
    expect(results).toEqual([{ ok: true, value: 30 }, { ok: false, error: new Error('one') }, { ok: true, value: 20 }]);
    await expect(boundedMap([1], 0, () => Promise.resolve(1))).rejects.toThrow(RangeError);
    expect(await boundedMap([], 4, () => Promise.resolve(1))).toEqual([]);
  });
});
