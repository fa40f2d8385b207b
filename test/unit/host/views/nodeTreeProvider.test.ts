// The Nodes view's provider against the vscode stub and an in-memory gateway: what rows exist, in what
// order, with which text; how model changes become refreshes; how on-demand fetches fail.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as vscode from 'vscode';
import type { CancellationToken } from 'vscode';
import { classifyNode } from '../../../../src/core/classify/classifyNode';
import type { KubeEvent, KubeNode } from '../../../../src/core/kube/objects';
import type { ContextNodes, NodeEntry } from '../../../../src/core/tree/contextNodes';
import { silentLogger } from '../../../../src/core/util/logger';
import { ClusterSession } from '../../../../src/host/cluster/clusterSession';
import type { TreeElement } from '../../../../src/host/views/treeElements';
import { HOVER_HOLD_MS, NodeTreeProvider } from '../../../../src/host/views/nodeTreeProvider';
import type { ContextInfo, KubeGateway, NodeProxyResult, WatchState } from '../../../../src/infra/kube/gateway';
import { FakeNodeSource } from '../../../support/fakeNodeSource';
import { atRiskCondition, makeNode, minutesAgo } from '../../../support/nodeFixtures';

class FakeGateway implements KubeGateway {
  readonly watches = new Map<string, FakeNodeSource<WatchState>>();
  events: (signal?: AbortSignal) => Promise<KubeEvent[]> = () => Promise.resolve([]);
  pods: (signal?: AbortSignal) => Promise<number> = () => Promise.resolve(7);
  podCalls = 0;
  disposed = false;
  constructor(public contexts: ContextInfo[]) {}
  listContexts(): ContextInfo[] {
    return this.contexts;
  }
  watchNodes(context: string): FakeNodeSource<WatchState> {
    const w = new FakeNodeSource<WatchState>(context);
    this.watches.set(context, w);
    return w;
  }
  listNodeEvents(_c: string, _n: string, signal?: AbortSignal): Promise<KubeEvent[]> {
    return this.events(signal);
  }
  countPods(_c: string, _n: string, signal?: AbortSignal): Promise<number> {
    this.podCalls++;
    return this.pods(signal);
  }
  getNode(_c: string, node: string): Promise<KubeNode> {
    return Promise.reject(new Error(`no node "${node}" in this fake`));
  }
  nodeProxyGet(): Promise<NodeProxyResult> {
    return Promise.resolve({ kind: 'timeout', ms: 0 });
  }
  dispose(): void {
    this.disposed = true;
  }
}

const info = (name: string, isCurrent = false): ContextInfo => ({ name, cluster: name, user: name, server: `https://${name}.example:6443`, isCurrent });

async function setup(onlyUnhealthy = false, eventsDeadlineMs = 15_000) {
  const gateway = new FakeGateway([info('prod', true), info('staging')]);
  const session = new ClusterSession(classifyNode, () => Promise.resolve(gateway), silentLogger);
  const provider = new NodeTreeProvider(session, silentLogger, { onlyUnhealthy, eventsDeadlineMs });
  const fired: (TreeElement | TreeElement[] | undefined)[] = [];
  provider.onDidChangeTreeData((e) => fired.push(e));
  await session.configure({ kubeconfigPaths: [], excludedContexts: [] });
  return { gateway, session, provider, fired };
}

const children = async (p: NodeTreeProvider, e?: TreeElement) => (await p.getChildren(e)) ?? [];
const label = (p: NodeTreeProvider, e: TreeElement) => p.getTreeItem(e).label;
const description = (p: NodeTreeProvider, e: TreeElement) => p.getTreeItem(e).description;

describe('NodeTreeProvider', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.setSystemTime(new Date('2026-11-22T04:00:00Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows contexts with a spinner while connecting, then nodes unhealthy first with verdict descriptions', async () => {
    const { gateway, provider } = await setup();
    const contexts = await children(provider);
    expect(contexts.map((c) => label(provider, c))).toEqual(['prod', 'staging']);
    const connecting = provider.getTreeItem(contexts[0]!);
    expect((connecting.iconPath as vscode.ThemeIcon).id).toBe('loading~spin');
    expect(connecting.description).toBe('connecting…');

    gateway.watches.get('prod')!.list([makeNode('node-b', { status: 'True' }), makeNode('node-a', { status: 'False', since: minutesAgo(3.2) })]);
    const rows = await children(provider, contexts[0]);
    expect(rows.map((r) => label(provider, r))).toEqual(['node-a', 'node-b']);
    const item = provider.getTreeItem(rows[0]!);
    expect(item.description).toBe('PLEG · 3m');
    expect(item.contextValue).toBe('node;pleg;notReady;unhealthy');
    expect(item.accessibilityInformation?.label).toBe('node-a, PLEG · 3m');
    expect((item.iconPath as vscode.ThemeIcon).color?.id).toBe('charts.red');
    expect(item.tooltip).toBeUndefined();
    expect(description(provider, contexts[0]!)).toBe('2 nodes · 1 unhealthy');
  });

  it('coalesces a large list into one refresh and a single flip into a targeted one within 2 s', async () => {
    const { gateway, provider, fired } = await setup();
    await vi.advanceTimersByTimeAsync(1000);
    fired.length = 0;
    const watch = gateway.watches.get('prod')!;
    watch.list(Array.from({ length: 500 }, (_, i) => makeNode(`n${i}`, { status: 'True' })));
    for (let i = 0; i < 500; i++) watch.upsert(makeNode(`n${i}`, { status: 'True', heartbeat: minutesAgo(-1) }));
    await vi.advanceTimersByTimeAsync(1000);
    expect(fired.length).toBe(1);
    const [prod] = await children(provider);
    expect(fired[0]).toEqual([prod]);

    fired.length = 0;
    watch.upsert(makeNode('n42', { status: 'False', since: minutesAgo(4) }));
    await vi.advanceTimersByTimeAsync(2000);
    expect(fired).toEqual([[prod]]);
    expect((await children(provider, prod))[0]).toMatchObject({ kind: 'node', name: 'n42' });

    // Same verdict, new message text: only that row.
    fired.length = 0;
    watch.upsert(makeNode('n42', { status: 'False', since: minutesAgo(4), message: 'PLEG is not healthy: pleg was last seen active 4m10s ago; threshold is 3m0s' }));
    await vi.advanceTimersByTimeAsync(2000);
    expect(fired.length).toBe(1);
    expect((fired[0] as NodeEntry[]).map((e) => e.name)).toEqual(['n42']);
  });

  it('redraws only rows whose age text moved on', async () => {
    const { gateway, provider, fired } = await setup();
    gateway.watches.get('prod')!.list([makeNode('a', { status: 'False', since: minutesAgo(3.5) }), makeNode('b', { status: 'True' })]);
    const [prod] = await children(provider);
    const rows = await children(provider, prod);
    rows.forEach((r) => provider.getTreeItem(r));
    await vi.advanceTimersByTimeAsync(1000);
    fired.length = 0;
    vi.setSystemTime(Date.now() + 20_000); // still "for 3m"
    provider.tickAges(new Date());
    expect(fired).toEqual([]);
    vi.setSystemTime(Date.now() + 30_000); // now "for 4m"
    provider.tickAges(new Date());
    expect(fired).toEqual([[rows[0]]]);
    expect(description(provider, rows[0]!)).toBe('PLEG · 4m');
  });

  it('redraws a node at risk every second its countdown moves, and nothing else', async () => {
    const { gateway, provider, fired } = await setup();
    const since = new Date(Date.now() - 10_000).toISOString();
    gateway.watches.get('prod')!.list([makeNode('a', { status: 'False', since: minutesAgo(3.5) }), makeNode('r', { status: 'True' }, { conditions: [atRiskCondition('True', { since })] })]);
    const [prod] = await children(provider);
    const rows = await children(provider, prod);
    expect(rows.map((r) => label(provider, r))).toEqual(['a', 'r']);
    rows.forEach((r) => provider.getTreeItem(r));
    expect(description(provider, rows[1]!)).toBe('PLEG at risk · NotReady in ~1m25s');
    await vi.advanceTimersByTimeAsync(1000);
    fired.length = 0;
    provider.tickCountdowns(new Date());
    expect(fired).toEqual([[rows[1]]]);
    expect(description(provider, rows[1]!)).toBe('PLEG at risk · NotReady in ~1m24s');
    fired.length = 0;
    provider.tickCountdowns(new Date());
    expect(fired).toEqual([]);
    // Hovered (VS Code resolves its tooltip): spared for HOVER_HOLD_MS, since a redraw would close the hover.
    await provider.resolveTreeItem(provider.getTreeItem(rows[1]!), rows[1]!, new vscode.CancellationTokenSource().token);
    await vi.advanceTimersByTimeAsync(2000);
    fired.length = 0;
    provider.tickCountdowns(new Date());
    expect(fired).toEqual([]);
    await vi.advanceTimersByTimeAsync(HOVER_HOLD_MS);
    provider.tickCountdowns(new Date());
    expect(fired).toEqual([[rows[1]]]);
  });

  it('filters healthy nodes and says so when none is left', async () => {
    const { gateway, provider } = await setup(true);
    gateway.watches.get('prod')!.list([makeNode('a', { status: 'True' }), makeNode('b', { status: 'Unknown', since: minutesAgo(1) })]);
    gateway.watches.get('staging')!.list([makeNode('c', { status: 'True' })]);
    const [prod, staging] = await children(provider);
    expect((await children(provider, prod)).map((r) => label(provider, r))).toEqual(['b']);
    const stagingRows = await children(provider, staging);
    expect(stagingRows.map((r) => [label(provider, r), description(provider, r)])).toEqual([['All 1 nodes are healthy', 'hidden by "Show Only Unhealthy"']]);
    provider.setOnlyUnhealthy(false);
    expect((await children(provider, prod)).map((r) => label(provider, r))).toEqual(['b', 'a']);
  });

  it('shows a context error as a row with the cause and a Show Log action token', async () => {
    const { gateway, provider } = await setup();
    gateway.watches.get('staging')!.setState({ kind: 'error', error: { kind: 'forbidden', message: '403 Forbidden: cannot watch nodes', verb: 'watch', resource: 'nodes' } });
    const [, staging] = await children(provider);
    const [errorRow] = await children(provider, staging);
    const item = provider.getTreeItem(errorRow!);
    expect(item.label).toBe('Cannot list nodes');
    expect(item.description).toBe('403 Forbidden: cannot watch nodes');
    expect(item.contextValue).toBe('clusterError;forbidden');
    expect((provider.getTreeItem(staging!).iconPath as vscode.ThemeIcon).id).toBe('error');

    // Retrying with nodes already listed: the nodes stay, under a warning row that names the cause.
    const prod = gateway.watches.get('prod')!;
    prod.list([makeNode('a', { status: 'True' })]);
    prod.setState({ kind: 'reconnecting', attempt: 3, delayMs: 4000, error: { kind: 'unreachable', message: 'Cannot reach the API server at 127.0.0.1:1: connection refused (ECONNREFUSED)' } });
    const [prodGroup] = await children(provider);
    const rows = await children(provider, prodGroup);
    expect(rows.map((r) => [label(provider, r), description(provider, r)])).toEqual([
      ['Connection lost, retrying', 'Cannot reach the API server at 127.0.0.1:1: connection refused (ECONNREFUSED)'],
      ['a', 'Ready'],
    ]);
    expect(description(provider, prodGroup!)).toBe('1 nodes · reconnecting (attempt 3)');
    expect(((provider.getTreeItem(rows[0]!).tooltip as vscode.MarkdownString).value)).toContain('Attempt 3; next try in 4s.');
  });

  it('lists conditions and fetches events on expand; a failure is a row naming the cause', async () => {
    const { gateway, provider } = await setup(false, 100);
    gateway.watches.get('prod')!.list([makeNode('a', { status: 'False', since: minutesAgo(5) }, { conditions: [{ type: 'DiskPressure', status: 'False', reason: 'KubeletHasNoDiskPressure' }] })]);
    const [prod] = await children(provider);
    const [node] = await children(provider, prod);
    const kids = await children(provider, node);
    // Ready first (the kubelet lists it last), its nanosecond duration cut to tenths.
    expect(kids.map((k) => [label(provider, k), description(provider, k)])).toEqual([
      ['Ready', 'False · PLEG is not healthy: pleg was last seen active 3m46.7s ago; threshold is 3m0s'],
      ['DiskPressure', 'False · KubeletHasNoDiskPressure'],
      ['Recent events', undefined],
    ]);
    expect(provider.getParent(node!)).toBe(prod);

    gateway.events = () => Promise.resolve([{ reason: 'NodeNotReady', type: 'Normal', message: 'Node a status is now: NodeNotReady', count: 2, lastTimestamp: minutesAgo(5) }]);
    const events = await children(provider, kids[2]);
    expect(events.map((e) => [label(provider, e), description(provider, e)])).toEqual([['NodeNotReady', '5m ago · ×2 · Node a status is now: NodeNotReady']]);
    // The event row's age is live: the age ticker redraws it once its text moved on.
    const { fired } = { fired: [] as unknown[] };
    const listener = provider.onDidChangeTreeData((e) => fired.push(e));
    vi.setSystemTime(Date.now() + 61_000);
    provider.tickAges(new Date());
    expect(fired.some((e) => Array.isArray(e) && e.includes(events[0]))).toBe(true);
    expect(description(provider, events[0]!)).toBe('6m ago · ×2 · Node a status is now: NodeNotReady');
    listener.dispose();
    // The same answer fed the node's flap count (a folded event of 2, both inside the window).
    expect(description(provider, node!)).toBe('PLEG · 6m · 2 flaps');

    gateway.events = (signal) =>
      new Promise((_resolve, reject) => {
        signal?.addEventListener('abort', () => reject(signal.reason as Error));
      });
    // The events deadline (0.1 s) is left to run on real time.
    vi.useRealTimers();
    const failed = await children(provider, kids[2]);
    expect(failed.map((e) => [label(provider, e), description(provider, e)])).toEqual([['Could not load events', 'no answer within 0.1s']]);
    gateway.events = () => Promise.reject(new Error('403 Forbidden: cannot list events'));
    const refused = await children(provider, kids[2]);
    expect(refused.map((e) => description(provider, e))).toEqual(['403 Forbidden: cannot list events']);
  });

  it('resolves the tooltip on hover with the pod count, fetched once and cached', async () => {
    const { gateway, provider } = await setup();
    gateway.watches.get('prod')!.list([makeNode('a', { status: 'False', since: minutesAgo(5) })]);
    const [prod] = await children(provider);
    const [node] = await children(provider, prod);
    const token = new vscode.CancellationTokenSource().token as unknown as CancellationToken;
    const first = await provider.resolveTreeItem(provider.getTreeItem(node!), node!, token);
    expect((first.tooltip as vscode.MarkdownString).value).toContain('Pods bound to the node (API server): 7 / 110');
    expect((first.tooltip as vscode.MarkdownString).isTrusted).toBe(false);
    await provider.resolveTreeItem(provider.getTreeItem(node!), node!, token);
    expect(gateway.podCalls).toBe(1);
  });

  it('reports an unusable kubeconfig as a session state, with no contexts', async () => {
    const gateway = new FakeGateway([]);
    gateway.listContexts = () => {
      throw new Error('kubeconfig /tmp/x: invalid YAML: bad indentation');
    };
    const session = new ClusterSession(classifyNode, () => Promise.resolve(gateway), silentLogger);
    const states: string[] = [];
    session.onDidChangeState((s) => states.push(s.kind));
    await session.configure({ kubeconfigPaths: ['/tmp/x'], excludedContexts: [] });
    expect(session.state).toEqual({ kind: 'configError', message: 'kubeconfig /tmp/x: invalid YAML: bad indentation' });
    expect(states).toEqual(['loading', 'configError']);
    expect(session.model.groups()).toEqual([]);

    const provider = new NodeTreeProvider(session, silentLogger, { onlyUnhealthy: false });
    const [row] = await children(provider);
    const item = provider.getTreeItem(row!);
    expect([item.label, item.description, item.contextValue]).toEqual(['Cannot read the kubeconfig', 'kubeconfig /tmp/x: invalid YAML: bad indentation', 'kubeconfigError']);
    expect((item.iconPath as vscode.ThemeIcon).id).toBe('error');
  });

  it('excludes contexts by glob and disposes watches of contexts that went away', async () => {
    const { gateway, session, provider } = await setup();
    const staging = gateway.watches.get('staging')!;
    await session.refreshAll({ kubeconfigPaths: [], excludedContexts: ['stag*'] });
    expect((await children(provider)).map((c) => (c as ContextNodes).name)).toEqual(['prod']);
    expect(staging.disposed).toBe(true);
    expect(gateway.watches.get('prod')!.refreshes).toBe(1);
    await session.refreshAll({ kubeconfigPaths: [], excludedContexts: ['*'] });
    expect(session.state).toEqual({ kind: 'allExcluded', count: 2 });
    session.dispose();
    expect(gateway.disposed).toBe(true);
  });
});
