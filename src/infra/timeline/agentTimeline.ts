// The live timeline through a node's agent, as the editor's panel shows it: the agent's own session
// (followAgentSession: its relists, Healthy(), stalls, metrics, predictions) with the Node's facts (Ready,
// PLEGAtRisk, the kubelet's status posts) from the editor's own watch of the Node (nodeStatusWatch.ts, the
// watch the SSH feed uses), which goes on while a hung runtime keeps the agent's port-forward from
// opening. Which source holds which fact, and what the editor may say of the runtime while the agent is
// silent: core/timeline/agentSilence.ts. While silent, the session's end follows the editor's clock, so
// the panel's age line and time axis grow instead of freezing at the agent's last answer.

import { newEditorNodeFacts, recordNodeFacts, stallOfSilence, withNodeFacts, withoutNodeFacts, type AgentSilence } from '../../core/timeline/agentSilence';
import type { RuntimeStall, SessionDelta, TimelineSession } from '../../core/timeline/session';
import type { Logger } from '../../core/util/logger';
import type { KubeGateway } from '../kube/gateway';
import type { AgentConnection } from '../nodeAccess/agent/agentConnection';
import { followAgentSession, type FollowAgentOptions } from '../nodeAccess/agent/followAgentSession';
import { NodeStatusChanges, watchNodeStatus } from './nodeStatusWatch';

/** How often the session's end moves while the agent is silent (the panel's sentence states whole seconds). */
export const SILENT_TICK_MS = 1_000;

export interface AgentTimelineOptions {
  /** The editor's cluster connection: the Node is watched through it. */
  gateway: KubeGateway;
  context: string;
  node: string;
  signal: AbortSignal;
  logger: Logger;
  /** The whole session: at the start, and again after the agent's 410. */
  onSession(session: TimelineSession): void;
  onDelta(delta: SessionDelta): void;
  /** After every poll of the agent: undefined when it answered, else why not. */
  onPoll?(problem: string | undefined): void;
  /** For tests: the agent's follower, the clock (epoch ms) and the silent tick. */
  follow?: typeof followAgentSession;
  now?: () => number;
  tickMs?: number;
}

/** Resolves when `signal` aborts; rejects as followAgentSession does (its first read failing, a refused grant). */
export async function followAgentTimeline(connection: AgentConnection, options: AgentTimelineOptions): Promise<void> {
  const { signal, logger } = options;
  const now = options.now ?? Date.now;
  const follow = options.follow ?? followAgentSession;
  let zero: number | undefined;
  /** The agent's own lacks: the editor's watch trouble is said beside them, not in their place. */
  let agentLacks: string[] = [];
  let watchTrouble: string | undefined;
  let lastStall: RuntimeStall | undefined;
  let lastAnswerAt = 0;
  let silence: AgentSilence | undefined;
  /** The stall the editor opened (the kubelet said the runtime is down while the agent was silent). */
  let ownStall: RuntimeStall | undefined;
  let ticker: ReturnType<typeof setInterval> | undefined;
  let watching: Promise<void> | undefined;
  const facts = newEditorNodeFacts(now());
  const changes = new NodeStatusChanges();
  const clock = (): number => now() - (zero ?? now());
  // The watch ends with the follow, also when the follow fails on its own (a refused grant).
  const watchEnd = new AbortController();
  const watchSignal = AbortSignal.any([signal, watchEnd.signal]);

  const emit = (delta: SessionDelta): void => {
    if (signal.aborted || zero === undefined) return;
    if (delta.stalls !== undefined) lastStall = delta.stalls.at(-1);
    options.onDelta(delta);
  };
  /** While silent: a stall once the kubelet states the runtime is down (never on the silence alone). */
  const judgeSilence = (): void => {
    if (silence === undefined || ownStall !== undefined || zero === undefined) return;
    const z = zero;
    const ready = facts.ready.map((r) => ({ ...r, atMs: r.atMs - z }));
    const stall = stallOfSilence({ ready, ...(lastStall !== undefined ? { stalls: [lastStall] } : {}) }, silence);
    if (stall === undefined) return;
    ownStall = stall;
    logger.info(`timeline of ${options.node}: the kubelet posted "container runtime is down" while ${connection.label} was silent: a ${stall.kind} of the runtime from ${stall.sinceMs} ms`);
    emit({ durationMs: clock(), stalls: [stall] });
  };
  const startWatch = (): void => {
    if (watching !== undefined) return;
    facts.fromEpochMs = now();
    watching = watchNodeStatus({
      gateway: options.gateway,
      context: options.context,
      node: options.node,
      changes,
      clock,
      zeroEpochMs: () => zero ?? now(),
      signal: watchSignal,
      logger,
      onDelta: (delta, trouble) => {
        recordNodeFacts(facts, delta, zero ?? now());
        if (trouble !== watchTrouble) {
          watchTrouble = trouble;
          delta.lacks = [...agentLacks, ...(trouble !== undefined ? [trouble] : [])];
        }
        // The versions are the agent's (read on the node); the watch gives the Node's posts only.
        const { kubeletVersion: _v, containerRuntimeVersion: _r, ...posts } = delta;
        emit(posts);
        judgeSilence();
      },
    });
  };

  const followOptions: FollowAgentOptions = {
    signal,
    logger,
    onSession: (session) => {
      zero = Date.parse(session.startedAt);
      agentLacks = [...session.lacks];
      lastStall = session.stalls?.at(-1);
      lastAnswerAt = now();
      startWatch();
      const merged = withNodeFacts(session, facts);
      options.onSession(watchTrouble === undefined ? merged : { ...merged, lacks: [...agentLacks, watchTrouble] });
    },
    onDelta: (delta) => {
      if (delta.lacks !== undefined) {
        agentLacks = [...delta.lacks];
        if (watchTrouble !== undefined) delta = { ...delta, lacks: [...agentLacks, watchTrouble] };
      }
      emit(withoutNodeFacts(delta));
    },
    onPoll: (problem, poll) => {
      if (problem === undefined) {
        lastAnswerAt = poll.endedAt;
        if (silence !== undefined) endSilence(poll.endedAt);
      } else if (silence === undefined && zero !== undefined) {
        silence = { lastAnswerMs: lastAnswerAt - zero, failedPollStartMs: poll.startedAt - zero, failedPollWaitedMs: poll.endedAt - poll.startedAt };
        ticker = setInterval(() => emit({ durationMs: clock() }), options.tickMs ?? SILENT_TICK_MS);
        judgeSilence();
      }
      options.onPoll?.(problem);
    },
  };
  /** The agent answers again: its own record takes over; the editor's stall ends by this answer at the latest. */
  const endSilence = (answeredAt: number): void => {
    clearInterval(ticker);
    ticker = undefined;
    silence = undefined;
    if (ownStall !== undefined && zero !== undefined) emit({ durationMs: clock(), stalls: [{ ...ownStall, untilMs: answeredAt - zero }] });
    ownStall = undefined;
  };
  try {
    await follow(connection, followOptions);
  } finally {
    clearInterval(ticker);
    watchEnd.abort(new Error('the agent\u2019s session is no longer followed'));
    await watching;
  }
}
