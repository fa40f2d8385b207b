// Read-only Markdown documents for diagnosis reports (scheme pleg-doctor-report): shown rendered, in the
// Markdown preview alone (its title bar's Open Source File shows the Markdown on demand), not the source and
// the preview side by side. Content lives in memory only, for the last MAX_REPORTS.

import * as vscode from 'vscode';
import { t } from '../l10n';
import { ReadOnlyDocuments } from '../documents/readOnlyDocuments';
import { fleetReportUriParts, MAX_REPORTS, REPORT_SCHEME, reportUriParts } from './reportDocument';

export class ReportDocuments extends ReadOnlyDocuments {
  constructor() {
    super({
      scheme: REPORT_SCHEME,
      capacity: MAX_REPORTS,
      missingText: () => `${t('This PLEG Doctor report is no longer in memory (PLEG Doctor keeps the last {0}). Diagnose the node again.', MAX_REPORTS)}\n`,
    });
  }

  /** Stores a report without showing it (Diagnose All links to it from the fleet report). */
  store(context: string, node: string, collectedAt: string, markdown: string): vscode.Uri {
    const uri = vscode.Uri.from(reportUriParts(context, node, this.nextSequence(), collectedAt));
    this.set(uri, markdown);
    return uri;
  }

  /** Stores a fleet report and shows it rendered (its Markdown is one click away, the preview's Open Source). */
  async openFleetReport(startedAt: string, markdown: string): Promise<vscode.Uri> {
    const uri = vscode.Uri.from(fleetReportUriParts(this.nextSequence(), startedAt));
    this.set(uri, markdown);
    await vscode.commands.executeCommand('markdown.showPreview', uri);
    return uri;
  }

  /** Stores a report and shows it rendered; its Markdown opens on demand from the preview. */
  async openReport(context: string, node: string, collectedAt: string, markdown: string): Promise<vscode.Uri> {
    const uri = this.store(context, node, collectedAt, markdown);
    await vscode.commands.executeCommand('markdown.showPreview', uri);
    return uri;
  }
}
