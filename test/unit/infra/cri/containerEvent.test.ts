// GetContainerEvents messages: bytes built by hand from the public runtime.v1 field numbers
// (ContainerEventResponse: container_id 1, container_event_type 2, created_at 3, pod_sandbox_status 4,
// containers_statuses 5; ContainerEventType 0–3), independently of protobufjs, decode into the event the
// kubelet's EventedPLEG takes.

import { describe, expect, it } from 'vitest';
import { ContainerEventDecodeError, decodeContainerEvent } from '../../../../src/infra/cri/containerEvent';
import { ProtoCodec } from '../../../../src/infra/cri/protoCodec';
import { fVarint, fBytes, fString } from '../../../support/protoBytes';


const codec = ProtoCodec.create();

// PodSandboxStatus: id 1, metadata 2 {name 1, uid 2, namespace 3, attempt 4}, state 3, created_at 4, network 5 {ip 1, additional_ips 2 {ip 1}}.
const sandbox = (state: number): number[] => [
  ...fString(1, 'sb1'),
  ...fBytes(2, [...fString(1, 'web-0'), ...fString(2, 'uid-1'), ...fString(3, 'shop'), ...fVarint(4, 0)]),
  ...fVarint(3, state),
  ...fVarint(4, 1_700_000_000_000_000_000n),
  ...fBytes(5, [...fString(1, '10.0.0.7'), ...fBytes(2, fString(1, 'fd00::7'))]),
];
// ContainerStatus: id 1, metadata 2 {name 1, attempt 2}, state 3, created_at 4.
const container = (id: string, state: number): number[] => [...fString(1, id), ...fBytes(2, [...fString(1, 'app'), ...fVarint(2, 1)]), ...fVarint(3, state), ...fVarint(4, 5)];

function message(type: number, withSandbox = true, sandboxState = 0): Uint8Array {
  return Uint8Array.from([
    ...fString(1, 'c-1'),
    ...fVarint(2, type),
    ...fVarint(3, 1_700_000_123_456_789_012n),
    ...(withSandbox ? fBytes(4, sandbox(sandboxState)) : []),
    ...fBytes(5, container('c-1', 2)),
    ...fBytes(5, container('c-2', 1)),
  ]);
}

describe('ContainerEventResponse decoding', () => {
  it('reads every field from its CRI wire number', () => {
    expect(decodeContainerEvent(codec, message(2))).toEqual({
      type: 'CONTAINER_STOPPED_EVENT',
      containerId: 'c-1',
      createdAt: 1_700_000_123_456_789_012n,
      pod: {
        uid: 'uid-1',
        name: 'web-0',
        namespace: 'shop',
        ips: ['10.0.0.7', 'fd00::7'],
        sandboxes: [{ id: 'sb1', state: 'running' }],
        containers: [
          { id: 'c-1', state: 'exited' },
          { id: 'c-2', state: 'running' },
        ],
      },
    });
  });

  it('maps the four event types by number, and a NOTREADY sandbox to an exited one', () => {
    expect([0, 1, 2, 3].map((t) => decodeContainerEvent(codec, message(t)).type)).toEqual(['CONTAINER_CREATED_EVENT', 'CONTAINER_STARTED_EVENT', 'CONTAINER_STOPPED_EVENT', 'CONTAINER_DELETED_EVENT']);
    expect(decodeContainerEvent(codec, message(3, true, 1)).pod?.sandboxes).toEqual([{ id: 'sb1', state: 'exited' }]);
  });

  it('gives no pod for an event without a sandbox status (the kubelet ignores it), and an empty message is a created event', () => {
    expect(decodeContainerEvent(codec, message(1, false)).pod).toBeNull();
    expect(decodeContainerEvent(codec, new Uint8Array(0))).toEqual({ type: 'CONTAINER_CREATED_EVENT', containerId: '', createdAt: 0n, pod: null });
  });

  it('refuses an unknown event type and bytes that are not a message, naming the field', () => {
    expect(() => decodeContainerEvent(codec, message(7))).toThrow(/container_event_type: unknown value 7/u);
    expect(() => decodeContainerEvent(codec, Uint8Array.from([0x0a, 0x05, 0x61]))).toThrow(ContainerEventDecodeError);
  });
});
