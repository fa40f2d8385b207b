// What the live timeline predicts, on a session shaped like the real 1.36.2 window of
// test/fixtures/k8s-1.36-fault (containerd 2.3): runtime request timeout 30 s, a heartbeat 7 s before the
// freeze, relists failing from the freeze on. Times are session ms; t = 0 is the freeze.

import { describe, expect, it } from 'vitest';
import { newTimelineSession } from '../../../../src/core/timeline/newSession';
import { PredictionTracker, predictionBefore, predictPosts } from '../../../../src/core/timeline/postPredictions';
import { StallDetector } from '../../../../src/core/timeline/runtimeStall';
import { applySessionDelta, type SessionRelist, type TimelineSession } from '../../../../src/core/timeline/session';

const RRT = 30_000;

function relist(startMs: number, ok: boolean): SessionRelist {
  const endMs = ok ? startMs + 10 : startMs + RRT;
  return { startMs, endMs, ok, rpcs: [], podsInspected: [], events: 0, discards: 0, sinceLastRelistStartMs: 0, ...(ok ? {} : { error: 'rpc error: code = DeadlineExceeded desc = context deadline exceeded' }) };
}

function frozenSession(): TimelineSession {
  const s = newTimelineSession({ node: 'k136-node', source: 'live', startedAt: new Date('2026-11-28T03:19:00Z'), settings: { runtimeRequestTimeoutMs: RRT } });
  applySessionDelta(s, {
    durationMs: 3_000,
    relists: [relist(-2_000, true), relist(-1_000, true)],
    ready: [{ atMs: -20_000, status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' }],
    nodeStatusPosts: [{ atMs: -7_000, source: 'heartbeat' }],
    stalls: [{ sinceMs: 0, kind: 'hang' }],
  });
  return s;
}

describe('predictPosts on a frozen runtime', () => {
  it('names the runtime-down post first, then the crossing and the PLEG post, all ahead', () => {
    const p = predictPosts(frozenSession(), 3_000);
    // Heartbeat at −7 s (+0.5): the next sync at 3.7 s hangs in Version until 33.7 s; Status has been failing
    // since the freeze, so runtime down from 27.5 s: the 33.7 s evaluation posts it.
    expect(p.at['runtime-down-posted']).toBe(-6_500 + 10_200 + RRT);
    // The last good relist started at −1 s: Healthy() turns false at 179 s.
    expect(p.at['pleg-unhealthy']).toBe(179_000);
    // Evaluations every 40.2 s from 33.7 s: 194.5 s is the first after the crossing.
    expect(p.at['pleg-notready-posted']).toBe(33_700 + 4 * 40_200);
    expect(p.at['ready-posted']).toBeUndefined();
    expect([...p.happened]).toEqual([]);
  });

  it('a phase proved wrong: the runtime-down post stays within one pause of the first hung sync, not a whole sync later', () => {
    // The heartbeat put the first hung evaluation at 33.7 s; at 36 s none has come, so the sync started
    // later than thought, but still within 10.4 s of the freeze: the post is due by 30 + 10.4 = 40.4 s.
    const p = predictPosts(frozenSession(), 36_000);
    expect(p.at['runtime-down-posted']).toBe((36_000 + 40_400) / 2);
    expect(predictPosts(frozenSession(), 41_000).at['runtime-down-posted']).toBe(41_000);
  });

  it('re-anchors on the runtime-down post as the watch saw it', () => {
    const s = frozenSession();
    applySessionDelta(s, { durationMs: 34_000, ready: [{ atMs: 33_200, status: 'False', reason: 'KubeletNotReady', message: 'container runtime is down' }], nodeStatusPosts: [{ atMs: 33_200, source: 'watch' }] });
    const p = predictPosts(s, 34_000);
    expect(p.happened.has('runtime-down-posted')).toBe(true);
    expect(p.at['runtime-down-posted']).toBeUndefined();
    expect(p.at['pleg-notready-posted']).toBe(33_200 + 4 * 40_200);
  });

  it('after the runtime answers again: Ready at the next sync, nothing else', () => {
    const s = frozenSession();
    applySessionDelta(s, {
      durationMs: 200_000,
      ready: [{ atMs: 194_100, status: 'False', reason: 'KubeletNotReady', message: '[container runtime is down, PLEG is not healthy: pleg was last seen active 3m15s ago; threshold is 3m0s]' }],
      nodeStatusPosts: [{ atMs: 194_100, source: 'watch' }],
      stalls: [{ sinceMs: 0, untilMs: 197_000, kind: 'hang' }],
      relists: [relist(196_000, true)],
    });
    const p = predictPosts(s, 197_100);
    expect(p.at['ready-posted']).toBe(194_100 + 10_200);
    expect(p.at['runtime-down-posted']).toBeUndefined();
    expect(p.at['pleg-notready-posted']).toBeUndefined();
    expect([...p.happened].sort()).toEqual(['pleg-notready-posted', 'runtime-down-posted']);
  });
});

describe('PredictionTracker', () => {
  it('records a prediction when made, again only when it moves by a second, and withdraws one whose cause went away', () => {
    const t = new PredictionTracker();
    const none = new Set<never>();
    expect(t.update(1_000, { at: { 'pleg-unhealthy': 179_000 }, happened: none })).toEqual([{ atMs: 1_000, event: 'pleg-unhealthy', predictedAtMs: 179_000 }]);
    expect(t.update(2_000, { at: { 'pleg-unhealthy': 179_400 }, happened: none })).toEqual([]);
    expect(t.update(3_000, { at: { 'pleg-unhealthy': 180_100 }, happened: none })).toEqual([{ atMs: 3_000, event: 'pleg-unhealthy', predictedAtMs: 180_100 }]);
    expect(t.update(4_000, { at: {}, happened: none })).toEqual([{ atMs: 4_000, event: 'pleg-unhealthy', predictedAtMs: null }]);
    t.update(5_000, { at: { 'pleg-unhealthy': 190_000 }, happened: none });
    // It happened: done, not withdrawn.
    expect(t.update(191_000, { at: {}, happened: new Set(['pleg-unhealthy']) })).toEqual([]);
  });

  it('predictionBefore: the one in force before an instant', () => {
    const list = [
      { atMs: 1, event: 'pleg-unhealthy' as const, predictedAtMs: 100 },
      { atMs: 5, event: 'pleg-unhealthy' as const, predictedAtMs: 120 },
      { atMs: 150, event: 'pleg-unhealthy' as const, predictedAtMs: 160 },
    ];
    expect(predictionBefore(list, 'pleg-unhealthy', 120)?.predictedAtMs).toBe(120);
    expect(predictionBefore(list, 'ready-posted', 120)).toBeUndefined();
  });
});

describe('StallDetector', () => {
  it('opens a hang when a call waits past 5× the slowest recent answer (at least 2 s), between the last answer and the call', () => {
    const d = new StallDetector(() => RRT);
    d.callStarted(0);
    expect(d.callEnded(10, 'ok')).toBeUndefined();
    d.callStarted(1_010);
    expect(d.check(2_900)).toBeUndefined();
    expect(d.check(3_010)).toEqual({ sinceMs: 510, kind: 'hang' });
    expect(d.callEnded(31_010, 'deadline')).toBeUndefined();
    d.callStarted(31_020);
    expect(d.callEnded(31_030, 'ok')).toEqual({ sinceMs: 510, untilMs: 31_030, kind: 'hang' });
    expect(d.current).toBeUndefined();
  });

  it('a refused call opens a refused stall; an error answer is still an answer', () => {
    const d = new StallDetector(() => RRT);
    d.callStarted(100);
    expect(d.callEnded(101, 'refused')).toEqual({ sinceMs: 100, kind: 'refused' });
    d.callStarted(2_000);
    expect(d.callEnded(2_003, 'error')).toMatchObject({ kind: 'refused', untilMs: 2_003 });
  });

  it('a slow but answering runtime is not a stall', () => {
    const d = new StallDetector(() => RRT);
    d.callStarted(0);
    d.callEnded(1_500, 'ok');
    d.callStarted(2_500);
    expect(d.check(9_000)).toBeUndefined();
    expect(d.callEnded(9_200, 'ok')).toBeUndefined();
  });
});
