// The kubelet-log language server: diagnostics for PLEG-relevant lines and a hover that explains them.
// The analysis lives in src/core/parse/logFindings.ts; this file only speaks LSP (stdio or IPC, whatever
// the client chose on the command line).

import {
  createConnection,
  DiagnosticSeverity,
  MarkupKind,
  ProposedFeatures,
  TextDocuments,
  TextDocumentSyncKind,
} from 'vscode-languageserver/node';
import type { Diagnostic } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { findLogFindings } from '../core/parse/logFindings';
import type { FindingSeverity, LogFinding } from '../core/parse/logFindings';

const SEVERITY: Record<FindingSeverity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

/** A journal of several days has hundreds of thousands of lines; diagnostics beyond this are not useful. */
const MAX_DIAGNOSTICS = 5000;

const connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments(TextDocument);
const findingsByUri = new Map<string, LogFinding[]>();

function toDiagnostic(f: LogFinding): Diagnostic {
  return {
    range: { start: { line: f.line, character: f.start }, end: { line: f.line, character: f.end } },
    severity: SEVERITY[f.severity],
    source: 'PLEG Doctor',
    code: f.rule,
    message: f.message,
  };
}

function validate(doc: TextDocument): void {
  const findings = findLogFindings(doc.getText());
  findingsByUri.set(doc.uri, findings);
  void connection.sendDiagnostics({ uri: doc.uri, version: doc.version, diagnostics: findings.slice(0, MAX_DIAGNOSTICS).map(toDiagnostic) });
}

connection.onInitialize(() => ({
  capabilities: {
    textDocumentSync: TextDocumentSyncKind.Incremental,
    hoverProvider: true,
  },
  serverInfo: { name: 'PLEG Doctor kubelet log server' },
}));

documents.onDidOpen((e) => validate(e.document));
documents.onDidChangeContent((e) => validate(e.document));
documents.onDidClose((e) => {
  findingsByUri.delete(e.document.uri);
  void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
});

connection.onHover((params) => {
  const finding = findingsByUri.get(params.textDocument.uri)?.find((f) => f.line === params.position.line);
  if (finding === undefined) return null;
  return {
    contents: { kind: MarkupKind.Markdown, value: finding.explanation },
    range: {
      start: { line: finding.line, character: finding.start },
      end: { line: finding.line, character: finding.end },
    },
  };
});

documents.listen(connection);
connection.listen();
