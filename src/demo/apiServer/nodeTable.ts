// The server-side printing kubectl asks for (`Accept: application/json;as=Table;v=v1;g=meta.k8s.io`), so
// `kubectl get nodes` against the stand-in shows the same STATUS/ROLES/AGE/VERSION columns as a real cluster.

import type { KubeNode } from '../../core/kube/objects';

const COLUMNS = [
  { name: 'Name', type: 'string', format: 'name', description: 'Name must be unique within a namespace.', priority: 0 },
  { name: 'Status', type: 'string', format: '', description: 'The status of the node', priority: 0 },
  { name: 'Roles', type: 'string', format: '', description: 'The roles of the node', priority: 0 },
  { name: 'Age', type: 'string', format: '', description: 'CreationTimestamp is a timestamp representing the server time when this object was created.', priority: 0 },
  { name: 'Version', type: 'string', format: '', description: 'Kubelet Version reported by the node.', priority: 0 },
  { name: 'Internal-IP', type: 'string', format: '', description: 'List of addresses reachable to the node.', priority: 1 },
  { name: 'External-IP', type: 'string', format: '', description: 'List of addresses reachable to the node.', priority: 1 },
  { name: 'OS-Image', type: 'string', format: '', description: 'OS Image reported by the node from /etc/os-release.', priority: 1 },
  { name: 'Kernel-Version', type: 'string', format: '', description: 'Kernel Version reported by the node.', priority: 1 },
  { name: 'Container-Runtime', type: 'string', format: '', description: 'ContainerRuntime Version reported by the node.', priority: 1 },
];

/** True when the client prefers a meta.k8s.io Table (kubectl's default for `get`). */
export function wantsTable(accept: string | undefined): boolean {
  return (accept ?? '').split(',')[0]?.includes('as=Table') ?? false;
}

/** kubectl's short age form: 45s, 12m, 5h, 3d, 2y. */
export function shortAge(from: string | Date | undefined, now: Date): string {
  if (from === undefined) return '<unknown>';
  const seconds = Math.max(0, Math.floor((now.getTime() - new Date(from).getTime()) / 1000));
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 120) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours}h`;
  const days = Math.floor(hours / 24);
  return days < 730 ? `${days}d` : `${Math.floor(days / 365)}y`;
}

function nodeStatus(node: KubeNode): string {
  const ready = node.status?.conditions?.find((c) => c.type === 'Ready');
  const base = ready?.status === 'True' ? 'Ready' : ready?.status === 'False' ? 'NotReady' : 'Unknown';
  return node.spec?.unschedulable ? `${base},SchedulingDisabled` : base;
}

function roles(node: KubeNode): string {
  const prefix = 'node-role.kubernetes.io/';
  const found = Object.keys(node.metadata?.labels ?? {})
    .filter((k) => k.startsWith(prefix))
    .map((k) => k.slice(prefix.length))
    .sort();
  return found.length > 0 ? found.join(',') : '<none>';
}

function address(node: KubeNode, type: string): string {
  return node.status?.addresses?.find((a) => a.type === type)?.address ?? '<none>';
}

export function nodeTable(nodes: readonly KubeNode[], listMeta: Record<string, unknown>, includeObject: string | null, now = new Date()): unknown {
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: listMeta,
    columnDefinitions: COLUMNS,
    rows: nodes.map((node) => ({
      cells: [
        node.metadata?.name ?? '',
        nodeStatus(node),
        roles(node),
        shortAge(node.metadata?.creationTimestamp, now),
        node.status?.nodeInfo?.kubeletVersion ?? '',
        address(node, 'InternalIP'),
        address(node, 'ExternalIP'),
        node.status?.nodeInfo?.osImage ?? '',
        node.status?.nodeInfo?.kernelVersion ?? '',
        node.status?.nodeInfo?.containerRuntimeVersion ?? '',
      ],
      object:
        includeObject === 'Object'
          ? node
          : includeObject === 'None'
            ? null
            : { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: node.metadata ?? {} },
    })),
  };
}
