// An in-memory PodsApi for the debug pod's tests: pods are created, move through the phases a script gives,
// answer their log, and go when deleted. Every call is recorded in order.
import type { KubeNode } from '../../src/core/kube/objects';
import type { KubeGateway } from '../../src/infra/kube/gateway';
import type { PodsApi, PodSummary } from '../../src/infra/kube/podsTypes';

export interface FakePodScript {
  /** The phases getPod reports, one per read; the last one stays. */
  phases: Partial<PodSummary>[];
  log?: string;
  /** Reads of getPod after a delete during which the pod is still there (terminating). */
  goneAfterReads?: number;
  /** createPod fails with this (after recording the call). */
  createError?: Error;
  /** deletePod never answers (until its signal aborts). */
  deleteHangs?: boolean;
  daemonSet?: { container: string; image: string }[];
  /** What podEvents answers (an Error: it fails with it). */
  events?: { type?: string; reason?: string; message?: string }[] | Error;
}

export interface FakePodsApi extends PodsApi {
  calls: string[];
  /** The pods that exist now, by name. */
  live: Map<string, PodSummary>;
  created: object[];
}

function abortable<T>(signal: AbortSignal | undefined, value: () => T): Promise<T> {
  if (signal?.aborted === true) return Promise.reject(signal.reason);
  return Promise.resolve(value());
}

export function fakePodsApi(script: FakePodScript): FakePodsApi {
  const calls: string[] = [];
  const live = new Map<string, PodSummary>();
  const created: object[] = [];
  let reads = 0;
  let readsSinceDelete = -1;
  return {
    calls,
    live,
    created,
    async createPod(namespace, manifest, signal) {
      calls.push('create');
      created.push(manifest);
      if (script.createError !== undefined) throw script.createError;
      const name = (manifest as { metadata: { name: string } }).metadata.name;
      const pod: PodSummary = { name, namespace, deleting: false, containers: [], phase: 'Pending' };
      return abortable(signal, () => {
        live.set(name, pod);
        return pod;
      });
    },
    async getPod(namespace, name, signal) {
      calls.push('get');
      return abortable(signal, () => {
        const pod = live.get(name);
        if (pod === undefined) return undefined;
        if (readsSinceDelete >= 0) {
          readsSinceDelete++;
          if (readsSinceDelete > (script.goneAfterReads ?? 0)) {
            live.delete(name);
            return undefined;
          }
          return { ...pod, deleting: true };
        }
        const step = script.phases[Math.min(reads, script.phases.length - 1)] ?? {};
        reads++;
        Object.assign(pod, step);
        return { ...pod };
      });
    },
    async readPodLog(_ns, _name, container, { signal }) {
      calls.push(`log:${container}`);
      return abortable(signal, () => script.log ?? '');
    },
    async deletePod(_ns, name, grace, signal) {
      calls.push(`delete:${grace}`);
      if (script.deleteHangs === true) {
        await new Promise((_resolve, reject) => signal?.addEventListener('abort', () => reject(signal.reason), { once: true }));
      }
      if (!live.has(name)) return false;
      readsSinceDelete = 0;
      return true;
    },
    async listPods() {
      calls.push('list');
      return [...live.values()];
    },
    async podEvents() {
      calls.push('events');
      if (script.events instanceof Error) throw script.events;
      return script.events ?? [];
    },
    async daemonSetImages() {
      calls.push('daemonset');
      return script.daemonSet;
    },
  };
}

/** A gateway of one context whose only working parts are `getNode` (answering `node`) and the fake's pods API. */
export function fakePodsGateway(api: FakePodsApi, node: KubeNode): KubeGateway {
  const no = (): never => {
    throw new Error('not used');
  };
  return {
    listContexts: () => [{ name: 'ctx', cluster: 'c', user: 'u', server: 'https://127.0.0.1:6443', isCurrent: true }],
    watchNodes: no,
    listNodeEvents: no,
    countPods: no,
    getNode: () => Promise.resolve(node),
    nodeProxyGet: no,
    podsApi: () => api,
    dispose: () => undefined,
  };
}
