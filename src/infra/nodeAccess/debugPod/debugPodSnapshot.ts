// A CRI snapshot of a node through a debug pod: decide the pod (image, socket, manifest and the words that
// confirm it), then run it (runDebugPod) and read the NodeSnapshotReport the pod printed. The caller shows
// the confirmation and only then calls takeDebugPodSnapshot.

import { randomBytes } from 'node:crypto';
import { wayLabel } from '../../../core/nodeAccess/accessWay';
import { debugPodConfirmation, debugPodManifest } from '../../../core/nodeAccess/debugPodSpec';
import type { DebugPodManifest } from '../../../core/nodeAccess/debugPodSpec';
import type { KubeNode } from '../../../core/kube/objects';
import type { Logger } from '../../../core/util/logger';
import { DEFAULT_ENDPOINTS, endpointToSocketPath } from '../../cri/endpoints';
import { KubeRequestError } from '../../kube/createGateway';
import type { PodsApi } from '../../kube/podsApi';
import type { NodeSnapshotReport } from '../../nodeSnapshot/collectNodeSnapshot';
import { DebugPodError, describePodEnd, runDebugPod } from './runDebugPod';
import type { DebugPodTimeouts } from './runDebugPod';

/** deploy/kubernetes/daemonset.yaml: the agent's DaemonSet and container, whose image the debug pod reuses. */
export const AGENT_DAEMONSET = 'pleg-doctor-agent';
export const AGENT_CONTAINER = 'agent';
/** deploy/kubernetes/namespace.yaml: the agent's namespace, the debug pod's default. */
export const DEFAULT_DEBUG_NAMESPACE = 'pleg-doctor';

/** A bad choice the user can fix with an option (the CLI: exit 2). */
export class DebugPodSetupError extends Error {
  override readonly name = 'DebugPodSetupError';
}

/** Five of a-z0-9, as the API server's generateName suffixes are. */
export function randomSuffix(): string {
  const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
  return [...randomBytes(5)].map((b) => alphabet[b % alphabet.length]).join('');
}

/**
 * The image: `--image` when given, else the agent DaemonSet's in the namespace. The project publishes no
 * release image (deploy/kubernetes/kustomization.yaml names the locally built localhost/pleg-doctor-agent:dev
 * and asks for `kustomize edit set image`), so without either there is nothing to fall back to.
 */
export async function resolveDebugImage(api: PodsApi, namespace: string, override: string | undefined, signal: AbortSignal, option = '--image'): Promise<{ image: string; from: string }> {
  if (override !== undefined) return { image: override, from: option };
  let images;
  try {
    images = await api.daemonSetImages(namespace, AGENT_DAEMONSET, signal);
  } catch (err) {
    if (err instanceof KubeRequestError) {
      throw new DebugPodSetupError(`cannot read DaemonSet ${namespace}/${AGENT_DAEMONSET} for its image (${err.error.message}); give the image with ${option}`);
    }
    throw err;
  }
  const image = images?.find((c) => c.container === AGENT_CONTAINER)?.image ?? images?.[0]?.image;
  if (image === undefined || image === '') {
    throw new DebugPodSetupError(
      `no ${AGENT_DAEMONSET} DaemonSet in namespace ${namespace} to take the image from, and PLEG Doctor publishes no release image: give the agent image with ${option} (deploy/image/Dockerfile builds it)`,
    );
  }
  return { image, from: `DaemonSet ${namespace}/${AGENT_DAEMONSET}` };
}

/** `--cri-socket` when given, else the well-known socket of the runtime the Node reports (status.nodeInfo.containerRuntimeVersion). */
export function resolveCriSocket(node: KubeNode, override: string | undefined): string {
  if (override !== undefined) {
    const path = endpointToSocketPath(override);
    if (path === undefined) throw new DebugPodSetupError(`--cri-socket must be a socket path or unix:// endpoint, got ${JSON.stringify(override)}`);
    return path;
  }
  const runtime = node.status?.nodeInfo?.containerRuntimeVersion ?? '';
  const endpoint = runtime.startsWith('containerd://') ? DEFAULT_ENDPOINTS[0] : runtime.startsWith('cri-o://') ? DEFAULT_ENDPOINTS[1] : undefined;
  if (endpoint === undefined) {
    throw new DebugPodSetupError(`node ${node.metadata?.name ?? '?'} reports runtime ${JSON.stringify(runtime || 'unknown')}, whose socket path is not known here: give it with --cri-socket`);
  }
  return endpointToSocketPath(endpoint) as string;
}

export interface DebugPodPlan {
  manifest: DebugPodManifest;
  confirmation: string;
  imageFrom: string;
}

export interface DebugPodPlanRequest {
  node: KubeNode;
  namespace: string;
  image?: string;
  /** How the user gives `image` (the CLI's --image, the editor's setting): named in errors and in imageFrom. */
  imageOption?: string;
  /** Where the agent DaemonSet whose image is reused lives, when not in `namespace` (the editor's agentNamespace). */
  agentNamespace?: string;
  criSocket?: string;
  deadlineSeconds: number;
  callDeadlineMs: number;
}

/** Reads what it needs (the agent DaemonSet's image), creates nothing. */
export async function planDebugPodSnapshot(api: PodsApi, req: DebugPodPlanRequest, signal: AbortSignal): Promise<DebugPodPlan> {
  const nodeName = req.node.metadata?.name ?? '';
  const criSocket = resolveCriSocket(req.node, req.criSocket);
  const { image, from } = await resolveDebugImage(api, req.agentNamespace ?? req.namespace, req.image, signal, req.imageOption);
  let manifest;
  try {
    manifest = debugPodManifest({
      node: nodeName,
      namespace: req.namespace,
      image,
      criSocket,
      run: { kind: 'cri-snapshot', callDeadlineMs: req.callDeadlineMs },
      deadlineSeconds: req.deadlineSeconds,
      suffix: randomSuffix(),
    });
  } catch (err) {
    throw new DebugPodSetupError((err as Error).message);
  }
  return { manifest, confirmation: debugPodConfirmation(manifest), imageFrom: from };
}

/**
 * The report the pod printed: its stdout is one JSON document (localSnapshot.ts) starting at a line that is
 * exactly "{"; the stderr lines the kubelet interleaves into the same log come before it (warnings are
 * logged before the document is written).
 */
export function parseSnapshotLog(log: string): NodeSnapshotReport | undefined {
  const lines = log.split('\n');
  const start = lines.indexOf('{');
  if (start < 0) return undefined;
  let doc: unknown;
  try {
    doc = JSON.parse(lines.slice(start).join('\n'));
  } catch {
    return undefined;
  }
  const r = doc as Partial<NodeSnapshotReport>;
  const s = r.snapshot;
  if (typeof r.host !== 'string' || typeof r.transport !== 'object' || s === undefined || !Array.isArray(s.containers) || !Array.isArray(s.sandboxes) || !Array.isArray(s.errors)) return undefined;
  return doc as NodeSnapshotReport;
}

export type DebugPodSnapshotReport = NodeSnapshotReport & { access: { way: 'debug-pod'; label: string; pod: string; image: string } };

function tail(log: string, lines = 20): string {
  const all = log.trimEnd().split('\n');
  return all.slice(-lines).join('\n');
}

/**
 * Runs the planned pod and returns the report it printed, named as having come through the debug pod. The
 * report of a pod that exited 1 (a snapshot with failed calls, as over SSH) is returned too; a pod whose
 * log holds no report is a DebugPodError with the pod's end and the log's tail.
 */
export async function takeDebugPodSnapshot(
  api: PodsApi,
  manifest: DebugPodManifest,
  options: { logger: Logger; signal: AbortSignal; timeouts?: Partial<DebugPodTimeouts> },
): Promise<{ report: DebugPodSnapshotReport; deleted: boolean }> {
  const outcome = await runDebugPod(api, manifest, options);
  const pod = `${manifest.metadata.namespace}/${manifest.metadata.name}`;
  const report = parseSnapshotLog(outcome.log);
  if (report === undefined) {
    throw new DebugPodError(`debug pod ${pod} ended ${describePodEnd(outcome.pod)} without a snapshot in its log; its last lines:\n${tail(outcome.log) || '(empty log)'}`, outcome.pod, outcome.log);
  }
  const image = manifest.spec.containers[0]?.image ?? '';
  return {
    report: { ...report, host: manifest.spec.nodeName, access: { way: 'debug-pod', label: wayLabel('debug-pod', `${pod} on ${manifest.spec.nodeName}`), pod, image } },
    deleted: outcome.deleted,
  };
}
