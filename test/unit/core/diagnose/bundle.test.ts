// `pleg-doctor diagnose --evidence DIR` on bundles it has never seen: folders put together by hand from
// the real kubelet 1.32 recording (test/fixtures/real-kubelet-1.32: containerd SIGSTOPped for 300 s),
// with no manifest — as a person would gather them with curl and kubectl; their capture times come from
// the files themselves (clock/copiedEvidence.test.ts has the copied folders). Plus the bundle format's own
// rules: any subset, clear errors, round trip.

import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDiagnoseCommand, EXIT_CHECK_FAILS, EXIT_NOT_DIAGNOSED } from '../../../../src/cli/commands/diagnose';
import { runCli } from '../../../../src/cli/dispatch';
import { bundleFilesOf, evidenceFromBundle } from '../../../../src/core/diagnose/bundle';
import { kubeletLogEvidence } from '../../../../src/core/diagnose/kubeletLog';
import { diagnose } from '../../../../src/core/diagnose/runDiagnosis';
import { diagnosisJson } from '../../../../src/core/diagnose/verdicts';
import { readEvidenceBundle, writeEvidenceBundle } from '../../../../src/infra/diagnose/evidenceBundle';
import type { KubeGateway } from '../../../../src/infra/kube/gateway';
import { memoryIo } from '../../../support/memoryIo';
import { evidence, nodeObject, nodeSide, ok } from '../../../support/diagnoseBuilders';

const fixture = (name: string): string => readFileSync(new URL(`../../../fixtures/real-kubelet-1.32/${name}`, import.meta.url), 'utf8');
/** The main port's section of a healthz recording (the files hold three ports' answers). */
const healthzBody = (phase: string): string => (fixture(`healthz-${phase}.txt`).split('# http_code')[0] ?? '').split('\n').filter((l) => !l.startsWith('#')).join('\n');

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function handMadeBundle(files: Record<string, string>, mtime: Date): string {
  const dir = mkdtempSync(join(tmpdir(), 'pleg-bundle-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    writeFileSync(join(dir, name), text);
    utimesSync(join(dir, name), mtime, mtime);
  }
  return dir;
}

const noGateway = (): KubeGateway => {
  throw new Error('--evidence must not reach a cluster');
};

async function cli(args: string[]) {
  const io = memoryIo();
  const code = await runCli(['diagnose', ...args], io, { diagnose: { summary: '', load: () => Promise.resolve(createDiagnoseCommand(noGateway)) } }, '1');
  return { code, out: io.out(), err: io.err() };
}

type Json = { node: string; checks: { id: string; cause: string; verdict: string; summary: string; evidence: string[] }[] };

const frozenNode = nodeObject({
  name: 'pleg-node',
  ready: 'False',
  message: 'container runtime is down, PLEG is not healthy: pleg was last seen active 4m58.158108819s ago; threshold is 3m0s',
  since: '2026-11-22T03:03:47Z',
  heartbeat: '2026-11-22T03:05:37Z',
  kubeletVersion: 'v1.32.10-kubeedge1',
  runtime: 'containerd://1.6.20',
});

describe('diagnose --evidence on a bundle made by hand from a real kubelet 1.32', () => {
  it('runtime frozen: runtime-hang fails, quoted from the real metrics and goroutine dump; exit 1', async () => {
    const dir = handMadeBundle(
      {
        'node.json': JSON.stringify(frozenNode),
        'metrics.txt': fixture('metrics-stopped-final.txt'),
        'configz.json': fixture('configz.json'),
        'healthz.txt': healthzBody('stopped-final'),
        'goroutines.txt': fixture('goroutines-stopped-final.txt'),
        'kubelet.log': fixture('kubelet-runtime-stopped.log'),
      },
      new Date('2026-11-22T03:05:38.404Z'),
    );
    const r = await cli(['--evidence', dir, '--format', 'json']);
    expect(r.code).toBe(EXIT_CHECK_FAILS);
    const json = JSON.parse(r.out) as Json;
    expect(json.node).toBe('pleg-node');
    const runtime = json.checks.find((c) => c.id === 'runtime-hung');
    expect(runtime).toMatchObject({ cause: 'runtime-hang', verdict: 'fail' });
    expect(runtime?.evidence.join('\n')).toContain('blocked in `ListPodSandbox`');
    // The relist has been stuck for ≈ 5 min: measured from the capture time the kubelet's own access-log
    // line gives metrics.txt (the modification time, the scrape's start here, is earlier: not used).
    expect(json.checks.find((c) => c.id === 'pleg-health')?.evidence.join('\n')).toMatch(/last successful relist started between 4m55\.\ds and 5m1\.\ds ago \(clock: metrics\.txt's capture time from the evidence: kubelet\.log line 3859/u);
    expect(json.checks.find((c) => c.id === 'stuck-container')?.verdict).not.toBe('fail');
    expect(json.checks.find((c) => c.id === 'syncloop-healthz')?.verdict).toBe('ok');
    // What the bundle lacked is unknown, never fail; and stderr says what was not used.
    expect(json.checks.find((c) => c.id === 'node-load')?.verdict).toBe('unknown');
    expect(r.err).toContain("no bundle.json: each file's capture time is taken from the evidence itself; the folder is dated 2026-11-22T03:07:14.406Z");
    expect(r.err).toContain('clock: metrics.txt: captured between 2026-11-22T03:05:38Z and 2026-11-22T03:05:44Z');
    // The kubelet log is read: the PLEG stretch and the relist failures at their lines. Put in by hand
    // (no manifest), it is history: it shows the recovery after SIGCONT, yet PLEG health still fails.
    const plegEvidence = json.checks.find((c) => c.id === 'pleg-health');
    expect(plegEvidence?.verdict).toBe('fail');
    expect(plegEvidence?.evidence).toContain('kubelet log lines 3227–3748 (03:03:46 → 03:05:41): PLEG unhealthy for 1m55s (24 lines), "pleg was last seen active" up to 4m58.1s ago');
    expect(runtime?.evidence).toContain(
      'kubelet log: relist failed, "GenericPLEG: Unable to retrieve pods" ×2, the latest at line 3476 (03:04:45): `rpc error: code = DeadlineExceeded desc = context deadline exceeded`; the first at line 2933 (03:02:44)',
    );
    expect(r.err).toContain("kubelet.log was not written with this bundle's manifest: its lines are read as history");
    // Markdown works on the same bundle.
    const md = await cli(['--evidence', dir, '--format', 'md']);
    expect(md.out).toContain('### Problem: The container runtime is not answering CRI calls');
    expect(md.out).toContain('- kubeletLog: kubelet log lines 3227–3748 (03:03:46 → 03:05:41)');
    expect(md.out).toContain('| kubeletLog | ok |');
  });

  it('healthy phase: no check fails; exit 0', async () => {
    const dir = handMadeBundle(
      {
        'node.json': JSON.stringify(nodeObject({ name: 'pleg-node', kubeletVersion: 'v1.32.10-kubeedge1', runtime: 'containerd://1.6.20' })),
        'metrics.txt': fixture('metrics-healthy.txt'),
        'configz.json': fixture('configz.json'),
        'healthz.txt': healthzBody('healthy'),
        'goroutines.txt': fixture('goroutines-healthy.txt'),
      },
      new Date('2026-11-22T02:59:49.141Z'),
    );
    const r = await cli(['--evidence', dir, '--format', 'json']);
    expect(r.code).toBe(0);
    expect((JSON.parse(r.out) as Json).checks.filter((c) => c.verdict === 'fail' || c.verdict === 'warn')).toEqual([]);
  });

  it('bad bundles: a clear error naming the cause, exit 3', async () => {
    const missing = await cli(['--evidence', join(tmpdir(), 'no-such-bundle-here')]);
    expect(missing.code).toBe(EXIT_NOT_DIAGNOSED);
    expect(missing.err).toContain('the folder does not exist');
    const noNode = handMadeBundle({ 'metrics.txt': fixture('metrics-healthy.txt') }, new Date());
    const r = await cli(['--evidence', noNode]);
    expect(r.code).toBe(EXIT_NOT_DIAGNOSED);
    expect(r.err).toContain('the bundle has no node.json');
    const notNode = handMadeBundle({ 'node.json': '{"kind":"Pod","metadata":{"name":"x"}}' }, new Date());
    expect((await cli(['--evidence', notNode])).err).toContain('node.json is a Pod, not a Node');
    const badJson = handMadeBundle({ 'node.json': JSON.stringify(frozenNode), 'events.json': '{' }, new Date());
    expect((await cli(['--evidence', badJson])).err).toMatch(/events\.json is not valid JSON/u);
    // A kubelet body that does not parse is that source failing, not the whole bundle.
    const badMetrics = handMadeBundle({ 'node.json': JSON.stringify(frozenNode), 'configz.json': 'not json' }, new Date());
    const bm = await cli(['--evidence', badMetrics, '--format', 'json']);
    expect(bm.code).not.toBe(EXIT_NOT_DIAGNOSED);
    expect((await cli(['--evidence', badMetrics])).out).toContain('configz.json did not parse');
  });
});

describe('evidence bundle format', () => {
  it('round trip: written, read back and judged, the verdicts and evidence are the same; a second write is refused', async () => {
    const e = evidence({
      collectedAt: '2026-11-22T03:05:38.404Z',
      node: frozenNode,
      events: ok([{ reason: 'NodeNotReady', message: 'Node pleg-node status is now: NodeNotReady', type: 'Normal', lastTimestamp: '2026-11-22T03:03:47Z' }]),
      podCount: ok(4),
      metrics: { status: 'timeout', ms: 15_000, deadlineMs: 15_000 },
      metricsLater: { status: 'skipped', reason: 'the first /metrics scrape did not succeed (timeout)' },
      healthz: ok(undefined as never),
      goroutines: ok(undefined as never),
      configz: { status: 'forbidden', message: 'nodes/proxy', ms: 3 },
    });
    // The kubelet bodies as they were sent: the bundle stores these, not the parsed summaries.
    const raw = { healthz: { body: healthzBody('stopped-final'), httpStatus: 200 }, goroutines: fixture('goroutines-stopped-final.txt') };
    const { evidence: parsedBack } = evidenceFromBundle(bundleFilesOf(e, raw), 'unused');
    const dir = join(mkdtempSync(join(tmpdir(), 'pleg-bundle-rt-')), 'bundle');
    dirs.push(dir);
    const written = await writeEvidenceBundle(dir, bundleFilesOf(parsedBack, raw));
    expect(written).toEqual(['bundle.json', 'node.json', 'healthz.txt', 'goroutines.txt', 'events.json']);
    const reading = await readEvidenceBundle(dir);
    expect(reading.notes).toEqual([]);
    const before = diagnosisJson(diagnose(parsedBack));
    const after = diagnosisJson(diagnose(reading.evidence));
    expect(after).toEqual(before);
    // The hung /metrics survives as a timeout (evidence), the 403 as forbidden.
    expect(reading.evidence.metrics).toEqual({ status: 'timeout', ms: 15_000, deadlineMs: 15_000 });
    expect(reading.evidence.configz).toMatchObject({ status: 'forbidden' });
    expect(reading.evidence.podCount).toMatchObject({ status: 'ok', value: 4 });
    await expect(writeEvidenceBundle(dir, bundleFilesOf(parsedBack, raw))).rejects.toThrow(/already exists/u);
  });

  it("the node side's way survives the bundle (an agent's snapshot still says whose and how old)", () => {
    const side = nodeSide();
    if (side.status !== 'ok') throw new Error('builder changed');
    const reachedBy = 'via agent pod pleg-doctor/pleg-doctor-agent-x7k2, taken 1m10s ago';
    const e = evidence({ nodeSide: { ...side, value: { ...side.value, reachedBy } } });
    const back = evidenceFromBundle(bundleFilesOf(e, {}), 'unused').evidence.nodeSide;
    expect(back.status === 'ok' && back.value.reachedBy).toBe(reachedBy);
  });

  it('an exported kubelet log comes back as read with the rest: same origin, window and findings, and "now" again', async () => {
    // A prefix of the real 1.32 log, up to its last PLEG line: what a journal read at 03:05:41 returns.
    const text = `${fixture('kubelet-runtime-stopped.log').split('\n').slice(0, 3748).join('\n')}\n`;
    const log = kubeletLogEvidence(text, { origin: 'ssh', window: 'journalctl -u kubelet over SSH, last 30 min', contemporaneous: true });
    const e = evidence({ collectedAt: '2026-11-22T03:05:41.500Z', node: frozenNode, kubeletLog: ok(log, 240) });
    const files = bundleFilesOf(e, { kubeletLog: text });
    expect(JSON.parse(files.manifest ?? '{}')).toMatchObject({ kubeletLog: { origin: 'ssh', window: 'journalctl -u kubelet over SSH, last 30 min' }, sources: { kubeletLog: { status: 'ok', ms: 240 } } });
    const dir = join(mkdtempSync(join(tmpdir(), 'pleg-bundle-log-')), 'bundle');
    dirs.push(dir);
    expect(await writeEvidenceBundle(dir, files)).toContain('kubelet.log');
    const reading = await readEvidenceBundle(dir);
    expect(reading.notes).toEqual([]);
    const back = reading.evidence.kubeletLog;
    expect(back.status).toBe('ok');
    if (back.status !== 'ok') return;
    expect(back.value).toEqual({ ...log, window: 'journalctl -u kubelet over SSH, last 30 min (kubelet.log)' });
    expect(diagnosisJson(diagnose(reading.evidence))).toEqual(diagnosisJson(diagnose(e)));
  });
});
