// The hand-written runtime.v1 subset must put every field on the wire number the real CRI API uses. The
// expected bytes here are built by hand from the public field numbers, independently of protobufjs.

import { describe, expect, it } from 'vitest';
import { ProtoCodec } from '../../../../src/infra/cri/protoCodec';
import { parseContainerStatus, parsePodsList } from '../../../../src/core/parse/criJson';
import { fVarint, fBytes, fString } from '../../../support/protoBytes';


const codec = ProtoCodec.create();

describe('runtime.v1 requests encode with the CRI field numbers', () => {
  it('PodSandboxStatusRequest {pod_sandbox_id = 1, verbose = 2}', () => {
    expect([...codec.encode('PodSandboxStatusRequest', { podSandboxId: 'abc', verbose: true })]).toEqual([...fString(1, 'abc'), ...fVarint(2, 1)]);
  });

  it('ContainerStatusRequest {container_id = 1, verbose = 2}', () => {
    expect([...codec.encode('ContainerStatusRequest', { containerId: 'c1', verbose: true })]).toEqual([...fString(1, 'c1'), ...fVarint(2, 1)]);
  });

  it('ListContainersRequest.filter(1) {state(2) {state(1) = CONTAINER_EXITED(2)}, pod_sandbox_id(3)}', () => {
    const bytes = codec.encode('ListContainersRequest', { filter: { state: { state: 'CONTAINER_EXITED' }, podSandboxId: 'p' } });
    expect([...bytes]).toEqual(fBytes(1, [...fBytes(2, fVarint(1, 2)), ...fString(3, 'p')]));
  });

  it('VersionRequest {version = 1} and StatusRequest {verbose = 1}', () => {
    expect([...codec.encode('VersionRequest', { version: '0.1.0' })]).toEqual(fString(1, '0.1.0'));
    expect([...codec.encode('StatusRequest', { verbose: true })]).toEqual(fVarint(1, 1));
  });

  it('uses the RuntimeService wire paths', () => {
    for (const method of ['Version', 'Status', 'ListPodSandbox', 'ListContainers', 'PodSandboxStatus', 'ContainerStatus', 'ListContainerStats']) {
      expect(codec.method(method).path).toBe(`/runtime.v1.RuntimeService/${method}`);
    }
    expect(() => codec.method('RunPodSandbox')).toThrow(/no method RunPodSandbox/);
  });
});

describe('runtime.v1 replies decode from hand-built bytes', () => {
  it('VersionResponse {version 1, runtime_name 2, runtime_version 3, runtime_api_version 4}', () => {
    const bytes = [...fString(1, '0.1.0'), ...fString(2, 'containerd'), ...fString(3, '1.6.20'), ...fString(4, 'v1')];
    expect(codec.decode('VersionResponse', Uint8Array.from(bytes))).toEqual({ version: '0.1.0', runtimeName: 'containerd', runtimeVersion: '1.6.20', runtimeApiVersion: 'v1' });
  });

  it('ListPodSandboxResponse: PodSandbox {id 1, metadata 2 {name 1, uid 2, namespace 3, attempt 4}, state 3, created_at 4, labels 5, annotations 6, runtime_handler 7}', () => {
    const metadata = [...fString(1, 'web'), ...fString(2, 'u-1'), ...fString(3, 'prod'), ...fVarint(4, 2)];
    const labelEntry = [...fString(1, 'app'), ...fString(2, 'web')];
    const sandbox = [
      ...fString(1, 'sb1'),
      ...fBytes(2, metadata),
      ...fVarint(3, 1),
      ...fVarint(4, 1795313110012392108n),
      ...fBytes(5, labelEntry),
      ...fBytes(6, [...fString(1, 'a'), ...fString(2, 'b')]),
      ...fString(7, 'runc'),
    ];
    const decoded = codec.decode('ListPodSandboxResponse', Uint8Array.from(fBytes(1, sandbox)));
    expect(parsePodsList(decoded)).toEqual([
      {
        id: 'sb1',
        metadata: { name: 'web', uid: 'u-1', namespace: 'prod', attempt: 2 },
        state: 'SANDBOX_NOTREADY',
        createdAtNs: '1795313110012392108',
        labels: { app: 'web' },
        annotations: { a: 'b' },
        runtimeHandler: 'runc',
      },
    ]);
  });

  it('ContainerStatusResponse: status 1 {id 1, metadata 2, state 3, created 4, started 5, finished 6, exit_code 7, image 8, image_ref 9, reason 10, message 11, log_path 15}, info 2', () => {
    const status = [
      ...fString(1, 'c1'),
      ...fBytes(2, [...fString(1, 'app'), ...fVarint(2, 3)]),
      ...fVarint(3, 2),
      ...fVarint(4, 1000n),
      ...fVarint(5, 2000n),
      ...fVarint(6, 1795313116695834492n),
      ...fVarint(7, 137),
      ...fBytes(8, fString(1, 'localhost/busybox:static')),
      ...fString(9, 'sha256:ff'),
      ...fString(10, 'Error'),
      ...fString(11, 'killed'),
      ...fString(15, '/logs/app_3.log'),
    ];
    const info = fBytes(2, [...fString(1, 'info'), ...fString(2, '{"pid":42}')]);
    const decoded = codec.decode('ContainerStatusResponse', Uint8Array.from([...fBytes(1, status), ...info]));
    expect(parseContainerStatus(decoded)).toEqual({
      id: 'c1',
      metadata: { name: 'app', attempt: 3 },
      state: 'CONTAINER_EXITED',
      createdAtNs: '1000',
      startedAtNs: '2000',
      finishedAtNs: '1795313116695834492',
      exitCode: 137,
      image: 'localhost/busybox:static',
      imageRef: 'sha256:ff',
      reason: 'Error',
      message: 'killed',
      labels: {},
      annotations: {},
      logPath: '/logs/app_3.log',
      info: { pid: 42 },
    });
  });

  it('a negative exit code (int32) survives', () => {
    const decoded = codec.decode('ContainerStatusResponse', Uint8Array.from(fBytes(1, [...fString(1, 'c'), ...fVarint(7, 0xffffffffffffffffn)])));
    expect(parseContainerStatus(decoded).exitCode).toBe(-1);
  });

  it('PodSandboxStatus: network 5 {ip 1, additional_ips 2}, linux 6 {namespaces 1 {options 2 {network 1, pid 2, ipc 3}}}', () => {
    const status = [
      ...fString(1, 'sb'),
      ...fBytes(5, [...fString(1, '10.0.0.2'), ...fBytes(2, fString(1, 'fd00::2'))]),
      ...fBytes(6, fBytes(1, fBytes(2, [...fVarint(1, 2), ...fVarint(2, 1), ...fVarint(3, 0)]))),
    ];
    const decoded = codec.decode('PodSandboxStatusResponse', Uint8Array.from(fBytes(1, status)));
    expect(decoded).toMatchObject({ status: { network: { ip: '10.0.0.2', additionalIps: [{ ip: 'fd00::2' }] }, linux: { namespaces: { options: { network: 'NODE', pid: 'CONTAINER', ipc: 'POD' } } } } });
  });

  it('StatusResponse: status 1 {conditions 1 {type 1, status 2, reason 3, message 4}}', () => {
    const condition = [...fString(1, 'NetworkReady'), ...fVarint(2, 0), ...fString(3, 'NetworkPluginNotReady'), ...fString(4, 'cni config uninitialized')];
    const decoded = codec.decode('StatusResponse', Uint8Array.from(fBytes(1, fBytes(1, condition))));
    expect(decoded['status']).toEqual({ conditions: [{ type: 'NetworkReady', status: false, reason: 'NetworkPluginNotReady', message: 'cni config uninitialized' }] });
  });

  it('ListContainerStatsResponse: stats 1 {attributes 1 {id 1}, cpu 2 {timestamp 1, usage_core_nano_seconds 2 {value 1}}, memory 3 {working_set_bytes 2}}', () => {
    const stats = [...fBytes(1, fString(1, 'c')), ...fBytes(2, [...fVarint(1, 5n), ...fBytes(2, fVarint(1, 77n))]), ...fBytes(3, fBytes(2, fVarint(1, 4096n)))];
    const decoded = codec.decode('ListContainerStatsResponse', Uint8Array.from(fBytes(1, stats)));
    expect(decoded).toMatchObject({ stats: [{ attributes: { id: 'c' }, cpu: { timestamp: '5', usageCoreNanoSeconds: { value: '77' } }, memory: { workingSetBytes: { value: '4096' } } }] });
  });
});
