// The kubelet log through a debug pod, with the API faked (test/support/fakePodsApi.ts) but the pod's log
// real: what `pleg-doctor kubelet-journal` prints (stdout, then its stderr) on a journal written by
// systemd's own writer, which is what the container's log holds.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubeletJournalCommand } from '../../../../../src/cli/commands/kubeletJournal';
import { silentLogger } from '../../../../../src/core/util/logger';
import { planDebugPodKubeletLog, readKubeletLogThroughDebugPod } from '../../../../../src/infra/nodeAccess/debugPod/debugPodKubeletLog';
import { DebugPodError } from '../../../../../src/infra/nodeAccess/debugPod/runDebugPod';
import { fakePodsApi } from '../../../../support/fakePodsApi';
import { writeJournal, type ExportEntry } from '../../../../support/journalRemote';
import { memoryIo } from '../../../../support/memoryIo';

const T0 = Date.UTC(2026, 10, 28, 3, 20, 0) * 1000;
const entry = (i: number, message: string): ExportEntry => ({
  realtimeUsec: T0 + i * 1_000_000,
  monotonicUsec: 9_000_000 + i * 1_000_000,
  bootId: '0123456789abcdef0123456789abcdef',
  fields: [['_HOSTNAME', 'worker-3'], ['_SYSTEMD_UNIT', 'kubelet.service'], ['SYSLOG_IDENTIFIER', 'kubelet'], ['_PID', '900'], ['MESSAGE', message]],
});

let dir: string;
let podLog: string;
let printed: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pleg-debugpod-log-'));
  writeJournal(
    join(dir, 'system.journal'),
    [entry(0, 'I1128 03:20:00.000000     900 kubelet.go:2200] "SyncLoop ADD"'), entry(1, `E1128 big ${'z'.repeat(900)}`), entry(2, 'E1128 03:20:02.000000     900 kubelet.go:2400] "PLEG is not healthy"')],
    { compact: true },
  );
  const io = memoryIo();
  await kubeletJournalCommand(['--since', `@${T0 / 1e6}`, '--until', `@${T0 / 1e6 + 60}`, '--journal-dir', dir], io);
  printed = io.out();
  podLog = io.out() + io.err();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const succeeded = { phase: 'Succeeded', containers: [{ name: 'kubelet-log', terminated: { exitCode: 0, reason: 'Completed' } }] };
const fast = { pollMs: 5, deleteMs: 300 };
const window = { sinceEpochMs: T0 / 1000, untilEpochMs: T0 / 1000 + 60_000 };

describe('the kubelet log through a debug pod', () => {
  it('returns the journal as the SSH path does, the summary apart, each step to onStage, the pod deleted', async () => {
    const api = fakePodsApi({ phases: [{ phase: 'Pending' }, { phase: 'Running' }, succeeded], log: podLog, goneAfterReads: 1 });
    const plan = await planDebugPodKubeletLog(api, { node: 'worker-3', namespace: 'pleg-doctor', image: 'img:1', window, deadlineSeconds: 120 }, new AbortController().signal);
    expect(plan.manifest.spec.containers[0]?.args.slice(0, 6)).toEqual(['kubelet-journal', '--since', `@${T0 / 1e6}`, '--until', `@${T0 / 1e6 + 60}`, '--journal-dir']);
    expect(plan.confirmation).toContain('/var/log/journal from the node, read-only');
    const stages: string[] = [];
    const r = await readKubeletLogThroughDebugPod(api, plan.manifest, { logger: silentLogger, signal: new AbortController().signal, onStage: (s) => stages.push(s), timeouts: fast });
    expect(r.outcome.text).toBe(printed);
    expect(r.outcome.text.split('\n').filter((l) => l !== '')).toHaveLength(2);
    expect(r.outcome.text).toMatch(/^Nov 28 \d\d:20:00\.000000 worker-3 kubelet\[900\]: I1128 .*"SyncLoop ADD"\n/);
    expect(r.outcome).toMatchObject({ kind: 'journal', truncated: false, timedOut: false, exitCode: 0 });
    expect(r.outcome.stderr).toContain('1 entry of the window is compressed (zstd: 1) and was not read');
    expect(r.summary).toMatchObject({ entries: 2, compressedNotRead: { zstd: 1 }, files: 1 });
    expect(r.access.label).toBe(`via debug pod ${r.access.pod} on worker-3`);
    expect(r.deleted).toBe(true);
    expect(api.calls).toContain('log:kubelet-log');
    expect(api.live.size).toBe(0);
    expect(stages.some((s) => /creating on node worker-3/.test(s))).toBe(true);
    expect(stages.some((s) => /deleted$/.test(s))).toBe(true);
  });

  it('a pod log without the summary line is an error with the pod end and the log tail, the pod deleted', async () => {
    const api = fakePodsApi({ phases: [{ phase: 'Failed', containers: [{ name: 'kubelet-log', terminated: { exitCode: 2, reason: 'Error' } }] }], log: 'pleg-doctor: unknown command "kubelet-journal"\n', goneAfterReads: 0 });
    const plan = await planDebugPodKubeletLog(api, { node: 'worker-3', namespace: 'pleg-doctor', image: 'old:0.1', window, deadlineSeconds: 60 }, new AbortController().signal);
    const err = await readKubeletLogThroughDebugPod(api, plan.manifest, { logger: silentLogger, signal: new AbortController().signal, timeouts: fast }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DebugPodError);
    expect((err as Error).message).toMatch(/ended Failed; container kubelet-log: exit 2 \(Error\) without the journal's summary line in its log; its last lines:\npleg-doctor: unknown command "kubelet-journal"/);
    expect(api.live.size).toBe(0);
  });
});
