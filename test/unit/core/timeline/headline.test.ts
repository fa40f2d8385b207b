// The timeline's headline: the classifier's verdict on the session's last Ready condition, dated from
// the start of that condition's run, worded as the tree words it; "now" live, "at the recording's end"
// for a recording.

import { describe, expect, it } from 'vitest';
import { headlineState, lastReadyCondition } from '../../../../src/core/timeline/headline';
import { predictThreshold } from '../../../../src/core/timeline/predict';
import type { SessionReady, TimelineSession } from '../../../../src/core/timeline/session';
import { englishText } from '../../../../src/core/tree/localize';
import { sessionHeadline } from '../../../../src/host/timeline/timelineHeadline';
import { readNode } from '../../../../src/infra/timeline/kubeletPoller';
import { parseTimelineSession } from '../../../../src/core/timeline/validate';
import { recordedSession } from '../../../support/timelineSession';

const PLEG_MESSAGE = 'PLEG is not healthy: pleg was last seen active 10m28.1s ago; threshold is 3m0s';

function withReady(ready: SessionReady[], durationMs = 600_000): TimelineSession {
  const session = recordedSession({ durationS: 20, pods: 2 });
  session.ready = ready;
  session.durationMs = durationMs;
  session.startedAt = '2026-11-28T07:00:00.000Z';
  return session;
}

const up = (atMs: number): SessionReady => ({ atMs, status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' });
const down = (atMs: number, message: string): SessionReady => ({ atMs, status: 'False', reason: 'KubeletNotReady', message });

describe('timeline headline', () => {
  it('a node NotReady with PLEG at the end is "pleg", since the first of its NotReady posts', () => {
    const session = withReady([up(0), down(60_000, 'container runtime is down'), down(240_000, PLEG_MESSAGE), down(250_000, PLEG_MESSAGE)]);
    const state = headlineState(session);
    expect(state.verdict).toBe('pleg');
    // Ready=False since the runtime-down post: the run of False entries starts there.
    expect(state.sinceEpochMs).toBe(Date.parse('2026-11-28T07:01:00.000Z'));
    expect(state.atEpochMs).toBe(Date.parse('2026-11-28T07:10:00.000Z'));
    expect(sessionHeadline(session, false, englishText)).toEqual({
      verdict: 'pleg',
      title: 'PLEG is not healthy',
      when: "at the recording's end, 07:10:00 UTC (Ready=False since 07:01:00 UTC)",
      message: PLEG_MESSAGE,
    });
    expect(sessionHeadline(session, true, englishText).when).toBe('now (Ready=False since 07:01:00 UTC)');
  });

  it('the state at the end wins over an earlier NotReady: a recovered node is Ready', () => {
    const session = withReady([up(0), down(60_000, PLEG_MESSAGE), up(300_000)]);
    expect(headlineState(session).verdict).toBe('ready');
    expect(lastReadyCondition(session)).toEqual({ ready: up(300_000), transitionMs: 300_000, seen: true, known: true });
    expect(sessionHeadline(session, false, englishText).title).toBe('Ready');
  });

  it('runtime down, lease lost and a start-up transient get the verdicts the tree gives them', () => {
    expect(headlineState(withReady([up(0), down(100_000, 'container runtime is down')])).verdict).toBe('runtime-down');
    expect(headlineState(withReady([up(0), { atMs: 100_000, status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.' }])).verdict).toBe('lease-lost');
    // "may not have completed yet" for 1 minute is a kubelet starting; for 5 minutes it is the runtime.
    const pending = 'container runtime status check may not have completed yet';
    expect(headlineState(withReady([up(0), down(540_000, pending)], 600_000)).verdict).toBe('startup');
    expect(headlineState(withReady([up(0), down(300_000, pending)], 600_000)).verdict).toBe('runtime-down');
  });

  it('a status the session found already so is dated "since before" the session began, and the classifier gets no transition time', () => {
    const session = withReady([down(0, PLEG_MESSAGE), down(10_000, PLEG_MESSAGE)]);
    expect(headlineState(session)).toMatchObject({ verdict: 'pleg', sinceKnown: false });
    expect(sessionHeadline(session, true, englishText).when).toBe('now (Ready=False since before 07:00:00 UTC, when the session began)');
    // "may not have completed yet" with no transition time cannot be told from a start-up transient: flagged, as the tree flags it.
    expect(headlineState(withReady([down(0, 'container runtime status check may not have completed yet')], 60_000)).verdict).toBe('runtime-down');
  });

  it('a status found already so, with the lastTransitionTime the API server gave, is dated from it, and the classifier gets it', () => {
    // The live feed keeps the Node's lastTransitionTime with its first reading (infra/timeline/kubeletPoller.ts readNode).
    const stated = (atMs: number, message: string): SessionReady => ({ ...down(atMs, message), lastTransitionTime: '2026-11-28T06:49:45Z' });
    const session = withReady([stated(0, PLEG_MESSAGE), down(10_000, PLEG_MESSAGE)]);
    expect(headlineState(session)).toMatchObject({ verdict: 'pleg', sinceKnown: true, sinceEpochMs: Date.parse('2026-11-28T06:49:45Z') });
    expect(sessionHeadline(session, true, englishText).when).toBe('now (Ready=False since 06:49:45 UTC)');
    // Ten minutes of "may not have completed yet" is the runtime, not a start-up: the stated time tells them apart.
    const pending = 'container runtime status check may not have completed yet';
    expect(headlineState(withReady([{ ...down(0, pending), lastTransitionTime: '2026-11-28T06:59:30Z' }], 60_000)).verdict).toBe('startup');
    expect(headlineState(withReady([{ ...down(0, pending), lastTransitionTime: '2026-11-28T06:50:00Z' }], 60_000)).verdict).toBe('runtime-down');
    // A stated time after the reading itself is not a transition before the session: "since before".
    expect(headlineState(withReady([{ ...down(0, PLEG_MESSAGE), lastTransitionTime: '2026-11-28T07:05:00Z' }])).sinceKnown).toBe(false);
    // The prediction says since when, too.
    session.durationMs = 30_000;
    session.relists = [];
    session.kubelet = [{ atMs: 5_000, scrape: 'ok', lastSeenAgeS: 430 }];
    expect(predictThreshold(session, 30_000).sentence).toMatch(/; the node has been NotReady since 06:49:45 UTC, before the session began \(07:00:00 UTC\)$/);
  });

  it('a status that began on another day is dated with its day, in the headline and the prediction', () => {
    const days = withReady([{ ...up(0), lastTransitionTime: '2026-11-12T16:39:14Z' }]);
    expect(sessionHeadline(days, true, englishText).when).toBe('now (Ready=True since 2026-11-12 16:39:14 UTC)');
    const session = withReady([{ ...down(0, PLEG_MESSAGE), lastTransitionTime: '2026-11-27T23:58:00Z' }], 30_000);
    session.relists = [];
    session.kubelet = [{ atMs: 5_000, scrape: 'ok', lastSeenAgeS: 430 }];
    expect(predictThreshold(session, 30_000).sentence).toMatch(/; the node has been NotReady since 2026-11-27 23:58:00 UTC, before the session began \(07:00:00 UTC\)$/);
  });

  it('the live feed keeps the Node\'s lastTransitionTime with its Ready reading', () => {
    const node = { metadata: { name: 'n1' }, status: { conditions: [{ type: 'Ready', status: 'False', reason: 'KubeletNotReady', message: PLEG_MESSAGE, lastTransitionTime: '2026-11-28T06:49:45Z', lastHeartbeatTime: '2026-11-28T07:00:00Z' }] } };
    expect(readNode(node).ready).toEqual({ status: 'False', reason: 'KubeletNotReady', message: PLEG_MESSAGE, lastTransitionTime: '2026-11-28T06:49:45Z' });
  });

  it('the prediction does not call the first Ready reading a post it saw: the node was NotReady before the session', () => {
    const session = withReady([down(0, PLEG_MESSAGE)], 30_000);
    session.relists = [];
    session.kubelet = [{ atMs: 5_000, scrape: 'ok', lastSeenAgeS: 430 }];
    expect(predictThreshold(session, 30_000).sentence).toMatch(/; the kubelet had posted NotReady before the session began \(07:00:00 UTC\)$/);
    // A NotReady the session saw arrive is a post.
    const seen = withReady([up(0), down(20_000, PLEG_MESSAGE)], 30_000);
    seen.relists = [];
    seen.kubelet = [{ atMs: 5_000, scrape: 'ok', lastSeenAgeS: 200 }];
    expect(predictThreshold(seen, 30_000).sentence).toMatch(/the kubelet posted NotReady at 07:00:20 UTC$/);
  });

  it('no Ready condition: no verdict, and the words say what is missing', () => {
    const session = withReady([]);
    expect(headlineState(session).verdict).toBeNull();
    expect(sessionHeadline(session, true, englishText)).toEqual({ verdict: null, title: "Waiting for the node's Ready condition", when: 'now', message: '' });
    expect(sessionHeadline(session, false, englishText).title).toBe('The recording holds no Ready condition of the node');
  });
});

describe('timeline headline of a node at risk (node-problem-detector\'s PLEGAtRisk)', () => {
  // NPD wrote its prediction at 07:08:20; the session ends at 07:10:00 (100 s later).
  const risk = { status: 'True' as const, reason: 'NotReadyPredicted', message: 'NotReady predicted in 2m57s: runtime-hung', lastTransitionTime: '2026-11-28T07:08:20Z', lastHeartbeatTime: '2026-11-28T07:08:20Z' };

  it('Ready with PLEGAtRisk=True heads the panel with the tree row\'s words and NPD\'s message', () => {
    const session = withReady([up(0)]);
    session.atRisk = [{ atMs: 500_000, ...risk }];
    expect(headlineState(session).verdict).toBe('pleg-at-risk');
    expect(sessionHeadline(session, true, englishText)).toMatchObject({ verdict: 'pleg-at-risk', title: 'PLEG at risk · NotReady in ~1m17s', message: risk.message });
    // A saved session keeps the lane; a malformed entry is refused by name.
    expect(parseTimelineSession(JSON.parse(JSON.stringify(session))).ok).toBe(true);
    const bad = parseTimelineSession({ ...JSON.parse(JSON.stringify(session)), atRisk: [{ atMs: 1, status: 'Maybe', reason: '', message: '' }] });
    expect(bad.ok ? [] : bad.errors.join('; ')).toMatch(/atRisk\[0\]\.status/u);
  });

  it('the last entry counts: PLEGAtRisk back to False is Ready; the kubelet\'s NotReady wins over it', () => {
    const cleared = withReady([up(0)]);
    cleared.atRisk = [{ atMs: 500_000, ...risk }, { atMs: 590_000, status: 'False', reason: 'NoNotReadyPredicted', message: 'pleg-doctor predicts no PLEG NotReady' }];
    expect(sessionHeadline(cleared, true, englishText)).toMatchObject({ verdict: 'ready', title: 'Ready' });
    const down2 = withReady([up(0), down(590_000, PLEG_MESSAGE)]);
    down2.atRisk = [{ atMs: 500_000, ...risk }];
    expect(sessionHeadline(down2, true, englishText)).toMatchObject({ verdict: 'pleg', message: PLEG_MESSAGE });
  });

  it('the live feed reads PLEGAtRisk from the Node object it already has', () => {
    const reading = readNode({ metadata: { name: 'n' }, status: { conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'ok' }, { type: 'PLEGAtRisk', ...risk }] } });
    expect(reading.atRisk).toEqual(risk);
    expect(readNode({ metadata: { name: 'n' }, status: { conditions: [] } }).atRisk).toBeUndefined();
  });
});
