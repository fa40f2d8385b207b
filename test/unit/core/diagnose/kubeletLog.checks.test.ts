// The checks reading the kubelet log, on real logs: the 1.32 kubelet with its containerd SIGSTOPped for
// 300 s (test/fixtures/real-kubelet-1.32) and the 1.36 + containerd 2.3 fault window. Where a log is "read
// up to 03:05:41" it is the real log's first 3748 lines: what a journal read at that moment returns.
// The node objects and metrics are the recording's own (same moment), or a healthy node to set against a
// log that says otherwise: the checks must say both sides, never fail on one.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { kubeletLogEvidence, type KubeletLogReading } from '../../../../src/core/diagnose/kubeletLog';
import { renderDiagnosisMarkdown } from '../../../../src/core/diagnose/report/renderMarkdown';
import { diagnose } from '../../../../src/core/diagnose/runDiagnosis';
import { checkVerdict } from '../../../../src/core/diagnose/verdicts';
import { summarizeKubeletMetrics } from '../../../../src/core/parse/kubeletMetrics';
import { check, evidence, nodeObject, ok } from '../../../support/diagnoseBuilders';

const fixture = (path: string): string => readFileSync(new URL(`../../../fixtures/${path}`, import.meta.url), 'utf8');
const FULL = fixture('real-kubelet-1.32/kubelet-runtime-stopped.log');
/** The journal as read at 03:05:41.5: up to the last PLEG line. */
const UP_TO_LAST_PLEG_LINE = `${FULL.split('\n').slice(0, 3748).join('\n')}\n`;
const LIVE: KubeletLogReading = { origin: 'ssh', window: 'journalctl -u kubelet over SSH, last 30 min', contemporaneous: true };

const frozenNode = nodeObject({
  name: 'pleg-node',
  ready: 'False',
  message: 'container runtime is down, PLEG is not healthy: pleg was last seen active 4m58.158108819s ago; threshold is 3m0s',
  since: '2026-11-22T03:03:47Z',
  kubeletVersion: 'v1.32.10-kubeedge1',
  runtime: 'containerd://1.6.20',
});
const healthyNode = nodeObject({ name: 'pleg-node', kubeletVersion: 'v1.32.10-kubeedge1', runtime: 'containerd://1.6.20' });

function frozenWith(log: string, reading: KubeletLogReading = LIVE) {
  const now = new Date('2026-11-22T03:05:41.500Z');
  return diagnose(
    evidence({
      collectedAt: now.toISOString(),
      node: frozenNode,
      metrics: ok(summarizeKubeletMetrics(fixture('real-kubelet-1.32/metrics-stopped-final.txt'))),
      metricsLater: { status: 'skipped', reason: 'interval 0' },
      kubeletLog: ok(kubeletLogEvidence(log, reading)),
    }),
    { now },
  );
}

function healthyWith(log: string) {
  return diagnose(evidence({ node: healthyNode, kubeletLog: ok(kubeletLogEvidence(log, LIVE)) }));
}

const texts = (lines: { text: string }[] | undefined): string => (lines ?? []).map((l) => l.text).join('\n');

describe('PLEG health with the kubelet log', () => {
  it('frozen, log read up to now: fails, citing the stretch and the relist failures at their lines', () => {
    const d = frozenWith(UP_TO_LAST_PLEG_LINE);
    const pleg = check(d, 'pleg-health');
    expect(checkVerdict(pleg)).toBe('fail');
    expect(texts(pleg.finding?.evidence)).toContain('kubelet log lines 3227–3748 (03:03:46 → 03:05:41): PLEG unhealthy for 1m55s (24 lines), "pleg was last seen active" up to 4m58.1s ago');
    const runtime = check(d, 'runtime-hung');
    expect(checkVerdict(runtime)).toBe('fail');
    // Both failures are in the log's last 5 minutes (56 s and 177 s before its end): the runtime now.
    expect(texts(runtime.finding?.evidence)).toContain('relist failed, "GenericPLEG: Unable to retrieve pods" ×2, the latest at line 3476 (03:04:45)');
    expect(texts(runtime.finding?.evidence)).toContain('runtime status check failing ×2, the latest at line 3536 (03:04:52): `rpc error: code = DeadlineExceeded');
    const md = renderDiagnosisMarkdown(d);
    expect(md).toContain('- kubeletLog: kubelet log lines 3227–3748 (03:03:46 → 03:05:41)');
  });

  it('frozen by the Ready message and the metric, but the log read with them shows the recovery: a warning that says both', () => {
    // The whole log: 93 s after line 3748 without a PLEG or skip line (the kubelet writes one every ≤ 5 s while unhealthy).
    const d = frozenWith(FULL);
    const pleg = check(d, 'pleg-health');
    expect(pleg.finding?.severity).toBe('warning');
    expect(pleg.finding?.title).toBe('PLEG was reported unhealthy, but the kubelet log shows it recovered');
    const lines = texts(pleg.finding?.evidence);
    expect(lines).toContain('Ready=False');
    expect(lines).toContain('kubelet log: no PLEG or sync-skip line after line 3748 (03:05:41) for the last 1m32.8s of the log (to 03:07:14)');
    // The relist failures happened before the recovery: not the runtime's state now.
    expect(texts(check(d, 'runtime-hung').finding?.evidence)).not.toContain('kubelet log');
  });

  it('the same whole log put in a bundle by hand: history only, the Ready message still decides', () => {
    const d = frozenWith(FULL, { origin: 'bundle', window: 'kubelet.log of the bundle', contemporaneous: false });
    expect(checkVerdict(check(d, 'pleg-health'))).toBe('fail');
    expect(check(d, 'pleg-health').finding?.title).toMatch(/^PLEG is not healthy: last relist started 4m58/u);
  });

  it('a node Ready by its status whose log (read with it) is unhealthy up to its end: a warning, not a clear', () => {
    const d = healthyWith(UP_TO_LAST_PLEG_LINE);
    const pleg = check(d, 'pleg-health');
    expect(pleg.finding?.severity).toBe('warning');
    expect(pleg.finding?.title).toBe('The kubelet log shows PLEG unhealthy up to its end, but the node’s status does not');
  });

  it('a node healthy now whose log holds a recovered fault: the stretch, the NotReady history and the old runtime errors as warnings', () => {
    const d = healthyWith(fixture('logs/observed-1.36-containerd2.3-fault.log'));
    const pleg = check(d, 'pleg-health');
    expect(pleg.finding?.severity).toBe('warning');
    expect(pleg.finding?.title).toBe('PLEG is healthy now, but the kubelet log shows 1 PLEG stretch');
    expect(texts(pleg.finding?.evidence)).toContain('kubelet log: 1 "Node became not ready" transition, 1 return to Ready (lines 19 03:20:26)');
    const runtime = check(d, 'runtime-hung');
    expect(runtime.finding?.severity).toBe('warning');
    expect(runtime.finding?.title).toBe('The container runtime failed CRI calls earlier (kubelet log)');
    expect(texts(runtime.finding?.evidence)).toContain('relist failed, "GenericPLEG: Unable to retrieve pods" ×6, the latest at line 96 (03:22:59)');
    expect(d.findings.every((f) => f.severity !== 'problem')).toBe(true);
  });

  it('without a log, a healthy node stays clear (the log is what makes the warnings above)', () => {
    const d = diagnose(evidence({ node: healthyNode }));
    expect(check(d, 'pleg-health').status).toBe('clear');
    expect(check(d, 'runtime-hung').status).toBe('clear');
  });
});

describe('kubelet starts and restarts from the log', () => {
  it('one restart: an info finding with both starts at their lines', () => {
    const d = healthyWith(fixture('logs/contextual-1.32-restart.log'));
    const start = check(d, 'startup-transient');
    expect(start.finding?.severity).toBe('info');
    expect(start.finding?.title).toBe('The kubelet restarted 1 time in its log');
    expect(texts(start.finding?.evidence)).toContain('kubelet log: kubelet start or restart ×2, the latest at line 5 (03:04:10): `Kubelet restarted (v1.32.10), pid 40001`; the first at line 1 (02:59:17)');
  });

  it('no restart in the log: not applicable, as before', () => {
    expect(check(healthyWith(fixture('logs/observed-1.36-containerd2.3-fault.log')), 'startup-transient').status).toBe('notApplicable');
  });
});
