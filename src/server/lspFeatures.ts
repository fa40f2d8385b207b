// Reader findings → LSP shapes: diagnostics (a stretch is one diagnostic spanning its lines), the incident
// timeline as document symbols, folding ranges for stretches, a summary code lens and hovers.

import type { CodeLens, Diagnostic, DocumentSymbol, FoldingRange, Hover } from 'vscode-languageserver/node';
import { DiagnosticSeverity, FoldingRangeKind, MarkupKind, SymbolKind } from 'vscode-languageserver/node';
import { findingForLine } from '../core/parse/logFindings';
import { reasonText, type LogSummary, type ReaderFinding, type ReaderSeverity } from '../core/parse/logReader';
import { ADVICE } from '../core/parse/logReaderAdvice';

/** A journal of several days has thousands of findings; more diagnostics than this are not useful. */
export const MAX_DIAGNOSTICS = 5000;
export const MAX_SYMBOLS = 2000;

const SEVERITY: Record<ReaderSeverity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
};

type LineText = (line: number) => string | undefined;

function rangeOf(f: ReaderFinding, text: LineText): { start: { line: number; character: number }; end: { line: number; character: number } } {
  return { start: { line: f.line, character: 0 }, end: { line: f.lastLine, character: text(f.lastLine)?.length ?? 0 } };
}

export function toDiagnostics(findings: readonly ReaderFinding[], text: LineText): Diagnostic[] {
  return findings.slice(0, MAX_DIAGNOSTICS).map((f) => ({
    range: rangeOf(f, text),
    severity: SEVERITY[f.severity],
    source: 'PLEG Doctor',
    code: f.kind,
    message: f.message,
  }));
}

const SYMBOL_KIND: Record<ReaderFinding['kind'], SymbolKind> = {
  'pleg-stretch': SymbolKind.Event,
  'skipped-sync-stretch': SymbolKind.Event,
  'pleg-never': SymbolKind.Key,
  'relist-failure': SymbolKind.Null,
  'event-discard': SymbolKind.Array,
  'runtime-down': SymbolKind.Null,
  'evented-fallback': SymbolKind.Enum,
  'housekeeping-slow': SymbolKind.Number,
  'node-not-ready': SymbolKind.Boolean,
  'node-ready': SymbolKind.Boolean,
  'kubelet-start': SymbolKind.Constructor,
  'kubelet-restart': SymbolKind.Constructor,
};

/** The incident timeline, in line order: `03:03:46 PLEG unhealthy for 115 s (…)`. */
export function toSymbols(findings: readonly ReaderFinding[], text: LineText): DocumentSymbol[] {
  return findings.slice(0, MAX_SYMBOLS).map((f) => {
    const range = rangeOf(f, text);
    return {
      name: `${f.clock !== undefined ? `${f.clock} ` : ''}${f.message}`.slice(0, 200),
      detail: f.line === f.lastLine ? `line ${f.line + 1}` : `lines ${f.line + 1}–${f.lastLine + 1}`,
      kind: SYMBOL_KIND[f.kind],
      range,
      selectionRange: { start: range.start, end: { line: f.line, character: text(f.line)?.length ?? 0 } },
    };
  });
}

export function toFoldingRanges(findings: readonly ReaderFinding[]): FoldingRange[] {
  return findings
    .filter((f) => (f.kind === 'pleg-stretch' || f.kind === 'skipped-sync-stretch') && f.lastLine > f.line)
    .map((f) => ({ startLine: f.line, endLine: f.lastLine, kind: FoldingRangeKind.Region }));
}

/** The summary lens text: first and last unhealthy time, total unhealthy time, longest stretch, counts. */
export function summaryTitle(findings: readonly ReaderFinding[], summary: LogSummary): string {
  const pleg = findings.filter((f) => f.kind === 'pleg-stretch');
  if (pleg.length === 0) {
    return `PLEG Doctor: no PLEG-unhealthy stretch · ${summary.relistFailures} relist failures · ${summary.skippedSyncStretches.length} sync-skip stretches · ${summary.notReadyTransitions} NotReady`;
  }
  const total = pleg.reduce((s, f) => s + (f.durationSeconds ?? 0), 0);
  const longest = pleg.reduce((a, b) => ((b.durationSeconds ?? 0) > (a.durationSeconds ?? 0) ? b : a));
  const first = pleg[0]?.clock ?? `line ${(pleg[0]?.line ?? 0) + 1}`;
  const lastF = pleg[pleg.length - 1];
  const last = lastF?.lastClock ?? `line ${(lastF?.lastLine ?? 0) + 1}`;
  const n = pleg.length === 1 ? '1 stretch' : `${pleg.length} stretches`;
  return (
    `PLEG unhealthy ${first} → ${last}: ${n}, ${total.toFixed(0)} s in total, longest ${(longest.durationSeconds ?? 0).toFixed(0)} s (line ${longest.line + 1})` +
    ` · ${summary.relistFailures} relist failures · ${summary.notReadyTransitions} NotReady`
  );
}

export function toCodeLenses(findings: readonly ReaderFinding[], summary: LogSummary): CodeLens[] {
  // An empty command id: VS Code shows the title as a label that does nothing when clicked.
  return [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, command: { title: summaryTitle(findings, summary), command: '' } }];
}

/** Hover for a line: the finding(s) covering it, what they mean, what to check next, the line's own rule. */
export function hoverFor(findings: readonly ReaderFinding[], line: number, text: LineText): Hover | null {
  const covering = findings.filter((f) => f.line <= line && line <= f.lastLine);
  const raw = text(line);
  const lineFinding = raw === undefined ? undefined : findingForLine(raw, line);
  if (covering.length === 0 && lineFinding === undefined) return null;
  const parts: string[] = [];
  for (const f of covering) {
    const advice = ADVICE[f.kind];
    let head = `**${f.message}**`;
    if (f.reasons !== undefined && f.reasons.length > 0) head += `\n\nReasons: ${f.reasons.map(reasonText).join(', ')}`;
    parts.push(`${head}\n\n${advice.meaning}\n\n*Check next:* ${advice.next}`);
  }
  if (lineFinding !== undefined) parts.push(lineFinding.explanation);
  return { contents: { kind: MarkupKind.Markdown, value: parts.join('\n\n---\n\n') } };
}
