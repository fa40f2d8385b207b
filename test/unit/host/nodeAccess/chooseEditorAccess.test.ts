import { describe, expect, it } from 'vitest';
import { DEFAULT_ACCESS_WAY_SETTINGS, type AccessWaySettings } from '../../../../src/core/nodeAccess/accessWaySettings';
import { silentLogger } from '../../../../src/core/util/logger';
import { KubeRequestError } from '../../../../src/infra/kube/createGateway';
import type { KubeGateway } from '../../../../src/infra/kube/gateway';
import { chooseEditorAccess, type EditorAccessRequest } from '../../../../src/host/nodeAccess/chooseEditorAccess';

const running = (name: string, node: string): unknown => ({ metadata: { name, namespace: 'pleg-doctor', labels: { 'app.kubernetes.io/name': 'pleg-doctor-agent' } }, spec: { nodeName: node }, status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } });

function request(list: () => Promise<unknown[]>, over: Partial<EditorAccessRequest> & { allowed?: AccessWaySettings['allowed'] } = {}): { req: EditorAccessRequest; asked: unknown[][] } {
  const asked: unknown[][] = [];
  const gateway = {
    listPods: (...a: unknown[]) => {
      asked.push(a.slice(0, 3));
      return list();
    },
  } as unknown as KubeGateway;
  const { allowed, ...rest } = over;
  return {
    asked,
    req: {
      gateway,
      context: 'c',
      node: 'n1',
      ways: { ...DEFAULT_ACCESS_WAY_SETTINGS, ...(allowed !== undefined ? { allowed } : {}) },
      ssh: { configured: false, why: 'no node access entry for context c' },
      supports: ['agent', 'ssh', 'debug-pod'],
      signal: new AbortController().signal,
      logger: silentLogger,
      ...rest,
    },
  };
}

describe('chooseEditorAccess', () => {
  it('the agent pod on the node first, even with SSH configured; the list is its namespace, label and node', async () => {
    const { req, asked } = request(async () => [running('pleg-doctor-agent-x7k2', 'n1')], { ssh: { configured: true } });
    const access = await chooseEditorAccess(req);
    expect(access.way).toBe('agent');
    expect(access.way === 'agent' ? access.connection.label : '').toBe('via agent pod pleg-doctor/pleg-doctor-agent-x7k2');
    expect(asked).toEqual([['c', 'pleg-doctor', { labelSelector: 'app.kubernetes.io/name=pleg-doctor-agent', fieldSelector: 'spec.nodeName=n1' }]]);
  });

  it('no agent: SSH when configured; else the debug pod is offered (never chosen), naming what is missing', async () => {
    expect((await chooseEditorAccess(request(async () => [], { ssh: { configured: true } }).req)).way).toBe('ssh');
    const offered = await chooseEditorAccess(request(async () => []).req);
    expect(offered).toEqual({ way: 'debug-pod', why: 'no agent (no pod labelled app.kubernetes.io/name=pleg-doctor-agent on node n1 in namespace pleg-doctor); no SSH (no node access entry for context c)' });
  });

  it('a refused pod list is a reason, not an error: SSH goes on', async () => {
    const forbidden = () => Promise.reject(new KubeRequestError({ kind: 'forbidden', httpStatus: 403, verb: 'list', resource: 'pods', message: '403 Forbidden' }));
    expect((await chooseEditorAccess(request(forbidden, { ssh: { configured: true } }).req)).way).toBe('ssh');
    const none = await chooseEditorAccess(request(forbidden, { supports: ['agent', 'ssh'] }).req);
    expect(none.way).toBe('none');
    expect(none.why).toContain('403 Forbidden: cannot list pods in namespace pleg-doctor');
    expect(none.why).toMatch(/install the agent .*, or configure SSH to the node/);
  });

  it('the settings and the feature restrict the ways: no list when the agent is not allowed, no debug pod offered unless allowed and supported', async () => {
    const onlySsh = request(async () => [running('a', 'n1')], { allowed: ['ssh'], ssh: { configured: true } });
    expect((await chooseEditorAccess(onlySsh.req)).way).toBe('ssh');
    expect(onlySsh.asked).toEqual([]);
    const noPod = await chooseEditorAccess(request(async () => [], { allowed: ['agent', 'ssh'] }).req);
    expect(noPod.way).toBe('none');
    const unsupported = await chooseEditorAccess(request(async () => [], { supports: ['agent', 'ssh'] }).req);
    expect(unsupported.way).toBe('none');
    const sshNotAllowed = await chooseEditorAccess(request(async () => [], { allowed: ['agent'], ssh: { configured: true } }).req);
    expect(sshNotAllowed).toEqual({ way: 'none', why: 'no agent (no pod labelled app.kubernetes.io/name=pleg-doctor-agent on node n1 in namespace pleg-doctor); SSH is not among plegDoctor.nodeAccess.ways; install the agent (kubectl apply -k deploy/kubernetes)' });
  });

  it('cancelled while listing: rejects', async () => {
    const controller = new AbortController();
    const { req } = request(() => {
      controller.abort(new Error('cancelled by the user'));
      return Promise.reject(new Error('aborted'));
    }, { signal: controller.signal });
    await expect(chooseEditorAccess(req)).rejects.toThrow('cancelled by the user');
  });
});
