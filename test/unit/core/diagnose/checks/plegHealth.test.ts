import { describe, expect, it } from 'vitest';
import { diagnose } from '../../../../../src/core/diagnose/runDiagnosis';
import { NOW, NOW_S, check, evidence, healthyMetrics, nodeObject, ok } from '../../../../support/diagnoseBuilders';

describe('pleg-health: the symptom', () => {
  it('reports the Ready message R1 as one problem finding quoting the message', () => {
    const d = diagnose(evidence({ node: nodeObject({ ready: 'False' }) }), { now: NOW });
    const c = check(d, 'pleg-health');
    expect(c.status).toBe('found');
    expect(c.finding?.severity).toBe('problem');
    expect(c.finding?.title).toBe('PLEG is not healthy: last relist started 3m46.7s ago (threshold 3m0s)');
    expect(c.finding?.evidence.some((e) => e.origin === 'node' && e.text.includes('pleg was last seen active 3m46.752815514s ago'))).toBe(true);
    expect(d.verdict).toBe('pleg');
  });

  it('3m0s since the last relist start is still healthy; 3m0.1s is not (strictly greater)', () => {
    const at = (age: number) =>
      check(diagnose(evidence({ metrics: ok(healthyMetrics({ plegLastSeenSeconds: NOW_S - age })) }), { now: NOW }), 'pleg-health');
    expect(at(180).status).toBe('clear');
    expect(at(180).note).toContain('3m0s');
    const over = at(180.1);
    expect(over.status).toBe('found');
    expect(over.finding?.title).toContain('the Ready condition has not caught up');
    expect(over.finding?.evidence.map((e) => e.text).join('\n')).toContain('kubelet_pleg_last_seen_seconds');
  });

  it('R2 lasting more than 3 minutes is PLEG never relisted; within 3 minutes it is the start-up transient', () => {
    const message = 'PLEG is not healthy: pleg has yet to be successful';
    const lasting = diagnose(evidence({ node: nodeObject({ ready: 'False', message, since: '2026-11-22T09:50:00Z' }) }), { now: NOW });
    expect(check(lasting, 'pleg-health').finding?.title).toBe('PLEG is not healthy: no relist has succeeded since the kubelet started');
    expect(check(lasting, 'startup-transient').status).toBe('clear');
    const fresh = diagnose(evidence({ node: nodeObject({ ready: 'False', message, since: '2026-11-22T09:59:00Z' }) }), { now: NOW });
    expect(check(fresh, 'pleg-health').status).toBe('clear');
    const startup = check(fresh, 'startup-transient');
    expect(startup.status).toBe('found');
    expect(startup.finding?.severity).toBe('info');
    expect(fresh.headline).toBe('NotReady (kubelet starting): the kubelet is still starting');
  });

  it('Ready=Unknown without metrics: PLEG state unknown (noEvidence), the lease is the finding', () => {
    const d = diagnose(evidence({ node: nodeObject({ ready: 'Unknown' }), metrics: { status: 'unavailable', message: 'the kubelet is unreachable', ms: 30, httpStatus: 503 } }), { now: NOW });
    const c = check(d, 'pleg-health');
    expect(c.status).toBe('noEvidence');
    expect(c.note).toContain('503');
    const lease = check(d, 'lease-lost');
    expect(lease.status).toBe('found');
    expect(lease.finding?.title).toBe('The kubelet stopped posting node status (Ready=Unknown)');
    expect(d.findings.map((f) => f.checkId)).toEqual(['lease-lost']);
    expect(d.gaps.join('\n')).toContain('expected while the kubelet is not posting status');
  });

  it('a Ready node with healthy metrics has no finding at all', () => {
    const d = diagnose(evidence({ metrics: ok(healthyMetrics()) }), { now: NOW });
    expect(d.findings).toEqual([]);
    expect(d.headline).toBe('Ready: no problem found');
    expect(check(d, 'lease-lost').status).toBe('clear');
  });
});
