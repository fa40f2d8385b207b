// `pleg-doctor timeline` picks its cluster as kubectl would: --context, else the kubeconfig's
// current-context; with --ssh --host and no current-context it records the runtime alone. In-process, with
// an in-memory gateway (its kubelet never answers: the recording then holds failed scrapes, which is enough
// to see which context was polled).

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTimelineCommand } from '../../../../src/cli/commands/timeline';
import { runCli } from '../../../../src/cli/dispatch';
import type { KubeGatewayFactory } from '../../../../src/cli/kubeContext';
import type { TimelineSession } from '../../../../src/core/timeline/session';
import type { ContextInfo, KubeGateway } from '../../../../src/infra/kube/gateway';
import { memoryIo } from '../../../support/memoryIo';

const dir = mkdtempSync(join(tmpdir(), 'pleg-timeline-context-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function fake(current: string | undefined): { factory: KubeGatewayFactory; polled: string[]; disposed: () => boolean } {
  const polled: string[] = [];
  let disposed = false;
  const contexts: ContextInfo[] = ['staging', 'prod'].map((name) => ({ name, cluster: name, user: 'u', server: `https://${name}:6443`, isCurrent: name === current }));
  const factory: KubeGatewayFactory = () => {
    const gateway: KubeGateway = {
      listContexts: () => contexts,
      kubeconfigSummary: () => ({ files: ['/k'], searched: ['/k'], ...(current !== undefined ? { currentContext: current } : {}) }),
      // The timeline watches its one node; this one never sees a change.
      watchNodes: (context, only) => {
        polled.push(`watch ${context} ${only?.node ?? '(all)'}`);
        const none = { dispose: () => undefined };
        return { context, nodes: new Map(), state: { kind: 'connecting' }, onDidChangeNodes: () => none, onDidChangeState: () => none, refresh: () => undefined, dispose: () => undefined };
      },
      listNodeEvents: () => Promise.resolve([]),
      countPods: () => Promise.resolve(0),
      getNode: (context) => {
        polled.push(`getNode ${context}`);
        return Promise.reject(new Error('no such node in this fake'));
      },
      nodeProxyGet: (context, _node, path) => {
        polled.push(`proxy ${context} ${path}`);
        return Promise.resolve({ kind: 'timeout', ms: 1 });
      },
      dispose: () => {
        disposed = true;
      },
    };
    return gateway;
  };
  return { factory, polled, disposed: () => disposed };
}

async function run(factory: KubeGatewayFactory, args: string[]): Promise<{ code: number; err: string }> {
  const io = memoryIo('', dir);
  io.env = { HOME: dir, USER: 'tester' };
  const code = await runCli(['timeline', ...args], io, { timeline: { summary: '', load: () => Promise.resolve(createTimelineCommand(factory)) } }, '1');
  return { code, err: io.err() };
}

function session(file: string): TimelineSession {
  return JSON.parse(readFileSync(join(dir, file), 'utf8')) as TimelineSession;
}

describe('pleg-doctor timeline: which context', () => {
  it('no --context: the kubeconfig\'s current-context is polled and named in the session', async () => {
    const g = fake('prod');
    const r = await run(g.factory, ['--node', 'n1', '--for', '1s', '--out', 'current.json']);
    expect(r.code, r.err).toBe(0);
    expect(session('current.json').context).toBe('prod');
    expect(g.polled.length).toBeGreaterThan(0);
    expect(g.polled.every((p) => / prod( |$)/u.test(p))).toBe(true);
    expect(g.disposed()).toBe(true);
  });

  it('--context wins over the current-context', async () => {
    const g = fake('prod');
    const r = await run(g.factory, ['--node', 'n1', '--context', 'staging', '--for', '1s', '--out', 'flag.json']);
    expect(r.code, r.err).toBe(0);
    expect(session('flag.json').context).toBe('staging');
    expect(g.polled.every((p) => / staging( |$)/u.test(p))).toBe(true);
  });

  it('--ssh --host and no current-context: no cluster is polled, the session says so', async () => {
    const g = fake(undefined);
    // Port 9 on loopback refuses at once: the relists fail, the recording still ends at --for.
    const r = await run(g.factory, ['--node', 'n1', '--ssh', '--host', '127.0.0.1', '--port', '9', '--for', '1s', '--out', 'ssh.json']);
    expect([0, 1]).toContain(r.code);
    const recorded = session('ssh.json');
    expect(recorded.context).toBeUndefined();
    expect(recorded.lacks.join(' ')).toMatch(/no cluster connection/u);
    expect(g.polled).toEqual([]);
    expect(g.disposed()).toBe(true);
  });

  it('--ssh --host with --kubeconfig asks for a cluster: no current-context there is exit 2, nothing recorded', async () => {
    const g = fake(undefined);
    const r = await run(g.factory, ['--node', 'n1', '--ssh', '--host', '127.0.0.1', '--port', '9', '--kubeconfig', '/k', '--for', '1s', '--out', 'refused.json']);
    expect(r.code).toBe(2);
    expect(r.err).toBe('pleg-doctor: timeline: no --context given and the kubeconfig sets no current-context (read /k); give --context NAME (contexts: staging, prod)\n');
    expect(g.polled).toEqual([]);
    expect(g.disposed()).toBe(true);
  });
});
