// Open Kubelet Log from Node through a debug pod: the pod is created only after the modal (none in an
// untrusted workspace, none on Cancel, none when the ways forbid it), its journal comes back as the
// document's text with a note for what the reader could not read, and the pod is deleted.

import { beforeEach, describe, expect, it, vi } from 'vitest';
import { formatJournalSummaryLine } from '../../../../src/core/journal/journalSummaryLine';
import type { NodeEntry } from '../../../../src/core/tree/contextNodes';
import type { Logger } from '../../../../src/core/util/logger';
import type { ClusterSession } from '../../../../src/host/cluster/clusterSession';
import type { KubeGateway } from '../../../../src/infra/kube/gateway';
import { fakePodsApi, type FakePodScript, type FakePodsApi } from '../../../support/fakePodsApi';

const ui = vi.hoisted(() => ({
  trusted: true,
  answer: undefined as string | undefined,
  ways: undefined as unknown,
  modals: [] as Array<{ message: string; detail?: string }>,
  errors: [] as string[],
}));

vi.mock('vscode', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  ProgressLocation: { Notification: 15 },
  window: {
    withProgress: (_o: unknown, task: (p: unknown, token: unknown) => Promise<unknown>) => task({ report: () => undefined }, { onCancellationRequested: () => ({ dispose: () => undefined }) }),
    showWarningMessage: (message: string, options: { modal?: boolean; detail?: string }) => {
      if (typeof options === 'object' && options.modal === true) ui.modals.push({ message, ...(options.detail !== undefined ? { detail: options.detail } : {}) });
      return Promise.resolve(ui.answer);
    },
    showErrorMessage: (message: string) => {
      ui.errors.push(message);
      return Promise.resolve(undefined);
    },
  },
  workspace: {
    get isTrusted() {
      return ui.trusted;
    },
    getConfiguration: () => ({ get: (key: string) => (key === 'ways' ? ui.ways : undefined) }),
  },
}));

const { fetchKubeletLogThroughDebugPod, debugPodLogNote } = await import('../../../../src/host/kubeletLog/kubeletLogDebugPod');

const entry = { kind: 'node', context: 'kind-a', name: 'n1', node: { metadata: { name: 'n1' } } } as unknown as NodeEntry;
const window = { sinceEpochMs: Date.parse('2026-11-28T10:00:00Z'), untilEpochMs: Date.parse('2026-11-28T10:15:00Z') };
const JOURNAL = 'Nov 28 10:01:02.345678 n1 kubelet[812]: I1128 10:01:02.345600     812 kubelet.go:2450] "SyncLoop (PLEG): event for pod"\n';

function setup(script: Partial<FakePodScript> = {}): { api: FakePodsApi; deps: { session: ClusterSession; logger: Logger }; logged: string[] } {
  const api = fakePodsApi({ phases: [{ phase: 'Succeeded', containers: [{ name: 'snapshot', terminated: { exitCode: 0 } }] }], daemonSet: [{ container: 'agent', image: 'reg/agent:2' }], ...script });
  const logged: string[] = [];
  const log = (m: string): void => void logged.push(m);
  const logger = { info: log, warn: log, error: log, debug: log } as unknown as Logger;
  return { api, deps: { session: { kube: { podsApi: () => api } as unknown as KubeGateway } as unknown as ClusterSession, logger }, logged };
}

const summary = formatJournalSummaryLine({ entries: 1, compressedNotRead: { zstd: 2 }, truncated: false, timedOut: false, files: 1, errors: [] });

describe('the kubelet log through a debug pod', () => {
  beforeEach(() => {
    ui.trusted = true;
    ui.answer = undefined;
    ui.ways = undefined;
    ui.modals.length = 0;
    ui.errors.length = 0;
  });

  it('confirmed: the pod reads the journal window, the document gets its text and what was not read, the pod is deleted', async () => {
    ui.answer = 'Create Debug Pod';
    const s = setup({ log: `${JOURNAL}${summary}` });
    const fetched = await fetchKubeletLogThroughDebugPod(entry, window, 'the agent does not serve the kubelet\'s log; no SSH is configured for the node; the NodeLogQuery failed (403)', s.deps);
    expect(fetched).toEqual({ kind: 'log', source: 'debug-pod', text: JOURNAL, note: '-- PLEG Doctor (debug pod): 2 zstd compressed entries of the window could not be read (journalctl shows them) --' });
    expect(ui.modals).toHaveLength(1);
    expect(ui.modals[0]?.detail).toMatch(/on node n1\?/);
    expect(ui.modals[0]?.detail).toContain('the NodeLogQuery failed (403)');
    const created = s.api.created[0] as { spec: { containers: { args: string[] }[]; volumes: { hostPath?: { path: string } }[] } };
    expect(created.spec.containers[0]?.args).toContain('kubelet-journal');
    expect(created.spec.volumes.map((v) => v.hostPath?.path)).toContain('/var/log/journal');
    expect(s.api.calls.indexOf('create')).toBeLessThan(s.api.calls.findIndex((c) => c.startsWith('delete:')));
    expect(s.api.live.size).toBe(0);
  });

  it('Cancel, an untrusted workspace, or ways without debug-pod: nothing is created, and the reason comes back', async () => {
    const declined = setup();
    expect(await fetchKubeletLogThroughDebugPod(entry, window, 'why', declined.deps)).toEqual({ kind: 'failed', message: 'a debug pod was offered and not confirmed; nothing was created' });
    expect(declined.api.calls).not.toContain('create');

    ui.trusted = false;
    const untrusted = setup();
    expect((await fetchKubeletLogThroughDebugPod(entry, window, 'why', untrusted.deps)).kind).toBe('failed');
    expect(untrusted.api.calls).not.toContain('create');
    expect(ui.modals).toHaveLength(1);

    ui.trusted = true;
    ui.ways = ['agent', 'ssh'];
    const forbidden = setup();
    expect(await fetchKubeletLogThroughDebugPod(entry, window, 'why', forbidden.deps)).toEqual({ kind: 'failed', message: 'why; a debug pod is not among plegDoctor.nodeAccess.ways' });
    expect(forbidden.api.calls).toEqual([]);
  });

  it('notes only what was left out', () => {
    const dirs = ['/var/log/journal'];
    expect(debugPodLogNote({ compressedNotRead: {}, truncated: false, timedOut: false, files: 1 }, dirs)).toBeUndefined();
    expect(debugPodLogNote({ compressedNotRead: { zstd: 0 }, truncated: true, timedOut: true, files: 2 }, dirs)).toBe('-- PLEG Doctor (debug pod): output truncated at the cap; choose a shorter window for the rest; the reader stopped at its deadline; the log stops here --');
  });

  it('says when the node has no journal file where the pod looked (the 1.26 kit: its kubelet logs to a file)', async () => {
    expect(debugPodLogNote({ compressedNotRead: {}, truncated: false, timedOut: false, files: 0 }, ['/var/log/journal'])).toBe(
      '-- PLEG Doctor (debug pod): no journal file in /var/log/journal on the node: its journal is kept elsewhere (/run/log/journal when volatile) or its kubelet does not log to journald --',
    );
    ui.answer = 'Create Debug Pod';
    // What `pleg-doctor kubelet-journal` prints for an empty directory: journalctl's "-- No entries --", files 0.
    const empty = formatJournalSummaryLine({ entries: 0, compressedNotRead: {}, truncated: false, timedOut: false, files: 0, errors: [] });
    const s = setup({ log: `-- No entries --\n${empty}` });
    const fetched = await fetchKubeletLogThroughDebugPod(entry, window, 'why', s.deps);
    expect(fetched).toMatchObject({ kind: 'log', text: '-- No entries --\n', note: expect.stringContaining('no journal file in /var/log/journal on the node') });
  });
});
