// `pleg-doctor logs --node N --access debug-pod`: the API faked (test/support/fakePodsApi.ts), the pod's log
// real: what `pleg-doctor kubelet-journal` prints on a journal written by systemd's own writer from a real
// kubelet log of a PLEG fault (test/fixtures/logs/observed-1.36-containerd2.3-fault.log). The findings are
// those of `logs FILE` on the same journal text; nothing is created without --yes.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDebugPodLogsCommand, parseDebugPodLogsArgs } from '../../../../src/cli/commands/debugPodLogs';
import { kubeletJournalCommand } from '../../../../src/cli/commands/kubeletJournal';
import { createLogsCommand, wantsNodeLog } from '../../../../src/cli/commands/logs';
import { isCliUsageError } from '../../../../src/cli/io';
import type { KubeNode } from '../../../../src/core/kube/objects';
import { fakePodsApi, fakePodsGateway, type FakePodScript } from '../../../support/fakePodsApi';
import { kubeletLogEntries, writeJournal, type ExportEntry } from '../../../support/journalRemote';
import { memoryIo } from '../../../support/memoryIo';

const FIXTURE = join(__dirname, '../../../fixtures/logs/observed-1.36-containerd2.3-fault.log');
const node: KubeNode = { metadata: { name: 'n1' } };
let dir: string;
let podLog: string;
let journalText: string;
let since: number;
let until: number;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pleg-logs-debugpod-'));
  const entries = kubeletLogEntries(readFileSync(FIXTURE, 'utf8'), 'n1');
  writeJournal(join(dir, 'system.journal'), entries, { compact: true });
  since = Math.floor((entries[0] as ExportEntry).realtimeUsec / 1e6);
  until = Math.ceil((entries[entries.length - 1] as ExportEntry).realtimeUsec / 1e6);
  const io = memoryIo();
  await kubeletJournalCommand(['--since', `@${since}`, '--until', `@${until}`, '--journal-dir', dir], io);
  journalText = io.out();
  podLog = io.out() + io.err();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const succeeded = { phase: 'Succeeded', containers: [{ name: 'kubelet-log', terminated: { exitCode: 0, reason: 'Completed' } }] };

function command(script: FakePodScript) {
  const api = fakePodsApi(script);
  const run = createDebugPodLogsCommand(() => fakePodsGateway(api, node), { confirmer: () => ({ interactive: false, ask: () => Promise.reject(new Error('not asked')) }), timeouts: { pollMs: 5, deleteMs: 500 } }, () => until * 1000);
  return { api, run };
}
const BASE = (): string[] => ['--node', 'n1', '--access', 'debug-pod', '--image', 'img:1', '--namespace', 'ns1', '--since', `@${since}`, '--until', `@${until}`];

describe('logs --node N --access debug-pod', () => {
  it('prints the findings of the journal the pod read, as logs FILE does, with the way and the read in the summary', async () => {
    const { api, run } = command({ phases: [{ phase: 'Running' }, succeeded], log: podLog, goneAfterReads: 1 });
    const io = memoryIo();
    const code = await run([...BASE(), '--yes'], io);
    const fromFile = memoryIo(journalText);
    const fileCode = await createLogsCommand()(['-'], fromFile);
    const lines = io.out().trimEnd().split('\n');
    const fileLines = fromFile.out().trimEnd().split('\n');
    expect(lines.slice(0, -1)).toEqual(fileLines.slice(0, -1));
    expect(lines.some((l) => l.includes('"pleg-stretch"'))).toBe(true);
    const last = JSON.parse(lines[lines.length - 1] as string) as { summary: unknown; access: { way: string; label: string }; journal: { entries: number; compressedNotRead: object } };
    expect(last.summary).toEqual((JSON.parse(fileLines[fileLines.length - 1] as string) as { summary: unknown }).summary);
    expect(last.access.label).toMatch(/^via debug pod ns1\/pleg-doctor-debug-[a-z0-9]{5} on n1$/);
    expect(last.journal.entries).toBe(journalText.split('\n').length - 1);
    expect(last.journal.compressedNotRead).toEqual({ zstd: 1 });
    expect(io.err()).toContain('1 entry of the window is compressed (zstd: 1) and was not read');
    expect(code).toBe(fileCode);
    expect(code).toBe(1);
    expect(api.live.size).toBe(0);
    const created = api.created[0] as { spec: { containers: { args: string[] }[] } };
    expect(created.spec.containers[0]?.args).toEqual(['kubelet-journal', '--since', `@${since}`, '--until', `@${until}`, '--journal-dir', '/var/log/journal', '--max-bytes', '8388608', '--timeout', '105000']);
  });

  it('--raw prints the journal itself', async () => {
    const { run } = command({ phases: [succeeded], log: podLog, goneAfterReads: 0 });
    const io = memoryIo();
    expect(await run([...BASE(), '--yes', '--raw'], io)).toBe(0);
    expect(io.out()).toBe(journalText);
  });

  it('without --yes and without a terminal: exit 2 naming --yes, nothing created', async () => {
    const { api, run } = command({ phases: [succeeded] });
    const io = memoryIo();
    const failure = await run(BASE(), io).catch((e: unknown) => e);
    expect(isCliUsageError(failure)).toBe(true);
    expect(String(failure)).toMatch(/logs: creating a debug pod needs a confirmation.*pass --yes/);
    expect(io.err()).toContain('/var/log/journal from the node, read-only');
    expect(api.calls).not.toContain('create');
  });

  it('routes --node/--access to the node, a file otherwise; parses the window', () => {
    expect(wantsNodeLog(['--node', 'n1', '--access', 'debug-pod'])).toBe(true);
    expect(wantsNodeLog(['kubelet.log'])).toBe(false);
    expect(wantsNodeLog(['--', '--node'])).toBe(false);
    const now = Date.UTC(2026, 10, 28, 4, 0, 0);
    expect(parseDebugPodLogsArgs(['--node', 'n1', '--access', 'debug-pod'], now)).toMatchObject({ sinceMs: now - 30 * 60_000, untilMs: now, journalDirs: ['/var/log/journal'], deadlineSeconds: 120 });
    expect(parseDebugPodLogsArgs(['--node', 'n1', '--access', 'debug-pod', '--since', '2026-11-28T03:00:00Z', '--journal-dir', '/run/log/journal'], now)).toMatchObject({ sinceMs: Date.UTC(2026, 10, 28, 3), journalDirs: ['/run/log/journal'] });
    expect(() => parseDebugPodLogsArgs(['--node', 'n1', '--access', 'ssh'], now)).toThrow(/--access debug-pod/);
    expect(() => parseDebugPodLogsArgs(['--access', 'debug-pod'], now)).toThrow(/needs --node NAME/);
    expect(() => parseDebugPodLogsArgs(['--node', 'n1', '--access', 'debug-pod', '--since', 'yesterday'], now)).toThrow(/logs: --since must be/);
    expect(() => parseDebugPodLogsArgs(['--node', 'n1', '--access', 'debug-pod', '--max-bytes', '99999999'], now)).toThrow(/--max-bytes/);
  });
});
