// Each cause check of the catalog with hand-made evidence: found, clear and noEvidence (or notApplicable),
// and the thresholds of docs/root-causes.md at their edges.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { summarizeKubeletMetrics } from '../../../../src/core/parse/kubeletMetrics';
import { diagnose } from '../../../../src/core/diagnose/runDiagnosis';
import {
  FORBIDDEN,
  NOW,
  check,
  configz,
  evidence,
  healthyMetrics,
  hist,
  healthz,
  metricsSummary,
  nodeObject,
  nodeSide,
  emptySnapshot,
  ok,
  op,
  probes,
  repeat,
  scrapes,
} from '../../../support/diagnoseBuilders';

const NOT_READY = nodeObject({ ready: 'False' });
const run = (e: Parameters<typeof diagnose>[0]) => diagnose(e, { now: NOW });

describe('density (cause 5)', () => {
  it('pods: more than 95 % of capacity is found; exactly 95 % is clear', () => {
    const at = (pods: number) => check(run(evidence({ node: nodeObject({ capacityPods: '100' }), metrics: ok(healthyMetrics({ runningPods: pods })) })), 'density');
    expect(at(95).status).toBe('clear');
    expect(at(95).note).toContain('95 %');
    const over = at(96);
    expect(over.status).toBe('found');
    expect(over.finding?.severity).toBe('warning');
    // Both pod counts, each labelled as what it counts: the kubelet's running pods, and the pods the API binds to
    // the node in the words of the tree's tooltip (test/unit/tree/presentation.test.ts holds the tooltip's).
    expect(over.finding?.evidence[0]?.text).toBe("the kubelet's running pods (`kubelet_running_pods`) = 96 of 100 (status.capacity.pods): 96 %; pods bound to the node (API server, the tree tooltip's count) = 20");
  });

  it('exited containers: above both the pod capacity and the running containers is a warning; 1001 is past the threshold of docs/root-causes.md', () => {
    const at = (exited: number, running = 20, capacityPods = '110') =>
      check(run(evidence({ node: nodeObject({ capacityPods }), metrics: ok(healthyMetrics({ runningContainers: { running, exited } })) })), 'density');
    expect(at(110).status).toBe('clear');
    const pile = at(111);
    expect(pile.status).toBe('found');
    expect(pile.finding?.severity).toBe('warning');
    expect(pile.finding?.title).toBe('More exited containers than the node’s pod capacity: container GC is not keeping up');
    expect(pile.finding?.evidence[0]?.text).toContain('more than the pod capacity (110, status.capacity.pods) and the 20 running containers');
    // Many live containers raise the bar: 300 exited beside 400 running is what GC normally keeps.
    expect(at(300, 400).status).toBe('clear');
    expect(at(1000, 1000).status).toBe('clear');
    const over = at(1001, 2000);
    expect(over.finding?.title).toBe('More than 1000 exited containers on the node');
    expect(over.finding?.evidence[0]?.text).toContain('container_state="exited"');
  });

  it('falls back to the API pod count; nothing at all → noEvidence naming the sources', () => {
    expect(check(run(evidence({ podCount: ok(108) })), 'density').status).toBe('found');
    const none = check(run(evidence({ podCount: FORBIDDEN, metrics: FORBIDDEN })), 'density');
    expect(none.status).toBe('noEvidence');
    expect(none.note).toContain('metrics: 403 — needs get on nodes/proxy');
  });
});

describe('relist-latency (KubeletPlegDurationHigh)', () => {
  it('p99 ≥ 10 s fires; a p99 just under 10 s does not', () => {
    const over = check(run(evidence({ metrics: ok(healthyMetrics({ plegRelistDuration: hist([...repeat(11, 100)]) })) })), 'relist-latency');
    expect(over.status).toBe('found');
    expect(over.finding?.title).toBe('Relists are slow: p99 10s ≥ 10s (KubeletPlegDurationHigh)');
    // All samples in (5, 10]: Prometheus interpolates p99 to 9.95 s.
    const under = check(run(evidence({ metrics: ok(healthyMetrics({ plegRelistDuration: hist(repeat(7, 100)) })) })), 'relist-latency');
    expect(under.status).toBe('clear');
    expect(under.note).toContain('9.95s');
  });

  it('uses the interval between the scrapes when relists finished in it', () => {
    const earlier = healthyMetrics({ plegRelistDuration: hist(repeat(30, 100)) });
    const later = healthyMetrics({ plegRelistDuration: hist([...repeat(30, 100), ...repeat(0.004, 5)]) });
    const c = check(run(evidence(scrapes(earlier, later))), 'relist-latency');
    expect(c.status).toBe('clear');
    expect(c.note).toContain('5 relists between the scrapes');
  });

  it('no metrics → noEvidence', () => {
    expect(check(run(evidence({ metrics: FORBIDDEN })), 'relist-latency').status).toBe('noEvidence');
  });

  it('1.36: a slow per-pod relist fires on its own (it holds the global relist lock); just under 10 s does not', () => {
    const gate = { featureGates: { PLEGOnDemandRelist: true } };
    const over = check(run(evidence({ metrics: ok(healthyMetrics({ ...gate, plegPodRelistDuration: hist(repeat(11, 100)) })) })), 'relist-latency');
    expect(over.status).toBe('found');
    expect(over.finding?.title).toBe('Per-pod relists are slow: p99 10s ≥ 10s, and each one holds the relist lock');
    expect(over.finding?.evidence.map((e) => e.text)).toEqual([
      '`kubelet_pleg_relist_duration_seconds` p99 = 5ms over 500 relists since the kubelet started',
      '`kubelet_pleg_pod_relist_duration_seconds` p99 = 10s over 100 per-pod relists since the kubelet started',
      '`PLEGOnDemandRelist: true` (kubernetes_feature_enabled)',
    ]);
    expect(over.finding?.refs).toContain('kubernetes/kubernetes#137362');
    const under = check(run(evidence({ metrics: ok(healthyMetrics({ ...gate, plegPodRelistDuration: hist(repeat(7, 100)) })) })), 'relist-latency');
    expect(under.status).toBe('clear');
    expect(under.note).toContain('per-pod relists p99 9.95s (100 since the kubelet started), PLEGOnDemandRelist on (kubernetes_feature_enabled)');
  });

  it('1.36: both slow → one finding naming both; the gate from configz when the metrics do not export it', () => {
    const slow = healthyMetrics({ plegRelistDuration: hist(repeat(11, 100)), plegPodRelistDuration: hist(repeat(11, 10)) });
    const c = check(run(evidence({ metrics: ok(slow), configz: ok(configz({ featureGates: { PLEGOnDemandRelist: true } })) })), 'relist-latency');
    expect(c.finding?.title).toBe('Relists are slow: p99 10s ≥ 10s (KubeletPlegDurationHigh); per-pod relists p99 10s');
    expect(c.finding?.summary).toContain('holds the lock the periodic relist needs');
    expect(c.finding?.evidence.at(-1)).toEqual({ origin: 'configz', text: '`PLEGOnDemandRelist: true` (the kubelet config)' });
  });

  it('1.36: a real v1.36.2 scrape is clear and names its per-pod relists', () => {
    const text = readFileSync(new URL('../../../fixtures/real-kubelet-1.36/metrics-containerd2.3.txt', import.meta.url), 'utf8');
    const real = summarizeKubeletMetrics(text);
    const c = check(run(evidence({ metrics: ok({ ...real, plegLastSeenSeconds: NOW.getTime() / 1000 - 1 }) })), 'relist-latency');
    expect(c.status).toBe('clear');
    expect(c.note).toMatch(/^p99 \S+ < 10s \(5 relists since the kubelet started\); per-pod relists p99 \S+ \(4 since the kubelet started\), PLEGOnDemandRelist on \(kubernetes_feature_enabled\)$/u);
  });

  it('1.36: per-pod relists between the scrapes, and a gate switched off', () => {
    const earlier = healthyMetrics({ plegPodRelistDuration: hist(repeat(30, 10)) });
    const later = healthyMetrics({ plegPodRelistDuration: hist([...repeat(30, 10), ...repeat(0.004, 3)]) });
    expect(check(run(evidence(scrapes(earlier, later))), 'relist-latency').note).toContain('per-pod relists p99 4.9ms (3 between the scrapes)');
    const off = check(run(evidence({ metrics: ok(healthyMetrics({ featureGates: { PLEGOnDemandRelist: false } })) })), 'relist-latency');
    expect(off.note).toContain('PLEGOnDemandRelist off (kubernetes_feature_enabled)');
  });
});

describe('syncloop-healthz', () => {
  it('[-]syncloop → problem; [+]syncloop → clear; 403 → noEvidence', () => {
    const failed = check(run(evidence({ node: NOT_READY, healthz: ok(healthz(false)) })), 'syncloop-healthz');
    expect(failed.status).toBe('found');
    expect(failed.finding?.severity).toBe('problem');
    expect(failed.finding?.evidence.map((e) => e.text).join()).toContain('[-]syncloop failed: reason withheld');
    expect(failed.finding?.evidence.map((e) => e.text).join()).toContain('SystemdWatchdog');
    expect(check(run(evidence({ healthz: ok(healthz(true)) })), 'syncloop-healthz').status).toBe('clear');
    expect(check(run(evidence({ healthz: FORBIDDEN })), 'syncloop-healthz').note).toBe('healthz: 403 — needs get on nodes/proxy');
  });
});

describe('event-storm (cause 6)', () => {
  it('discards rising between scrapes → found; steady → clear; one scrape with old discards → found from the total', () => {
    const rising = check(run(evidence(scrapes(healthyMetrics({ plegDiscardEvents: 3 }), healthyMetrics({ plegDiscardEvents: 40 })))), 'event-storm');
    expect(rising.status).toBe('found');
    expect(rising.finding?.evidence[0]?.text).toBe('`kubelet_pleg_discard_events` rose by 37 in 5s (now 40)');
    expect(check(run(evidence(scrapes(healthyMetrics({ plegDiscardEvents: 3 }), healthyMetrics({ plegDiscardEvents: 3 })))), 'event-storm').status).toBe('clear');
    expect(check(run(evidence({ metrics: ok(healthyMetrics({ plegDiscardEvents: 2 })) })), 'event-storm').status).toBe('found');
    expect(check(run(evidence({ metrics: FORBIDDEN })), 'event-storm').status).toBe('noEvidence');
  });

  it('a high rate of status calls is churn', () => {
    const earlier = healthyMetrics();
    const later = healthyMetrics({ runtimeOperations: { ...earlier.runtimeOperations, podsandbox_status: op(repeat(0.002, 40 + 150)) } });
    const c = check(run(evidence(scrapes(earlier, later))), 'event-storm');
    expect(c.finding?.title).toBe('Pod churn on the node is high');
    expect(c.finding?.evidence[0]?.text).toContain('150 pod and container status calls in 5s (30/s)');
  });
});

describe('cni (cause 7)', () => {
  it('network not ready in the Ready message → problem; CRI NetworkReady=false → found; neither → clear', () => {
    const msg = 'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized';
    const d = run(evidence({ node: nodeObject({ ready: 'False', message: msg }) }));
    expect(d.verdict).toBe('network');
    expect(check(d, 'cni').finding?.severity).toBe('problem');
    const snapshot = emptySnapshot({ status: { conditions: [{ type: 'RuntimeReady', status: true, reason: '', message: '' }, { type: 'NetworkReady', status: false, reason: 'NetworkPluginNotReady', message: 'cni config uninitialized' }] } });
    expect(check(run(evidence({ nodeSide: nodeSide(snapshot) })), 'cni').finding?.evidence[0]?.text).toContain('NetworkReady=false');
    expect(check(run(evidence()), 'cni').status).toBe('clear');
    expect(check(run(evidence({ node: { metadata: { name: 'x' } } })), 'cni').status).toBe('noEvidence');
  });
});

describe('hung-mount (cause 8)', () => {
  const dState = (rows: { comm: string; wchan: string }[]) =>
    probes({ dStateProcesses: { status: 'ok', durationMs: 4, value: rows.map((r, i) => ({ pid: 100 + i, stat: 'D', state: 'uninterruptible' as const, wchan: r.wchan, comm: r.comm })) } });

  it('D-state tasks in nfs/rpc wait channels → found; other D-state → clear; no node side → noEvidence', () => {
    const hung = check(run(evidence({ node: NOT_READY, nodeSide: nodeSide(emptySnapshot(), dState([{ comm: 'java', wchan: 'rpc_wait_bit_killable' }, { comm: 'du', wchan: 'nfs_wait_on_request' }])) })), 'hung-mount');
    expect(hung.status).toBe('found');
    expect(hung.finding?.severity).toBe('problem');
    expect(hung.finding?.title).toBe('2 tasks stuck on a network filesystem (NFS, CIFS or Ceph)');
    const other = check(run(evidence({ nodeSide: nodeSide(emptySnapshot(), dState([{ comm: 'kworker', wchan: 'blk_mq_get_tag' }])) })), 'hung-mount');
    expect(other.status).toBe('clear');
    const none = check(run(evidence()), 'hung-mount');
    expect(none.status).toBe('noEvidence');
    expect(none.note).toContain('nodeSide: skipped');
  });
});

describe('node-load (cause 9)', () => {
  const load = (load5: number, cpus: number) =>
    probes({ load: { status: 'ok', durationMs: 2, value: { loadavg: { load1: load5, load5, load15: load5, runnable: 2, total: 900 }, cpus, verdict: { perCpu1: load5 / cpus, perCpu5: load5 / cpus, overloaded: load5 / cpus > 1 } } } });
  it('load5 per CPU above 1 → found; exactly 1 → clear; no probes → noEvidence', () => {
    expect(check(run(evidence({ nodeSide: nodeSide(emptySnapshot(), load(8.4, 8)) })), 'node-load').status).toBe('found');
    expect(check(run(evidence({ nodeSide: nodeSide(emptySnapshot(), load(8, 8)) })), 'node-load').status).toBe('clear');
    expect(check(run(evidence()), 'node-load').status).toBe('noEvidence');
  });

  it('a node side reached by the agent (no probes): the note names that way, not "nodeSide: ok"', () => {
    const viaAgent = nodeSide(emptySnapshot());
    if (viaAgent.status === 'ok') viaAgent.value.reachedBy = 'via agent pod pleg-doctor/pleg-doctor-agent-x7k2, taken 30s ago';
    for (const id of ['node-load', 'hung-mount']) {
      const c = check(run(evidence({ nodeSide: viaAgent })), id);
      expect(c.status).toBe('noEvidence');
      expect(c.note).toContain('nodeSide came via agent pod pleg-doctor/pleg-doctor-agent-x7k2, taken 30s ago, which runs no node probes (only SSH does)');
      expect(c.note).not.toContain('nodeSide: ok');
    }
  });
});

describe('kernel-regression (cause 10) and known-bad runtimes', () => {
  it('5.4.0-132-generic from nodeInfo → found; 5.4.0-135-generic → clear', () => {
    const bad = check(run(evidence({ node: nodeObject({ kernel: '5.4.0-132-generic' }) })), 'kernel-regression');
    expect(bad.status).toBe('found');
    expect(bad.finding?.severity).toBe('warning');
    expect(bad.finding?.remediation[0]?.gate).toBe('destructive');
    expect(check(run(evidence({ node: nodeObject({ kernel: '5.4.0-135-generic' }) })), 'kernel-regression').status).toBe('clear');
  });

  it('containerd 1.4.4 and Docker 20.10.19 are known-bad; 1.4.3 is not', () => {
    for (const runtime of ['containerd://1.4.4', 'docker://20.10.19']) {
      const c = check(run(evidence({ node: nodeObject({ runtime }) })), 'runtime-hung');
      expect(c.finding?.title).toBe('Known-bad container runtime version');
    }
    expect(check(run(evidence({ node: nodeObject({ runtime: 'containerd://1.4.3' }) })), 'runtime-hung').status).toBe('clear');
  });
});

describe('systemd-dbus (cause 3)', () => {
  const systemd = (version: number) => probes({ systemd: { status: 'ok', durationMs: 3, value: { version, full: `${version}` } } });
  it('systemd < 242 with PLEG NotReady → warning; ≥ 242 → clear; without signs → clear; unknown → noEvidence', () => {
    const c = check(run(evidence({ node: NOT_READY, configz: ok(configz()), nodeSide: nodeSide(emptySnapshot(), systemd(237)) })), 'systemd-dbus');
    expect(c.status).toBe('found');
    expect(c.finding?.severity).toBe('warning');
    expect(c.finding?.remediation.find((r) => r.command === 'systemctl daemon-reexec')?.gate).toBe('disruptive');
    expect(check(run(evidence({ node: NOT_READY, nodeSide: nodeSide(emptySnapshot(), systemd(242)) })), 'systemd-dbus').status).toBe('clear');
    expect(check(run(evidence({ nodeSide: nodeSide(emptySnapshot(), systemd(219)) })), 'systemd-dbus').status).toBe('clear');
    expect(check(run(evidence()), 'systemd-dbus').status).toBe('noEvidence');
  });

  it('CentOS 7 in nodeInfo means systemd 219; Ready flapping counts as a sign; cgroupfs makes it not applicable', () => {
    const events = ['09:20', '09:27', '09:34', '09:41'].map((t, i) => ({ reason: i % 2 === 0 ? 'NodeNotReady' : 'NodeReady', lastTimestamp: `2026-11-22T${t}:00Z` }));
    const c = check(run(evidence({ node: nodeObject({ osImage: 'CentOS Linux 7 (Core)', kernel: '3.10.0-1160.el7.x86_64' }), events: ok(events) })), 'systemd-dbus');
    expect(c.status).toBe('found');
    expect(c.finding?.evidence.map((e) => e.text).join('\n')).toContain('4 NodeReady/NodeNotReady events, about every 7m0s');
    expect(check(run(evidence({ node: NOT_READY, configz: ok(configz({ cgroupDriver: 'cgroupfs' })), nodeSide: nodeSide(emptySnapshot(), systemd(219)) })), 'systemd-dbus').status).toBe('notApplicable');
  });
});

describe('pleg-deadlock (cause 4)', () => {
  it('≥ 1.14 without a chan-send dump → notApplicable; < 1.14 NotReady without a dump → warning; unknown version → noEvidence', () => {
    expect(check(run(evidence()), 'pleg-deadlock').status).toBe('notApplicable');
    const old = check(run(evidence({ node: nodeObject({ ready: 'False', kubeletVersion: 'v1.13.4' }) })), 'pleg-deadlock');
    expect(old.finding?.severity).toBe('warning');
    expect(check(run(evidence({ node: { metadata: { name: 'n' }, status: { conditions: [] } } })), 'pleg-deadlock').status).toBe('noEvidence');
  });
});

describe('evented-pleg (cause 12)', () => {
  it('gate off → notApplicable; configz missing → noEvidence; R3 → problem; gate on with ≤1.31 → warning; gate on 1.32 quiet → clear', () => {
    expect(check(run(evidence({ configz: ok(configz()) })), 'evented-pleg').status).toBe('notApplicable');
    expect(check(run(evidence()), 'evented-pleg').status).toBe('noEvidence');
    const r3 = 'EventedPLEG is not healthy: EventedPLEG: pleg event channel capacity is full with 1000 events';
    const full = check(run(evidence({ node: nodeObject({ ready: 'False', message: r3 }), configz: ok(configz({ featureGates: { EventedPLEG: true } })) })), 'evented-pleg');
    expect(full.finding?.severity).toBe('problem');
    const old = check(run(evidence({ node: nodeObject({ kubeletVersion: 'v1.29.3' }), configz: ok(configz({ featureGates: { EventedPLEG: true } })) })), 'evented-pleg');
    expect(old.finding?.severity).toBe('warning');
    expect(check(run(evidence({ configz: ok(configz({ featureGates: { EventedPLEG: true } })) })), 'evented-pleg').status).toBe('clear');
    const containerd16 = check(run(evidence({ node: nodeObject({ runtime: 'containerd://1.6.20' }), configz: ok(configz({ featureGates: { EventedPLEG: true } })) })), 'evented-pleg');
    expect(containerd16.finding?.evidence.map((e) => e.text).join()).toContain('no GetContainerEvents');
  });

  it('connection errors rising between scrapes → found', () => {
    const m = (errors: number) => metricsSummary({ eventedPleg: { connectionErrors: errors, connectionSuccesses: 1 } });
    const c = check(run(evidence({ ...scrapes(m(1), m(4)), configz: ok(configz({ featureGates: { EventedPLEG: true } })) })), 'evented-pleg');
    expect(c.status).toBe('found');
    expect(c.finding?.evidence.map((e) => e.text).join()).toContain('= 4 (was 1)');
  });
});

describe('stuck-container timing edges', () => {
  it('status calls at 90 % of runtimeRequestTimeout count; well under do not', () => {
    const at = (secondsEach: number) =>
      check(
        run(
          evidence({
            node: NOT_READY,
            metrics: ok(healthyMetrics({ runtimeOperations: { list_podsandbox: op(repeat(0.002, 50)), podsandbox_status: op([...repeat(0.002, 10), secondsEach], 1) } })),
            configz: ok(configz({ runtimeRequestTimeoutMs: 60_000 })),
          }),
        ),
        'stuck-container',
      );
    expect(at(59.5).status).toBe('found');
    expect(at(20).status).toBe('clear');
  });
});

describe('remaining statuses', () => {
  const bare = { kind: 'Node', metadata: { name: 'bare' }, status: { conditions: [] } };

  it('lease-lost: no Ready condition → noEvidence; Ready=False → clear', () => {
    expect(check(run(evidence({ node: bare })), 'lease-lost').status).toBe('noEvidence');
    expect(check(run(evidence({ node: NOT_READY })), 'lease-lost').status).toBe('clear');
  });

  it('pleg-deadlock: an old kubelet with PLEG healthy → clear; a dump with the relist idle → clear', () => {
    expect(check(run(evidence({ node: nodeObject({ kubeletVersion: 'v1.13.4' }) })), 'pleg-deadlock').status).toBe('clear');
    const idle = { total: 10, relist: { id: 1, state: 'sleep', blockedIn: 'idle' }, criBlocked: [] };
    expect(check(run(evidence({ node: bare, goroutines: ok(idle) })), 'pleg-deadlock').note).toBe('the relist goroutine waits in idle, not in a channel send');
  });

  it('kernel-regression: no kernel anywhere → noEvidence; the node side’s uname counts', () => {
    expect(check(run(evidence({ node: bare })), 'kernel-regression').status).toBe('noEvidence');
    const p = probes({ kernel: { status: 'ok', durationMs: 1, value: '5.4.0-132-generic' } });
    const c = check(run(evidence({ node: bare, nodeSide: nodeSide(emptySnapshot(), p) })), 'kernel-regression');
    expect(c.finding?.evidence[0]).toEqual({ origin: 'nodeSide', text: 'uname -r = `5.4.0-132-generic`' });
  });

  it('startup-transient: no start-up form → notApplicable', () => {
    expect(check(run(evidence()), 'startup-transient').status).toBe('notApplicable');
  });
});
