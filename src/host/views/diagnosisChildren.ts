// A node's last diagnosis in the Nodes view: a "Diagnosis" row under the node (its headline and time),
// and under it one row per check with a ThemeIcon for its verdict (ok, warn, fail, unknown). Results are
// kept per context and node in one store that Diagnose Node and Diagnose All NotReady Nodes write and the
// tree reads; the tree refreshes the node's row when its result changes. The store is created in the
// main bundle and handed to the lazily loaded commands, so both sides see the same instance.

import * as vscode from 'vscode';
import type { Diagnosis } from '../../core/diagnose/diagnosis';
import { diagnosisJson, type CheckSummary, type CheckVerdict } from '../../core/diagnose/verdicts';
import type { NodeEntry } from '../../core/tree/contextNodes';
import { t } from '../l10n';

export interface StoredDiagnosis {
  context: string;
  node: string;
  collectedAt: string;
  headline: string;
  /** `applies` false: the check does not apply to this node (its JSON verdict is "ok"; the tree says "not applicable"). */
  checks: (CheckSummary & { title: string; applies: boolean })[];
}

export interface DiagnosisRowElement {
  readonly kind: 'diagnosis';
  readonly entry: NodeEntry;
  /** Absent on the group row; one check on each of its children. */
  readonly check?: StoredDiagnosis['checks'][number];
}

const key = (context: string, node: string): string => JSON.stringify([context, node]);

export function storedDiagnosis(diagnosis: Diagnosis): StoredDiagnosis {
  const summaries = diagnosisJson(diagnosis).checks;
  return {
    context: diagnosis.context,
    node: diagnosis.nodeName,
    collectedAt: diagnosis.collectedAt,
    headline: diagnosis.headline,
    checks: summaries.map((s, i) => ({ ...s, title: diagnosis.checks[i]?.title ?? s.id, applies: diagnosis.checks[i]?.status !== 'notApplicable' })),
  };
}

export class DiagnosisResults implements vscode.Disposable {
  private readonly results = new Map<string, StoredDiagnosis>();
  private readonly emitter = new vscode.EventEmitter<{ context: string; node: string }>();
  readonly onDidChange = this.emitter.event;

  set(diagnosis: Diagnosis): void {
    const stored = storedDiagnosis(diagnosis);
    this.results.set(key(stored.context, stored.node), stored);
    this.emitter.fire({ context: stored.context, node: stored.node });
  }

  get(context: string, node: string): StoredDiagnosis | undefined {
    return this.results.get(key(context, node));
  }

  clear(): void {
    const all = [...this.results.values()];
    this.results.clear();
    for (const r of all) this.emitter.fire({ context: r.context, node: r.node });
  }

  dispose(): void {
    this.emitter.dispose();
  }
}

/** The one store of the window (see the file comment). */
export const diagnosisResults = new DiagnosisResults();

/** The rows a node gets after its children (conditions, events): its diagnosis, when there is one. */
export function diagnosisRowsFor(entry: NodeEntry, results: DiagnosisResults = diagnosisResults): DiagnosisRowElement[] {
  return results.get(entry.context, entry.name) !== undefined ? [{ kind: 'diagnosis', entry }] : [];
}

export function diagnosisChildren(element: DiagnosisRowElement, results: DiagnosisResults = diagnosisResults): DiagnosisRowElement[] {
  if (element.check !== undefined) return [];
  const stored = results.get(element.entry.context, element.entry.name);
  return (stored?.checks ?? []).map((check) => ({ kind: 'diagnosis', entry: element.entry, check }));
}

const VERDICT_ICON: Record<CheckVerdict, { id: string; color?: string }> = {
  ok: { id: 'pass', color: 'testing.iconPassed' },
  warn: { id: 'warning', color: 'list.warningForeground' },
  fail: { id: 'error', color: 'errorForeground' },
  unknown: { id: 'question', color: 'disabledForeground' },
};

export function verdictIcon(verdict: CheckVerdict): vscode.ThemeIcon {
  const spec = VERDICT_ICON[verdict];
  return spec.color === undefined ? new vscode.ThemeIcon(spec.id) : new vscode.ThemeIcon(spec.id, new vscode.ThemeColor(spec.color));
}

export function verdictWord(verdict: CheckVerdict): string {
  switch (verdict) {
    case 'ok':
      return t('ok');
    case 'warn':
      return t('warning');
    case 'fail':
      return t('fails');
    case 'unknown':
      return t('unknown');
  }
}

/** The worst verdict among the checks: what the group row shows. */
export function worstVerdict(checks: readonly { verdict: CheckVerdict }[]): CheckVerdict {
  // Unknown does not outrank ok here: a check without its evidence is not a problem of the node.
  if (checks.some((c) => c.verdict === 'fail')) return 'fail';
  if (checks.some((c) => c.verdict === 'warn')) return 'warn';
  return 'ok';
}

export function diagnosisTreeItem(element: DiagnosisRowElement, results: DiagnosisResults = diagnosisResults): vscode.TreeItem {
  const { entry, check } = element;
  if (check !== undefined) {
    const item = new vscode.TreeItem(check.title, vscode.TreeItemCollapsibleState.None);
    item.id = JSON.stringify(['diagnosis', entry.context, entry.name, check.id]);
    // A check that does not apply (EventedPLEG with its gate off) passed nothing: it is no green "ok".
    const word = check.applies ? verdictWord(check.verdict) : t('not applicable');
    item.description = word;
    item.iconPath = check.applies ? verdictIcon(check.verdict) : new vscode.ThemeIcon('circle-slash', new vscode.ThemeColor('disabledForeground'));
    // Plain text: summaries quote cluster-supplied strings, which must not render as Markdown.
    item.tooltip = [`${check.id} (${check.cause}): ${word}`, '', check.summary, ...check.evidence.map((line) => `• ${line}`)].join('\n');
    item.contextValue = `diagnosisCheck;${check.applies ? check.verdict : 'notApplicable'}`;
    item.accessibilityInformation = { label: `${check.title}, ${word}`, role: 'treeitem' };
    return item;
  }
  const stored = results.get(entry.context, entry.name);
  const item = new vscode.TreeItem(t('Diagnosis'), vscode.TreeItemCollapsibleState.Collapsed);
  item.id = JSON.stringify(['diagnosis', entry.context, entry.name]);
  const worst = worstVerdict(stored?.checks ?? []);
  item.iconPath = verdictIcon(worst);
  item.description = stored?.headline ?? '';
  item.tooltip = stored !== undefined ? t('{0} (collected {1})', stored.headline, stored.collectedAt) : undefined;
  item.contextValue = `diagnosis;${worst}`;
  item.accessibilityInformation = { label: `${t('Diagnosis')}, ${stored?.headline ?? ''}`, role: 'treeitem' };
  return item;
}
