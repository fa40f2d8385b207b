// "Open Kubelet Log from Node" through a debug pod (issue #29) on the real 1.26 cluster, no fault window:
// the built CLI (dist/, `npm run build` first) runs `logs --node … --access debug-pod --yes` with the image
// of deploy/image/build-offline.sh imported into the node's containerd. The kit's node is this machine, so
// a journal directory made here (a journal file written by systemd's own writer from a real kubelet log of a
// PLEG fault, test/support/journalRemote.ts) is the node's: the pod mounts it read-only and reads it as
// root without capabilities, and
// - `--raw` returns the journal byte for byte as `kubelet-journal` prints it here (the pod's TZ is UTC),
//   the compressed entry counted, and leaves no pod behind;
// - without --raw, the findings are those of `logs FILE` on the same text (a PLEG stretch among them);
// - a journal directory the node does not have: exit 1 on the kubelet's FailedMount event, quoted, the pod
//   deleted, and the directory still absent (type Directory never creates it on the node).

import { chmodSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubeletJournalCommand } from '../../../src/cli/commands/kubeletJournal';
import { createLogsCommand } from '../../../src/cli/commands/logs';
import { kubeletLogEntries, writeJournal, type ExportEntry } from '../../support/journalRemote';
import { memoryIo } from '../../support/memoryIo';
import { AGENT_IMAGE, importAgentImage } from './agentInstall';
import type { RealCluster } from './cluster';
import { debugPods, runCli } from './debugPodCli';
import { REPO, realCluster, scratchDir } from './cluster';

const CLI = join(REPO, 'dist/cli.js');
const FIXTURE = join(REPO, 'test/fixtures/logs/observed-1.36-containerd2.3-fault.log');
const MACHINE_ID = '3d1219c7c4c5404aaa1f6d2a48adfda4';
let cluster: RealCluster;
const cli = (args: string[], onStderr?: Parameters<typeof runCli>[2], timeoutMs?: number) => runCli(cluster, args, onStderr, timeoutMs);
let scratch: { dir: string; remove: () => void };
let journalDir: string;
let since: number;
let until: number;
let expected: string;


const BASE = (): string[] => ['logs', '--node', cluster.nodeName, '--access', 'debug-pod', '--image', AGENT_IMAGE, '--namespace', 'default', '--journal-dir', journalDir, '--since', `@${since}`, '--until', `@${until}`, '--yes'];

beforeAll(async () => {
  if (!existsSync(CLI) || !existsSync(join(REPO, 'dist/cliRemote.js'))) throw new Error(`${CLI} or dist/cliRemote.js is missing: run npm run build first`);
  cluster = realCluster();
  scratch = scratchDir();
  importAgentImage(cluster, scratch.dir);
  // As journald lays it out: DIR/<machine-id>/system.journal, the file 0640, owned by root.
  journalDir = join(scratch.dir, 'journal');
  mkdirSync(join(journalDir, MACHINE_ID), { recursive: true });
  const entries = kubeletLogEntries(readFileSync(FIXTURE, 'utf8'), cluster.nodeName);
  const file = join(journalDir, MACHINE_ID, 'system.journal');
  writeJournal(file, entries, { compact: true });
  chmodSync(file, 0o640);
  since = Math.floor((entries[0] as ExportEntry).realtimeUsec / 1e6);
  until = Math.ceil((entries[entries.length - 1] as ExportEntry).realtimeUsec / 1e6);
  const saved = process.env['TZ'];
  process.env['TZ'] = 'UTC';
  try {
    const io = memoryIo();
    await kubeletJournalCommand(['--since', `@${since}`, '--until', `@${until}`, '--journal-dir', journalDir], io);
    expected = io.out();
  } finally {
    if (saved === undefined) delete process.env['TZ'];
    else process.env['TZ'] = saved;
  }
}, 300_000);

afterAll(() => scratch?.remove());

describe('logs --access debug-pod on the real cluster', () => {
  it('--raw: the journal of the node as kubelet-journal prints it, the compressed entry counted, no pod left', async () => {
    const run = await cli([...BASE(), '--raw']);
    expect(run.code, run.stderr).toBe(0);
    expect(expected.split('\n').length).toBeGreaterThan(100);
    expect(run.stdout).toBe(expected);
    expect(run.stderr).toMatch(/1 entry of the window is compressed \(zstd: 1\) and was not read/);
    expect(run.stderr).toMatch(/root \(user 0\) without any capability/);
    expect(run.stderr).toMatch(/deleted/);
    expect(debugPods(cluster), run.stderr).toEqual([]);
  }, 180_000);

  it("the findings are logs FILE's on the same journal, with the way named", async () => {
    const run = await cli(BASE());
    const local = memoryIo(expected);
    const localCode = await createLogsCommand()(['-'], local);
    const lines = run.stdout.trimEnd().split('\n');
    const localLines = local.out().trimEnd().split('\n');
    expect(lines.slice(0, -1)).toEqual(localLines.slice(0, -1));
    expect(lines.some((l) => l.includes('"pleg-stretch"'))).toBe(true);
    const last = JSON.parse(lines[lines.length - 1] as string) as { access: { label: string }; journal: { entries: number } };
    expect(last.access.label).toMatch(new RegExp(`^via debug pod default/pleg-doctor-debug-[a-z0-9]{5} on ${cluster.nodeName}$`));
    expect(last.journal.entries).toBe(expected.split('\n').length - 1);
    expect(run.code, run.stderr).toBe(localCode);
    expect(debugPods(cluster), run.stderr).toEqual([]);
  }, 180_000);

  it('a journal directory the node does not have: FailedMount quoted, pod deleted, nothing created on the node', async () => {
    const missing = join(scratch.dir, 'no-such-journal');
    const args = BASE();
    args[args.indexOf('--journal-dir') + 1] = missing;
    const run = await cli(args, undefined, 240_000);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toMatch(new RegExp(`cannot start: FailedMount: MountVolume\\.SetUp failed for volume "journal-0" : hostPath type check failed: ${missing.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not a directory`));
    expect(run.stderr).toMatch(/deleted\n/);
    expect(existsSync(missing)).toBe(false);
    expect(debugPods(cluster), run.stderr).toEqual([]);
  }, 260_000);
});
