// One GetContainerEvents message (runtime.v1 ContainerEventResponse) as the evented PLEG takes it: the
// event type, the container ID, the raw created_at, and the pod the kubelet's GeneratePodStatus builds from
// the event (one sandbox, the event's container statuses, the sandbox's IPs, no status timestamp).

import type { CriContainerEvent, CriContainerEventType } from '../../core/pleg/evented';
import { CRI_CONTAINER_EVENT_TYPES } from '../../core/pleg/evented';
import { parseContainerStatus, parsePodSandboxStatus } from '../../core/parse/criJson';
import type { RuntimePod } from '../../core/pleg/types';
import type { ProtoCodec } from './protoCodec';
import { containerStateOfCri } from '../../core/pleg/criContainerState';

export class ContainerEventDecodeError extends Error {
  override readonly name = 'ContainerEventDecodeError';
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The decoded message (ProtoCodec's plain object) as a CRI container event; throws on a malformed one. */
export function containerEventFromObject(o: Record<string, unknown>): CriContainerEvent {
  const type = o['containerEventType'];
  if (typeof type !== 'string' || !(CRI_CONTAINER_EVENT_TYPES as readonly string[]).includes(type)) {
    throw new ContainerEventDecodeError(`ContainerEventResponse.container_event_type: unknown value ${JSON.stringify(type)}`);
  }
  const containerId = o['containerId'];
  if (typeof containerId !== 'string') throw new ContainerEventDecodeError('ContainerEventResponse.container_id: not a string');
  const createdAtText = o['createdAt'];
  if (typeof createdAtText !== 'string' || !/^-?\d+$/u.test(createdAtText)) throw new ContainerEventDecodeError(`ContainerEventResponse.created_at: not an int64 (${JSON.stringify(createdAtText)})`);
  const sandbox = o['podSandboxStatus'];
  // The kubelet ignores (with an error log) an event without a sandbox status or its metadata.
  const pod = isRecord(sandbox) && isRecord(sandbox['metadata']) ? podOf(sandbox, o['containersStatuses']) : null;
  return { type: type as CriContainerEventType, containerId, createdAt: BigInt(createdAtText), pod };
}

function podOf(sandbox: Record<string, unknown>, statuses: unknown): RuntimePod {
  const where = 'ContainerEventResponse.pod_sandbox_status';
  const s = parsePodSandboxStatus({ status: sandbox }, where);
  const list = Array.isArray(statuses) ? statuses : [];
  const containers = list.map((c, i) => {
    const st = parseContainerStatus({ status: c }, `ContainerEventResponse.containers_statuses[${i}]`);
    return { id: st.id, state: containerStateOfCri(st.state) };
  });
  const ips = s.ip === '' ? [] : [s.ip, ...s.additionalIps];
  return {
    uid: s.metadata.uid,
    name: s.metadata.name,
    namespace: s.metadata.namespace,
    ips,
    sandboxes: [{ id: s.id, state: s.state === 'SANDBOX_READY' ? 'running' : 'exited' }],
    containers,
  };
}

/** Decodes one message's bytes. */
export function decodeContainerEvent(codec: ProtoCodec, bytes: Uint8Array): CriContainerEvent {
  let o: Record<string, unknown>;
  try {
    o = codec.decode('ContainerEventResponse', bytes);
  } catch (error) {
    throw new ContainerEventDecodeError(`cannot decode ContainerEventResponse: ${(error as Error).message}`, { cause: error });
  }
  return containerEventFromObject(o);
}
