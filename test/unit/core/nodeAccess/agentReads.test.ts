import { describe, expect, it } from 'vitest';
import { sinceStep, snapshotAge } from '../../../../src/core/nodeAccess/agentReads';

describe('sinceStep: the agent\u2019s /v1/session?since=CURSOR answers (src/infra/agent/agentServer.ts)', () => {
  it('200: the deltas in order and the next cursor', () => {
    const body = JSON.stringify({ cursor: '1700000000000-7', deltas: [{ durationMs: 1000, relists: [] }, { durationMs: 2000 }] });
    expect(sinceStep(200, body)).toEqual({ kind: 'deltas', cursor: '1700000000000-7', deltas: [{ durationMs: 1000, relists: [] }, { durationMs: 2000 }] });
  });
  it('410: read the whole session again, with the agent\u2019s reason', () => {
    const body = JSON.stringify({ error: 'the cursor is older than the 900 s the agent keeps: read /v1/session again' });
    expect(sinceStep(410, body)).toEqual({ kind: 'reread', reason: 'the cursor is older than the 900 s the agent keeps: read /v1/session again' });
    expect(sinceStep(410, 'not json')).toMatchObject({ kind: 'reread' });
  });
  it('400 (a cursor this agent never issued) also starts over, saying why', () => {
    expect(sinceStep(400, JSON.stringify({ error: 'since: cursor 9 is ahead of this agent (at 3)' }))).toEqual({ kind: 'reread', reason: 'the agent refused the cursor: since: cursor 9 is ahead of this agent (at 3)' });
  });
  it('anything else, or a malformed 200, is an error naming it', () => {
    expect(sinceStep(503, 'busy')).toEqual({ kind: 'error', message: 'the agent answered HTTP 503: busy' });
    expect(sinceStep(200, '{')).toMatchObject({ kind: 'error', message: expect.stringMatching(/not JSON/) });
    expect(sinceStep(200, JSON.stringify({ deltas: [] }))).toMatchObject({ kind: 'error', message: expect.stringMatching(/no cursor/) });
    expect(sinceStep(200, JSON.stringify({ cursor: 'a-1', deltas: [{ relists: [] }] }))).toEqual({ kind: 'error', message: "the agent's delta 0 has no durationMs" });
  });
});

describe('snapshotAge: an old snapshot never reads as fresh', () => {
  const now = Date.parse('2026-11-28T12:00:00.000Z');
  it('floors to the second, as a Go duration', () => {
    expect(snapshotAge('2026-11-28T11:58:49.400Z', now)).toEqual({ ageMs: 70_600, text: 'taken 1m10s ago by the agent', ago: 'taken 1m10s ago' });
    expect(snapshotAge('2026-11-28T11:59:59.999Z', now).text).toBe('taken 0s ago by the agent');
    expect(snapshotAge('2026-11-28T10:00:00.000Z', now).text).toBe('taken 2h0m0s ago by the agent');
  });
  it('a node clock ahead of this one is said, never a negative age', () => {
    expect(snapshotAge('2026-11-28T12:00:02.500Z', now)).toEqual({ ageMs: 0, text: 'taken just now by the agent (its clock is 3s ahead of this one)', ago: 'taken just now (its clock is 3s ahead of this one)' });
  });
  it('an unreadable time is an error', () => {
    expect(() => snapshotAge('yesterday', now)).toThrow(/no readable collectedAt/);
  });
});
