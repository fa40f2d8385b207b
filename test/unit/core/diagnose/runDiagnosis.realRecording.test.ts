// The real kubelet 1.32 recording (test/fixtures/real-kubelet-1.32: containerd frozen with SIGSTOP for
// 300 s) run end to end: the real endpoint bodies go through the real parsers into NodeEvidence, and
// diagnose() must judge each phase as the README describes it. The Node objects are built by hand (the
// recorded kubelet ran without an API server), from the kubelet's own log at each moment.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Diagnosis } from '../../../../src/core/diagnose/diagnosis';
import type { Fetched, NodeEvidence } from '../../../../src/core/diagnose/evidence';
import { diagnose } from '../../../../src/core/diagnose/runDiagnosis';
import type { KubeNode } from '../../../../src/core/kube/objects';
import { summarizeGoroutineDump } from '../../../../src/core/parse/goroutineDump';
import { parseHealthz } from '../../../../src/core/parse/healthz';
import { parseKubeletConfigz } from '../../../../src/core/parse/kubeletConfigz';
import type { KubeletMetricsSummary } from '../../../../src/core/parse/kubeletEndpointTypes';
import { summarizeKubeletMetrics } from '../../../../src/core/parse/kubeletMetrics';

const read = (name: string): string => readFileSync(new URL(`../../../fixtures/real-kubelet-1.32/${name}`, import.meta.url), 'utf8');

const PROXY_TIMEOUT_MS = 15_000;

/** The main port's request in a recorded healthz-*.txt: the body between its GET line and its http_code line. */
function mainPortHealthz(phase: string): Fetched<ReturnType<typeof parseHealthz>> {
  const m = /^# \S+ GET https:\/\/127\.0\.0\.1:10250\/healthz\?verbose\n([\s\S]*?)\n# http_code=(\d+) time=([\d.]+)s$/m.exec(read(`healthz-${phase}.txt`));
  if (m === null) throw new Error(`healthz-${phase}.txt: no main-port request`);
  return { status: 'ok', value: parseHealthz(m[1] ?? '', Number(m[2])), ms: Math.round(Number(m[3]) * 1000) };
}

function metrics(phase: string, ms: number): Fetched<KubeletMetricsSummary> {
  return { status: 'ok', value: summarizeKubeletMetrics(read(`metrics-${phase}.txt`)), ms };
}

function goroutines(phase: string): Fetched<ReturnType<typeof summarizeGoroutineDump>> {
  return { status: 'ok', value: summarizeGoroutineDump(read(`goroutines-${phase}.txt`)), ms: 20 };
}

function node(ready: { status: 'True' | 'False'; reason: string; message: string; heartbeat: string; transition: string }): KubeNode {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: 'pleg-node', uid: '5d1c1e2a-8f1e-4c55-9a59-0c3f6c1f0a11', creationTimestamp: '2026-11-22T02:59:17Z' },
    spec: {},
    status: {
      capacity: { cpu: '2', memory: '8029916Ki', pods: '110' },
      allocatable: { cpu: '2', memory: '7927516Ki', pods: '110' },
      conditions: [
        { type: 'MemoryPressure', status: 'False', reason: 'KubeletHasSufficientMemory', message: 'kubelet has sufficient memory available', lastHeartbeatTime: ready.heartbeat, lastTransitionTime: '2026-11-22T02:59:17Z' },
        { type: 'DiskPressure', status: 'False', reason: 'KubeletHasNoDiskPressure', message: 'kubelet has no disk pressure', lastHeartbeatTime: ready.heartbeat, lastTransitionTime: '2026-11-22T02:59:17Z' },
        { type: 'PIDPressure', status: 'False', reason: 'KubeletHasSufficientPID', message: 'kubelet has sufficient PID available', lastHeartbeatTime: ready.heartbeat, lastTransitionTime: '2026-11-22T02:59:17Z' },
        { type: 'Ready', status: ready.status, reason: ready.reason, message: ready.message, lastHeartbeatTime: ready.heartbeat, lastTransitionTime: ready.transition },
      ],
      addresses: [
        { type: 'InternalIP', address: '127.0.0.1' },
        { type: 'Hostname', address: 'pleg-node' },
      ],
      nodeInfo: {
        kubeletVersion: 'v1.32.10',
        containerRuntimeVersion: 'containerd://1.6.20',
        kernelVersion: '6.1.0-28-amd64',
        osImage: 'Debian GNU/Linux 12 (bookworm)',
        operatingSystem: 'linux',
        architecture: 'amd64',
      },
    },
  };
}

const READY = { status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' } as const;

function evidence(collectedAt: string, n: KubeNode, parts: Pick<NodeEvidence, 'metrics' | 'metricsLater' | 'metricsIntervalMs' | 'healthz' | 'goroutines'>): NodeEvidence {
  return {
    context: 'recording',
    nodeName: 'pleg-node',
    collectedAt,
    node: n,
    events: { status: 'ok', value: [], ms: 8 },
    podCount: { status: 'ok', value: 4, ms: 9 },
    configz: { status: 'ok', value: parseKubeletConfigz(read('configz.json')), ms: 6 },
    nodeSide: { status: 'skipped', reason: 'node access is not configured for this cluster' },
    kubeletLog: { status: 'skipped', reason: 'no way to read it was given' },
    ...parts,
  };
}

const problems = (d: Diagnosis): string[] => d.findings.filter((f) => f.severity === 'problem').map((f) => `${f.checkId}: ${f.title}`);

describe('diagnose() on the real kubelet 1.32 recording', () => {
  it('healthy (two scrapes 55 s apart before the freeze): no problem', () => {
    const d = diagnose(
      evidence(
        '2026-11-22T02:59:49.111Z',
        node({ ...READY, heartbeat: '2026-11-22T03:00:40Z', transition: '2026-11-22T02:59:27Z' }),
        {
          metrics: metrics('healthy', 30),
          metricsLater: metrics('healthy-end', 42),
          metricsIntervalMs: 55_042,
          healthz: mainPortHealthz('healthy'),
          goroutines: goroutines('healthy'),
        },
      ),
      { now: new Date('2026-11-22T03:00:44.225Z') },
    );
    expect(d.verdict).toBe('ready');
    expect(problems(d)).toEqual([]);
    expect(d.checks.find((c) => c.checkId === 'runtime-hung')?.status).toBe('clear');
  });

  it('stopped T+180 s (/metrics hangs past the deadline, healthz fine, relist stuck in ListPodSandbox): the runtime is not answering', () => {
    // kubelet-runtime-stopped.log, 03:03:46.572920: the first "PLEG is not healthy" line. "container runtime
    // is down" has been reported since 03:02:45, so Ready turned False with the next status update.
    const message = '[container runtime is down, PLEG is not healthy: pleg was last seen active 3m3.143817273s ago; threshold is 3m0s]';
    const d = diagnose(
      evidence('2026-11-22T03:03:46.600Z', node({ status: 'False', reason: 'KubeletNotReady', message, heartbeat: '2026-11-22T03:03:46Z', transition: '2026-11-22T03:02:55Z' }), {
        // metrics-requests.txt: this scrape hung 119.9 s, far past the proxy deadline.
        metrics: { status: 'timeout', ms: PROXY_TIMEOUT_MS, deadlineMs: PROXY_TIMEOUT_MS },
        metricsLater: { status: 'skipped', reason: 'the first /metrics scrape did not succeed (timeout)' },
        metricsIntervalMs: 5_000,
        healthz: mainPortHealthz('stopped-T+180s'),
        goroutines: goroutines('stopped-T+210s'),
      }),
      { now: new Date('2026-11-22T03:04:01.600Z') },
    );
    expect(d.readyMessage).toBe(message);
    const finding = d.findings.find((f) => f.checkId === 'runtime-hung');
    expect(finding).toMatchObject({ checkId: 'runtime-hung', severity: 'problem', title: 'The container runtime is not answering CRI calls' });
    // The symptom's cause, not the one stuck pod of cause 2: the relist waits in ListPodSandbox.
    expect(d.findings.find((f) => f.checkId === 'stuck-container' && f.severity === 'problem')).toBeUndefined();
    expect(d.findings[0]?.severity).toBe('problem');
  });

  it('stopped, with a deadline long enough for the hung scrapes to finish (T+120 s and T+150 s bodies): runtime', () => {
    // metrics-requests.txt: both requests hung ≈120 s and completed 29 s apart, at 03:04:45.136 and
    // 03:05:14.345, with list_podsandbox errors 1 → 2 and the relist still waiting.
    const message = '[container runtime is down, PLEG is not healthy: pleg was last seen active 4m30.916s ago; threshold is 3m0s]';
    const d = diagnose(
      evidence('2026-11-22T03:02:45.117Z', node({ status: 'False', reason: 'KubeletNotReady', message, heartbeat: '2026-11-22T03:05:12Z', transition: '2026-11-22T03:02:55Z' }), {
        metrics: metrics('stopped-T+120s', 120_007),
        metricsLater: metrics('stopped-T+150s', 120_009),
        metricsIntervalMs: 29_209,
        healthz: mainPortHealthz('stopped-T+150s'),
        goroutines: goroutines('stopped-final'),
      }),
      { now: new Date('2026-11-22T03:05:14.345Z') },
    );
    expect(d.findings.find((f) => f.checkId === 'runtime-hung')).toMatchObject({ severity: 'problem', title: 'The container runtime is not answering CRI calls' });
  });

  it('recovered C+15 s (scrapes at C+5 s and C+15 s): no problem', () => {
    const d = diagnose(
      evidence('2026-11-22T03:05:49.489Z', node({ ...READY, heartbeat: '2026-11-22T03:05:56Z', transition: '2026-11-22T03:05:46Z' }), {
        metrics: metrics('recovered-C+005s', 30),
        metricsLater: metrics('recovered-C+015s', 44),
        metricsIntervalMs: 9_869,
        healthz: mainPortHealthz('recovered-C+015s'),
        goroutines: goroutines('recovered-C+015s'),
      }),
      { now: new Date('2026-11-22T03:05:59.402Z') },
    );
    expect(d.verdict).toBe('ready');
    expect(problems(d)).toEqual([]);
  });
});
