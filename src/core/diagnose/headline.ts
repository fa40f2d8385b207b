// The one sentence a notification shows: the verdict, then the most severe finding, preferring a cause
// over the PLEG symptom (the user already sees that the node is NotReady).

import type { Verdict } from '../classify/types';
import type { Finding } from './diagnosis';

const VERDICT_LABEL: Record<Verdict, string> = {
  ready: 'Ready',
  'pleg-at-risk': 'PLEG at risk',
  pleg: 'NotReady (PLEG)',
  'runtime-down': 'NotReady (container runtime)',
  startup: 'NotReady (kubelet starting)',
  network: 'NotReady (network)',
  'lease-lost': 'Unknown (kubelet not posting status)',
  'not-ready-other': 'NotReady',
};

/** Lower-cases the first letter unless the first word is an acronym or a path ("PLEG", "/metrics", "CNI"). */
function sentenceCase(title: string): string {
  const first = title.charAt(0);
  const second = title.charAt(1);
  if (first === '' || first.toLowerCase() === first || second.toUpperCase() === second) return title;
  return first.toLowerCase() + title.slice(1);
}

/**
 * The finding a headline names: the most severe one, a cause before the PLEG symptom of the same severity.
 * Findings must already be sorted, most severe first. The fleet report groups nodes by it, so a node's
 * group and its headline name one cause.
 */
export function headlineFinding(findings: readonly Finding[]): Finding | undefined {
  const top = findings[0];
  if (top === undefined) return undefined;
  return findings.find((f) => f.severity === top.severity && f.checkId !== 'pleg-health') ?? top;
}

/**
 * Findings must already be sorted, most severe first. `detail` follows the verdict's label in brackets: the
 * at-risk countdown ("PLEG at risk (NotReady in ~1m25s): …"), the words the tree's row shows.
 */
export function makeHeadline(verdict: Verdict, findings: readonly Finding[], detail?: string): string {
  const label = `${VERDICT_LABEL[verdict] ?? 'NotReady'}${detail !== undefined ? ` (${detail})` : ''}`;
  const cause = headlineFinding(findings);
  if (cause === undefined) return `${label}: no problem found`;
  return `${label}: ${sentenceCase(cause.title)}`;
}
