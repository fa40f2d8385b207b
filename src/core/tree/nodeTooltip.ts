// The Markdown of a node's hover: verdict, the kubelet's message verbatim, PLEG timing, pods n/max,
// versions, taints and any warnings about the input. Everything from the cluster is escaped.

import type { NodeClassification } from '../classify/types';
import { formatGoDuration, roundGoDurations } from '../util/goDuration';
import type { FlapSummary } from './flapHistory';
import { secondsSince } from './humanAge';
import type { Localize } from './localize';
import type { ClockOptions } from './timeText';
import { formatWhen } from './timeText';
import { codeBlock, escapeMarkdown, inlineCode } from './markdown';
import { verdictTitle } from './verdictPresentation';
import { atRiskTooltip } from './atRiskText';

/** The pod count is fetched on hover (countPods) and cached; the tooltip renders each stage. */
export type PodCount =
  | { kind: 'unknown' }
  | { kind: 'loading' }
  | { kind: 'count'; count: number }
  | { kind: 'error'; message: string };

/** Our own words cut to tenths, as the tree's rows are (roundGoDurations); the kubelet's message below is quoted whole. */
function secondsToGo(seconds: number): string {
  return roundGoDurations(formatGoDuration(BigInt(Math.round(seconds * 1e9))));
}

/**
 * The pods the API server binds to the node (spec.nodeName; pending and finished ones included), labelled
 * so: Diagnose Node's report counts the kubelet's running pods (kubelet_running_pods), another fact, and
 * names this one as the tooltip's (core/diagnose/checks/density.ts).
 */
export function podsLine(pods: PodCount, capacity: number | undefined, t: Localize): string {
  const max = capacity === undefined ? '?' : String(capacity);
  switch (pods.kind) {
    case 'unknown':
      return t('Pods bound to the node (API server): ? / {0} (hover again to count)', max);
    case 'loading':
      return t('Pods bound to the node (API server): counting… / {0}', max);
    case 'count':
      return t('Pods bound to the node (API server): {0} / {1}', pods.count, max);
    case 'error':
      return t('Pods bound to the node (API server): ? / {0} (could not count: {1})', max, escapeMarkdown(pods.message));
  }
}

export interface TooltipExtras {
  /** NotReady transitions from the node's events, when they were loaded. */
  flaps?: FlapSummary | undefined;
  clock?: ClockOptions | undefined;
}

export function nodeTooltipMarkdown(c: NodeClassification, context: string, pods: PodCount, now: Date, t: Localize, extras: TooltipExtras = {}): string {
  const blocks: string[] = [];
  blocks.push(`**${escapeMarkdown(c.name)}** — ${escapeMarkdown(verdictTitle(c.verdict, t))}`);

  const since = secondsSince(c.since, now);
  const when = since === undefined ? undefined : formatWhen(c.since, now, t, extras.clock);
  const readyLine =
    c.readyStatus === 'missing'
      ? t('The node has no Ready condition.')
      : when === undefined
        ? t('Ready={0} ({1})', c.readyStatus, escapeMarkdown(c.readyReason ?? t('no reason')))
        : t('Ready={0} ({1}) since {2}', c.readyStatus, escapeMarkdown(c.readyReason ?? t('no reason')), escapeMarkdown(when));
  blocks.push(readyLine);
  if (extras.flaps !== undefined && extras.flaps.count > 0) {
    const minutes = Math.round(extras.flaps.windowS / 60);
    blocks.push(
      extras.flaps.atLeast
        ? t('Went NotReady at least {0} times in the last {1} min (NodeNotReady events).', extras.flaps.count, minutes)
        : extras.flaps.count === 1
          ? t('Went NotReady once in the last {0} min (a NodeNotReady event).', minutes)
          : t('Went NotReady {0} times in the last {1} min (NodeNotReady events).', extras.flaps.count, minutes),
    );
  }

  if (c.message !== '') blocks.push(codeBlock(c.message));
  // node-problem-detector's PLEGAtRisk: the verdict when Ready=True, kept in view next to the kubelet's words otherwise.
  if (c.atRisk !== undefined && (c.atRisk.status !== 'False' || c.verdict === 'pleg-at-risk')) blocks.push(atRiskTooltip(c.atRisk, now, t, extras.clock));

  if (c.plegLastSeenAgoSeconds === null) {
    blocks.push(t('PLEG has never completed a relist since the kubelet started.'));
  } else if (c.plegLastSeenAgoSeconds !== undefined) {
    const threshold = c.plegThresholdSeconds === undefined ? '3m0s' : secondsToGo(c.plegThresholdSeconds);
    blocks.push(t('PLEG last relisted {0} ago; the kubelet reports NotReady above {1}.', secondsToGo(c.plegLastSeenAgoSeconds), threshold));
  }

  blocks.push(podsLine(pods, c.pods.capacity, t));

  const versions: string[] = [];
  if (c.versions.kubelet !== undefined) versions.push(t('kubelet {0}', escapeMarkdown(c.versions.kubelet)));
  if (c.versions.runtime !== undefined) versions.push(t('runtime {0}', escapeMarkdown(c.versions.runtime)));
  if (c.versions.kernel !== undefined) versions.push(t('kernel {0}', escapeMarkdown(c.versions.kernel)));
  if (c.versions.osImage !== undefined) versions.push(escapeMarkdown(c.versions.osImage));
  if (versions.length > 0) blocks.push(versions.join(' · '));

  const flags: string[] = [];
  if (c.cordoned) flags.push(t('Cordoned (unschedulable)'));
  if (c.pressures.length > 0) flags.push(t('Pressure: {0}', c.pressures.join(', ')));
  if (flags.length > 0) blocks.push(flags.join(' · '));
  if (c.taints.length > 0) blocks.push(t('Taints: {0}', c.taints.map(inlineCode).join(', ')));

  if (c.warnings.length > 0) blocks.push(t('Warnings: {0}', c.warnings.map(escapeMarkdown).join('; ')));
  blocks.push(t('Context: {0}', escapeMarkdown(context)));
  return blocks.join('\n\n');
}
