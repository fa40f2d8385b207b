// The prediction's one format, from both ends: what `pleg-doctor npd-plugin` writes (npdVerdict) is what the
// tree, the report and the timeline read back (parsePrediction), and the condition's type and reasons are
// the monitor config's.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AT_RISK_REASON, NOT_AT_RISK_REASON, PLEG_AT_RISK } from '../../../../src/core/npd/atRiskCondition';
import { formatPrediction, parsePrediction } from '../../../../src/core/npd/npdPrediction';
import { npdVerdict } from '../../../../src/core/npd/npdVerdict';

function agentBody(predicted: number, causes: string[]): string {
  return [
    '# TYPE pleg_doctor_notready_predicted_seconds gauge',
    `pleg_doctor_notready_predicted_seconds ${predicted}`,
    '# TYPE pleg_doctor_finding gauge',
    ...causes.map((c) => `pleg_doctor_finding{cause="${c}"} 1`),
    '',
  ].join('\n');
}

describe('the PLEGAtRisk prediction: writer → reader', () => {
  it('reads back the whole seconds the plugin wrote, through its full message (causes, NPD\'s 80-byte cut)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 * 86_400_000 }).map((ms) => ms / 1000), fc.uniqueArray(fc.constantFrom('runtime-hung', 'stuck-container', 'density', 'a-very-long-cause-name-that-overflows'), { maxLength: 4 }), (seconds, causes) => {
        const written = npdVerdict(agentBody(seconds, causes));
        expect(written.exitCode).toBe(1);
        expect(parsePrediction(written.message)).toBe(Math.max(0, Math.round(seconds)));
      }),
    );
  });

  it('reads the two forms and nothing else', () => {
    expect(formatPrediction(95)).toBe('NotReady predicted in 1m35s');
    expect(parsePrediction('NotReady predicted in 1m35s: runtime-hung')).toBe(95);
    expect(parsePrediction('NotReady predicted in 2h0m5s')).toBe(7205);
    expect(formatPrediction(0.4)).toBe('NotReady due now');
    expect(parsePrediction('NotReady due now: runtime-hung')).toBe(0);
    expect(parsePrediction('NotReady due now')).toBe(0);
    // NPD's default message, the plugin's OK and unknown messages, someone else's text.
    for (const other of ['pleg-doctor predicts no PLEG NotReady', 'no NotReady predicted', 'agent /metrics unreadable: x', 'NotReady predicted in soon', 'NotReady due nowhere', '']) {
      expect(parsePrediction(other), other).toBeUndefined();
    }
  });

  it('names the condition and reasons as the monitor config sets them', () => {
    const monitor = JSON.parse(readFileSync(join(__dirname, '../../../../deploy/node-problem-detector/pleg-doctor-monitor.json'), 'utf8')) as {
      conditions: { type: string; reason: string }[];
      rules: { type: string; condition?: string; reason: string }[];
    };
    expect(monitor.conditions).toEqual([expect.objectContaining({ type: PLEG_AT_RISK, reason: NOT_AT_RISK_REASON })]);
    expect(monitor.rules.find((r) => r.type === 'permanent')).toMatchObject({ condition: PLEG_AT_RISK, reason: AT_RISK_REASON });
  });
});
