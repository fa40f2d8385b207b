// What the session chart draws besides its lines: lane segments and their reasons, PLEG health from the
// model or (without relists) from the kubelet's last-seen stamp, spans clipped to the plot after a zoom,
// the value under the pointer read off the drawn line, and a legend of only what is drawn.

import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../../../src/core/pleg/sim/scenario';
import { simulate } from '../../../../src/core/pleg/sim/simulate';
import { sessionFromSimulation } from '../../../../src/core/timeline/fromSimulation';
import { readyReason } from '../../../../src/core/timeline/readyReason';
import { newTimelineSession, DEFAULT_SESSION_SETTINGS } from '../../../../src/core/timeline/newSession';
import { webviewStrings } from '../../../../src/host/timeline/timelineStrings';
import { englishText } from '../../../../src/core/tree/localize';
import { clipSpan } from '../../../../webview/timeline/clipSpan';
import { legendEntries, type SessionChartLabels } from '../../../../webview/timeline/sessionLegend';
import { appendDelta, drawnValueAt, sessionSeries } from '../../../../webview/timeline/sessionSeries';
import { recordedSession } from '../../../support/timelineSession';

const ROOT = resolve(__dirname, '../../../..');
const PLEG = 'PLEG is not healthy: pleg was last seen active 3m5.1s ago; threshold is 3m0s';

/** `pleg-doctor simulate test/fixtures/scenarios/frozen-runtime.json` as the panel replays it. */
function simulated(): ReturnType<typeof sessionFromSimulation> {
  const scenario = parseScenario(JSON.parse(readFileSync(join(ROOT, 'test/fixtures/scenarios/frozen-runtime.json'), 'utf8')));
  return sessionFromSimulation(JSON.parse(JSON.stringify(simulate(scenario))));
}

const strings = webviewStrings(englishText);
const labels = new Proxy({} as SessionChartLabels, { get: (_t, key: string) => key });

/** A live session without SSH: Ready from the API server and the kubelet's last-seen age, no relists. */
function apiOnly(ages: Array<[number, number]>): ReturnType<typeof newTimelineSession> {
  const session = newTimelineSession({ node: 'prod-eu-node-07', source: 'live', startedAt: new Date('2026-11-28T07:22:01Z'), settings: DEFAULT_SESSION_SETTINGS });
  session.ready = [{ atMs: 50, status: 'False', reason: 'KubeletNotReady', message: PLEG }];
  session.kubelet = ages.map(([atS, age]) => ({ atMs: atS * 1000, scrape: 'ok', lastSeenAgeS: age }));
  session.durationMs = (ages.at(-1)?.[0] ?? 0) * 1000 + 1000;
  return session;
}

describe('lane segments and their reasons', () => {
  it('a Ready=False segment is labelled with the kubelet\'s errors, cut before their detail', () => {
    expect(readyReason({ status: 'False', reason: 'KubeletNotReady', message: 'container runtime is down' })).toBe('container runtime is down');
    expect(readyReason({ status: 'False', reason: 'KubeletNotReady', message: `[container runtime is down, ${PLEG}]` })).toBe('container runtime is down, PLEG is not healthy');
    expect(readyReason({ status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.' })).toBe('Kubelet stopped posting node status.');
    expect(readyReason({ status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' })).toBe('');
  });

  it('the simulated frozen runtime: Ready turns False "container runtime is down" before PLEG joins it, each its own segment', () => {
    const s = sessionSeries(simulated());
    expect(s.ready.map((r) => [r.status, r.reason])).toEqual([
      ['True', ''],
      ['False', 'container runtime is down'],
      ['False', 'container runtime is down, PLEG is not healthy'],
      // The runtime answers again, PLEG waits for a relist to move its stamp.
      ['False', 'PLEG is not healthy'],
      ['True', ''],
    ]);
    // The runtime-down segment starts before PLEG's unhealthy window: that is the minute the issue asked about.
    expect(s.ready[1]!.fromS).toBeLessThan(s.unhealthy[0]!.fromS);
  });

  it('no artefact at t = 0: the model\'s "pleg has yet to be successful" before its first relist is not an unhealthy window', () => {
    const session = simulated();
    expect(session.health[0]).toMatchObject({ atMs: 0, healthy: false });
    const s = sessionSeries(session);
    expect(s.unhealthy).toHaveLength(1);
    expect(s.unhealthy[0]!.fromS).toBeGreaterThan(200);
    expect(s.healthSource).toBe('model');
  });

  it('without relists PLEG health comes from the kubelet\'s last-seen stamp: unhealthy from stamp + threshold until a newer stamp', () => {
    const s = sessionSeries(apiOnly([[5, 170], [10, 175], [15, 180.5], [20, 185], [25, 2]]));
    expect(s.healthSource).toBe('kubelet');
    // The scrape at 15 s is the first over the threshold; its stamp 15 − 180.5 = −165.5 s makes Healthy()
    // false from 14.5 s on; the scrape at 25 s shows a stamp at 23 s, which ends it.
    expect(s.unhealthy).toEqual([{ fromS: 14.5, toS: 23 }]);
    expect(s.healthKnownFromS).toBe(0);
    // The same scrapes arriving live give the same windows.
    const live = apiOnly([]);
    const grown = sessionSeries(live);
    for (const [atS, age] of [[5, 170], [10, 175], [15, 180.5], [20, 185], [25, 2]] as const) {
      const delta = { durationMs: atS * 1000 + 1000, kubelet: [{ atMs: atS * 1000, scrape: 'ok' as const, lastSeenAgeS: age }] };
      live.kubelet.push(...delta.kubelet);
      live.durationMs = delta.durationMs;
      appendDelta(grown, live, delta);
    }
    expect(grown.unhealthy).toEqual(s.unhealthy);
  });

  it('a model that starts relisting takes PLEG health over from the kubelet', () => {
    const session = apiOnly([[1, 400]]);
    const s = sessionSeries(session);
    expect(s.unhealthy).toHaveLength(1);
    const relist = { startMs: 2000, endMs: 2010, ok: true, rpcs: [], podsInspected: [], events: 0, discards: 0, sinceLastRelistStartMs: 10 };
    session.relists.push(relist);
    appendDelta(s, session, { durationMs: 3000, relists: [relist] });
    expect(s.healthSource).toBe('model');
    expect(s.unhealthy).toEqual([]);
  });
});

describe('the kubelet\'s own CRI errors', () => {
  it('are marked where kubelet_runtime_operations_errors_total grew between scrapes, with the operations; a restart\'s reset counts from zero', () => {
    const session = apiOnly([]);
    session.kubelet = [
      { atMs: 5_000, scrape: 'ok', lastSeenAgeS: 400, runtimeErrors: { podsandbox_status: 85 } },
      { atMs: 10_000, scrape: 'ok', lastSeenAgeS: 405, runtimeErrors: { podsandbox_status: 85 } },
      { atMs: 15_000, scrape: 'ok', lastSeenAgeS: 410, runtimeErrors: { podsandbox_status: 86, list_podsandbox: 2 } },
      { atMs: 20_000, scrape: 'ok', lastSeenAgeS: 2, runtimeErrors: { podsandbox_status: 1 } },
    ];
    session.durationMs = 21_000;
    const s = sessionSeries(session);
    expect(s.kubeletErrors).toEqual([
      { atS: 15, relist: -1, count: 3, detail: 'podsandbox_status +1, list_podsandbox +2' },
      { atS: 20, relist: -1, count: 1, detail: 'podsandbox_status +1' },
    ]);
    expect(legendEntries(s, labels).map(([key]) => key)).toContain('kubeletErrors');
  });
});

describe('drawing inside the plot', () => {
  it('a span is clipped to the plot: none outside, cut at both edges, a sliver inside stays a pixel', () => {
    expect(clipSpan(-500, 40, 100, 900)).toBeNull();
    expect(clipSpan(950, 990, 100, 900)).toBeNull();
    expect(clipSpan(-500, 1500, 100, 900)).toEqual([100, 900]);
    expect(clipSpan(300, 300.2, 100, 900)).toEqual([300, 301]);
    expect(clipSpan(899.5, 899.6, 100, 900)).toEqual([899.5, 900]);
    expect(clipSpan(Number.NaN, 10, 100, 900)).toBeNull();
  });
});

describe('the hovered value', () => {
  it('is the value of the drawn line at the pointer, across gaps and along the dashed tail', () => {
    const xs = [0, 1, 2, 3, 4];
    const ys = [0, 1, null, 5, null];
    expect(drawnValueAt(xs, ys, 0.5)).toBeCloseTo(0.5);
    // The gap at x = 2 is spanned by a straight line from (1, 1) to (3, 5).
    expect(drawnValueAt(xs, ys, 2)).toBeCloseTo(3);
    expect(drawnValueAt(xs, ys, 3)).toBe(5);
    // After the last point: nothing, unless the line goes on (the health quantity's growth to the end).
    expect(drawnValueAt(xs, ys, 3.5)).toBeNull();
    expect(drawnValueAt(xs, ys, 3.5, { x: 4, y: 6 })).toBeCloseTo(5.5);
    expect(drawnValueAt(xs, ys, -1)).toBeNull();
  });

  it('on the frozen-runtime recording, mid-freeze, it is the time since the last good relist started, not the last relist\'s', () => {
    const session = simulated();
    const s = sessionSeries(session);
    const lastGood = session.relists.filter((r) => r.ok && r.startMs < 150_000).at(-1)!;
    const atS = 150;
    const drawn = drawnValueAt(s.x, s.sinceLastRelistStart, atS, { x: s.endS, y: s.endS - s.lastGoodStartS! })!;
    // Hung relists end only at the 2-minute deadline: the drawn line is a chord between their ends, within a period of the truth.
    expect(Math.abs(drawn - (atS - lastGood.startMs / 1000))).toBeLessThan(2);
  });
});

describe('the legend lists only what is drawn', () => {
  it('a simulation: no pod events, no kubelet series, no discards', () => {
    const keys = legendEntries(sessionSeries(simulated()), labels).map(([key]) => key);
    expect(keys).toEqual(['health', 'threshold', 'duration', 'failed', 'rpcErrors', 'unhealthy', 'predicted', 'readyFalse']);
  });

  it('a live session without SSH: the kubelet\'s age and the lanes, no relist series', () => {
    const keys = legendEntries(sessionSeries(apiOnly([[5, 400], [10, 405]])), labels).map(([key]) => key);
    expect(keys).toEqual(['threshold', 'kubeletAge', 'unhealthy', 'predicted', 'readyFalse']);
  });

  it('a recording with everything has every entry', () => {
    const keys = legendEntries(sessionSeries(recordedSession({ durationS: 600, pods: 30, freeze: { atS: 120, forS: 300 } })), labels).map(([key]) => key);
    for (const key of ['health', 'duration', 'failed', 'discards', 'unhealthy', 'readyFalse', 'started', 'died', 'removed', 'changed']) expect(keys).toContain(key);
    expect(strings['lane.healthKubelet']).toBe('PLEG health (kubelet)');
  });
});
