// The node's agent pod (deploy/kubernetes) reached through the API server: found by listing its namespace
// (label and spec.nodeName), then each read of its HTTP API (docs/agent.md) over its own pod port-forward.
// Never nodes/proxy: the grants are `list pods` and `get`/`create pods/portforward` in the agent's
// namespace only (docs/node-access.md says why the pods proxy is not used).

import { wayLabel } from '../../../core/nodeAccess/accessWay';
import { AGENT_POD_LABEL_SELECTOR, AGENT_PORT, pickAgentPod, type AgentPodPick, type AgentPodRef } from '../../../core/nodeAccess/agentPod';
import { sinceStep, type SinceStep } from '../../../core/nodeAccess/agentReads';
import type { NodeSideEvidence, Fetched } from '../../../core/diagnose/evidence';
import { parseTimelineSession } from '../../../core/timeline/validate';
import type { TimelineSession } from '../../../core/timeline/session';
import { errorText } from '../../../core/util/errorText';
import { KubeRequestError } from '../../kube/createGateway';
import type { ClusterError, KubeGateway } from '../../kube/gateway';
import { agentGet, type AgentAnswer } from './agentHttp';

/** Opening one forward (credentials, the API server, the kubelet, the runtime's dial). */
export const AGENT_OPEN_TIMEOUT_MS = 10_000;
/** One answer end to end; the agent itself bounds a request to 10 s (agentServer.ts REQUEST_DEADLINE_MS). */
export const AGENT_REQUEST_TIMEOUT_MS = 20_000;
const MAX_ANSWER_BYTES = 32 * 1024 * 1024;

/** Node access through the agent failed; `grant` is the RBAC grant that was missing, when that is why. */
export class AgentAccessError extends Error {
  constructor(
    message: string,
    readonly grant?: string,
  ) {
    super(message);
    this.name = 'AgentAccessError';
  }
}

/** A refusal as a sentence that names the grant and the namespace it is needed in. */
function refused(error: ClusterError, namespace: string, fallback: { verb: string; resource: string }): AgentAccessError {
  if (error.kind === 'forbidden') {
    const grant = `${error.verb ?? fallback.verb} ${error.resource ?? fallback.resource} in namespace ${namespace}`;
    return new AgentAccessError(`403 Forbidden: cannot ${grant} (node access through the agent needs that grant; see docs/node-access.md)`, grant);
  }
  return new AgentAccessError(error.message);
}

function abortedOr(signal: AbortSignal, err: unknown): unknown {
  return signal.aborted ? (signal.reason ?? err) : err;
}

/** The Running, ready agent pod on `node`, or why there is none. A refused list rejects (AgentAccessError naming the grant). */
export async function findAgentPod(gateway: KubeGateway, context: string, node: string, namespace: string, signal: AbortSignal): Promise<AgentPodPick> {
  if (gateway.listPods === undefined) throw new AgentAccessError('this cluster connection cannot list pods');
  try {
    const items = await gateway.listPods(context, namespace, { labelSelector: AGENT_POD_LABEL_SELECTOR, fieldSelector: `spec.nodeName=${node}` }, signal);
    return pickAgentPod(items, node, namespace);
  } catch (err) {
    if (err instanceof KubeRequestError) throw refused(err.error, namespace, { verb: 'list', resource: 'pods' });
    throw abortedOr(signal, err);
  }
}

export interface AgentDiagnosisDocument {
  collectedAt: string;
  /** The `pleg-doctor diagnose -o json` document of the agent's last diagnosis. */
  diagnosis: unknown;
  nodeSide: Fetched<NodeSideEvidence>;
}

function parseDiagnosis(body: string, where: string): AgentDiagnosisDocument {
  let doc: unknown;
  try {
    doc = JSON.parse(body);
  } catch {
    throw new AgentAccessError(`${where}: /v1/diagnosis is not JSON`);
  }
  const o = doc as { collectedAt?: unknown; nodeSide?: { status?: unknown; value?: { snapshot?: Record<string, unknown> } } };
  if (typeof o.collectedAt !== 'string' || typeof o.nodeSide?.status !== 'string') throw new AgentAccessError(`${where}: /v1/diagnosis has no collectedAt or nodeSide`);
  if (o.nodeSide.status === 'ok') {
    const s = o.nodeSide.value?.snapshot;
    if (s === undefined || !Array.isArray(s['sandboxes']) || !Array.isArray(s['containers']) || !Array.isArray(s['errors'])) {
      throw new AgentAccessError(`${where}: /v1/diagnosis nodeSide holds no CRI snapshot (needs sandboxes, containers and errors)`);
    }
  }
  return doc as AgentDiagnosisDocument;
}

/** One agent pod's HTTP API through the API server; every read has a deadline and the caller's cancel. */
export class AgentConnection {
  readonly label: string;
  private readonly where: string;

  constructor(
    private readonly gateway: KubeGateway,
    private readonly context: string,
    readonly pod: AgentPodRef,
    private readonly timeouts = { openMs: AGENT_OPEN_TIMEOUT_MS, requestMs: AGENT_REQUEST_TIMEOUT_MS },
  ) {
    this.where = `agent pod ${pod.namespace}/${pod.name}`;
    this.label = wayLabel('agent', `${pod.namespace}/${pod.name}`);
  }

  async get(path: string, signal: AbortSignal): Promise<AgentAnswer> {
    const forward = this.gateway.openPodPortForward?.bind(this.gateway);
    if (forward === undefined) throw new AgentAccessError('this cluster connection cannot open a port-forward');
    const target = { namespace: this.pod.namespace, pod: this.pod.name, port: AGENT_PORT };
    try {
      return await agentGet((s) => forward(this.context, target, { signal: s, timeoutMs: this.timeouts.openMs }), path, this.where, {
        signal,
        timeoutMs: this.timeouts.requestMs,
        maxBytes: MAX_ANSWER_BYTES,
      });
    } catch (err) {
      if (signal.aborted) throw abortedOr(signal, err);
      if (err instanceof KubeRequestError) throw refused(err.error, this.pod.namespace, { verb: 'get', resource: 'pods/portforward' });
      throw new AgentAccessError(`${this.where}: GET ${path}: ${errorText(err)}`);
    }
  }

  /** `/v1/session`: the agent's whole session (validated as the panel validates a file) and its cursor. */
  async readSession(signal: AbortSignal): Promise<{ cursor: string; session: TimelineSession }> {
    const answer = await this.get('/v1/session', signal);
    if (answer.status !== 200) throw new AgentAccessError(`${this.where}: /v1/session answered HTTP ${answer.status}: ${answer.body.trim().slice(0, 200)}`);
    const cursor = answer.headers['x-pleg-doctor-cursor'];
    if (typeof cursor !== 'string' || cursor === '') throw new AgentAccessError(`${this.where}: /v1/session came without its X-Pleg-Doctor-Cursor header`);
    const parsed = parseTimelineSession(answer.body);
    if (!parsed.ok) throw new AgentAccessError(`${this.where}: /v1/session is not a timeline session: ${parsed.errors.slice(0, 3).join('; ')}`);
    return { cursor, session: parsed.session };
  }

  /** `/v1/session?since=CURSOR` as the next step (deltas, or read the session again). */
  async readSince(cursor: string, signal: AbortSignal): Promise<SinceStep> {
    const answer = await this.get(`/v1/session?since=${encodeURIComponent(cursor)}`, signal);
    return sinceStep(answer.status, answer.body);
  }

  /** `/v1/diagnosis`: the agent's last diagnosis and the CRI snapshot it judged. 503 (none yet) rejects saying so. */
  async readDiagnosis(signal: AbortSignal): Promise<AgentDiagnosisDocument> {
    const answer = await this.get('/v1/diagnosis', signal);
    if (answer.status === 503) throw new AgentAccessError(`${this.where} has not finished its first diagnosis yet (it runs one at start, then every --diagnosis-period): try again shortly`);
    if (answer.status !== 200) throw new AgentAccessError(`${this.where}: /v1/diagnosis answered HTTP ${answer.status}: ${answer.body.trim().slice(0, 200)}`);
    return parseDiagnosis(answer.body, this.where);
  }
}
