// The NPD verdict from the agent's /metrics: exit codes of NPD's protocol and a message NPD keeps whole
// (ASCII, ≤ 80 bytes: NPD cuts stdout at max_output_length bytes).

import { describe, expect, it } from 'vitest';
import { npdMessage, npdVerdict, NPD_MAX_OUTPUT_LENGTH } from '../../../../src/core/npd/npdVerdict';

/** An agent body in the contract's names (a stand-in until the agent's own output is captured). */
function body(predicted: string, findings: Record<string, number> = {}, runtimeDown?: string, relistAge = '0.4'): string {
  return [
    '# TYPE pleg_doctor_relist_age_seconds gauge',
    `pleg_doctor_relist_age_seconds ${relistAge}`,
    '# TYPE pleg_doctor_notready_predicted_seconds gauge',
    `pleg_doctor_notready_predicted_seconds ${predicted}`,
    ...(runtimeDown === undefined ? [] : ['# TYPE pleg_doctor_runtime_down_predicted_seconds gauge', `pleg_doctor_runtime_down_predicted_seconds ${runtimeDown}`]),
    '# TYPE pleg_doctor_finding gauge',
    ...Object.entries(findings).map(([cause, v]) => `pleg_doctor_finding{cause="${cause}"} ${v}`),
    '',
  ].join('\n');
}

describe('npdVerdict', () => {
  it('no prediction (+Inf): OK', () => {
    expect(npdVerdict(body('+Inf'))).toEqual({ exitCode: 0, message: 'no NotReady predicted' });
  });

  it('a prediction: a problem, with the time in Go form and the failing checks in the agent\'s order', () => {
    expect(npdVerdict(body('70.4', { 'runtime-hung': 1, density: 0, 'stuck-container': 1 }))).toEqual({
      exitCode: 1,
      message: 'NotReady predicted in 1m10s: runtime-hung, stuck-container',
    });
  });

  it('a prediction already due reads "due now"; no failing check is said so', () => {
    expect(npdVerdict(body('0')).message).toBe('NotReady due now: no node-side cause found');
  });

  it('--cause: a problem only when that check fails too', () => {
    expect(npdVerdict(body('30', { 'runtime-hung': 1 }), 'runtime-hung').exitCode).toBe(1);
    const other = npdVerdict(body('30', { 'runtime-hung': 1 }), 'density');
    expect(other.exitCode).toBe(0);
    expect(other.message).toBe('NotReady predicted in 30s, not from density');
  });

  it('a nearer "container runtime is down" post counts, named first; a farther one does not', () => {
    // A hung runtime 6 s in: the kubelet posts runtime down at ~35 s, PLEG's NotReady at ~3 min.
    expect(npdVerdict(body('186.2', {}, '29.6', '6.1'), undefined, 120)).toEqual({ exitCode: 1, message: 'NotReady predicted in 30s: container runtime is down' });
    expect(npdVerdict(body('186.2', { 'runtime-hung': 1 }, '29.6', '6.1')).message).toBe('NotReady predicted in 30s: container runtime is down, runtime-hung');
    expect(npdVerdict(body('+Inf', {}, '+Inf', '6.1'))).toEqual({ exitCode: 0, message: 'no NotReady predicted' });
    expect(npdVerdict(body('40', {}, '90', '6.1')).message).toBe('NotReady predicted in 40s: no node-side cause found');
    expect(npdVerdict(body('+Inf', {}, '150', '6.1'), undefined, 120)).toEqual({ exitCode: 0, message: 'NotReady predicted in 2m30s, beyond 2m0s' });
    expect(npdVerdict(body('+Inf', {}, 'NaN')).exitCode).toBe(3);
  });

  it('a runtime-down prediction waits until no relist succeeded for 5 s (the kubelet\'s Status poll), unless already posted', () => {
    // 3 s into a hiccup the kubelet may not have sent a Status into it yet: not a problem.
    expect(npdVerdict(body('+Inf', {}, '33', '3.2'), undefined, 120)).toEqual({ exitCode: 0, message: 'no NotReady predicted' });
    expect(npdVerdict(body('187', {}, '33', '3.2'), undefined, 120)).toEqual({ exitCode: 0, message: 'NotReady predicted in 3m7s, beyond 2m0s' });
    // Posted, then the runtime answered (relists fresh again) while the kubelet has not posted Ready yet.
    expect(npdVerdict(body('+Inf', {}, '0', '0.3'))).toEqual({ exitCode: 1, message: 'NotReady due now: container runtime is down' });
  });

  it('no prediction metric, two series of it, NaN, or a body that is not Prometheus text: unknown (3), saying which', () => {
    expect(npdVerdict('# TYPE x gauge\nx 1\n')).toEqual({ exitCode: 3, message: 'agent serves no single pleg_doctor_notready_predicted_seconds' });
    expect(npdVerdict('pleg_doctor_notready_predicted_seconds{a="1"} 1\npleg_doctor_notready_predicted_seconds{a="2"} 2\n').exitCode).toBe(3);
    expect(npdVerdict(body('NaN')).exitCode).toBe(3);
    const bad = npdVerdict('<html>not metrics</html>');
    expect(bad.exitCode).toBe(3);
    expect(bad.message).toMatch(/^agent \/metrics unreadable: Prometheus text line 1/);
  });

  it('every message fits NPD\'s 80 bytes, ASCII only', () => {
    const many = Object.fromEntries(['runtime-hung', 'stuck-container', 'systemd-dbus', 'pleg-deadlock', 'density', 'event-storm', 'hung-mount'].map((c) => [c, 1]));
    const m = npdVerdict(body('100', many)).message;
    expect(Buffer.byteLength(m)).toBeLessThanOrEqual(NPD_MAX_OUTPUT_LENGTH);
    expect(m).toMatch(/^NotReady predicted in 1m40s: runtime-hung, .*\.\.\.$/);
    expect(npdMessage('zeit → 5 s\n  weiter')).toBe('zeit ? 5 s weiter');
  });
});
