// Diagnose Node on the real node stack (sshd, containerd 1.6, runc; test/support/node-stack.sh): the node
// side is collected exactly as the product does (collectNodeEvidence → collectNodeSnapshot over SSH with
// probes, per-container stats, the snapshot budget) and judged by diagnose(). Faults are real: containerd
// or one shim SIGSTOPped (SIGCONT always in `finally`, windows of a few seconds), 200 real exited
// containers. The API side is the stand-in serving the demo's healthy node.

import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Diagnosis } from '../../../src/core/diagnose/diagnosis';
import { diagnose } from '../../../src/core/diagnose/runDiagnosis';
import { diagnosisJson } from '../../../src/core/diagnose/verdicts';
import type { KubeNode } from '../../../src/core/kube/objects';
import type { Logger } from '../../../src/core/util/logger';
import { startFakeApiServer } from '../../../src/demo/apiServer/server';
import { DEMO_CONTEXTS, demoNodeAt } from '../../../src/demo/demoCluster';
import { demoKubeletProxy } from '../../../src/demo/kubeletEndpoints';
import { collectNodeEvidence } from '../../../src/infra/diagnose/collectEvidence';
import { nodeSideEvidence } from '../../../src/infra/diagnose/nodeSideEvidence';
import { createKubeGateway } from '../../../src/infra/kube/createGateway';
import type { KubeGateway } from '../../../src/infra/kube/gateway';
import { collectNodeSnapshot } from '../../../src/infra/nodeSnapshot/collectNodeSnapshot';
import type { ConnectionPlan } from '../../../src/infra/ssh/sshConfig';
import { mutatingClient, TEST_IMAGE, TEST_NAMESPACE } from '../../support/criPods';
import type { NodeStackEnv } from '../../support/nodeStackEnv';
import { shimPidFor, waitForState, withTestPod } from '../cri/kit';
import { KubeconfigDir } from '../kube/kubeconfigFiles';
import { connect, removeScratch, stack } from '../ssh/kit';

/** Per-call deadline of the node side: short, because every second of it is a second of frozen runtime. */
const DEADLINE_MS = 2_000;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
afterAll(() => removeScratch());

const healthySpec = DEMO_CONTEXTS[0]?.nodes.find((n) => n.name === 'prod-eu-node-01');
if (!healthySpec) throw new Error('demo script changed: no prod-eu-node-01');

const quiet: Logger & { lines: string[] } = (() => {
  const lines: string[] = [];
  const push = (m: unknown): void => void lines.push(m instanceof Error ? m.message : String(m));
  return { lines, trace: push, debug: push, info: push, warn: push, error: push };
})();

async function apiSide(): Promise<{ gateway: KubeGateway; node: KubeNode }> {
  const nowMs = Date.now();
  const server = await startFakeApiServer({ nodes: [demoNodeAt(healthySpec as NonNullable<typeof healthySpec>, nowMs - 600_000, nowMs)] });
  cleanups.push(() => server.close());
  server.setNodeProxy(demoKubeletProxy((n) => server.getNode(n), () => new Date()));
  const dir = new KubeconfigDir();
  cleanups.push(() => dir.remove());
  const gateway = createKubeGateway({ env: { KUBECONFIG: dir.write('config', [{ name: 'prod', server: server.url }]) } });
  cleanups.push(() => gateway.dispose());
  return { gateway, node: await gateway.getNode('prod', 'prod-eu-node-01') };
}

/** Collects (node side from the real stack) and diagnoses; `budgetMs` is the CRI snapshot's total budget. */
async function diagnoseStack(env: NodeStackEnv, options: { useNodeProxy: boolean; budgetMs?: number }): Promise<{ diagnosis: Diagnosis; ms: number }> {
  const { gateway, node } = await apiSide();
  const connection = connect(env);
  cleanups.push(() => connection.close());
  const plan: ConnectionPlan = {
    target: { alias: env.sshHost, host: env.sshHost, port: env.sshPort, user: env.sshUser, identityFiles: [env.sshKey] },
    jumps: [],
    userKnownHostsFiles: [],
    warnings: [],
  };
  const started = performance.now();
  const evidence = await collectNodeEvidence({
    gateway,
    context: 'prod',
    node,
    useNodeProxy: options.useNodeProxy,
    proxyTimeoutMs: 5_000,
    metricsIntervalMs: 0,
    logger: quiet,
    nodeSide: async (signal) =>
      nodeSideEvidence(
        await collectNodeSnapshot(connection, plan, {
          endpoint: env.criSocket,
          transport: 'auto',
          deadlineMs: DEADLINE_MS,
          sudo: true,
          probes: true,
          ...(options.budgetMs !== undefined ? { snapshotBudgetMs: options.budgetMs } : {}),
          logger: quiet,
          signal,
        }),
      ),
  });
  const ms = performance.now() - started;
  expect(evidence.nodeSide.status, JSON.stringify(evidence.nodeSide).slice(0, 400)).toBe('ok');
  return { diagnosis: diagnose(evidence), ms };
}

const verdictOf = (d: Diagnosis, id: string) => diagnosisJson(d).checks.find((c) => c.id === id);

describe('Diagnose Node on the real node stack', () => {
  it('healthy node: no check fails, and each running container was asked for its stats', async () => {
    const env = stack();
    const pod = await withTestPod(env);
    cleanups.push(() => pod.cleanup());
    const { diagnosis } = await diagnoseStack(env, { useNodeProxy: true });
    const failing = diagnosisJson(diagnosis).checks.filter((c) => c.verdict === 'fail');
    expect(failing).toEqual([]);
    expect(verdictOf(diagnosis, 'runtime-hung')?.verdict).toBe('ok');
    expect(verdictOf(diagnosis, 'stuck-container')?.verdict).toBe('ok');
    expect(diagnosis.gaps.join('\n')).not.toContain('budget');
  }, 60_000);

  it('containerd SIGSTOPped: runtime-hang is named, with the evidence quoted, within the deadline', async () => {
    const env = stack();
    const pid = env.containerdPid;
    let result: { diagnosis: Diagnosis; ms: number } | undefined;
    try {
      process.kill(pid, 'SIGSTOP');
      expect(await waitForState(pid, 'T')).toBe('T');
      result = await diagnoseStack(env, { useNodeProxy: false });
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    const { diagnosis, ms } = result;
    // Transport probe (one deadline) + the snapshot's parallel top-level calls (one deadline) + slack.
    expect(ms).toBeLessThan(4 * DEADLINE_MS + 3_000);
    const runtime = verdictOf(diagnosis, 'runtime-hung');
    expect(runtime).toMatchObject({ cause: 'runtime-hang', verdict: 'fail' });
    const evidence = runtime?.evidence.join('\n') ?? '';
    expect(evidence).toMatch(/did not answer .*ListPodSandbox/u);
    // The probes see the process itself stopped.
    expect(evidence).toMatch(/`containerd` \(pid \d+\) has state `T/u);
    expect(diagnosis.headline).toContain('container runtime is not answering');
    // Not mistaken for a hung shim: the List calls fail too.
    expect(verdictOf(diagnosis, 'stuck-container')?.verdict).not.toBe('fail');
    // Gated remediation is offered, never run.
    const finding = diagnosis.findings.find((f) => f.checkId === 'runtime-hung');
    expect(finding?.remediation.some((r) => r.gate !== 'readOnly')).toBe(true);
  }, 60_000);

  it('one shim SIGSTOPped: shim-hang names the pod, through its own stats call, while the runtime answers', async () => {
    const env = stack();
    const { pod, cleanup } = await withTestPod(env);
    cleanups.push(cleanup);
    const shim = shimPidFor(pod.sandboxId);
    let result: { diagnosis: Diagnosis; ms: number } | undefined;
    try {
      process.kill(shim, 'SIGSTOP');
      expect(await waitForState(shim, 'T')).toBe('T');
      result = await diagnoseStack(env, { useNodeProxy: false });
    } finally {
      process.kill(shim, 'SIGCONT');
    }
    const { diagnosis } = result;
    const shimCheck = verdictOf(diagnosis, 'stuck-container');
    expect(shimCheck?.cause).toBe('shim-hang');
    expect(['warn', 'fail']).toContain(shimCheck?.verdict);
    const evidence = shimCheck?.evidence.join('\n') ?? '';
    expect(evidence).toContain(`${TEST_NAMESPACE}/${pod.spec.name}`);
    // The per-container stats call of the frozen pod's container is the one that timed out.
    expect(evidence).toContain(`CRI ListContainerStats \`${pod.containerId}\` hit its deadline`);
    expect(verdictOf(diagnosis, 'runtime-hung')?.verdict).toBe('ok');
  }, 60_000);

  it('a budget shorter than a hung call: the snapshot returns at the budget with what it read, and says what it did not', async () => {
    const env = stack();
    const { pod, cleanup } = await withTestPod(env);
    cleanups.push(cleanup);
    const shim = shimPidFor(pod.sandboxId);
    let diagnosis: Diagnosis | undefined;
    const budgetMs = 1_000;
    try {
      process.kill(shim, 'SIGSTOP');
      expect(await waitForState(shim, 'T')).toBe('T');
      ({ diagnosis } = await diagnoseStack(env, { useNodeProxy: false, budgetMs }));
    } finally {
      process.kill(shim, 'SIGCONT');
    }
    const gap = diagnosis.gaps.find((g) => g.includes('budget'));
    expect(gap).toMatch(/The CRI snapshot stopped at its 1s budget .*not read: .*PodSandboxStatus for \d+/u);
    // The frozen shim's calls were cut by the budget (DEADLINE_MS is longer), so they are "not read", not a finding.
    expect(verdictOf(diagnosis, 'stuck-container')?.verdict).toBe('unknown');
    // What was read is there: the lists answered.
    expect(verdictOf(diagnosis, 'runtime-hung')?.verdict).toBe('ok');
  }, 60_000);

  it('200 exited containers: a too-many-containers warning; all removed afterwards', async () => {
    const env = stack();
    const admin = mutatingClient(env.criSocket);
    const tag = randomBytes(4).toString('hex');
    const name = `exited-${tag}`;
    const uid = `exited-uid-${tag}`;
    const logDirectory = path.join(env.podLogDir, `${TEST_NAMESPACE}_${name}_${uid}`);
    fs.mkdirSync(logDirectory, { recursive: true });
    const labels = { 'io.kubernetes.pod.name': name, 'io.kubernetes.pod.namespace': TEST_NAMESPACE, 'io.kubernetes.pod.uid': uid };
    const config = {
      metadata: { name, uid, namespace: TEST_NAMESPACE, attempt: 0 },
      hostname: '',
      logDirectory,
      labels: { app: 'pleg-test', ...labels },
      linux: { cgroupParent: `/plegtest/pod${uid}`, securityContext: { namespaceOptions: { network: 'NODE', pid: 'CONTAINER', ipc: 'NODE' } } },
    };
    const sandboxId = String((await admin.call('RunPodSandbox', { config }))['podSandboxId']);
    const sandboxState = async (): Promise<string> => String(((await admin.call('PodSandboxStatus', { podSandboxId: sandboxId }))['status'] as { state?: unknown } | undefined)?.state);
    cleanups.push(async () => {
      try {
        // Removing the sandbox removes its containers (CRI RemovePodSandbox).
        await admin.call('StopPodSandbox', { podSandboxId: sandboxId });
        await admin.call('RemovePodSandbox', { podSandboxId: sandboxId });
        const left = await admin.call('ListContainers', { filter: { podSandboxId: sandboxId } });
        expect((left['containers'] as unknown[] | undefined) ?? []).toEqual([]);
      } finally {
        admin.close();
        fs.rmSync(logDirectory, { recursive: true, force: true });
      }
    });
    const COUNT = 200;
    const ids: string[] = [];
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < COUNT) {
        const i = next++;
        const created = await admin.call('CreateContainer', {
          podSandboxId: sandboxId,
          sandboxConfig: config,
          config: {
            metadata: { name: `done-${i}`, attempt: 0 },
            image: { image: TEST_IMAGE },
            command: ['/bin/true'],
            labels: { 'io.kubernetes.container.name': `done-${i}`, ...labels },
            logPath: `done-${i}_0.log`,
            // Host network and IPC: the containers need nothing of the sandbox's namespaces to start.
            linux: { securityContext: { namespaceOptions: { network: 'NODE', pid: 'CONTAINER', ipc: 'NODE' } } },
          },
        });
        const containerId = String(created['containerId']);
        await admin.call('StartContainer', { containerId });
        ids.push(containerId);
      }
    };
    try {
      await Promise.all([worker(), worker(), worker(), worker()]);
    } catch (error) {
      throw new Error(`creating exited containers failed after ${ids.length} (sandbox ${await sandboxState()}): ${String(error)}`, { cause: error });
    }
    // Wait until every one has exited (they run /bin/true).
    const until = Date.now() + 60_000;
    let exited = 0;
    while (Date.now() < until) {
      const listed = await admin.call('ListContainers', { filter: { podSandboxId: sandboxId, state: { state: 'CONTAINER_EXITED' } } });
      exited = ((listed['containers'] as unknown[] | undefined) ?? []).length;
      if (exited === COUNT) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(exited).toBe(COUNT);

    const { diagnosis } = await diagnoseStack(env, { useNodeProxy: false });
    const density = verdictOf(diagnosis, 'density');
    expect(density).toMatchObject({ cause: 'too-many-containers', verdict: 'warn' });
    expect(density?.evidence.join('\n')).toMatch(/^2\d\d exited containers in the CRI snapshot: more than the pod capacity \(110, status\.capacity\.pods\)/mu);
    expect(diagnosisJson(diagnosis).checks.filter((c) => c.verdict === 'fail')).toEqual([]);
  }, 180_000);
});
