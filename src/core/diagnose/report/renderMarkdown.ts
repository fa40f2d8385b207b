// The diagnosis as a report. Layout (fixed by the contract): the title line, context and collection time,
// the headline, `Findings` (or exactly "No problem found."), `Checks`, `Evidence`, `What could not be
// collected` when there are gaps, and the footer saying what ran and what did not. Written in Markdown
// (renderDiagnosisMarkdown) or plain text for a terminal (renderDiagnosisText): one layout, two spellings
// (reportStyle.ts). Marks are words, not emoji: a terminal or editor without an emoji font shows boxes.

import type { CheckResult, CheckStatus, Diagnosis, Finding, Remediation, RemediationGate, Severity, SourceReport } from '../diagnosis';
import { MARKDOWN_STYLE, TEXT_STYLE, type ReportStyle } from './reportStyle';

const SEVERITY_WORD: Record<Severity, string> = { problem: 'Problem', warning: 'Warning', info: 'Info' };

const GATE_LABEL: Record<RemediationGate, string> = {
  readOnly: 'read-only',
  confirm: 'confirm first',
  disruptive: 'disruptive — confirm, knowing the impact',
  destructive: 'destructive — confirm by typing the node name',
};

const STATUS_LABEL: Record<CheckStatus, string> = {
  found: 'found',
  clear: 'clear',
  notApplicable: 'not applicable',
  noEvidence: 'no evidence',
};

/** The last line: diagnosing reads only; advice runs only when a person runs it (Remediate Node… asks first). */
export const REPORT_FOOTER =
  'Diagnosing only reads. Nothing under Remediation has been run: run a command yourself after reading its gate, or pick the action in VS Code’s Remediate Node…, which shows the exact command and asks before it runs.';

/** Messages longer than this go into a block instead of a code span. */
const LONG_MESSAGE = 160;

function label<K extends string>(table: Record<K, string>, key: K, fallback: string): string {
  return table[key] ?? fallback;
}

function renderRemediation(r: Remediation, s: ReportStyle): string {
  const gate = label(GATE_LABEL, r.gate, String(r.gate));
  const command = typeof r.command === 'string' && r.command !== '' ? s.command(r.command) : '';
  return `- ${s.strong(gate)}: ${s.inline(String(r.text))}${command}`;
}

function renderFinding(f: Finding, s: ReportStyle): string[] {
  const word = label(SEVERITY_WORD, f.severity, String(f.severity));
  const cause = typeof f.cause === 'number' ? ` · root cause ${f.cause} (docs/root-causes.md)` : '';
  const lines = [s.heading(3, `${word}: ${s.inline(String(f.title))}`), '', `${s.emphasis(word)} · check ${s.code(String(f.checkId))}${cause}`, '', s.inline(String(f.summary)), ''];
  const evidence = Array.isArray(f.evidence) ? f.evidence : [];
  if (evidence.length > 0) {
    lines.push(s.strong('Evidence'), '');
    for (const e of evidence) lines.push(`- ${s.plain(String(e.origin))}: ${s.inline(String(e.text))}`);
    lines.push('');
  }
  const remediation = Array.isArray(f.remediation) ? f.remediation : [];
  if (remediation.length > 0) {
    lines.push(`${s.strong('Remediation')} (advice: nothing here has run)`, '');
    for (const r of remediation) lines.push(renderRemediation(r, s));
    lines.push('');
  }
  const refs = Array.isArray(f.refs) ? f.refs : [];
  if (refs.length > 0) lines.push(`References: ${refs.map((r) => s.plain(String(r))).join(', ')}`, '');
  return lines;
}

/** A check's status cell: a finding says its severity ("problem found"), the others their status. */
export function checkStatusText(c: CheckResult): string {
  if (c.status === 'found' && c.finding !== undefined) return `${label(SEVERITY_WORD, c.finding.severity, '').toLowerCase()} found`.trimStart();
  return label(STATUS_LABEL, c.status, String(c.status));
}

function sourceRow(src: SourceReport): string[] {
  const ms = typeof src.ms === 'number' && Number.isFinite(src.ms) ? String(Math.round(src.ms)) : '—';
  return [String(src.source), String(src.status), ms, src.detail !== undefined ? String(src.detail) : ''];
}

function readyBlock(d: Diagnosis, s: ReportStyle): string[] {
  if (typeof d.readyMessage !== 'string') return [];
  const since = typeof d.readySince === 'string' ? ` (since ${s.plain(d.readySince)})` : '';
  const message = d.readyMessage;
  if (message.length > LONG_MESSAGE || /[\r\n]/u.test(message)) return [`Ready message${since}:`, '', ...s.block(message), ''];
  return [`Ready message${since}: ${s.code(message)}`, ''];
}

function renderDiagnosis(diagnosis: Diagnosis, s: ReportStyle): string {
  const d = diagnosis;
  const findings = Array.isArray(d.findings) ? d.findings : [];
  const checks = Array.isArray(d.checks) ? d.checks : [];
  const sources = Array.isArray(d.sources) ? d.sources : [];
  const gaps = Array.isArray(d.gaps) ? d.gaps : [];
  const lines: string[] = [
    s.heading(1, `PLEG Doctor report: ${s.plain(String(d.nodeName ?? ''))}`),
    '',
    `Context ${s.code(String(d.context ?? ''))} · collected ${s.plain(String(d.collectedAt ?? ''))} · verdict ${s.code(String(d.verdict ?? ''))}`,
    '',
    s.strong(s.inline(String(d.headline ?? ''))),
    '',
    ...readyBlock(d, s),
    s.heading(2, 'Findings'),
    '',
  ];
  if (findings.length === 0) lines.push('No problem found.', '');
  else for (const f of findings) lines.push(...renderFinding(f, s));

  const checkRows = checks.map((c) => [String(c.title), checkStatusText(c), c.note !== undefined ? String(c.note) : c.finding !== undefined ? String(c.finding.title) : '']);
  lines.push(s.heading(2, 'Checks'), '', ...s.table(['Check', 'Status', 'Note'], checkRows));
  lines.push('', s.heading(2, 'Evidence'), '', ...s.table(['Source', 'Status', 'ms', 'Detail'], sources.map(sourceRow)), '');
  if (gaps.length > 0) {
    lines.push(s.heading(2, 'What could not be collected'), '');
    for (const g of gaps) lines.push(`- ${s.inline(String(g))}`);
    lines.push('');
  }
  const rule = s.rule();
  lines.push(...(rule !== '' ? [rule, ''] : []), s.emphasis(REPORT_FOOTER), '');
  return lines.join('\n');
}

export function renderDiagnosisMarkdown(diagnosis: Diagnosis): string {
  return renderDiagnosis(diagnosis, MARKDOWN_STYLE);
}

/** The same report for a terminal: no Markdown escapes or markup. */
export function renderDiagnosisText(diagnosis: Diagnosis): string {
  return renderDiagnosis(diagnosis, TEXT_STYLE);
}
