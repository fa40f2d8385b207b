// The one in-memory store behind PLEG Doctor's read-only virtual documents (CRI snapshots, kubelet logs
// fetched from a node, diagnosis reports): a content provider for one URI scheme that keeps the newest
// `capacity` texts, so a long session does not keep every 64 MB log, and answers a URI that is gone
// (evicted, or restored after a reload) with a text saying so. VS Code offers no edit for a content
// provider's documents, which is what makes them read-only.

import * as vscode from 'vscode';
import { BoundedContents } from '../nodeAccess/boundedContents';

export interface ReadOnlyDocumentsOptions {
  scheme: string;
  /** How many texts are kept; the oldest goes first. */
  capacity: number;
  /** The text of a URI that is not (or no longer) in memory. */
  missingText: (uri: vscode.Uri) => string;
}

export interface ShowOptions {
  /** The language the document is shown in (json, markdown, kubelet-log…). */
  languageId: string;
  viewColumn?: vscode.ViewColumn;
}

export class ReadOnlyDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly contents: BoundedContents;
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  private readonly registration: vscode.Disposable;
  private sequence = 0;
  readonly onDidChange = this.changed.event;

  constructor(private readonly options: ReadOnlyDocumentsOptions) {
    this.contents = new BoundedContents(options.capacity);
    this.registration = vscode.workspace.registerTextDocumentContentProvider(options.scheme, this);
  }

  /** 1, 2, 3…: for URIs that must differ even when taken in the same second. */
  nextSequence(): number {
    return ++this.sequence;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? this.options.missingText(uri);
  }

  /** Stores (or replaces) the text of `uri`; an open editor of it is refreshed. */
  set(uri: vscode.Uri, text: string): void {
    if (uri.scheme !== this.options.scheme) throw new Error(`ReadOnlyDocuments(${this.options.scheme}): cannot hold a ${uri.scheme}: URI`);
    this.contents.set(uri.toString(), text);
    this.changed.fire(uri);
  }

  /** Stores the text and shows it in an editor, in the given language. */
  async open(uri: vscode.Uri, text: string, show: ShowOptions): Promise<vscode.TextDocument> {
    this.set(uri, text);
    const opened = await vscode.workspace.openTextDocument(uri);
    const document = opened.languageId === show.languageId ? opened : await vscode.languages.setTextDocumentLanguage(opened, show.languageId);
    await vscode.window.showTextDocument(document, { preview: false, ...(show.viewColumn !== undefined ? { viewColumn: show.viewColumn } : {}) });
    return document;
  }

  dispose(): void {
    this.registration.dispose();
    this.changed.dispose();
    this.contents.clear();
  }
}
