// docs/node-access.md and docs/pleg-health.md: telling a hung runtime from one stuck pod (hung shim), from the API side (metrics,
// healthz, goroutine dump) and the node side (CRI snapshot, process states).

import { describe, expect, it } from 'vitest';
import { RUNTIME_DOWN, RUNTIME_NOT_ANSWERING } from '../../../../../src/core/diagnose/checks/runtimeHung';
import { STUCK_POD_TITLE, WHICH_POD } from '../../../../../src/core/diagnose/checks/stuckContainer';
import { diagnose } from '../../../../../src/core/diagnose/runDiagnosis';
import {
  NOW,
  NOW_S,
  TIMEOUT,
  check,
  configz,
  emptySnapshot,
  evidence,
  goroutines,
  healthyMetrics,
  hist,
  healthz,
  metricsSummary,
  nodeObject,
  nodeSide,
  ok,
  op,
  probes,
  repeat,
  scrapes,
} from '../../../../support/diagnoseBuilders';

const NOT_READY = nodeObject({ ready: 'False' });

describe('/metrics hangs while /healthz answers (§8)', () => {
  it('with PLEG unhealthy → the runtime is not answering', () => {
    const d = diagnose(evidence({ node: NOT_READY, metrics: TIMEOUT, healthz: ok(healthz(true)) }), { now: NOW });
    const c = check(d, 'runtime-hung');
    expect(c.status).toBe('found');
    expect(c.finding?.title).toBe(RUNTIME_NOT_ANSWERING);
    expect(c.finding?.severity).toBe('problem');
    expect(c.finding?.evidence.map((e) => e.text).join('\n')).toContain('/metrics did not answer within 10s');
    expect(check(d, 'stuck-container').status).not.toBe('found');
    expect(d.headline).toBe('NotReady (PLEG): the container runtime is not answering CRI calls');
  });

  it('with PLEG healthy → one frozen shim (a warning)', () => {
    const d = diagnose(evidence({ metrics: TIMEOUT, healthz: ok(healthz(true)) }), { now: NOW });
    const c = check(d, 'stuck-container');
    expect(c.status).toBe('found');
    expect(c.finding?.severity).toBe('warning');
    expect(c.finding?.title).toContain('frozen shim');
    expect(check(d, 'runtime-hung').status).not.toBe('found');
    expect(check(d, 'pleg-health').status).toBe('clear');
  });

  it('a /metrics timeout alone (healthz also missing) decides nothing', () => {
    const d = diagnose(evidence({ metrics: TIMEOUT, healthz: TIMEOUT }), { now: NOW });
    expect(check(d, 'stuck-container').status).toBe('noEvidence');
    expect(d.gaps.join('\n')).toContain('the endpoint hung');
  });
});

describe('the relist goroutine decides where it waits', () => {
  const at = (blockedIn: string, state = 'select') =>
    diagnose(evidence({ node: NOT_READY, goroutines: ok(goroutines(blockedIn, 2, state)) }), { now: NOW });

  it('inside ListPodSandbox → hung runtime', () => {
    const d = at('ListPodSandbox');
    expect(check(d, 'runtime-hung').finding?.title).toBe(RUNTIME_NOT_ANSWERING);
    expect(check(d, 'runtime-hung').finding?.evidence.map((e) => e.text).join()).toContain('[select, 2 minutes]');
    expect(check(d, 'stuck-container').status).not.toBe('found');
  });

  it('inside PodSandboxStatus or ContainerStatus → one stuck pod', () => {
    for (const method of ['PodSandboxStatus', 'ContainerStatus']) {
      const d = at(method);
      expect(check(d, 'stuck-container').finding?.title).toBe(STUCK_POD_TITLE);
      expect(check(d, 'stuck-container').finding?.severity).toBe('problem');
      expect(check(d, 'runtime-hung').status).not.toBe('found');
    }
  });

  it('in chan send → the pre-1.14 deadlock', () => {
    const d = diagnose(
      evidence({ node: nodeObject({ ready: 'False', kubeletVersion: 'v1.12.7' }), goroutines: ok(goroutines('chan send', 1140, 'chan send')) }),
      { now: NOW },
    );
    const c = check(d, 'pleg-deadlock');
    expect(c.status).toBe('found');
    expect(c.finding?.severity).toBe('problem');
    expect(c.finding?.evidence.map((e) => e.text).join('\n')).toContain('1140 minutes');
    expect(check(d, 'runtime-hung').status).not.toBe('found');
    expect(check(d, 'stuck-container').status).not.toBe('found');
  });

  it('a relist caught mid-call without a wait time (under a minute) → neither', () => {
    for (const method of ['ListPodSandbox', 'PodSandboxStatus']) {
      const d = diagnose(evidence({ goroutines: ok(goroutines(method)) }), { now: NOW });
      expect(check(d, 'runtime-hung').status).not.toBe('found');
      expect(check(d, 'stuck-container').status).not.toBe('found');
    }
  });

  it('idle → neither', () => {
    const d = at('idle');
    expect(check(d, 'runtime-hung').status).not.toBe('found');
    expect(check(d, 'stuck-container').status).not.toBe('found');
  });
});

describe('metrics between two scrapes', () => {
  // The demo flapper prod-eu-node-07: a stuck shim makes GetPodStatus wait out the 2 min deadline, twice.
  function flapperMetrics(errors: number): ReturnType<typeof metricsSummary> {
    return healthyMetrics({
      plegLastSeenSeconds: NOW_S - 195,
      plegRelistDuration: hist([...repeat(0.004, 240), 240.2, 240.1]),
      runtimeOperations: {
        list_podsandbox: op(repeat(0.002, 600)),
        list_containers: op(repeat(0.003, 600)),
        podsandbox_status: op([...repeat(0.002, 40), ...repeat(120, errors)], errors),
        container_status: op(repeat(0.002, 50)),
      },
    });
  }

  it('podsandbox_status errors with ≈120 s samples while List* are fast → one stuck pod (the flapper)', () => {
    const d = diagnose(
      evidence({ node: nodeObject({ ready: 'False', message: 'PLEG is not healthy: pleg was last seen active 3m15s ago; threshold is 3m0s' }), ...scrapes(flapperMetrics(4), flapperMetrics(4)), configz: ok(configz()) }),
      { now: NOW },
    );
    const c = check(d, 'stuck-container');
    expect(c.status).toBe('found');
    expect(c.finding?.title).toBe(STUCK_POD_TITLE);
    expect(c.finding?.severity).toBe('problem');
    const text = c.finding?.evidence.map((e) => e.text).join('\n') ?? '';
    expect(text).toContain('operation_type="podsandbox_status"');
    // Each number says what it counts: per call and per relist, on average, not all of them together.
    expect(text).toMatch(/4 calls since the kubelet started took ≈2m0s each on average/u);
    expect(text).toMatch(/2 relists since the kubelet started took ≈4m0s each on average \(≈ 2 × the 2m0s CRI deadline\)/u);
    // Nothing here names the pod: the finding says so, and what would.
    expect(c.finding?.summary).toContain(WHICH_POD);
    expect(check(d, 'runtime-hung').status).toBe('clear');
    expect(d.headline).toBe("NotReady (PLEG): one pod's status calls time out: a stuck container or shim");
  });

  it('the crash-looping runtime: List*/status/version errors rising, each failing in ms → runtime down', () => {
    const failing = (errors: number) =>
      metricsSummary({
        plegLastSeenSeconds: NOW_S - 100,
        runtimeOperations: {
          list_podsandbox: op([...repeat(0.002, 100), ...repeat(0.001, errors)], errors),
          list_containers: op([...repeat(0.002, 100), ...repeat(0.001, errors)], errors),
          status: op([...repeat(0.001, 50), ...repeat(0.001, errors)], errors),
          version: op([...repeat(0.001, 5), ...repeat(0.001, errors)], errors),
        },
      });
    const d = diagnose(
      evidence({ node: nodeObject({ ready: 'False', message: 'container runtime is down' }), ...scrapes(failing(10), failing(15)) }),
      { now: NOW },
    );
    const c = check(d, 'runtime-hung');
    expect(c.status).toBe('found');
    expect(c.finding?.title).toBe(RUNTIME_DOWN);
    expect(c.finding?.severity).toBe('problem');
    expect(c.finding?.evidence.map((e) => e.text).join('\n')).toContain('operation_type="list_podsandbox"}` rose by 5 in 5s (now 15)');
    expect(d.verdict).toBe('runtime-down');
    expect(d.headline).toBe('NotReady (container runtime): the container runtime is down: CRI calls fail at once');
  });

  it('List* errors rising with ≈120 s samples → hung, not down', () => {
    const hung = (errors: number) =>
      metricsSummary({
        runtimeOperations: { list_podsandbox: op([...repeat(0.002, 100), ...repeat(120, errors)], errors) },
      });
    const d = diagnose(evidence({ node: NOT_READY, ...scrapes(hung(1), hung(2)) }), { now: NOW });
    expect(check(d, 'runtime-hung').finding?.title).toBe(RUNTIME_NOT_ANSWERING);
  });

  it('errors only since kubelet start and a single scrape → no finding for the runtime', () => {
    const d = diagnose(evidence({ metrics: ok(healthyMetrics({ runtimeOperations: { list_podsandbox: op(repeat(0.002, 100), 2) } })) }), { now: NOW });
    expect(check(d, 'runtime-hung').status).toBe('clear');
  });
});

describe('node side', () => {
  it('snapshot finding runtimeUnresponsive + containerd in state T → hung runtime', () => {
    const snapshot = emptySnapshot({ findings: [{ kind: 'runtimeUnresponsive', message: 'ListPodSandbox hit its 10s deadline', methods: ['ListPodSandbox'] }] });
    const p = probes({ runtimeProcesses: { status: 'ok', durationMs: 3, value: [{ pid: 812, stat: 'Tl', state: 'stopped', wchan: undefined, comm: 'containerd' }] } });
    const d = diagnose(evidence({ node: NOT_READY, nodeSide: nodeSide(snapshot, p) }), { now: NOW });
    const c = check(d, 'runtime-hung');
    expect(c.finding?.title).toBe(RUNTIME_NOT_ANSWERING);
    expect(c.finding?.evidence.map((e) => e.text).join('\n')).toContain('`containerd` (pid 812) has state `Tl`: stopped');
  });

  it('snapshot finding hungShim names the pod and offers inspectp with the validated sandbox id only', () => {
    const id = 'a3f9c0d2b1e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0';
    const snapshot = emptySnapshot({
      findings: [
        { kind: 'hungShim', sandboxId: id, podName: 'web-7d9', podNamespace: 'shop', message: 'verbose PodSandboxStatus did not answer within 5s' },
        { kind: 'hungShim', sandboxId: 'x; rm -rf /', podName: 'evil', podNamespace: 'ns', message: 'did not answer' },
      ],
    });
    const d = diagnose(evidence({ nodeSide: nodeSide(snapshot) }), { now: NOW });
    const c = check(d, 'stuck-container');
    expect(c.status).toBe('found');
    expect(c.finding?.severity).toBe('warning');
    expect(c.finding?.evidence.map((e) => e.text).join('\n')).toContain('`shop/web-7d9`');
    // The pod is named: no "which pod" caveat.
    expect(c.finding?.summary).not.toContain('Which pod');
    const commands = c.finding?.remediation.map((r) => r.command ?? '') ?? [];
    expect(commands).toContain(`timeout 15 crictl -t 10s inspectp ${id}`);
    expect(commands.join('\n')).not.toContain('rm -rf');
    expect(commands.join('\n')).not.toContain('web-7d9');
  });

  it('fast List* and no hung shim in a snapshot → both clear', () => {
    const d = diagnose(evidence({ nodeSide: nodeSide(emptySnapshot()) }), { now: NOW });
    expect(check(d, 'runtime-hung').status).toBe('clear');
    expect(check(d, 'stuck-container').status).toBe('clear');
  });
});
