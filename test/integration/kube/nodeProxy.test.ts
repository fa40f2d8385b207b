// KubeGateway.getNode and nodeProxyGet (the real gateway over HTTP) against the API stand-in: every way a
// kubelet endpoint can answer through the node proxy, including not at all and half-way.

import { afterEach, describe, expect, it } from 'vitest';
import type { AuthMode } from '../../../src/demo/apiServer/contract';
import { startFakeApiServer } from '../../../src/demo/apiServer/server';
import type { NodeProxyHandler } from '../../../src/demo/apiServer/server';
import { makeNode } from '../../../src/demo/nodeFactory';
import { createKubeGateway } from '../../../src/infra/kube/createGateway';
import type { KubeGateway } from '../../../src/infra/kube/gateway';
import { KubeconfigDir } from './kubeconfigFiles';

const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(handler: NodeProxyHandler | undefined, auth?: AuthMode) {
  const server = await startFakeApiServer({ nodes: [makeNode({ name: 'worker-1', imageCount: 1 })], ...(auth ? { auth } : {}) });
  cleanups.push(() => server.close());
  server.setNodeProxy(handler);
  const dir = new KubeconfigDir();
  cleanups.push(() => dir.remove());
  const file = dir.write('config', [{ name: 'prod', server: server.url }]);
  const gateway: KubeGateway = createKubeGateway({ env: { KUBECONFIG: file } });
  cleanups.push(() => gateway.dispose());
  return { server, gateway };
}

const METRICS = '# HELP kubelet_pleg_last_seen_seconds x\n# TYPE kubelet_pleg_last_seen_seconds gauge\nkubelet_pleg_last_seen_seconds 1.7e+09\n';

describe('KubeGateway.getNode', () => {
  it('reads one node; a missing one names the node and the context', async () => {
    const { gateway } = await setup(undefined);
    const node = await gateway.getNode('prod', 'worker-1');
    expect(node.metadata?.name).toBe('worker-1');
    expect(node.status?.conditions?.some((c) => c.type === 'Ready')).toBe(true);
    await expect(gateway.getNode('prod', 'worker-9')).rejects.toThrow('There is no node "worker-9" in context "prod" (404 Not Found)');
    await expect(gateway.getNode('nope', 'worker-1')).rejects.toThrow(/no context named "nope"/);
  });
});

describe('KubeGateway.nodeProxyGet', () => {
  it('ok: body, content type, and the path and query reach the kubelet as sent', async () => {
    const seen: string[] = [];
    const { gateway, server } = await setup((node, path, q) => {
      seen.push(`${node} ${path} ${q.toString()}`);
      return { body: METRICS, contentType: 'text/plain; version=0.0.4; charset=utf-8' };
    });
    const r = await gateway.nodeProxyGet('prod', 'worker-1', '/debug/pprof/goroutine?debug=2', { timeoutMs: 2_000 });
    expect(r).toMatchObject({ kind: 'ok', body: METRICS, contentType: 'text/plain; version=0.0.4; charset=utf-8' });
    expect(seen).toEqual(['worker-1 /debug/pprof/goroutine debug=2']);
    expect(server.requestLog).toContain('GET /api/v1/nodes/worker-1/proxy/debug/pprof/goroutine?debug=2');
  });

  it('403 names get on nodes/proxy', async () => {
    const { gateway } = await setup(() => ({ body: METRICS }), { kind: 'forbid', rules: [{ verb: 'get', resource: 'nodes/proxy' }] });
    const r = await gateway.nodeProxyGet('prod', 'worker-1', '/metrics', { timeoutMs: 2_000 });
    expect(r.kind).toBe('httpError');
    if (r.kind !== 'httpError') return;
    expect(r.httpStatus).toBe(403);
    expect(r.error).toMatchObject({ kind: 'forbidden', verb: 'get', resource: 'nodes/proxy', message: '403 Forbidden: cannot get nodes/proxy' });
    expect(r.error.detail).toContain('cannot get resource "nodes/proxy"');
    // Reading the Node itself is still allowed.
    await expect(gateway.getNode('prod', 'worker-1')).resolves.toBeDefined();
  });

  it('503 when the API server cannot reach the kubelet; a kubelet 500 keeps its body', async () => {
    const { gateway, server } = await setup(undefined);
    const r = await gateway.nodeProxyGet('prod', 'worker-1', '/healthz?verbose', { timeoutMs: 2_000 });
    expect(r).toMatchObject({ kind: 'httpError', httpStatus: 503, error: { kind: 'server', httpStatus: 503 } });
    if (r.kind === 'httpError') expect(r.error.message).toContain('error trying to reach service');
    server.setNodeProxy(() => ({ status: 500, body: '[+]ping ok\n[-]syncloop failed: reason withheld\nhealthz check failed\n' }));
    const h = await gateway.nodeProxyGet('prod', 'worker-1', '/healthz?verbose', { timeoutMs: 2_000 });
    expect(h).toMatchObject({ kind: 'httpError', httpStatus: 500, body: '[+]ping ok\n[-]syncloop failed: reason withheld\nhealthz check failed\n' });
  });

  it('a kubelet that never answers → timeout within the deadline + 1 s', async () => {
    const { gateway } = await setup(() => new Promise(() => undefined));
    const started = Date.now();
    const r = await gateway.nodeProxyGet('prod', 'worker-1', '/metrics', { timeoutMs: 400 });
    const took = Date.now() - started;
    expect(r.kind).toBe('timeout');
    expect(took).toBeGreaterThanOrEqual(390);
    expect(took).toBeLessThan(1_400);
  });

  it('headers then a stalled body still times out (the deadline covers the whole body)', async () => {
    const { gateway } = await setup(() => ({ body: METRICS, stallAfterBytes: 20 }));
    const started = Date.now();
    const r = await gateway.nodeProxyGet('prod', 'worker-1', '/metrics', { timeoutMs: 500 });
    expect(r.kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('abort mid-request rejects with AbortError at once', async () => {
    const { gateway } = await setup(() => ({ body: METRICS, stallAfterBytes: 10 }));
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('user cancelled')), 150);
    const started = Date.now();
    const err = await gateway.nodeProxyGet('prod', 'worker-1', '/metrics', { timeoutMs: 10_000, signal: controller.signal }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(err?.name).toBe('AbortError');
    expect(err?.message).toContain('user cancelled');
    expect(Date.now() - started).toBeLessThan(1_000);
    // An already aborted signal never sends the request.
    await expect(gateway.nodeProxyGet('prod', 'worker-1', '/metrics', { timeoutMs: 1_000, signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('maxBytes: a body over the cap fails and names the cap', async () => {
    const { gateway } = await setup(() => ({ body: 'x'.repeat(200_000) }));
    const r = await gateway.nodeProxyGet('prod', 'worker-1', '/metrics', { timeoutMs: 2_000, maxBytes: 50_000 });
    expect(r.kind).toBe('failed');
    if (r.kind === 'failed') expect(r.error.message).toContain('exceeded 50000 bytes');
    const fits = await gateway.nodeProxyGet('prod', 'worker-1', '/metrics', { timeoutMs: 2_000, maxBytes: 200_000 });
    expect(fits.kind === 'ok' && fits.body.length).toBe(200_000);
  });

  it('node names are checked and path-encoded; a bad path is refused before sending', async () => {
    const { gateway } = await setup(() => ({ body: 'ok' }));
    await expect(gateway.nodeProxyGet('prod', '../worker-1', '/metrics', { timeoutMs: 1_000 })).rejects.toThrow('is not a valid node name');
    await expect(gateway.nodeProxyGet('prod', 'worker-1', 'metrics', { timeoutMs: 1_000 })).rejects.toThrow('must start with "/"');
    const r = await gateway.nodeProxyGet('prod', 'worker-9', '/metrics', { timeoutMs: 1_000 });
    expect(r).toMatchObject({ kind: 'httpError', httpStatus: 404 });
    const unreachable = createKubeGateway({ env: { KUBECONFIG: new KubeconfigDir().write('c', [{ name: 'x', server: 'http://127.0.0.1:1' }]) } });
    cleanups.push(() => unreachable.dispose());
    const f = await unreachable.nodeProxyGet('x', 'worker-1', '/metrics', { timeoutMs: 2_000 });
    expect(f).toMatchObject({ kind: 'failed', error: { kind: 'unreachable' } });
  });
});
