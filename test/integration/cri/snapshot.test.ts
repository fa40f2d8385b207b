// A snapshot over the real containerd lists exactly what exists, and reports a stopped container the way
// the kubelet would see it.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalHost } from '../../support/localHost';
import { unixSocketClient } from '../../../src/infra/cri/transports/unixSocket';
import { snapshotToRuntimePods, takeSnapshot } from '../../../src/infra/cri/snapshot';
import { CriError } from '../../../src/infra/cri/criError';
import type { GrpcCriClient } from '../../../src/infra/cri/criClient';
import { stopContainer } from '../../support/criPods';
import { ctrContainerIds, stack, withTestPod } from './kit';

describe('CRI snapshot against the real node stack', () => {
  const env = stack();
  let client: GrpcCriClient;

  beforeAll(() => {
    client = unixSocketClient(new LocalHost(), env.criSocket, { defaultDeadlineMs: 10_000 });
  });
  afterAll(() => client.close());

  it('reports the runtime and its conditions', async () => {
    const snapshot = await takeSnapshot(client);
    expect(snapshot.errors).toEqual([]);
    expect(snapshot.runtime).toEqual({ name: 'containerd', version: expect.stringMatching(/^1\.6\./) as unknown as string, apiVersion: 'v1' });
    const conditions = Object.fromEntries((snapshot.status?.conditions ?? []).map((c) => [c.type, c.status]));
    expect(conditions).toEqual({ RuntimeReady: true, NetworkReady: true });
    // Every call was timed, and the per-object calls carry the id they were about.
    expect(snapshot.timings.filter((t) => t.method === 'PodSandboxStatus').map((t) => t.id).sort()).toEqual(snapshot.sandboxes.map((s) => s.id).sort());
    expect(snapshot.timings.every((t) => t.ok && t.ms > 0)).toBe(true);
  });

  it('lists exactly the sandboxes and containers containerd has, including a pod created now', async () => {
    const { pod, cleanup } = await withTestPod(env, { hostNetwork: false });
    try {
      const snapshot = await takeSnapshot(client);
      expect(snapshot.errors).toEqual([]);
      const listed = new Set([...snapshot.sandboxes.map((s) => s.id), ...snapshot.containers.map((c) => c.id)]);
      expect(listed).toEqual(ctrContainerIds(env));
      expect(listed.has(pod.sandboxId) && listed.has(pod.containerId)).toBe(true);
      expect(snapshot.sandboxStatuses).toHaveLength(snapshot.sandboxes.length);
      expect(snapshot.containerStatuses).toHaveLength(snapshot.containers.length);

      const status = snapshot.sandboxStatuses.find((s) => s.id === pod.sandboxId);
      expect(status?.metadata).toEqual({ name: pod.spec.name, uid: pod.spec.uid, namespace: 'plegtest', attempt: 0 });
      expect(status?.namespaceOptions?.network).toBe('POD');
      expect(status?.ip).toMatch(/^10\.244\.77\.\d+$/);
      expect(status?.info['processStatus']).toBe('running');

      const runtimePod = snapshotToRuntimePods(snapshot).find((p) => p.uid === pod.spec.uid);
      expect(runtimePod).toEqual({
        uid: pod.spec.uid,
        name: pod.spec.name,
        namespace: 'plegtest',
        ips: [status?.ip],
        sandboxes: [{ id: pod.sandboxId, state: 'running' }],
        containers: [{ id: pod.containerId, state: 'running' }],
      });
    } finally {
      await cleanup();
    }
    const after = await takeSnapshot(client);
    expect(after.sandboxes.some((s) => s.id === pod.sandboxId)).toBe(false);
    expect(new Set([...after.sandboxes.map((s) => s.id), ...after.containers.map((c) => c.id)])).toEqual(ctrContainerIds(env));
  });

  it('shows a stopped container as exited with its exit code, and a removed one as NOT_FOUND', async () => {
    const { pod, admin, cleanup } = await withTestPod(env);
    try {
      // sleep is PID 1 and ignores SIGTERM: a zero grace period means SIGKILL, exit code 137.
      await stopContainer(admin, pod.containerId, 0);
      const snapshot = await takeSnapshot(client);
      const container = snapshot.containers.find((c) => c.id === pod.containerId);
      expect(container?.state).toBe('CONTAINER_EXITED');
      const status = snapshot.containerStatuses.find((c) => c.id === pod.containerId);
      expect(status).toMatchObject({ state: 'CONTAINER_EXITED', exitCode: 137, reason: 'Error' });
      expect(BigInt(status?.finishedAtNs ?? '0')).toBeGreaterThan(BigInt(status?.startedAtNs ?? '0'));
      expect(BigInt(status?.startedAtNs ?? '0')).toBeGreaterThan(0n);
      const exited = await client.listContainers({ filter: { state: 'CONTAINER_EXITED' } });
      expect(exited.map((c) => c.id)).toContain(pod.containerId);
      const running = await client.listContainers({ filter: { state: 'CONTAINER_RUNNING' } });
      expect(running.map((c) => c.id)).not.toContain(pod.containerId);
      expect(snapshotToRuntimePods(snapshot).find((p) => p.uid === pod.spec.uid)?.containers).toEqual([{ id: pod.containerId, state: 'exited' }]);
    } finally {
      await cleanup();
    }
    const error = await client.containerStatus(pod.containerId).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CriError);
    expect(error).toMatchObject({ code: 5, codeName: 'NOT_FOUND', method: 'ContainerStatus' });
  });
});
