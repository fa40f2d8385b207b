// `pleg-doctor diagnose` end to end over HTTP: the real gateway against the demo cluster's stand-in and
// its scripted kubelets (the same wiring `npm run demo` uses), for the flapper while NotReady, the
// crash-looping runtime while down, a Ready node and the lease-lost node.

import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDiagnoseCommand } from '../../../src/cli/commands/diagnose';
import { runCli } from '../../../src/cli/dispatch';
import { COMMANDS } from '../../../src/cli/registry';
import { DEMO_CONTEXTS, nodeMomentAt } from '../../../src/demo/demoCluster';
import { demoKubeconfigYaml } from '../../../src/demo/demoKubeconfig';
import { startDemo } from '../../../src/demo/demoRunner';
import type { RunningDemo } from '../../../src/demo/demoRunner';
import { readEvidenceBundle } from '../../../src/infra/diagnose/evidenceBundle';
import { createKubeGateway } from '../../../src/infra/kube/createGateway';
import { readNodeStackEnv } from '../../support/nodeStackEnv';
import { memoryIo } from '../../support/memoryIo';
import { withTestPod } from '../cri/kit';

let demo: RunningDemo;
let dir: string;
let kubeconfig: string;

/** Demo seconds after the origin at which both the flapper is NotReady (PLEG) and node-03's runtime is down. */
function bothDown(): number {
  const nodes = DEMO_CONTEXTS[0]?.nodes ?? [];
  const flapper = nodes.find((n) => n.name === 'prod-eu-node-07');
  const crash = nodes.find((n) => n.name === 'prod-eu-node-03');
  if (!flapper || !crash) throw new Error('demo script changed');
  const ref = Date.parse('2026-11-22T08:00:00Z');
  for (let s = 0; s < 20_000; s++) {
    const at = ref + s * 1000;
    // Stay a few seconds inside both windows, so a tick or two of test time cannot leave them.
    const ok = [0, 5, 10].every((d) => nodeMomentAt(flapper, ref, at + d * 1000).ready.message.startsWith('PLEG is not healthy') && nodeMomentAt(crash, ref, at + d * 1000).ready.message === 'container runtime is down');
    if (ok) return s;
  }
  throw new Error('no moment with both nodes down');
}

beforeAll(async () => {
  // Frozen at a moment where the flapper and the crash-looping runtime are both NotReady.
  demo = await startDemo({ live: false, originMs: Date.now() - bothDown() * 1000 });
  dir = mkdtempSync(join(tmpdir(), 'pleg-diagnose-cli-'));
  kubeconfig = join(dir, 'kubeconfig');
  writeFileSync(kubeconfig, demoKubeconfigYaml(demo.kubeconfigEntries()), { mode: 0o600 });
});

afterAll(async () => {
  await demo.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function diagnoseNode(node: string, extra: string[] = [], env: Record<string, string> = {}) {
  const io = { ...memoryIo(), env };
  const code = await runCli(
    ['diagnose', '--context', 'prod-eu', '--node', node, '--kubeconfig', kubeconfig, '--metrics-interval', '5000', '--proxy-timeout', '5000', ...extra],
    io,
    { diagnose: { summary: '', load: () => Promise.resolve(createDiagnoseCommand(createKubeGateway)) } },
    '1',
  );
  return { code, out: io.out(), err: io.err() };
}

type JsonChecks = { node: string; checks: { id: string; cause: string; verdict: string; summary: string; evidence: string[] }[] };

let bundles = 0;
/** Diagnoses the live node and saves its evidence bundle; returns both. */
async function diagnoseAndSave(node: string, extra: string[] = [], env: Record<string, string> = {}) {
  const bundle = join(dir, `bundle-${++bundles}`);
  const r = await diagnoseNode(node, ['--format', 'json', '--save-evidence', bundle, ...extra], env);
  const reading = await readEvidenceBundle(bundle);
  return { ...r, json: JSON.parse(r.out) as JsonChecks, bundle, evidence: reading.evidence };
}

async function diagnoseBundleCli(bundle: string) {
  const io = memoryIo();
  const code = await runCli(['diagnose', '--evidence', bundle, '--format', 'json'], io, { diagnose: { summary: '', load: () => Promise.resolve(createDiagnoseCommand(createKubeGateway)) } }, '1');
  return { code, json: JSON.parse(io.out()) as JsonChecks, err: io.err() };
}

const verdicts = (j: JsonChecks) => j.checks.map((c) => `${c.id}=${c.verdict}`);

describe('pleg-doctor diagnose against the demo cluster', () => {
  it('is registered', () => {
    expect(Object.keys(COMMANDS)).toContain('diagnose');
  });

  it('the flapper while NotReady: the stuck-container problem, exit 1', async () => {
    const r = await diagnoseNode('prod-eu-node-07');
    expect(r.err).toBe('');
    expect(r.code).toBe(1);
    expect(r.out.split('\n')[0]).toBe('# PLEG Doctor report: prod-eu-node-07');
    expect(r.out).toContain("One pod's status calls time out: a stuck container or shim");
    expect(r.out).toMatch(/\| One container or shim stuck \| problem found \|/);
  }, 30_000);

  it('the crash-looping runtime while down: runtime-hang fails from errors rising between scrapes; the saved bundle gives the same verdicts', async () => {
    const r = await diagnoseAndSave('prod-eu-node-03');
    expect(r.code).toBe(1);
    expect(r.err).toContain(`evidence bundle written to ${r.bundle}: bundle.json, node.json, metrics.txt, metrics-later.txt, configz.json, healthz.txt, goroutines.txt, events.json`);
    const { evidence } = r;
    expect(evidence.metrics.status).toBe('ok');
    expect(evidence.metricsLater.status).toBe('ok');
    if (evidence.metrics.status !== 'ok' || evidence.metricsLater.status !== 'ok') return;
    for (const t of ['list_podsandbox', 'list_containers', 'status', 'version']) {
      expect(evidence.metricsLater.value.runtimeOperations[t]?.errors ?? 0, t).toBeGreaterThan(evidence.metrics.value.runtimeOperations[t]?.errors ?? 0);
    }
    expect(r.json.checks.find((c) => c.id === 'runtime-hung')).toMatchObject({ cause: 'runtime-hang', verdict: 'fail' });
    // Round trip: the bundle, judged offline, says exactly what the live diagnosis said.
    const offline = await diagnoseBundleCli(r.bundle);
    expect(offline.code).toBe(1);
    expect(offline.err).toBe('');
    expect(verdicts(offline.json)).toEqual(verdicts(r.json));
    expect(offline.json.checks.map((c) => c.evidence)).toEqual(r.json.checks.map((c) => c.evidence));
  }, 30_000);

  it('a Ready node: no problem found, exit 0', async () => {
    const r = await diagnoseNode('prod-eu-node-01', ['--metrics-interval', '0']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/## Findings\n\nNo problem found\.\n/);
  }, 30_000);

  it('the lease-lost node: its kubelet endpoints are unavailable (503), and the bundle keeps that', async () => {
    const r = await diagnoseAndSave('prod-eu-node-11', ['--metrics-interval', '0']);
    const { evidence } = r;
    for (const f of [evidence.metrics, evidence.configz, evidence.healthz, evidence.goroutines]) expect(f).toMatchObject({ status: 'unavailable', httpStatus: 503 });
    expect(verdicts((await diagnoseBundleCli(r.bundle)).json)).toEqual(verdicts(r.json));
  }, 30_000);

  it('--ssh: the node side is a real CRI snapshot of the node stack (host key checked against the given known_hosts)', async () => {
    const stackEnv = readNodeStackEnv();
    const pod = await withTestPod(stackEnv);
    try {
      const knownHosts = join(dir, 'known_hosts');
      copyFileSync(stackEnv.sshKnownHosts, knownHosts);
      const ssh = ['--ssh', '--host', stackEnv.sshHost, '--port', String(stackEnv.sshPort), '--user', stackEnv.sshUser, '--identity', stackEnv.sshKey, '--known-hosts', knownHosts, '--socket', stackEnv.criSocket, '--sudo'];
      // A clean HOME: no ~/.ssh/config, no agent, no default keys.
      const r = await diagnoseAndSave('prod-eu-node-01', ['--metrics-interval', '0', ...ssh], { HOME: dir, USER: 'tester' });
      expect(r.code).toBe(0);
      const { evidence } = r;
      expect(evidence.nodeSide.status).toBe('ok');
      if (evidence.nodeSide.status !== 'ok') return;
      expect(evidence.nodeSide.value.transport.kind).toBe('execRelay');
      expect(evidence.nodeSide.value.snapshot.sandboxes.map((s) => s.id)).toContain(pod.pod.sandboxId);
      // The running test container was asked for its own stats.
      expect(evidence.nodeSide.value.snapshot.timings.some((t) => t.method === 'ListContainerStats' && t.id === pod.pod.containerId && t.ok)).toBe(true);
      expect(verdicts((await diagnoseBundleCli(r.bundle)).json)).toEqual(verdicts(r.json));
    } finally {
      await pod.cleanup();
    }
  }, 60_000);

  it('--ssh to an unknown host key: the node side fails naming it, and stderr says how to accept the key', async () => {
    const stackEnv = readNodeStackEnv();
    const ssh = ['--ssh', '--host', stackEnv.sshHost, '--port', String(stackEnv.sshPort), '--user', stackEnv.sshUser, '--identity', stackEnv.sshKey, '--known-hosts', join(dir, 'empty_known_hosts')];
    const r = await diagnoseAndSave('prod-eu-node-01', ['--metrics-interval', '0', ...ssh], { HOME: dir, USER: 'tester' });
    expect(r.evidence.nodeSide.status).toBe('failed');
    expect(r.err).toContain('--accept-host-key SHA256:');
  }, 60_000);

  it('a node that does not exist → exit 3 naming it', async () => {
    const r = await diagnoseNode('prod-eu-node-99');
    expect(r.code).toBe(3);
    expect(r.err).toContain('There is no node "prod-eu-node-99" in context "prod-eu"');
  });
});
