// Read-only Markdown documents for diagnosis reports (scheme pleg-doctor-report): opened in an editor and
// rendered in the Markdown preview beside it. Content lives in memory only, for the last MAX_REPORTS.

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

  /** Stores a report, opens it as Markdown and shows its preview to the side. */
  async openReport(context: string, node: string, collectedAt: string, markdown: string): Promise<vscode.Uri> {
    const uri = vscode.Uri.from(reportUriParts(context, node, this.nextSequence(), collectedAt));
    // Always the first column, so the preview opens beside it even when an earlier preview has the focus.
    await this.open(uri, markdown, { languageId: 'markdown', viewColumn: vscode.ViewColumn.One });
    await vscode.commands.executeCommand('markdown.showPreviewToSide', uri);
    return uri;
  }
}
