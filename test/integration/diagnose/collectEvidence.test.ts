// collectNodeEvidence with the real gateway against the API stand-in (its node proxy scripted per test)
// and, for the node side, the real node stack over SSH: every source's outcome is a status, the hung-shim
// signature (a /metrics that hangs while /healthz answers) is recorded as such, and cancellation rejects
// at once with nothing left running.

import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { NodeSideEvidence } from '../../../src/core/diagnose/evidence';
import type { KubeNode } from '../../../src/core/kube/objects';
import type { Logger } from '../../../src/core/util/logger';
import { startFakeApiServer } from '../../../src/demo/apiServer/server';
import type { NodeProxyHandler } from '../../../src/demo/apiServer/server';
import type { AuthMode } from '../../../src/demo/apiServer/contract';
import { DEMO_CONTEXTS, demoNodeAt } from '../../../src/demo/demoCluster';
import { demoKubeletProxy } from '../../../src/demo/kubeletEndpoints';
import { collectNodeEvidence } from '../../../src/infra/diagnose/collectEvidence';
import type { CollectEvidenceOptions, EvidenceStage } from '../../../src/infra/diagnose/collectEvidence';
import { nodeSideEvidence } from '../../../src/infra/diagnose/nodeSideEvidence';
import { createKubeGateway } from '../../../src/infra/kube/createGateway';
import type { KubeGateway } from '../../../src/infra/kube/gateway';
import { collectNodeSnapshot } from '../../../src/infra/nodeSnapshot/collectNodeSnapshot';
import type { ConnectionPlan } from '../../../src/infra/ssh/sshConfig';
import { ctrContainerIds, withTestPod } from '../cri/kit';
import { KubeconfigDir } from '../kube/kubeconfigFiles';
import { connect, removeScratch, stack } from '../ssh/kit';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
afterAll(() => removeScratch());

const healthySpec = DEMO_CONTEXTS[0]?.nodes.find((n) => n.name === 'prod-eu-node-01');
if (!healthySpec) throw new Error('demo script changed: no prod-eu-node-01');

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const push = (m: unknown): void => {
    lines.push(m instanceof Error ? m.message : String(m));
  };
  return { lines, trace: push, debug: push, info: push, warn: push, error: push };
}

async function setup(options: { handler?: (demo: NodeProxyHandler) => NodeProxyHandler; auth?: AuthMode; nowMs?: number } = {}) {
  const nowMs = options.nowMs ?? Date.now();
  const node = demoNodeAt(healthySpec as NonNullable<typeof healthySpec>, nowMs - 600_000, nowMs);
  const server = await startFakeApiServer({ nodes: [node], ...(options.auth ? { auth: options.auth } : {}) });
  cleanups.push(() => server.close());
  const demo = demoKubeletProxy((n) => server.getNode(n), () => new Date());
  server.setNodeProxy(options.handler ? options.handler(demo) : demo);
  server.addPod({ name: 'a', namespace: 'shop', nodeName: 'prod-eu-node-01' });
  server.addPod({ name: 'b', namespace: 'shop', nodeName: 'prod-eu-node-01' });
  server.addPod({ name: 'c', namespace: 'shop', nodeName: 'elsewhere' });
  const dir = new KubeconfigDir();
  cleanups.push(() => dir.remove());
  const gateway: KubeGateway = createKubeGateway({ env: { KUBECONFIG: dir.write('config', [{ name: 'prod', server: server.url }]) } });
  cleanups.push(() => gateway.dispose());
  const stored = await gateway.getNode('prod', 'prod-eu-node-01');
  return { server, gateway, node: stored };
}

function options(gateway: KubeGateway, node: KubeNode, extra: Partial<CollectEvidenceOptions> = {}): CollectEvidenceOptions {
  return { gateway, context: 'prod', node, useNodeProxy: true, proxyTimeoutMs: 2_000, metricsIntervalMs: 300, logger: recordingLogger(), ...extra };
}

describe('collectNodeEvidence', () => {
  it('all sources ok: two scrapes an interval apart, parsed configz, healthz and goroutines; stages in order', async () => {
    const { gateway, node, server } = await setup();
    const logger = recordingLogger();
    const stages: EvidenceStage[] = [];
    const started = Date.now();
    const e = await collectNodeEvidence(options(gateway, node, { logger, onStage: (s) => stages.push(s), nodeSideSkipReason: 'no --ssh given', now: () => new Date(started) }));
    expect(e).toMatchObject({ context: 'prod', nodeName: 'prod-eu-node-01', collectedAt: new Date(started).toISOString(), metricsIntervalMs: 300 });
    expect(e.podCount).toMatchObject({ status: 'ok', value: 2 });
    expect(e.events.status).toBe('ok');
    expect(e.metrics.status).toBe('ok');
    expect(e.metricsLater.status).toBe('ok');
    if (e.metrics.status !== 'ok' || e.metricsLater.status !== 'ok') return;
    expect(e.metrics.value.nodeName).toBe('prod-eu-node-01');
    // The second scrape came after the interval: the relist counter moved on.
    expect(e.metricsLater.value.plegRelistDuration?.count ?? 0).toBeGreaterThanOrEqual(e.metrics.value.plegRelistDuration?.count ?? 0);
    expect(e.configz).toMatchObject({ status: 'ok', value: { runtimeRequestTimeoutMs: 120_000 } });
    expect(e.healthz).toMatchObject({ status: 'ok', value: { healthy: true } });
    expect(e.goroutines).toMatchObject({ status: 'ok', value: { relist: { blockedIn: 'idle' } } });
    expect(e.nodeSide).toEqual({ status: 'skipped', reason: 'no --ssh given' });
    expect(stages).toEqual(['api', 'kubelet', 'metricsLater']);
    const metricsRequests = server.requestLog.filter((l) => l.includes('/proxy/metrics'));
    expect(metricsRequests).toHaveLength(2);
    expect(server.requestLog).toContain('GET /api/v1/nodes/prod-eu-node-01/proxy/debug/pprof/goroutine?debug=2');
    expect(server.requestLog).toContain('GET /api/v1/nodes/prod-eu-node-01/proxy/healthz?verbose');
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    // Each source's outcome is in the log.
    for (const source of ['events', 'podCount', 'metrics', 'metricsLater', 'configz', 'healthz', 'goroutines', 'nodeSide']) {
      expect(logger.lines.some((l) => l.startsWith(`diagnose prod/prod-eu-node-01: ${source} `)), source).toBe(true);
    }
  });

  it('nodes/proxy forbidden: the four endpoints say so, the API reads still work, the second scrape is skipped with a reason', async () => {
    const { gateway, node } = await setup({ auth: { kind: 'forbid', rules: [{ verb: 'get', resource: 'nodes/proxy' }] } });
    const e = await collectNodeEvidence(options(gateway, node));
    for (const f of [e.metrics, e.configz, e.healthz, e.goroutines]) expect(f).toMatchObject({ status: 'forbidden', message: '403 Forbidden: cannot get nodes/proxy' });
    expect(e.metricsLater).toEqual({ status: 'skipped', reason: 'the first /metrics scrape did not succeed (forbidden)' });
    expect(e.podCount).toMatchObject({ status: 'ok', value: 2 });
  });

  it('a hanging /metrics with a fast /healthz: metrics timeout, healthz ok (the hung-shim signature)', async () => {
    const { gateway, node } = await setup({ handler: (demo) => (n, path, q) => (path === '/metrics' ? new Promise(() => undefined) : demo(n, path, q)) });
    const started = Date.now();
    const e = await collectNodeEvidence(options(gateway, node, { proxyTimeoutMs: 700 }));
    expect(Date.now() - started).toBeLessThan(700 + 1_000);
    expect(e.metrics).toMatchObject({ status: 'timeout', deadlineMs: 700 });
    if (e.metrics.status === 'timeout') expect(e.metrics.ms).toBeGreaterThanOrEqual(690);
    expect(e.metricsLater).toEqual({ status: 'skipped', reason: 'the first /metrics scrape did not succeed (timeout)' });
    expect(e.healthz).toMatchObject({ status: 'ok', value: { healthy: true } });
    expect(e.configz.status).toBe('ok');
  });

  it("a kubelet 500 on /healthz is parsed; 503 and 404 are unavailable; a body that does not parse names the endpoint", async () => {
    const failing = '[+]ping ok\n[+]log ok\n[-]syncloop failed: reason withheld\nhealthz check failed\n';
    const { gateway, node } = await setup({
      handler: (demo) => (n, path, q) => {
        if (path === '/healthz') return { status: 500, body: failing };
        if (path === '/configz') return { body: '{"kubeletconfig": 5' };
        if (path === '/debug/pprof/goroutine') return undefined;
        if (path === '/metrics') return { status: 404, body: '404 page not found\n' };
        return demo(n, path, q);
      },
    });
    const e = await collectNodeEvidence(options(gateway, node));
    expect(e.healthz.status).toBe('ok');
    if (e.healthz.status === 'ok') {
      expect(e.healthz.value.healthy).toBe(false);
      expect(e.healthz.value.checks.find((c) => c.name === 'syncloop')?.ok).toBe(false);
    }
    expect(e.configz.status).toBe('failed');
    if (e.configz.status === 'failed') expect(e.configz.message).toMatch(/^\/configz: the kubelet's answer did not parse: /);
    expect(e.goroutines).toMatchObject({ status: 'unavailable', httpStatus: 503 });
    expect(e.metrics).toMatchObject({ status: 'unavailable', httpStatus: 404 });
    expect(e.metricsLater).toEqual({ status: 'skipped', reason: 'the first /metrics scrape did not succeed (unavailable)' });
  });

  it('useNodeProxy off: no proxy request at all; a thrown node side becomes failed with its message', async () => {
    const { gateway, node, server } = await setup();
    server.clearRequestLog();
    const e = await collectNodeEvidence(
      options(gateway, node, {
        useNodeProxy: false,
        nodeSide: () => Promise.reject(new Error('ssh: connect ECONNREFUSED 127.0.0.1:2')),
      }),
    );
    for (const f of [e.metrics, e.metricsLater, e.configz, e.healthz, e.goroutines]) expect(f).toEqual({ status: 'skipped', reason: 'plegDoctor.diagnostics.useNodeProxy is off' });
    expect(server.requestLog.filter((l) => l.includes('/proxy'))).toEqual([]);
    expect(e.nodeSide).toMatchObject({ status: 'failed', message: 'ssh: connect ECONNREFUSED 127.0.0.1:2' });
  });

  it('abort while waiting (hung kubelet, interval, node side): rejects within 1 s with AbortError, nothing keeps running', async () => {
    const { gateway, node, server } = await setup({ handler: (demo) => (n, path, q) => (path === '/configz' ? new Promise(() => undefined) : demo(n, path, q)) });
    const controller = new AbortController();
    let nodeSideSignal: AbortSignal | undefined;
    const stages: EvidenceStage[] = [];
    const running = collectNodeEvidence(
      options(gateway, node, {
        proxyTimeoutMs: 30_000,
        metricsIntervalMs: 30_000,
        signal: controller.signal,
        onStage: (s) => stages.push(s),
        nodeSide: (signal) => {
          nodeSideSignal = signal;
          return new Promise<NodeSideEvidence>(() => undefined);
        },
      }),
    );
    // Wait until the first scrape is done and the interval timer runs.
    const until = Date.now() + 5_000;
    while (!stages.includes('metricsLater') && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(stages).toContain('metricsLater');
    const abortedAt = performance.now();
    controller.abort(new Error('user pressed Cancel'));
    const err = await running.then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(performance.now() - abortedAt).toBeLessThan(1_000);
    expect(err?.name).toBe('AbortError');
    expect(err?.message).toContain('user pressed Cancel');
    expect(nodeSideSignal?.aborted).toBe(true);
    // No second /metrics request ever goes out: the interval timer was cleared.
    await new Promise((r) => setTimeout(r, 300));
    expect(server.requestLog.filter((l) => l.includes('/proxy/metrics'))).toHaveLength(1);
    // An already aborted signal rejects before anything is sent.
    await expect(collectNodeEvidence(options(gateway, node, { signal: controller.signal }))).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('node side from the real node stack: an ok CRI snapshot with the stack\'s own sandboxes', async () => {
    const env = stack();
    const { gateway, node } = await setup();
    const testPod = await withTestPod(env);
    cleanups.push(() => testPod.cleanup());
    const connection = connect(env);
    cleanups.push(() => connection.close());
    const plan: ConnectionPlan = {
      target: { alias: env.sshHost, host: env.sshHost, port: env.sshPort, user: env.sshUser, identityFiles: [env.sshKey] },
      jumps: [],
      userKnownHostsFiles: [],
      warnings: [],
    };
    const stages: EvidenceStage[] = [];
    const e = await collectNodeEvidence(
      options(gateway, node, {
        metricsIntervalMs: 0,
        onStage: (s) => stages.push(s),
        nodeSide: async (signal) =>
          nodeSideEvidence(await collectNodeSnapshot(connection, plan, { endpoint: env.criSocket, transport: 'auto', deadlineMs: 10_000, sudo: true, probes: false, logger: recordingLogger(), signal })),
      }),
    );
    expect(stages).toContain('node');
    expect(e.nodeSide.status).toBe('ok');
    if (e.nodeSide.status !== 'ok') return;
    expect(e.nodeSide.value.transport.kind).toBe('execRelay');
    expect(e.nodeSide.value.snapshot.errors).toEqual([]);
    const listed = new Set([...e.nodeSide.value.snapshot.sandboxes.map((s) => s.id), ...e.nodeSide.value.snapshot.containers.map((c) => c.id)]);
    expect(e.nodeSide.value.snapshot.sandboxes.map((s) => s.id)).toContain(testPod.pod.sandboxId);
    // Everything the snapshot listed is a real containerd container (other tests may add pods meanwhile).
    const truth = ctrContainerIds(env);
    for (const id of listed) expect(truth.has(id), id).toBe(true);
    expect(e.metrics.status).toBe('ok');
  }, 60_000);
});
