// The contract between the VS Code layer (or the CLI) and the Kubernetes API. Implemented in this folder
// with @kubernetes/client-node; the host never sees client-node types.

import type { KubeEvent, KubeNode } from '../../core/kube/objects';
import type { Subscription, Listener } from '../../core/util/emitter';
import type { PodsApi } from './podsTypes';
import type { Duplex } from 'node:stream';

export interface ContextInfo {
  name: string;
  cluster: string;
  user: string;
  server: string;
  namespace?: string;
  isCurrent: boolean;
  /** The kubeconfig file that defined this context. */
  source?: string;
}

export type ClusterErrorKind =
  | 'config' // the kubeconfig itself is bad (names the file and the reason)
  | 'unreachable' // connection refused, DNS failure, host unreachable
  | 'timeout' // the API did not answer within the deadline
  | 'tls' // certificate problems
  | 'unauthorized' // 401
  | 'forbidden' // 403: `verb` and `resource` name what RBAC refused
  | 'server' // 5xx or a malformed answer
  | 'other';

export interface ClusterError {
  kind: ClusterErrorKind;
  /** A sentence for the user that names the cause, e.g. "403 Forbidden: cannot watch nodes". */
  message: string;
  verb?: string;
  resource?: string;
  httpStatus?: number;
  /** The underlying error text, for the log. */
  detail?: string;
}

export type WatchState =
  | { kind: 'connecting' }
  | { kind: 'synced'; resourceVersion: string }
  | { kind: 'reconnecting'; attempt: number; delayMs: number; error: ClusterError }
  | { kind: 'error'; error: ClusterError }
  | { kind: 'stopped' };

export type NodeChange =
  | { type: 'added' | 'modified'; node: KubeNode }
  | { type: 'deleted'; node: KubeNode }
  /** A full (re)list replaced the store: read `nodes` again. */
  | { type: 'resynced' };

/** A live, self-healing view of one context's nodes (list, then watch; relist on 410 Gone). */
export interface NodeWatch {
  readonly context: string;
  /** Current nodes by name. */
  readonly nodes: ReadonlyMap<string, KubeNode>;
  readonly state: WatchState;
  onDidChangeNodes(listener: Listener<NodeChange>): Subscription;
  onDidChangeState(listener: Listener<WatchState>): Subscription;
  /** Drops the current watch and lists again. */
  refresh(): void;
  dispose(): void;
}

/**
 * The answer of `GET /api/v1/nodes/{node}/proxy{path}`: the kubelet's own HTTP endpoints (/metrics,
 * /configz, /healthz, /debug/pprof/…) reached through the API server. A deadline that passes is an
 * outcome, not an exception: a kubelet whose /metrics hangs is telling us something.
 */
export type NodeProxyResult =
  | { kind: 'ok'; body: string; ms: number; contentType?: string }
  /** A non-2xx answer; `error` names it (403 → `get` on `nodes/proxy`; 502/503 → the API server cannot reach the kubelet). */
  | { kind: 'httpError'; httpStatus: number; error: ClusterError; body: string; ms: number }
  | { kind: 'timeout'; ms: number }
  /** No HTTP answer at all (connection refused, TLS, …), or the body exceeded maxBytes. */
  | { kind: 'failed'; error: ClusterError; ms: number };

export interface NodeProxyOptions {
  timeoutMs: number;
  /** Abort rejects the promise with an error named 'AbortError'. */
  signal?: AbortSignal;
  /** Bodies larger than this are cut off and reported as failed (default 16 MiB). */
  maxBytes?: number;
}

/** What the last listContexts() read, for messages and for choosing the context as kubectl does. */
export interface KubeconfigSummary {
  /** The files read, in merge order. */
  files: string[];
  /** The files looked for: --kubeconfig, else KUBECONFIG's list, else ~/.kube/config (missing ones skipped). */
  searched: string[];
  /** current-context as kubectl merges it (the first file that sets it), even when no context has that name. */
  currentContext?: string;
}

/** A pod's port to forward to through the API server (pods/portforward). */
export interface PortForwardTarget {
  namespace: string;
  pod: string;
  port: number;
}

export interface KubeGateway {
  /** Every context of every file in KUBECONFIG (or ~/.kube/config). Throws KubeConfigError on bad input. */
  listContexts(): ContextInfo[];
  /** The kubeconfig the last listContexts() read; absent where no kubeconfig file is read (the demo, fakes). */
  kubeconfigSummary?(): KubeconfigSummary;
  /** All of the context's nodes, or only `only.node` (a field selector: one node's panel watches one object). */
  watchNodes(context: string, only?: { node: string }): NodeWatch;
  /** Events whose involvedObject is the node, newest first. */
  listNodeEvents(context: string, node: string, signal?: AbortSignal): Promise<KubeEvent[]>;
  /** Pods scheduled on the node (spec.nodeName field selector), all namespaces. */
  countPods(context: string, node: string, signal?: AbortSignal): Promise<number>;
  /** One Node by name (GET); rejects with a ClusterError-carrying error (404 names the node). */
  getNode(context: string, node: string, signal?: AbortSignal): Promise<KubeNode>;
  /** Cordon (true) or uncordon (false): PATCH spec.unschedulable; resolves with the node as the server now has it. */
  setUnschedulable?(context: string, node: string, unschedulable: boolean, signal?: AbortSignal): Promise<KubeNode>;
  /** `path` starts with '/', may carry a query (e.g. '/debug/pprof/goroutine?debug=2'). */
  nodeProxyGet(context: string, node: string, path: string, options: NodeProxyOptions): Promise<NodeProxyResult>;
  dispose(): void;
  /** Namespaced pod requests of the debug-pod way of node access (create, get, log, delete, list; a DaemonSet's image). */
  podsApi?(context: string): PodsApi;
  /** Pods of one namespace by label and field selector (the JSON items, at most 500); rejects with KubeRequestError. */
  listPods?(context: string, namespace: string, selectors: { labelSelector?: string; fieldSelector?: string }, signal?: AbortSignal): Promise<unknown[]>;
  /**
   * One stream to a pod's port through the API server (`pods/portforward`, ../nodeAccess/agent/portForward.ts);
   * `timeoutMs` bounds opening it. A refusal rejects with KubeRequestError (403 names the grant).
   */
  openPodPortForward?(context: string, target: PortForwardTarget, options: { signal: AbortSignal; timeoutMs: number }): Promise<Duplex>;
}
