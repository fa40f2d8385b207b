// The real gateway (client-node credentials + our list/watch) against the loopback API stand-in.

import { createServer } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeApiServer } from '../../../src/demo/apiServer/server';
import { makeFleet, makeNode, withPlegNotReady, withReady } from '../../../src/demo/nodeFactory';
import { createKubeGateway } from '../../../src/infra/kube/createGateway';
import type { KubeGatewayOptions } from '../../../src/infra/kube/createGateway';
import type { KubeGateway, NodeChange, NodeWatch, WatchState } from '../../../src/infra/kube/gateway';
import { KubeConfigError } from '../../../src/infra/kube/kubeconfig';
import { KubeconfigDir, waitFor } from './kubeconfigFiles';

const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function server(options: Parameters<typeof startFakeApiServer>[0] = {}) {
  const s = await startFakeApiServer(options);
  cleanups.push(() => s.close());
  return s;
}

function files(): KubeconfigDir {
  const d = new KubeconfigDir();
  cleanups.push(() => d.remove());
  return d;
}

function gateway(kubeconfig: string[], extra: Partial<KubeGatewayOptions> = {}): KubeGateway {
  const g = createKubeGateway({
    env: { KUBECONFIG: kubeconfig.join(':') },
    watch: { backoff: { initialMs: 50, maxMs: 400, jitter: 0.5 }, requestTimeoutMs: 5_000, watchTimeoutSeconds: () => 60 },
    ...extra,
  });
  cleanups.push(() => g.dispose());
  return g;
}

function record(watch: NodeWatch): { changes: NodeChange[]; states: WatchState[] } {
  const changes: NodeChange[] = [];
  const states: WatchState[] = [];
  watch.onDidChangeNodes((c) => changes.push(c));
  watch.onDidChangeState((s) => states.push(s));
  return { changes, states };
}

function readyMessage(watch: NodeWatch, name: string): string | undefined {
  return watch.nodes.get(name)?.status?.conditions?.find((c) => c.type === 'Ready')?.message;
}

const small = (count: number, prefix = 'node') => makeFleet(count, { prefix, imageCount: 2 });

describe('KubeGateway against the API stand-in', () => {
  it('lists every context of every KUBECONFIG file and watches both clusters', async () => {
    const a = await server({ nodes: small(3, 'a') });
    const b = await server({ nodes: small(2, 'b') });
    const dir = files();
    const first = dir.write('one.yaml', [{ name: 'prod', server: a.url }]);
    // YAML (not JSON) in the second file, with a duplicate context name that must lose to the first file.
    const second = dir.writeText(
      'two.yaml',
      [
        'apiVersion: v1',
        'kind: Config',
        'current-context: staging',
        'clusters:',
        `- name: staging-cluster\n  cluster:\n    server: ${b.url}`,
        `- name: prod-cluster\n  cluster:\n    server: http://127.0.0.1:1`,
        'users:',
        '- name: staging-user\n  user: {}',
        'contexts:',
        '- name: staging\n  context:\n    cluster: staging-cluster\n    user: staging-user\n    namespace: kube-system',
        '- name: prod\n  context:\n    cluster: prod-cluster\n    user: staging-user',
      ].join('\n'),
    );
    const g = gateway([first, second]);
    const contexts = g.listContexts();
    expect(contexts.map((c) => [c.name, c.server, c.isCurrent, c.source])).toEqual([
      ['prod', a.url, true, first],
      ['staging', b.url, false, second],
    ]);
    expect(contexts[1]?.namespace).toBe('kube-system');

    const wa = g.watchNodes('prod');
    const wb = g.watchNodes('staging');
    await waitFor('both synced', () => wa.state.kind === 'synced' && wb.state.kind === 'synced');
    expect([...wa.nodes.keys()]).toEqual(['a-00001', 'a-00002', 'a-00003']);
    expect([...wb.nodes.keys()]).toEqual(['b-00001', 'b-00002']);
    // The store keeps what the product reads and drops the bulk.
    const stored = wa.nodes.get('a-00001') as Record<string, unknown> & { status?: Record<string, unknown> };
    expect(stored.status?.['images']).toBeUndefined();
    expect(stored.status?.['conditions']).toHaveLength(4);
  });

  it('pages the initial list with limit and continue, then flips a node through the watch', async () => {
    const s = await server({ nodes: small(1201) });
    const dir = files();
    const g = gateway([dir.write('c.yaml', [{ name: 'big', server: s.url }])]);
    const watch = g.watchNodes('big');
    const seen = record(watch);
    await waitFor('synced', () => watch.state.kind === 'synced');
    expect(watch.nodes.size).toBe(1201);
    const lists = s.requestLog.filter((r) => r.startsWith('GET /api/v1/nodes?') && !r.includes('watch=true'));
    expect(lists).toHaveLength(3);
    expect(lists[0]).toContain('limit=500');
    expect(lists[1]).toMatch(/continue=[A-Za-z0-9_-]+/);
    expect(lists[2]).toMatch(/continue=[A-Za-z0-9_-]+/);
    await waitFor('watch open', () => s.watchCount === 1);
    const watchReq = s.requestLog.find((r) => r.includes('watch=true'));
    expect(watchReq).toContain(`resourceVersion=${s.resourceVersion}`);
    expect(watchReq).toContain('allowWatchBookmarks=true');

    const sick = withPlegNotReady(makeNode({ name: 'node-00042', imageCount: 2 }), { lastSeenAgo: '3m46.123456789s' });
    s.upsertNode(sick);
    await waitFor('PLEG flip', () => readyMessage(watch, 'node-00042')?.includes('PLEG is not healthy') ?? false);
    expect(readyMessage(watch, 'node-00042')).toBe('PLEG is not healthy: pleg was last seen active 3m46.123456789s ago; threshold is 3m0s');
    expect(seen.changes.filter((c) => c.type === 'modified').map((c) => (c.type === 'modified' ? c.node.metadata?.name : ''))).toEqual(['node-00042']);
    s.deleteNode('node-00001');
    await waitFor('delete', () => !watch.nodes.has('node-00001'));
    expect(seen.changes.at(-1)?.type).toBe('deleted');
  });

  it('reconnects after dropWatches from the last resourceVersion without losing an update', async () => {
    const s = await server({ nodes: small(5), bookmarkIntervalMs: 100 });
    const dir = files();
    const g = gateway([dir.write('c.yaml', [{ name: 'c', server: s.url }])]);
    const watch = g.watchNodes('c');
    const seen = record(watch);
    await waitFor('watch open', () => s.watchCount === 1 && watch.state.kind === 'synced');
    const listsBefore = s.requestLog.filter((r) => !r.includes('watch=true')).length;
    expect(seen.changes.filter((c) => c.type === 'resynced')).toHaveLength(1); // the initial list
    await new Promise((r) => setTimeout(r, 250)); // let a bookmark or two arrive
    const rvAtDrop = s.resourceVersion;
    s.dropWatches();
    // Made while no watch is open: only a resume from the right resourceVersion delivers it.
    s.upsertNode(withPlegNotReady(makeNode({ name: 'node-00003', imageCount: 2 })));
    await waitFor('update after reconnect', () => readyMessage(watch, 'node-00003')?.startsWith('PLEG') ?? false);
    const watches = s.requestLog.filter((r) => r.includes('watch=true'));
    expect(watches.length).toBeGreaterThanOrEqual(2);
    expect(watches[1]).toContain(`resourceVersion=${rvAtDrop}&`);
    expect(s.requestLog.filter((r) => !r.includes('watch=true')).length).toBe(listsBefore); // no relist
    expect(seen.changes.filter((c) => c.type === 'resynced')).toHaveLength(1); // still only the initial list
    expect(seen.states.some((st) => st.kind === 'reconnecting' && st.error.kind === 'unreachable')).toBe(true);
    await waitFor('synced again', () => watch.state.kind === 'synced');
  });

  it('tracks the resourceVersion from bookmarks, so a resume after compaction needs no relist', async () => {
    const s = await server({ nodes: small(3), bookmarkIntervalMs: 50 });
    const dir = files();
    const g = gateway([dir.write('c.yaml', [{ name: 'c', server: s.url }])]);
    const watch = g.watchNodes('c');
    const seen = record(watch);
    await waitFor('watch open', () => s.watchCount === 1 && watch.state.kind === 'synced');
    // Other resources move the cluster's resourceVersion on; only bookmarks tell the node watch about it.
    for (let i = 0; i < 5; i++) s.addEvent({ involvedObject: { kind: 'Pod', name: `p${i}` }, reason: 'Scheduled' });
    const rvAfterEvents = s.resourceVersion;
    await new Promise((r) => setTimeout(r, 300)); // several bookmarks
    s.compactHistory();
    s.dropWatches();
    await waitFor('resumed', () => s.requestLog.filter((r) => r.includes('watch=true')).length >= 2 && s.watchCount === 1);
    expect(s.requestLog.filter((r) => r.includes('watch=true'))[1]).toContain(`resourceVersion=${rvAfterEvents}&`);
    expect(s.requestLog.filter((r) => r.startsWith('GET /api/v1/nodes?limit='))).toHaveLength(1);
    expect(seen.changes.filter((c) => c.type === 'resynced')).toHaveLength(1);
  });

  it('recovers when a watch is cut in the middle of a JSON line', async () => {
    const s = await server({ nodes: small(4) });
    const dir = files();
    const g = gateway([dir.write('c.yaml', [{ name: 'c', server: s.url }])]);
    const watch = g.watchNodes('c');
    await waitFor('watch open', () => s.watchCount === 1);
    s.upsertNode(withPlegNotReady(makeNode({ name: 'node-00001', imageCount: 2 })));
    await waitFor('first flip', () => readyMessage(watch, 'node-00001')?.startsWith('PLEG') ?? false);
    s.dropWatches({ midLine: true });
    s.upsertNode(withReady(withPlegNotReady(makeNode({ name: 'node-00002', imageCount: 2 }))));
    s.upsertNode(withPlegNotReady(makeNode({ name: 'node-00004', imageCount: 2 })));
    await waitFor('updates after the cut', () => (readyMessage(watch, 'node-00004')?.startsWith('PLEG') ?? false) && s.watchCount === 1);
    expect(readyMessage(watch, 'node-00002')).toBe('kubelet is posting ready status');
    expect(watch.nodes.size).toBe(4);
  });

  it('relists and emits resynced when the watch resourceVersion was compacted (410 Gone)', async () => {
    const s = await server({ nodes: small(3) });
    const dir = files();
    const g = gateway([dir.write('c.yaml', [{ name: 'c', server: s.url }])]);
    const watch = g.watchNodes('c');
    const seen = record(watch);
    await waitFor('watch open', () => s.watchCount === 1);
    const resyncsBefore = seen.changes.filter((c) => c.type === 'resynced').length;
    s.dropWatches();
    s.upsertNode(makeNode({ name: 'node-00099', imageCount: 2 }));
    s.deleteNode('node-00002');
    s.compactHistory();
    await waitFor('resynced', () => seen.changes.filter((c) => c.type === 'resynced').length > resyncsBefore);
    expect([...watch.nodes.keys()].sort()).toEqual(['node-00001', 'node-00003', 'node-00099']);
    expect(s.requestLog.filter((r) => r.startsWith('GET /api/v1/nodes?limit=')).length).toBe(2);
    await waitFor('synced', () => watch.state.kind === 'synced' && s.watchCount === 1);
  });

  it('reports an unreachable context by address while the other context keeps working', async () => {
    const good = await server({ nodes: small(2) });
    const dead = await startFakeApiServer();
    const deadUrl = dead.url;
    await dead.close();
    const dir = files();
    const g = gateway([dir.write('c.yaml', [{ name: 'good', server: good.url }, { name: 'dead', server: deadUrl }])]);
    const wd = g.watchNodes('dead');
    const wg = g.watchNodes('good');
    await waitFor('dead reported', () => wd.state.kind === 'reconnecting');
    const st = wd.state;
    if (st.kind !== 'reconnecting') throw new Error('unreachable');
    expect(st.error.kind).toBe('unreachable');
    expect(st.error.message).toContain(deadUrl.replace('http://', ''));
    expect(st.error.message).toContain('connection refused');
    await waitFor('good synced', () => wg.state.kind === 'synced' && good.watchCount === 1);
    good.upsertNode(withPlegNotReady(makeNode({ name: 'node-00002', imageCount: 2 })));
    await waitFor('good flip', () => readyMessage(wg, 'node-00002')?.startsWith('PLEG') ?? false);
    // Backoff grows: successive attempts wait longer.
    await waitFor('a few attempts', () => wd.state.kind === 'reconnecting' && wd.state.attempt >= 3);
  });

  it('gives a timeout error when the server accepts connections but never answers', async () => {
    const sockets: Socket[] = [];
    const silent: Server = createServer((sock) => sockets.push(sock));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
    cleanups.push(
      () =>
        new Promise<void>((r) => {
          for (const sock of sockets) sock.destroy();
          silent.close(() => r());
        }),
    );
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const dir = files();
    const g = gateway([dir.write('c.yaml', [{ name: 'hung', server: url }])], {
      watch: { backoff: { initialMs: 50, maxMs: 400, jitter: 0 }, requestTimeoutMs: 300, watchTimeoutSeconds: () => 60 },
    });
    const watch = g.watchNodes('hung');
    await waitFor('timeout', () => watch.state.kind === 'reconnecting');
    if (watch.state.kind !== 'reconnecting') throw new Error('unreachable');
    expect(watch.state.error.kind).toBe('timeout');
    expect(watch.state.error.message).toContain(url.replace('http://', ''));
    await expect(g.countPods('hung', 'x')).rejects.toMatchObject({ error: { kind: 'timeout' } });
  });

  it('maps 401 to unauthorized and sends the kubeconfig token', async () => {
    const s = await server({ nodes: small(2), auth: { kind: 'token', token: 's3cret' } });
    const dir = files();
    const g = gateway([dir.write('c.yaml', [{ name: 'nologin', server: s.url }, { name: 'login', server: s.url, token: 's3cret' }])]);
    const bad = g.watchNodes('nologin');
    const ok = g.watchNodes('login');
    await waitFor('401', () => bad.state.kind === 'error');
    if (bad.state.kind !== 'error') throw new Error('unreachable');
    expect(bad.state.error).toMatchObject({ kind: 'unauthorized', httpStatus: 401 });
    await waitFor('token works', () => ok.state.kind === 'synced');
    expect(ok.nodes.size).toBe(2);
  });

  it('maps 403 to forbidden with the verb and resource RBAC refused', async () => {
    const s = await server({ nodes: small(2), auth: { kind: 'forbid', rules: [{ verb: 'watch', resource: 'nodes' }] } });
    const dir = files();
    const g = gateway([dir.write('c.yaml', [{ name: 'rbac', server: s.url }])]);
    const watch = g.watchNodes('rbac');
    await waitFor('403', () => watch.state.kind === 'error');
    if (watch.state.kind !== 'error') throw new Error('unreachable');
    expect(watch.state.error).toMatchObject({ kind: 'forbidden', verb: 'watch', resource: 'nodes', httpStatus: 403 });
    expect(watch.state.error.message).toBe('403 Forbidden: cannot watch nodes');
    expect(watch.state.error.detail).toContain('cannot watch resource "nodes" in API group "" at the cluster scope');
    expect(watch.nodes.size).toBe(2); // the list was allowed
    // RBAC fixed: refresh() retries at once and the watch heals.
    s.setAuth({ kind: 'open' });
    watch.refresh();
    await waitFor('healed', () => watch.state.kind === 'synced' && s.watchCount === 1);

    s.setAuth({ kind: 'forbid', rules: [{ verb: 'list', resource: 'events' }] });
    await expect(g.listNodeEvents('rbac', 'node-00001')).rejects.toMatchObject({ error: { kind: 'forbidden', verb: 'list', resource: 'events' } });
  });

  it('names the file and the cause for a malformed kubeconfig', () => {
    const dir = files();
    const good = dir.write('good.yaml', [{ name: 'ok', server: 'http://127.0.0.1:1' }]);
    const bad = dir.writeText('bad.yaml', 'apiVersion: v1\nclusters:\n- name: x\n  cluster: {server: "http://a\n  bad: [\n');
    const g = gateway([good, bad]);
    let thrown: unknown;
    try {
      g.listContexts();
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(KubeConfigError);
    const e = thrown as KubeConfigError;
    expect(e.file).toBe(bad);
    expect(e.message).toContain(bad);
    expect(e.message).toContain('invalid YAML');
    expect(e.clusterError.kind).toBe('config');
  });

  it('puts a context with a dangling cluster reference into a config error naming the file', async () => {
    const dir = files();
    const file = dir.writeText('dangling.yaml', 'apiVersion: v1\ncontexts:\n- name: orphan\n  context:\n    cluster: nowhere\n    user: nobody\n');
    const g = gateway([file]);
    expect(g.listContexts().map((c) => c.name)).toEqual(['orphan']);
    const watch = g.watchNodes('orphan');
    await waitFor('config error', () => watch.state.kind === 'error');
    if (watch.state.kind !== 'error') throw new Error('unreachable');
    expect(watch.state.error.kind).toBe('config');
    expect(watch.state.error.message).toContain(file);
    expect(watch.state.error.message).toContain('cluster "nowhere"');
    // The user fixes the file: listContexts() rereads it and refresh() restarts the stopped watch.
    const s = await server({ nodes: small(1) });
    dir.write('dangling.yaml', [{ name: 'orphan', server: s.url }]);
    expect(g.listContexts()[0]?.server).toBe(s.url);
    watch.refresh();
    await waitFor('healed', () => watch.state.kind === 'synced' && watch.nodes.size === 1);
  });

  it('lists node events newest first and counts pods by field selector', async () => {
    const s = await server({ nodes: small(2) });
    for (let i = 0; i < 3; i++) {
      s.addEvent({
        involvedObject: { kind: 'Node', name: 'node-00001' },
        reason: i === 2 ? 'NodeNotReady' : 'NodeReady',
        message: `event ${i}`,
        lastTimestamp: `2026-11-22T03:0${i}:00Z`,
        source: { component: 'kubelet', host: 'node-00001' },
      });
    }
    s.addEvent({ involvedObject: { kind: 'Node', name: 'node-00002' }, reason: 'Other', lastTimestamp: '2026-11-22T03:09:00Z' });
    s.addEvent({ involvedObject: { kind: 'Pod', name: 'node-00001', namespace: 'default' }, reason: 'Pod', lastTimestamp: '2026-11-22T03:09:00Z' });
    for (let i = 0; i < 7; i++) s.addPod({ name: `p${i}`, namespace: i % 2 ? 'a' : 'b', nodeName: i < 5 ? 'node-00001' : 'node-00002' });
    const dir = files();
    const g = gateway([dir.write('c.yaml', [{ name: 'c', server: s.url }])]);
    const events = await g.listNodeEvents('c', 'node-00001');
    expect(events.map((e) => e.message)).toEqual(['event 2', 'event 1', 'event 0']);
    expect(s.requestLog.some((r) => r.includes('fieldSelector=involvedObject.kind%3DNode%2CinvolvedObject.name%3Dnode-00001'))).toBe(true);
    expect(await g.countPods('c', 'node-00001')).toBe(5);
    expect(await g.countPods('c', 'node-00002')).toBe(2);
    expect(await g.countPods('c', 'nope')).toBe(0);
    await expect(g.countPods('c', 'a,spec.nodeName!=b')).rejects.toThrow('is not a valid node name');
    const aborted = new AbortController();
    aborted.abort(new Error('user cancelled'));
    await expect(g.countPods('c', 'node-00001', aborted.signal)).rejects.toThrow('user cancelled');
  });

  it('dispose closes the watch stream and stops', async () => {
    const s = await server({ nodes: small(2) });
    const dir = files();
    const g = gateway([dir.write('c.yaml', [{ name: 'c', server: s.url }])]);
    const watch = g.watchNodes('c');
    await waitFor('open', () => s.watchCount === 1);
    g.dispose();
    expect(watch.state.kind).toBe('stopped');
    await waitFor('server saw the close', () => s.watchCount === 0);
    const before = s.requestLog.length;
    await new Promise((r) => setTimeout(r, 300));
    expect(s.requestLog.length).toBe(before);
  });
});
