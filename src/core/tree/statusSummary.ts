// The status bar item's text, tooltip and severity from the model totals. Decision: the item is hidden
// only when there is no context at all (nothing to watch); otherwise it always shows, "PLEG: ok" when
// no node has PLEG trouble, so the user can tell "healthy" from "not running".

import type { Localize } from './localize';
import type { ModelTotals } from './nodeTreeModel';

export interface StatusSummary {
  visible: boolean;
  text: string;
  tooltip: string;
  /** 'warning' gets the warning background. */
  severity: 'none' | 'warning';
}

export function summarizeStatus(totals: ModelTotals, t: Localize): StatusSummary {
  if (totals.contexts === 0) return { visible: false, text: '', tooltip: '', severity: 'none' };

  const lines: string[] = [];
  lines.push(t('Nodes: {0} · Contexts: {1}', totals.total, totals.contexts));
  if (totals.pleg > 0) lines.push(totals.pleg === 1 ? t('1 node has PLEG not healthy') : t('{0} nodes have PLEG not healthy', totals.pleg));
  const otherUnhealthy = totals.unhealthy - totals.pleg;
  if (otherUnhealthy > 0) lines.push(otherUnhealthy === 1 ? t('1 other node is not ready') : t('{0} other nodes are not ready', otherUnhealthy));
  if (totals.connecting > 0) lines.push(t('Contexts connecting: {0}', totals.connecting));
  if (totals.failed > 0) lines.push(t('Contexts failing: {0} (see the Nodes view)', totals.failed));
  lines.push(t('Click to show the PLEG Doctor Nodes view'));
  const tooltip = lines.join('\n');

  if (totals.pleg > 0) {
    const text = totals.pleg === 1 ? t('$(pulse) PLEG: 1 node') : t('$(pulse) PLEG: {0} nodes', totals.pleg);
    return { visible: true, text, tooltip, severity: 'warning' };
  }
  if (totals.total === 0 && totals.connecting > 0) return { visible: true, text: t('$(loading~spin) PLEG'), tooltip, severity: 'none' };
  if (totals.total === 0 && totals.failed === totals.contexts) return { visible: true, text: t('$(error) PLEG: no cluster'), tooltip, severity: 'none' };
  if (otherUnhealthy > 0) return { visible: true, text: t('$(pulse) PLEG: ok · {0} NotReady', otherUnhealthy), tooltip, severity: 'none' };
  return { visible: true, text: t('$(pulse) PLEG: ok'), tooltip, severity: 'none' };
}
