// The editor creates no debug pod without the modal: with neither an agent pod nor SSH, the pod is planned,
// refused in an untrusted workspace (no modal, nothing created), shown in a modal with its exact manifest,
// and only a click on "Create Debug Pod" gives a way that creates it. Every answer is logged.

import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { NodeEntry } from '../../../../src/core/tree/contextNodes';
import type { Logger } from '../../../../src/core/util/logger';
import type { ClusterSession } from '../../../../src/host/cluster/clusterSession';
import type { KubeGateway } from '../../../../src/infra/kube/gateway';
import type { NodeAccessRuntime } from '../../../../src/host/nodeAccess/nodeAccessRuntime';
import type { SnapshotDocumentInput } from '../../../../src/host/nodeAccess/snapshotDocument';
import type { SnapshotDocuments } from '../../../../src/host/nodeAccess/snapshotDocuments';
import { localSnapshotCommand } from '../../../../src/cli/commands/localSnapshot';
import { fakePodsApi, type FakePodScript, type FakePodsApi } from '../../../support/fakePodsApi';
import { memoryIo } from '../../../support/memoryIo';

const ui = vi.hoisted(() => ({
  trusted: true,
  answer: undefined as string | undefined,
  warnings: [] as Array<{ message: string; options: { modal?: boolean; detail?: string }; items: string[] }>,
  errors: [] as string[],
  infos: [] as string[],
  onModal: undefined as (() => void) | undefined,
}));

vi.mock('vscode', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  ProgressLocation: { Notification: 15 },
  window: {
    withProgress: (_o: unknown, task: (p: unknown, token: unknown) => Promise<unknown>) => task({ report: () => undefined }, { onCancellationRequested: () => ({ dispose: () => undefined }) }),
    showWarningMessage: (message: string, options: { modal?: boolean; detail?: string }, ...items: string[]) => {
      ui.warnings.push({ message, options, items });
      if (typeof options === 'object' && options.modal === true) ui.onModal?.();
      return Promise.resolve(ui.answer);
    },
    showErrorMessage: (message: string) => {
      ui.errors.push(message);
      return Promise.resolve(undefined);
    },
    showInformationMessage: (message: string) => {
      ui.infos.push(message);
      return Promise.resolve(undefined);
    },
  },
  commands: { executeCommand: () => Promise.resolve(undefined) },
  workspace: {
    get isTrusted() {
      return ui.trusted;
    },
    getConfiguration: () => ({ get: () => undefined }),
  },
}));

const { resolveNodeAccess } = await import('../../../../src/host/nodeAccess/editorNodeAccess');
const { takeCriSnapshotAnyWay } = await import('../../../../src/host/nodeAccess/takeSnapshotAnyWay');

const entry = { kind: 'node', context: 'kind-a', name: 'n1', node: { metadata: { name: 'n1' }, status: { nodeInfo: { containerRuntimeVersion: 'containerd://1.7.2' } } } } as unknown as NodeEntry;

function setup(script: Partial<FakePodScript> = {}): { api: FakePodsApi; session: ClusterSession; logged: string[]; logger: Logger } {
  const api = fakePodsApi({ phases: [], daemonSet: [{ container: 'agent', image: 'reg/agent:2' }], ...script });
  const gateway = { listPods: () => Promise.resolve([]), podsApi: () => api } as unknown as KubeGateway;
  const logged: string[] = [];
  const log = (m: string): void => void logged.push(m);
  const logger = { info: log, warn: log, error: log, debug: log } as unknown as Logger;
  return { api, session: { kube: gateway } as unknown as ClusterSession, logged, logger };
}

const request = (s: ReturnType<typeof setup>) => ({ session: s.session, logger: s.logger, purpose: 'CRI snapshot', title: 'CRI snapshot of n1', supports: ['agent', 'ssh', 'debug-pod'] as const });

describe('resolveNodeAccess: a debug pod only after the modal', () => {
  beforeEach(() => {
    ui.trusted = true;
    ui.answer = undefined;
    ui.warnings.length = 0;
    ui.errors.length = 0;
    ui.infos.length = 0;
  });

  it('untrusted workspace: refused with a message, no modal, nothing created', async () => {
    ui.trusted = false;
    const s = setup();
    const access = await resolveNodeAccess(entry, request(s));
    expect(access).toEqual({ way: 'declined', why: 'a debug pod is not created from an untrusted workspace' });
    expect(ui.warnings).toEqual([]);
    expect(ui.errors[0]).toMatch(/^n1: PLEG Doctor does not create a debug pod from an untrusted workspace; nothing was created/);
    expect(s.api.calls).not.toContain('create');
    expect(s.logged.some((l) => /not created: a debug pod is not created from an untrusted workspace/.test(l))).toBe(true);
  });

  it('the modal shows the exact manifest; Cancel creates nothing and is logged', async () => {
    const s = setup();
    const access = await resolveNodeAccess(entry, request(s));
    expect(access.way).toBe('declined');
    expect(ui.warnings).toHaveLength(1);
    const shown = ui.warnings[0]!;
    expect(shown.options.modal).toBe(true);
    expect(shown.items).toEqual(['Create Debug Pod']);
    expect(shown.options.detail).toMatch(/^Create pod pleg-doctor\/\S+ on node n1\?\n {2}image: {6}reg\/agent:2\n/);
    expect(s.api.calls).not.toContain('create');
    expect(s.logged.some((l) => /debug pod pleg-doctor\/\S+ declined; nothing was created/.test(l))).toBe(true);
  });

  it('"Create Debug Pod" gives the debug pod way with the very manifest the modal showed', async () => {
    ui.answer = 'Create Debug Pod';
    const s = setup();
    const access = await resolveNodeAccess(entry, request(s));
    if (access.way !== 'debug-pod') throw new Error(`expected debug-pod, got ${access.way}`);
    expect(ui.warnings[0]?.options.detail?.startsWith(access.plan.confirmation)).toBe(true);
    expect(access.plan.manifest.metadata.namespace).toBe('pleg-doctor');
    expect(access.plan.manifest.spec.nodeName).toBe('n1');
    // Resolving creates nothing: the command creates it afterwards (runDebugPod).
    expect(s.api.calls).not.toContain('create');
    expect(s.logged.some((l) => /debug pod pleg-doctor\/\S+ confirmed/.test(l))).toBe(true);
  });

  it('a debug pod not allowed by the ways: no modal, the way is none with why', async () => {
    const s = setup();
    const access = await resolveNodeAccess(entry, { ...request(s), supports: ['agent', 'ssh'] });
    expect(access.way).toBe('none');
    expect(access.way === 'none' && access.why).toMatch(/no agent \(no pod labelled .* on node n1 in namespace pleg-doctor\); no SSH \(context "kind-a" has no entry in plegDoctor.nodeAccess.clusters\)/);
    expect(ui.warnings).toEqual([]);
  });
});

describe('Take CRI Snapshot through a confirmed debug pod', () => {
  beforeEach(() => {
    ui.trusted = true;
    ui.infos.length = 0;
    ui.warnings.length = 0;
  });

  it('creates the pod only after the modal, reads its snapshot, deletes it; the document and summary name the way', async () => {
    // The pod's log: what the in-pod command prints (here on a socket that is not there: a report with failed calls).
    const io = memoryIo();
    await localSnapshotCommand(['--cri-socket', '/nonexistent/pleg-doctor-test.sock', '--timeout', '500'], io, 'usage');
    const s = setup({ phases: [{ phase: 'Failed', containers: [{ name: 'snapshot', terminated: { exitCode: 1 } }] }], log: io.out() });
    const opened: SnapshotDocumentInput[] = [];
    const documents = { openSnapshot: (input: SnapshotDocumentInput) => void opened.push(input) } as unknown as SnapshotDocuments;
    ui.answer = 'Create Debug Pod';
    let atModal: string[] | undefined;
    ui.onModal = () => (atModal = [...s.api.calls]);
    await takeCriSnapshotAnyWay(entry, { session: s.session, nodeAccess: {} as NodeAccessRuntime, documents, logger: s.logger });

    expect(ui.warnings[0]?.options.modal).toBe(true);
    expect(atModal).toEqual(['daemonset']);
    expect(s.api.calls.slice(0, 2)).toEqual(['daemonset', 'create']);
    expect(s.api.calls).toContain('delete:0');
    expect(s.api.live.size).toBe(0);
    const doc = opened[0];
    expect(doc?.access).toMatch(/^via debug pod pleg-doctor\/pleg-doctor-debug-\S+ on n1$/);
    expect(doc?.report).not.toHaveProperty('access');
    expect(doc?.report.host).toBe('n1');
    expect(ui.warnings[1]?.message).toMatch(/^CRI snapshot of n1 \(via debug pod pleg-doctor\/\S+ on n1\): 0 pod sandboxes, 0 containers over /);
    expect(s.logged.some((l) => /: finished, 0 pod sandboxes, 0 containers, [1-9]\d* failed calls$/.test(l))).toBe(true);
    expect(s.logged.some((l) => /debug pod pleg-doctor\/\S+: deleted$/.test(l))).toBe(true);
  });
});
