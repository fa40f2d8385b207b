// The real KubeGateway: every context of every kubeconfig file, one self-healing node watch per request,
// the two on-demand reads the details view needs (node events, pod count), and the reads a diagnosis
// needs (one Node, the kubelet's endpoints through the node proxy).

import { newestFirst } from '../../core/kube/eventTime';
import type { KubeEvent, KubeNode } from '../../core/kube/objects';
import type { Logger } from '../../core/util/logger';
import { silentLogger } from '../../core/util/logger';
import { toClusterError } from './errors';
import type { ClusterError, ContextInfo, KubeconfigSummary, KubeGateway, NodeProxyOptions, NodeProxyResult, NodeWatch, PortForwardTarget } from './gateway';
import { createKubeClient } from './kubeClient';
import type { KubeClient } from './kubeClient';
import { KubeConfigError, loadKubeconfigs, mergeKubeconfigs } from './kubeconfig';
import type { LoadedKubeconfig, ResolvedContext } from './kubeconfig';
import { nodeProxyGet } from './nodeProxy';
import { createPodsApi, listPodObjects } from './podsApi';
import type { PodsApi } from './podsTypes';
import { openPodPortForward } from '../nodeAccess/agent/portForward';
import type { Duplex } from 'node:stream';
import { slimNode } from './slimNode';
import { DEFAULT_NODE_WATCH_OPTIONS, ReflectorNodeWatch } from './nodeWatch';
import type { NodeWatchOptions } from './nodeWatch';

export interface KubeGatewayOptions {
  /** Kubeconfig files, in merge order; default: KUBECONFIG, else ~/.kube/config. */
  kubeconfigPaths?: string[];
  logger?: Logger;
  /** Environment to read KUBECONFIG and HOME from (the CLI's, tests'); default process.env. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Tuning for tests and benchmarks; production uses the defaults. */
  watch?: Partial<Omit<NodeWatchOptions, 'logger'>>;
  /** Kubeconfig documents held in memory instead of files (the node agent's in-cluster config). */
  kubeconfigTexts?: { file: string; text: string }[];
  /** How a context's client is made (default createKubeClient; the agent's needs no client-node). */
  createClient?: (ctx: ResolvedContext) => Promise<KubeClient>;
}

/** A request failed; `error` says why in ClusterError terms (thrown by listNodeEvents and countPods). */
export class KubeRequestError extends Error {
  constructor(readonly error: ClusterError) {
    super(error.message);
    this.name = 'KubeRequestError';
  }
}

const EVENT_PAGES = 4;

/** Node names are DNS subdomains; anything else would change the meaning of a field selector. */
function checkNodeName(node: string): void {
  if (!/^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/.test(node)) throw new Error(`"${node}" is not a valid node name`);
}
const PAGE = 500;


class Gateway implements KubeGateway {
  private loaded: LoadedKubeconfig | undefined;
  private readonly clients = new Map<string, { key: string; client: Promise<KubeClient> }>();
  private readonly watches = new Set<NodeWatch>();
  private readonly lifetime = new AbortController();
  private readonly logger: Logger;
  private readonly watchOptions: NodeWatchOptions;

  constructor(private readonly options: KubeGatewayOptions) {
    this.logger = options.logger ?? silentLogger;
    this.watchOptions = { ...DEFAULT_NODE_WATCH_OPTIONS, ...options.watch, logger: this.logger };
  }

  private load(): LoadedKubeconfig {
    const texts = this.options.kubeconfigTexts;
    if (texts !== undefined) return { ...mergeKubeconfigs(texts), searched: texts.map((t) => t.file) };
    return loadKubeconfigs(this.options.kubeconfigPaths, this.options.env ?? process.env);
  }

  listContexts(): ContextInfo[] {
    // Read the files again each time: the user may have switched clusters or fixed a typo since.
    this.loaded = this.load();
    return this.loaded.contexts.map((c) => ({ ...c.info }));
  }

  kubeconfigSummary(): KubeconfigSummary {
    const loaded = this.loaded ?? this.load();
    this.loaded = loaded;
    return { files: [...loaded.files], searched: [...loaded.searched], ...(loaded.currentContext !== undefined ? { currentContext: loaded.currentContext } : {}) };
  }

  private resolve(context: string): ResolvedContext {
    const loaded = this.loaded ?? this.load();
    this.loaded = loaded;
    const found = loaded.contexts.find((c) => c.info.name === context);
    if (!found) throw new KubeConfigError(loaded.files.join(', ') || 'kubeconfig', `no context named "${context}"`);
    return found;
  }

  private client(ctx: ResolvedContext): Promise<KubeClient> {
    const key = JSON.stringify([ctx.cluster, ctx.user, ctx.info]);
    const cached = this.clients.get(ctx.info.name);
    if (cached?.key === key) return cached.client;
    const client = (this.options.createClient ?? createKubeClient)(ctx);
    // A failed creation (bad credentials file, say) must not be cached forever.
    client.catch(() => this.clients.delete(ctx.info.name));
    this.clients.set(ctx.info.name, { key, client });
    return client;
  }

  watchNodes(context: string, only?: { node: string }): NodeWatch {
    const ctx = this.resolve(context);
    const options = only === undefined ? this.watchOptions : { ...this.watchOptions, fieldSelector: `metadata.name=${only.node}` };
    const watch: NodeWatch = new ReflectorNodeWatch(context, () => this.client(this.resolve(context)), ctx.info.server, options, () => this.watches.delete(watch));
    this.watches.add(watch);
    return watch;
  }

  private async getJson(context: string, path: string, query: Record<string, string | number | undefined>, what: { verb: string; resource: string }, signal?: AbortSignal): Promise<unknown> {
    return this.request(context, what, signal, (client, options) => client.getJson(path, query, options));
  }

  /** One API request with the gateway's deadline and the caller's cancel; failures become KubeRequestError. */
  private async request<T>(
    context: string,
    what: { verb: string; resource: string },
    signal: AbortSignal | undefined,
    send: (client: KubeClient, options: { signal: AbortSignal; timeoutMs: number }) => Promise<T>,
  ): Promise<T> {
    let server = '';
    try {
      const ctx = this.resolve(context);
      server = ctx.info.server;
      const client = await this.client(ctx);
      const combined = signal ? AbortSignal.any([signal, this.lifetime.signal]) : this.lifetime.signal;
      return await send(client, { signal: combined, timeoutMs: this.watchOptions.requestTimeoutMs });
    } catch (err) {
      if (signal?.aborted) throw signal.reason ?? err;
      throw new KubeRequestError(toClusterError(err, { server, ...what }));
    }
  }

  async listNodeEvents(context: string, node: string, signal?: AbortSignal): Promise<KubeEvent[]> {
    checkNodeName(node);
    const fieldSelector = `involvedObject.kind=Node,involvedObject.name=${node}`;
    const events: KubeEvent[] = [];
    let token: string | undefined;
    for (let page = 0; page < EVENT_PAGES; page++) {
      const list = (await this.getJson(context, '/api/v1/events', { fieldSelector, limit: PAGE, continue: token }, { verb: 'list', resource: 'events' }, signal)) as {
        items?: KubeEvent[];
        metadata?: { continue?: string };
      };
      events.push(...(list.items ?? []));
      token = list.metadata?.continue || undefined;
      if (!token) break;
    }
    return events.sort(newestFirst);
  }

  async countPods(context: string, node: string, signal?: AbortSignal): Promise<number> {
    checkNodeName(node);
    const fieldSelector = `spec.nodeName=${node}`;
    let count = 0;
    let token: string | undefined;
    do {
      const list = (await this.getJson(context, '/api/v1/pods', { fieldSelector, limit: PAGE, continue: token }, { verb: 'list', resource: 'pods' }, signal)) as {
        items?: unknown[];
        metadata?: { continue?: string; remainingItemCount?: number };
      };
      count += list.items?.length ?? 0;
      const remaining = list.metadata?.remainingItemCount;
      // The server already counted the rest: no need to page through them.
      if (typeof remaining === 'number') return count + remaining;
      token = list.metadata?.continue || undefined;
    } while (token);
    return count;
  }

  async getNode(context: string, node: string, signal?: AbortSignal): Promise<KubeNode> {
    checkNodeName(node);
    try {
      return slimNode(await this.getJson(context, `/api/v1/nodes/${encodeURIComponent(node)}`, {}, { verb: 'get', resource: 'nodes' }, signal));
    } catch (err) {
      if (err instanceof KubeRequestError && err.error.httpStatus === 404) {
        throw new KubeRequestError({ ...err.error, message: `There is no node "${node}" in context "${context}" (404 Not Found)` });
      }
      throw err;
    }
  }

  async setUnschedulable(context: string, node: string, unschedulable: boolean, signal?: AbortSignal): Promise<KubeNode> {
    checkNodeName(node);
    const body = JSON.stringify({ spec: { unschedulable } });
    const answer = await this.request(context, { verb: 'patch', resource: 'nodes' }, signal, (client, options) => {
      if (client.patchJson === undefined) throw new Error('this Kubernetes client cannot send PATCH requests');
      return client.patchJson(`/api/v1/nodes/${encodeURIComponent(node)}`, body, 'application/strategic-merge-patch+json', options);
    });
    return slimNode(answer);
  }

  async nodeProxyGet(context: string, node: string, path: string, options: NodeProxyOptions): Promise<NodeProxyResult> {
    checkNodeName(node);
    const started = performance.now();
    let ctx: ResolvedContext;
    try {
      ctx = this.resolve(context);
    } catch (err) {
      const error = err instanceof KubeConfigError ? err.clusterError : toClusterError(err, { server: '', verb: 'get', resource: 'nodes/proxy' });
      return { kind: 'failed', error, ms: Math.round(performance.now() - started) };
    }
    return nodeProxyGet(() => this.client(ctx), ctx.info.server, node, path, options, this.lifetime.signal);
  }

  podsApi(context: string): PodsApi {
    return createPodsApi((what, signal, send) => this.request(context, what, signal, send));
  }

  listPods(context: string, namespace: string, selectors: { labelSelector?: string; fieldSelector?: string }, signal?: AbortSignal): Promise<unknown[]> {
    return listPodObjects((what, s, send) => this.request(context, what, s, send), namespace, selectors, signal);
  }

  openPodPortForward(context: string, target: PortForwardTarget, options: { signal: AbortSignal; timeoutMs: number }): Promise<Duplex> {
    // The WebSocket upgrade is a GET: RBAC checks `get` on pods/portforward (SPDY clients such as kubectl POST: `create`).
    return this.request(context, { verb: 'get', resource: 'pods/portforward' }, options.signal, (client, o) => openPodPortForward(client, target, { signal: o.signal, timeoutMs: options.timeoutMs }));
  }

  dispose(): void {
    this.lifetime.abort(new Error('gateway disposed'));
    for (const watch of [...this.watches]) watch.dispose();
    this.clients.clear();
  }
}

export function createKubeGateway(options: KubeGatewayOptions = {}): KubeGateway {
  return new Gateway(options);
}
