// diagnose() as a whole: catalog order and titles, finding order and headline, sources and notes, and
// totality on input a collector should never produce.

import { describe, expect, it } from 'vitest';
import { CHECK_CATALOG } from '../../../../src/core/diagnose/catalog';
import { diagnose } from '../../../../src/core/diagnose/runDiagnosis';
import { EVIDENCE_SOURCES } from '../../../../src/core/diagnose/evidence';
import { FORBIDDEN, NOW, check, evidence, goroutines, healthyMetrics, healthz, nodeObject, ok, scrapes } from '../../../support/diagnoseBuilders';

const CATALOG: [string, string][] = [
  ['pleg-health', 'PLEG health as the kubelet reports it'],
  ['lease-lost', 'Kubelet stopped posting status (Ready=Unknown)'],
  ['runtime-hung', 'Container runtime hung or slow'],
  ['stuck-container', 'One container or shim stuck'],
  ['systemd-dbus', 'systemd D-Bus hang (sd-bus cookie overflow)'],
  ['pleg-deadlock', 'PLEG blocked sending events'],
  ['density', 'Too many pods or containers'],
  ['event-storm', 'Event storm during rollouts'],
  ['cni', 'Network plugin (CNI) slow or not ready'],
  ['hung-mount', 'Hung network filesystem'],
  ['node-load', 'Node overloaded'],
  ['kernel-regression', 'Kernel with a known PLEG regression'],
  ['known-bad-version', 'Known-bad runtime, kubelet, kernel or systemd version'],
  ['startup-transient', 'Kubelet still starting'],
  ['evented-pleg', 'EventedPLEG trouble'],
  ['syncloop-healthz', 'Sync loop stalled (/healthz syncloop)'],
  ['relist-latency', 'Slow relists (KubeletPlegDurationHigh)'],
];

describe('diagnose', () => {
  it('runs the whole catalog in the contract order with the contract titles', () => {
    const d = diagnose(evidence(), { now: NOW });
    expect(d.checks.map((c) => [c.checkId, c.title])).toEqual(CATALOG);
    expect(CHECK_CATALOG.map((c) => c.id)).toEqual(CATALOG.map(([id]) => id));
    expect(d.sources.map((s) => s.source)).toEqual([...EVIDENCE_SOURCES]);
  });

  it('findings: problems before warnings, the symptom before its cause; the headline names the cause', () => {
    const d = diagnose(
      evidence({
        node: nodeObject({ ready: 'False', kernel: '5.4.0-132-generic', capacityPods: '100' }),
        podCount: ok(99),
        goroutines: ok(goroutines('ListPodSandbox', 3)),
        healthz: ok(healthz(false)),
      }),
      { now: NOW },
    );
    expect(d.findings.map((f) => [f.checkId, f.severity])).toEqual([
      ['pleg-health', 'problem'],
      ['runtime-hung', 'problem'],
      ['kernel-regression', 'problem'],
      ['known-bad-version', 'problem'],
      ['syncloop-healthz', 'problem'],
      ['density', 'warning'],
    ]);
    expect(d.headline).toBe('NotReady (PLEG): the container runtime is not answering CRI calls');
    expect(d.readyMessage).toContain('PLEG is not healthy');
    expect(d.readySince).toBe('2026-11-22T09:50:00.000Z');
  });

  it('without any kubelet endpoint or node side, an unhealthy PLEG leaves its causes as noEvidence naming each source', () => {
    const d = diagnose(evidence({ node: nodeObject({ ready: 'False' }), metrics: FORBIDDEN, goroutines: FORBIDDEN }), { now: NOW });
    const c = check(d, 'runtime-hung');
    expect(c.status).toBe('noEvidence');
    expect(c.note).toBe('metrics: 403 — needs get on nodes/proxy; goroutines: 403 — needs get on nodes/proxy; nodeSide: skipped — node access is not configured for this cluster');
    expect(d.findings.map((f) => f.checkId)).toEqual(['pleg-health']);
    expect(d.headline).toBe('NotReady (PLEG): PLEG is not healthy: last relist started 3m46.7s ago (threshold 3m0s)');
  });

  it('takes the collection time as "now" when none is given', () => {
    const d = diagnose(evidence({ metrics: ok(healthyMetrics()) }));
    expect(check(d, 'pleg-health').note).toContain('last relist started 1s ago');
  });

  it('never throws, even on input that is not evidence at all', () => {
    for (const junk of [null, undefined, 42, 'x', [], {}, { node: null, metrics: { status: 'ok', value: null, ms: 1 } }]) {
      const d = diagnose(junk as never, { now: NOW });
      expect(d.checks).toHaveLength(CATALOG.length);
      expect(d.findings).toEqual([]);
    }
    const d = diagnose(null as never, { now: NOW });
    expect(d.gaps[0]).toMatch(/^the evidence could not be read: /u);
  });
});

describe('reference time', () => {
  it('defaults to the second scrape when it answered', () => {
    const d = diagnose(evidence(scrapes(healthyMetrics(), healthyMetrics())));
    expect(check(d, 'pleg-health').note).toContain('last relist started 6s ago');
  });
});
