// The whole tree as data: contexts in kubeconfig order, each with its classified nodes. Fed by live
// NodeSources (the gateway's NodeWatch); reports what changed so the view can refresh narrowly. Pure
// and vscode-free, so the benchmark can time "activation to a fully classified tree" in plain Node.

import { Emitter } from '../util/emitter';
import type { Subscription } from '../util/emitter';
import type { ClassifyFn, ContextCounts, ContextInfoLike, EntryUpdate, NodeEntry } from './contextNodes';
import { ContextNodes } from './contextNodes';
import type { NodeSource, SourceChange, SourceState } from './nodeSource';
import type { KubeEvent } from '../kube/objects';
import type { VerdictChange } from './verdictLog';

export type ModelChange =
  /** The list of contexts changed. */
  | { scope: 'root' }
  /** A context's state, counts or row order changed: refresh it and its children. */
  | { scope: 'context'; context: ContextNodes }
  /** One row's text changed in place. */
  | { scope: 'node'; context: ContextNodes; entry: NodeEntry };

export interface ModelTotals extends ContextCounts {
  contexts: number;
  connecting: number;
  failed: number;
}

export interface NodeTreeModelOptions {
  classify: ClassifyFn;
  now?: () => Date;
}

export class NodeTreeModel {
  private readonly contexts = new Map<string, ContextNodes>();
  private readonly sources = new Map<string, { source: NodeSource; subscriptions: Subscription[] }>();
  private readonly changes = new Emitter<ModelChange>();
  readonly onDidChange = this.changes.event;
  private readonly verdicts = new Emitter<VerdictChange>();
  /** Every verdict change of a node (and each unhealthy node when first seen), for the log. */
  readonly onDidChangeVerdict = this.verdicts.event;
  private readonly now: () => Date;

  constructor(private readonly options: NodeTreeModelOptions) {
    this.now = options.now ?? (() => new Date());
  }

  /** Replaces the list of contexts, keeping the state of those that stay. */
  setContexts(infos: readonly ContextInfoLike[]): void {
    const wanted = new Map(infos.map((i) => [i.name, i]));
    for (const name of [...this.contexts.keys()]) {
      if (!wanted.has(name)) {
        this.detach(name);
        this.contexts.delete(name);
      }
    }
    const next = new Map<string, ContextNodes>();
    for (const info of infos) {
      const existing = this.contexts.get(info.name);
      if (existing) {
        existing.isCurrent = info.isCurrent;
        existing.server = info.server;
        next.set(info.name, existing);
      } else {
        next.set(info.name, new ContextNodes(info, this.options.classify, (change) => this.verdicts.fire(change)));
      }
    }
    this.contexts.clear();
    for (const [name, group] of next) this.contexts.set(name, group);
    this.changes.fire({ scope: 'root' });
  }

  /** Feeds a context from a live source; returns a subscription that detaches it. */
  attach(source: NodeSource): Subscription {
    const group = this.contexts.get(source.context);
    if (group === undefined) throw new Error(`context "${source.context}" is not in the tree; call setContexts first`);
    this.detach(source.context);
    group.state = source.state;
    group.replaceAll(source.nodes.values(), this.now());
    const subscriptions = [
      source.onDidChangeNodes((change) => this.applyChange(group, source, change)),
      source.onDidChangeState((state) => this.applyState(group, state)),
    ];
    this.sources.set(source.context, { source, subscriptions });
    this.changes.fire({ scope: 'context', context: group });
    return { dispose: () => this.detach(source.context) };
  }

  /**
   * Classifies unhealthy nodes again with the current time. Some verdicts depend on it (a kubelet that
   * "has yet to be successful" is `startup` for 3 min, then `pleg`), and a stuck node may send no update
   * for minutes, so the view calls this on its age tick.
   */
  reclassifyUnhealthy(): void {
    const now = this.now();
    for (const group of this.contexts.values()) {
      for (const entry of [...group.rows(true)]) this.report(group, group.upsert(entry.node, now));
      this.report(group, group.expire(now));
    }
  }

  /** A node's events arrived (the host's flap tracker): its flap count and sort position may change. */
  setReadyEvents(context: string, name: string, events: readonly KubeEvent[]): void {
    const group = this.contexts.get(context);
    if (group !== undefined) this.report(group, group.setReadyEvents(name, events, this.now()));
  }

  groups(): readonly ContextNodes[] {
    return [...this.contexts.values()];
  }

  group(name: string): ContextNodes | undefined {
    return this.contexts.get(name);
  }

  totals(): ModelTotals {
    const totals: ModelTotals = { contexts: 0, connecting: 0, failed: 0, total: 0, unhealthy: 0, pleg: 0, atRisk: 0 };
    for (const g of this.contexts.values()) {
      totals.contexts++;
      if (g.state.kind === 'connecting' || g.state.kind === 'reconnecting') totals.connecting++;
      if (g.state.kind === 'error') totals.failed++;
      const c = g.counts();
      totals.total += c.total;
      totals.unhealthy += c.unhealthy;
      totals.pleg += c.pleg;
      totals.atRisk += c.atRisk;
    }
    return totals;
  }

  /** True once every attached context has listed (or failed) and every listed node is classified. */
  isSettled(): boolean {
    for (const g of this.contexts.values()) {
      const attached = this.sources.get(g.name);
      if (attached === undefined) return false;
      if (g.state.kind === 'connecting') return false;
      if (g.state.kind === 'synced' && g.size !== attached.source.nodes.size) return false;
    }
    return true;
  }

  dispose(): void {
    for (const name of [...this.sources.keys()]) this.detach(name);
    this.changes.dispose();
    this.verdicts.dispose();
  }

  private detach(name: string): void {
    const attached = this.sources.get(name);
    if (attached === undefined) return;
    for (const s of attached.subscriptions) s.dispose();
    this.sources.delete(name);
  }

  private applyChange(group: ContextNodes, source: NodeSource, change: SourceChange): void {
    const now = this.now();
    let update;
    switch (change.type) {
      case 'added':
      case 'modified':
        update = group.upsert(change.node, now);
        break;
      case 'deleted':
        update = group.remove(change.node.metadata?.name ?? '');
        break;
      case 'resynced':
        update = group.replaceAll(source.nodes.values(), now);
        break;
    }
    this.report(group, update);
  }

  private report(group: ContextNodes, update: EntryUpdate): void {
    switch (update.kind) {
      case 'none':
        return;
      case 'entry':
        this.changes.fire({ scope: 'node', context: group, entry: update.entry });
        return;
      case 'order':
        this.changes.fire({ scope: 'context', context: group });
        return;
    }
  }

  private applyState(group: ContextNodes, state: SourceState): void {
    group.state = state;
    this.changes.fire({ scope: 'context', context: group });
  }
}

/**
 * Resolves once every context has listed (or failed) and every node is classified: what the benchmark
 * times from activation. Rejects with the signal's reason when aborted, so a hung API is a finding.
 */
export function waitUntilSettled(model: NodeTreeModel, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason as Error);
      return;
    }
    if (model.isSettled()) {
      resolve();
      return;
    }
    const onAbort = (): void => {
      subscription.dispose();
      reject(signal?.reason as Error);
    };
    const subscription = model.onDidChange(() => {
      if (!model.isSettled()) return;
      subscription.dispose();
      signal?.removeEventListener('abort', onAbort);
      resolve();
    });
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
