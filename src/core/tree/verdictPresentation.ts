// How each verdict looks: sort rank, short and long names, codicon and theme colour ids. Plain strings so
// that this stays vscode-free; the host turns them into ThemeIcon/ThemeColor.

import type { Verdict } from '../classify/types';
import { isFlapping, type FlapSummary } from './flapHistory';
import type { Localize } from './localize';

/** Lower sorts first: what the user came for (PLEG) on top, healthy nodes last. */
const RANK: Readonly<Record<Verdict, number>> = {
  pleg: 0,
  'runtime-down': 1,
  'lease-lost': 2,
  startup: 3,
  network: 4,
  'not-ready-other': 5,
  ready: 6,
};

export function verdictRank(verdict: Verdict): number {
  return RANK[verdict];
}

export function isUnhealthy(verdict: Verdict): boolean {
  return verdict !== 'ready';
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
