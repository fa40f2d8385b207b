// Naming the stuck pod. The kubelet logs each pod whose status a relist could not read at error level
// from 1.24 (pleg/generic.go, updateCache: klog.ErrorS(err, "PLEG: Write status", "pod", klog.KRef(ns, name))),
// in the text form `"PLEG: Write status" err="…" pod="ns/name"` and the JSON form `"pod":{"name","namespace"}`.
// A success is V(4) without err and names nothing wrong. Without such a line (or the node side's CRI
// snapshot) the finding says it cannot name the pod, and what would.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { WHICH_POD } from '../../../../../src/core/diagnose/checks/stuckContainer';
import { kubeletLogEvidence, type KubeletLogReading } from '../../../../../src/core/diagnose/kubeletLog';
import { diagnose } from '../../../../../src/core/diagnose/runDiagnosis';
import { check, evidence, goroutines, nodeObject, NOW, ok } from '../../../../support/diagnoseBuilders';

const fixture = (path: string): string => readFileSync(new URL(`../../../../fixtures/${path}`, import.meta.url), 'utf8');
const LIVE: KubeletLogReading = { origin: 'ssh', window: 'journalctl -u kubelet over SSH, last 30 min', contemporaneous: true };

/** The 1.24 error line of test/fixtures/logs/other-forms-1.24.log, as the kubelet writes it. */
const TEXT_FAILURE = fixture('logs/other-forms-1.24.log').split('\n').find((l) => l.includes('"PLEG: Write status"')) ?? '';
/**
 * The JSON form: the shape of the real 1.36 JSON log (test/fixtures/logs/json-1.36-pleg-fault.log, whose
 * `pod` fields are klog.KRef objects) with this message and err; derived, not captured.
 */
const jsonFailure = (ts: number, name: string) =>
  JSON.stringify({ ts, caller: 'pleg/generic.go:465', msg: 'PLEG: Write status', pod: { name, namespace: 'shop' }, err: 'rpc error: code = DeadlineExceeded desc = context deadline exceeded' });

describe('the kubelet log names the pod whose status the relist could not read', () => {
  it('reads the text and JSON error forms, most-failing pod first; V(4) successes on a real 1.32 log are no failures', () => {
    expect(TEXT_FAILURE).toContain('pod="default/web-0"');
    const log = [TEXT_FAILURE, jsonFailure(1795840593059.78, 'checkout-0'), jsonFailure(1795840713059.78, 'checkout-0')].join('\n');
    const failures = kubeletLogEvidence(log, LIVE).statusWriteFailures ?? [];
    expect(failures.map((f) => [f.pod, f.count, f.last.line])).toEqual([
      ['shop/checkout-0', 2, 3],
      ['default/web-0', 1, 1],
    ]);
    expect(failures[1]?.last.err).toBe('rpc error: code = DeadlineExceeded desc = context deadline exceeded');
    const real = fixture('real-kubelet-1.32/kubelet-runtime-stopped.log');
    expect(real).toContain('"PLEG: Write status" pod="default/pleg-a-pleg-node"');
    expect(kubeletLogEvidence(real, LIVE).statusWriteFailures).toBeUndefined();
  });

  it('the stuck-container finding names the pod from the log and drops its "which pod" caveat; without it, keeps the caveat', () => {
    const stuck = { node: nodeObject({ ready: 'False' }), goroutines: ok(goroutines('PodSandboxStatus', 2)) };
    const named = check(diagnose(evidence({ ...stuck, kubeletLog: ok(kubeletLogEvidence(TEXT_FAILURE, LIVE)) }), { now: NOW }), 'stuck-container');
    expect(named.finding?.evidence.map((e) => e.text)).toContain(
      'kubelet log: the relist could not read the status of pod `default/web-0` ×1 ("PLEG: Write status"), the latest at line 1 (10:00:02): `rpc error: code = DeadlineExceeded desc = context deadline exceeded`',
    );
    expect(named.finding?.summary).not.toContain('Which pod');
    const unnamed = check(diagnose(evidence(stuck), { now: NOW }), 'stuck-container');
    expect(unnamed.finding?.summary).toContain(WHICH_POD);
  });
});
