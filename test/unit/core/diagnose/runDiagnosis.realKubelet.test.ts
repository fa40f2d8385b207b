// The real kubelet 1.32 recording (test/fixtures/real-kubelet-1.32): containerd frozen with SIGSTOP for
// 300 s. Parsed with the real parsers and judged by diagnose(), the frozen phase must read as a hung
// runtime (relist waiting inside ListPodSandbox, List* errors rising) and the healthy phase as healthy.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RUNTIME_NOT_ANSWERING } from '../../../../src/core/diagnose/checks/runtimeHung';
import { renderDiagnosisMarkdown } from '../../../../src/core/diagnose/report/renderMarkdown';
import { diagnose } from '../../../../src/core/diagnose/runDiagnosis';
import { summarizeGoroutineDump } from '../../../../src/core/parse/goroutineDump';
import { parseHealthz } from '../../../../src/core/parse/healthz';
import { parseKubeletConfigz } from '../../../../src/core/parse/kubeletConfigz';
import { summarizeKubeletMetrics } from '../../../../src/core/parse/kubeletMetrics';
import { check, evidence, nodeObject, ok } from '../../../support/diagnoseBuilders';

const read = (name: string): string => readFileSync(new URL(`../../../fixtures/real-kubelet-1.32/${name}`, import.meta.url), 'utf8');
const metrics = (phase: string) => summarizeKubeletMetrics(read(`metrics-${phase}.txt`));
/** The first section of a healthz recording: the main port's body. */
const healthzOf = (phase: string) => {
  const body = read(`healthz-${phase}.txt`).split('# http_code')[0]?.split('\n').filter((l) => !l.startsWith('#')).join('\n') ?? '';
  return parseHealthz(body, 200);
};

describe('real kubelet 1.32 with its runtime frozen', () => {
  it('frozen: hung runtime, PLEG unhealthy from the metric age, syncloop still ok', () => {
    const now = new Date('2026-11-22T03:05:38.404Z');
    const e = evidence({
      collectedAt: now.toISOString(),
      node: nodeObject({
        name: 'pleg-node',
        ready: 'False',
        message: 'container runtime is down, PLEG is not healthy: pleg was last seen active 4m58.158108819s ago; threshold is 3m0s',
        since: '2026-11-22T03:03:47Z',
        kubeletVersion: 'v1.32.10-kubeedge1',
        runtime: 'containerd://1.6.20',
      }),
      metrics: ok(metrics('stopped-T+210s'), 120_000),
      metricsLater: ok(metrics('stopped-final'), 5_988),
      metricsIntervalMs: 30_000,
      configz: ok(parseKubeletConfigz(read('configz.json'))),
      healthz: ok(healthzOf('stopped-final')),
      goroutines: ok(summarizeGoroutineDump(read('goroutines-stopped-final.txt'))),
    });
    const d = diagnose(e, { now });
    const runtime = check(d, 'runtime-hung');
    expect(runtime.status).toBe('found');
    expect(runtime.finding?.title).toBe(RUNTIME_NOT_ANSWERING);
    const text = runtime.finding?.evidence.map((l) => l.text).join('\n') ?? '';
    expect(text).toContain('blocked in `ListPodSandbox`');
    expect(text).toContain('operation_type="list_podsandbox"');
    const pleg = check(d, 'pleg-health');
    expect(pleg.finding?.evidence.map((l) => l.text).join('\n')).toMatch(/last successful relist started 4m55\.\ds ago/u);
    expect(check(d, 'stuck-container').status).not.toBe('found');
    expect(check(d, 'syncloop-healthz').status).toBe('clear');
    expect(check(d, 'relist-latency').status).toBe('found');
    expect(d.headline).toBe('NotReady (PLEG): the container runtime is not answering CRI calls');
    const md = renderDiagnosisMarkdown(d);
    expect(md.startsWith('# PLEG Doctor report: pleg-node\n')).toBe(true);
    expect(md).toContain('### Problem: The container runtime is not answering CRI calls');
  });

  it('recovered, one scrape: the old 2-minute samples do not make a runtime finding', () => {
    const now = new Date('2026-11-22T03:07:15Z');
    const e = evidence({
      collectedAt: now.toISOString(),
      node: nodeObject({ name: 'pleg-node', kubeletVersion: 'v1.32.10-kubeedge1', runtime: 'containerd://1.6.20' }),
      metrics: ok(metrics('recovered-C+090s')),
      metricsLater: { status: 'skipped', reason: 'interval 0' },
    });
    const d = diagnose(e, { now });
    expect(check(d, 'pleg-health').status).toBe('clear');
    expect(check(d, 'runtime-hung').status).toBe('clear');
    expect(check(d, 'stuck-container').status).not.toBe('found');
  });

  it('healthy phase: no problem found', () => {
    const now = new Date('2026-11-22T02:59:49.141Z');
    const e = evidence({
      node: nodeObject({ name: 'pleg-node', kubeletVersion: 'v1.32.10-kubeedge1', runtime: 'containerd://1.6.20' }),
      metrics: ok(metrics('healthy')),
      metricsLater: { status: 'skipped', reason: 'interval 0' },
      configz: ok(parseKubeletConfigz(read('configz.json'))),
      healthz: ok(healthzOf('healthy')),
      goroutines: ok(summarizeGoroutineDump(read('goroutines-healthy.txt'))),
    });
    const d = diagnose(e, { now });
    expect(d.findings).toEqual([]);
    expect(renderDiagnosisMarkdown(d)).toContain('## Findings\n\nNo problem found.\n');
  });
});
