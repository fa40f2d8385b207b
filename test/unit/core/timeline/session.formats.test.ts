import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../../../src/core/pleg/sim/scenario';
import { simulate } from '../../../../src/core/pleg/sim/simulate';
import { sessionFromSimulation } from '../../../../src/core/timeline/fromSimulation';
import { newTimelineSession } from '../../../../src/core/timeline/newSession';
import { predictThreshold } from '../../../../src/core/timeline/predict';
import { applySessionDelta, type TimelineSession } from '../../../../src/core/timeline/session';
import { parseTimelineSession } from '../../../../src/core/timeline/validate';

const scenario = (name: string) => parseScenario(JSON.parse(readFileSync(join(__dirname, '../../../fixtures/scenarios', name), 'utf8')));

function sample(): TimelineSession {
  const s = newTimelineSession({ node: 'n1', context: 'ctx', source: 'live', startedAt: new Date('2026-11-24T14:00:00Z'), settings: { thresholdMs: 180_000 } });
  applySessionDelta(s, {
    durationMs: 2_000,
    relists: [{ startMs: 0, endMs: 12, ok: true, rpcs: [{ rpc: 'ListPodSandbox', atMs: 0, latencyMs: 5 }, { rpc: 'ListContainers', atMs: 5, latencyMs: 7 }], podsInspected: [], events: 0, discards: 0, sinceLastRelistStartMs: 12 }],
    health: [{ atMs: 0, healthy: false, message: 'pleg has yet to be successful' }, { atMs: 12, healthy: true }],
  });
  return s;
}

describe('parseTimelineSession', () => {
  it('accepts a session and its JSON text', () => {
    expect(parseTimelineSession(sample())).toEqual({ ok: true, session: sample() });
    expect(parseTimelineSession(JSON.stringify(sample()))).toMatchObject({ ok: true });
  });

  it('names every bad field', () => {
    const bad = JSON.parse(JSON.stringify(sample())) as Record<string, unknown> & { relists: Record<string, unknown>[] };
    bad['format'] = 'other/1';
    bad['settings'] = { relistPeriodMs: 1000, thresholdMs: -1, runtimeRequestTimeoutMs: 1, profile: '1.99', evented: 'no' };
    (bad.relists[0] as { rpcs: Record<string, unknown>[] }).rpcs[1] = { rpc: 'Exec', atMs: 5, latencyMs: '7' };
    bad.relists[0]!['endMs'] = -3;
    bad['health'] = 'none';
    const r = parseTimelineSession(bad);
    expect(r.ok).toBe(false);
    expect(r.ok ? [] : r.errors).toEqual([
      'format: expected "pleg-doctor-timeline/1", got "other/1"',
      'settings.thresholdMs: expected a non-negative number, got -1',
      'settings.profile: expected one of "1.13", "1.14-1.25", "1.26-1.31", "1.32+", "1.36+", got "1.99"',
      'settings.evented: expected true or false, got "no"',
      'relists[0].endMs: expected a number ≥ startMs (0), got -3',
      'relists[0].rpcs[1].rpc: expected one of "ListPodSandbox", "ListContainers", "PodSandboxStatus", "ContainerStatus", "Status", "Version", got "Exec"',
      'relists[0].rpcs[1].latencyMs: expected a non-negative number, got "7"',
      'health: expected an array, got "none"',
    ]);
    expect(parseTimelineSession('{')).toMatchObject({ ok: false, errors: [expect.stringMatching(/^not JSON: /u)] });
  });
});

describe('sessionFromSimulation', () => {
  it('a frozen-runtime simulation: relists, health and the Ready posts of the run, and what it lacks', () => {
    const timeline = simulate(scenario('frozen-runtime.json'));
    const session = sessionFromSimulation(timeline);
    expect(parseTimelineSession(JSON.parse(JSON.stringify(session)))).toMatchObject({ ok: true });
    expect(session.source).toBe('simulation');
    expect(session.durationMs).toBe(timeline.durationMs);
    expect(session.relists).toHaveLength(timeline.relists.length);
    expect(session.health.map((h) => h.healthy)).toEqual(timeline.health.map((h) => h.healthy));
    expect(session.health.some((h) => !h.healthy && h.atMs > 0)).toBe(true);
    expect(session.ready.some((r) => r.status === 'False')).toBe(true);
    expect(session.lacks.join(' ')).toMatch(/not the RPCs/u);
    // Failed relists keep the previous stamp: its age grows past the threshold.
    expect(Math.max(...session.relists.map((r) => r.sinceLastRelistStartMs))).toBeGreaterThan(session.settings.thresholdMs);
  });
});

describe('predictThreshold', () => {
  it('healthy: the last relist and its budget', () => {
    const p = predictThreshold(sample(), 1_000);
    expect(p).toMatchObject({ state: 'healthy', basis: 'model', lastRelistMs: 12, budgetMs: 180_000 - 1_000 - 12 });
    expect(p.sentence).toBe('healthy: the last relist took 12ms, budget 2m58.988s');
  });

  it('1.36 with PLEGOnDemandRelist on: the budget leaves room for one per-pod relist the relist may wait behind', () => {
    const s = sample();
    s.settings = { ...s.settings, profile: '1.36+', onDemandRelist: { enabled: true, source: 'metrics' } };
    applySessionDelta(s, { durationMs: 2_000, cost: [{ atMs: 12, relistMs: 12, pods: 3, podRelistWaitMs: 30_000 }] });
    expect(predictThreshold(s, 1_000)).toMatchObject({ state: 'healthy', budgetMs: 180_000 - 1_000 - 30_000 - 12 });
    s.settings = { ...s.settings, onDemandRelist: { enabled: false, source: 'metrics' } };
    expect(predictThreshold(s, 1_000)).toMatchObject({ state: 'healthy', budgetMs: 180_000 - 1_000 - 12 });
  });

  it('failing relists: the crossing instant and the NotReady bound, then unhealthy', () => {
    const s = sample();
    applySessionDelta(s, { durationMs: 124_000, relists: [{ startMs: 1_012, endMs: 121_012, ok: false, error: 'rpc error: code = DeadlineExceeded desc = context deadline exceeded', rpcs: [], podsInspected: [], events: 0, discards: 0, sinceLastRelistStartMs: 121_012 }] });
    // Nothing known of the kubelet's status loop: its evaluations are put at an even phase, 10.2 s apart.
    const p = predictThreshold(s, 124_000);
    expect(p).toMatchObject({ state: 'crossing', crossingAtMs: 180_000, notReadyByMs: 124_000 - 5_100 + 6 * 10_200 });
    expect(p.sentence).toBe('at this rate the threshold is crossed at 14:03:00 UTC (relists are failing or not finishing); the kubelet will post NotReady at about 14:03:00 UTC (its next node status update, every 10s)');
    // A post seen at 500 ms and the runtime hung since 1,050 ms: every sync from the next one on waits the
    // 2 min runtime request timeout in Version, so the evaluations come at 130.7 s and 260.9 s.
    applySessionDelta(s, { durationMs: 124_000, nodeStatusPosts: [{ atMs: 500, source: 'watch' }], stalls: [{ sinceMs: 1_050, kind: 'hang' }] });
    const hung = predictThreshold(s, 124_000);
    expect(hung).toMatchObject({ state: 'crossing', crossingAtMs: 180_000, notReadyByMs: 500 + 10_200 + 120_000 + 10_200 + 120_000 });
    expect(hung.sentence).toBe('at this rate the threshold is crossed at 14:03:00 UTC (relists are failing or not finishing); the kubelet will post NotReady at about 14:04:20 UTC (its status updates wait 2m0s (the runtime request timeout) on the hung runtime)');
    expect(predictThreshold(s, 180_500)).toMatchObject({ state: 'unhealthy', crossingAtMs: 180_000 });
    expect(predictThreshold(s, 180_000).state).toBe('crossing');
  });
});
