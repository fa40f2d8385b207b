// contextValue strings for `when` clauses in menus: `;`-separated tokens, matched with
// `viewItem =~ /\bpleg\b/`. Later features (timeline, SSH) add menus against these tokens, so they are a
// contract: add tokens, never rename them.

import type { NodeClassification } from '../classify/types';
import type { SourceState } from './nodeSource';
import { isUnhealthy, verdictToken } from './verdictPresentation';

export function nodeContextValue(c: NodeClassification): string {
  const tokens = ['node', verdictToken(c.verdict)];
  switch (c.readyStatus) {
    case 'True':
      tokens.push('ready');
      break;
    case 'False':
      tokens.push('notReady');
      break;
    case 'Unknown':
      tokens.push('readyUnknown');
      break;
    case 'missing':
      tokens.push('readyMissing');
      break;
  }
  if (isUnhealthy(c.verdict)) tokens.push('unhealthy');
  if (c.cordoned) tokens.push('cordoned');
  for (const p of c.pressures) tokens.push(p.charAt(0).toLowerCase() + p.slice(1));
  return tokens.join(';');
}

export function contextContextValue(state: SourceState, isCurrent: boolean): string {
  const tokens = ['context', state.kind];
  if (isCurrent) tokens.push('current');
  return tokens.join(';');
}

export function clusterErrorContextValue(errorKind: string): string {
  return ['clusterError', errorKind].join(';');
}
