// The status bar item's text, tooltip and severity from the model totals and the unhealthy nodes.
// Decision: the item is hidden only when there is no context at all (nothing to watch); otherwise it
// always shows, so the user can tell "healthy" from "not running". The text counts NotReady nodes and
// says how many of them are PLEG ("2 nodes NotReady, none PLEG"), then the Ready nodes node-problem-detector
// says are at risk of a PLEG NotReady ("…, 1 at risk"); the tooltip names them.

import type { Verdict } from '../classify/types';
import type { Localize } from './localize';
import type { ModelTotals } from './nodeTreeModel';
import { verdictShortName } from './verdictPresentation';

export interface StatusSummary {
  visible: boolean;
  text: string;
  tooltip: string;
  /** 'warning' gets the warning background. */
  severity: 'none' | 'warning';
}

export interface UnhealthyNode {
  context: string;
  name: string;
  verdict: Verdict;
}

/** Names listed per line of the tooltip; the rest are counted. */
export const MAX_NAMED = 8;

function nameList(nodes: readonly UnhealthyNode[], withVerdict: boolean, t: Localize): string {
  const named = nodes.slice(0, MAX_NAMED).map((n) => (withVerdict ? t('{0} in {1} ({2})', n.name, n.context, verdictShortName(n.verdict, t)) : t('{0} in {1}', n.name, n.context)));
  if (nodes.length > MAX_NAMED) named.push(t('and {0} more', nodes.length - MAX_NAMED));
  return named.join(', ');
}

function statusText(unhealthy: number, pleg: number, t: Localize): string {
  if (pleg === unhealthy) return pleg === 1 ? t('$(pulse) 1 node NotReady (PLEG)') : t('$(pulse) {0} nodes NotReady (PLEG)', pleg);
  if (pleg === 0) return unhealthy === 1 ? t('$(pulse) 1 node NotReady, not PLEG') : t('$(pulse) {0} nodes NotReady, none PLEG', unhealthy);
  return t('$(pulse) {0} nodes NotReady, {1} PLEG', unhealthy, pleg);
}

/** The NotReady count (at-risk nodes are Ready: counted apart), then "n at risk". */
function unhealthyText(totals: ModelTotals, t: Localize): string {
  const notReady = totals.unhealthy - totals.atRisk;
  if (totals.atRisk === 0) return statusText(notReady, totals.pleg, t);
  if (notReady > 0) return t('{0}, {1} at risk', statusText(notReady, totals.pleg, t), totals.atRisk);
  return totals.atRisk === 1 ? t('$(pulse) 1 node at risk (PLEG)') : t('$(pulse) {0} nodes at risk (PLEG)', totals.atRisk);
}

export function summarizeStatus(totals: ModelTotals, t: Localize, unhealthyNodes: readonly UnhealthyNode[] = []): StatusSummary {
  if (totals.contexts === 0) return { visible: false, text: '', tooltip: '', severity: 'none' };

  const pleg = unhealthyNodes.filter((n) => n.verdict === 'pleg');
  const atRisk = unhealthyNodes.filter((n) => n.verdict === 'pleg-at-risk');
  const other = unhealthyNodes.filter((n) => n.verdict !== 'pleg' && n.verdict !== 'pleg-at-risk');
  const lines: string[] = [];
  if (pleg.length > 0) lines.push(t('PLEG not healthy: {0}', nameList(pleg, false, t)));
  if (atRisk.length > 0) lines.push(t('PLEG at risk (NotReady predicted): {0}', nameList(atRisk, false, t)));
  if (other.length > 0) lines.push(t('NotReady for other reasons: {0}', nameList(other, true, t)));
  lines.push(totals.contexts === 1 ? t('{0} nodes in 1 context', totals.total) : t('{0} nodes in {1} contexts', totals.total, totals.contexts));
  if (totals.connecting > 0) lines.push(t('Contexts connecting: {0}', totals.connecting));
  if (totals.failed > 0) lines.push(t('Contexts failing: {0} (see the Nodes view)', totals.failed));
  lines.push(t('Click to show the PLEG Doctor Nodes view'));
  const tooltip = lines.join('\n');

  if (totals.unhealthy > 0) return { visible: true, text: unhealthyText(totals, t), tooltip, severity: totals.pleg > 0 || totals.atRisk > 0 ? 'warning' : 'none' };
  if (totals.total === 0 && totals.connecting > 0) return { visible: true, text: t('$(loading~spin) PLEG'), tooltip, severity: 'none' };
  if (totals.total === 0 && totals.failed === totals.contexts) return { visible: true, text: t('$(error) PLEG Doctor: no cluster reachable'), tooltip, severity: 'none' };
  return { visible: true, text: totals.total === 1 ? t('$(pulse) 1 node, Ready') : t('$(pulse) All {0} nodes Ready', totals.total), tooltip, severity: 'none' };
}
