// The demo cluster's scripted nodes, read through the demo kubelet endpoints (src/demo/kubeletEndpoints.ts)
// and the real parsers, must diagnose as the script says: the stuck node and the flapper → stuck pods, the crash-looping
// runtime → runtime down, a Ready node → no problem, the lease-lost node → Ready=Unknown with a 503 proxy.

import { describe, expect, it } from 'vitest';
import { RUNTIME_DOWN, RUNTIME_NOT_ANSWERING } from '../../../../src/core/diagnose/checks/runtimeHung';
import { STUCK_POD_TITLE } from '../../../../src/core/diagnose/checks/stuckContainer';
import type { Fetched, NodeEvidence } from '../../../../src/core/diagnose/evidence';
import { renderDiagnosisMarkdown } from '../../../../src/core/diagnose/report/renderMarkdown';
import { diagnose } from '../../../../src/core/diagnose/runDiagnosis';
import { classifyNode } from '../../../../src/core/classify/classifyNode';
import type { KubeNode } from '../../../../src/core/kube/objects';
import { summarizeGoroutineDump } from '../../../../src/core/parse/goroutineDump';
import { parseHealthz } from '../../../../src/core/parse/healthz';
import { parseKubeletConfigz } from '../../../../src/core/parse/kubeletConfigz';
import { summarizeKubeletMetrics } from '../../../../src/core/parse/kubeletMetrics';
import { DEMO_CONTEXTS, demoNodeAt, nodeMomentAt } from '../../../../src/demo/demoCluster';
import type { DemoNodeSpec } from '../../../../src/demo/demoCluster';
import { demoKubeletProxy } from '../../../../src/demo/kubeletEndpoints';
import { check } from '../../../support/diagnoseBuilders';

const ORIGIN = Date.parse('2026-11-22T08:00:00Z');
const INTERVAL_MS = 5_000;
const prod = DEMO_CONTEXTS[0]?.nodes ?? [];

function spec(name: string): DemoNodeSpec {
  const found = prod.find((n) => n.name === name);
  if (!found) throw new Error(`no demo node ${name}`);
  return found;
}

function findMoment(node: DemoNodeSpec, test: (message: string, status: string) => boolean): number {
  for (let s = 0; s < 2000; s++) {
    const m = nodeMomentAt(node, ORIGIN, ORIGIN + s * 1000);
    if (test(m.ready.message, m.ready.status)) return ORIGIN + s * 1000;
  }
  throw new Error(`no such moment for ${node.name}`);
}

/** What collectNodeEvidence would gather through the API stand-in, minus the network. */
async function demoEvidence(specNode: DemoNodeSpec, atMs: number): Promise<NodeEvidence> {
  const node: KubeNode = demoNodeAt(specNode, ORIGIN, atMs);
  const name = specNode.name;
  const fetch = async <T>(nowMs: number, path: string, query: string, parse: (body: string, status: number) => T): Promise<Fetched<T>> => {
    const handler = demoKubeletProxy((n) => (n === name ? node : undefined), () => new Date(nowMs));
    const answer = await handler(name, path, new URLSearchParams(query));
    if (answer === undefined) return { status: 'unavailable', message: 'the API server could not reach the kubelet', ms: 2, httpStatus: 503 };
    return { status: 'ok', value: parse(answer.body, answer.status ?? 200), ms: 3 };
  };
  return {
    context: 'prod-eu',
    nodeName: name,
    collectedAt: new Date(atMs).toISOString(),
    node,
    events: { status: 'ok', value: [], ms: 2 },
    podCount: { status: 'ok', value: 20, ms: 2 },
    metrics: await fetch(atMs, '/metrics', '', (b) => summarizeKubeletMetrics(b)),
    metricsLater: await fetch(atMs + INTERVAL_MS, '/metrics', '', (b) => summarizeKubeletMetrics(b)),
    metricsIntervalMs: INTERVAL_MS,
    configz: await fetch(atMs, '/configz', '', (b) => parseKubeletConfigz(b)),
    healthz: await fetch(atMs, '/healthz', 'verbose', (b, s) => parseHealthz(b, s)),
    goroutines: await fetch(atMs, '/debug/pprof/goroutine', 'debug=2', (b) => summarizeGoroutineDump(b)),
    nodeSide: { status: 'skipped', reason: 'node access is not configured for this cluster' },
    kubeletLog: { status: 'skipped', reason: 'no way to read it was given' },
  };
}

describe('the demo cluster diagnoses as scripted', () => {
  it('prod-eu-node-09 (at risk: Ready, PLEGAtRisk=True while a slow relist hangs) → at risk, the countdown in the headline, the hang found', async () => {
    const node = spec('prod-eu-node-09');
    const at = ORIGIN + 40_000;
    const d = diagnose(await demoEvidence(node, at), { now: new Date(at + INTERVAL_MS) });
    expect(d.verdict).toBe('pleg-at-risk');
    // The same countdown the tree's row shows at that moment, then the cause: the relist waits on a pod's status.
    expect(d.headline).toBe(`PLEG at risk (NotReady in ~${classifyNode(demoNodeAt(node, ORIGIN, at), new Date(at + INTERVAL_MS)).summary.split('~')[1]}): one pod's status calls time out: a stuck container or shim`);
  });

  it('prod-eu-node-07 (stuck, NotReady all the time) → stuck pod status calls, as a problem', async () => {
    const node = spec('prod-eu-node-07');
    const at = findMoment(node, (m) => m.startsWith('PLEG is not healthy')) + 3_000;
    expect(at).toBe(ORIGIN + 3_000);
    const d = diagnose(await demoEvidence(node, at), { now: new Date(at + INTERVAL_MS) });
    expect(d.verdict).toBe('pleg');
    const stuck = check(d, 'stuck-container');
    expect(stuck.finding?.title).toBe(STUCK_POD_TITLE);
    expect(stuck.finding?.severity).toBe('problem');
    expect(check(d, 'runtime-hung').status).toBe('clear');
    expect(check(d, 'runtime-hung').note).toMatch(/list_podsandbox mean \d+(\.\d+)?ms/u);
    expect(d.headline).toBe("NotReady (PLEG): one pod's status calls time out: a stuck container or shim");
    expect(renderDiagnosisMarkdown(d)).toContain(`### Problem: ${STUCK_POD_TITLE}`);
  });

  it('prod-eu-node-05 (flapper) while NotReady → the same stuck-pod cause', async () => {
    const node = spec('prod-eu-node-05');
    const at = findMoment(node, (m) => m.startsWith('PLEG is not healthy')) + 3_000;
    const d = diagnose(await demoEvidence(node, at), { now: new Date(at + INTERVAL_MS) });
    expect(d.verdict).toBe('pleg');
    expect(check(d, 'stuck-container').finding?.title).toBe(STUCK_POD_TITLE);
  });

  it('prod-eu-node-03 (crash-looping runtime) while down → runtime-hung problem', async () => {
    const node = spec('prod-eu-node-03');
    const at = findMoment(node, (m) => m === 'container runtime is down') + 20_000;
    const d = diagnose(await demoEvidence(node, at), { now: new Date(at + INTERVAL_MS) });
    const c = check(d, 'runtime-hung');
    expect(c.status).toBe('found');
    expect(c.finding?.severity).toBe('problem');
    expect([RUNTIME_DOWN, RUNTIME_NOT_ANSWERING]).toContain(c.finding?.title);
  });

  it('a Ready node → No problem found', async () => {
    const node = spec('prod-eu-node-01');
    const at = findMoment(node, (_m, status) => status === 'True');
    const d = diagnose(await demoEvidence(node, at), { now: new Date(at + INTERVAL_MS) });
    expect(d.findings).toEqual([]);
    expect(renderDiagnosisMarkdown(d)).toContain('## Findings\n\nNo problem found.\n');
  });

  it('prod-eu-node-11 (lease lost) → Ready=Unknown finding, kubelet endpoints unavailable', async () => {
    const node = spec('prod-eu-node-11');
    const at = findMoment(node, (_m, status) => status === 'Unknown');
    const d = diagnose(await demoEvidence(node, at), { now: new Date(at) });
    expect(d.verdict).toBe('lease-lost');
    expect(check(d, 'lease-lost').status).toBe('found');
    expect(d.sources.find((s) => s.source === 'metrics')?.status).toBe('unavailable');
  });
});
