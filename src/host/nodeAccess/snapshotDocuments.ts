// Read-only documents for CRI snapshots (scheme pleg-doctor-snapshot). Content lives in memory only, for
// the last MAX_DOCUMENTS snapshots; a URI restored after a reload, or evicted since, says so instead.

import * as vscode from 'vscode';
import { ReadOnlyDocuments } from '../documents/readOnlyDocuments';
import { CommandIds } from '../../shared/commandIds';
import { t } from '../l10n';
import { SNAPSHOT_SCHEME, snapshotDocumentContent, snapshotSummary, snapshotUriParts, type SnapshotDocumentInput } from './snapshotDocument';

const MAX_DOCUMENTS = 20;

export class SnapshotDocuments extends ReadOnlyDocuments {
  constructor() {
    super({
      scheme: SNAPSHOT_SCHEME,
      capacity: MAX_DOCUMENTS,
      missingText: () => `${JSON.stringify({ error: t('This CRI snapshot is no longer in memory (PLEG Doctor keeps the last {0}). Take a new one.', MAX_DOCUMENTS) }, null, 2)}\n`,
    });
  }

  /** Stores a snapshot and opens it in an editor as JSON. */
  async openSnapshot(input: SnapshotDocumentInput): Promise<vscode.Uri> {
    const uri = vscode.Uri.from(snapshotUriParts(input.context, input.node, this.nextSequence(), input.takenAt));
    await this.open(uri, snapshotDocumentContent(input), { languageId: 'json' });
    return uri;
  }
}

/** Opens the snapshot's document and shows its summary, both naming the way it came by (every way shows it so). */
export async function showSnapshot(documents: SnapshotDocuments, input: SnapshotDocumentInput): Promise<void> {
  await documents.openSnapshot(input);
  const summary = snapshotSummary(input.node, input.access, input.report, t);
  if (summary.severity === 'info') void vscode.window.showInformationMessage(summary.message);
  else void vscode.window.showWarningMessage(summary.message, t('Show Log')).then((picked) => (picked !== undefined ? vscode.commands.executeCommand(CommandIds.showLog) : undefined));
}
