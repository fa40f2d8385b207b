// Issue 25, point 2, as a user meets it: the built `pleg-doctor diagnose --evidence` (dist bundles built
// here as the build writes them) on evidence folders copied a week after their capture, every file's
// modification time one instant. A healthy node fails no check (exit 0), a frozen runtime still names
// runtime-hang (exit 1), and the report says which clock the staleness check used.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as esbuild from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliTargets } from '../../../../esbuild.mjs';
import { copiedFolder, frozenFiles, healthyFiles, removeCopiedFolders } from '../../../support/copiedFolder';

const ROOT = resolve(__dirname, '../../../..');
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pleg-cli-clock-'));
  await Promise.all(cliTargets({ production: true, outdir: dir }).map((t) => esbuild.build({ ...t, absWorkingDir: ROOT, logLevel: 'silent' })));
}, 120_000);

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  removeCopiedFolders();
});

function diagnoseEvidence(folder: string, format: 'md' | 'json' = 'md') {
  const r = spawnSync(process.execPath, [join(dir, 'cli.js'), 'diagnose', '--evidence', folder, '--format', format], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('pleg-doctor diagnose --evidence on copied folders (built CLI)', () => {
  it('healthy, copied a week later: exit 0, nothing fails, PLEG health names its clock', () => {
    const r = diagnoseEvidence(copiedFolder(healthyFiles(true)));
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('No problem found.');
    expect(r.stdout).toMatch(/\| PLEG health as the kubelet reports it \| clear \| last relist started 2\.1s ago \(healthy up to and including 3m0s; clock: metrics\.txt's capture time from the evidence: kubelet\.log line 1485/u);
    expect(r.stderr).toContain('copied, not a clock');
  });

  it('healthy without its log: exit 0; PLEG health unknown, saying why', () => {
    const r = diagnoseEvidence(copiedFolder(healthyFiles(false)), 'json');
    expect(r.status).toBe(0);
    const checks = (JSON.parse(r.stdout) as { checks: { id: string; verdict: string; summary: string }[] }).checks;
    expect(checks.filter((c) => c.verdict === 'fail')).toEqual([]);
    const pleg = checks.find((c) => c.id === 'pleg-health');
    expect(pleg?.verdict).toBe('unknown');
    expect(pleg?.summary).toContain('clock: metrics.txt\'s capture time from the evidence: metrics.txt: go_memstats_last_gc_time_seconds');
  });

  it('frozen runtime, copied a week later: exit 1, runtime-hang named, the clock in the PLEG evidence', () => {
    const r = diagnoseEvidence(copiedFolder(frozenFiles(true)));
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('### Problem: The container runtime is not answering CRI calls');
    expect(r.stdout).toContain("the kubelet's access-log line for GET /metrics number 12");
  });
});
