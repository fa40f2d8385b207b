// A real PLEG failure, end to end, in ONE fault window: the cluster's containerd is frozen (SIGSTOP)
// until the real kubelet posts "PLEG is not healthy" (≈ 3.3 min with runtimeRequestTimeout 30s). While
// it lasts: the message arrives through the product's watch, `pleg-doctor nodes` and `classify` give the
// verdict `pleg` with the kubelet's own "last seen active" value, and `pleg-doctor diagnose` reads the
// real kubelet through the node proxy (/metrics hangs, /healthz answers, the goroutine dump shows the
// relist blocked in a CRI call, /configz says 30 s) and names the hung runtime. SIGCONT (always, in a
// finally) → Ready again.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_CHECK_FAILS } from '../../../src/cli/commands/diagnose';
import type { NodeEvidence } from '../../../src/core/diagnose/evidence';
import { diagnose } from '../../../src/core/diagnose/runDiagnosis';
import { silentLogger } from '../../../src/core/util/logger';
import { collectNodeEvidence } from '../../../src/infra/diagnose/collectEvidence';
import { parseGoDurationSeconds } from '../../../src/core/util/goDuration';
import { createKubeGateway } from '../../../src/infra/kube/createGateway';
import type { KubeGateway, NodeWatch } from '../../../src/infra/kube/gateway';
import type { RealCluster } from './cluster';
import { cli, kubectl, readyCondition, realCluster, scratchDir, script, until } from './cluster';

let cluster: RealCluster;
let gateway: KubeGateway;
let watch: NodeWatch;
let context: string;
let scratch: { dir: string; remove: () => void };

const PLEG_DEADLINE_MS = 300_000;

beforeAll(async () => {
  cluster = realCluster();
  scratch = scratchDir();
  gateway = createKubeGateway({ kubeconfigPaths: [cluster.kubeconfig] });
  context = gateway.listContexts()[0]?.name ?? '';
  watch = gateway.watchNodes(context);
  await until('the node Ready through the watch', () => (readyOf(watch)?.status === 'True' ? true : undefined), 60_000, 200);
});

afterAll(() => {
  gateway?.dispose();
  scratch?.remove();
});

function readyOf(w: NodeWatch): { status?: string; message?: string } | undefined {
  return w.nodes.get(cluster.nodeName)?.status?.conditions?.find((c) => c.type === 'Ready');
}

/** "pleg was last seen active 3m18.95s ago; threshold is 3m0s" → [198.95, 180]. */
function lastSeen(message: string): [number, number] {
  const m = /pleg was last seen active (\S+) ago; threshold is (\S+?)\]?$/.exec(message);
  if (!m?.[1] || !m[2]) throw new Error(`no "last seen active" in "${message}"`);
  return [parseGoDurationSeconds(m[1]), parseGoDurationSeconds(m[2])];
}

describe('a real kubelet going "PLEG is not healthy" (containerd frozen)', () => {
  it('flows through the real API into the watch, nodes, classify and diagnose; SIGCONT brings Ready back', { timeout: 480_000 }, async () => {
    const frozeAt = Date.now();
    const freeze = script('freeze');
    expect(freeze.status, freeze.stderr).toBe(0);
    try {
      const message = await until('"PLEG is not healthy" through the watch', () => {
        const r = readyOf(watch);
        return r?.status === 'False' && r.message?.includes('PLEG is not healthy') ? r.message : undefined;
      }, PLEG_DEADLINE_MS, 1_000);
      const after = (Date.now() - frozeAt) / 1000;
      // The kubelet's threshold is 3 minutes; its status loop reports within seconds of passing it.
      expect(after).toBeGreaterThan(180);
      const [seenAgo, threshold] = lastSeen(message);
      expect(threshold).toBe(180);
      expect(seenAgo).toBeGreaterThan(180);

      // `pleg-doctor nodes`: the live verdict with the kubelet's numbers.
      const nodes = cli(['nodes', '--kubeconfig', cluster.kubeconfig, '--context', context, '--timeout', '20s']);
      const line = nodes.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l['name'] === cluster.nodeName);
      expect(line, nodes.stdout + nodes.stderr).toBeDefined();
      expect(line?.['verdict']).toBe('pleg');
      expect(String(line?.['message'])).toContain('PLEG is not healthy: pleg was last seen active');
      const [nodesSeenAgo] = lastSeen(String(line?.['message']));
      expect(line?.['plegLastSeenAgoSeconds']).toBeCloseTo(nodesSeenAgo, 2);
      expect(line?.['plegThresholdSeconds']).toBe(180);

      // `pleg-doctor classify` on the Node as kubectl returns it.
      const file = join(scratch.dir, 'node.json');
      writeFileSync(file, kubectl(cluster, ['get', 'node', cluster.nodeName, '-o', 'json']));
      const classified = cli(['classify', file]);
      const c = JSON.parse(classified.stdout.trim().split('\n')[0] ?? '{}') as Record<string, unknown>;
      expect(c['verdict']).toBe('pleg');
      const [classifySeenAgo] = lastSeen(String(c['message']));
      expect(c['plegLastSeenAgoSeconds']).toBeCloseTo(classifySeenAgo, 2);
      expect(String(c['message'])).toBe(readyCondition(cluster).message);

      // `pleg-doctor diagnose`: a failing check, and it is the hung runtime.
      const run = cli(['diagnose', '--kubeconfig', cluster.kubeconfig, '--context', context, '--node', cluster.nodeName, '--format', 'json', '--proxy-timeout', '10000', '--metrics-interval', '1000'], {}, 120_000);
      expect(run.status, run.stderr).toBe(EXIT_CHECK_FAILS);
      const checks = (JSON.parse(run.stdout) as { checks?: { id?: string; verdict?: string }[] }).checks ?? [];
      expect(checks.find((k) => k.id === 'runtime-hung')?.verdict, run.stdout.slice(0, 2000)).toBe('fail');

      // The same collection and catalog in process, to read the evidence: the real kubelet's endpoints
      // while its runtime is frozen.
      const evidence: NodeEvidence = await collectNodeEvidence({
        gateway,
        context,
        node: await gateway.getNode(context, cluster.nodeName),
        useNodeProxy: true,
        proxyTimeoutMs: 10_000,
        metricsIntervalMs: 1_000,
        logger: silentLogger,
        nodeSideSkipReason: 'node access is not configured in this test',
      });
      const diagnosis = diagnose(evidence);
      expect(evidence.metrics).toMatchObject({ status: 'timeout', deadlineMs: 10_000 });
      expect(evidence.healthz.status).toBe('ok');
      expect(evidence.configz).toMatchObject({ status: 'ok', value: { runtimeRequestTimeoutMs: 30_000 } });
      expect(evidence.goroutines.status).toBe('ok');
      if (evidence.goroutines.status === 'ok') {
        expect(['ListPodSandbox', 'ListContainers']).toContain(evidence.goroutines.value.relist?.blockedIn);
      }
      expect(diagnosis.verdict).toBe('pleg');
      const hung = diagnosis.findings.find((f) => f.checkId === 'runtime-hung');
      expect(hung, diagnosis.findings.map((f) => `${f.checkId}: ${f.title}`).join('\n')).toMatchObject({ severity: 'problem', title: 'The container runtime is not answering CRI calls' });
      expect(hung?.evidence.map((e) => e.text).join('\n')).toMatch(/ListPodSandbox|metrics/);
    } finally {
      const thaw = script('thaw');
      expect(thaw.status, thaw.stderr).toBe(0);
    }
    await until('Ready=True again through the watch', () => (readyOf(watch)?.status === 'True' ? true : undefined), 90_000, 500);
    expect(readyCondition(cluster).status).toBe('True');
  });
});
