import { describe, expect, it } from 'vitest';
import { accessArgsFrom, chooseNodeAccess, NodeAccessUnavailableError } from '../../../src/cli/accessOption';
import type { CliIo } from '../../../src/cli/io';
import { silentLogger } from '../../../src/core/util/logger';
import { KubeRequestError } from '../../../src/infra/kube/createGateway';
import type { KubeGateway } from '../../../src/infra/kube/gateway';

function io(): CliIo & { err: () => string } {
  let err = '';
  return { stdout: { write: () => true }, stderr: { write: (c: string) => (err += c) }, readStdin: async () => '', signal: new AbortController().signal, env: {}, cwd: '/', err: () => err };
}

const running = (name: string, node: string): unknown => ({ metadata: { name, labels: { 'app.kubernetes.io/name': 'pleg-doctor-agent' } }, spec: { nodeName: node }, status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } });

function gateway(list: () => Promise<unknown[]>): { gateway: KubeGateway; asked: unknown[][] } {
  const asked: unknown[][] = [];
  return {
    asked,
    gateway: {
      listPods: (...a: unknown[]) => {
        asked.push(a.slice(0, 3));
        return list();
      },
    } as unknown as KubeGateway,
  };
}

describe('--access and --agent-namespace', () => {
  it('parses the three ways and the namespace; names a bad value', () => {
    expect(accessArgsFrom('timeline', {})).toEqual({ agentNamespace: 'pleg-doctor' });
    expect(accessArgsFrom('snapshot', { access: 'debug-pod', 'agent-namespace': 'ops' })).toEqual({ requested: 'debug-pod', agentNamespace: 'ops' });
    expect(() => accessArgsFrom('diagnose', { access: 'kubectl' })).toThrow('diagnose: --access must be one of agent, ssh, debug-pod, got "kubectl"');
    expect(() => accessArgsFrom('diagnose', { 'agent-namespace': 'Bad_NS' })).toThrow(/is not a namespace name/);
  });
});

describe('chooseNodeAccess', () => {
  it('an agent on the node is the default, even with SSH configured; the list is of its namespace, label and node', async () => {
    const g = gateway(async () => [running('pleg-doctor-agent-x7k2', 'n1')]);
    const out = io();
    const access = await chooseNodeAccess('timeline', { access: { agentNamespace: 'pleg-doctor' }, node: 'n1', sshConfigured: true, cluster: { gateway: g.gateway, context: 'c' } }, out, silentLogger);
    expect(access.way).toBe('agent');
    expect(g.asked).toEqual([['c', 'pleg-doctor', { labelSelector: 'app.kubernetes.io/name=pleg-doctor-agent', fieldSelector: 'spec.nodeName=n1' }]]);
    expect(out.err()).toBe('pleg-doctor: timeline: node access via agent pod pleg-doctor/pleg-doctor-agent-x7k2 (agent pod pleg-doctor/pleg-doctor-agent-x7k2 runs on the node; the SSH options are not used: --access ssh uses them)\n');
  });

  it('no agent: SSH when configured, else none (the command goes on without the node side)', async () => {
    const g = gateway(async () => []);
    const cluster = { gateway: g.gateway, context: 'c' };
    expect((await chooseNodeAccess('diagnose', { access: { agentNamespace: 'pleg-doctor' }, node: 'n1', sshConfigured: true, cluster }, io(), silentLogger)).way).toBe('ssh');
    const none = await chooseNodeAccess('diagnose', { access: { agentNamespace: 'pleg-doctor' }, node: 'n1', sshConfigured: false, cluster }, io(), silentLogger);
    expect(none).toMatchObject({ way: 'none', why: expect.stringMatching(/^no way to reach the node's side/) });
    expect(none.why).toMatch(/--access debug-pod/);
    // A command without the debug pod (timeline, diagnose) does not offer it.
    const noPod = await chooseNodeAccess('diagnose', { access: { agentNamespace: 'pleg-doctor' }, node: 'n1', sshConfigured: false, supports: ['agent', 'ssh'], cluster }, io(), silentLogger);
    expect(noPod).toMatchObject({ way: 'none' });
    expect(noPod.why).not.toMatch(/debug-pod/);
  });

  it('--access ssh or debug-pod does not list pods', async () => {
    const g = gateway(async () => [running('a', 'n1')]);
    const cluster = { gateway: g.gateway, context: 'c' };
    expect((await chooseNodeAccess('snapshot', { access: { requested: 'debug-pod', agentNamespace: 'pleg-doctor' }, node: 'n1', sshConfigured: false, cluster }, io(), silentLogger)).way).toBe('debug-pod');
    expect((await chooseNodeAccess('snapshot', { access: { requested: 'ssh', agentNamespace: 'pleg-doctor' }, node: 'n1', sshConfigured: true, cluster }, io(), silentLogger)).way).toBe('ssh');
    expect(g.asked).toEqual([]);
    await expect(chooseNodeAccess('snapshot', { access: { requested: 'ssh', agentNamespace: 'pleg-doctor' }, node: 'n1', sshConfigured: false, cluster }, io(), silentLogger)).rejects.toThrow(/--access ssh needs the SSH options/);
  });

  it('--access agent with no agent, or a refused list: an error that says why (and names the grant)', async () => {
    const none = gateway(async () => []);
    const err = await chooseNodeAccess('timeline', { access: { requested: 'agent', agentNamespace: 'ops' }, node: 'n1', sshConfigured: false, cluster: { gateway: none.gateway, context: 'c' } }, io(), silentLogger).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NodeAccessUnavailableError);
    expect((err as Error).message).toContain('no pod labelled app.kubernetes.io/name=pleg-doctor-agent on node n1 in namespace ops');
    const forbidden = gateway(() => Promise.reject(new KubeRequestError({ kind: 'forbidden', httpStatus: 403, verb: 'list', resource: 'pods', message: '403 Forbidden: cannot list pods' })));
    const cluster = { gateway: forbidden.gateway, context: 'c' };
    await expect(chooseNodeAccess('timeline', { access: { requested: 'agent', agentNamespace: 'pleg-doctor' }, node: 'n1', sshConfigured: false, cluster }, io(), silentLogger)).rejects.toThrow(
      '403 Forbidden: cannot list pods in namespace pleg-doctor',
    );
    // Not asked for by name: the refusal is a note, and SSH goes on.
    const notes: string[] = [];
    const ssh = await chooseNodeAccess('timeline', { access: { agentNamespace: 'pleg-doctor' }, node: 'n1', sshConfigured: true, cluster }, io(), { ...silentLogger, info: (m) => void notes.push(String(m)) });
    expect(ssh.way).toBe('ssh');
    expect(notes).toEqual([expect.stringContaining('no agent: 403 Forbidden: cannot list pods in namespace pleg-doctor')]);
  });
});
