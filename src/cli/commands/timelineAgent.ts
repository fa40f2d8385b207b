// `pleg-doctor timeline` through the node's agent: the session the agent already computes on the node
// (its model on the node's runtime, the kubelet's /metrics, the Ready condition) followed by since-cursor
// polling (followAgentSession) and written as the SSH-fed recording is, naming the way in `via`. No model
// runs here: the agent's settings are the session's.

import type { TimelineSession } from '../../core/timeline/session';
import { applySessionDelta } from '../../core/timeline/session';
import type { Logger } from '../../core/util/logger';
import type { AgentConnection } from '../../infra/nodeAccess/agent/agentConnection';
import { followAgentSession } from '../../infra/nodeAccess/agent/followAgentSession';

/**
 * The agent's session from the first read (its retained window) to when `stop` aborts. Rejects when the
 * first read fails; undefined when `stop` aborted before it answered.
 */
export async function recordThroughAgent(connection: AgentConnection, context: string, stop: AbortSignal, logger: Logger): Promise<TimelineSession | undefined> {
  let session: TimelineSession | undefined;
  try {
    await followAgentSession(connection, {
      signal: stop,
      logger,
      onSession: (s) => {
        // After a 410 the agent's window replaces what was held: it is the same model's record, and longer.
        session = { ...s, context, via: connection.label };
      },
      onDelta: (d) => {
        if (session !== undefined) applySessionDelta(session, d);
      },
    });
  } catch (err) {
    if (stop.aborted && session === undefined) return undefined;
    throw err;
  }
  return session;
}
