// "Export Evidence Bundle": collects one node's evidence exactly as Diagnose Node does (same settings,
// same way to the node's side, same progress and cancel), keeps the kubelet's answers as they were sent,
// and writes them into a new folder (bundle.json, node.json, metrics.txt, …, and report.md, the report as
// rendered then; see src/core/diagnose/bundle.ts) that `pleg-doctor diagnose --evidence DIR` judges later,
// anywhere. The node's diagnosis goes to the tree too.

import { join } from 'node:path';
import * as vscode from 'vscode';
import { bundleFilesOf, type RawKubeletBodies } from '../../core/diagnose/bundle';
import { renderDiagnosisMarkdown } from '../../core/diagnose/report/renderMarkdown';
import { diagnose } from '../../core/diagnose/runDiagnosis';
import { writeEvidenceBundle } from '../../infra/diagnose/evidenceBundle';
import { t } from '../l10n';
import { pickNode } from '../nodeAccess/nodePicker';
import type { TreeElement } from '../views/treeElements';
import { collect, diagnosisAccess, showError, type DiagnoseNodeDeps, type Outcome } from './diagnoseNodeCommand';
import { readDiagnosticsConfig } from './diagnosticsConfig';
import { errorText } from '../../core/util/errorText';

/** `prod-eu-node-07-evidence-20261122T030538Z`: sorts by time, safe on every file system. */
export function bundleFolderName(node: string, collectedAt: string): string {
  const stamp = collectedAt.replace(/[-:]/gu, '').replace(/\.\d+Z$/u, 'Z');
  return `${node.replace(/[^A-Za-z0-9._-]/gu, '_')}-evidence-${stamp}`;
}

export async function exportEvidenceBundle(element: TreeElement | undefined, deps: DiagnoseNodeDeps): Promise<void> {
  const entry = element?.kind === 'node' ? element : await pickNode(deps.session, t('Export Evidence Bundle'));
  if (entry === undefined) return;
  const { logger } = deps;
  const { config, problems } = readDiagnosticsConfig();
  if (problems.length > 0) {
    await showError(t('Diagnosis of {0}: fix the diagnostics settings first: {1}', entry.name, problems.map((p) => p.message).join('; ')), 'settings');
    return;
  }
  const picked = await vscode.window.showOpenDialog({ canSelectFiles: false, canSelectFolders: true, canSelectMany: false, openLabel: t('Export Here'), title: t('Export Evidence Bundle of {0}', entry.name) });
  const parent = picked?.[0];
  if (parent === undefined) return;
  logger.info(`evidence bundle of node ${entry.name} (context ${entry.context}) requested, into ${parent.fsPath}`);

  const raw: RawKubeletBodies = {};
  const access = await diagnosisAccess(entry, config, deps);
  const outcome: Outcome =
    access?.way === 'cancelled'
      ? { kind: 'cancelled' }
      : await collect(
          entry,
          config,
          deps,
          (source, body, httpStatus) => {
            if (source === 'healthz') raw.healthz = { body, httpStatus };
            else raw[source] = body;
          },
          access,
        );
  if (outcome.kind === 'cancelled') {
    void vscode.window.showInformationMessage(t('Export of the evidence of {0} cancelled', entry.name));
    return;
  }
  if (outcome.kind === 'failed') {
    const message = errorText(outcome.error);
    logger.error(`evidence bundle of node ${entry.name} failed: ${message}`);
    await showError(t('Export of the evidence of {0} failed: {1}', entry.name, message), 'showLog');
    return;
  }
  const dir = join(parent.fsPath, bundleFolderName(entry.name, outcome.evidence.collectedAt));
  const diagnosis = diagnose(outcome.evidence);
  let written: string[];
  try {
    written = await writeEvidenceBundle(dir, bundleFilesOf(outcome.evidence, raw, renderDiagnosisMarkdown(diagnosis)));
  } catch (error) {
    const message = errorText(error);
    logger.error(`evidence bundle of node ${entry.name}: ${message}`);
    await showError(t('Export of the evidence of {0} failed: {1}', entry.name, message), 'showLog');
    return;
  }
  logger.info(`evidence bundle of node ${entry.name} written to ${dir}: ${written.join(', ')}`);
  deps.results?.set(diagnosis);
  const reveal = t('Reveal in File Explorer');
  void vscode.window.showInformationMessage(t('Evidence bundle of {0} written to {1} ({2} files)', entry.name, dir, written.length), reveal).then((choice) => {
    if (choice === reveal) void vscode.commands.executeCommand('revealFileInOS', vscode.Uri.file(dir));
  });
}
