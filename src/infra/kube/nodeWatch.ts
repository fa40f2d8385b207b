// A reflector for one context's nodes: a paginated list, then a watch from the list's resourceVersion
// (bookmarks keep it fresh), resuming from the last seen resourceVersion when a stream ends or breaks, and
// a full relist when the server says that version is gone (410). Failures back off exponentially with
// jitter; every request has a deadline; dispose() aborts whatever is in flight.

import type { KubeNode } from '../../core/kube/objects';
import { Emitter } from '../../core/util/emitter';
import type { Listener, Subscription } from '../../core/util/emitter';
import type { Logger } from '../../core/util/logger';
import { silentLogger } from '../../core/util/logger';
import { backoffDelay, DEFAULT_BACKOFF } from './backoff';
import type { BackoffOptions } from './backoff';
import { KubeHttpError, parseStatus, toClusterError } from './errors';
import type { ClusterError, NodeChange, NodeWatch, WatchState } from './gateway';
import type { KubeClient } from './kubeClient';
import { slimNode } from './slimNode';
import { sleepUnlessAborted as sleep } from '../sleepUnlessAborted';

export interface NodeWatchOptions {
  /** Items per list page (the API's `limit`). */
  pageSize: number;
  /** Deadline of every plain request, and of a watch's response headers. */
  requestTimeoutMs: number;
  /** The watch `timeoutSeconds` asked of the server; the client gives up 15 s after it. */
  watchTimeoutSeconds: () => number;
  backoff: BackoffOptions;
  random: () => number;
  logger: Logger;
  /** Lists and watches only the nodes this selects (e.g. `metadata.name=node-1` for one node's panel). */
  fieldSelector?: string;
}

export const DEFAULT_NODE_WATCH_OPTIONS: NodeWatchOptions = {
  pageSize: 500,
  requestTimeoutMs: 30_000,
  // Like client-go's reflector: between 5 and 10 minutes, so that many clients do not all reconnect at once.
  watchTimeoutSeconds: () => 300 + Math.floor(Math.random() * 300),
  backoff: DEFAULT_BACKOFF,
  random: Math.random,
  logger: silentLogger,
};

const WATCH_GRACE_MS = 15_000;

interface WatchLine {
  type?: unknown;
  object?: unknown;
}

class Expired extends Error {
  constructor(readonly detail: string) {
    super(`resourceVersion expired: ${detail}`);
  }
}


function resourceVersionOf(object: unknown): string | undefined {
  const meta = (object as { metadata?: { resourceVersion?: unknown } } | undefined)?.metadata;
  return typeof meta?.resourceVersion === 'string' && meta.resourceVersion !== '' ? meta.resourceVersion : undefined;
}

/** Errors that need the user (credentials, RBAC, kubeconfig) rather than patience. */
function needsUser(error: ClusterError): boolean {
  return error.kind === 'unauthorized' || error.kind === 'forbidden' || error.kind === 'config';
}

export class ReflectorNodeWatch implements NodeWatch {
  private readonly store = new Map<string, KubeNode>();
  private current: WatchState = { kind: 'connecting' };
  private readonly changes = new Emitter<NodeChange>();
  private readonly states = new Emitter<WatchState>();
  private readonly lifetime = new AbortController();
  private cycle = new AbortController();
  private relistRequested = false;
  private resourceVersion = '';
  /** The loop stops only on dispose or a kubeconfig error; refresh() restarts it after the latter. */
  private running = false;

  constructor(
    readonly context: string,
    private readonly client: () => Promise<KubeClient>,
    private readonly server: string,
    private readonly options: NodeWatchOptions,
    private readonly onDispose?: () => void,
  ) {
    this.start();
  }

  private start(): void {
    this.running = true;
    void this.run().finally(() => {
      this.running = false;
    });
  }

  get nodes(): ReadonlyMap<string, KubeNode> {
    return this.store;
  }

  get state(): WatchState {
    return this.current;
  }

  onDidChangeNodes(listener: Listener<NodeChange>): Subscription {
    return this.changes.event(listener);
  }

  onDidChangeState(listener: Listener<WatchState>): Subscription {
    return this.states.event(listener);
  }

  refresh(): void {
    if (this.lifetime.signal.aborted) return;
    this.relistRequested = true;
    if (!this.running) {
      this.setState({ kind: 'connecting' });
      this.start();
      return;
    }
    this.cycle.abort(new Error('refresh requested'));
  }

  dispose(): void {
    if (this.lifetime.signal.aborted) return;
    this.lifetime.abort(new Error('disposed'));
    this.cycle.abort(new Error('disposed'));
    this.setState({ kind: 'stopped' });
    this.changes.dispose();
    this.states.dispose();
    this.onDispose?.();
  }

  private setState(state: WatchState): void {
    this.current = state;
    this.emit(() => this.states.fire(state));
  }

  /** A throwing listener is a bug in the listener: log it, never let it break the watch loop. */
  private emit(fire: () => void): void {
    try {
      fire();
    } catch (err) {
      this.log.error(err instanceof Error ? err : new Error(String(err)));
    }
  }

  private get log(): Logger {
    return this.options.logger;
  }

  private async run(): Promise<void> {
    let needList = true;
    let failures = 0;
    while (!this.lifetime.signal.aborted) {
      if (this.relistRequested) {
        this.relistRequested = false;
        needList = true;
      }
      this.cycle = new AbortController();
      const signal = AbortSignal.any([this.lifetime.signal, this.cycle.signal]);
      const startedAt = Date.now();
      let step: 'list' | 'watch' = needList ? 'list' : 'watch';
      try {
        const client = await this.client();
        if (needList) {
          await this.list(client, signal);
          needList = false;
          failures = 0;
          this.setState({ kind: 'synced', resourceVersion: this.resourceVersion });
        }
        step = 'watch';
        await this.watch(client, signal, () => {
          if (this.current.kind !== 'synced') this.setState({ kind: 'synced', resourceVersion: this.resourceVersion });
        });
        // A clean end (the server's timeoutSeconds): resume at once, unless streams end as soon as they
        // open, which would otherwise be a busy loop.
        if (Date.now() - startedAt < 1000) {
          failures++;
          await sleep(backoffDelay(failures, this.options.backoff, this.options.random), this.lifetime.signal);
        } else {
          failures = 0;
        }
      } catch (err) {
        if (this.lifetime.signal.aborted) break;
        if (this.relistRequested) continue;
        if (err instanceof Expired) {
          this.log.info(`[${this.context}] watch resourceVersion ${this.resourceVersion} expired (${err.detail}); listing again`);
          needList = true;
          continue;
        }
        const error = toClusterError(err, { server: this.server, verb: step, resource: 'nodes' });
        failures++;
        if (error.kind === 'config') {
          this.log.error(`[${this.context}] ${error.message}`);
          this.setState({ kind: 'error', error });
          return;
        }
        const delayMs = needsUser(error) ? this.options.backoff.maxMs : backoffDelay(failures, this.options.backoff, this.options.random);
        this.log.warn(`[${this.context}] ${step} failed: ${error.message}; retrying in ${delayMs} ms`);
        if (needsUser(error)) this.setState({ kind: 'error', error });
        else this.setState({ kind: 'reconnecting', attempt: failures, delayMs, error });
        await sleep(delayMs, this.cycle.signal);
      }
    }
  }

  /** Pages through the nodes, then replaces the store at once so readers never see half a list. */
  private async list(client: KubeClient, signal: AbortSignal): Promise<void> {
    const fresh = new Map<string, KubeNode>();
    let token: string | undefined;
    let rv = '';
    let restarts = 0;
    for (;;) {
      let page: { metadata?: { resourceVersion?: unknown; continue?: unknown }; items?: unknown };
      try {
        page = (await client.getJson('/api/v1/nodes', { limit: this.options.pageSize, continue: token, fieldSelector: this.options.fieldSelector }, { signal, timeoutMs: this.options.requestTimeoutMs })) as typeof page;
      } catch (err) {
        // An expired continue token: start the list over (a consistent snapshot is worth one more pass).
        // (A `continue` in a do…while would test the loop condition, see no token and end the list empty.)
        if (err instanceof KubeHttpError && err.status === 410 && token !== undefined && restarts < 3) {
          restarts++;
          fresh.clear();
          token = undefined;
          rv = '';
          continue;
        }
        throw err;
      }
      if (!Array.isArray(page.items)) throw new KubeHttpError(502, 'list answer has no items array', '/api/v1/nodes');
      for (const item of page.items) {
        const node = slimNode(item);
        const name = node.metadata?.name;
        if (name) fresh.set(name, node);
      }
      if (typeof page.metadata?.resourceVersion === 'string') rv = page.metadata.resourceVersion;
      token = typeof page.metadata?.continue === 'string' && page.metadata.continue !== '' ? page.metadata.continue : undefined;
      if (token === undefined) break;
    }
    this.store.clear();
    for (const [name, node] of fresh) this.store.set(name, node);
    this.resourceVersion = rv;
    this.log.debug(`[${this.context}] listed ${fresh.size} nodes at resourceVersion ${rv}`);
    this.emit(() => this.changes.fire({ type: 'resynced' }));
  }

  private async watch(client: KubeClient, signal: AbortSignal, onOpen: () => void): Promise<void> {
    const timeoutSeconds = this.options.watchTimeoutSeconds();
    let expired: Expired | undefined;
    const abortOnExpiry = new AbortController();
    const streamSignal = AbortSignal.any([signal, abortOnExpiry.signal]);
    try {
      await client.streamLines(
        '/api/v1/nodes',
        { watch: true, resourceVersion: this.resourceVersion, allowWatchBookmarks: true, timeoutSeconds, fieldSelector: this.options.fieldSelector },
        (line) => {
          const outcome = this.apply(line);
          if (outcome instanceof Expired && !expired) {
            expired = outcome;
            abortOnExpiry.abort(outcome);
          }
        },
        { signal: streamSignal, connectTimeoutMs: this.options.requestTimeoutMs, totalTimeoutMs: timeoutSeconds * 1000 + WATCH_GRACE_MS, onOpen },
      );
    } catch (err) {
      if (expired) throw expired;
      if (err instanceof KubeHttpError && err.status === 410) throw new Expired(parseStatus(err.body)?.message?.toString() ?? 'HTTP 410');
      throw err;
    }
    if (expired) throw expired;
  }

  /** Applies one watch event; returns Expired when the server reports a 410. */
  private apply(line: string): Expired | undefined {
    let event: WatchLine;
    try {
      event = JSON.parse(line) as WatchLine;
    } catch {
      throw new KubeHttpError(502, `malformed watch event: ${line.slice(0, 200)}`, '/api/v1/nodes?watch=true');
    }
    const rv = resourceVersionOf(event.object);
    switch (event.type) {
      case 'ADDED':
      case 'MODIFIED': {
        const node = slimNode(event.object);
        const name = node.metadata?.name;
        if (!name) return undefined;
        this.store.set(name, node);
        if (rv) this.resourceVersion = rv;
        this.emit(() => this.changes.fire({ type: event.type === 'ADDED' ? 'added' : 'modified', node }));
        return undefined;
      }
      case 'DELETED': {
        const node = slimNode(event.object);
        const name = node.metadata?.name;
        if (!name) return undefined;
        this.store.delete(name);
        if (rv) this.resourceVersion = rv;
        this.emit(() => this.changes.fire({ type: 'deleted', node }));
        return undefined;
      }
      case 'BOOKMARK':
        if (rv) this.resourceVersion = rv;
        return undefined;
      case 'ERROR': {
        const status = event.object as { code?: unknown; message?: unknown } | undefined;
        const message = typeof status?.message === 'string' ? status.message : 'watch error';
        if (status?.code === 410) return new Expired(message);
        throw new KubeHttpError(typeof status?.code === 'number' ? status.code : 500, JSON.stringify(event.object ?? {}), '/api/v1/nodes?watch=true');
      }
      default:
        this.log.warn(`[${this.context}] ignoring watch event of unknown type ${String(event.type)}`);
        return undefined;
    }
  }
}
