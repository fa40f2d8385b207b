// The diagnosis as a Markdown document. Layout (fixed by the contract): the title line, context and
// collection time, `## Findings` (or exactly "No problem found."), `## Checks`, `## Evidence`, `## What
// could not be collected` when there are gaps, and the footer saying PLEG Doctor only reads.
// Every cluster-supplied string is escaped or put in a code span / fenced block (markdownText.ts).

import type { CheckStatus, Diagnosis, Finding, Remediation, RemediationGate, Severity, SourceReport } from '../diagnosis';
import { codeSpan, escapeInline, fencedBlock, richInline, tableCell } from './markdownText';

const SEVERITY_MARK: Record<Severity, string> = { problem: '⛔', warning: '⚠️', info: 'ℹ️' };
const SEVERITY_WORD: Record<Severity, string> = { problem: 'Problem', warning: 'Warning', info: 'Info' };

const GATE_LABEL: Record<RemediationGate, string> = {
  readOnly: 'read-only',
  confirm: '🔒 confirm first',
  disruptive: '🔒 disruptive — confirm, knowing the impact',
  destructive: '🔒 destructive — confirm by typing the node name',
};

const STATUS_LABEL: Record<CheckStatus, string> = {
  found: 'found',
  clear: 'clear',
  notApplicable: 'not applicable',
  noEvidence: 'no evidence',
};

/** Messages longer than this go into a fenced block instead of a code span. */
const LONG_MESSAGE = 160;

function label<K extends string>(table: Record<K, string>, key: K, fallback: string): string {
  return table[key] ?? fallback;
}

function renderRemediation(r: Remediation): string {
  const gate = label(GATE_LABEL, r.gate, `🔒 ${String(r.gate)}`);
  const command = typeof r.command === 'string' && r.command !== '' ? ` ${codeSpan(r.command)}` : '';
  return `- **${gate}**: ${richInline(String(r.text))}${command}`;
}

function renderFinding(f: Finding): string[] {
  const mark = label(SEVERITY_MARK, f.severity, '•');
  const word = label(SEVERITY_WORD, f.severity, String(f.severity));
  const cause = typeof f.cause === 'number' ? ` · root cause ${f.cause} (docs/root-causes.md)` : '';
  const lines = [`### ${mark} ${richInline(String(f.title))}`, '', `*${word}* · check ${codeSpan(String(f.checkId))}${cause}`, '', richInline(String(f.summary)), ''];
  const evidence = Array.isArray(f.evidence) ? f.evidence : [];
  if (evidence.length > 0) {
    lines.push('**Evidence**', '');
    for (const e of evidence) lines.push(`- ${escapeInline(String(e.origin))}: ${richInline(String(e.text))}`);
    lines.push('');
  }
  const remediation = Array.isArray(f.remediation) ? f.remediation : [];
  if (remediation.length > 0) {
    lines.push('**Remediation** (listed, never run by PLEG Doctor)', '');
    for (const r of remediation) lines.push(renderRemediation(r));
    lines.push('');
  }
  const refs = Array.isArray(f.refs) ? f.refs : [];
  if (refs.length > 0) lines.push(`References: ${refs.map((r) => escapeInline(String(r))).join(', ')}`, '');
  return lines;
}

function renderSource(s: SourceReport): string {
  const ms = typeof s.ms === 'number' && Number.isFinite(s.ms) ? String(Math.round(s.ms)) : '—';
  return `| ${tableCell(String(s.source))} | ${tableCell(String(s.status))} | ${ms} | ${s.detail !== undefined ? tableCell(String(s.detail)) : ''} |`;
}

function readyBlock(d: Diagnosis): string[] {
  if (typeof d.readyMessage !== 'string') return [];
  const since = typeof d.readySince === 'string' ? ` (since ${escapeInline(d.readySince)})` : '';
  const message = d.readyMessage;
  if (message.length > LONG_MESSAGE || /[\r\n]/u.test(message)) return [`Ready message${since}:`, '', fencedBlock(message), ''];
  return [`Ready message${since}: ${codeSpan(message)}`, ''];
}

export function renderDiagnosisMarkdown(diagnosis: Diagnosis): string {
  const d = diagnosis;
  const findings = Array.isArray(d.findings) ? d.findings : [];
  const checks = Array.isArray(d.checks) ? d.checks : [];
  const sources = Array.isArray(d.sources) ? d.sources : [];
  const gaps = Array.isArray(d.gaps) ? d.gaps : [];
  const lines: string[] = [
    `# PLEG Doctor report: ${escapeInline(String(d.nodeName ?? ''))}`,
    '',
    `Context ${codeSpan(String(d.context ?? ''))} · collected ${escapeInline(String(d.collectedAt ?? ''))} · verdict ${codeSpan(String(d.verdict ?? ''))}`,
    '',
    `**${richInline(String(d.headline ?? ''))}**`,
    '',
    ...readyBlock(d),
    '## Findings',
    '',
  ];
  if (findings.length === 0) lines.push('No problem found.', '');
  else for (const f of findings) lines.push(...renderFinding(f));

  lines.push('## Checks', '', '| Check | Status | Note |', '|---|---|---|');
  for (const c of checks) {
    const status = c.status === 'found' && c.finding !== undefined ? `${label(SEVERITY_MARK, c.finding.severity, '')} found` : label(STATUS_LABEL, c.status, String(c.status));
    lines.push(`| ${tableCell(String(c.title))} | ${tableCell(status)} | ${c.note !== undefined ? tableCell(String(c.note)) : c.finding !== undefined ? tableCell(String(c.finding.title)) : ''} |`);
  }
  lines.push('', '## Evidence', '', '| Source | Status | ms | Detail |', '|---|---|---|---|');
  for (const s of sources) lines.push(renderSource(s));
  lines.push('');
  if (gaps.length > 0) {
    lines.push('## What could not be collected', '');
    for (const g of gaps) lines.push(`- ${richInline(String(g))}`);
    lines.push('');
  }
  lines.push('---', '', '*PLEG Doctor only reads: remediation is listed, never run. Commands above are for you to run yourself, after reading their gate.*', '');
  return lines.join('\n');
}
