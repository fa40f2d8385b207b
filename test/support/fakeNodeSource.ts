// An in-memory NodeSource: what the gateway's NodeWatch does, driven by the test.

import type { KubeNode } from '../../src/core/kube/objects';
import type { NodeSource, SourceChange, SourceState } from '../../src/core/tree/nodeSource';
import { Emitter } from '../../src/core/util/emitter';

/** Generic over the state type so host tests can use it as an infra NodeWatch (WatchState). */
export class FakeNodeSource<S extends SourceState = SourceState> implements NodeSource {
  readonly nodes = new Map<string, KubeNode>();
  state: S = { kind: 'connecting' } as S;
  private readonly nodeEvents = new Emitter<SourceChange>();
  private readonly stateEvents = new Emitter<S>();
  readonly onDidChangeNodes = this.nodeEvents.event;
  readonly onDidChangeState = this.stateEvents.event;
  refreshes = 0;
  disposed = false;

  constructor(readonly context: string) {}

  /** A full list: replaces the store and announces a resync, then synced. */
  list(nodes: KubeNode[], resourceVersion = '1'): void {
    this.nodes.clear();
    for (const n of nodes) this.nodes.set(n.metadata?.name ?? '', n);
    this.nodeEvents.fire({ type: 'resynced' });
    this.setState({ kind: 'synced', resourceVersion } as S);
  }

  upsert(node: KubeNode): void {
    const name = node.metadata?.name ?? '';
    const type = this.nodes.has(name) ? 'modified' : 'added';
    this.nodes.set(name, node);
    this.nodeEvents.fire({ type, node });
  }

  delete(name: string): void {
    const node = this.nodes.get(name);
    if (node === undefined) return;
    this.nodes.delete(name);
    this.nodeEvents.fire({ type: 'deleted', node });
  }

  setState(state: S): void {
    this.state = state;
    this.stateEvents.fire(state);
  }

  refresh(): void {
    this.refreshes++;
  }

  dispose(): void {
    this.disposed = true;
    this.nodeEvents.dispose();
    this.stateEvents.dispose();
  }
}
