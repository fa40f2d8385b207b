// CRI endpoint autodetection order and its parsers.

import { describe, expect, it } from 'vitest';
import { detectRuntimeEndpoint, endpointToSocketPath, parseCrictlYamlEndpoint, parseKubeletRuntimeEndpoint } from '../../../../src/infra/cri/endpoints';
import { socketAccess } from '../../../../src/infra/cri/socketDiagnosis';
import { FakeHost } from '../../../support/fakeHost';

describe('endpoint parsers', () => {
  it('normalizes endpoints to socket paths', () => {
    expect(endpointToSocketPath('unix:///run/containerd/containerd.sock')).toBe('/run/containerd/containerd.sock');
    expect(endpointToSocketPath('unix:/run/crio/crio.sock')).toBe('/run/crio/crio.sock');
    expect(endpointToSocketPath('/var/run/cri-dockerd.sock')).toBe('/var/run/cri-dockerd.sock');
    expect(endpointToSocketPath('npipe:////./pipe/containerd-containerd')).toBeUndefined();
    expect(endpointToSocketPath('tcp://10.0.0.1:2376')).toBeUndefined();
  });

  it('reads the kubelet flag in both spellings', () => {
    expect(parseKubeletRuntimeEndpoint('/usr/bin/kubelet --config=/var/lib/kubelet/config.yaml --container-runtime-endpoint=unix:///run/crio/crio.sock --v=2')).toBe('unix:///run/crio/crio.sock');
    expect(parseKubeletRuntimeEndpoint('kubelet --container-runtime-endpoint /run/k3s/containerd/containerd.sock')).toBe('/run/k3s/containerd/containerd.sock');
    expect(parseKubeletRuntimeEndpoint('kubelet --config=/x')).toBeUndefined();
  });

  it('reads crictl.yaml', () => {
    expect(parseCrictlYamlEndpoint('runtime-endpoint: unix:///run/containerd/containerd.sock\nimage-endpoint: unix:///x\ntimeout: 10\n')).toBe('unix:///run/containerd/containerd.sock');
    expect(parseCrictlYamlEndpoint('runtime-endpoint: "unix:///run/crio/crio.sock" # CRI-O\n')).toBe('unix:///run/crio/crio.sock');
    expect(parseCrictlYamlEndpoint('debug: false\n')).toBeUndefined();
  });
});

describe('detectRuntimeEndpoint', () => {
  it('prefers configz, then the kubelet flag, then crictl.yaml, then the first existing default socket', async () => {
    const none = new FakeHost((argv) => (argv[0] === 'ps' ? { exitCode: 1 } : argv[0] === 'cat' ? { exitCode: 1 } : argv[0] === 'test' ? { exitCode: argv[2] === '/run/crio/crio.sock' ? 0 : 1 } : undefined));
    expect(await detectRuntimeEndpoint(none, { configzEndpoint: 'unix:///custom.sock' })).toMatchObject({ source: 'configz', socketPath: '/custom.sock' });
    const viaDefault = await detectRuntimeEndpoint(none);
    expect(viaDefault).toMatchObject({ source: 'default', endpoint: 'unix:///run/crio/crio.sock' });
    expect(viaDefault.tried).toEqual(['kubelet flag: none (no kubelet process or no --container-runtime-endpoint)', '/etc/crictl.yaml: none', '/run/containerd/containerd.sock: absent', '/run/crio/crio.sock: socket']);

    const kubelet = new FakeHost((argv) => (argv[0] === 'ps' ? { stdout: 'kubelet --container-runtime-endpoint=unix:///run/k.sock\n' } : undefined));
    expect(await detectRuntimeEndpoint(kubelet)).toMatchObject({ source: 'kubeletFlag', socketPath: '/run/k.sock' });
    expect(kubelet.calls[0]?.argv).toEqual(['ps', '-o', 'args=', '-C', 'kubelet']);

    const yaml = new FakeHost((argv) => (argv[0] === 'ps' ? { exitCode: 1 } : argv[0] === 'cat' ? { stdout: 'runtime-endpoint: unix:///y.sock\n' } : undefined));
    expect(await detectRuntimeEndpoint(yaml)).toMatchObject({ source: 'crictlYaml', socketPath: '/y.sock' });
  });

  it('fails listing everything it looked at', async () => {
    const nothing = new FakeHost(() => ({ exitCode: 1 }));
    await expect(detectRuntimeEndpoint(nothing)).rejects.toThrow(
      /no CRI endpoint found on fake-node; looked at: .*\/run\/containerd\/containerd\.sock: absent; \/run\/crio\/crio\.sock: absent; \/var\/run\/cri-dockerd\.sock: absent; \/var\/run\/dockershim\.sock: absent$/,
    );
  });
});

describe('socketAccess', () => {
  const line = 'srw-rw---- 1 0 0 0 Nov 22 03:30 /run/containerd/containerd.sock';
  it('root may always open; others need the matching rw bits', () => {
    expect(socketAccess(line, 0, [0])?.allowed).toBe(true);
    expect(socketAccess(line, 1001, [1001])).toEqual({ mode: 'srw-rw----', owner: 0, group: 0, allowed: false });
    expect(socketAccess(line, 1001, [1001, 0])?.allowed).toBe(true);
    expect(socketAccess('srw-rw-rw- 1 0 0 0 Nov 22 03:30 /s', 1001, [1001])?.allowed).toBe(true);
    expect(socketAccess('garbage', 0, [])).toBeUndefined();
  });
});
