// The namespaced pod requests of the debug-pod way of node access (src/infra/nodeAccess/debugPod): create,
// read, read the log of, delete and list pods, and read a DaemonSet's image. Each is one API request through
// the gateway (its deadline, the caller's signal, failures as KubeRequestError naming verb and resource).
// Paths and bodies as the core/v1 and apps/v1 REST API takes them (kubernetes api/openapi-spec).

import { KubeHttpError } from './errors';
import type { KubeClient } from './kubeClient';
import type { ContainerStateSummary, PodEvent, PodsApi, PodSummary } from './podsTypes';

export type { ContainerStateSummary, PodEvent, PodsApi, PodSummary } from './podsTypes';

/** One request through the gateway, bound to a context (createGateway.ts, Gateway.request). */
export type GatewayRequest = <T>(
  what: { verb: string; resource: string },
  signal: AbortSignal | undefined,
  send: (client: KubeClient, options: { signal: AbortSignal; timeoutMs: number }) => Promise<T>,
) => Promise<T>;

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const rec = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

function reasonAndMessage(o: Record<string, unknown>): { reason?: string; message?: string } {
  const out: { reason?: string; message?: string } = {};
  const reason = str(o['reason']);
  const message = str(o['message']);
  if (reason !== undefined) out.reason = reason;
  if (message !== undefined) out.message = message;
  return out;
}

function containerState(raw: unknown): ContainerStateSummary {
  const c = rec(raw);
  const state = rec(c['state']);
  const out: ContainerStateSummary = { name: str(c['name']) ?? '' };
  if (state['waiting'] !== undefined) {
    const w = rec(state['waiting']);
    out.waiting = reasonAndMessage(w);
  }
  if (state['terminated'] !== undefined) {
    const t = rec(state['terminated']);
    out.terminated = { ...(typeof t['exitCode'] === 'number' ? { exitCode: t['exitCode'] } : {}), ...reasonAndMessage(t) };
  }
  return out;
}

/** A Pod object (as the API returns it) reduced to PodSummary. */
export function podSummary(raw: unknown): PodSummary {
  const pod = rec(raw);
  const meta = rec(pod['metadata']);
  const spec = rec(pod['spec']);
  const status = rec(pod['status']);
  const statuses = Array.isArray(status['containerStatuses']) ? (status['containerStatuses'] as unknown[]) : [];
  const optional: Partial<PodSummary> = {};
  const set = <K extends keyof PodSummary>(k: K, v: PodSummary[K] | undefined): void => {
    if (v !== undefined) optional[k] = v;
  };
  set('uid', str(meta['uid']));
  set('node', str(spec['nodeName']));
  set('phase', str(status['phase']));
  set('reason', str(status['reason']));
  set('message', str(status['message']));
  set('created', str(meta['creationTimestamp']));
  set('activeDeadlineSeconds', typeof spec['activeDeadlineSeconds'] === 'number' ? spec['activeDeadlineSeconds'] : undefined);
  return {
    name: str(meta['name']) ?? '',
    namespace: str(meta['namespace']) ?? '',
    ...optional,
    deleting: meta['deletionTimestamp'] !== undefined && meta['deletionTimestamp'] !== null,
    containers: statuses.map(containerState),
  };
}

function podPath(namespace: string, name?: string): string {
  return `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods${name !== undefined ? `/${encodeURIComponent(name)}` : ''}`;
}

/** True for the gateway's error of a 404 answer. */
function notFound(err: unknown): boolean {
  return (err as { error?: { httpStatus?: unknown } }).error?.httpStatus === 404;
}

function need<T>(method: T | undefined, what: string): T {
  if (method === undefined) throw new Error(`this Kubernetes client cannot send ${what} requests`);
  return method;
}

/**
 * One page (500) of a namespace's pods as the API server sent them: the one pod list, used by the debug
 * pod's client (summarised below) and by KubeGateway.listPods (the agent pod's pick reads labels and
 * readiness, which a summary leaves out).
 */
export async function listPodObjects(request: GatewayRequest, namespace: string, selectors: { labelSelector?: string; fieldSelector?: string }, signal?: AbortSignal): Promise<unknown[]> {
  const list = rec(await request({ verb: 'list', resource: 'pods' }, signal, (client, options) => client.getJson(podPath(namespace), { ...selectors, limit: 500 }, options)));
  return Array.isArray(list['items']) ? (list['items'] as unknown[]) : [];
}

export function createPodsApi(request: GatewayRequest): PodsApi {
  return {
    async createPod(namespace, manifest, signal) {
      const answer = await request({ verb: 'create', resource: 'pods' }, signal, (client, options) => need(client.postJson, 'POST').call(client, podPath(namespace), JSON.stringify(manifest), options));
      return podSummary(answer);
    },
    async getPod(namespace, name, signal) {
      try {
        return podSummary(await request({ verb: 'get', resource: 'pods' }, signal, (client, options) => client.getJson(podPath(namespace, name), {}, options)));
      } catch (err) {
        if (notFound(err)) return undefined;
        throw err;
      }
    },
    async readPodLog(namespace, name, container, { maxBytes, signal }) {
      return request({ verb: 'get', resource: 'pods/log' }, signal, async (client, options) => {
        const path = `${podPath(namespace, name)}/log?container=${encodeURIComponent(container)}`;
        // No text/plain in Accept: the API server's negotiation for this subresource answers 406 to it (only
        // JSON, YAML and protobuf are listed) and streams the log as is for */*, as kubectl's request does.
        const answer = await client.getText(path, { ...options, maxBytes });
        if (answer.status < 200 || answer.status >= 300) throw new KubeHttpError(answer.status, answer.body, `${client.server}${podPath(namespace, name)}/log`);
        return answer.body;
      });
    },
    async deletePod(namespace, name, gracePeriodSeconds, signal) {
      // DeleteOptions (meta/v1): the grace period, and Background propagation (a pod owns nothing).
      const body = JSON.stringify({ kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds, propagationPolicy: 'Background' });
      try {
        await request({ verb: 'delete', resource: 'pods' }, signal, (client, options) => need(client.deleteJson, 'DELETE').call(client, podPath(namespace, name), body, options));
        return true;
      } catch (err) {
        if (notFound(err)) return false;
        throw err;
      }
    },
    async listPods(namespace, labelSelector, signal) {
      return (await listPodObjects(request, namespace, { labelSelector }, signal)).map(podSummary);
    },
    async podEvents(namespace, name, signal) {
      const fieldSelector = `involvedObject.kind=Pod,involvedObject.name=${name}`;
      const list = rec(
        await request({ verb: 'list', resource: 'events' }, signal, (client, options) =>
          client.getJson(`/api/v1/namespaces/${encodeURIComponent(namespace)}/events`, { fieldSelector, limit: 100 }, options),
        ),
      );
      return (Array.isArray(list['items']) ? (list['items'] as unknown[]) : []).map((e): PodEvent => {
        const o = rec(e);
        const out: PodEvent = reasonAndMessage(o);
        const type = str(o['type']);
        if (type !== undefined) out.type = type;
        return out;
      });
    },
    async daemonSetImages(namespace, name, signal) {
      let raw: unknown;
      try {
        raw = await request({ verb: 'get', resource: 'daemonsets' }, signal, (client, options) =>
          client.getJson(`/apis/apps/v1/namespaces/${encodeURIComponent(namespace)}/daemonsets/${encodeURIComponent(name)}`, {}, options),
        );
      } catch (err) {
        if (notFound(err)) return undefined;
        throw err;
      }
      const containers = rec(rec(rec(rec(raw)['spec'])['template'])['spec'])['containers'];
      return (Array.isArray(containers) ? containers : []).map((c) => ({ container: str(rec(c)['name']) ?? '', image: str(rec(c)['image']) ?? '' }));
    },
  };
}
