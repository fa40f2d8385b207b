// The countdown to the predicted NotReady: NPD's message counts from the condition's lastTransitionTime (NPD
// writes a new message only with a new Transition), and a heartbeat older than NPD's heartbeat period + resync
// means NPD stopped syncing: no live countdown then.

import { describe, expect, it } from 'vitest';
import { atRiskCountdown, countdownText, NPD_STALE_AFTER_S, readAtRisk } from '../../../../src/core/npd/atRiskCondition';
import { atRiskCondition } from '../../../support/nodeFixtures';

const T = Date.parse('2026-11-22T04:00:00Z');
const at = (s: number): Date => new Date(T + s * 1000);
const iso = (s: number): string => at(s).toISOString();

function read(condition: object): ReturnType<typeof readAtRisk> {
  const warnings: string[] = [];
  return readAtRisk([condition as Record<string, unknown>], warnings);
}

describe('PLEGAtRisk countdown', () => {
  const written = read({ ...atRiskCondition('True', { since: iso(0) }) })!;

  it('reads what NPD wrote: status, reason, message, when, prediction', () => {
    expect(written).toEqual({ status: 'True', reason: 'NotReadyPredicted', message: 'NotReady predicted in 1m35s: runtime-hung', since: iso(0), lastHeartbeat: iso(0), predictedS: 95 });
  });

  it('counts down from lastTransitionTime: predicted seconds less the time since NPD wrote them', () => {
    expect(atRiskCountdown(written, at(0))).toEqual({ kind: 'in', seconds: 95 });
    expect(atRiskCountdown(written, at(10))).toEqual({ kind: 'in', seconds: 85 });
    expect(countdownText(atRiskCountdown(written, at(10)))).toBe('NotReady in ~1m25s');
    expect(atRiskCountdown(written, at(94.6))).toEqual({ kind: 'due' });
    expect(countdownText(atRiskCountdown(written, at(200)))).toBe('NotReady due');
  });

  it('a later heartbeat does not restart the countdown (NPD stamps every sync; the message stays)', () => {
    const synced = read(atRiskCondition('True', { since: iso(0), heartbeat: iso(60) }))!;
    expect(atRiskCountdown(synced, at(60))).toEqual({ kind: 'in', seconds: 35 });
  });

  it('"due now" is due from the start', () => {
    const due = read(atRiskCondition('True', { since: iso(0), message: 'NotReady due now: runtime-hung' }))!;
    expect(atRiskCountdown(due, at(1))).toEqual({ kind: 'due' });
  });

  it('a heartbeat older than NPD\'s heartbeat period + resync is no live countdown, but an "as of"', () => {
    expect(NPD_STALE_AFTER_S).toBe(310);
    expect(atRiskCountdown(written, at(310))).toEqual({ kind: 'due' });
    expect(atRiskCountdown(written, at(370))).toEqual({ kind: 'stale', asOfS: 370 });
    expect(countdownText(atRiskCountdown(written, at(370)))).toBe('as of 6m ago');
    const fresh = read(atRiskCondition('True', { since: iso(0), heartbeat: iso(300) }))!;
    expect(atRiskCountdown(fresh, at(370)).kind).toBe('due');
  });

  it('no figure without a prediction or a lastTransitionTime, and a warning for the missing time', () => {
    expect(atRiskCountdown(read(atRiskCondition('True', { since: iso(0), message: 'something else' }))!, at(5))).toEqual({ kind: 'unknown' });
    const warnings: string[] = [];
    const noTime = readAtRisk([{ type: 'PLEGAtRisk', status: 'True', message: 'NotReady predicted in 1m35s' }], warnings)!;
    expect(atRiskCountdown(noTime, at(5))).toEqual({ kind: 'unknown' });
    expect(warnings).toEqual(['PLEGAtRisk has no valid lastTransitionTime: no countdown to its prediction']);
  });

  it('no condition: undefined; a bad status reads as Unknown with a warning', () => {
    expect(readAtRisk([{ type: 'Ready', status: 'True' }], [])).toBeUndefined();
    const warnings: string[] = [];
    expect(readAtRisk([{ type: 'PLEGAtRisk', status: 'yes', message: '' }], warnings)?.status).toBe('Unknown');
    expect(warnings[0]).toMatch(/invalid status "yes"/);
  });
});
