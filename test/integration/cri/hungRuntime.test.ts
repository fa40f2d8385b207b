// A frozen containerd (SIGSTOP) must produce DEADLINE_EXCEEDED on every call within the deadline, never a
// hang, without blocking the event loop; after SIGCONT the same client must work again.

import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalHost } from '../../support/localHost';
import { unixSocketClient } from '../../../src/infra/cri/transports/unixSocket';
import { takeSnapshot } from '../../../src/infra/cri/snapshot';
import { selectTransport } from '../../../src/infra/cri/transports/select';
import { stack, waitForState } from './kit';

const DEADLINE_MS = 1_500;

describe('hung runtime (containerd SIGSTOPped)', () => {
  const env = stack();
  const host = new LocalHost();
  const client = unixSocketClient(host, env.criSocket, { defaultDeadlineMs: DEADLINE_MS });
  afterAll(() => client.close());

  it('every call fails with DEADLINE_EXCEEDED in time, the event loop stays responsive, and the client recovers', async () => {
    const before = await takeSnapshot(client, { deadlineMs: DEADLINE_MS });
    expect(before.errors).toEqual([]);
    const sandboxCount = before.sandboxes.length;

    const lag = monitorEventLoopDelay({ resolution: 10 });
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 50);
    process.kill(env.containerdPid, 'SIGSTOP');
    try {
      expect(await waitForState(env.containerdPid, 'T')).toBe('T');
      lag.enable();
      const started = Date.now();
      const frozen = await takeSnapshot(client, { deadlineMs: DEADLINE_MS });
      const elapsed = Date.now() - started;
      lag.disable();

      // The four top-level calls go out together: the whole snapshot costs one deadline.
      expect(elapsed).toBeGreaterThanOrEqual(DEADLINE_MS - 50);
      expect(elapsed).toBeLessThan(DEADLINE_MS + 1_000);
      expect(frozen.errors.map((e) => `${e.method}:${e.codeName}`).sort()).toEqual(
        ['ListContainers:DEADLINE_EXCEEDED', 'ListPodSandbox:DEADLINE_EXCEEDED', 'Status:DEADLINE_EXCEEDED', 'Version:DEADLINE_EXCEEDED'],
      );
      for (const error of frozen.errors) {
        expect(error.code).toBe(4);
        expect(error.ms).toBeGreaterThanOrEqual(DEADLINE_MS - 50);
        expect(error.ms).toBeLessThan(DEADLINE_MS + 500);
      }
      expect(frozen.findings.map((f) => f.kind)).toEqual(['runtimeUnresponsive']);
      expect(frozen.timings.filter((t) => !t.ok)).toHaveLength(4);

      // A new connection to a stopped daemon: the kernel accepts it, nothing answers; same outcome.
      const fresh = unixSocketClient(host, env.criSocket, { defaultDeadlineMs: DEADLINE_MS });
      try {
        await expect(fresh.version()).rejects.toMatchObject({ code: 4, codeName: 'DEADLINE_EXCEEDED', method: 'Version' });
      } finally {
        fresh.close();
      }

      // Transport selection keeps the working path and reports the hang instead of failing.
      const selection = await selectTransport(host, { endpoint: env.criSocket, probeTimeoutMs: 1_000, deadlineMs: DEADLINE_MS });
      selection.client.close();
      expect(selection.kind).toBe('unixSocket');
      expect(selection.reason).toMatch(/did not answer Version within 1000 ms/);

      // The event loop kept running: timers fired and no callback was delayed noticeably.
      expect(lag.max / 1e6).toBeLessThan(250);
      expect(ticks).toBeGreaterThanOrEqual(Math.floor(elapsed / 50) - 10);
    } finally {
      clearInterval(ticker);
      process.kill(env.containerdPid, 'SIGCONT');
    }

    const after = await takeSnapshot(client, { deadlineMs: 5_000 });
    expect(after.errors).toEqual([]);
    expect(after.sandboxes).toHaveLength(sandboxCount);
    expect(after.runtime?.name).toBe('containerd');
  });
});
