// One kubeconfig context's nodes, classified and kept in display order. Entries are long-lived objects
// (the host hands them to VS Code as tree elements and refreshes them by identity), so updates mutate
// them in place instead of replacing them.

import type { NodeClassification } from '../classify/types';
import type { KubeNode } from '../kube/objects';
import type { SourceState } from './nodeSource';
import { compareNodes } from './nodeOrder';
import { isUnhealthy } from './verdictPresentation';

export type ClassifyFn = (node: KubeNode, now: Date) => NodeClassification;

export interface NodeEntry {
  readonly kind: 'node';
  readonly context: string;
  readonly name: string;
  node: KubeNode;
  classification: NodeClassification;
}

export interface ContextCounts {
  total: number;
  unhealthy: number;
  pleg: number;
}

/** What an update did, so the host can refresh as little as possible. */
export type EntryUpdate =
  | { kind: 'none' } // nothing visible changed
  | { kind: 'entry'; entry: NodeEntry } // only this row's text changed; its position did not
  | { kind: 'order' }; // rows were added, removed or moved: refresh the whole context

export interface ContextInfoLike {
  name: string;
  isCurrent: boolean;
  server?: string;
}

/** Everything a row shows from its classification; equal keys mean nothing to redraw. */
function visibleKey(c: NodeClassification): string {
  return JSON.stringify([c.verdict, c.readyStatus, c.readyReason, c.since, c.cordoned, c.pressures, c.message, c.plegLastSeenAgoSeconds, c.versions, c.pods, c.taints, c.warnings]);
}

export class ContextNodes {
  readonly kind = 'context' as const;
  readonly name: string;
  isCurrent: boolean;
  server: string | undefined;
  state: SourceState = { kind: 'connecting' };
  private readonly entries = new Map<string, NodeEntry>();
  private sorted: NodeEntry[] | undefined;
  private cachedCounts: ContextCounts | undefined;

  constructor(
    info: ContextInfoLike,
    private readonly classify: ClassifyFn,
  ) {
    this.name = info.name;
    this.isCurrent = info.isCurrent;
    this.server = info.server;
  }

  get size(): number {
    return this.entries.size;
  }

  get(name: string): NodeEntry | undefined {
    return this.entries.get(name);
  }

  upsert(node: KubeNode, now: Date): EntryUpdate {
    const name = node.metadata?.name;
    if (name === undefined || name === '') return { kind: 'none' };
    const classification = this.safeClassify(node, now, name);
    const existing = this.entries.get(name);
    if (existing === undefined) {
      this.entries.set(name, { kind: 'node', context: this.name, name, node, classification });
      this.invalidate();
      return { kind: 'order' };
    }
    const before = existing.classification;
    existing.node = node;
    existing.classification = classification;
    if (before.verdict !== classification.verdict) {
      this.invalidate();
      return { kind: 'order' };
    }
    return visibleKey(before) === visibleKey(classification) ? { kind: 'none' } : { kind: 'entry', entry: existing };
  }

  remove(name: string): EntryUpdate {
    if (!this.entries.delete(name)) return { kind: 'none' };
    this.invalidate();
    return { kind: 'order' };
  }

  /** A full relist: keep the entry objects of nodes that survived, drop the rest. */
  replaceAll(nodes: Iterable<KubeNode>, now: Date): EntryUpdate {
    const seen = new Set<string>();
    for (const node of nodes) {
      const name = node.metadata?.name;
      if (name === undefined || name === '') continue;
      seen.add(name);
      const classification = this.safeClassify(node, now, name);
      const existing = this.entries.get(name);
      if (existing === undefined) this.entries.set(name, { kind: 'node', context: this.name, name, node, classification });
      else {
        existing.node = node;
        existing.classification = classification;
      }
    }
    for (const name of [...this.entries.keys()]) if (!seen.has(name)) this.entries.delete(name);
    this.invalidate();
    return { kind: 'order' };
  }

  clear(): void {
    this.entries.clear();
    this.invalidate();
  }

  /** Display order: unhealthy first. With `onlyUnhealthy`, healthy nodes are left out. */
  rows(onlyUnhealthy = false): readonly NodeEntry[] {
    this.sorted ??= [...this.entries.values()].sort((a, b) => compareNodes(a.classification, b.classification));
    return onlyUnhealthy ? this.sorted.filter((e) => isUnhealthy(e.classification.verdict)) : this.sorted;
  }

  counts(): ContextCounts {
    if (this.cachedCounts === undefined) {
      const counts = { total: 0, unhealthy: 0, pleg: 0 };
      for (const e of this.entries.values()) {
        counts.total++;
        if (isUnhealthy(e.classification.verdict)) counts.unhealthy++;
        if (e.classification.verdict === 'pleg') counts.pleg++;
      }
      this.cachedCounts = counts;
    }
    return this.cachedCounts;
  }

  private invalidate(): void {
    this.sorted = undefined;
    this.cachedCounts = undefined;
  }

  /** classifyNode promises never to throw; if it does anyway the node stays visible with the reason. */
  private safeClassify(node: KubeNode, now: Date, name: string): NodeClassification {
    try {
      return this.classify(node, now);
    } catch (err) {
      return {
        name,
        verdict: 'not-ready-other',
        summary: 'classification failed',
        message: '',
        readyStatus: 'missing',
        cordoned: node.spec?.unschedulable === true,
        pressures: [],
        errors: [],
        versions: {},
        pods: {},
        taints: [],
        warnings: [`classification failed: ${err instanceof Error ? err.message : String(err)}`],
      };
    }
  }
}
