// The Markdown report: its fixed layout, the gaps it names (with the nodes/proxy warning), and escaping of
// cluster-supplied strings so a node name or kubelet message cannot change the document's structure.

import { describe, expect, it } from 'vitest';
import type { Diagnosis } from '../../../../../src/core/diagnose/diagnosis';
import { codeSpan, escapeInline, fencedBlock, richInline, tableCell } from '../../../../../src/core/diagnose/report/markdownText';
import { REPORT_FOOTER, renderDiagnosisMarkdown } from '../../../../../src/core/diagnose/report/renderMarkdown';
import { diagnose } from '../../../../../src/core/diagnose/runDiagnosis';
import { FORBIDDEN, NOW, TIMEOUT, evidence, goroutines, healthyMetrics, nodeObject, ok } from '../../../../support/diagnoseBuilders';

describe('report layout', () => {
  it('a Ready node: title, context line, "No problem found.", checks, evidence, gaps, footer', () => {
    const md = renderDiagnosisMarkdown(diagnose(evidence({ metrics: ok(healthyMetrics()) }), { now: NOW }));
    const lines = md.split('\n');
    expect(lines[0]).toBe('# PLEG Doctor report: node-a');
    expect(lines[2]).toBe('Context `prod-eu` · collected 2026-11-22T10:00:00.000Z · verdict `ready`');
    expect(md).toContain('## Findings\n\nNo problem found.\n\n## Checks');
    expect(md).toContain('| Check | Status | Note |');
    expect(md).toContain("| PLEG health as the kubelet reports it | clear | last relist started 1s ago (healthy up to and including 3m0s; clock: the collector's clock (the scrape at 2026-11-22T10:00:00.000Z)) |");
    expect(md).toContain('| Source | Status | ms | Detail |');
    expect(md).toContain('| metrics | ok | 12 |  |');
    expect(md).toContain('| nodeSide | skipped | — | skipped — node access is not configured for this cluster |');
    expect(md.indexOf('## Checks')).toBeLessThan(md.indexOf('## Evidence'));
    expect(md.indexOf('## Evidence')).toBeLessThan(md.indexOf('## What could not be collected'));
    expect(md).toContain('`plegDoctor.nodeAccess.clusters`');
    expect(md).toContain('`plegDoctor.diagnostics.nodeSide`');
    // What is true of both surfaces: diagnosing reads only; Remediate Node… runs an action only after asking.
    expect(md.trimEnd().split('\n').at(-1)).toBe(`*${REPORT_FOOTER}*`);
    expect(REPORT_FOOTER).toContain('Nothing under Remediation has been run');
    expect(REPORT_FOOTER).toContain('Remediate Node…');
    // No emoji: a font without them shows boxes.
    expect(md).not.toMatch(/\p{Extended_Pictographic}/u);
  });

  it('a finding: severity mark in the heading, evidence list, remediation with its gate and the command in a code span', () => {
    const d = diagnose(evidence({ node: nodeObject({ ready: 'False' }), goroutines: ok(goroutines('PodSandboxStatus', 2)) }), { now: NOW });
    const md = renderDiagnosisMarkdown(d);
    expect(md).toContain("### Problem: One pod's status calls time out: a stuck container or shim");
    expect(md).toContain('- goroutines: relist goroutine 321 \\[select, 2 minutes\\] blocked in `PodSandboxStatus`, called from GetPodStatus under the relist');
    expect(md).toContain('- **read-only**: Find the culprit');
    expect(md).toContain('- **destructive — confirm by typing the node name**: Reboot the node');
    expect(md).toContain('- **confirm first**: Cordon the node so no new pods land on it while it is investigated `kubectl cordon NODE_NAME`');
    expect(md).toContain('| One container or shim stuck | problem found |');
    expect(md).not.toMatch(/\p{Extended_Pictographic}/u);
  });

  it('no section "What could not be collected" when every source answered', () => {
    const all = ok(healthyMetrics());
    const d: Diagnosis = { ...diagnose(evidence({ metrics: all }), { now: NOW }), gaps: [] };
    expect(renderDiagnosisMarkdown(d)).not.toContain('## What could not be collected');
  });
});

describe('gaps', () => {
  it('403 on the kubelet endpoints: names the nodes/proxy grant, says it is not read-only, and what was used instead', () => {
    const d = diagnose(evidence({ metrics: FORBIDDEN, configz: FORBIDDEN, healthz: FORBIDDEN, goroutines: FORBIDDEN }), { now: NOW });
    const gap = d.gaps.find((g) => g.includes('nodes/proxy')) ?? '';
    expect(gap).toContain('`get` on `nodes/proxy`');
    expect(gap).toContain('not read-only');
    expect(gap).toMatch(/exec, attach and port-forward/u);
    expect(gap).toContain('conditions, events and node info');
    expect(gap).toContain('/metrics, /configz, /healthz?verbose, /debug/pprof/goroutine?debug=2');
  });

  it('all kubelet endpoints skipped by the setting: one gap naming the setting, the grant and its warning', () => {
    const d = diagnose(evidence(), { now: NOW });
    expect(d.gaps).toHaveLength(3);
    expect(d.gaps[0]).toContain('were not read: plegDoctor.diagnostics.useNodeProxy is off');
    expect(d.gaps[0]).toContain('`get` on `nodes/proxy`');
    expect(d.gaps[0]).toContain('not read-only');
    expect(d.gaps[1]).toContain('`plegDoctor.nodeAccess.clusters`');
    // The log: how it could have been read.
    expect(d.gaps[2]).toContain('The kubelet log was not read: no way to read it was given');
    expect(d.gaps[2]).toContain('`enableSystemLogQuery: true`');
  });

  it('a kubelet log refused by the node proxy names the nodes/proxy grant, not a pods or events one', () => {
    const d = diagnose(evidence({ kubeletLog: { status: 'forbidden', message: 'NodeLogQuery: 403 Forbidden', ms: 4 } }), { now: NOW });
    const gap = d.gaps.find((g) => g.startsWith('The kubelet log was refused (403)'));
    expect(gap).toContain('it needs `get` on `nodes/proxy`');
    expect(gap).toContain('not read-only');
    expect(d.gaps.join('\n')).not.toMatch(/kubelet log.*get\/list on pods/u);
    // A log that did not come in time is not "the endpoint hung" evidence.
    const late = diagnose(evidence({ kubeletLog: { status: 'timeout', ms: 15_000, deadlineMs: 15_000 } }), { now: NOW });
    expect(late.gaps).toContain('The kubelet log did not come within 15s: a shorter window (`--log-window`) reads less.');
  });

  it('a timeout is reported as the endpoint hanging, which is evidence', () => {
    const d = diagnose(evidence({ metrics: TIMEOUT }), { now: NOW });
    expect(d.gaps).toContain('/metrics did not answer within 10s: the endpoint hung. That is evidence, not a tool failure (see the findings).');
    expect(d.sources.find((s) => s.source === 'metrics')).toEqual({ source: 'metrics', status: 'timeout', ms: 10000, detail: 'no answer within 10s' });
  });
});

describe('escaping cluster-supplied strings', () => {
  it('a hostile node name and Ready message cannot add headings, links, HTML or table columns', () => {
    const name = 'evil|node</h1><script>x</script>[link](http://x)';
    const message = 'PLEG is not healthy: pleg was last seen active 3m46s ago; threshold is 3m0s | `rm -rf` ```\n# injected';
    const d = diagnose(evidence({ node: nodeObject({ name, ready: 'False', message }) }), { now: NOW });
    const md = renderDiagnosisMarkdown(d);
    expect(md.split('\n')[0]).toBe('# PLEG Doctor report: evil\\|node&lt;/h1&gt;&lt;script&gt;x&lt;/script&gt;\\[link\\](http://x)');
    expect(md).not.toContain('<script>');
    // The multi-line message is a fenced block whose fence is longer than any backtick run inside;
    // outside it, the message's second line never starts a line of its own.
    const fenced = '````text\n' + message + '\n````';
    expect(md).toContain(fenced);
    expect(md.replace(fenced, '')).not.toMatch(/^# injected/mu);
    // In the checks table, every row has exactly the 3 columns of the header.
    const rows = md.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| Source') && !l.startsWith('| Check'));
    for (const row of rows.slice(0, 16)) expect(row.replace(/\\\|/gu, '').split('|').length - 2).toBe(3);
  });

  it('helpers', () => {
    expect(escapeInline('a*b_c <d> [e](f) |g| ~h~ &i')).toBe('a\\*b\\_c &lt;d&gt; \\[e\\](f) \\|g\\| \\~h\\~ &amp;i');
    expect(escapeInline('# not a heading')).toBe('\\# not a heading');
    expect(escapeInline('- not a list')).toBe('\\- not a list');
    expect(escapeInline('1. not a list')).toBe('1\\. not a list');
    expect(codeSpan('a`b')).toBe('``a`b``');
    expect(codeSpan('`x`')).toBe('`` `x` ``');
    expect(fencedBlock('```\ncode\n```')).toBe('````text\n```\ncode\n```\n````');
    expect(richInline('`kubelet_x{a="b"}` = 3 *now*')).toBe('`kubelet_x{a="b"}` = 3 \\*now\\*');
    expect(richInline('unpaired ` tick')).toBe('unpaired \\` tick');
    expect(tableCell('`a|b` c|d')).toBe('`a\\|b` c\\|d');
  });
});
