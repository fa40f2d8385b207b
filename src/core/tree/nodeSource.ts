// What the tree model needs from a live node list. Structurally satisfied by the infra NodeWatch
// (src/infra/kube/gateway.ts) without core importing infra; tests and the benchmark can feed their own.

import type { KubeNode } from '../kube/objects';
import type { Listener, Subscription } from '../util/emitter';

export interface SourceError {
  kind: string;
  message: string;
  detail?: string;
}

export type SourceState =
  | { kind: 'connecting' }
  | { kind: 'synced'; resourceVersion: string }
  | { kind: 'reconnecting'; attempt: number; delayMs: number; error: SourceError }
  | { kind: 'error'; error: SourceError }
  | { kind: 'stopped' };

export type SourceChange = { type: 'added' | 'modified' | 'deleted'; node: KubeNode } | { type: 'resynced' };

export interface NodeSource {
  readonly context: string;
  readonly nodes: ReadonlyMap<string, KubeNode>;
  readonly state: SourceState;
  onDidChangeNodes(listener: Listener<SourceChange>): Subscription;
  onDidChangeState(listener: Listener<SourceState>): Subscription;
}
