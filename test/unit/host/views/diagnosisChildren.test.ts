// A node's diagnosis in the Nodes view: stored per context and node, one row per check under a
// "Diagnosis" row, a ThemeIcon per verdict, and a change event the tree refreshes the node's row on.

import { describe, expect, it } from 'vitest';
import { diagnose } from '../../../../src/core/diagnose/runDiagnosis';
import type { NodeEntry } from '../../../../src/core/tree/contextNodes';
import type * as vscode from 'vscode';
import { DiagnosisResults, diagnosisChildren, diagnosisRowsFor, diagnosisTreeItem, worstVerdict } from '../../../../src/host/views/diagnosisChildren';
import { evidence, nodeObject, NOW, ok, TIMEOUT, healthz, metricsSummary } from '../../../support/diagnoseBuilders';

/** The ThemeIcon id of a tree item. */
const iconId = (item: vscode.TreeItem): string | undefined => (item.iconPath as vscode.ThemeIcon | undefined)?.id;

const entry = { context: 'prod-eu', name: 'node-a' } as unknown as NodeEntry;

describe('diagnosis rows under a node', () => {
  it('no diagnosis → no row; after one, a Diagnosis row with one child per check and an icon per verdict', () => {
    const results = new DiagnosisResults();
    const changes: string[] = [];
    results.onDidChange(({ context, node }) => changes.push(`${context}/${node}`));
    expect(diagnosisRowsFor(entry, results)).toEqual([]);

    // PLEG unhealthy from the Ready message; /metrics hung; no node side.
    const d = diagnose(evidence({ node: nodeObject({ name: 'node-a', ready: 'False' }), metrics: TIMEOUT, healthz: ok(healthz(true)) }), { now: NOW });
    results.set(d);
    expect(changes).toEqual(['prod-eu/node-a']);
    const [group] = diagnosisRowsFor(entry, results);
    expect(group).toBeDefined();
    if (group === undefined) return;
    const groupItem = diagnosisTreeItem(group, results);
    expect(groupItem.label).toBe('Diagnosis');
    expect(groupItem.description).toBe(d.headline);
    expect(iconId(groupItem)).toBe('error');

    const children = diagnosisChildren(group, results);
    expect(children.map((c) => c.check?.id)).toEqual(d.checks.map((c) => c.checkId));
    const icons = new Map(children.map((c) => [c.check?.id, iconId(diagnosisTreeItem(c, results))]));
    expect(icons.get('pleg-health')).toBe('error');
    expect(icons.get('node-load')).toBe('question');
    const plegItem = diagnosisTreeItem(children.find((c) => c.check?.id === 'pleg-health') ?? group, results);
    expect(plegItem.description).toBe('fails');
    expect(String(plegItem.tooltip)).toContain('pleg-health (pleg-metrics): fails');
    expect(diagnosisChildren(children[0] ?? group, results)).toEqual([]);
    // A check that does not apply is no green "ok" (its JSON verdict stays "ok", the fixed taxonomy).
    const na = d.checks.filter((c) => c.status === 'notApplicable').map((c) => c.checkId);
    expect(na.length).toBeGreaterThan(0);
    for (const id of na) {
      const item = diagnosisTreeItem(children.find((c) => c.check?.id === id) ?? group, results);
      expect([item.description, iconId(item)]).toEqual(['not applicable', 'circle-slash']);
    }
  });

  it('a healthy node: the group row is ok even though node-only checks are unknown', () => {
    const results = new DiagnosisResults();
    results.set(diagnose(evidence({ node: nodeObject({ name: 'node-a' }), metrics: ok(metricsSummary()) }), { now: NOW }));
    const [group] = diagnosisRowsFor(entry, results);
    expect(group !== undefined && iconId(diagnosisTreeItem(group, results))).toBe('pass');
    expect(worstVerdict([{ verdict: 'unknown' }, { verdict: 'ok' }])).toBe('ok');
    expect(worstVerdict([{ verdict: 'warn' }, { verdict: 'fail' }])).toBe('fail');
  });
});
