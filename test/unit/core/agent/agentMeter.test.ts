// The agent's metric values from the feed's deltas (core/agent/agentMeter.ts): the relist age is measured
// from the start of the last relist whose GetPods succeeded (what Healthy() compares), failures count, the
// in-flight age and the NotReady prediction come from the scrape's moment.

import { describe, expect, it } from 'vitest';
import { AgentMeter, type ScrapeState } from '../../../../src/core/agent/agentMeter';
import { renderExposition, type MetricFamily } from '../../../../src/core/agent/exposition';
import { newTimelineSession } from '../../../../src/core/timeline/newSession';

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
});
