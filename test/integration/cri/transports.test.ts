// Transport choice on the real node stack: direct socket as root, the socat exec relay (as root and
// through `sudo -n` for the non-root test user), and distinct messages for a missing socket and for a
// socket the user may not open.

import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { LocalHost } from '../../support/localHost';
import { execRelayClient } from '../../../src/infra/cri/transports/execRelay';
import { unixSocketClient } from '../../../src/infra/cri/transports/unixSocket';
import { selectTransport, TransportSelectionError } from '../../../src/infra/cri/transports/select';
import { takeSnapshot } from '../../../src/infra/cri/snapshot';
import { detectRuntimeEndpoint } from '../../../src/infra/cri/endpoints';
import { ctrContainerIds, stack } from './kit';

function testUser(name: string): { uid: number; gid: number; name: string } {
  const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim());
  return { uid, gid, name };
}

async function rejection(promise: Promise<unknown>): Promise<TransportSelectionError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TransportSelectionError);
  return error as TransportSelectionError;
}

describe('CRI transports on the real node stack', () => {
  const env = stack();
  const root = new LocalHost();

  it('the socat exec relay returns the same snapshot as the direct socket', async () => {
    const direct = unixSocketClient(root, env.criSocket);
    const relay = execRelayClient(root, env.criSocket, false);
    try {
      const [a, b] = [await takeSnapshot(direct), await takeSnapshot(relay)];
      expect(b.errors).toEqual([]);
      expect(b.sandboxes.map((s) => s.id).sort()).toEqual(a.sandboxes.map((s) => s.id).sort());
      expect(b.containerStatuses.map((c) => `${c.id}:${c.state}`).sort()).toEqual(a.containerStatuses.map((c) => `${c.id}:${c.state}`).sort());
      expect(new Set(b.containers.map((c) => c.id).concat(b.sandboxes.map((s) => s.id)))).toEqual(ctrContainerIds(env));
      expect(relay.description).toContain('socat STDIO UNIX-CONNECT:');
    } finally {
      direct.close();
      relay.close();
    }
  });

  it('as root, auto selection uses the direct socket', async () => {
    const selection = await selectTransport(root, { endpoint: `unix://${env.criSocket}` });
    try {
      expect(selection.kind).toBe('unixSocket');
      expect(selection.socketPath).toBe(env.criSocket);
      expect(selection.reason).toBe(`direct stream to ${env.criSocket}`);
      expect((await selection.client.version()).runtimeName).toBe('containerd');
    } finally {
      selection.client.close();
    }
  });

  it('a missing socket is reported as missing', async () => {
    const error = await rejection(selectTransport(root, { endpoint: `${env.dir}/no-such-dir/containerd.sock`, probeTimeoutMs: 2_000 }));
    expect(error.diagnosis?.problem).toBe('missing');
    expect(error.message).toMatch(/^CRI socket missing: .*no-such-dir\/containerd\.sock on local does not exist/);
    expect(error.message).not.toMatch(/permission/i);
  });

  it('for the non-root user the root-only socket is "permission denied", distinct from missing', async () => {
    const asUser = new LocalHost({ runAs: testUser(env.sshUser) });
    const error = await rejection(selectTransport(asUser, { endpoint: env.criSocket, transport: 'unixSocket', probeTimeoutMs: 2_000 }));
    expect(error.diagnosis?.problem).toBe('permissionDenied');
    expect(error.message).toMatch(/permission denied: .*containerd\.sock on local as plegtest is srw-rw---- owned by uid 0 gid 0, and uid \d+/);
    expect(error.message).not.toMatch(/missing/);
  });

  it('for the non-root user with a sudo rule for socat, auto selection falls back to the exec relay', async () => {
    const asUser = new LocalHost({ runAs: testUser(env.sshUser) });
    const selection = await selectTransport(asUser, { endpoint: env.criSocket, probeTimeoutMs: 5_000 });
    try {
      expect(selection.kind).toBe('execRelay');
      expect(selection.reason).toMatch(/root-only for this user: relaying through sudo -n socat/);
      expect(selection.attempts.map((a) => `${a.kind}:${a.ok}`)).toEqual(['unixSocket:false', 'execRelay:true']);
      const snapshot = await takeSnapshot(selection.client);
      expect(snapshot.errors).toEqual([]);
      expect(new Set([...snapshot.sandboxes.map((s) => s.id), ...snapshot.containers.map((c) => c.id)])).toEqual(ctrContainerIds(env));
    } finally {
      selection.client.close();
    }
  });

  it('a relay that cannot open the socket fails with the explanation of the relay itself', async () => {
    const asUser = new LocalHost({ runAs: testUser(env.sshUser) });
    const relay = execRelayClient(asUser, env.criSocket, false);
    try {
      const error = await relay.version().catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 14, codeName: 'UNAVAILABLE' });
      expect((error as Error).message).toMatch(/connection failed: socat exited 1: .*containerd\.sock.*Permission denied/);
    } finally {
      relay.close();
    }
  });

  it('endpoint detection takes the configz endpoint, and lists what it tried when nothing is found', async () => {
    const detected = await detectRuntimeEndpoint(root, { configzEndpoint: `unix://${env.criSocket}` });
    expect(detected).toMatchObject({ source: 'configz', socketPath: env.criSocket });
    // No system containerd runs here. A kubelet runs only while the real-cluster tier has its cluster up
    // (same vitest run): then its --container-runtime-endpoint flag is what autodetection must find;
    // otherwise autodetection must fail and say everything it looked at.
    const kubeletArgs = (await root.exec(['ps', '-o', 'args=', '-C', 'kubelet'], { timeoutMs: 5_000 })).stdout;
    const flag = /--container-runtime-endpoint[= ](\S+)/.exec(kubeletArgs)?.[1];
    if (flag) {
      await expect(detectRuntimeEndpoint(root)).resolves.toMatchObject({ source: 'kubeletFlag', endpoint: flag.startsWith('unix:') ? flag : `unix://${flag}` });
    } else {
      await expect(detectRuntimeEndpoint(root)).rejects.toThrow(/no CRI endpoint found on local; looked at: kubelet flag: none.*\/run\/containerd\/containerd\.sock: absent/);
    }
  });
});
