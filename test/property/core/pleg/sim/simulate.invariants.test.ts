import { readFileSync } from 'node:fs';
import { describe, expect } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { parseStructuredBody } from '../../../../../src/core/parse/klogStructured';
import { readLineGeneral } from '../../../../../src/core/parse/logReaderLine';
import { parseScenario, type Scenario } from '../../../../../src/core/pleg/sim/scenario';
import { simulate } from '../../../../../src/core/pleg/sim/simulate';
import type { SimulationRun } from '../../../../../src/core/pleg/sim/simulationRun';
import { propWithLoops } from '../../../../support/loopTally';

const latency = fc.oneof(
  fc.double({ min: 0, max: 40, noNaN: true }),
  fc.record({ kind: fc.constant('lognormal'), medianMs: fc.double({ min: 0.1, max: 5, noNaN: true }), p99Ms: fc.double({ min: 5, max: 400, noNaN: true }) }),
  fc.record({ kind: fc.constant('uniform'), minMs: fc.constant(0), maxMs: fc.double({ min: 0, max: 3_000, noNaN: true }) }),
);

const windowsArb = (maxStart: number, maxLen: number, n: number): fc.Arbitrary<Array<{ startMs: number; durationMs: number }>> =>
  fc.array(fc.tuple(fc.integer({ min: 0, max: maxStart }), fc.integer({ min: 0, max: maxLen })), { maxLength: n }).map((ws) => {
    // Sort and separate so the windows never overlap.
    const sorted = [...ws].sort((a, b) => a[0] - b[0]);
    const out: Array<{ startMs: number; durationMs: number }> = [];
    let prevEnd = 0;
    for (const [s, d] of sorted) {
      const startMs = Math.max(s, prevEnd);
      out.push({ startMs, durationMs: d });
      prevEnd = startMs + d;
    }
    return out;
  });

const scenarioArb: fc.Arbitrary<Scenario> = fc
  .record({
    seed: fc.integer({ min: 0, max: 0xffffffff }),
    duration: fc.integer({ min: 30_000, max: 600_000 }),
    kubeletVersion: fc.constantFrom('1.12.10', '1.13.5', '1.20.4', '1.28.3', '1.32.10'),
    pods: fc.record({ count: fc.integer({ min: 0, max: 25 }), containersPerPod: fc.record({ min: fc.constant(0), max: fc.integer({ min: 0, max: 3 }) }) }),
    churn: fc.record({ containerRestartsPerHour: fc.integer({ min: 0, max: 4_000 }), podReplacementsPerHour: fc.integer({ min: 0, max: 2_000 }) }),
    latency: fc.record({ listPodSandbox: latency, listContainers: latency, podSandboxStatus: latency, containerStatus: latency, status: latency, version: latency }),
    runtimeHangs: windowsArb(600_000, 400_000, 2),
    consumerStalls: windowsArb(600_000, 300_000, 1),
    kubelet: fc.record({
      runtimeRequestTimeout: fc.integer({ min: 500, max: 150_000 }),
      channelCapacity: fc.integer({ min: 1, max: 50 }),
    }),
  })
  .map((raw) => parseScenario({ ...raw, record: { relists: 'all' } }));

const run = (s: Scenario): SimulationRun => simulate(s);

/**
 * Random scenarios seldom freeze the runtime past the threshold, so each property also runs on the real
 * frozen-runtime scenario: it turns PLEG unhealthy and back, posts NotReady and skips sync loop passes.
 */
const frozen = parseScenario({ ...(JSON.parse(readFileSync(new URL('../../../../fixtures/scenarios/frozen-runtime.json', import.meta.url), 'utf8')) as object), record: { relists: 'all' } });
const withFrozen = (numRuns: number): { numRuns: number; examples: [[Scenario]][] } => ({ numRuns, examples: [[[frozen]]] });

// Minimum counts, over all runs of a property, of what its loops checked (see ../loopTally.ts): below
// what the runs give (the frozen scenario alone: 122 relists, one flip each way after startup, 2 skip
// windows, 45 log lines, 3 NotReady posts), but never zero: a loop that never runs fails the test.
const RELISTS_MIN = 100;
const FLIPS_MIN = 1;
const SKIP_LINES_MIN = 20;
const WINDOWS_MIN = 2;
const LINES_MIN = 45;
const POSTS_MIN = 2;

describe('simulator invariants', () => {
  test.prop([scenarioArb], { numRuns: 12 })('is deterministic for a seed, and the timeline is plain JSON', (s) => {
    const a = run(s);
    const b = run(s);
    expect(b).toEqual(a);
    expect(JSON.parse(JSON.stringify(a))).toEqual(a);
  }, 60_000);

  propWithLoops([scenarioArb], withFrozen(25), { relists: RELISTS_MIN })('relists never overlap and start at least one period after the previous one ends', (s, tally) => {
    const t = run(s);
    for (let i = 0; i < t.relists.length; i++) {
      const r = t.relists[i] as SimulationRun['relists'][number];
      tally.hit('relists');
      expect(r.endMs).toBeGreaterThanOrEqual(r.startMs);
      // A single call never outlives the deadline: GetPods is two calls, so a failed relist is bounded by both.
      if (!r.ok) expect(r.durationMs).toBeLessThanOrEqual(2 * s.kubelet.runtimeRequestTimeoutMs + 1e-6);
      const prev = t.relists[i - 1];
      if (prev) expect(r.startMs).toBeGreaterThanOrEqual(prev.endMs + s.kubelet.relistPeriodMs - 1e-6);
    }
  }, 60_000);

  propWithLoops([scenarioArb], withFrozen(25), { unhealthy: FLIPS_MIN, healthy: FLIPS_MIN })('health flips exactly one threshold after the last good relist start, and back only when a relist succeeds', (s, tally) => {
    const t = run(s);
    const okStarts = t.relists.filter((r) => r.ok).map((r) => r.startMs);
    // A ≤1.13 relist blocked in its channel send never ends, so it is not listed; it started one period
    // after the last listed one (or at 0).
    const lastListed = t.relists[t.relists.length - 1];
    okStarts.push(lastListed === undefined ? 0 : lastListed.endMs + s.kubelet.relistPeriodMs);
    t.health.forEach((h, i) => {
      if (i === 0) {
        expect(h).toEqual({ atMs: 0, healthy: false });
        return;
      }
      const prev = t.health[i - 1] as SimulationRun['health'][number];
      expect(h.healthy).toBe(!prev.healthy);
      expect(h.atMs).toBeGreaterThanOrEqual(prev.atMs);
      tally.hit(h.healthy ? 'healthy' : 'unhealthy');
      if (!h.healthy) {
        // Went unhealthy: the stamp was a successful relist's start, exactly one threshold earlier.
        expect(okStarts.some((st) => Math.abs(st + s.kubelet.relistThresholdMs - h.atMs) < 1e-6)).toBe(true);
      } else {
        // Became healthy: during a successful relist (when its GetPods returned). A ≤1.13 relist stuck in
        // a blocking send (#72482) may never finish, so it is not in the list: then it is the last one.
        const last = t.relists[t.relists.length - 1];
        const during = t.relists.some((r) => r.ok && r.startMs <= h.atMs && h.atMs <= r.endMs);
        expect(during || last === undefined || h.atMs >= last.endMs).toBe(true);
      }
    });
  }, 60_000);

  propWithLoops([scenarioArb], withFrozen(20), { skipLines: SKIP_LINES_MIN })('health transitions agree with what the model told the sync loop', (s, tally) => {
    const t = run(s);
    const healthyAt = (x: number): boolean => {
      let h = false;
      for (const tr of t.health) if (tr.atMs <= x) h = tr.healthy;
      return h;
    };
    for (const l of t.logLines) {
      if (!l.line.includes('"Skipping pod synchronization"')) continue;
      // The skip line's PLEG part comes from the model's Healthy() at that instant.
      const saysUnhealthy = l.line.includes('PLEG is not healthy: ');
      // At an exact transition instant both answers are defensible; skip those.
      if (t.health.some((tr) => Math.abs(tr.atMs - l.atMs) < 1e-6)) continue;
      tally.hit('skipLines');
      expect(saysUnhealthy).toBe(!healthyAt(l.atMs));
    }
  }, 60_000);

  propWithLoops([scenarioArb], withFrozen(20), { windows: WINDOWS_MIN, gaps: SKIP_LINES_MIN, lines: LINES_MIN })('skip lines back off 100 ms doubling to 5 s, and every generated line parses as klog', (s, tally) => {
    const t = run(s);
    const skips = t.logLines.filter((l) => l.line.includes('"Skipping pod synchronization"'));
    for (const w of t.skipWindows) {
      const inWindow = skips.filter((l) => l.atMs >= w.startMs && (w.endMs === null || l.atMs < w.endMs));
      tally.hit('windows');
      expect(inWindow.length).toBe(w.skips);
      inWindow.forEach((l, i) => {
        const next = inWindow[i + 1];
        if (!next) return;
        tally.hit('gaps');
        const backoff = Math.min(100 * 2 ** i, 5_000);
        // A consumer stall holds the loop; otherwise the gap is exactly the backoff.
        const stalled = s.consumerStalls.some((w) => w.startMs < next.atMs && w.startMs + w.durationMs > l.atMs);
        if (stalled) expect(next.atMs - l.atMs).toBeGreaterThanOrEqual(backoff - 1e-6);
        else expect(next.atMs - l.atMs).toBeCloseTo(backoff, 6);
      });
    }
    for (const l of t.logLines) {
      tally.hit('lines');
      // A klog header the reader places in time, then a structured body (`"msg" key=value…`).
      const r = readLineGeneral(l.line);
      expect(r.time).toBeDefined();
      expect(parseStructuredBody(r.body.text)?.msg).toBe(r.body.msg);
    }
  }, 60_000);

  propWithLoops([scenarioArb], withFrozen(20), { ready: POSTS_MIN, notReady: POSTS_MIN })('NotReady posts carry the runtime errors; Ready posts the kubelet text', (s, tally) => {
    const t = run(s);
    for (const p of t.nodeReady) {
      tally.hit(p.status === 'True' ? 'ready' : 'notReady');
      if (p.status === 'True') expect(p).toMatchObject({ reason: 'KubeletReady', message: 'kubelet is posting ready status' });
      else {
        expect(p.reason).toBe('KubeletNotReady');
        expect(p.message).toMatch(/container runtime is down|container runtime status check may not have completed yet|PLEG is not healthy: /u);
      }
    }
  }, 60_000);
});
