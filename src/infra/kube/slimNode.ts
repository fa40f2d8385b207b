// What the product keeps of a Node. A real node object is 10–25 KB, mostly managedFields and the image
// list; at 5,000 nodes that is the difference between tens and hundreds of megabytes. This keeps the
// fields the classification, the tree and the details read (src/core/kube/objects.ts) and drops the rest.

import type { KubeNode, NodeCondition, NodeSystemInfo, ObjectMeta, Taint } from '../../core/kube/objects';

/** Annotations that are large and never read by PLEG Doctor. */
const DROPPED_ANNOTATIONS = new Set(['kubectl.kubernetes.io/last-applied-configuration']);

function str(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (value instanceof Date) return value.toISOString();
  return undefined;
}

function stringMap(value: unknown, drop?: Set<string>): Record<string, string> | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) if (typeof v === 'string' && !drop?.has(k)) out[k] = v;
  return out;
}

function put<T extends object, K extends keyof T>(target: T, key: K, value: T[K] | undefined): void {
  if (value !== undefined) target[key] = value;
}

function meta(raw: Record<string, unknown>): ObjectMeta {
  const m: ObjectMeta = {};
  put(m, 'name', str(raw['name']));
  put(m, 'uid', str(raw['uid']));
  put(m, 'resourceVersion', str(raw['resourceVersion']));
  put(m, 'creationTimestamp', str(raw['creationTimestamp']));
  put(m, 'labels', stringMap(raw['labels']));
  put(m, 'annotations', stringMap(raw['annotations'], DROPPED_ANNOTATIONS));
  return m;
}

function condition(raw: Record<string, unknown>): NodeCondition {
  const c: NodeCondition = {};
  put(c, 'type', str(raw['type']));
  put(c, 'status', str(raw['status']));
  put(c, 'reason', str(raw['reason']));
  put(c, 'message', str(raw['message']));
  put(c, 'lastHeartbeatTime', str(raw['lastHeartbeatTime']));
  put(c, 'lastTransitionTime', str(raw['lastTransitionTime']));
  return c;
}

function taint(raw: Record<string, unknown>): Taint {
  const t: Taint = {};
  put(t, 'key', str(raw['key']));
  put(t, 'value', str(raw['value']));
  put(t, 'effect', str(raw['effect']));
  put(t, 'timeAdded', str(raw['timeAdded']));
  return t;
}

const INFO_KEYS: (keyof NodeSystemInfo)[] = ['kubeletVersion', 'containerRuntimeVersion', 'kernelVersion', 'osImage', 'operatingSystem', 'architecture', 'bootID', 'machineID'];

function records(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter((v): v is Record<string, unknown> => typeof v === 'object' && v !== null) : [];
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

/** A compact copy of a Node as served by the API (or deserialized by client-node). */
export function slimNode(raw: unknown): KubeNode {
  const obj = record(raw);
  const spec = record(obj['spec']);
  const status = record(obj['status']);
  const node: KubeNode = { metadata: meta(record(obj['metadata'])) };
  const s: NonNullable<KubeNode['spec']> = {};
  if (typeof spec['unschedulable'] === 'boolean') s.unschedulable = spec['unschedulable'];
  if (Array.isArray(spec['taints'])) s.taints = records(spec['taints']).map(taint);
  put(s, 'podCIDR', str(spec['podCIDR']));
  put(s, 'providerID', str(spec['providerID']));
  node.spec = s;
  const st: NonNullable<KubeNode['status']> = {};
  if (Array.isArray(status['conditions'])) st.conditions = records(status['conditions']).map(condition);
  if (Array.isArray(status['addresses'])) {
    st.addresses = records(status['addresses']).map((a) => {
      const out: { type?: string; address?: string } = {};
      put(out, 'type', str(a['type']));
      put(out, 'address', str(a['address']));
      return out;
    });
  }
  const info = record(status['nodeInfo']);
  const ni: NodeSystemInfo = {};
  for (const key of INFO_KEYS) put(ni, key, str(info[key]));
  st.nodeInfo = ni;
  put(st, 'capacity', stringMap(status['capacity']));
  put(st, 'allocatable', stringMap(status['allocatable']));
  node.status = st;
  return node;
}
