// The fleet report of Diagnose All NotReady Nodes: one row per node (its state now, the cause its report
// names, the key evidence for it, a link to its report), grouped by that cause, so twenty NotReady nodes
// with one shared cause read as one problem. The cause is the finding the node's headline names
// (headline.ts), so the fleet report, the node's report and its notification never disagree.

import type { Verdict } from '../../classify/types';
import { flapText, isFlapping, type FlapSummary } from '../../tree/flapHistory';
import { englishText } from '../../tree/localize';
import { verdictShortName } from '../../tree/verdictPresentation';
import type { Diagnosis, Severity } from '../diagnosis';
import { headlineFinding } from '../headline';
import { escapeInline, richInline, tableCell } from './markdownText';

export type FleetOutcome = { kind: 'done'; diagnosis: Diagnosis; reportLink?: string } | { kind: 'failed'; error: string };

export interface FleetRow {
  context: string;
  node: string;
  /** The node's verdict in the tree when the run started. */
  verdictNow: Verdict;
  /** Its NotReady transitions in the flap window, when its events were loaded. */
  flaps?: FlapSummary;
  outcome: FleetOutcome;
}

export interface FleetReport {
  startedAt: string;
  rows: readonly FleetRow[];
  /** Nodes the run was asked for; more than rows when it was cancelled. */
  targets: number;
  cancelled: boolean;
}

const NO_CAUSE = 'No cause named by the evidence read';
const NOT_DIAGNOSED = 'Could not be diagnosed';
const SEVERITY_ORDER: Record<Severity, number> = { problem: 0, warning: 1, info: 2 };

interface Group {
  title: string;
  /** Sorts groups: problems, then warnings, then no cause, then failures. */
  rank: number;
  rows: FleetRow[];
}

function groupOf(row: FleetRow): { title: string; rank: number } {
  if (row.outcome.kind === 'failed') return { title: NOT_DIAGNOSED, rank: 5 };
  const cause = headlineFinding(row.outcome.diagnosis.findings);
  if (cause === undefined) return { title: NO_CAUSE, rank: 4 };
  return { title: cause.title, rank: SEVERITY_ORDER[cause.severity] ?? 3 };
}

function stateText(row: FleetRow): string {
  const name = verdictShortName(row.verdictNow, englishText);
  return isFlapping(row.flaps) ? `${name}, ${flapText(row.flaps, englishText)}` : name;
}

function keyEvidence(row: FleetRow): string {
  if (row.outcome.kind === 'failed') return row.outcome.error;
  const cause = headlineFinding(row.outcome.diagnosis.findings);
  const first = cause?.evidence[0];
  if (first === undefined) return row.outcome.diagnosis.headline;
  return `${first.origin}: ${first.text}`;
}

/** A Markdown link whose text is escaped and whose target cannot break out of its angle brackets. */
function link(text: string, target: string | undefined): string {
  const label = escapeInline(text);
  return target === undefined ? label : `[${label}](<${target.replace(/[<>\s|]/gu, encodeURIComponent)}>)`;
}

export function renderFleetReport(report: FleetReport): string {
  const groups = new Map<string, Group>();
  for (const row of report.rows) {
    const g = groupOf(row);
    const group = groups.get(g.title) ?? { ...g, rows: [] };
    group.rows.push(row);
    groups.set(g.title, group);
  }
  const ordered = [...groups.values()].sort((a, b) => a.rank - b.rank || b.rows.length - a.rows.length || a.title.localeCompare(b.title));
  const diagnosed = report.rows.filter((r) => r.outcome.kind === 'done').length;
  const lines = [
    '# PLEG Doctor fleet report',
    '',
    `Diagnose All NotReady Nodes · started ${escapeInline(report.startedAt)} · ${diagnosed} of ${report.targets} nodes diagnosed${report.cancelled ? ' (cancelled)' : ''}`,
    '',
    'Every node NotReady now or in the last 30 minutes (a node that flaps is Ready only for moments), grouped by the cause its report names. The reports read the API tier only (no SSH); Diagnose Node on a node adds its node side.',
    '',
  ];
  if (report.rows.length === 0) lines.push('No node was diagnosed.', '');
  for (const group of ordered) {
    lines.push(`## ${richInline(group.title)} (${group.rows.length === 1 ? '1 node' : `${group.rows.length} nodes`})`, '');
    // Three columns fit an editor beside the side bar: the group names the cause (so no headline column), and
    // the context goes with the node it qualifies.
    lines.push('| Node | State | Key evidence |', '|---|---|---|');
    for (const row of group.rows) {
      const nodeCell = `${row.outcome.kind === 'done' ? link(row.node, row.outcome.reportLink) : escapeInline(row.node)} · ${tableCell(row.context)}`;
      lines.push(`| ${nodeCell} | ${tableCell(stateText(row))} | ${tableCell(keyEvidence(row))} |`);
    }
    lines.push('');
  }
  return lines.join('\n');
}
