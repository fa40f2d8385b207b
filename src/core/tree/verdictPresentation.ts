// How each verdict looks: sort rank, short and long names, codicon and theme colour ids. Plain strings so
// that this stays vscode-free; the host turns them into ThemeIcon/ThemeColor.

import type { Verdict } from '../classify/types';
import { isFlapping, type FlapSummary } from './flapHistory';
import type { Localize } from './localize';

/**
 * Lower sorts first: what the user came for (PLEG) on top, then the node PLEG is about to take down (at
 * risk, still Ready), then the other NotReady verdicts; healthy nodes last.
 */
const RANK: Readonly<Record<Verdict, number>> = {
  pleg: 0,
  'pleg-at-risk': 1,
  'runtime-down': 2,
  'lease-lost': 3,
  startup: 4,
  network: 5,
  'not-ready-other': 6,
  ready: 7,
};

export function verdictRank(verdict: Verdict): number {
  return RANK[verdict];
}

/** Worth the user's eye: NotReady, or at risk of it (the "show only unhealthy" filter, the row order). */
export function isUnhealthy(verdict: Verdict): boolean {
  return verdict !== 'ready';
}

/** NotReady (or no Ready condition): unhealthy and not merely at risk. What the status bar counts as NotReady. */
export function isNotReady(verdict: Verdict): boolean {
  return isUnhealthy(verdict) && verdict !== 'pleg-at-risk';
}

/** The rank a node sorts by: a flapping node (Ready for a moment between NotReady spells) ranks as NotReady. */
export function attentionRank(verdict: Verdict, flaps: FlapSummary | undefined): number {
  return isFlapping(flaps) ? Math.min(RANK[verdict], RANK['not-ready-other']) : RANK[verdict];
}

/** Worth a look: NotReady now, or NotReady more than once in the flap window (Ready only for a moment). */
export function needsAttention(verdict: Verdict, flaps: FlapSummary | undefined): boolean {
  return isUnhealthy(verdict) || isFlapping(flaps);
}

/** The first word of a node's description; stable text the e2e suite matches on. */
export function verdictShortName(verdict: Verdict, t: Localize): string {
  switch (verdict) {
    case 'ready':
      return t('Ready');
    case 'pleg-at-risk':
      return t('PLEG at risk');
    case 'pleg':
      return t('PLEG');
    case 'runtime-down':
      return t('Runtime down');
    case 'startup':
      return t('Starting');
    case 'network':
      return t('Network');
    case 'lease-lost':
      return t('No heartbeat');
    case 'not-ready-other':
      return t('NotReady');
  }
}

/** A sentence-like heading for tooltips. */
export function verdictTitle(verdict: Verdict, t: Localize): string {
  switch (verdict) {
    case 'ready':
      return t('Ready');
    case 'pleg-at-risk':
      return t('PLEG at risk: NotReady predicted');
    case 'pleg':
      return t('PLEG is not healthy');
    case 'runtime-down':
      return t('Container runtime is down');
    case 'startup':
      return t('Kubelet is still starting');
    case 'network':
      return t('Network is not ready');
    case 'lease-lost':
      // The same term as the row ("No heartbeat"), so tree and tooltip name one thing.
      return t('No heartbeat from the kubelet');
    case 'not-ready-other':
      return t('Not ready for another reason');
  }
}

export interface IconSpec {
  /** A codicon id, e.g. "pulse" or "loading~spin". */
  id: string;
  /** A theme colour id (never a literal colour). */
  color?: string;
}

/** A Ready node that flaps (NotReady twice or more in the flap window) is no green check: it shows a restart loop. */
export function verdictIcon(verdict: Verdict, flaps?: FlapSummary): IconSpec {
  switch (verdict) {
    case 'ready':
      return isFlapping(flaps) ? { id: 'debug-restart', color: 'charts.orange' } : { id: 'pass', color: 'charts.green' };
    case 'pleg-at-risk':
      return { id: 'watch', color: 'charts.orange' };
    case 'pleg':
      return { id: 'pulse', color: 'charts.red' };
    case 'runtime-down':
      return { id: 'error', color: 'charts.red' };
    case 'lease-lost':
      return { id: 'debug-disconnect', color: 'charts.red' };
    case 'startup':
      return { id: 'sync', color: 'charts.yellow' };
    case 'network':
      return { id: 'globe', color: 'charts.yellow' };
    case 'not-ready-other':
      return { id: 'warning', color: 'charts.orange' };
  }
}

/** contextValue token per verdict (camelCase so that `viewItem =~ /\bruntimeDown\b/` works). */
export function verdictToken(verdict: Verdict): string {
  switch (verdict) {
    case 'ready':
      return 'healthy';
    case 'pleg-at-risk':
      return 'plegAtRisk';
    case 'pleg':
      return 'pleg';
    case 'runtime-down':
      return 'runtimeDown';
    case 'startup':
      return 'startup';
    case 'network':
      return 'network';
    case 'lease-lost':
      return 'leaseLost';
    case 'not-ready-other':
      return 'notReadyOther';
  }
}
