// Realistic Node objects, shaped like what a kubelet 1.28–1.32 posts (and the node controller amends), so that
// the demo, the tests and the benchmark exercise the same sizes and fields as a real cluster. A real node
// object is 10–25 KB of JSON, mostly managedFields and the image list; both are here on purpose.

import type { KubeNode, NodeCondition, Taint } from '../core/kube/objects';

export interface NodeSpecOptions {
  name: string;
  /** Deterministic variation (IPs, image digests, boot ids). Defaults to a hash of the name. */
  seed?: number;
  kubeletVersion?: string;
  containerRuntimeVersion?: string;
  /** The creation and heartbeat reference time. */
  now?: Date;
  /** Number of images in status.images (real nodes carry up to 50). */
  imageCount?: number;
  zone?: string;
  instanceType?: string;
}

/** A Node object as the API serves it; a superset of KubeNode with the bulky fields real nodes carry. */
export type FullNode = KubeNode & Record<string, unknown>;

const MINUTE = 60_000;

function hashName(name: string): number {
  let h = 2166136261;
  for (let i = 0; i < name.length; i++) {
    h ^= name.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

/** xorshift32: deterministic so fixtures and benchmarks are reproducible. */
function rng(seed: number): () => number {
  let x = seed || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}

function hex(rand: () => number, length: number): string {
  let out = '';
  while (out.length < length) out += Math.floor(rand() * 16).toString(16);
  return out;
}

function uuid(rand: () => number): string {
  const h = hex(rand, 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** Kubernetes timestamps are RFC 3339 with second precision. */
export function kubeTime(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

const IMAGE_NAMES = [
  'registry.k8s.io/kube-proxy',
  'docker.io/calico/node',
  'docker.io/calico/cni',
  'registry.k8s.io/pause',
  'registry.k8s.io/coredns/coredns',
  'quay.io/prometheus/node-exporter',
  'docker.io/library/nginx',
  'docker.io/library/redis',
  'docker.io/library/postgres',
  'ghcr.io/fluxcd/source-controller',
  'quay.io/jetstack/cert-manager-controller',
  'registry.k8s.io/ingress-nginx/controller',
  'docker.io/grafana/promtail',
  'registry.k8s.io/metrics-server/metrics-server',
  'docker.io/bitnami/kafka',
  'docker.io/library/busybox',
  'gcr.io/distroless/static',
  'docker.io/envoyproxy/envoy',
  'quay.io/cilium/cilium',
  'docker.io/library/python',
];

function images(rand: () => number, count: number): { names: string[]; sizeBytes: number }[] {
  const out: { names: string[]; sizeBytes: number }[] = [];
  for (let i = 0; i < count; i++) {
    const base = IMAGE_NAMES[i % IMAGE_NAMES.length] ?? 'docker.io/library/busybox';
    const tag = `v1.${Math.floor(rand() * 30)}.${Math.floor(rand() * 10)}`;
    const digest = `sha256:${hex(rand, 64)}`;
    out.push({ names: [`${base}@${digest}`, `${base}:${tag}`], sizeBytes: 700_000 + Math.floor(rand() * 400_000_000) });
  }
  return out;
}

function managedFields(time: string, kubeletVersion: string): unknown[] {
  // The shape (not the exact content) of the server-side-apply bookkeeping a real node carries.
  return [
    {
      manager: 'kubeadm',
      operation: 'Update',
      apiVersion: 'v1',
      time,
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:metadata': { 'f:annotations': { 'f:kubeadm.alpha.kubernetes.io/cri-socket': {} } } },
    },
    {
      manager: 'kube-controller-manager',
      operation: 'Update',
      apiVersion: 'v1',
      time,
      fieldsType: 'FieldsV1',
      fieldsV1: {
        'f:metadata': { 'f:annotations': { 'f:node.alpha.kubernetes.io/ttl': {} } },
        'f:spec': { 'f:podCIDR': {}, 'f:podCIDRs': { '.': {} } },
      },
    },
    {
      manager: `kubelet/${kubeletVersion}`,
      operation: 'Update',
      apiVersion: 'v1',
      time,
      fieldsType: 'FieldsV1',
      subresource: 'status',
      fieldsV1: {
        'f:status': {
          'f:allocatable': { 'f:cpu': {}, 'f:ephemeral-storage': {}, 'f:memory': {}, 'f:pods': {} },
          'f:capacity': { 'f:cpu': {}, 'f:ephemeral-storage': {}, 'f:memory': {}, 'f:pods': {} },
          'f:conditions': {
            'k:{"type":"DiskPressure"}': { 'f:lastHeartbeatTime': {}, 'f:lastTransitionTime': {}, 'f:message': {}, 'f:reason': {}, 'f:status': {} },
            'k:{"type":"MemoryPressure"}': { 'f:lastHeartbeatTime': {}, 'f:lastTransitionTime': {}, 'f:message': {}, 'f:reason': {}, 'f:status': {} },
            'k:{"type":"PIDPressure"}': { 'f:lastHeartbeatTime': {}, 'f:lastTransitionTime': {}, 'f:message': {}, 'f:reason': {}, 'f:status': {} },
            'k:{"type":"Ready"}': { 'f:lastHeartbeatTime': {}, 'f:lastTransitionTime': {}, 'f:message': {}, 'f:reason': {}, 'f:status': {} },
          },
          'f:images': {},
          'f:nodeInfo': { 'f:bootID': {}, 'f:containerRuntimeVersion': {}, 'f:kernelVersion': {}, 'f:kubeletVersion': {} },
        },
      },
    },
  ];
}

/** A healthy node as a kubelet posts it: Ready=True/KubeletReady, no pressure, realistic bulk. */
export function makeNode(options: NodeSpecOptions): FullNode {
  const seed = options.seed ?? hashName(options.name);
  const rand = rng(seed);
  const now = options.now ?? new Date();
  const created = kubeTime(new Date(now.getTime() - (30 + Math.floor(rand() * 90 * 24 * 60)) * MINUTE));
  const heartbeat = kubeTime(new Date(now.getTime() - Math.floor(rand() * 10_000)));
  const kubeletVersion = options.kubeletVersion ?? 'v1.32.4';
  const runtime = options.containerRuntimeVersion ?? 'containerd://1.7.24';
  const ip = `10.${(seed >>> 16) & 0xff}.${(seed >>> 8) & 0xff}.${(seed & 0xfd) + 2}`;
  const zone = options.zone ?? `eu-west-1${'abc'[seed % 3] ?? 'a'}`;
  const instanceType = options.instanceType ?? 'm6i.2xlarge';
  const condition = (type: string, reason: string, message: string): NodeCondition => ({
    type,
    status: 'False',
    lastHeartbeatTime: heartbeat,
    lastTransitionTime: created,
    reason,
    message,
  });
  return {
    kind: 'Node',
    apiVersion: 'v1',
    metadata: {
      name: options.name,
      uid: uuid(rand),
      creationTimestamp: created,
      labels: {
        'beta.kubernetes.io/arch': 'amd64',
        'beta.kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'kubernetes.io/hostname': options.name,
        'kubernetes.io/os': 'linux',
        'node.kubernetes.io/instance-type': instanceType,
        'topology.kubernetes.io/region': zone.slice(0, -1),
        'topology.kubernetes.io/zone': zone,
        'node-role.kubernetes.io/worker': '',
      },
      annotations: {
        'kubeadm.alpha.kubernetes.io/cri-socket': 'unix:///var/run/containerd/containerd.sock',
        'node.alpha.kubernetes.io/ttl': '0',
        'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
        'projectcalico.org/IPv4Address': `${ip}/20`,
        'csi.volume.kubernetes.io/nodeid': JSON.stringify({ 'ebs.csi.aws.com': `i-${hex(rand, 17)}` }),
      },
      managedFields: managedFields(created, kubeletVersion),
    } as NonNullable<FullNode['metadata']>,
    spec: {
      podCIDR: `192.168.${seed & 0xff}.0/24`,
      podCIDRs: [`192.168.${seed & 0xff}.0/24`],
      providerID: `aws:///${zone}/i-${hex(rand, 17)}`,
    } as NonNullable<FullNode['spec']>,
    status: {
      capacity: { cpu: '8', 'ephemeral-storage': '104845292Ki', 'hugepages-1Gi': '0', 'hugepages-2Mi': '0', memory: '32386524Ki', pods: '110' },
      allocatable: { cpu: '7910m', 'ephemeral-storage': '95551679124', 'hugepages-1Gi': '0', 'hugepages-2Mi': '0', memory: '31236572Ki', pods: '110' },
      conditions: [
        condition('MemoryPressure', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
        condition('DiskPressure', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
        condition('PIDPressure', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
        { ...condition('Ready', 'KubeletReady', 'kubelet is posting ready status'), status: 'True' },
      ],
      addresses: [
        { type: 'InternalIP', address: ip },
        { type: 'InternalDNS', address: `ip-${ip.replaceAll('.', '-')}.${zone.slice(0, -1)}.compute.internal` },
        { type: 'Hostname', address: options.name },
      ],
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      nodeInfo: {
        machineID: hex(rand, 32),
        systemUUID: uuid(rand).toUpperCase(),
        bootID: uuid(rand),
        kernelVersion: '6.1.0-27-cloud-amd64',
        osImage: 'Debian GNU/Linux 12 (bookworm)',
        containerRuntimeVersion: runtime,
        kubeletVersion,
        kubeProxyVersion: kubeletVersion,
        operatingSystem: 'linux',
        architecture: 'amd64',
      },
      images: images(rand, options.imageCount ?? 50),
    } as NonNullable<FullNode['status']>,
  };
}

function clone<T>(value: T): T {
  return structuredClone(value);
}

function setReady(node: FullNode, patch: NodeCondition, at: Date): FullNode {
  const next = clone(node);
  const conditions = next.status?.conditions ?? [];
  const stamp = kubeTime(at);
  const ready = conditions.find((c) => c.type === 'Ready');
  const changed = !ready || ready.status !== patch.status;
  const merged: NodeCondition = {
    ...ready,
    ...patch,
    type: 'Ready',
    lastHeartbeatTime: patch.lastHeartbeatTime ?? stamp,
    lastTransitionTime: changed ? stamp : (ready?.lastTransitionTime ?? stamp),
  };
  if (ready) Object.assign(ready, merged);
  else conditions.push(merged);
  next.status = { ...next.status, conditions };
  return next;
}

function withTaints(node: FullNode, add: Taint[], removeKeys: string[]): FullNode {
  const spec = node.spec ?? {};
  const kept = (spec.taints ?? []).filter((t) => !removeKeys.includes(t.key ?? '') && !add.some((a) => a.key === t.key && a.effect === t.effect));
  const taints = [...kept, ...add];
  const nextSpec = { ...spec };
  if (taints.length > 0) nextSpec.taints = taints;
  else delete nextSpec.taints;
  node.spec = nextSpec;
  return node;
}

const NOT_READY = 'node.kubernetes.io/not-ready';
const UNREACHABLE = 'node.kubernetes.io/unreachable';

function notReadyTaints(node: FullNode, at: Date): FullNode {
  const timeAdded = kubeTime(at);
  return withTaints(
    node,
    [
      { key: NOT_READY, effect: 'NoSchedule' },
      { key: NOT_READY, effect: 'NoExecute', timeAdded },
    ],
    [UNREACHABLE],
  );
}

/** The message the kubelet 1.32 prints, e.g. "3m4.612899233s" for 184.612899233 s. */
export function plegMessage(lastSeenAgo = '3m4.612899233s', threshold = '3m0s'): string {
  return `PLEG is not healthy: pleg was last seen active ${lastSeenAgo} ago; threshold is ${threshold}`;
}

/** Ready=False/KubeletNotReady with the stale-relist message, plus the not-ready taints. */
export function withPlegNotReady(node: FullNode, options: { lastSeenAgo?: string; threshold?: string; at?: Date } = {}): FullNode {
  const at = options.at ?? new Date();
  const next = setReady(node, { status: 'False', reason: 'KubeletNotReady', message: plegMessage(options.lastSeenAgo, options.threshold) }, at);
  return notReadyTaints(next, at);
}

/** CRI Status failing for more than 30 s; the kubelet usually reports PLEG too, joined in brackets. */
export function withRuntimeDown(node: FullNode, options: { withPleg?: boolean; at?: Date } = {}): FullNode {
  const at = options.at ?? new Date();
  const message = options.withPleg
    ? `[container runtime is down, ${plegMessage()}]`
    : 'container runtime is down';
  return notReadyTaints(setReady(node, { status: 'False', reason: 'KubeletNotReady', message }, at), at);
}

/** The node controller's verdict when the kubelet stops heartbeating: every kubelet condition goes Unknown. */
export function withLeaseLost(node: FullNode, at = new Date()): FullNode {
  const next = clone(node);
  const stamp = kubeTime(at);
  for (const c of next.status?.conditions ?? []) {
    const wasUnknown = c.status === 'Unknown';
    c.status = 'Unknown';
    c.reason = 'NodeStatusUnknown';
    c.message = 'Kubelet stopped posting node status.';
    if (!wasUnknown) c.lastTransitionTime = stamp;
  }
  return withTaints(
    next,
    [
      { key: UNREACHABLE, effect: 'NoSchedule', timeAdded: stamp },
      { key: UNREACHABLE, effect: 'NoExecute', timeAdded: stamp },
    ],
    [NOT_READY],
  );
}

/** The CNI plugin is not ready (the runtime reports NetworkReady=false). */
export function withNetworkNotReady(node: FullNode, at = new Date()): FullNode {
  const message =
    'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized';
  const next = setReady(node, { status: 'False', reason: 'KubeletNotReady', message }, at);
  const conditions = next.status?.conditions ?? [];
  if (!conditions.some((c) => c.type === 'NetworkUnavailable')) {
    conditions.unshift({
      type: 'NetworkUnavailable',
      status: 'True',
      reason: 'NoRouteCreated',
      message: 'Node created without a route',
      lastHeartbeatTime: kubeTime(at),
      lastTransitionTime: kubeTime(at),
    });
  }
  return notReadyTaints(next, at);
}

/** `kubectl cordon`: unschedulable plus the unschedulable taint. */
export function withCordoned(node: FullNode, at = new Date()): FullNode {
  const next = clone(node);
  next.spec = { ...next.spec, unschedulable: true };
  return withTaints(next, [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule', timeAdded: kubeTime(at) }], []);
}

/** Back to Ready=True/KubeletReady, not-ready and unreachable taints removed. */
export function withReady(node: FullNode, at = new Date()): FullNode {
  const next = clone(node);
  const stamp = kubeTime(at);
  const healthy: Record<string, [string, string, string]> = {
    MemoryPressure: ['False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'],
    DiskPressure: ['False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'],
    PIDPressure: ['False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'],
    Ready: ['True', 'KubeletReady', 'kubelet is posting ready status'],
  };
  const conditions = (next.status?.conditions ?? []).filter((c) => c.type !== 'NetworkUnavailable');
  for (const c of conditions) {
    const want = healthy[c.type ?? ''];
    if (!want) continue;
    if (c.status !== want[0]) c.lastTransitionTime = stamp;
    [c.status, c.reason, c.message] = want;
    c.lastHeartbeatTime = stamp;
  }
  next.status = { ...next.status, conditions };
  return withTaints(next, [], [NOT_READY, UNREACHABLE]);
}

/** `count` nodes named `${prefix}-00001`…, every `plegEvery`-th one PLEG-NotReady (0 = none). */
export function makeFleet(count: number, options: { prefix?: string; plegEvery?: number; now?: Date; imageCount?: number } = {}): FullNode[] {
  const width = Math.max(5, String(count).length);
  const now = options.now ?? new Date();
  const nodes: FullNode[] = [];
  for (let i = 1; i <= count; i++) {
    const spec: NodeSpecOptions = { name: `${options.prefix ?? 'node'}-${String(i).padStart(width, '0')}`, now };
    if (options.imageCount !== undefined) spec.imageCount = options.imageCount;
    let node = makeNode(spec);
    if (options.plegEvery && i % options.plegEvery === 0) node = withPlegNotReady(node, { at: now });
    nodes.push(node);
  }
  return nodes;
}
