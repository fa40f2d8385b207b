// The agent's metric values from the feed's deltas (core/agent/agentMeter.ts): the relist age is measured
// from the start of the last relist whose GetPods succeeded (what Healthy() compares), failures count, the
// in-flight age and the NotReady prediction come from the scrape's moment.

import { describe, expect, it } from 'vitest';
import { AgentMeter, type ScrapeState } from '../../../../src/core/agent/agentMeter';
import { renderExposition, type MetricFamily } from '../../../../src/core/agent/exposition';
import { newTimelineSession } from '../../../../src/core/timeline/newSession';
import { applySessionDelta } from '../../../../src/core/timeline/session';

const session = newTimelineSession({ node: 'n1', source: 'live', startedAt: new Date('2026-11-28T10:00:00Z') });
const state = (over: Partial<ScrapeState>): ScrapeState => ({
  nowMs: 0,
  session,
  inflightSinceMs: undefined,
  inflightCalls: 0,
  findings: undefined,
  build: { version: '0.1.0', kubeletVersion: 'v1.26.15', runtime: 'containerd 1.6.20' },
  ...over,
});
const value = (families: MetricFamily[], name: string): number | undefined => {
  const f = families.find((x) => x.name === name);
  return f !== undefined && f.type !== 'histogram' ? f.samples[0]?.value : undefined;
};
const relist = (startMs: number, endMs: number, ok: boolean) => ({ startMs, endMs, ok, rpcs: [], podsInspected: [], events: 0, discards: 0, sinceLastRelistStartMs: 0, ...(ok ? { pods: 110, containers: 220 } : {}) });

describe('AgentMeter', () => {
  it('measures the relist age from the last relist whose GetPods succeeded, not from a failed one', () => {
    const meter = new AgentMeter();
    meter.take({ durationMs: 1010, relists: [relist(1000, 1010, true)] });
    meter.take({ durationMs: 122_000, relists: [relist(2000, 122_000, false)] });
    const families = meter.families(state({ nowMs: 130_000, inflightSinceMs: 122_500, inflightCalls: 1 }));
    expect(value(families, 'pleg_doctor_relist_age_seconds')).toBe(129);
    expect(value(families, 'pleg_doctor_relist_failures_total')).toBe(1);
    expect(value(families, 'pleg_doctor_cri_call_inflight_seconds')).toBe(7.5);
    expect(value(families, 'pleg_doctor_cri_calls_inflight')).toBe(1);
    expect(value(families, 'pleg_doctor_pods')).toBe(110);
    const durations = families.find((f) => f.name === 'pleg_doctor_relist_duration_seconds');
    expect(durations?.type === 'histogram' && durations.samples[0]?.buckets.find((b) => b.le === 120)?.count).toBe(2);
  });

  it('says +Inf when no NotReady is predicted and 0 in-flight age when nothing waits', () => {
    const families = new AgentMeter().families(state({ nowMs: 5000 }));
    expect(value(families, 'pleg_doctor_notready_predicted_seconds')).toBe(Infinity);
    expect(value(families, 'pleg_doctor_runtime_down_predicted_seconds')).toBe(Infinity);
    expect(value(families, 'pleg_doctor_cri_call_inflight_seconds')).toBe(0);
    expect(renderExposition(families)).toMatch(/^pleg_doctor_notready_predicted_seconds \+Inf$/mu);
  });

  it('exports one finding per failing check, the projection at maxPods and the build info', () => {
    const meter = new AgentMeter();
    meter.take({ durationMs: 10, cost: [{ atMs: 10, relistMs: 12, pods: 5, projectedPods: 110, projectedRelistMs: 250 }] });
    meter.callEnded('ListPodSandbox', 0.002);
    const text = renderExposition(meter.families(state({ findings: ['runtime-hung', 'stuck-container'] })));
    expect(text).toContain('pleg_doctor_finding{cause="runtime-hung"} 1\npleg_doctor_finding{cause="stuck-container"} 1\n');
    expect(text).toContain('pleg_doctor_projected_relist_seconds{max_pods="110"} 0.25\n');
    expect(text).toContain('pleg_doctor_build_info{version="0.1.0",kubelet_version="v1.26.15",runtime="containerd 1.6.20"} 1\n');
    expect(text).toContain('pleg_doctor_cri_call_duration_seconds_count{rpc="ListPodSandbox"} 1\n');
    expect(text).not.toMatch(/node=/u);
  });

  it('on a hung runtime predicts the "container runtime is down" post, well before the PLEG one; both 0 once posted', () => {
    // The shape of postPredictions.test.ts's frozen session: runtime request timeout 30 s, a heartbeat 7 s
    // before the freeze at t = 0, the last good relist at −1 s.
    const frozen = newTimelineSession({ node: 'n1', source: 'live', startedAt: new Date('2026-11-28T10:00:00Z'), settings: { runtimeRequestTimeoutMs: 30_000 } });
    applySessionDelta(frozen, {
      durationMs: 3_000,
      relists: [relist(-2_000, -1_990, true), relist(-1_000, -990, true)],
      ready: [{ atMs: -20_000, status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' }],
      nodeStatusPosts: [{ atMs: -7_000, source: 'heartbeat' }],
      stalls: [{ sinceMs: 0, kind: 'hang' }],
    });
    const at3s = new AgentMeter().families(state({ nowMs: 3_000, session: frozen }));
    // The first sync after the heartbeat starts at 3.7 s and gives up on Version at 33.7 s: 30.7 s from now.
    expect(value(at3s, 'pleg_doctor_runtime_down_predicted_seconds')).toBeCloseTo(30.7, 6);
    expect(value(at3s, 'pleg_doctor_notready_predicted_seconds')).toBeCloseTo(191.5, 6);
    applySessionDelta(frozen, { durationMs: 34_000, ready: [{ atMs: 33_200, status: 'False', reason: 'KubeletNotReady', message: 'container runtime is down' }], nodeStatusPosts: [{ atMs: 33_200, source: 'watch' }] });
    expect(value(new AgentMeter().families(state({ nowMs: 34_000, session: frozen })), 'pleg_doctor_runtime_down_predicted_seconds')).toBe(0);
  });
});

