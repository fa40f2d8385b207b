// The agent's live session on the client, without running the model here: `/v1/session` once, then
// `/v1/session?since=CURSOR` every poll, each answer's deltas applied in order (they give the session the
// agent holds, docs/agent.md); a 410 (the cursor fell out of the agent's window, or the agent restarted)
// reads the whole session again. A failed poll is retried at the next one; a refused grant is not.

import type { SessionDelta, TimelineSession } from '../../../core/timeline/session';
import type { Logger } from '../../../core/util/logger';
import { errorText } from '../../../core/util/errorText';
import { sleepUnlessAborted } from '../../sleepUnlessAborted';
import { AgentAccessError, type AgentConnection } from './agentConnection';

/** Each poll is one port-forward stream; deltas accumulate on the agent in between, so nothing is lost. */
export const AGENT_POLL_MS = 2_000;

export interface FollowAgentOptions {
  pollMs?: number;
  signal: AbortSignal;
  logger: Logger;
  /** The whole session: at the start, and again after a 410. */
  onSession(session: TimelineSession): void;
  onDelta(delta: SessionDelta): void;
  /**
   * After every poll: undefined when it answered, else why not (the poll is retried at the next one); `poll`
   * says when it started and ended (epoch ms): a poll that waited long before failing is not one refused at once.
   */
  onPoll?(problem: string | undefined, poll: PollTimes): void;
}

export interface PollTimes {
  startedAt: number;
  endedAt: number;
}

/** Resolves when `signal` aborts; rejects when the first read fails or a grant is refused. */
export async function followAgentSession(connection: AgentConnection, options: FollowAgentOptions): Promise<void> {
  const { signal, logger } = options;
  const first = await connection.readSession(signal);
  options.onSession(first.session);
  let cursor = first.cursor;
  while (!signal.aborted) {
    await sleepUnlessAborted(options.pollMs ?? AGENT_POLL_MS, signal);
    if (signal.aborted) return;
    const startedAt = Date.now();
    const times = (): PollTimes => ({ startedAt, endedAt: Date.now() });
    try {
      const step = await connection.readSince(cursor, signal);
      if (step.kind === 'deltas') {
        for (const delta of step.deltas) options.onDelta(delta);
        cursor = step.cursor;
        options.onPoll?.(undefined, times());
      } else if (step.kind === 'reread') {
        logger.info(`${connection.label}: ${step.reason}; reading the whole session again`);
        const again = await connection.readSession(signal);
        options.onSession(again.session);
        cursor = again.cursor;
        options.onPoll?.(undefined, times());
      } else {
        logger.warn(`${connection.label}: ${step.message}; retrying at the next poll`);
        options.onPoll?.(step.message, times());
      }
    } catch (err) {
      if (signal.aborted) return;
      if (err instanceof AgentAccessError && err.grant !== undefined) throw err;
      logger.warn(`${connection.label}: ${errorText(err)}; retrying at the next poll`);
      options.onPoll?.(errorText(err), times());
    }
  }
}
