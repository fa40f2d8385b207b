// The loopback Kubernetes API stand-in: what tests, the demo and the benchmark can do with it.
// It speaks the real list/watch protocol for the resources PLEG Doctor reads, so the extension cannot
// tell it from a real API server.

import type { KubeEvent, KubeNode } from '../../core/kube/objects';

export type AuthMode =
  | { kind: 'open' }
  /** Every request without this bearer token gets 401. */
  | { kind: 'token'; token: string }
  /** Authenticated, but RBAC refuses these verbs on these resources with 403. */
  | { kind: 'forbid'; rules: { verb: string; resource: string }[] };

export interface ApiServerOptions {
  /** 0 = pick a free port. Always binds 127.0.0.1. */
  port?: number;
  auth?: AuthMode;
  /** Watch bookmarks interval in ms (0 = none). */
  bookmarkIntervalMs?: number;
  nodes?: KubeNode[];
}

export interface PodStub {
  name: string;
  namespace: string;
  nodeName: string;
  phase?: string;
}

export interface FakeApiServer {
  /** e.g. http://127.0.0.1:43123 */
  readonly url: string;
  /** Creates or replaces a node (bumps resourceVersion, emits ADDED or MODIFIED to watchers). */
  upsertNode(node: KubeNode): void;
  deleteNode(name: string): void;
  getNode(name: string): KubeNode | undefined;
  addEvent(event: KubeEvent): void;
  addPod(pod: PodStub): void;
  /** Ends every open watch stream abruptly (the client must reconnect). */
  dropWatches(): void;
  /** Forgets history: watches from an older resourceVersion get a 410 ERROR event. */
  compactHistory(): void;
  setAuth(auth: AuthMode): void;
  /** Requests served, by "METHOD path?query", for assertions. */
  readonly requestLog: readonly string[];
  close(): Promise<void>;
}
