// The live PLEG timeline of one node, for the panel: a session that grows as the feed runs, delta
// listeners, and dispose. This half is small and lives in extension.js; the feed (ssh2, CRI, the
// kubelet poller) is loaded from dist/nodeAccess.js when the first source opens.

import * as vscode from 'vscode';
import { kubeletOnlySettings, newTimelineSession } from '../../core/timeline/newSession';
import { applySessionDelta, type SessionDelta, type SessionSettings, type TimelineSession } from '../../core/timeline/session';
import { problemsBlocking } from '../../infra/ssh/nodeAccessSettings';
import { readNodeAccessConfig, SECTION } from '../config/settings';
import { t } from '../l10n';
import { loadNodeAccessBundle } from '../bundles/loader';
import type { NodeAccessRuntime } from '../nodeAccess/nodeAccessRuntime';
import type { Services } from '../services';
import { errorText } from '../../core/util/errorText';

export const TIMELINE_SECTION = `${SECTION}.timeline`;
export const TimelineKeys = { periodMs: 'periodMs', thresholdMs: 'thresholdMs', runtimeRequestTimeoutMs: 'runtimeRequestTimeoutMs' } as const;

export interface LiveSource {
  /** Grows in place: every delta is already applied when the onDelta listeners run. */
  readonly session: TimelineSession;
  onDelta(listener: (delta: SessionDelta) => void): vscode.Disposable;
  /** Stops the feed (every call in flight is aborted); idempotent. */
  dispose(): void;
}

function positive(value: unknown, fallback: number, min: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= min ? value : fallback;
}

/** The plegDoctor.timeline.* settings; runtimeRequestTimeoutMs comes from the node's /configz unless set. */
export function readTimelineSettings(): { settings: SessionSettings; fromConfigz: boolean } {
  const config = vscode.workspace.getConfiguration(TIMELINE_SECTION);
  const timeout = config.inspect<number>(TimelineKeys.runtimeRequestTimeoutMs);
  const userSet = timeout?.globalValue !== undefined || timeout?.workspaceValue !== undefined || timeout?.workspaceFolderValue !== undefined;
  return {
    settings: {
      relistPeriodMs: positive(config.get<unknown>(TimelineKeys.periodMs), 1_000, 100),
      thresholdMs: positive(config.get<unknown>(TimelineKeys.thresholdMs), 180_000, 1_000),
      runtimeRequestTimeoutMs: positive(config.get<unknown>(TimelineKeys.runtimeRequestTimeoutMs), 120_000, 100),
      profile: '1.32+',
      evented: false,
    },
    fromConfigz: !userSet,
  };
}

export function openLiveSource(services: Services, nodeAccess: NodeAccessRuntime, context: string, node: string): LiveSource {
  const listeners = new Set<(delta: SessionDelta) => void>();
  const controller = new AbortController();
  const logger = services.logger;

  const access = readNodeAccessConfig();
  const configured = access.config.clusters.clusters[context] !== undefined;
  const blocking = problemsBlocking(access.problems, context, node);
  let noSshReason = '';
  if (!configured) noSshReason = t('No SSH access is configured for context {0}: the timeline shows the metrics of the kubelet and the Ready condition, not the model run on the runtime.', context);
  else if (blocking.length > 0) noSshReason = t('The node access settings have problems ({0}): no SSH, so the timeline shows the metrics of the kubelet and the Ready condition only.', blocking.map((p) => p.message).join('; '));
  const useSsh = configured && blocking.length === 0;
  const read = readTimelineSettings();
  const fromConfigz = read.fromConfigz;
  // The threshold setting is the model's (a lower one shows sooner what a frozen runtime does); without SSH
  // no model runs and the kubelet's own threshold holds (kubeletOnlySettings, as the live feed and the CLI).
  const settings: SessionSettings = useSsh ? read.settings : kubeletOnlySettings(read.settings);
  const session = newTimelineSession({ node, context, source: 'live', startedAt: new Date(), settings });

  const onDelta = (delta: SessionDelta): void => {
    if (controller.signal.aborted) return;
    applySessionDelta(session, delta);
    for (const listener of listeners) listener(delta);
  };

  void (async () => {
    const [bundle, loaded] = await Promise.all([loadNodeAccessBundle(), useSsh ? nodeAccess.load() : Promise.resolve(undefined)]);
    if (controller.signal.aborted) return;
    logger.info(`timeline of ${node} (context ${context}): live feed started (period ${settings.relistPeriodMs} ms, threshold ${settings.thresholdMs} ms, SSH ${useSsh ? 'on' : 'off'})`);
    await bundle.startLiveFeed(loaded?.pools, {
      context,
      node,
      settings,
      settingsFromConfigz: fromConfigz,
      gateway: services.session.kube,
      access: useSsh ? access.config : undefined,
      noSshReason,
      logger,
      signal: controller.signal,
      onDelta,
    });
  })().catch((error: unknown) => {
    if (controller.signal.aborted) return;
    const message = errorText(error);
    logger.error(`timeline of ${node}: the live feed stopped: ${message}`);
    onDelta({ durationMs: session.durationMs, lacks: [...session.lacks, t('The live feed stopped: {0}', message)] });
  });

  return {
    session,
    onDelta(listener) {
      listeners.add(listener);
      return new vscode.Disposable(() => listeners.delete(listener));
    },
    dispose() {
      if (controller.signal.aborted) return;
      controller.abort(new Error('timeline closed'));
      listeners.clear();
      logger.info(`timeline of ${node}: live feed stopped`);
    },
  };
}
