// `pleg-doctor agent` options (src/cli/commands/agent.ts) and the in-cluster API server it picks.

import { describe, expect, it } from 'vitest';
import { parseAgentArgs } from '../../../../src/cli/commands/agent';
import { apiServerUrl, inClusterKubeconfig } from '../../../../src/infra/agent/inCluster';
import { mergeKubeconfigs } from '../../../../src/infra/kube/kubeconfig';

const none = (): boolean => false;

describe('parseAgentArgs', () => {
  it('takes the contract\u2019s defaults, the node from NODE_NAME and the first CRI socket that exists', () => {
    const args = parseAgentArgs([], { NODE_NAME: 'worker-1' }, (p) => p === '/var/run/crio/crio.sock');
    if (args === 'help') throw new Error('help');
    expect(args).toMatchObject({
      listen: { host: '0.0.0.0', port: 9787 },
      node: 'worker-1',
      criSocket: '/var/run/crio/crio.sock',
      kubeletConfig: '/var/lib/kubelet/config.yaml',
      tokenFile: '/var/run/secrets/kubernetes.io/serviceaccount/token',
      periodMs: 1000,
    });
    expect(args.kubeletUrl.href).toBe('https://127.0.0.1:10250/');
  });

  it('refuses what it cannot run with, naming the option', () => {
    expect(() => parseAgentArgs([], { NODE_NAME: 'n' }, none)).toThrow(/no CRI socket: none of \/run\/containerd\/containerd\.sock/u);
    expect(() => parseAgentArgs(['--cri-socket', '/s', '--kubelet-url', 'https://10.0.0.5:10250'], { NODE_NAME: 'n' }, none)).toThrow(/not a loopback address: give --kubelet-ca/u);
    expect(() => parseAgentArgs(['--cri-socket', '/s', '--kubelet-url', 'http://127.0.0.1:10255'], { NODE_NAME: 'n' }, none)).toThrow(/must be https/u);
    expect(() => parseAgentArgs(['--cri-socket', '/s', '--listen', '9787'], { NODE_NAME: 'n' }, none)).toThrow(/--listen must be HOST:PORT/u);
    expect(() => parseAgentArgs(['--cri-socket', '/s', '--period', '10ms'], { NODE_NAME: 'n' }, none)).toThrow(/--period must be at least 100 ms/u);
    expect(() => parseAgentArgs(['--cri-socket', '/s'], { NODE_NAME: 'Bad_Name' }, none)).toThrow(/not a valid Kubernetes node name/u);
  });

  it('allows another kubelet host with a CA to verify it', () => {
    const args = parseAgentArgs(['--cri-socket', '/s', '--kubelet-url', 'https://10.0.0.5:10250', '--kubelet-ca', '/ca.pem'], { NODE_NAME: 'n' }, none);
    expect(args !== 'help' && args.kubeletCa).toBe('/ca.pem');
  });
});

describe('in-cluster API server', () => {
  it('comes from the Service env, or from --api-server / PLEG_DOCTOR_API_SERVER first', () => {
    expect(apiServerUrl({ env: { KUBERNETES_SERVICE_HOST: '10.96.0.1', KUBERNETES_SERVICE_PORT: '443' } })).toEqual({ url: 'https://10.96.0.1:443' });
    expect(apiServerUrl({ env: { KUBERNETES_SERVICE_HOST: 'fd00::1', KUBERNETES_SERVICE_PORT: '443' } })).toEqual({ url: 'https://[fd00::1]:443' });
    expect(apiServerUrl({ env: { KUBERNETES_SERVICE_HOST: '10.96.0.1', KUBERNETES_SERVICE_PORT: '443', PLEG_DOCTOR_API_SERVER: 'https://127.0.0.1:6443' } })).toEqual({ url: 'https://127.0.0.1:6443' });
    expect(apiServerUrl({ env: {}, apiServer: 'https://127.0.0.1:6443/' })).toEqual({ url: 'https://127.0.0.1:6443' });
    expect(apiServerUrl({ env: {} })).toMatchObject({ none: expect.stringMatching(/no --api-server/u) });
    expect(() => apiServerUrl({ env: {}, apiServer: 'http://x:8080' })).toThrow(/must be https/u);
  });

  it('becomes a kubeconfig the gateway reads: the server, the CA file and the token file', () => {
    const text = inClusterKubeconfig('https://127.0.0.1:6443', { tokenFile: '/sa/token', caFile: '/sa/ca.crt' });
    const loaded = mergeKubeconfigs([{ file: 'in-cluster config', text }]);
    expect(loaded.currentContext).toBe('in-cluster');
    const ctx = loaded.contexts[0];
    expect(ctx?.info.server).toBe('https://127.0.0.1:6443');
    expect(ctx?.cluster?.['certificate-authority']).toBe('/sa/ca.crt');
    expect(ctx?.user?.['auth-provider']).toEqual({ name: 'tokenFile', config: { tokenFile: '/sa/token' } });
  });
});
