// Issue 25, point 2: `diagnose --evidence` on a folder that was copied (every modification time one instant,
// a week after the capture) must judge staleness by the capture time the evidence gives, name that clock,
// make a staleness check unknown when the time is uncertain, and never fail against contradicting evidence.
// The files are the real kubelet 1.32 recording's (see copiedFolder.ts for the two derived Node objects).

import { utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDiagnoseCommand, EXIT_CHECK_FAILS } from '../../../../src/cli/commands/diagnose';
import { runCli } from '../../../../src/cli/dispatch';
import type { KubeGateway } from '../../../../src/infra/kube/gateway';
import { memoryIo } from '../../../support/memoryIo';
import { nodeObject } from '../../../support/diagnoseBuilders';
import { copiedFolder, fixture132, frozenFiles, healthyFiles, healthyNode132, removeCopiedFolders } from '../../../support/copiedFolder';

afterAll(removeCopiedFolders);

const noGateway = (): KubeGateway => {
  throw new Error('--evidence must not reach a cluster');
};

type Check = { id: string; cause: string; verdict: string; summary: string; evidence: string[] };

async function diagnoseFolder(dir: string) {
  const io = memoryIo();
  const code = await runCli(['diagnose', '--evidence', dir, '--format', 'json'], io, { diagnose: { summary: '', load: () => Promise.resolve(createDiagnoseCommand(noGateway)) } }, '1');
  const checks = (JSON.parse(io.out()) as { checks: Check[] }).checks;
  const check = (id: string): Check => {
    const c = checks.find((x) => x.id === id);
    if (c === undefined) throw new Error(`no check ${id}`);
    return c;
  };
  return { code, checks, check, err: io.err(), failing: checks.filter((c) => c.verdict === 'fail').map((c) => c.id) };
}

describe('a healthy node, copied a week later', () => {
  it('with its kubelet log: the access-log line dates metrics.txt exactly; PLEG health is ok and says so; exit 0', async () => {
    const r = await diagnoseFolder(copiedFolder(healthyFiles(true)));
    expect(r.failing).toEqual([]);
    expect(r.code).toBe(0);
    const pleg = r.check('pleg-health');
    expect(pleg.verdict).toBe('ok');
    expect(pleg.summary).toMatch(/^last relist started 2\.1s ago \(healthy up to and including 3m0s; clock: metrics\.txt's capture time from the evidence: kubelet\.log line 1485: the kubelet's access-log line for GET \/metrics number 1 since its start/u);
    expect(r.err).toContain('all 6 files have the same modification time (2026-11-29T12:00:00Z): copied, not a clock');
    expect(r.err).toContain('no bundle.json: each file\'s capture time is taken from the evidence itself');
  });

  it('without a log: only the Go GC bound; the age range reaches past 3 min, so PLEG health is unknown with the reason; exit 0', async () => {
    const r = await diagnoseFolder(copiedFolder(healthyFiles(false)));
    expect(r.failing).toEqual([]);
    expect(r.code).toBe(0);
    const pleg = r.check('pleg-health');
    expect(pleg.verdict).toBe('unknown');
    expect(pleg.summary).toContain('kubelet_pleg_last_seen_seconds says the last relist started between 333ms and 3m30.3s ago');
    expect(pleg.summary).toContain('go_memstats_last_gc_time_seconds = 2026-11-22T02:59:47Z');
    expect(pleg.summary).toContain('that range reaches past 3m0s, so it cannot tell healthy from unhealthy');
    // No check takes the week-old copy for "now".
    expect(JSON.stringify(r.checks)).not.toMatch(/143h|16[0-9]h/u);
  });
});

describe('a frozen runtime, copied a week later', () => {
  it('with its kubelet log: runtime-hang still named; PLEG health fails by the access-log clock, which it names; exit 1', async () => {
    const r = await diagnoseFolder(copiedFolder(frozenFiles(true)));
    expect(r.code).toBe(EXIT_CHECK_FAILS);
    expect(r.check('runtime-hung')).toMatchObject({ cause: 'runtime-hang', verdict: 'fail' });
    const pleg = r.check('pleg-health');
    expect(pleg.verdict).toBe('fail');
    expect(pleg.evidence.join('\n')).toMatch(
      /the last successful relist started between 4m55\.\ds and 5m1\.\ds ago \(clock: metrics\.txt's capture time from the evidence: kubelet\.log line 3859: the kubelet's access-log line for GET \/metrics number 12/u,
    );
  });

  it('without a log: the Go GC time alone proves the relist older than 3 min; runtime-hang named; exit 1', async () => {
    const r = await diagnoseFolder(copiedFolder(frozenFiles(false)));
    expect(r.code).toBe(EXIT_CHECK_FAILS);
    expect(r.check('runtime-hung').verdict).toBe('fail');
    const pleg = r.check('pleg-health');
    expect(pleg.verdict).toBe('fail');
    expect(pleg.evidence.join('\n')).toMatch(/started between 4m50\.\ds and 8m20\.\ds ago \(clock: metrics\.txt's capture time from the evidence: .*go_memstats_last_gc_time_seconds = 2026-11-22T03:05:33Z/u);
  });

  it('and without the Ready message: the metric alone fails PLEG health, with the clock named', async () => {
    const files = frozenFiles(false);
    files['node.json'] = JSON.stringify({ kind: 'Node', metadata: { name: 'pleg-node' }, status: {} });
    const r = await diagnoseFolder(copiedFolder(files));
    const pleg = r.check('pleg-health');
    expect(pleg.verdict).toBe('fail');
    expect(pleg.summary).toMatch(/^PLEG is unhealthy: the last relist started between 4m50\.\ds and 8m20\.\ds ago/u);
  });
});

describe('a folder gathered by hand, never copied', () => {
  it('the files\' modification times differ, so each is a clock: metrics.txt between its last GC and when curl finished it', async () => {
    const dir = copiedFolder(frozenFiles(false));
    // When the recorder's requests ended (metrics-requests.txt, events.txt): each file written as it came.
    const written: Record<string, string> = {
      'node.json': '2026-11-22T03:05:46Z',
      'metrics.txt': '2026-11-22T03:05:44.413Z',
      'configz.json': '2026-11-22T02:59:49.047Z',
      'healthz.txt': '2026-11-22T03:05:38.448Z',
      'goroutines.txt': '2026-11-22T03:05:38.473Z',
    };
    for (const [name, iso] of Object.entries(written)) utimesSync(join(dir, name), new Date(iso), new Date(iso));
    const r = await diagnoseFolder(dir);
    expect(r.err).toContain("the files' modification times differ");
    const pleg = r.check('pleg-health');
    expect(pleg.verdict).toBe('fail');
    expect(pleg.evidence.join('\n')).toMatch(/started between 4m50\.\ds and 5m1\.\ds ago \(clock: metrics\.txt's capture time from the evidence: metrics\.txt: go_memstats_last_gc_time_seconds = 2026-11-22T03:05:33Z: .*; metrics\.txt: modified 2026-11-22T03:05:44Z \(written as captured\)\)/u);
  });
});

describe('never a failure against contradicting evidence', () => {
  it("a stale metric beside Ready=True posted after it would have been stale and an idle relist goroutine: unknown, naming both", async () => {
    // Files of two moments in one folder: the frozen kubelet's metrics, the healthy one's Node (re-dated to
    // 03:05:40Z, when the frozen metric was 5 min old) and goroutine dump.
    const node = healthyNode132().replace('2026-11-22T02:59:45Z', '2026-11-22T03:05:40Z');
    const r = await diagnoseFolder(copiedFolder({ 'node.json': node, 'metrics.txt': fixture132('metrics-stopped-final.txt'), 'goroutines.txt': fixture132('goroutines-healthy.txt') }));
    const pleg = r.check('pleg-health');
    expect(pleg.verdict).toBe('unknown');
    expect(pleg.summary).toContain('node.json says Ready=True with a heartbeat at 2026-11-22T03:05:40Z');
    expect(pleg.summary).toContain('goroutines.txt shows the relist goroutine idle between relists');
    expect(pleg.summary).toContain('the capture time is in doubt');
    expect(r.failing).toEqual([]);
  });

  it('a log that runs past the moment PLEG would have turned unhealthy without saying so: unknown', async () => {
    // The frozen metrics with the healthy minute's log lines (02:59:47–03:00:44Z) re-dated 10 minutes
    // later, past lastSeen + 3 min: the kubelet logged on and never said "PLEG is not healthy".
    const log = fixture132('kubelet-runtime-stopped.log')
      .split('\n')
      .slice(1400, 2420)
      .map((l) => l.replace(/^([IWEF]1122 )02:59:/u, '$103:09:').replace(/^([IWEF]1122 )03:00:/u, '$103:10:'))
      .join('\n');
    const r = await diagnoseFolder(copiedFolder({ 'node.json': JSON.stringify({ kind: 'Node', metadata: { name: 'pleg-node' }, status: {} }), 'metrics.txt': fixture132('metrics-stopped-final.txt'), 'kubelet.log': log }));
    const pleg = r.check('pleg-health');
    expect(pleg.verdict).toBe('unknown');
    expect(pleg.summary).toMatch(/kubelet\.log runs to 2026-11-22T03:10:4\dZ, past the moment PLEG would have turned unhealthy \(2026-11-22T03:03:43Z\), without a "PLEG is not healthy" line/u);
  });
});

describe('ages against "now" in a copied folder', () => {
  it('lease lost: the heartbeat age is measured to the newest time the evidence proves, which the line names', async () => {
    const node = nodeObject({ name: 'pleg-node', ready: 'Unknown', heartbeat: '2026-11-22T03:05:37Z', since: '2026-11-22T03:06:20Z' });
    const events = { kind: 'EventList', apiVersion: 'v1', items: [{ reason: 'NodeNotReady', lastTimestamp: '2026-11-22T03:07:00Z', involvedObject: { kind: 'Node', name: 'pleg-node' } }] };
    const r = await diagnoseFolder(copiedFolder({ 'node.json': JSON.stringify(node), 'events.json': JSON.stringify(events) }));
    const lease = r.check('lease-lost');
    expect(lease.verdict).toBe('fail');
    expect(lease.evidence).toContain("last heartbeat 2026-11-22T03:05:37.000Z (1m23s before 2026-11-22T03:07:00.000Z, the newest time the folder's evidence proves)");
    expect(r.err).toContain("the folder is dated 2026-11-22T03:07:00.000Z");
  });
});
