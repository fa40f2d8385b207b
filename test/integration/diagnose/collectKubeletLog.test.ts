// The kubelet log of a diagnosis, collected as the product does (collectNodeEvidence): through the real
// gateway and the API stand-in's node proxy (the kubelet's NodeLogQuery, scripted per test with a real
// kubelet journal: the 1.36 + containerd 2.3 fault window), and over the node stack's real sshd, where a
// real remote command prints a real kubelet log through the same exec path journalctl takes.

import { chmodSync, copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { KubeletLogEvidence } from '../../../src/core/diagnose/kubeletLog';
import type { Logger } from '../../../src/core/util/logger';
import type { NodeProxyHandler } from '../../../src/demo/apiServer/server';
import { startFakeApiServer } from '../../../src/demo/apiServer/server';
import { DEMO_CONTEXTS, demoNodeAt } from '../../../src/demo/demoCluster';
import { demoKubeletProxy } from '../../../src/demo/kubeletEndpoints';
import { collectNodeEvidence, type CollectEvidenceOptions } from '../../../src/infra/diagnose/collectEvidence';
import type { KubeletLogPlan } from '../../../src/infra/diagnose/collectKubeletLog';
import { createKubeGateway } from '../../../src/infra/kube/createGateway';
import type { SshConnection } from '../../../src/infra/ssh/connection';
import { fetchKubeletJournal, runJournalCommand } from '../../../src/infra/ssh/kubeletJournal';
import { KubeconfigDir } from '../kube/kubeconfigFiles';
import { connect, removeScratch, scratchDir, stack } from '../ssh/kit';

const LOG_FILE = new URL('../../fixtures/logs/observed-1.36-containerd2.3-fault.log', import.meta.url);
const LOG = readFileSync(LOG_FILE, 'utf8');

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
afterAll(() => removeScratch());

const spec = DEMO_CONTEXTS[0]?.nodes.find((n) => n.name === 'prod-eu-node-01');
if (!spec) throw new Error('demo script changed: no prod-eu-node-01');
const quiet: Logger = { trace: () => undefined, debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

/** The stand-in hands the path over without its trailing slash: `/logs/?query=…` arrives as `/logs`. */
const isLogs = (path: string): boolean => path === '/logs' || path === '/logs/';

/** The demo kubelet with its configz saying enableSystemLogQuery: true (a kubelet that serves its journal). */
function withLogQuery(demo: NodeProxyHandler, logs: NodeProxyHandler): NodeProxyHandler {
  return async (n, path, q) => {
    if (isLogs(path)) return logs(n, path, q);
    const answer = await demo(n, path, q);
    if (path === '/configz' && answer !== undefined) return { ...answer, body: answer.body.replace('"enableSystemLogQuery":false', '"enableSystemLogQuery":true') };
    return answer;
  };
}

async function collect(handler: (demo: NodeProxyHandler) => NodeProxyHandler, plan: KubeletLogPlan, extra: Partial<CollectEvidenceOptions> = {}) {
  const nowMs = Date.now();
  const server = await startFakeApiServer({ nodes: [demoNodeAt(spec as NonNullable<typeof spec>, nowMs - 600_000, nowMs)] });
  cleanups.push(() => server.close());
  server.setNodeProxy(handler(demoKubeletProxy((n) => server.getNode(n), () => new Date())));
  const dir = new KubeconfigDir();
  cleanups.push(() => dir.remove());
  const gateway = createKubeGateway({ env: { KUBECONFIG: dir.write('config', [{ name: 'prod', server: server.url }]) } });
  cleanups.push(() => gateway.dispose());
  const node = await gateway.getNode('prod', 'prod-eu-node-01');
  const raw: string[] = [];
  const evidence = await collectNodeEvidence({
    gateway,
    context: 'prod',
    node,
    useNodeProxy: true,
    proxyTimeoutMs: 5_000,
    metricsIntervalMs: 0,
    kubeletLog: plan,
    logger: quiet,
    onRawBody: (source, body) => {
      if (source === 'kubeletLog') raw.push(body);
    },
    now: () => new Date(nowMs),
    ...extra,
  });
  return { evidence, raw, nowMs };
}

const PLAN: KubeletLogPlan = { windowMinutes: 30, maxBytes: 1024 * 1024, timeoutMs: 5_000, nodeLogQuery: true };

function okLog(f: { status: string; value?: unknown }): KubeletLogEvidence {
  expect(f.status).toBe('ok');
  return f.value as KubeletLogEvidence;
}

describe('the kubelet log through the NodeLogQuery', () => {
  it('a kubelet that serves its journal: the query asks for kubelet since the window start, and the log is read as "now"', async () => {
    const asked: URLSearchParams[] = [];
    const { evidence, raw, nowMs } = await collect(
      (demo) =>
        withLogQuery(demo, (_n, _p, q) => {
          asked.push(q);
          return { body: LOG, contentType: 'text/plain' };
        }),
      PLAN,
    );
    const log = okLog(evidence.kubeletLog);
    expect(log).toMatchObject({ origin: 'nodelogquery', contemporaneous: true, window: 'NodeLogQuery /logs/?query=kubelet, last 30 min', lines: 107 });
    expect(log.plegStretches.map((s) => [s.firstLine, s.lastLine])).toEqual([[94, 104]]);
    expect(asked).toHaveLength(1);
    expect(asked[0]?.get('query')).toBe('kubelet');
    expect(Date.parse(asked[0]?.get('sinceTime') ?? '')).toBe(Math.floor((nowMs - 30 * 60_000) / 1000) * 1000);
    expect(raw).toEqual([LOG]);
  });

  it('a kubelet whose configz has no enableSystemLogQuery: true is not asked at all', async () => {
    let asked = 0;
    const { evidence, raw } = await collect(
      (demo) => (n, path, q) => {
        if (isLogs(path)) asked++;
        return demo(n, path, q);
      },
      PLAN,
    );
    expect(evidence.kubeletLog).toEqual({ status: 'skipped', reason: 'NodeLogQuery: the kubelet’s configuration has no enableSystemLogQuery: true (/configz), so it serves no journal' });
    expect(asked).toBe(0);
    expect(raw).toEqual([]);
  });

  it('configz refused, and the kubelet answers with its /var/log listing: unavailable, naming the gate and the setting', async () => {
    const listing = '<!doctype html>\n<meta name="viewport" content="width=device-width">\n<pre>\n<a href="apt/">apt/</a>\n<a href="journal/">journal/</a>\n</pre>\n';
    const { evidence } = await collect(
      (demo) => (n, path, q) => (path === '/configz' ? { status: 403, body: 'forbidden' } : isLogs(path) ? { body: listing, contentType: 'text/html' } : demo(n, path, q)),
      PLAN,
    );
    expect(evidence.kubeletLog).toMatchObject({ status: 'unavailable', httpStatus: 200 });
    expect(evidence.kubeletLog.status === 'unavailable' ? evidence.kubeletLog.message : '').toContain('answered with its /var/log listing: it serves its journal only with the NodeLogQuery feature gate and enableSystemLogQuery: true');
  });

  it('a journal that does not come within the deadline is a timeout, not a tool error', async () => {
    const { evidence } = await collect((demo) => withLogQuery(demo, () => new Promise(() => undefined)), { ...PLAN, timeoutMs: 800 });
    expect(evidence.kubeletLog).toMatchObject({ status: 'timeout', deadlineMs: 800 });
  });

  it('--no-node-proxy and no SSH: skipped with the reason, nothing asked', async () => {
    const { evidence } = await collect((demo) => demo, PLAN, { useNodeProxy: false });
    expect(evidence.kubeletLog).toEqual({ status: 'skipped', reason: 'no node access and plegDoctor.diagnostics.useNodeProxy is off' });
  });
});

describe('the kubelet log over the node stack’s real sshd', () => {
  const open: SshConnection[] = [];
  afterAll(() => {
    for (const c of open) c.close();
  });
  function ssh(): SshConnection {
    const c = connect(stack());
    open.push(c);
    return c;
  }

  it('journalctl -u kubelet on a node without a kubelet journal: an ok log with nothing in it (the NodeLogQuery is not needed)', async () => {
    const host = ssh();
    let queried = false;
    const { evidence } = await collect(
      (demo) =>
        withLogQuery(demo, () => {
          queried = true;
          return { body: LOG };
        }),
      { ...PLAN, ssh: (f) => fetchKubeletJournal(host, f.window, { timeoutMs: f.timeoutMs, maxBytes: f.maxBytes, signal: f.signal }) },
    );
    const log = okLog(evidence.kubeletLog);
    expect(log).toMatchObject({ origin: 'ssh', lines: 1, plegStretches: [], contemporaneous: true });
    expect(queried).toBe(false);
  });

  it('a real log through the same exec path, cut at the byte cap: whole lines, the cut said, no longer "now"', async () => {
    const host = ssh();
    const dir = scratchDir();
    const remote = join(dir, 'kubelet.log');
    copyFileSync(LOG_FILE, remote);
    // The node stack's SSH user is not root: let it read the copy.
    chmodSync(dir, 0o755);
    chmodSync(remote, 0o644);
    const { evidence, raw } = await collect((demo) => demo, {
      ...PLAN,
      maxBytes: 8 * 1024,
      nodeLogQuery: false,
      ssh: (f) => runJournalCommand(host, ['cat', remote], { timeoutMs: f.timeoutMs, maxBytes: f.maxBytes, signal: f.signal }),
    });
    const log = okLog(evidence.kubeletLog);
    expect(log).toMatchObject({ origin: 'ssh', contemporaneous: false, cut: 'cut at the 8 KB cap' });
    expect(raw[0]?.endsWith('\n')).toBe(true);
    expect(LOG.startsWith(raw[0] ?? 'x')).toBe(true);
    expect(log.lines).toBeLessThan(107);
    expect(log.relistFailures.count).toBeGreaterThan(0);
  });

  it('SSH refused, then the NodeLogQuery: the log comes from the kubelet, and SSH failing is not an error', async () => {
    const { evidence } = await collect((demo) => withLogQuery(demo, () => ({ body: LOG })), { ...PLAN, ssh: () => Promise.reject(new Error('connect ECONNREFUSED 10.0.0.9:22')) });
    expect(okLog(evidence.kubeletLog).origin).toBe('nodelogquery');
  });
});
