// The agent's session and its cursor (core/agent/sessionLog.ts): the deltas after a cursor rebuild the same
// session the agent holds; the window drops old records but keeps the current state; cursors of another
// run, from the future, or older than the window are answered with the reason.

import { describe, expect, it } from 'vitest';
import { SessionLog } from '../../../../src/core/agent/sessionLog';
import { newTimelineSession } from '../../../../src/core/timeline/newSession';
import { applySessionDelta, type SessionDelta } from '../../../../src/core/timeline/session';
import { parseTimelineSession } from '../../../../src/core/timeline/validate';

const start = new Date('2026-11-28T10:00:00Z');
const fresh = () => newTimelineSession({ node: 'n1', source: 'live', startedAt: start });
const relistAt = (ms: number, ok = true): SessionDelta => ({
  durationMs: ms + 5,
  relists: [{ startMs: ms, endMs: ms + 5, ok, rpcs: [], podsInspected: [], events: 0, discards: 0, sinceLastRelistStartMs: 1000 }],
});

describe('SessionLog', () => {
  it('gives the deltas after a cursor, which rebuild the session it holds', () => {
    const log = new SessionLog(fresh(), 60_000);
    log.apply(relistAt(0));
    const cursor = log.cursor;
    log.apply(relistAt(1000));
    log.apply({ durationMs: 1500, health: [{ atMs: 1500, healthy: true }] });
    const answer = log.since(cursor);
    if (answer.kind !== 'deltas') throw new Error(answer.reason);
    expect(answer.deltas).toHaveLength(2);
    expect(answer.cursor).toBe(log.cursor);
    const client = fresh();
    applySessionDelta(client, relistAt(0));
    for (const d of answer.deltas) applySessionDelta(client, d);
    expect(client).toEqual(log.session);
    const again = log.since(answer.cursor);
    expect(again.kind === 'deltas' && again.deltas.length).toBe(0);
  });

  it('keeps a window: old relists go, the current health and Ready stay, and an old cursor is gone', () => {
    const log = new SessionLog(fresh(), 10_000);
    const first = log.cursor;
    log.apply({ durationMs: 0, health: [{ atMs: 0, healthy: true }], ready: [{ atMs: 0, status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' }] });
    for (let t = 1000; t <= 30_000; t += 1000) log.apply(relistAt(t));
    // Trimmed in batches: never more than the window and a tenth of it.
    expect(log.session.relists[0]?.endMs).toBeGreaterThanOrEqual(30_005 - 11_000);
    expect(log.session.relists.length).toBeLessThanOrEqual(12);
    expect(log.session.health).toEqual([{ atMs: 0, healthy: true }]);
    expect(log.session.ready).toHaveLength(1);
    expect(log.since(first)).toMatchObject({ kind: 'gone' });
    // PLEGAtRisk is a state lane too: its changes before the window go, the one in force then stays.
    const risk = (atMs: number, status: 'True' | 'False') => ({ atMs, status, reason: status === 'True' ? 'NotReadyPredicted' : 'NoNotReadyPredicted', message: '' });
    log.apply({ durationMs: 31_000, atRisk: [risk(31_000, 'True')] });
    log.apply({ durationMs: 32_000, atRisk: [risk(32_000, 'False')] });
    for (let t = 33_000; t <= 60_000; t += 1000) log.apply(relistAt(t));
    expect(log.session.atRisk).toEqual([risk(32_000, 'False')]);
    const parsed = parseTimelineSession(JSON.parse(JSON.stringify(log.session)));
    expect(parsed.ok).toBe(true);
  });

  it('names a cursor from another run, one from the future, and one that is not a cursor', () => {
    const log = new SessionLog(fresh(), 60_000);
    log.apply(relistAt(0));
    const [run] = log.cursor.split('-');
    expect(log.since(`${Number(run) + 1}-0`)).toMatchObject({ kind: 'gone', reason: expect.stringMatching(/restarted/u) });
    expect(log.since(`${run}-99`)).toMatchObject({ kind: 'bad', reason: expect.stringMatching(/ahead/u) });
    expect(log.since('abc')).toMatchObject({ kind: 'bad', reason: expect.stringMatching(/not a cursor/u) });
  });
});
