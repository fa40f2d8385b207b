// One SIGSTOPped containerd-shim: List* calls are served from containerd's memory and stay fast, while
// the shim-backed verbose PodSandboxStatus and ListContainerStats time out. The snapshot names the pod.

import { describe, expect, it } from 'vitest';
import { LocalHost } from '../../support/localHost';
import { unixSocketClient } from '../../../src/infra/cri/transports/unixSocket';
import { takeSnapshot } from '../../../src/infra/cri/snapshot';
import { shimPidFor, stack, waitForState, withTestPod } from './kit';

const DEADLINE_MS = 2_000;

describe('hung shim (one containerd-shim-runc-v2 SIGSTOPped)', () => {
  const env = stack();

  it('is detected through verbose PodSandboxStatus and ListContainerStats while List* stay fast', async () => {
    const { pod, cleanup } = await withTestPod(env);
    const client = unixSocketClient(new LocalHost(), env.criSocket, { defaultDeadlineMs: DEADLINE_MS });
    const shim = shimPidFor(pod.sandboxId);
    try {
      process.kill(shim, 'SIGSTOP');
      try {
        expect(await waitForState(shim, 'T')).toBe('T');
        const snapshot = await takeSnapshot(client, { deadlineMs: DEADLINE_MS, includeStats: true });

        for (const method of ['Version', 'Status', 'ListPodSandbox', 'ListContainers']) {
          const timing = snapshot.timings.find((t) => t.method === method);
          expect(timing?.ok).toBe(true);
          expect(timing?.ms).toBeLessThan(500);
        }
        expect(snapshot.sandboxes.map((s) => s.id)).toContain(pod.sandboxId);
        // Non-verbose container status comes from containerd's memory too.
        expect(snapshot.containerStatuses.find((c) => c.id === pod.containerId)?.state).toBe('CONTAINER_RUNNING');

        const failed = snapshot.errors.map((e) => `${e.method}:${e.codeName}:${e.id ?? ''}`).sort();
        // containerd's tasks service skips a task whose Stats call fails (getTasksMetrics logs "collecting
        // metrics for <id>" and continues), and the hung shim's Stats fails when the server's copy of our
        // deadline expires, a moment before ours. So the whole-list call either times out here or answers
        // just in time with the hung container listed without usage (toCRIContainerStats still lists every
        // container, its metrics nil): both are containerd's, and neither shows the hung container's usage.
        const statsTimedOut = failed.includes('ListContainerStats:DEADLINE_EXCEEDED:');
        expect(failed).toEqual([...(statsTimedOut ? ['ListContainerStats:DEADLINE_EXCEEDED:'] : []), `PodSandboxStatus:DEADLINE_EXCEEDED:${pod.sandboxId}`].sort());
        const hungStats = snapshot.stats?.find((s) => s.id === pod.containerId);
        if (!statsTimedOut) expect(hungStats === undefined || (hungStats.cpuUsageCoreNanoSeconds === undefined && hungStats.memoryWorkingSetBytes === undefined), JSON.stringify(hungStats)).toBe(true);
        // The other pods' shims answer normally.
        expect(snapshot.sandboxStatuses.map((s) => s.id)).not.toContain(pod.sandboxId);
        expect(snapshot.sandboxStatuses).toHaveLength(snapshot.sandboxes.length - 1);

        expect(snapshot.findings).toContainEqual(
          expect.objectContaining({ kind: 'hungShim', sandboxId: pod.sandboxId, podName: pod.spec.name, podNamespace: 'plegtest' }),
        );
        expect(snapshot.findings.some((f) => f.kind === 'runtimeUnresponsive')).toBe(false);
      } finally {
        process.kill(shim, 'SIGCONT');
      }
      // The shim answers again. containerd may still be finishing the abandoned request, so allow time.
      const status = await client.podSandboxStatus(pod.sandboxId, { verbose: true, deadlineMs: 10_000 });
      expect(status.info['processStatus']).toBe('running');
    } finally {
      client.close();
      await cleanup();
    }
  });
});
