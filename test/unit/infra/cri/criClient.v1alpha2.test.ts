// A runtime that serves only CRI v1alpha2 (the real kubelet 1.22.4's dockershim: `crictl version` says
// RuntimeName docker, RuntimeApiVersion 1.41.0; grpc-go refuses runtime.v1 with UNIMPLEMENTED "unknown
// service runtime.v1.RuntimeService"): the client falls back to /runtime.v1alpha2.RuntimeService/ once and
// stays there; an UNIMPLEMENTED method of a v1 runtime is not a reason to switch.

import * as http2 from 'node:http2';
import { afterEach, describe, expect, it } from 'vitest';
import { GrpcCriClient, RUNTIME_SERVICE_V1ALPHA2 } from '../../../../src/infra/cri/criClient';
import { CriError } from '../../../../src/infra/cri/criError';
import { encodeFrame } from '../../../../src/infra/cri/grpc/framing';
import { ProtoCodec } from '../../../../src/infra/cri/protoCodec';
import { memoryChannelTo } from '../../../support/memoryPair';

const codec = ProtoCodec.create();
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

/** A server answering `serve(path)`: a reply body, or a gRPC error (code, message) sent trailers-only. */
function clientTo(serve: (path: string) => Uint8Array | [number, string]): { client: GrpcCriClient; paths: string[] } {
  const server = http2.createServer();
  const paths: string[] = [];
  server.on('stream', (stream, headers) => {
    const path = String(headers[':path']);
    paths.push(path);
    stream.on('error', () => undefined);
    stream.resume();
    stream.on('end', () => {
      const answer = serve(path);
      if (Array.isArray(answer)) {
        stream.respond({ ':status': 200, 'content-type': 'application/grpc', 'grpc-status': String(answer[0]), 'grpc-message': answer[1] }, { endStream: true });
        return;
      }
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
      stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
      stream.end(encodeFrame(Buffer.from(answer)));
    });
  });
  const { channel, destroyEnds } = memoryChannelTo(server);
  const client = new GrpcCriClient(channel, { codec });
  cleanups.push(() => {
    client.close();
    destroyEnds();
    server.close();
  });
  return { client, paths };
}

const DOCKERSHIM_VERSION = codec.encode('VersionResponse', { version: '0.1.0', runtimeName: 'docker', runtimeVersion: '20.10.24+dfsg1', runtimeApiVersion: '1.41.0' });

describe('CRI v1alpha2 fallback', () => {
  it('a dockershim-like runtime: v1 refused as an unknown service, v1alpha2 answers; later calls go to v1alpha2 directly', async () => {
    const { client, paths } = clientTo((path) =>
      path.startsWith('/runtime.v1.') ? [12, 'unknown service runtime.v1.RuntimeService'] : path.endsWith('/Version') ? DOCKERSHIM_VERSION : codec.encode('ListPodSandboxResponse', { items: [] }),
    );
    await expect(client.version()).resolves.toMatchObject({ runtimeName: 'docker', runtimeVersion: '20.10.24+dfsg1', runtimeApiVersion: '1.41.0' });
    await expect(client.listPodSandbox()).resolves.toEqual([]);
    expect(paths).toEqual(['/runtime.v1.RuntimeService/Version', '/runtime.v1alpha2.RuntimeService/Version', '/runtime.v1alpha2.RuntimeService/ListPodSandbox']);
    expect(client.apiService).toBe(RUNTIME_SERVICE_V1ALPHA2);
  });

  it('calls made in parallel before the first refusal: each retries on v1alpha2 (a snapshot starts with Version, Status, ListPodSandbox at once)', async () => {
    const { client, paths } = clientTo((path) =>
      path.startsWith('/runtime.v1.') ? [12, 'unknown service runtime.v1.RuntimeService'] : path.endsWith('/Version') ? DOCKERSHIM_VERSION : codec.encode('ListPodSandboxResponse', { items: [] }),
    );
    const [version, pods] = await Promise.all([client.version(), client.listPodSandbox()]);
    expect(version.runtimeName).toBe('docker');
    expect(pods).toEqual([]);
    expect(paths.filter((p) => p.startsWith('/runtime.v1alpha2.')).sort()).toEqual(['/runtime.v1alpha2.RuntimeService/ListPodSandbox', '/runtime.v1alpha2.RuntimeService/Version']);
  });

  it('a v1 runtime without one method: UNIMPLEMENTED "unknown method" is the answer, no switch', async () => {
    const { client, paths } = clientTo(() => [12, 'unknown method ListContainerStats for service runtime.v1.RuntimeService']);
    await expect(client.listContainerStats()).rejects.toBeInstanceOf(CriError);
    expect(paths).toEqual(['/runtime.v1.RuntimeService/ListContainerStats']);
    expect(client.apiService).toBe('runtime.v1.RuntimeService');
  });
});
