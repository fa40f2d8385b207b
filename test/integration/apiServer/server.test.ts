// The stand-in's wire protocol, checked over real HTTP (and with a real kubectl when one is installed).

import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeApiServer } from '../../../src/demo/apiServer/server';
import { makeFleet, makeNode, withLeaseLost, withPlegNotReady } from '../../../src/demo/nodeFactory';

type Server = Awaited<ReturnType<typeof startFakeApiServer>>;
const servers: Server[] = [];

afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function start(options: Parameters<typeof startFakeApiServer>[0] = {}): Promise<Server> {
  const s = await startFakeApiServer(options);
  servers.push(s);
  return s;
}

async function getJson(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url, { headers });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Reads watch lines until `count` arrived or the stream ended. */
async function readWatch(url: string, count: number, signal?: AbortSignal): Promise<{ type: string; object: Record<string, unknown> }[]> {
  const res = await fetch(url, signal ? { signal } : {});
  expect(res.status).toBe(200);
  const reader = res.body?.getReader();
  if (!reader) throw new Error('no body');
  const decoder = new TextDecoder();
  const lines: { type: string; object: Record<string, unknown> }[] = [];
  let pending = '';
  while (lines.length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    pending += decoder.decode(value, { stream: true });
    let nl;
    while ((nl = pending.indexOf('\n')) >= 0) {
      lines.push(JSON.parse(pending.slice(0, nl)) as { type: string; object: Record<string, unknown> });
      pending = pending.slice(nl + 1);
    }
  }
  await reader.cancel();
  return lines;
}

describe('API stand-in', () => {
  it('binds 127.0.0.1 and serves discovery', async () => {
    const s = await start();
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await getJson(`${s.url}/version`)).body['gitVersion']).toMatch(/^v1\.\d+\.\d+$/);
    expect((await getJson(`${s.url}/api`)).body['versions']).toEqual(['v1']);
    expect((await getJson(`${s.url}/apis`)).body['kind']).toBe('APIGroupList');
    const v1 = (await getJson(`${s.url}/api/v1`)).body['resources'] as { name: string; verbs: string[] }[];
    expect(v1.find((r) => r.name === 'nodes')?.verbs).toContain('watch');
  });

  it('pages lists with opaque continue tokens and remainingItemCount', async () => {
    const s = await start({ nodes: makeFleet(5, { imageCount: 1 }) });
    const first = await getJson(`${s.url}/api/v1/nodes?limit=2`);
    const meta = first.body['metadata'] as { resourceVersion: string; continue: string; remainingItemCount: number };
    expect(first.body['kind']).toBe('NodeList');
    expect(meta.remainingItemCount).toBe(3);
    expect(meta.continue).toMatch(/^[A-Za-z0-9_-]+$/);
    const names: string[] = (first.body['items'] as { metadata: { name: string } }[]).map((i) => i.metadata.name);
    let token: string | undefined = meta.continue;
    while (token) {
      const page = await getJson(`${s.url}/api/v1/nodes?limit=2&continue=${token}`);
      const m = page.body['metadata'] as { resourceVersion: string; continue?: string };
      expect(m.resourceVersion).toBe(meta.resourceVersion);
      names.push(...(page.body['items'] as { metadata: { name: string } }[]).map((i) => i.metadata.name));
      token = m.continue;
    }
    expect(names).toEqual(['node-00001', 'node-00002', 'node-00003', 'node-00004', 'node-00005']);
    expect((await getJson(`${s.url}/api/v1/nodes?limit=2&continue=garbage`)).status).toBe(400);
    s.compactHistory();
    s.upsertNode(makeNode({ name: 'node-00001', imageCount: 1 }));
    s.compactHistory();
    const stale = await getJson(`${s.url}/api/v1/nodes?limit=2&continue=${meta.continue}`);
    expect(stale.status).toBe(410);
    expect(stale.body['reason']).toBe('Expired');
  });

  it('serves a realistic node object of 10–25 KB', async () => {
    const s = await start({ nodes: [makeNode({ name: 'worker-1' })] });
    const res = await fetch(`${s.url}/api/v1/nodes/worker-1`);
    const text = await res.text();
    expect(text.length).toBeGreaterThan(10_000);
    expect(text.length).toBeLessThan(25_000);
    const node = JSON.parse(text) as { status: { conditions: { type: string }[]; images: unknown[] }; metadata: { resourceVersion: string } };
    expect(node.status.conditions.map((c) => c.type)).toEqual(['MemoryPressure', 'DiskPressure', 'PIDPressure', 'Ready']);
    expect(Number(node.metadata.resourceVersion)).toBeGreaterThan(0);
    const missing = await getJson(`${s.url}/api/v1/nodes/nope`);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ kind: 'Status', reason: 'NotFound', message: 'nodes "nope" not found', code: 404 });
  });

  it('replays history newer than the watch resourceVersion, then streams live events and bookmarks', async () => {
    const s = await start({ nodes: makeFleet(2, { imageCount: 1 }), bookmarkIntervalMs: 50 });
    const listRv = s.resourceVersion;
    s.upsertNode(withPlegNotReady(makeNode({ name: 'node-00001', imageCount: 1 })));
    s.deleteNode('node-00002');
    const pending = readWatch(`${s.url}/api/v1/nodes?watch=true&resourceVersion=${listRv}&allowWatchBookmarks=true`, 5);
    await new Promise((r) => setTimeout(r, 30));
    s.upsertNode(makeNode({ name: 'node-00003', imageCount: 1 }));
    const events = await pending;
    expect(events.slice(0, 3).map((e) => [e.type, (e.object['metadata'] as { name?: string }).name])).toEqual([
      ['MODIFIED', 'node-00001'],
      ['DELETED', 'node-00002'],
      ['ADDED', 'node-00003'],
    ]);
    expect(events.slice(3).every((e) => e.type === 'BOOKMARK')).toBe(true);
    const rvs = events.map((e) => Number((e.object['metadata'] as { resourceVersion: string }).resourceVersion));
    expect(rvs).toEqual([...rvs].sort((a, b) => a - b));
  });

  it('sends synthetic ADDED events for a watch without resourceVersion (the /watch path too)', async () => {
    const s = await start({ nodes: makeFleet(3, { imageCount: 1 }) });
    const events = await readWatch(`${s.url}/api/v1/watch/nodes`, 3);
    expect(events.map((e) => e.type)).toEqual(['ADDED', 'ADDED', 'ADDED']);
  });

  it('answers a compacted resourceVersion with a 410 Expired ERROR event and ends the stream', async () => {
    const s = await start({ nodes: makeFleet(1, { imageCount: 1 }) });
    const old = s.resourceVersion;
    s.upsertNode(withLeaseLost(makeNode({ name: 'node-00001', imageCount: 1 })));
    s.compactHistory();
    const events = await readWatch(`${s.url}/api/v1/nodes?watch=true&resourceVersion=${old}`, 10);
    expect(events).toHaveLength(1);
    expect(events[0]).toEqual({
      type: 'ERROR',
      object: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: `too old resource version: ${old} (${s.resourceVersion + 1})`,
        reason: 'Expired',
        code: 410,
      },
    });
  });

  it('compacts history beyond historyLimit on its own', async () => {
    const s = await start({ nodes: makeFleet(1, { imageCount: 1 }), historyLimit: 3 });
    const old = s.resourceVersion;
    for (let i = 0; i < 5; i++) s.upsertNode(makeNode({ name: `n${i}`, imageCount: 1 }));
    const expiredEvents = await readWatch(`${s.url}/api/v1/nodes?watch=true&resourceVersion=${old}`, 10);
    expect(expiredEvents.map((e) => e.type)).toEqual(['ERROR']);
    const recent = await readWatch(`${s.url}/api/v1/nodes?watch=true&resourceVersion=${s.resourceVersion - 3}`, 3);
    expect(recent.map((e) => (e.object['metadata'] as { name: string }).name)).toEqual(['n2', 'n3', 'n4']);
  });

  it('ends a watch after timeoutSeconds', async () => {
    const s = await start({ nodes: makeFleet(1, { imageCount: 1 }) });
    const started = Date.now();
    const events = await readWatch(`${s.url}/api/v1/nodes?watch=true&resourceVersion=${s.resourceVersion}&timeoutSeconds=1`, 1);
    expect(events).toHaveLength(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(s.watchCount).toBe(0);
  });

  it('refuses with Status bodies: 401 without the token, 403 naming verb and resource', async () => {
    const s = await start({ auth: { kind: 'token', token: 't' } });
    const noToken = await getJson(`${s.url}/api/v1/nodes`);
    expect(noToken.status).toBe(401);
    expect(noToken.body).toMatchObject({ kind: 'Status', reason: 'Unauthorized', code: 401 });
    expect((await getJson(`${s.url}/api/v1/nodes`, { Authorization: 'Bearer t' })).status).toBe(200);
    s.setAuth({ kind: 'forbid', rules: [{ verb: 'watch', resource: 'nodes' }, { verb: 'list', resource: 'pods' }] });
    const watch = await getJson(`${s.url}/api/v1/nodes?watch=true`);
    expect(watch.status).toBe(403);
    expect(watch.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'nodes is forbidden: User "system:serviceaccount:default:pleg-doctor" cannot watch resource "nodes" in API group "" at the cluster scope',
      reason: 'Forbidden',
      details: { kind: 'nodes' },
      code: 403,
    });
    expect((await getJson(`${s.url}/api/v1/nodes`)).status).toBe(200);
    const pods = await getJson(`${s.url}/api/v1/namespaces/kube-system/pods`);
    expect(pods.body['message']).toContain('cannot list resource "pods" in API group "" in the namespace "kube-system"');
  });

  it('filters events and pods by field selector, with limit', async () => {
    const s = await start();
    s.addEvent({ involvedObject: { kind: 'Node', name: 'n1' }, reason: 'NodeNotReady', message: 'Node n1 status is now: NodeNotReady' });
    s.addEvent({ involvedObject: { kind: 'Node', name: 'n2' }, reason: 'NodeReady' });
    s.addEvent({ metadata: { namespace: 'web' }, involvedObject: { kind: 'Pod', name: 'n1', namespace: 'web' }, reason: 'NodeNotReady' });
    const sel = encodeURIComponent('involvedObject.kind=Node,involvedObject.name=n1');
    const events = (await getJson(`${s.url}/api/v1/events?fieldSelector=${sel}`)).body['items'] as { reason: string; kind: string }[];
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ reason: 'NodeNotReady', kind: 'Event' });
    expect(((await getJson(`${s.url}/api/v1/namespaces/web/events`)).body['items'] as unknown[]).length).toBe(1);
    for (let i = 0; i < 5; i++) s.addPod({ name: `p${i}`, namespace: 'default', nodeName: i < 3 ? 'n1' : 'n2' });
    const page = await getJson(`${s.url}/api/v1/pods?fieldSelector=spec.nodeName%3Dn1&limit=2`);
    expect((page.body['items'] as unknown[]).length).toBe(2);
    expect((page.body['metadata'] as { remainingItemCount: number }).remainingItemCount).toBe(1);
    const bad = await getJson(`${s.url}/api/v1/pods?fieldSelector=spec.bogus%3Dx`);
    expect(bad.status).toBe(400);
    expect(bad.body['message']).toContain('field label not supported: spec.bogus');
  });

  it('serves node proxy paths from a script, 503 without one', async () => {
    const s = await start({ nodes: [makeNode({ name: 'w1', imageCount: 1 })] });
    expect((await getJson(`${s.url}/api/v1/nodes/w1/proxy/metrics`)).body).toMatchObject({ code: 503, reason: 'ServiceUnavailable' });
    s.setNodeProxy((node, path) => (path === '/healthz' ? { body: `[+]pleg failed for ${node}`, status: 500 } : undefined));
    const res = await fetch(`${s.url}/api/v1/nodes/w1/proxy/healthz`);
    expect(res.status).toBe(500);
    expect(await res.text()).toBe('[+]pleg failed for w1');
    expect((await fetch(`${s.url}/api/v1/nodes/ghost/proxy/healthz`)).status).toBe(404);
  });

  it("satisfies client-node's own typed API and Watch", async () => {
    const s = await start({ nodes: makeFleet(3, { imageCount: 1 }) });
    const k8s = await import('@kubernetes/client-node');
    const kc = new k8s.KubeConfig();
    // client-node refuses plain http unless TLS verification is declared off.
    kc.loadFromOptions({
      clusters: [{ name: 'c', server: s.url, skipTLSVerify: true }],
      users: [{ name: 'u' }],
      contexts: [{ name: 'c', cluster: 'c', user: 'u' }],
      currentContext: 'c',
    });
    const api = kc.makeApiClient(k8s.CoreV1Api);
    const page = await api.listNode({ limit: 2 });
    expect(page.items.map((n) => n.metadata?.name)).toEqual(['node-00001', 'node-00002']);
    expect(page.metadata?.remainingItemCount).toBe(1);
    const rest = await api.listNode({ limit: 2, _continue: page.metadata?._continue ?? '' });
    expect(rest.items.map((n) => n.metadata?.name)).toEqual(['node-00003']);
    const types: string[] = [];
    let arrived: () => void = () => undefined;
    const got = new Promise<void>((resolve) => (arrived = resolve));
    const controller = await new k8s.Watch(kc).watch(
      '/api/v1/nodes',
      { resourceVersion: page.metadata?.resourceVersion ?? '' },
      (type) => {
        types.push(type);
        arrived();
      },
      () => undefined,
    );
    try {
      s.upsertNode(withPlegNotReady(makeNode({ name: 'node-00002', imageCount: 1 })));
      await got;
      expect(types).toEqual(['MODIFIED']);
    } finally {
      controller.abort();
    }
  });

  it('dropWatches cuts open streams', async () => {
    const s = await start({ nodes: makeFleet(1, { imageCount: 1 }) });
    const res = await fetch(`${s.url}/api/v1/nodes?watch=true&resourceVersion=${s.resourceVersion}`);
    while (s.watchCount === 0) await new Promise((r) => setTimeout(r, 10));
    s.dropWatches({ midLine: true });
    await expect(res.text()).rejects.toThrow();
    expect(s.watchCount).toBe(0);
  });

/** Runs kubectl without blocking the event loop (the stand-in lives in this process). */
function runKubectl(args: string[], env: NodeJS.ProcessEnv): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('kubectl', args, { env, timeout: 30_000, encoding: 'utf8' }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      resolve({ status: code, stdout, stderr });
    });
  });
}

  it('is accepted by a real kubectl (chunked list, get, discovery)', async () => {
    const probe = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' });
    expect(probe.status, 'this test needs kubectl on PATH (the image ships /usr/bin/kubectl 1.32; apt: kubernetes-client)').toBe(0);
    const s = await start({ nodes: [...makeFleet(4, { imageCount: 1 }), withPlegNotReady(makeNode({ name: 'sick', imageCount: 1 }))] });
    const dir = mkdtempSync(join(tmpdir(), 'pleg-kubectl-'));
    try {
      const kc = join(dir, 'config');
      writeFileSync(kc, `apiVersion: v1\nkind: Config\ncurrent-context: c\nclusters:\n- name: c\n  cluster:\n    server: ${s.url}\nusers:\n- name: u\n  user: {}\ncontexts:\n- name: c\n  context:\n    cluster: c\n    user: u\n`);
      const env = { ...process.env, KUBECONFIG: kc, HOME: dir };
      const list = await runKubectl(['get', 'nodes', '-o', 'json', '--chunk-size=2'], env);
      expect(list.stderr).toBe('');
      const parsed = JSON.parse(list.stdout) as { items: { metadata: { name: string } }[] };
      expect(parsed.items.map((i) => i.metadata.name)).toEqual(['node-00001', 'node-00002', 'node-00003', 'node-00004', 'sick']);
      expect(s.requestLog.filter((r) => r.startsWith('GET /api/v1/nodes?') && r.includes('continue='))).toHaveLength(2);
      const msg = await runKubectl(['get', 'node', 'sick', '-o', 'jsonpath={.status.conditions[?(@.type=="Ready")].message}'], env);
      expect(msg.stdout).toBe('PLEG is not healthy: pleg was last seen active 3m4.612899233s ago; threshold is 3m0s');
      // Server-side printing: kubectl asks for a Table and shows the real columns.
      const table = await runKubectl(['get', 'nodes', '-o', 'wide'], env);
      expect(table.stderr).toBe('');
      const rows = table.stdout.trim().split('\n').map((l) => l.split(/\s{2,}/));
      expect(rows[0]?.slice(0, 6)).toEqual(['NAME', 'STATUS', 'ROLES', 'AGE', 'VERSION', 'INTERNAL-IP']);
      expect(rows.find((r) => r[0] === 'sick')?.slice(1, 3)).toEqual(['NotReady', 'worker']);
      expect(rows.find((r) => r[0] === 'node-00001')?.[1]).toBe('Ready');
      const missing = await runKubectl(['get', 'node', 'ghost'], env);
      expect(missing.status).not.toBe(0);
      expect(missing.stderr).toContain('nodes "ghost" not found');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
