import { describe, expect, it } from 'vitest';
import { sinceLastRelistStartAt } from '../../../../../src/core/timeline/whatIf/chartSeries';
import { parseScenario } from '../../../../../src/core/pleg/sim/scenario';
import { simulate } from '../../../../../src/core/pleg/sim/simulate';
import { DEFAULT_WHAT_IF, runWhatIf, whatIfScenario } from '../../../../../src/core/timeline/whatIf/whatIfTimeline';
import type { ChartSeries, WhatIfResult } from '../../../../../src/core/timeline/whatIf/whatIfTypes';

const nonNull = (values: ReadonlyArray<number | null>): number[] => values.filter((v): v is number => v !== null);

function expectAligned(s: ChartSeries): void {
  for (const column of [s.sinceLastRelistStart, s.relistDuration, s.failedRelist, s.unfinishedRelist]) expect(column.length).toBe(s.x.length);
  for (let i = 1; i < s.x.length; i++) expect(s.x[i]!).toBeGreaterThanOrEqual(s.x[i - 1]!);
}

/** PLEG is unhealthy exactly while the drawn quantity is above the threshold (checked on a grid). */
function expectBandsMatchQuantity(data: WhatIfResult, stepMs: number): void {
  const inBand = (x: number): boolean => data.unhealthy.some((w) => x > w.fromMs && x < w.toMs);
  const onEdge = (x: number): boolean => data.unhealthy.some((w) => Math.abs(x - w.fromMs) < stepMs || Math.abs(x - w.toMs) < stepMs);
  let checked = 0;
  for (let x = stepMs; x < data.durationMs; x += stepMs) {
    const q = sinceLastRelistStartAt(data.series, x);
    if (q === undefined || onEdge(x)) continue;
    checked++;
    expect(q > data.thresholdMs, `at ${x} ms the quantity is ${q} ms`).toBe(inBand(x));
  }
  expect(checked).toBeGreaterThan(10);
}

describe('what-if timeline', () => {
  it('a 300 s runtime freeze: the health quantity crosses the threshold 3 min after the last good relist started', () => {
    const data = runWhatIf({ ...DEFAULT_WHAT_IF, pods: 10, durationS: 600, freezeAtS: 60, freezeForS: 300 });
    expect(data.thresholdMs).toBe(180_000);
    expect(data.durationMs).toBe(600_000);
    expectAligned(data.series);
    const first = data.unhealthy[0];
    expect(first).toBeDefined();
    // The last good relist started just before the freeze; the threshold is crossed 3 min later.
    expect(first!.fromMs).toBeGreaterThan(60_000 + 170_000);
    expect(first!.fromMs).toBeLessThan(60_000 + 190_000);
    // The band starts where the drawn quantity reaches the threshold line.
    expect(sinceLastRelistStartAt(data.series, first!.fromMs)!).toBeCloseTo(data.thresholdMs, 0);
    expect(Math.max(...nonNull(data.series.sinceLastRelistStart)) * 1000).toBeGreaterThan(data.thresholdMs);
    // Relist durations stay their own series, and they never reach the threshold here: that is why the
    // old chart (durations against the threshold) never crossed the line.
    expect(Math.max(...nonNull(data.series.relistDuration), ...nonNull(data.series.failedRelist)) * 1000).toBeLessThan(data.thresholdMs);
    expect(nonNull(data.series.failedRelist).length).toBeGreaterThan(0);
    expect(data.notReady.length).toBeGreaterThan(0);
    expectBandsMatchQuantity(data, 997);
    expect(data.findings[0]!.text).toMatch(/^Node posted Ready=False at/);
    expect(data.findings.map((f) => f.text).join('\n')).toMatch(/PLEG first unhealthy at \d+\.\d s \(1[78]\d\.\d s after the freeze\)/);
  });

  it('250 pods × 3 containers at 300 ms per call: relists longer than the period still draw the whole run', () => {
    const data = runWhatIf({ ...DEFAULT_WHAT_IF, pods: 250, containersPerPod: 3, rpcLatencyMs: 300 });
    expectAligned(data.series);
    // The x axis covers the whole simulated time, not uPlot's empty-data default.
    expect(data.series.x[0]).toBe(0);
    expect(data.series.x[data.series.x.length - 1]).toBe(900);
    // The first relist inspects all 250 pods serially and takes far longer than the threshold.
    const durations = nonNull(data.series.relistDuration);
    expect(durations.length).toBeGreaterThanOrEqual(1);
    expect(durations[0]! * 1000).toBeGreaterThan(data.thresholdMs);
    // The quantity has a point at every x from the first stamp to the end, and passes the threshold.
    const health = nonNull(data.series.sinceLastRelistStart);
    expect(health.length).toBeGreaterThanOrEqual(3);
    expect(sinceLastRelistStartAt(data.series, 179_000)!).toBeLessThan(data.thresholdMs);
    expect(sinceLastRelistStartAt(data.series, 181_000)!).toBeGreaterThan(data.thresholdMs);
    expect(data.unhealthy[0]!.fromMs).toBeCloseTo(180_000, -2);
    expectBandsMatchQuantity(data, 1_009);
    expect(data.notReady.length).toBeGreaterThan(0);
    // The first relist was too slow on its own: the crossing is not put down to the freeze at 60 s.
    const healthFinding = data.findings.find((f) => f.text.startsWith('PLEG first unhealthy'))!;
    expect(healthFinding.text).toMatch(/^PLEG first unhealthy at 180\.0 s: /);
    expect(data.findings[data.findings.length - 1]!.text).toMatch(/^1 relist finished, 0 failed/);
  });

  it('a relist still running at the end is drawn with its duration so far', () => {
    const data = runWhatIf({ ...DEFAULT_WHAT_IF, pods: 250, containersPerPod: 3, rpcLatencyMs: 300, freezeForS: 0, durationS: 300 });
    expect(nonNull(data.series.relistDuration)).toEqual([]);
    const unfinished = nonNull(data.series.unfinishedRelist);
    expect(unfinished).toEqual([300]);
    expect(data.series.x[data.series.x.length - 1]).toBe(300);
    expect(data.findings.map((f) => f.text).join('\n')).toMatch(/still running when the run ended, 300\.0 s later/);
  });

  it('states discarded events first, with the count', () => {
    const data = runWhatIf({ ...DEFAULT_WHAT_IF, pods: 100, containersPerPod: 20, rpcLatencyMs: 0, freezeForS: 0, durationS: 60 });
    const first = data.findings[0]!;
    expect(first.level).toBe('critical');
    // 100 pods × (20 containers + 1 sandbox) start at once into a channel of 1,000.
    expect(first.text).toMatch(/^1,\d{3} events discarded: channel full \(capacity 1,000\)/);
  });

  it('no freeze and fast calls stay healthy', () => {
    const data = runWhatIf({ ...DEFAULT_WHAT_IF, pods: 20, durationS: 120, freezeForS: 0 });
    expect(data.unhealthy).toEqual([]);
    expect(nonNull(data.series.failedRelist)).toEqual([]);
    expect(Math.max(...nonNull(data.series.sinceLastRelistStart))).toBeLessThan(2);
    expect(data.findings[0]!.text).toMatch(/stayed healthy/);
    expect(data.approximate).toBe(false);
  });

  it('kubelet 1.36: runs with its on-demand relist, and a freeze still crosses the threshold 3 min after the last good relist', () => {
    const params = { ...DEFAULT_WHAT_IF, pods: 10, durationS: 600, freezeAtS: 60, freezeForS: 300, kubelet: '1.36' as const };
    const scenario = parseScenario(whatIfScenario(params));
    expect(scenario.kubeletVersion).toBe('1.36.0');
    expect(scenario.kubelet.onDemandRelist).toBe(true);
    expect(simulate(scenario).onDemand?.podRelists).toBeGreaterThan(0);
    const data = runWhatIf(params);
    expect(data.title).toContain('kubelet 1.36+');
    expect(data.unhealthy[0]!.fromMs).toBeGreaterThan(60_000 + 170_000);
    expect(data.unhealthy[0]!.fromMs).toBeLessThan(60_000 + 190_000);
    expect(runWhatIf({ ...params, kubelet: '1.32' }).title).toContain('kubelet 1.32 – 1.35');
  });

  it('a run longer than 6 h records notable relists only and says its health line is estimated', () => {
    const data = runWhatIf({ ...DEFAULT_WHAT_IF, pods: 10, durationS: 7 * 3600, freezeAtS: 3600, freezeForS: 300 });
    expect(data.approximate).toBe(true);
    expect(data.series.x[data.series.x.length - 1]).toBe(7 * 3600);
    // Between the notable relists the estimate stays low; the freeze still crosses the threshold.
    expect(sinceLastRelistStartAt(data.series, 1_800_000)!).toBeLessThan(3_000);
    expect(data.unhealthy.length).toBe(1);
    expectBandsMatchQuantity(data, 60_013);
  });
});
