// Real bundles from a real kubelet 1.26 (test/fixtures/evidence-realk8s-1.26: healthy, and containerd
// SIGSTOPped until "PLEG is not healthy"), copied a week later without their bundle.json: the verdicts the
// evidence's own clock gives must agree with the collector's clock (bundle.json kept), the clock is named,
// and nothing is measured from the copy's modification time.

import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { createDiagnoseCommand, EXIT_CHECK_FAILS } from '../../../../src/cli/commands/diagnose';
import { runCli } from '../../../../src/cli/dispatch';
import type { KubeGateway } from '../../../../src/infra/kube/gateway';
import { memoryIo } from '../../../support/memoryIo';
import { copiedFolder, removeCopiedFolders } from '../../../support/copiedFolder';

afterAll(removeCopiedFolders);

const BASE = new URL('../../../fixtures/evidence-realk8s-1.26/', import.meta.url);

function bundleFiles(phase: string, withManifest: boolean): Record<string, string> {
  const dir = new URL(`${phase}/`, BASE);
  const files: Record<string, string> = {};
  for (const name of readdirSync(dir)) if (withManifest || name !== 'bundle.json') files[name] = readFileSync(new URL(name, dir), 'utf8');
  return files;
}

type Check = { id: string; verdict: string; summary: string; evidence: string[] };

async function diagnoseFolder(dir: string) {
  const io = memoryIo();
  const noGateway = (): KubeGateway => {
    throw new Error('--evidence must not reach a cluster');
  };
  const code = await runCli(['diagnose', '--evidence', dir, '--format', 'json'], io, { diagnose: { summary: '', load: () => Promise.resolve(createDiagnoseCommand(noGateway)) } }, '1');
  const checks = (JSON.parse(io.out()) as { checks: Check[] }).checks;
  return { code, checks, err: io.err(), verdict: (id: string) => checks.find((c) => c.id === id) };
}

const problems = (checks: Check[]): string[] => checks.filter((c) => c.verdict === 'fail').map((c) => c.id);

describe('real kubelet 1.26 bundles, copied a week later without bundle.json', () => {
  it('healthy: no check fails (the collector agrees); PLEG health is unknown, not fail: the Go GC bound reaches past 3 min', async () => {
    const collector = await diagnoseFolder(copiedFolder(bundleFiles('healthy', true)));
    expect(problems(collector.checks)).toEqual([]);
    const copied = await diagnoseFolder(copiedFolder(bundleFiles('healthy', false)));
    expect(copied.code).toBe(0);
    expect(problems(copied.checks)).toEqual([]);
    const pleg = copied.verdict('pleg-health');
    expect(pleg?.verdict).toBe('unknown');
    expect(pleg?.summary).toContain("clock: metrics-later.txt's capture time from the evidence");
    expect(copied.err).toContain('all 7 files have the same modification time (2026-11-29T12:00:00Z): copied, not a clock');
  });

  it('frozen: runtime-hang and PLEG health fail as with the collector clock; the PLEG age is a range from the Go GC time', async () => {
    const collector = await diagnoseFolder(copiedFolder(bundleFiles('frozen', true)));
    const copied = await diagnoseFolder(copiedFolder(bundleFiles('frozen', false)));
    expect(copied.code).toBe(EXIT_CHECK_FAILS);
    expect(problems(copied.checks)).toEqual(problems(collector.checks));
    expect(problems(copied.checks)).toEqual(['pleg-health', 'runtime-hung']);
    const evidence = copied.verdict('pleg-health')?.evidence.join('\n') ?? '';
    expect(evidence).toMatch(/the last successful relist started between 3m46\.\ds and 7m16\.\ds ago \(clock: metrics-later\.txt's capture time from the evidence: metrics-later\.txt: go_memstats_last_gc_time_seconds = 2026-11-28T04:35:04Z/u);
    // The collector's own clock (the later scrape's start, 04:35:09.6Z) measured 3m51.5s: inside that range.
    expect(collector.verdict('pleg-health')?.evidence.join('\n')).toContain("started 3m51.5s ago (clock: the collector's clock (the scrape at 2026-11-28T04:35:09.576Z))");
  });
});
