// EventedPLEG on the real node stack: with the gate on, the live feed opens GetContainerEvents over the
// SSH-forwarded CRI connection to the real containerd 1.6, which answers UNIMPLEMENTED. As the kubelet
// does, each failed stream forces a relist and is counted; after eventedPlegMaxStreamRetries (5) failures
// the generic PLEG returns to 1 s / 3 min, relists at once, and no stream is opened again.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PLEG_CONSTANTS } from '../../../src/core/pleg/profiles';
import { newTimelineSession } from '../../../src/core/timeline/newSession';
import { applySessionDelta, type SessionDelta, type SessionSettings } from '../../../src/core/timeline/session';
import { parseTimelineSession } from '../../../src/core/timeline/validate';
import type { CriReader } from '../../../src/infra/cri/reader';
import { selectTransport } from '../../../src/infra/cri/transports/select';
import { SshConnection } from '../../../src/infra/ssh/connection';
import { runLiveFeed } from '../../../src/infra/timeline/liveFeed';
import { stack, withTestPod } from '../cri/kit';

const env = stack();
const scratch = mkdtempSync(join(tmpdir(), 'pleg-evented-'));
const connections: SshConnection[] = [];
afterAll(() => {
  for (const c of connections) c.close();
  rmSync(scratch, { recursive: true, force: true });
});

const SETTINGS: SessionSettings = { relistPeriodMs: 1_000, thresholdMs: 180_000, runtimeRequestTimeoutMs: 2_000, profile: '1.32+', evented: true };
const UNIMPLEMENTED = 'rpc error: code = Unimplemented desc = method GetContainerEvents not implemented';

describe('EventedPLEG live feed on the real containerd 1.6', () => {
  it('GetContainerEvents answers UNIMPLEMENTED: 5 counted stream failures, 5 forced relists, then the generic 1 s / 3 min', async () => {
    const ssh = new SshConnection({
      hop: { alias: env.sshHost, host: env.sshHost, port: env.sshPort, user: env.sshRootUser, identityFiles: [env.sshKey] },
      knownHosts: { readOnly: [env.sshKnownHosts], own: join(scratch, 'known_hosts') },
      confirmUnknownHost: () => Promise.reject(new Error('the node stack host key must already be known')),
      auth: {},
      connectTimeoutMs: 10_000,
    });
    connections.push(ssh);
    const { pod, cleanup } = await withTestPod(env);
    const session = newTimelineSession({ node: 'node-stack', source: 'live', startedAt: new Date(), settings: SETTINGS });
    const deltas: SessionDelta[] = [];
    let streamsOpened = 0;
    const controller = new AbortController();
    const done = runLiveFeed({
      node: 'node-stack',
      settings: SETTINGS,
      connectCri: async (signal) => {
        await ssh.connect(signal);
        const { client } = await selectTransport(ssh, { endpoint: env.criSocket, transport: 'unixSocket', deadlineMs: SETTINGS.runtimeRequestTimeoutMs, signal });
        // The real client, only counted: how many streams the feed opens.
        const open = client.containerEvents?.bind(client);
        if (open === undefined) throw new Error(`${client.description} cannot stream`);
        const counted: CriReader = Object.create(client) as CriReader;
        counted.containerEvents = (options) => {
          streamsOpened++;
          return open(options);
        };
        return counted;
      },
      signal: controller.signal,
      onDelta: (d) => {
        deltas.push(d);
        applySessionDelta(session, d);
      },
      tickMs: 100,
    });
    try {
      const until = Date.now() + 30_000;
      // Five forced relists, the restart relist, then three relists at the generic period.
      while (session.relists.filter((r) => r.streamFailure === undefined).length < 5) {
        if (Date.now() > until) throw new Error(`timed out; relists: ${JSON.stringify(session.relists.map((r) => [r.startMs, r.streamFailure]))}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      controller.abort();
      await done;
      await cleanup();
    }

    // While EventedPLEG is in use the generic PLEG runs at 300 s / 10 min.
    expect(deltas[0]?.settings).toMatchObject({ relistPeriodMs: PLEG_CONSTANTS.eventedRelistPeriodMs, thresholdMs: PLEG_CONSTANTS.eventedRelistThresholdMs, evented: true });
    const [first, ...rest] = session.relists;
    // The generic PLEG's own first relist (it sees the pod as new), then one forced relist per failed
    // stream, counted 1…5, each listing the real runtime.
    expect(first?.streamFailure).toBeUndefined();
    expect(first?.podsInspected).toContain(`plegtest/${pod.spec.name}`);
    const forced = rest.slice(0, 5);
    expect(forced.map((r) => r.streamFailure)).toEqual([1, 2, 3, 4, 5].map((failures) => ({ error: UNIMPLEMENTED, failures })));
    for (const r of forced) {
      expect(r.ok).toBe(true);
      expect(r.rpcs.slice(0, 2).map((c) => c.rpc)).toEqual(['ListPodSandbox', 'ListContainers']);
      expect(r.pods).toBeGreaterThanOrEqual(1);
    }
    expect(streamsOpened).toBe(5);
    expect(rest.slice(5).every((r) => r.streamFailure === undefined)).toBe(true);

    // The fallback comes with the fifth failure's relist: the generic settings, in the same delta.
    const fallback = deltas.filter((d) => d.settings !== undefined).slice(1);
    expect(fallback).toHaveLength(1);
    expect(fallback[0]?.relists?.[0]?.streamFailure?.failures).toBe(5);
    expect(fallback[0]?.settings).toMatchObject({ relistPeriodMs: 1_000, thresholdMs: 180_000, evented: true });
    expect(session.settings).toMatchObject({ relistPeriodMs: 1_000, thresholdMs: 180_000 });

    // The restarted generic PLEG relists at once, then one period after each relist ends.
    const after = rest.slice(5);
    const fifthEnd = forced[4]?.endMs ?? NaN;
    expect(after[0]?.startMs).toBeGreaterThanOrEqual(fifthEnd);
    expect((after[0]?.startMs ?? NaN) - fifthEnd).toBeLessThan(SETTINGS.relistPeriodMs / 2);
    for (let i = 1; i < after.length; i++) {
      expect((after[i]?.startMs ?? NaN) - (after[i - 1]?.endMs ?? NaN)).toBeGreaterThanOrEqual(SETTINGS.relistPeriodMs - 5);
    }
    expect(session.health.at(-1)?.healthy).toBe(true);
    expect(parseTimelineSession(JSON.parse(JSON.stringify(session)))).toMatchObject({ ok: true });
  });
});
