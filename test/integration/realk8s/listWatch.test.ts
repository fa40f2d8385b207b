// The node reflector (src/infra/kube/nodeWatch.ts) and the gateway against the real kube-apiserver 1.26:
// list pages with limit/continue, a watch from the list's resourceVersion with allowWatchBookmarks and
// the server's real BOOKMARK events, a continue token that etcd compaction expired (a real 410), and an
// API server restart mid-watch (the resume gets a real 410 "too old resource version" and relists).

import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '../../../src/core/util/logger';
import { createKubeGateway } from '../../../src/infra/kube/createGateway';
import type { NodeChange, WatchState } from '../../../src/infra/kube/gateway';
import { DEFAULT_NODE_WATCH_OPTIONS, ReflectorNodeWatch } from '../../../src/infra/kube/nodeWatch';
import type { RealCluster } from './cluster';
import { compactEtcd, createExtraNode, deleteExtraNodes, kubectl, logTail, realCluster, script, until } from './cluster';
import { recordingClient } from './recordingClient';

let cluster: RealCluster;
const EXTRA = ['pleg-extra-a', 'pleg-extra-b', 'pleg-extra-c', 'pleg-extra-d', 'pleg-extra-e', 'pleg-extra-f'];
const cleanups: (() => void)[] = [];

beforeAll(() => {
  cluster = realCluster();
  deleteExtraNodes(cluster);
  for (const n of EXTRA) createExtraNode(cluster, n);
});

afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

afterAll(() => {
  if (cluster) deleteExtraNodes(cluster);
});

function serverNodeNames(): string[] {
  return kubectl(cluster, ['get', 'nodes', '-o', 'jsonpath={.items[*].metadata.name}']).trim().split(/\s+/).sort();
}

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const push = (m: unknown): void => void lines.push(m instanceof Error ? m.message : String(m));
  return { lines, trace: () => undefined, debug: push, info: push, warn: push, error: push };
}

async function reflector(pageSize: number, watchTimeoutSeconds: number, logger: Logger = recordingLogger()) {
  const rec = await recordingClient(cluster.kubeconfig);
  const watch = new ReflectorNodeWatch('realk8s', () => Promise.resolve(rec.client), rec.client.server, {
    ...DEFAULT_NODE_WATCH_OPTIONS,
    pageSize,
    watchTimeoutSeconds: () => watchTimeoutSeconds,
    logger,
  });
  cleanups.push(() => watch.dispose());
  const changes: NodeChange[] = [];
  watch.onDidChangeNodes((c) => changes.push(c));
  return { rec, watch, changes };
}

describe('the node reflector against the real kube-apiserver', () => {
  it('pages with limit/continue, then watches from the list resourceVersion and moves on with real BOOKMARKs', async () => {
    const { rec, watch, changes } = await reflector(2, 5);
    await until('the first sync', () => (watch.state.kind === 'synced' ? true : undefined), 20_000);
    const expected = serverNodeNames();
    expect(expected.length).toBe(EXTRA.length + 1);
    expect([...watch.nodes.keys()].sort()).toEqual(expected);

    // 7 nodes, 2 a page: 4 pages, each continuing where the last one stopped.
    const pages = rec.lists.slice(0, 4);
    expect(pages.map((p) => p.query['limit'])).toEqual([2, 2, 2, 2]);
    expect(pages[0]?.query['continue']).toBeUndefined();
    for (let i = 1; i < 4; i++) expect(pages[i]?.query['continue']).toBe(pages[i - 1]?.continueToken);
    expect(pages[3]?.continueToken).toBeUndefined();
    expect(pages.flatMap((p) => p.names ?? []).sort()).toEqual(expected);

    const first = rec.watches[0];
    expect(first?.query).toMatchObject({ watch: true, allowWatchBookmarks: true, resourceVersion: pages[3]?.resourceVersion, timeoutSeconds: 5 });

    // The cacher sends a bookmark 2 s before a watch's deadline, when the nodes have moved on since the
    // watch began (it has no etcd progress notifications here): a label every 2 s moves them. The next
    // watch resumes from the newest resourceVersion the last stream carried.
    let n = 0;
    const poke = setInterval(() => kubectl(cluster, ['label', 'node', 'pleg-extra-e', `pleg-doctor-poke=${++n}`, '--overwrite']), 2_000);
    let withBookmark: number;
    try {
      withBookmark = await until('a watch stream with a BOOKMARK and its successor', () => {
        const i = rec.watches.findIndex((w) => w.lines.some((l) => l.type === 'BOOKMARK'));
        return i >= 0 && rec.watches[i + 1] !== undefined ? i : undefined;
      }, 40_000);
    } finally {
      clearInterval(poke);
    }
    const stream = rec.watches[withBookmark];
    const bookmark = stream?.lines.find((l) => l.type === 'BOOKMARK');
    expect(Number(bookmark?.resourceVersion)).toBeGreaterThanOrEqual(Number(pages[3]?.resourceVersion));
    const lastRv = stream?.lines.filter((l) => l.resourceVersion !== undefined).at(-1)?.resourceVersion;
    expect(rec.watches[withBookmark + 1]?.query['resourceVersion']).toBe(lastRv);
    // No relist was needed for any of it.
    expect(changes.filter((c) => c.type === 'resynced')).toHaveLength(1);

    // A change made now arrives through the watch.
    kubectl(cluster, ['label', 'node', 'pleg-extra-f', 'pleg-doctor-probe=seen']);
    await until('the label through the watch', () => (watch.nodes.get('pleg-extra-f')?.metadata?.labels?.['pleg-doctor-probe'] === 'seen' ? true : undefined), 10_000);
    expect(changes.filter((c) => c.type === 'resynced')).toHaveLength(1);
  });

  it('a continue token expired by etcd compaction (real 410) restarts the list: nothing lost, nothing twice', async () => {
    const logger = recordingLogger();
    const rec = await recordingClient(cluster.kubeconfig);
    let compacted = 0;
    rec.afterPage = async (call, index) => {
      if (index !== 0 || call.continueToken === undefined) return;
      // Between page 1 and page 2: one node goes, one comes, and etcd forgets the page-1 revision.
      kubectl(cluster, ['delete', 'node', call.names?.find((n) => n.startsWith('pleg-extra-')) ?? 'pleg-extra-a', '--wait=false']);
      createExtraNode(cluster, 'pleg-extra-late');
      compacted = await compactEtcd(cluster);
    };
    const watch = new ReflectorNodeWatch('realk8s', () => Promise.resolve(rec.client), rec.client.server, { ...DEFAULT_NODE_WATCH_OPTIONS, pageSize: 3, watchTimeoutSeconds: () => 60, logger });
    cleanups.push(() => watch.dispose());
    const changes: NodeChange[] = [];
    watch.onDidChangeNodes((c) => changes.push(c));
    await until('the sync after the expired continue token', () => (watch.state.kind === 'synced' ? true : undefined), 20_000);

    expect(compacted).toBeGreaterThan(Number(rec.lists[0]?.resourceVersion));
    const refused = rec.lists[1];
    expect(refused?.query['continue']).toBe(rec.lists[0]?.continueToken);
    expect(refused?.errorStatus).toBe(410);
    expect(refused?.errorBody).toMatch(/continue parameter is too old|Expired/i);
    // The list started over without a token, and those pages hold every node exactly once.
    const again = rec.lists.slice(2);
    expect(again[0]?.query['continue']).toBeUndefined();
    const names = again.flatMap((p) => p.names ?? []);
    expect(new Set(names).size).toBe(names.length);
    const expected = serverNodeNames();
    expect(names.sort()).toEqual(expected);
    expect([...watch.nodes.keys()].sort()).toEqual(expected);
    expect(expected).toContain('pleg-extra-late');
    // Readers saw one complete replacement, never the half list of the refused pass.
    expect(changes).toEqual([{ type: 'resynced' }]);
  });

  it('an API server restart mid-watch: the resume gets 410 "too old resource version", the tree is whole again within 5 s', async () => {
    const logger = recordingLogger();
    // The product's defaults (backoff, timeouts), through the gateway as the extension and CLI use it.
    const gateway = createKubeGateway({ kubeconfigPaths: [cluster.kubeconfig], logger });
    cleanups.push(() => gateway.dispose());
    const context = gateway.listContexts()[0]?.name ?? '';
    const watch = gateway.watchNodes(context);
    const states: { at: number; state: WatchState }[] = [];
    watch.onDidChangeState((s) => states.push({ at: Date.now(), state: s }));
    await until('the first sync', () => (watch.state.kind === 'synced' ? true : undefined), 20_000);
    const before = [...watch.nodes.keys()].sort();
    expect(before).toEqual(serverNodeNames());
    // A write the node watch does not carry: etcd's revision moves past the watch's resourceVersion, so
    // the restarted API server's fresh watch cache cannot serve a resume from it.
    kubectl(cluster, ['create', 'configmap', `pleg-bump-${Date.now()}`, '-n', 'default']);

    const restart = script('restart-apiserver');
    expect(restart.status, restart.stderr).toBe(0);
    const readyAt = await until('the restarted API server to answer /readyz', () => {
      try {
        return kubectl(cluster, ['get', '--raw', '/readyz']).includes('ok') ? Date.now() : undefined;
      } catch {
        return undefined;
      }
    }, 60_000, 200).catch((e: unknown) => {
      // Once in CI the restarted server never answered: say what it wrote, so the cause is on the page.
      throw new Error(`${(e as Error).message}\nrestart-apiserver: ${restart.stderr.trim()}\nkube-apiserver.log, last lines:\n${logTail(join(cluster.logDir, 'kube-apiserver.log'), 40)}`);
    });
    const wholeAt = await until('the watch synced again after the restart', () => {
      const resynced = states.some((s) => s.state.kind !== 'synced') && watch.state.kind === 'synced';
      return resynced && [...watch.nodes.keys()].sort().join() === before.join() ? Date.now() : undefined;
    }, 30_000, 50);
    expect(wholeAt - readyAt).toBeLessThanOrEqual(5_000);
    expect(logger.lines.some((l) => /expired \(too old resource version/.test(l))).toBe(true);
    expect(states.map((s) => s.state.kind)).toContain('reconnecting');
    // Still live afterwards: a change arrives through the new watch.
    kubectl(cluster, ['label', 'node', 'pleg-extra-b', 'pleg-doctor-after-restart=yes', '--overwrite']);
    await until('a change after the restart', () => (watch.nodes.get('pleg-extra-b')?.metadata?.labels?.['pleg-doctor-after-restart'] === 'yes' ? true : undefined), 10_000);
  });
});
