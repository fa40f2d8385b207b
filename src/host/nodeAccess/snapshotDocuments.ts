// Read-only documents for CRI snapshots (scheme pleg-doctor-snapshot). Content lives in memory only, for
// the last MAX_DOCUMENTS snapshots; a URI restored after a reload, or evicted since, says so instead.

import * as vscode from 'vscode';
import { t } from '../l10n';
import { BoundedContents } from './boundedContents';
import { SNAPSHOT_SCHEME, snapshotDocumentContent, snapshotUriParts, type SnapshotDocumentInput } from './snapshotDocument';

const MAX_DOCUMENTS = 20;

export class SnapshotDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly contents = new BoundedContents(MAX_DOCUMENTS);
  private sequence = 0;
  private readonly registration: vscode.Disposable;

  constructor() {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(SNAPSHOT_SCHEME, this);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return (
      this.contents.get(uri.toString()) ??
      `${JSON.stringify({ error: t('This CRI snapshot is no longer in memory (PLEG Doctor keeps the last {0}). Take a new one.', MAX_DOCUMENTS) }, null, 2)}\n`
    );
  }

  /** Stores a snapshot and opens it in an editor as JSON. */
  async open(input: SnapshotDocumentInput): Promise<vscode.Uri> {
    const uri = vscode.Uri.from(snapshotUriParts(input.context, input.node, ++this.sequence, input.takenAt));
    this.contents.set(uri.toString(), snapshotDocumentContent(input));
    const document = await vscode.workspace.openTextDocument(uri);
    const json = document.languageId === 'json' ? document : await vscode.languages.setTextDocumentLanguage(document, 'json');
    await vscode.window.showTextDocument(json, { preview: false });
    return uri;
  }

  dispose(): void {
    this.registration.dispose();
    this.contents.clear();
  }
}
