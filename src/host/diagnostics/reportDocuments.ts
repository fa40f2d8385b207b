// Read-only Markdown documents for diagnosis reports (scheme pleg-doctor-report): opened in an editor and
// rendered in the Markdown preview beside it. Content lives in memory only, for the last MAX_REPORTS.

import * as vscode from 'vscode';
import { t } from '../l10n';
import { BoundedContents } from '../nodeAccess/boundedContents';
import { MAX_REPORTS, REPORT_SCHEME, reportUriParts } from './reportDocument';

export class ReportDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly contents = new BoundedContents(MAX_REPORTS);
  private sequence = 0;
  private readonly registration: vscode.Disposable;

  constructor() {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(REPORT_SCHEME, this);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? `${t('This PLEG Doctor report is no longer in memory (PLEG Doctor keeps the last {0}). Diagnose the node again.', MAX_REPORTS)}\n`;
  }

  /** Stores a report, opens it as Markdown and shows its preview to the side. */
  async open(context: string, node: string, collectedAt: string, markdown: string): Promise<vscode.Uri> {
    const uri = vscode.Uri.from(reportUriParts(context, node, ++this.sequence, collectedAt));
    this.contents.set(uri.toString(), markdown);
    const document = await vscode.workspace.openTextDocument(uri);
    const md = document.languageId === 'markdown' ? document : await vscode.languages.setTextDocumentLanguage(document, 'markdown');
    // Always the first column, so the preview opens beside it even when an earlier preview has the focus.
    await vscode.window.showTextDocument(md, { preview: false, viewColumn: vscode.ViewColumn.One });
    await vscode.commands.executeCommand('markdown.showPreviewToSide', uri);
    return uri;
  }

  dispose(): void {
    this.registration.dispose();
    this.contents.clear();
  }
}
