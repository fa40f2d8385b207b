import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sessionFromMetricsSeries } from '../../../../src/core/timeline/fromMetrics';
import { KubeletSampler, POD_RELIST_DURATION_METRIC } from '../../../../src/core/timeline/kubeletSampler';
import { predictThreshold } from '../../../../src/core/timeline/predict';
import { parseTimelineSession } from '../../../../src/core/timeline/validate';
import { readMetricsFolder } from '../../../../src/infra/timeline/readMetricsFolder';

const FIXTURE = join(__dirname, '../../../fixtures/real-kubelet-1.32');
const SIGSTOP_MS = Date.parse('2026-11-22T03:00:44.244Z');
const SIGCONT_MS = Date.parse('2026-11-22T03:05:44.341Z');
// The kubelet's first "PLEG is not healthy" line (kubelet-runtime-stopped.log, +182.3 s).
const PLEG_UNHEALTHY_LOGGED_MS = SIGSTOP_MS + 182_300;

describe('the real kubelet 1.32 recording as a session', () => {
  it('lastSeenAge rises past 180 s by the time the kubelet posted PLEG unhealthy, and recovers after SIGCONT', async () => {
    const session = sessionFromMetricsSeries({ scrapes: await readMetricsFolder(FIXTURE) });
    expect(parseTimelineSession(JSON.parse(JSON.stringify(session)))).toMatchObject({ ok: true });
    expect(session.node).toBe('pleg-node');
    expect(session.kubeletVersion).toMatch(/^v1\.32\.10/u);
    expect(session.settings.profile).toBe('1.32+');
    const start = Date.parse(session.startedAt);
    const at = (k: { atMs: number }): number => start + k.atMs;
    const before = session.kubelet.filter((k) => at(k) < SIGSTOP_MS);
    const frozen = session.kubelet.filter((k) => at(k) > SIGSTOP_MS && at(k) < SIGCONT_MS);
    const after = session.kubelet.filter((k) => at(k) > SIGCONT_MS);
    expect(before.every((k) => (k.lastSeenAgeS ?? Infinity) < 5)).toBe(true);
    // The ages grow with the freeze: the stamp stays at the last good relist.
    const ages = frozen.map((k) => k.lastSeenAgeS ?? NaN);
    expect(ages).toEqual([...ages].sort((a, b) => a - b));
    const firstPast = frozen.find((k) => (k.lastSeenAgeS ?? 0) > 180);
    expect(firstPast).toBeDefined();
    expect(at(firstPast!)).toBeLessThanOrEqual(PLEG_UNHEALTHY_LOGGED_MS);
    expect(frozen.filter((k) => at(k) < PLEG_UNHEALTHY_LOGGED_MS - 5_000).every((k) => (k.lastSeenAgeS ?? 0) <= 180)).toBe(true);
    expect(after.every((k) => (k.lastSeenAgeS ?? Infinity) < 5)).toBe(true);
    // Health as the metrics show it: false from the last good relist + 3 min (≈ +179 s), true again after SIGCONT.
    const down = session.health.find((h) => !h.healthy);
    expect(start + (down?.atMs ?? NaN)).toBeGreaterThan(SIGSTOP_MS + 175_000);
    expect(start + (down?.atMs ?? NaN)).toBeLessThan(SIGSTOP_MS + 181_000);
    expect(down?.message).toMatch(/^pleg was last seen active 3m\d/u);
    expect(start + (session.health.at(-1)?.atMs ?? 0)).toBeGreaterThan(SIGCONT_MS);
    expect(session.health.at(-1)?.healthy).toBe(true);
    // Each failed attempt adds one ≈ 120 s relist observation; the scrapes hung ≈ 120 s.
    expect(Math.max(...session.kubelet.map((k) => k.relistDurationS ?? 0))).toBeGreaterThan(100);
    expect(Math.max(...frozen.map((k) => k.scrapeMs ?? 0))).toBeGreaterThan(100_000);
    expect(Math.max(...frozen.map((k) => k.runtimeErrors?.['list_podsandbox'] ?? 0))).toBeGreaterThan(0);
    expect(session.lacks.join(' ')).toMatch(/no node conditions/u);
  });

  it('predicts from the metrics alone: crossing while frozen, unhealthy after the crossing', async () => {
    const session = sessionFromMetricsSeries({ scrapes: await readMetricsFolder(FIXTURE) });
    const start = Date.parse(session.startedAt);
    const frozenAt = SIGSTOP_MS + 125_000 - start;
    const partial = { ...session, kubelet: session.kubelet.filter((k) => k.atMs <= frozenAt) };
    const p = predictThreshold(partial, frozenAt);
    expect(p.basis).toBe('kubelet-metrics');
    expect(p.state).toBe('crossing');
    // The last good relist started ≈ 1 s before the freeze (last_seen has whole seconds).
    expect(start + (p.crossingAtMs ?? 0)).toBeGreaterThan(SIGSTOP_MS + 177_000);
    expect(start + (p.crossingAtMs ?? 0)).toBeLessThan(SIGSTOP_MS + 181_000);
    expect(p.sentence).toMatch(/^at this rate the threshold is crossed at 03:03:4\d UTC \(the kubelet has not relisted since\); the kubelet will post NotReady at about 03:0\d:\d\d UTC \(its next node status update, every 10s\)$/u);
    const later = predictThreshold(partial, SIGSTOP_MS + 200_000 - start);
    expect(later.state).toBe('unhealthy');
  });

  it('reads 1.36\u2019s per-pod relist histogram as an interval mean', () => {
    const body = (count: number, sum: number): string =>
      [
        '# TYPE kubelet_pleg_last_seen_seconds gauge',
        'kubelet_pleg_last_seen_seconds 1000',
        `# TYPE ${POD_RELIST_DURATION_METRIC} histogram`,
        `${POD_RELIST_DURATION_METRIC}_bucket{le="+Inf"} ${count}`,
        `${POD_RELIST_DURATION_METRIC}_sum ${sum}`,
        `${POD_RELIST_DURATION_METRIC}_count ${count}`,
        '',
      ].join('\n');
    const sampler = new KubeletSampler(1_000_000);
    expect(sampler.sample({ epochMs: 1_001_000, outcome: 'ok', text: body(10, 1) }).podRelistDurationS).toBeUndefined();
    const s = sampler.sample({ epochMs: 1_006_000, outcome: 'ok', text: body(14, 3) });
    expect(s.podRelistDurationS).toBeCloseTo(0.5, 9);
    expect(s.lastSeenAgeS).toBe(6);
    expect(sampler.sample({ epochMs: 1_007_000, outcome: 'hung', detail: 'x' })).toEqual({ atMs: 7_000, scrape: 'hung', detail: 'x' });
    expect(sampler.sample({ epochMs: 1_008_000, outcome: 'ok', text: 'not metrics{' }).scrape).toBe('error');
  });
});
