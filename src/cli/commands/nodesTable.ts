// `pleg-doctor nodes` for a person at a terminal: one row per node, worst first, with how often it went
// NotReady in the last 30 min, in the tree's words (the verdict's short name, the age, the description's
// flap text), so the terminal and the side bar tell one story. A node that flaps sorts with the NotReady
// ones even while it is Ready for a moment, as in the tree.

import type { NodeClassification } from '../../core/classify/types';
import { flapCount, isFlapping, type FlapSummary } from '../../core/tree/flapHistory';
import { formatAge, secondsSince } from '../../core/tree/humanAge';
import { englishText } from '../../core/tree/localize';
import { compareNodes } from '../../core/tree/nodeOrder';
import { attentionRank, verdictShortName } from '../../core/tree/verdictPresentation';
import { roundGoDurations } from '../../core/util/goDuration';

export interface NodeRow {
  context: string;
  classification: NodeClassification;
  /** NotReady transitions in the flap window; undefined when the node's events could not be read. */
  flaps: FlapSummary | undefined;
}

/** Worst first (a flapping node as NotReady), then the most flaps, then by name as the tree orders them. */
export function compareRows(a: NodeRow, b: NodeRow): number {
  return (
    attentionRank(a.classification.verdict, a.flaps) - attentionRank(b.classification.verdict, b.flaps) ||
    (b.flaps?.count ?? 0) - (a.flaps?.count ?? 0) ||
    compareNodes(a.classification, b.classification)
  );
}

/** Longer cells are cut with "…": the table stays one line per node on an ordinary terminal. */
const DETAIL_MAX = 80;

function detail(c: NodeClassification): string {
  // At risk: node-problem-detector's message (the prediction), not the kubelet's "posting ready status".
  const said = c.verdict === 'pleg-at-risk' ? (c.atRisk?.message ?? c.summary) : c.message !== '' ? c.message : c.summary;
  const text = roundGoDurations(c.verdict === 'ready' ? '' : said).replace(/\s+/gu, ' ').trim();
  return text.length > DETAIL_MAX ? `${text.slice(0, DETAIL_MAX - 1)}…` : text;
}

function status(row: NodeRow): string {
  const c = row.classification;
  const name = verdictShortName(c.verdict, englishText) + (c.verdict === 'ready' && isFlapping(row.flaps) ? ' (flapping)' : '');
  return c.cordoned ? `${name}, cordoned` : name;
}

/** The rows as aligned columns with a header; CONTEXT only when more than one context is listed. */
export function renderNodesTable(rows: readonly NodeRow[], now: Date, withContext: boolean): string {
  const header = [...(withContext ? ['CONTEXT'] : []), 'NAME', 'STATUS', 'FOR', 'FLAPS/30M', 'DETAIL'];
  const cells = [...rows].sort(compareRows).map((row) => {
    // FOR is how long the verdict has held: for a node at risk, since NPD set PLEGAtRisk (not since it turned Ready).
    const c = row.classification;
    const seconds = secondsSince(c.verdict === 'pleg-at-risk' ? c.atRisk?.since : c.since, now);
    return [
      ...(withContext ? [row.context] : []),
      row.classification.name,
      status(row),
      seconds === undefined ? '–' : formatAge(seconds, englishText),
      row.flaps === undefined ? '?' : flapCount(row.flaps),
      detail(row.classification),
    ];
  });
  const all = [header, ...cells];
  const widths = header.map((_, i) => Math.max(...all.map((r) => (r[i] ?? '').length)));
  return `${all.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join('   ').trimEnd()).join('\n')}\n`;
}
