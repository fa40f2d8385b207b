// The live model's prefetch is exact: feeding it the statuses statusRequests() names gives the same
// relists, events and health as the kubelet model asking the runtime on demand (GenericPleg directly).

import { fc, test } from '@fast-check/vitest';
import { expect } from 'vitest';
import { EventChannel } from '../../../../src/core/pleg/channel';
import { GenericPleg } from '../../../../src/core/pleg/generic';
import { PodCache } from '../../../../src/core/pleg/podCache';
import { statusFromPod } from '../../../../src/core/pleg/podStatus';
import { PLEG_PROFILES } from '../../../../src/core/pleg/profiles';
import type { ContainerState, KubeletProfileId, PlegEvent, RuntimePod } from '../../../../src/core/pleg/types';
import { podsFromListing, type CriListing, type PodStatusFetch } from '../../../../src/core/timeline/criListing';
import { LivePlegModel } from '../../../../src/core/timeline/liveModel';
import { DEFAULT_SESSION_SETTINGS, newTimelineSession } from '../../../../src/core/timeline/newSession';
import { applySessionDelta } from '../../../../src/core/timeline/session';

const state = fc.constantFrom<ContainerState>('running', 'exited', 'unknown', 'created');
const podArb = fc.record({ uid: fc.constantFrom('a', 'b', 'c', 'd'), ready: fc.boolean(), containers: fc.array(state, { maxLength: 3 }) });
const stepArb = fc.record({
  pods: fc.uniqueArray(podArb, { maxLength: 4, selector: (p) => p.uid }),
  getPodsFails: fc.boolean(),
  listMs: fc.integer({ min: 1, max: 40 }),
  statusMs: fc.integer({ min: 1, max: 10 }),
  failing: fc.subarray(['a', 'b', 'c', 'd']),
  gapMs: fc.integer({ min: 1, max: 30 }),
});
const THRESHOLD = 60;

test.prop([fc.constantFrom<KubeletProfileId>('1.14-1.25', '1.26-1.31', '1.32+', '1.36+'), fc.array(stepArb, { minLength: 1, maxLength: 12 })])(
  'prefetching what statusRequests() names gives the kubelet model\u2019s own relists, events and health',
  (profileId, steps) => {
    const settings = { ...DEFAULT_SESSION_SETTINGS, profile: profileId, relistPeriodMs: 10, thresholdMs: THRESHOLD };
    const live = new LivePlegModel({ settings });
    const session = newTimelineSession({ node: 'n', source: 'live', startedAt: new Date(0), settings });
    // The kubelet model asked on demand, on its own clock.
    const now = { t: 0 };
    let current: { pods: RuntimePod[]; fails: boolean; listMs: number; statusMs: number; failing: Set<string> } | null = null;
    const events: PlegEvent[] = [];
    const direct = new GenericPleg({
      profile: PLEG_PROFILES[profileId],
      clock: { now: () => now.t },
      channel: new EventChannel(1_000),
      cache: new PodCache(false),
      relistThresholdMs: THRESHOLD,
      observer: { onSend: (e) => events.push(e) },
      runtime: {
        getPods: () => {
          const c = current as NonNullable<typeof current>;
          now.t += c.listMs;
          return c.fails ? { ok: false, error: 'boom' } : { ok: true, pods: c.pods };
        },
        getPodStatus: (asked) => {
          const c = current as NonNullable<typeof current>;
          // The runtime answers from its own state, whatever (possibly stale) pod object the relist holds.
          const pod = c.pods.find((p) => p.uid === asked.uid) ?? { ...asked, sandboxes: [], containers: [] };
          const sandboxes = pod.sandboxes.length;
          const containers = pod.containers.length;
          if (c.failing.has(pod.uid)) {
            now.t += c.statusMs;
            return { ok: false, error: 'status failed' };
          }
          now.t += c.statusMs * (2 + sandboxes + containers);
          return { ok: true, status: statusFromPod(pod) };
        },
      },
    });
    let t = 0;
    for (const step of steps) {
      const sandboxes = step.pods.map((p) => ({ id: `sb-${p.uid}`, uid: p.uid, name: `pod-${p.uid}`, namespace: 'ns', ready: p.ready }));
      const containers = step.pods.flatMap((p) => p.containers.map((s, i) => ({ id: `c-${p.uid}-${i}`, podUid: p.uid, state: s })));
      const listing: CriListing = step.getPodsFails
        ? { startMs: t, calls: [{ rpc: 'ListPodSandbox', latencyMs: step.listMs, error: 'boom' }] }
        : { startMs: t, calls: [{ rpc: 'ListPodSandbox', latencyMs: step.listMs / 2 }, { rpc: 'ListContainers', latencyMs: step.listMs / 2 }], sandboxes, containers };
      const failing = new Set(step.failing);
      const truthPods = podsFromListing(sandboxes, containers);
      const fetches: PodStatusFetch[] = live.statusRequests(listing).map((uid) => {
        const pod = truthPods.find((p) => p.uid === uid) ?? { uid, name: '', namespace: '', sandboxes: [], containers: [] };
        if (failing.has(uid)) return { uid, calls: [{ rpc: 'ListPodSandbox', latencyMs: step.statusMs, error: 'status failed' }], error: 'status failed' };
        const n = 2 + pod.sandboxes.length + pod.containers.length;
        return { uid, calls: Array.from({ length: n }, () => ({ rpc: 'ContainerStatus' as const, latencyMs: step.statusMs })), status: statusFromPod(pod) };
      });
      const delta = live.relist(listing, fetches);
      applySessionDelta(session, delta);

      current = { pods: truthPods, fails: step.getPodsFails, listMs: step.listMs, statusMs: step.statusMs, failing };
      now.t = t;
      events.length = 0;
      const report = direct.relist();
      direct.drain();
      const relist = session.relists.at(-1);
      expect(relist?.ok).toBe(report.ok);
      expect(relist?.endMs).toBe(now.t);
      expect(relist?.podsInspected).toEqual(report.inspected.map((uid) => `ns/pod-${uid}`));
      expect(relist?.events).toBe(report.generated);
      // The session's pod lanes hold container events; 1.36's PodSync (a reinspection without a change)
      // names no container and is not one of them.
      const containerEvents = events.filter((e) => e.type !== 'ContainerChanged' && e.type !== 'PodSync');
      expect((delta.podEvents ?? []).map((e) => `${e.type}:${e.container}`)).toEqual(containerEvents.map((e) => `${e.type}:${(e.data ?? '').slice(0, 13)}`));
      // Health at the relist's end: the same answer as Healthy(). No entry yet means no relist has
      // succeeded since the feed started (unknown, which Healthy() answers as "yet to be successful").
      expect(session.health.at(-1)?.healthy ?? false).toBe(direct.healthy().healthy);
      if (session.health.length === 0) expect(direct.lastRelistMs).toBeNull();
      t = now.t + step.gapMs;
    }
  },
);
