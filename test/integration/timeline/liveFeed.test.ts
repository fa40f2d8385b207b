// The live feed on the real node stack: real sshd, ssh2, CRI over the SSH connection, real containerd.
// Relists carry the runtime's real latencies; a SIGSTOPped containerd gives failing relists (deadline
// exceeded) and Healthy() turns false exactly when the model predicted; SIGCONT brings it back.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEADLINE_EXCEEDED_TEXT } from '../../../src/core/pleg/cost/criCall';
import { newTimelineSession } from '../../../src/core/timeline/newSession';
import { predictThreshold } from '../../../src/core/timeline/predict';
import { applySessionDelta, type SessionSettings, type TimelineSession } from '../../../src/core/timeline/session';
import { parseTimelineSession } from '../../../src/core/timeline/validate';
import { selectTransport } from '../../../src/infra/cri/transports/select';
import { SshConnection } from '../../../src/infra/ssh/connection';
import { runLiveFeed } from '../../../src/infra/timeline/liveFeed';
import { stack, waitForState, withTestPod } from '../cri/kit';

const env = stack();
const scratch = mkdtempSync(join(tmpdir(), 'pleg-timeline-'));
const connections: SshConnection[] = [];
afterAll(() => {
  for (const c of connections) c.close();
  rmSync(scratch, { recursive: true, force: true });
});

function connection(): SshConnection {
  const c = new SshConnection({
    hop: { alias: env.sshHost, host: env.sshHost, port: env.sshPort, user: env.sshRootUser, identityFiles: [env.sshKey] },
    knownHosts: { readOnly: [env.sshKnownHosts], own: join(scratch, 'known_hosts') },
    confirmUnknownHost: () => Promise.reject(new Error('the node stack host key must already be known')),
    auth: {},
    connectTimeoutMs: 10_000,
  });
  connections.push(c);
  return c;
}

const SETTINGS: SessionSettings = { relistPeriodMs: 500, thresholdMs: 5_000, runtimeRequestTimeoutMs: 2_000, profile: '1.32+', evented: false };

/** Starts the feed into a session; `stop` ends it and waits for the loops to finish. */
function startFeed(): { session: TimelineSession; stop: () => Promise<void>; waitFor: (what: string, cond: (s: TimelineSession) => boolean, ms: number) => Promise<void> } {
  const session = newTimelineSession({ node: 'node-stack', source: 'live', startedAt: new Date(), settings: SETTINGS });
  const controller = new AbortController();
  const ssh = connection();
  const done = runLiveFeed({
    node: 'node-stack',
    settings: SETTINGS,
    connectCri: async (signal) => {
      await ssh.connect(signal);
      const selection = await selectTransport(ssh, { endpoint: env.criSocket, transport: 'unixSocket', deadlineMs: SETTINGS.runtimeRequestTimeoutMs, signal });
      return selection.client;
    },
    signal: controller.signal,
    onDelta: (d) => applySessionDelta(session, d),
    tickMs: 100,
  });
  return {
    session,
    stop: async () => {
      controller.abort();
      await done;
    },
    waitFor: async (what, cond, ms) => {
      const until = Date.now() + ms;
      while (!cond(session)) {
        if (Date.now() > until) throw new Error(`timed out after ${ms} ms waiting for ${what}; last relists: ${JSON.stringify(session.relists.slice(-3))}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  };
}

describe('live feed over ssh2 on the real node stack', () => {
  it('records relists with the real RPC latencies, inspects new pods, and sees a removed pod', async () => {
    const { pod, cleanup } = await withTestPod(env);
    const feed = startFeed();
    try {
      await feed.waitFor('three relists', (s) => s.relists.length >= 3, 20_000);
      const [first, ...rest] = feed.session.relists;
      expect(first?.ok).toBe(true);
      expect(first?.podsInspected).toContain(`plegtest/${pod.spec.name}`);
      // The first relist sees every pod as new: each gets one GetPodStatus, with its calls in order.
      const calls = first?.rpcs.filter((r) => r.pod === `plegtest/${pod.spec.name}`).map((r) => r.rpc);
      expect(calls).toEqual(['ListPodSandbox', 'PodSandboxStatus', 'ListContainers', 'ContainerStatus']);
      for (const r of feed.session.relists) {
        expect(r.ok).toBe(true);
        // The model's clock advanced by exactly the measured latencies.
        const sum = r.rpcs.reduce((ms, c) => ms + c.latencyMs, 0);
        expect(r.endMs - r.startMs).toBeCloseTo(sum, 1);
        for (const c of r.rpcs) {
          expect(c.latencyMs).toBeGreaterThan(0);
          expect(c.latencyMs).toBeLessThan(SETTINGS.runtimeRequestTimeoutMs);
          expect(c.error).toBeUndefined();
        }
      }
      // Nothing changed afterwards: only GetPods.
      expect(rest.some((r) => r.rpcs.length === 2 && r.podsInspected.length === 0)).toBe(true);
      expect(feed.session.health.at(-1)?.healthy).toBe(true);
      expect(feed.session.cost.at(-1)?.pods).toBeGreaterThanOrEqual(1);

      await cleanup();
      await feed.waitFor('the pod\u2019s removal', (s) => s.podEvents.some((e) => e.pod === `plegtest/${pod.spec.name}` && e.type === 'ContainerRemoved'), 10_000);
    } finally {
      await cleanup();
      await feed.stop();
    }
    expect(parseTimelineSession(JSON.parse(JSON.stringify(feed.session)))).toMatchObject({ ok: true });
  });

  it('a SIGSTOPped containerd: relists fail at the deadline, Healthy() turns false when the model predicted, SIGCONT recovers', async () => {
    const feed = startFeed();
    let stopped = false;
    try {
      await feed.waitFor('a healthy relist', (s) => s.relists.some((r) => r.ok) && s.health.at(-1)?.healthy === true, 20_000);
      process.kill(env.containerdPid, 'SIGSTOP');
      stopped = true;
      expect(await waitForState(env.containerdPid, 'T')).toBe('T');
      await feed.waitFor('a failed relist', (s) => s.relists.some((r) => !r.ok), 10_000);
      const failed = feed.session.relists.find((r) => !r.ok);
      expect(failed?.error).toBe(DEADLINE_EXCEEDED_TEXT);
      expect(failed?.rpcs[0]?.latencyMs).toBeGreaterThanOrEqual(SETTINGS.runtimeRequestTimeoutMs - 50);
      // What the panel says at this moment: the crossing instant.
      const prediction = predictThreshold(feed.session, feed.session.durationMs);
      expect(prediction.state).toBe('crossing');
      await feed.waitFor('unhealthy', (s) => s.health.some((h) => !h.healthy && h.atMs > 0), 15_000);
      const unhealthy = feed.session.health.find((h) => !h.healthy && h.atMs > 0);
      expect(unhealthy?.atMs).toBe(prediction.crossingAtMs);
      expect(unhealthy?.message).toMatch(/^pleg was last seen active \d+(\.\d+)?s ago; threshold is 5s$/u);
      process.kill(env.containerdPid, 'SIGCONT');
      stopped = false;
      await feed.waitFor('recovery', (s) => s.health.at(-1)?.healthy === true && s.relists.at(-1)?.ok === true, 15_000);
    } finally {
      if (stopped) process.kill(env.containerdPid, 'SIGCONT');
      await feed.stop();
    }
    const lastFailed = feed.session.relists.filter((r) => !r.ok).at(-1);
    const recovered = feed.session.health.at(-1);
    expect(recovered?.atMs).toBeGreaterThan(lastFailed?.startMs ?? Infinity);
  });
});
