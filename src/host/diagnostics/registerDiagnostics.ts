// Diagnose Node in the editor: the command (its code, with the evidence collection and the checks, loads
// on first use), the report documents, and a log line per bad plegDoctor.diagnostics.* value whenever
// the settings change (the command itself refuses to run with one and names it).

import * as vscode from 'vscode';
import { CommandIds } from '../../shared/commandIds';
import { loadKubeBundle } from '../bundles/kubeLoader';
import type { Services } from '../services';
import { diagnosisResults } from '../views/diagnosisChildren';
import type { TreeElement } from '../views/treeElements';
import { readDiagnosticsConfig } from './diagnosticsConfig';
import { remediateNode } from './remediateCommand';
import { DIAGNOSTICS_SECTION } from './diagnosticsSettings';
import { ReportDocuments } from './reportDocuments';

export function registerDiagnostics(services: Services): vscode.Disposable[] {
  const { nodeAccess } = services;
  const { logger } = services;
  const documents = new ReportDocuments();
  const logProblems = (): void => {
    for (const p of readDiagnosticsConfig().problems) logger.warn(`settings: ${p.message}`);
  };
  logProblems();
  return [
    documents,
    vscode.commands.registerCommand(CommandIds.diagnoseNode, async (element?: TreeElement) => {
      const { diagnoseNode } = await loadKubeBundle();
      await diagnoseNode(element, { session: services.session, nodeAccess, documents, logger, results: diagnosisResults });
    }),
    vscode.commands.registerCommand(CommandIds.diagnoseAllNotReady, async () => {
      const { diagnoseAllNotReady } = await loadKubeBundle();
      await diagnoseAllNotReady({ session: services.session, results: diagnosisResults, logger, documents });
    }),
    vscode.commands.registerCommand(CommandIds.remediateNode, async (element?: TreeElement) => {
      await remediateNode(element, { session: services.session, logger, results: diagnosisResults });
    }),
    vscode.commands.registerCommand(CommandIds.exportEvidenceBundle, async (element?: TreeElement) => {
      const { exportEvidenceBundle } = await loadKubeBundle();
      await exportEvidenceBundle(element, { session: services.session, nodeAccess, documents, logger, results: diagnosisResults });
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(DIAGNOSTICS_SECTION)) logProblems();
    }),
  ];
}
