// The live PLEG timeline of one node, for the panel: a session that grows as the feed runs, delta and
// replace listeners, and dispose. The way to the node's side is chosen first (liveSourceWay.ts):
// - the agent pod: the agent's own session (its model on the node's runtime, its settings), followed with
//   followAgentTimeline from dist/kube.js; nothing is modelled here. A 410 reread replaces the session.
//   The Node's Ready, PLEGAtRisk and status posts come from the editor's own watch of the Node, which a
//   hung runtime does not silence (infra/timeline/agentTimeline.ts).
// - SSH: the model runs here on the node's CRI over SSH, with the kubelet poller (dist/nodeAccess.js).
// - neither: the kubelet's metrics and the Ready condition only, saying why.
// This half is small and lives in extension.js; the feeds are loaded from their bundles on first use.

import * as vscode from 'vscode';
import { kubeletOnlySettings, newTimelineSession } from '../../core/timeline/newSession';
import { applySessionDelta, type SessionDelta, type SessionSettings, type TimelineSession } from '../../core/timeline/session';
import { SECTION } from '../config/settings';
import { t } from '../l10n';
import { loadNodeAccessBundle } from '../bundles/loader';
import { loadKubeBundle } from '../bundles/kubeLoader';
import type { AgentConnection } from '../../infra/nodeAccess/agent/agentConnection';
import type { Logger } from '../../core/util/logger';
import { chooseTimelineWay } from './liveSourceWay';
import type { NodeAccessRuntime } from '../nodeAccess/nodeAccessRuntime';
import type { Services } from '../services';
import { errorText } from '../../core/util/errorText';
import { wayLabel } from '../../core/nodeAccess/accessWay';
import { utcClock } from '../../core/timeline/utcClock';
import type { KubeGateway } from '../../infra/kube/gateway';

export const TIMELINE_SECTION = `${SECTION}.timeline`;
export const TimelineKeys = { periodMs: 'periodMs', thresholdMs: 'thresholdMs', runtimeRequestTimeoutMs: 'runtimeRequestTimeoutMs' } as const;

export interface LiveSource {
  /** Grows in place: every delta is already applied when the onDelta listeners run; replaced on a reread. */
  readonly session: TimelineSession;
  /** The way, for the panel's mode line: "via agent pod NS/NAME", "via SSH HOST", or why neither. */
  readonly label: string;
  /**
   * The Ready condition comes from the editor's own watch of the Node, which goes on when the source is
   * silent: the headline stays "now" rather than "as of its last answer".
   */
  readonly readyWatchedHere: boolean;
  onDelta(listener: (delta: SessionDelta) => void): vscode.Disposable;
  /** The whole session was read again (the agent's 410): `session` is already the new one. */
  onReplace(listener: (session: TimelineSession) => void): vscode.Disposable;
  /** The feed's trouble while it lasts (the agent not answering), undefined once it answers again. */
  onStatus(listener: (problem: string | undefined) => void): vscode.Disposable;
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

/** The session the panel shows and its listeners; every feed below writes through it. */
class LiveSession {
  private readonly deltaListeners = new Set<(delta: SessionDelta) => void>();
  private readonly replaceListeners = new Set<(session: TimelineSession) => void>();
  private readonly statusListeners = new Set<(problem: string | undefined) => void>();
  private problem: string | undefined;

  constructor(
    public session: TimelineSession,
    readonly controller = new AbortController(),
  ) {}

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  applyDelta(delta: SessionDelta): void {
    if (this.signal.aborted) return;
    applySessionDelta(this.session, delta);
    for (const listener of this.deltaListeners) listener(delta);
  }

  replace(session: TimelineSession): void {
    if (this.signal.aborted) return;
    this.session = session;
    for (const listener of this.replaceListeners) listener(session);
  }

  /** Said once when trouble starts or its words change, and once when it is over. */
  status(problem: string | undefined): void {
    if (this.signal.aborted || problem === this.problem) return;
    this.problem = problem;
    for (const listener of this.statusListeners) listener(problem);
  }

  /** A feed that stopped on its own: said in the session's lacks, so the panel shows it. */
  failed(node: string, logger: Logger, error: unknown): void {
    if (this.signal.aborted) return;
    const message = errorText(error);
    logger.error(`timeline of ${node}: the live feed stopped: ${message}`);
    this.applyDelta({ durationMs: this.session.durationMs, lacks: [...this.session.lacks, t('The live feed stopped: {0}', message)] });
  }

  source(label: string, node: string, logger: Logger, readyWatchedHere = false): LiveSource {
    const listen = <T>(set: Set<T>, listener: T): vscode.Disposable => {
      set.add(listener);
      return new vscode.Disposable(() => set.delete(listener));
    };
    const current = (): TimelineSession => this.session;
    return {
      get session() {
        return current();
      },
      label,
      readyWatchedHere,
      onDelta: (listener) => listen(this.deltaListeners, listener),
      onReplace: (listener) => listen(this.replaceListeners, listener),
      onStatus: (listener) => listen(this.statusListeners, listener),
      dispose: () => {
        if (this.signal.aborted) return;
        this.controller.abort(new Error('timeline closed'));
        this.deltaListeners.clear();
        this.replaceListeners.clear();
        this.statusListeners.clear();
        logger.info(`timeline of ${node}: live feed stopped`);
      },
    };
  }
}

/**
 * The agent's session, as the agent holds it (its settings, its model), named by its way. Resolves once
 * the first /v1/session answered; rejects when it fails (the panel says why). Polls until the source is
 * disposed; before the first answer, closing the panel (`opening`) stops it.
 */
async function followAgent(gateway: KubeGateway, connection: AgentConnection, context: string, node: string, logger: Logger, opening: AbortSignal): Promise<LiveSource> {
  const kube = await loadKubeBundle();
  const controller = new AbortController();
  const stopOpening = (): void => controller.abort(opening.reason);
  if (opening.aborted) stopOpening();
  opening.addEventListener('abort', stopOpening, { once: true });
  const named = (s: TimelineSession): TimelineSession => ({ ...s, context, via: connection.label });
  let live: LiveSession | undefined;
  try {
    live = await new Promise<LiveSession>((resolve, reject) => {
      let holder: LiveSession | undefined;
      let silentSince: Date | undefined;
      kube
        .followAgentTimeline(connection, {
          gateway,
          context,
          node,
          signal: controller.signal,
          logger,
          onSession: (s) => {
            if (holder !== undefined) return holder.replace(named(s));
            holder = new LiveSession(named(s), controller);
            resolve(holder);
          },
          onDelta: (d) => holder?.applyDelta(d),
          // The panel keeps judging the session it has (a hung runtime also stops the kubelet's port-forward,
          // which goes through the runtime's CRI PortForward); it says since when the agent is silent.
          onPoll: (problem) => {
            if (problem === undefined) {
              silentSince = undefined;
              return holder?.status(undefined);
            }
            silentSince ??= new Date();
            holder?.status(t('No answer from {0} since {1} ({2}); retrying', `agent pod ${connection.pod.namespace}/${connection.pod.name}`, utcClock(silentSince.getTime(), Date.now()), problem));
          },
        })
        .then(() => {
          if (holder === undefined) reject(new Error('the timeline was closed before the agent answered'));
        })
        .catch((err: unknown) => {
          if (holder === undefined) reject(err);
          else holder.failed(node, logger, err);
        });
    });
  } finally {
    opening.removeEventListener('abort', stopOpening);
  }
  logger.info(`timeline of ${node} (context ${context}): following the session of ${connection.label}`);
  return live.source(connection.label, node, logger, true);
}

/**
 * The node's live timeline by the way chooseTimelineWay picks. Rejects when the agent's first answer fails
 * or `opening` aborts (the panel closed first); an SSH or metrics-only feed that fails later says so in
 * the session's lacks.
 */
export async function openLiveSource(services: Services, nodeAccess: NodeAccessRuntime, context: string, node: string, opening: AbortSignal): Promise<LiveSource> {
  const logger = services.logger;
  const gateway = services.session.kube;
  const { access, ssh } = await chooseTimelineWay(gateway, context, node, opening, logger);
  if (access.way === 'agent' && gateway !== undefined) return followAgent(gateway, access.connection, context, node, logger, opening);

  const useSsh = access.way === 'ssh' && ssh !== undefined;
  const noNodeAccess = useSsh ? '' : t('No node access ({0}): the timeline shows the metrics of the kubelet and the Ready condition, not the model run on the runtime.', access.why);
  const read = readTimelineSettings();
  // The threshold setting is the model's (a lower one shows sooner what a frozen runtime does); without node
  // access no model runs and the kubelet's own threshold holds (kubeletOnlySettings, as the live feed and the CLI).
  const settings: SessionSettings = useSsh ? read.settings : kubeletOnlySettings(read.settings);
  const live = new LiveSession(newTimelineSession({ node, context, source: 'live', startedAt: new Date(), settings }));
  const [bundle, loaded] = await Promise.all([loadNodeAccessBundle(), useSsh ? nodeAccess.load() : Promise.resolve(undefined)]);
  let label = t('through the API server only: the kubelet\'s metrics and the Ready condition ({0})', access.why);
  if (useSsh && loaded !== undefined) {
    const target = await bundle.sshTargetOf(loaded.pools, { gateway, context, node, access: ssh, signal: opening }).catch((err: unknown) => {
      // The feed resolves it again and says why in its lacks; the label names the node instead.
      if (opening.aborted) throw err;
      logger.warn(`timeline of ${node}: the SSH target is not known yet: ${errorText(err)}`);
      return node;
    });
    label = wayLabel('ssh', target);
  }
  if (opening.aborted) throw opening.reason;
  logger.info(`timeline of ${node} (context ${context}): live feed started (period ${settings.relistPeriodMs} ms, threshold ${settings.thresholdMs} ms, ${useSsh ? label : 'no node access'})`);
  bundle
    .startLiveFeed(loaded?.pools, {
      context,
      node,
      settings,
      settingsFromConfigz: read.fromConfigz,
      gateway,
      access: useSsh ? ssh : undefined,
      noSshReason: noNodeAccess,
      logger,
      signal: live.signal,
      onDelta: (delta) => live.applyDelta(delta),
    })
    .catch((error: unknown) => live.failed(node, logger, error));
  return live.source(label, node, logger);
}
