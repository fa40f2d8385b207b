// The client side of the agent's session API against the agent's own HTTP handler (startAgentServer) and
// SessionLog, over a plain TCP connection standing in for the pod port-forward: the deltas it applies give
// the agent's session, a 410 rereads it, and a refused grant stops it with the grant named.

import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { SessionLog } from '../../../../../src/core/agent/sessionLog';
import { newTimelineSession } from '../../../../../src/core/timeline/newSession';
import type { SessionDelta, SessionRelist, TimelineSession } from '../../../../../src/core/timeline/session';
import { applySessionDelta } from '../../../../../src/core/timeline/session';
import { silentLogger } from '../../../../../src/core/util/logger';
import { startAgentServer, type AgentServer } from '../../../../../src/infra/agent/agentServer';
import { KubeRequestError } from '../../../../../src/infra/kube/createGateway';
import type { KubeGateway } from '../../../../../src/infra/kube/gateway';
import { AgentAccessError, AgentConnection } from '../../../../../src/infra/nodeAccess/agent/agentConnection';
import { followAgentSession } from '../../../../../src/infra/nodeAccess/agent/followAgentSession';

const POD = { namespace: 'pleg-doctor', name: 'pleg-doctor-agent-x7k2' };
let server: AgentServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

function relist(startMs: number): SessionRelist {
  return { startMs, endMs: startMs + 3, ok: true, rpcs: [{ rpc: 'ListPodSandbox', atMs: 0, latencyMs: 1.5 }], podsInspected: [], events: 0, discards: 0, sinceLastRelistStartMs: 1000, pods: 1, containers: 1 };
}
const delta = (ms: number): SessionDelta => ({ durationMs: ms, relists: [relist(ms - 10)] });

/** An agent on 127.0.0.1 and a gateway whose "port-forward" is a TCP connection to it. */
async function agentWith(log: SessionLog, overrides: { since?: (cursor: string) => ReturnType<SessionLog['since']> } = {}): Promise<{ gateway: KubeGateway; forwards: () => number }> {
  server = await startAgentServer(
    {
      metrics: () => '',
      session: () => ({ cursor: log.cursor, session: log.session }),
      since: overrides.since ?? ((c) => log.since(c)),
      diagnosis: () => undefined,
      unhealthy: () => undefined,
    },
    { host: '127.0.0.1', port: 0 },
  );
  const port = server.address.port;
  let forwards = 0;
  const gateway = {
    openPodPortForward: (_context: string, target: { namespace: string; pod: string; port: number }) => {
      expect(target).toEqual({ namespace: POD.namespace, pod: POD.name, port: 9787 });
      forwards++;
      return new Promise((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => resolve(socket));
        socket.once('error', reject);
      });
    },
  } as unknown as KubeGateway;
  return { gateway, forwards: () => forwards };
}

/** Waits for `done` (polled every 5 ms, at most 5 s), so that a loaded machine does not fail the test. */
async function eventually(done: () => boolean): Promise<void> {
  for (let waited = 0; !done(); waited += 5) {
    if (waited > 5_000) throw new Error('the follower did not catch up within 5 s');
    await new Promise((r) => setTimeout(r, 5));
  }
}

function newLog(): SessionLog {
  return new SessionLog(newTimelineSession({ node: 'n1', source: 'live', startedAt: new Date('2026-11-28T12:00:00Z'), settings: { relistPeriodMs: 1000, thresholdMs: 180_000, runtimeRequestTimeoutMs: 120_000, profile: '1.32+', evented: false } }), 900_000);
}

describe('followAgentSession through AgentConnection', () => {
  it('the deltas applied in order give exactly the agent\u2019s session; one forward per read', async () => {
    const log = newLog();
    log.apply(delta(1000));
    const { gateway, forwards } = await agentWith(log);
    const stop = new AbortController();
    let held: TimelineSession | undefined;
    let sessions = 0;
    const following = followAgentSession(new AgentConnection(gateway, 'ctx', POD), {
      pollMs: 10,
      signal: stop.signal,
      logger: silentLogger,
      onSession: (s) => {
        sessions++;
        held = s;
      },
      onDelta: (d) => applySessionDelta(held as TimelineSession, d),
    });
    for (let ms = 2000; ms <= 6000; ms += 1000) {
      log.apply(delta(ms));
      await eventually(() => held?.durationMs === ms);
    }
    stop.abort();
    await following;
    expect(sessions).toBe(1);
    expect(held).toEqual(log.session);
    expect(held?.relists.map((r) => r.startMs)).toEqual([990, 1990, 2990, 3990, 4990, 5990]);
    expect(forwards()).toBeGreaterThan(3);
  });

  it('410: reads the whole session again and goes on from the new cursor', async () => {
    const log = newLog();
    log.apply(delta(1000));
    let gone = 0;
    const { gateway } = await agentWith(log, { since: (c) => (gone-- > 0 ? { kind: 'gone', reason: 'the cursor is from an earlier run of the agent (it restarted): read /v1/session again' } : log.since(c)) });
    const stop = new AbortController();
    const seen: TimelineSession[] = [];
    const infos: string[] = [];
    const following = followAgentSession(new AgentConnection(gateway, 'ctx', POD), {
      pollMs: 10,
      signal: stop.signal,
      logger: { ...silentLogger, info: (m) => void infos.push(String(m)) },
      onSession: (s) => void seen.push(s),
      onDelta: (d) => applySessionDelta(seen.at(-1) as TimelineSession, d),
    });
    log.apply(delta(2000));
    await eventually(() => seen.at(-1)?.durationMs === 2000);
    // The next poll is answered 410 while the agent holds one more delta than the client.
    log.apply(delta(3000));
    gone = 1;
    await eventually(() => seen.length === 2);
    log.apply(delta(4000));
    await eventually(() => seen.at(-1)?.durationMs === 4000);
    stop.abort();
    await following;
    // Going on from the old cursor would apply 3000 twice.
    expect(seen[1]).toEqual(log.session);
    expect(infos.some((m) => m.includes('it restarted') && m.includes('reading the whole session again'))).toBe(true);
  });

  it('a refused port-forward names the grant and stops; a failed poll is retried', async () => {
    const forbidden = new KubeRequestError({ kind: 'forbidden', httpStatus: 403, verb: 'get', resource: 'pods/portforward', message: '403 Forbidden: cannot get pods/portforward' });
    const refusing = { openPodPortForward: () => Promise.reject(forbidden) } as unknown as KubeGateway;
    const err = await followAgentSession(new AgentConnection(refusing, 'ctx', POD), { signal: new AbortController().signal, logger: silentLogger, onSession: () => {}, onDelta: () => {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AgentAccessError);
    expect((err as AgentAccessError).grant).toBe('get pods/portforward in namespace pleg-doctor');
    expect((err as Error).message).toBe('403 Forbidden: cannot get pods/portforward in namespace pleg-doctor (node access through the agent needs that grant; see docs/node-access.md)');

    const log = newLog();
    const { gateway } = await agentWith(log);
    let calls = 0;
    const flaky = { openPodPortForward: (...a: unknown[]) => (++calls === 2 ? Promise.reject(new Error('ECONNRESET')) : (gateway.openPodPortForward as (...x: unknown[]) => Promise<unknown>)(...a)) } as unknown as KubeGateway;
    const warns: string[] = [];
    const polls: Array<string | undefined> = [];
    const stop = new AbortController();
    let held: TimelineSession | undefined;
    const following = followAgentSession(new AgentConnection(flaky, 'ctx', POD), {
      pollMs: 10,
      signal: stop.signal,
      logger: { ...silentLogger, warn: (m) => void warns.push(String(m)) },
      onSession: (s) => (held = s),
      onDelta: (d) => applySessionDelta(held as TimelineSession, d),
      onPoll: (p) => void polls.push(p),
    });
    log.apply(delta(1000));
    await eventually(() => warns.length > 0 && held?.durationMs === 1000);
    // Each poll says how it went: the failed one why, the answered ones nothing.
    expect(polls[0]).toMatch(/ECONNRESET/u);
    expect(polls.slice(1).every((p) => p === undefined)).toBe(true);
    stop.abort();
    await following;
    expect(warns.some((w) => w.includes('ECONNRESET') && w.includes('retrying at the next poll'))).toBe(true);
    expect(held).toEqual(log.session);
  });
});
