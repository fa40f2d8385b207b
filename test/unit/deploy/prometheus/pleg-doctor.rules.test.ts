// deploy/prometheus/pleg-doctor.rules.yaml under `promtool test rules` (Debian's prometheus package ships
// promtool; `npm run setup` installs it), on the series of a real frozen runtime
// (test/support/faultWindowSeries.ts: a real kubelet 1.32 whose containerd was SIGSTOPped for 300 s):
// PLEGNotReadyPredicted and KubeletPLEGStalled fire at least 60 s before the kubelet's 3-minute PLEG
// threshold, stay silent before the freeze and clear after it, while the kubernetes-mixin's
// KubeletPlegDurationHigh (test/support/kubernetesMixin.ts, from its public definition) stays silent through the window.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { dump, load } from 'js-yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { faultWindowSeries, type FaultWindow } from '../../../support/faultWindowSeries';
import { MIXIN_RULES } from '../../../support/kubernetesMixin';

const RULES = resolve(__dirname, '../../../../deploy/prometheus/pleg-doctor.rules.yaml');


/** Go's humanizeDuration (prometheus/template), for the whole-second values these tests read. */
function humanizeDuration(v: number): string {
  if (!Number.isFinite(v) || Math.abs(v) < 1) throw new Error(`humanizeDuration(${v}): only whole seconds ≥ 1 here`);
  const s = Math.trunc(v);
  const [days, hours, minutes, seconds] = [Math.trunc(s / 86400), Math.trunc(s / 3600) % 24, Math.trunc(s / 60) % 60, s % 60];
  if (days !== 0) return `${days}d ${hours}h ${minutes}m ${seconds}s`;
  if (hours !== 0) return `${hours}h ${minutes}m ${seconds}s`;
  if (minutes !== 0) return `${minutes}m ${seconds}s`;
  return `${Number(v.toPrecision(4))}s`;
}

interface RuleDoc {
  groups: { rules: { alert?: string; labels?: Record<string, string>; annotations?: Record<string, string> }[] }[];
}

/** A rule's annotations as Prometheus expands them for one alert (the two template forms our rules use). */
function expandAnnotations(alert: string, labels: Record<string, string>, value: number): Record<string, string> {
  const rule = (load(readFileSync(RULES, 'utf8')) as RuleDoc).groups.flatMap((g) => g.rules).find((r) => r.alert === alert);
  if (rule === undefined) throw new Error(`${RULES} has no alert ${alert}`);
  const out: Record<string, string> = {};
  for (const [key, text] of Object.entries(rule.annotations ?? {})) {
    out[key] = text.replace(/\{\{ \$labels\.(\w+) \}\}/g, (_, name: string) => labels[name] ?? '').replace(/\{\{ \$value \| humanizeDuration \}\}/g, () => humanizeDuration(value));
    if (/\{\{/.test(out[key])) throw new Error(`${alert}.${key}: a template form this test does not expand: ${text}`);
  }
  return out;
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function runPromtool(w: FaultWindow, tests: unknown[]): { status: number | null; out: string } {
  const dir = mkdtempSync(join(tmpdir(), 'pleg-promtool-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'mixin.rules.yaml'), MIXIN_RULES);
  const file = join(dir, 'test.yaml');
  writeFileSync(file, dump({ rule_files: [RULES, join(dir, 'mixin.rules.yaml')], evaluation_interval: '15s', tests: [{ interval: '1s', input_series: w.series, ...Object.assign({}, ...tests) }] }, { lineWidth: -1 }));
  const r = spawnSync('promtool', ['test', 'rules', file], { encoding: 'utf8', timeout: 60_000 });
  if (r.error !== undefined) throw new Error(`promtool could not run (${r.error.message}): install Debian's prometheus package (npm run setup does)`);
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

function alertTests(w: FaultWindow): unknown {
  const early = Math.floor(w.thresholdAt - 60);
  // An alert's $value is from the rule group's last evaluation (every 15 s from 0) at or before eval_time.
  const lastEval = early - (early % 15);
  const kubeletLabels = { job: 'kubelet', instance: w.kubeletInstance, severity: 'warning' };
  const agentLabels = { job: 'pleg-doctor-agent', instance: w.agentInstance, severity: 'warning' };
  const silent = (t: number, alertname: string) => ({ eval_time: `${t}s`, alertname, exp_alerts: [] });
  const before = Math.floor(w.stopAt) - 1;
  const after = Math.ceil(w.contAt) + 30;
  const mixinSilent = [];
  for (let t = 0; t <= w.endAt; t += 15) mixinSilent.push(silent(t, 'KubeletPlegDurationHigh'));
  return {
    alert_rule_test: [
      silent(before, 'PLEGNotReadyPredicted'),
      silent(before, 'KubeletPLEGStalled'),
      {
        eval_time: `${early}s`,
        alertname: 'PLEGNotReadyPredicted',
        exp_alerts: [{ exp_labels: agentLabels, exp_annotations: expandAnnotations('PLEGNotReadyPredicted', agentLabels, w.predictedAt(lastEval)) }],
      },
      {
        eval_time: `${early}s`,
        alertname: 'KubeletPLEGStalled',
        exp_alerts: [{ exp_labels: kubeletLabels, exp_annotations: expandAnnotations('KubeletPLEGStalled', kubeletLabels, lastEval - w.scrapedLastSeenAt(lastEval)) }],
      },
      silent(after, 'PLEGNotReadyPredicted'),
      silent(after, 'KubeletPLEGStalled'),
      ...mixinSilent,
    ],
    // The mixin's recording rule does evaluate on these series (its silence is not a label mismatch): on
    // the healthy scrapes its p99 is a value below its 10 s threshold.
    promql_expr_test: [
      {
        eval_time: `${Math.floor(w.stopAt)}s`,
        expr: 'count(node_quantile:kubelet_pleg_relist_duration_seconds:histogram_quantile{quantile="0.99"} < 10)',
        exp_samples: [{ labels: '{}', value: 1 }],
      },
    ],
  };
}

describe.each([
  { name: 'the kubelet /metrics scrape times out while the runtime hangs (containerd; scrape_timeout 10 s)', scrapeTimeoutS: 10 },
  { name: 'the kubelet /metrics answers while the runtime hangs (as 1.22 with dockershim does)', scrapeTimeoutS: undefined },
])('alert rules on a real frozen runtime: $name', ({ scrapeTimeoutS }) => {
  const w = faultWindowSeries({ scrapeTimeoutS });

  it('the recording: the last good relist started ≤ 2 s before the SIGSTOP, the freeze outlasts the threshold', () => {
    expect(w.stopAt - w.lastSeenAt).toBeGreaterThanOrEqual(0);
    expect(w.stopAt - w.lastSeenAt).toBeLessThan(2);
    expect(w.contAt).toBeGreaterThan(w.thresholdAt);
    const up = w.series.find((s) => s.series.startsWith('up{'))?.values ?? '';
    if (scrapeTimeoutS !== undefined) expect(up).toMatch(/\b0\b/);
    else expect(up).not.toMatch(/\b0\b/);
  });

  it('promtool: both alerts fire 60 s before the 3-minute threshold, not before the freeze, not after it; KubeletPlegDurationHigh never', () => {
    const r = runPromtool(w, [alertTests(w)]);
    expect(r.out).toMatch(/SUCCESS/);
    expect(r.status, r.out).toBe(0);
  });
});

describe('promtool test rules holds these rules to something', () => {
  it('fails when KubeletPLEGStalled is expected before the freeze', () => {
    const w = faultWindowSeries({ scrapeTimeoutS: 10 });
    const labels = { job: 'kubelet', instance: w.kubeletInstance, severity: 'warning' };
    const r = runPromtool(w, [{ alert_rule_test: [{ eval_time: `${Math.floor(w.stopAt) - 1}s`, alertname: 'KubeletPLEGStalled', exp_alerts: [{ exp_labels: labels }] }] }]);
    expect(r.status).toBe(1);
    expect(r.out).toMatch(/KubeletPLEGStalled/);
  });

  it('promtool check rules accepts the rule file', () => {
    const r = spawnSync('promtool', ['check', 'rules', RULES], { encoding: 'utf8', timeout: 30_000 });
    expect(`${r.stdout}${r.stderr}`).toMatch(/SUCCESS: 2 rules found/);
    expect(r.status).toBe(0);
  });
});
