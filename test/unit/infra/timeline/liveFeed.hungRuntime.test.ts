// The live feed (runLiveFeed, the one implementation the panel, `pleg-doctor timeline` and the agent share)
// on a runtime that stops answering: its calls are serial like the kubelet's relist, each with the runtime
// request timeout, so a hung runtime never has more than one of them waiting (issue #28). The agent's lane
// (criLane.test.ts) holds the same for its diagnosis calls; the real containerd, SIGSTOPped, in
// test/integration/agent/agent.test.ts.

import { describe, expect, it } from 'vitest';
import type { CriContainer, CriPodSandbox } from '../../../../src/core/parse/criTypes';
import type { SessionDelta } from '../../../../src/core/timeline/session';
import { CriError } from '../../../../src/infra/cri/criError';
import type { CriCallOptions, CriReader } from '../../../../src/infra/cri/reader';
import { runLiveFeed } from '../../../../src/infra/timeline/liveFeed';

const sandbox: CriPodSandbox = { id: 'sb1', metadata: { name: 'p1', uid: 'u1', namespace: 'ns', attempt: 0 }, state: 'SANDBOX_READY', createdAtNs: '1', labels: {}, annotations: {}, runtimeHandler: '' };
const container: CriContainer = { id: 'c1', podSandboxId: 'sb1', metadata: { name: 'c', attempt: 0 }, image: 'i', imageRef: 'r', state: 'CONTAINER_RUNNING', createdAtNs: '1', labels: { 'io.kubernetes.pod.uid': 'u1' }, annotations: {} };

/** A runtime that answers until `hung` is set, then holds every call until its deadline (or the abort). */
function runtime(): { reader: CriReader; hung: { on: boolean }; inFlight: () => number; maxInFlight: () => number; calls: () => number; deadlines: number[] } {
  let inFlight = 0;
  let max = 0;
  let calls = 0;
  const hung = { on: false };
  const deadlines: number[] = [];
  const call = <T>(method: string, answer: T, options?: CriCallOptions): Promise<T> => {
    calls++;
    inFlight++;
    max = Math.max(max, inFlight);
    if (options?.deadlineMs !== undefined) deadlines.push(options.deadlineMs);
    const ms = hung.on ? (options?.deadlineMs ?? 5_000) : 1;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        inFlight--;
        if (hung.on) reject(new CriError(4, 'deadline', method, ms));
        else resolve(answer);
      }, ms);
      options?.signal?.addEventListener('abort', () => {
        clearTimeout(timer);
        inFlight--;
        reject(new CriError(1, 'cancelled', method, 0));
      });
    });
  };
  const reader: CriReader = {
    description: 'hung-able',
    version: (o) => call('Version', { version: '0.1.0', runtimeName: 'fake', runtimeVersion: '1', runtimeApiVersion: 'v1' }, o),
    status: (o) => call('Status', { conditions: [], info: {} }, o),
    listPodSandbox: (o) => call('ListPodSandbox', [sandbox], o),
    listContainers: (o) => call('ListContainers', [container], o),
    podSandboxStatus: (_id, o) => call('PodSandboxStatus', { ...sandbox, ip: '10.0.0.1', additionalIps: [], info: {} }, o),
    containerStatus: (_id, o) => call('ContainerStatus', { ...container, startedAtNs: '2', finishedAtNs: '0', exitCode: 0, reason: '', message: '', logPath: '', info: {} }, o),
    listContainerStats: (o) => call('ListContainerStats', [], o),
    onCall: () => () => undefined,
    close: () => undefined,
  };
  return { reader, hung, inFlight: () => inFlight, maxInFlight: () => max, calls: () => calls, deadlines };
}

describe('live feed on a runtime that hangs', () => {
  it('has at most one call waiting, each with the runtime request timeout, and keeps Healthy() moving', async () => {
    const rt = runtime();
    const controller = new AbortController();
    const deltas: SessionDelta[] = [];
    const settings = { relistPeriodMs: 50, thresholdMs: 600, runtimeRequestTimeoutMs: 250, profile: '1.32+' as const, evented: false };
    const done = runLiveFeed({ node: 'n1', settings, connectCri: () => Promise.resolve(rt.reader), signal: controller.signal, onDelta: (d) => deltas.push(d), tickMs: 50 });
    await new Promise((r) => setTimeout(r, 300));
    const healthyCalls = rt.calls();
    expect(healthyCalls).toBeGreaterThan(4);
    rt.hung.on = true;
    let samples = 0;
    const sampler = setInterval(() => {
      samples++;
      expect(rt.inFlight()).toBeLessThanOrEqual(1);
    }, 5);
    await new Promise((r) => setTimeout(r, 1_500));
    clearInterval(sampler);
    controller.abort();
    await done;
    expect(samples).toBeGreaterThan(100);
    expect(rt.maxInFlight()).toBe(1);
    // ~1.5 s at a 250 ms deadline: a handful of serial calls, not one per tick or period.
    expect(rt.calls() - healthyCalls).toBeLessThanOrEqual(Math.ceil(1_500 / 250) + 1);
    expect(new Set(rt.deadlines)).toEqual(new Set([250]));
    // While the calls hung, the ticker still turned Healthy() false past the 600 ms threshold.
    expect(deltas.some((d) => d.health?.some((h) => !h.healthy) === true)).toBe(true);
  });
});
