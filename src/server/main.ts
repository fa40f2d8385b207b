// The kubelet-log language server. The analysis is src/core's log reader (the same one `pleg-doctor logs`
// runs); this file only speaks LSP (stdio or IPC, whatever the client chose on the command line):
// diagnostics per finding (a stretch spans its lines), hovers, the incident timeline as document symbols,
// folding ranges for stretches and a summary code lens on line 1.
//
// Text sync is incremental and handled here, not by TextDocuments: each change is applied to the stored
// lines at once (only the touched lines are re-classified), and the sequential pass plus publishing are
// debounced. Opening (or a whole-text change) classifies in chunks that yield to the event loop; a newer
// change cancels that and starts over.

import {
  CodeLensRefreshRequest,
  createConnection,
  ProposedFeatures,
  TextDocumentSyncKind,
  type TextDocumentContentChangeEvent,
} from 'vscode-languageserver/node';
import { AnalysisCancelled, DocumentAnalysis } from './documentAnalysis';
import { hoverFor, toCodeLenses, toDiagnostics, toFoldingRanges, toSymbols } from './lspFeatures';

/** Quiet time after the last keystroke before re-running the sequential pass and publishing. */
const DEBOUNCE_MS = 150;

interface DocState {
  uri: string;
  version: number;
  /** The text as last received in full; edits arriving before the first analysis is done are applied to it. */
  text: string;
  analysis: DocumentAnalysis;
  timer?: NodeJS.Timeout | undefined;
  /** The chunked full analysis in flight, if any. */
  token?: { cancelled: boolean } | undefined;
  /** Resolves when the findings for the current version are published (requests wait on it). */
  ready: Promise<void>;
  settle?: (() => void) | undefined;
}

const connection = createConnection(ProposedFeatures.all);
const states = new Map<string, DocState>();
let lensRefresh = false;

function pending(s: DocState): void {
  if (s.settle !== undefined) return;
  s.ready = new Promise<void>((resolve) => {
    s.settle = resolve;
  });
}

function settle(s: DocState): void {
  s.settle?.();
  s.settle = undefined;
}

async function publish(s: DocState): Promise<void> {
  const result = s.analysis.result;
  if (result === undefined) return;
  const text = (line: number): string | undefined => s.analysis.lineText(line);
  await connection.sendDiagnostics({ uri: s.uri, version: s.version, diagnostics: toDiagnostics(result.findings, text) });
  settle(s);
  // Symbols, folding and lenses are pulled by the client; ask it to pull the lenses again.
  if (lensRefresh) void connection.sendRequest(CodeLensRefreshRequest.type).catch(() => undefined);
}

/** Classifies the whole text in chunks, then publishes; a newer full analysis or edit cancels it. */
function analyseAll(s: DocState): void {
  if (s.token !== undefined) s.token.cancelled = true;
  if (s.timer !== undefined) clearTimeout(s.timer);
  const token = { cancelled: false };
  s.token = token;
  pending(s);
  s.analysis
    .update(s.text, token)
    .then(async () => {
      if (token.cancelled || states.get(s.uri) !== s) return;
      s.token = undefined;
      await publish(s);
    })
    .catch((e: unknown) => {
      if (e instanceof AnalysisCancelled) return;
      connection.console.error(`kubelet log analysis failed for ${s.uri}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      settle(s);
    });
}

function resequenceLater(s: DocState): void {
  pending(s);
  if (s.timer !== undefined) clearTimeout(s.timer);
  s.timer = setTimeout(() => {
    s.timer = undefined;
    s.analysis.resequence();
    void publish(s).catch((e: unknown) => connection.console.error(`publishing diagnostics for ${s.uri} failed: ${String(e)}`));
  }, DEBOUNCE_MS);
}

/** Applies a change to a plain string, for edits that arrive while the full analysis still runs. */
function applyToText(text: string, change: TextDocumentContentChangeEvent): string {
  if (!('range' in change)) return change.text;
  const offset = (line: number, character: number): number => {
    let at = 0;
    for (let l = 0; l < line; l++) {
      const nl = text.indexOf('\n', at);
      if (nl < 0) return text.length;
      at = nl + 1;
    }
    const lineEnd = text.indexOf('\n', at);
    const end = lineEnd < 0 ? text.length : text[lineEnd - 1] === '\r' ? lineEnd - 1 : lineEnd;
    return Math.min(at + character, end);
  };
  return text.slice(0, offset(change.range.start.line, change.range.start.character)) + change.text + text.slice(offset(change.range.end.line, change.range.end.character));
}

connection.onInitialize((params) => {
  lensRefresh = params.capabilities.workspace?.codeLens?.refreshSupport === true;
  return {
    capabilities: {
      textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
      hoverProvider: true,
      documentSymbolProvider: { label: 'Kubelet incident timeline' },
      foldingRangeProvider: true,
      codeLensProvider: { resolveProvider: false },
    },
    serverInfo: { name: 'PLEG Doctor kubelet log server' },
  };
});

connection.onDidOpenTextDocument(({ textDocument }) => {
  const s: DocState = { uri: textDocument.uri, version: textDocument.version, text: textDocument.text, analysis: new DocumentAnalysis(), ready: Promise.resolve() };
  states.set(s.uri, s);
  analyseAll(s);
});

connection.onDidChangeTextDocument(({ textDocument, contentChanges }) => {
  const s = states.get(textDocument.uri);
  if (s === undefined) return;
  s.version = textDocument.version;
  const incremental = s.token === undefined && s.analysis.ready && contentChanges.every((c) => 'range' in c);
  if (incremental) {
    for (const c of contentChanges) if ('range' in c) s.analysis.applyChange(c.range, c.text);
    // The stored text is only needed again for a full analysis; rebuild it lazily from the lines then.
    s.text = '';
    resequenceLater(s);
    return;
  }
  if (s.text === '' && s.analysis.ready) s.text = s.analysis.text();
  for (const c of contentChanges) s.text = applyToText(s.text, c);
  analyseAll(s);
});

connection.onDidCloseTextDocument(({ textDocument }) => {
  const s = states.get(textDocument.uri);
  if (s?.timer !== undefined) clearTimeout(s.timer);
  if (s?.token !== undefined) s.token.cancelled = true;
  if (s !== undefined) settle(s);
  states.delete(textDocument.uri);
  void connection.sendDiagnostics({ uri: textDocument.uri, diagnostics: [] });
});

/** Waits for the findings of the current version, so a request right after an edit sees them. */
async function stateFor(uri: string): Promise<DocState | undefined> {
  const s = states.get(uri);
  if (s === undefined) return undefined;
  await s.ready;
  return s.analysis.result === undefined ? undefined : s;
}

const lineOf = (s: DocState) => (line: number): string | undefined => s.analysis.lineText(line);

connection.onHover(async (params) => {
  const s = await stateFor(params.textDocument.uri);
  return s?.analysis.result ? hoverFor(s.analysis.result.findings, params.position.line, lineOf(s)) : null;
});
connection.onDocumentSymbol(async (params) => {
  const s = await stateFor(params.textDocument.uri);
  return s?.analysis.result ? toSymbols(s.analysis.result.findings, lineOf(s)) : [];
});
connection.onFoldingRanges(async (params) => {
  const s = await stateFor(params.textDocument.uri);
  return s?.analysis.result ? toFoldingRanges(s.analysis.result.findings) : [];
});
connection.onCodeLens(async (params) => {
  const s = await stateFor(params.textDocument.uri);
  return s?.analysis.result ? toCodeLenses(s.analysis.result.findings, s.analysis.result.summary) : [];
});

connection.listen();
