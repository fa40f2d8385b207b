// `pleg-doctor diagnose` in-process with an in-memory gateway whose node proxy is the demo's kubelets
// (no network): option parsing, exit codes, both output formats, and what reaches the gateway.

import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDiagnoseCommand, parseDiagnoseArgs, sshHostOf } from '../../../../src/cli/commands/diagnose';
import type { DiagnoseGatewayFactory } from '../../../../src/cli/commands/diagnose';
import { runCli } from '../../../../src/cli/dispatch';
import type { KubeNode } from '../../../../src/core/kube/objects';
import { DEMO_CONTEXTS, demoNodeAt, nodeMomentAt } from '../../../../src/demo/demoCluster';
import { demoKubeletProxy } from '../../../../src/demo/kubeletEndpoints';
import { KubeRequestError } from '../../../../src/infra/kube/createGateway';
import type { KubeGateway, NodeProxyResult, NodeWatch } from '../../../../src/infra/kube/gateway';
import { memoryIo } from '../../../support/memoryIo';

const specs = DEMO_CONTEXTS[0]?.nodes ?? [];

/**
 * The demo is a function of now − origin, and the checks read the kubelet's timestamps against the wall
 * clock: so the demo's origin is placed such that "now" is the wanted moment.
 */
function demoAt(secondsAfterOrigin: number): { origin: number; now: number } {
  const now = Date.now();
  return { origin: now - secondsAfterOrigin * 1000, now };
}

/** A moment at which the flapper is NotReady with PLEG. */
function flapperNotReady(): { origin: number; now: number } {
  const flapper = specs.find((n) => n.name === 'prod-eu-node-07');
  const ref = Date.parse('2026-11-22T08:00:00Z');
  for (let s = 0; s < 2000 && flapper; s++) if (nodeMomentAt(flapper, ref, ref + s * 1000).ready.message.startsWith('PLEG is not healthy')) return demoAt(s + 3);
  throw new Error('the flapper never goes NotReady');
}

interface Calls {
  proxy: string[];
  getNode: string[];
  kubeconfigPaths?: string[] | undefined;
  disposed: boolean;
}

function fakeGateway(
  at: { origin: number; now: number },
  options: { forbidProxy?: boolean; apiDown?: boolean; hangProxy?: boolean; noCurrentContext?: boolean; /** A kubelet that serves this journal (configz enableSystemLogQuery: true). */ journal?: string } = {},
): { factory: DiagnoseGatewayFactory; calls: Calls } {
  const nowMs = at.now;
  const nodes = new Map(specs.map((s) => [s.name, demoNodeAt(s, at.origin, nowMs)]));
  const kubelets = demoKubeletProxy((n) => nodes.get(n), () => new Date(nowMs));
  const calls: Calls = { proxy: [], getNode: [], disposed: false };
  const factory: DiagnoseGatewayFactory = (o) => {
    calls.kubeconfigPaths = o.kubeconfigPaths;
    const gateway: KubeGateway = {
      listContexts: () => [
        { name: 'staging', cluster: 'staging', user: 'u', server: 'https://127.0.0.2:6443', isCurrent: false },
        { name: 'prod-eu', cluster: 'prod-eu', user: 'u', server: 'https://127.0.0.1:6443', isCurrent: options.noCurrentContext !== true },
      ],
      watchNodes: (): NodeWatch => {
        throw new Error('diagnose must not watch');
      },
      listNodeEvents: () => Promise.resolve([]),
      countPods: () => Promise.resolve(5),
      getNode: (context, name): Promise<KubeNode> => {
        calls.getNode.push(`${context}/${name}`);
        if (options.apiDown) return Promise.reject(new KubeRequestError({ kind: 'unreachable', message: 'Cannot reach the API server at 127.0.0.1:6443: connection refused (ECONNREFUSED)' }));
        const node = nodes.get(name);
        return node ? Promise.resolve(node) : Promise.reject(new KubeRequestError({ kind: 'other', httpStatus: 404, message: `There is no node "${name}" in context "${context}" (404 Not Found)` }));
      },
      nodeProxyGet: async (_context, name, path, proxyOptions): Promise<NodeProxyResult> => {
        calls.proxy.push(`${name} ${path}`);
        if (options.hangProxy) {
          // A kubelet that never answers, until the caller gives up.
          return new Promise((_resolve, reject) => {
            proxyOptions.signal?.addEventListener('abort', () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' })), { once: true });
          });
        }
        if (options.forbidProxy) return { kind: 'httpError', httpStatus: 403, body: '', ms: 1, error: { kind: 'forbidden', message: '403 Forbidden: cannot get nodes/proxy', verb: 'get', resource: 'nodes/proxy' } };
        const url = new URL(path, 'http://kubelet');
        if (options.journal !== undefined && url.pathname === '/logs/' && url.searchParams.get('query') === 'kubelet') return { kind: 'ok', body: options.journal, ms: 1 };
        const answer = await kubelets(name, url.pathname, url.searchParams);
        if (options.journal !== undefined && answer !== undefined && url.pathname === '/configz') answer.body = answer.body.replace('"enableSystemLogQuery":false', '"enableSystemLogQuery":true');
        if (!answer) return { kind: 'httpError', httpStatus: 503, body: '', ms: 1, error: { kind: 'server', httpStatus: 503, message: 'error trying to reach service' } };
        const status = answer.status ?? 200;
        if (status !== 200) return { kind: 'httpError', httpStatus: status, body: answer.body, ms: 1, error: { kind: 'other', httpStatus: status, message: `HTTP ${status}` } };
        return { kind: 'ok', body: answer.body, ms: 1 };
      },
      dispose: () => {
        calls.disposed = true;
      },
    };
    return gateway;
  };
  return { factory, calls };
}

async function run(factory: DiagnoseGatewayFactory, args: string[], abortAfterMs?: number, tty = false) {
  const io = memoryIo('', process.cwd(), tty);
  if (abortAfterMs !== undefined) setTimeout(() => io.controller.abort(new Error('interrupted by SIGINT')), abortAfterMs);
  const code = await runCli(['diagnose', ...args], io, { diagnose: { summary: '', load: () => Promise.resolve(createDiagnoseCommand(factory)) } }, '1');
  return { code, out: io.out(), err: io.err() };
}

const base = ['--context', 'prod-eu', '--metrics-interval', '0'];

describe('pleg-doctor diagnose', () => {
  it('at a terminal: the report in plain text, no Markdown escapes or markup; -o md and -o json when asked', async () => {
    const g = fakeGateway(flapperNotReady());
    const text = await run(g.factory, [...base, '--node', 'prod-eu-node-07'], undefined, true);
    expect(text.code).toBe(1);
    expect(text.out.split('\n').slice(0, 2)).toEqual(['PLEG Doctor report: prod-eu-node-07', '===================================']);
    expect(text.out).toContain("* Problem: One pod's status calls time out: a stuck container or shim");
    expect(text.out).toContain('[select, 2 minutes]');
    expect(text.out).toMatch(/list_podsandbox mean [\d.]+ms/u);
    expect(text.out).not.toMatch(/\\[[\]_|*]|&lt;|&gt;|&amp;|^#|\*\*|\|---/mu);
    expect(text.out).toContain('      $ kubectl cordon NODE_NAME');
    const md = await run(g.factory, [...base, '--node', 'prod-eu-node-07', '-o', 'md'], undefined, true);
    expect(md.out).toContain("### Problem: One pod's status calls time out");
    expect(md.out).toContain('\\[select, 2 minutes\\]');
    const json = await run(g.factory, [...base, '--node', 'prod-eu-node-07', '-o', 'json'], undefined, true);
    expect((JSON.parse(json.out) as { node: string }).node).toBe('prod-eu-node-07');
    // Piped (no terminal) and no -o: the Markdown it printed before -o text existed.
    const piped = await run(g.factory, [...base, '--node', 'prod-eu-node-07']);
    expect(piped.out.startsWith('# PLEG Doctor report: prod-eu-node-07\n')).toBe(true);
    expect(piped.out).toContain('\\[select, 2 minutes\\]');
  });

  it('the flapper: a stuck-container problem in Markdown, exit 1 (a check fails); all four kubelet endpoints were read', async () => {
    const g = fakeGateway(flapperNotReady());
    const r = await run(g.factory, [...base, '--node', 'prod-eu-node-07', '--kubeconfig', '/k1', '--kubeconfig', '/k2']);
    expect(r.err).toBe('');
    expect(r.code).toBe(1);
    expect(r.out.split('\n')[0]).toBe('# PLEG Doctor report: prod-eu-node-07');
    expect(r.out).toContain("### Problem: One pod's status calls time out: a stuck container or shim");
    expect(g.calls.proxy.sort()).toEqual(['prod-eu-node-07 /configz', 'prod-eu-node-07 /debug/pprof/goroutine?debug=2', 'prod-eu-node-07 /healthz?verbose', 'prod-eu-node-07 /metrics']);
    expect(g.calls.kubeconfigPaths).toEqual(['/k1', '/k2']);
    expect(g.calls.disposed).toBe(true);
  });

  it('a Ready node: "No problem found.", exit 0; --format json is {node, checks: [{id, cause, verdict, summary, evidence}]}', async () => {
    const g = fakeGateway(demoAt(30));
    const md = await run(g.factory, [...base, '--node', 'prod-eu-node-01']);
    expect(md.code).toBe(0);
    expect(md.out).toMatch(/## Findings\n\nNo problem found\.\n/);
    const json = await run(g.factory, [...base, '--node', 'prod-eu-node-01', '--format', 'json']);
    expect(json.code).toBe(0);
    const parsed = JSON.parse(json.out) as { node: string; checks: { id: string; cause: string; verdict: string; summary: string; evidence: string[] }[] };
    expect(parsed.node).toBe('prod-eu-node-01');
    expect(parsed.checks.map((c) => c.id)).toContain('stuck-container');
    expect(parsed.checks.filter((c) => c.verdict === 'fail' || c.verdict === 'warn')).toEqual([]);
    // No --ssh: the node-only checks have no evidence, which is unknown, never fail.
    expect(parsed.checks.find((c) => c.id === 'node-load')).toMatchObject({ cause: 'node-load', verdict: 'unknown', evidence: [] });
    expect(parsed.checks.find((c) => c.id === 'density')?.summary).toContain("the kubelet's running pods (`kubelet_running_pods`) = 10 of 110");
  });

  it('--no-node-proxy sends no proxy request; a 403 on nodes/proxy is reported, not fatal', async () => {
    const off = fakeGateway(demoAt(30));
    const r = await run(off.factory, [...base, '--node', 'prod-eu-node-01', '--no-node-proxy', '--format', 'md']);
    expect(off.calls.proxy).toEqual([]);
    // The CLI's own words: the flag that turned the proxy off, and how to undo it; no VS Code setting.
    expect(r.out).toContain('were not read: --no-node-proxy was given. Reading them through the API server (without `--no-node-proxy`) needs');
    expect(r.out).toContain('Run `pleg-doctor diagnose` with `--ssh`');
    expect(r.out).not.toContain('plegDoctor.');
    const forbidden = fakeGateway(demoAt(30), { forbidProxy: true });
    const f = await run(forbidden.factory, [...base, '--node', 'prod-eu-node-01', '--format', 'json']);
    expect(f.code).toBe(0);
    const checks = (JSON.parse(f.out) as { checks: { id: string; verdict: string; summary: string }[] }).checks;
    expect(checks.find((c) => c.id === 'syncloop-healthz')).toMatchObject({ verdict: 'unknown' });
    expect(checks.find((c) => c.id === 'syncloop-healthz')?.summary).toContain('403 — needs get on nodes/proxy');
  });

  it('without --context: the kubeconfig\'s current-context, as kubectl; none set → exit 2 naming --context and current-context', async () => {
    const g = fakeGateway(demoAt(30));
    const r = await run(g.factory, ['--metrics-interval', '0', '--node', 'prod-eu-node-01', '-o', 'json']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect((JSON.parse(r.out) as { node: string }).node).toBe('prod-eu-node-01');
    expect(g.calls.getNode).toEqual(['prod-eu/prod-eu-node-01']);
    const none = fakeGateway(demoAt(30), { noCurrentContext: true });
    const refused = await run(none.factory, ['--node', 'prod-eu-node-01']);
    expect(refused.code).toBe(2);
    expect(refused.err).toBe('pleg-doctor: diagnose: no --context given and the kubeconfig sets no current-context; give --context NAME (contexts: staging, prod-eu)\n');
    expect(none.calls.getNode).toEqual([]);
  });

  it('-o/--output and --format take the same values; both given, they must agree', async () => {
    const g = fakeGateway(demoAt(30));
    const outputs = [];
    for (const flags of [['-o', 'json'], ['-ojson'], ['--output=json'], ['--format', 'json'], ['-o', 'json', '--format', 'json'], ['-o', 'md'], ['--output', 'markdown'], []]) {
      const r = await run(g.factory, [...base, '--node', 'prod-eu-node-01', ...flags]);
      expect(r.code, flags.join(' ')).toBe(0);
      outputs.push(r.out.startsWith('{') ? 'json' : r.out.startsWith('# PLEG Doctor report') ? 'md' : r.out.slice(0, 40));
    }
    expect(outputs).toEqual(['json', 'json', 'json', 'json', 'json', 'md', 'md', 'md']);
    const clash = await run(g.factory, [...base, '--node', 'prod-eu-node-01', '-o', 'json', '--format', 'md']);
    expect(clash).toMatchObject({ code: 2, out: '', err: 'pleg-doctor: diagnose: -o/--output json and --format md disagree (--format is the old name of -o/--output: give one)\n' });
  });

  it('an unknown context is a usage error: exit 2, one prefix, nothing read', async () => {
    const g = fakeGateway(demoAt(30));
    const ctx = await run(g.factory, ['--context', 'nope', '--node', 'prod-eu-node-01']);
    expect(ctx.code).toBe(2);
    expect(ctx.err).toBe('pleg-doctor: diagnose: no context "nope" in the kubeconfig (contexts: staging, prod-eu)\n');
    expect(g.calls.getNode).toEqual([]);
  });

  it('could not diagnose → exit 3 naming the cause: unknown node, API unreachable', async () => {
    const g = fakeGateway(demoAt(30));
    const node = await run(g.factory, [...base, '--node', 'prod-eu-node-99']);
    expect(node.code).toBe(3);
    expect(node.err).toContain('There is no node "prod-eu-node-99" in context "prod-eu" (404 Not Found)');
    expect(node.out).toBe('');
    const down = await run(fakeGateway(demoAt(30), { apiDown: true }).factory, [...base, '--node', 'prod-eu-node-01']);
    expect(down.code).toBe(3);
    expect(down.err).toContain('connection refused');
  });

  it('--save-evidence: an existing folder is refused before anything is read; a new one gets the bundle', async () => {
    const g = fakeGateway(demoAt(30));
    const parent = mkdtempSync(join(tmpdir(), 'pleg-save-'));
    try {
      const taken = await run(g.factory, [...base, '--node', 'prod-eu-node-01', '--save-evidence', parent]);
      expect(taken.code).toBe(3);
      expect(taken.err).toContain(`${parent} already exists: an evidence bundle is written to a new folder`);
      expect(g.calls.proxy).toEqual([]);
      const fresh = join(parent, 'bundle');
      const r = await run(g.factory, [...base, '--node', 'prod-eu-node-01', '--save-evidence', fresh]);
      expect(r.code).toBe(0);
      expect(r.err).toContain(`evidence bundle written to ${fresh}: bundle.json, node.json, metrics.txt, configz.json, healthz.txt, goroutines.txt, events.json, report.md`);
      expect(readdirSync(fresh).sort()).toEqual(['bundle.json', 'configz.json', 'events.json', 'goroutines.txt', 'healthz.txt', 'metrics.txt', 'node.json', 'report.md']);
      // The bundle carries the report as printed (Markdown), and reading the bundle back judges the evidence, not it.
      expect(readFileSync(join(fresh, 'report.md'), 'utf8')).toBe(r.out);
      const again = await run(g.factory, ['--evidence', fresh, '-o', 'md']);
      expect(again.err).not.toContain('ignored');
      expect(again.out.replace(/collected \S+/u, '')).toBe(r.out.replace(/collected \S+/u, ''));
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });

  it('a kubelet that serves its journal: the log is read through the NodeLogQuery, cited with its lines, and saved in the bundle', async () => {
    // The real 1.36 + containerd 2.3 fault window, served as this healthy node's journal.
    const journal = readFileSync(new URL('../../../fixtures/logs/observed-1.36-containerd2.3-fault.log', import.meta.url), 'utf8');
    const g = fakeGateway(demoAt(30), { journal });
    const parent = mkdtempSync(join(tmpdir(), 'pleg-save-log-'));
    try {
      const fresh = join(parent, 'bundle');
      const r = await run(g.factory, [...base, '--node', 'prod-eu-node-01', '--format', 'json', '--log-window', '15', '--save-evidence', fresh]);
      expect(r.code).toBe(0);
      const logCall = g.calls.proxy.find((c) => c.startsWith('prod-eu-node-01 /logs/'));
      expect(logCall).toMatch(/^prod-eu-node-01 \/logs\/\?query=kubelet&sinceTime=\d{4}-\d\d-\d\dT\d\d%3A\d\d%3A\d\dZ$/u);
      const json = JSON.parse(r.out) as { checks: { id: string; verdict: string; evidence: string[] }[] };
      const pleg = json.checks.find((c) => c.id === 'pleg-health');
      expect(pleg?.verdict).toBe('warn');
      expect(pleg?.evidence).toContain('kubelet log lines 94–104 (03:22:55 → 03:23:10): PLEG unhealthy for 15s (4 lines), "pleg was last seen active" up to 3m17.3s ago');
      expect(readFileSync(join(fresh, 'kubelet.log'), 'utf8')).toBe(journal);
      // Read back, the saved log is judged as it was collected.
      const back = await run(g.factory, ['--evidence', fresh, '--format', 'json']);
      expect((JSON.parse(back.out) as typeof json).checks.find((c) => c.id === 'pleg-health')?.evidence).toEqual(pleg?.evidence);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });

  it('--log-window 0 reads no log: no /logs/ request, the source skipped with that reason', async () => {
    const g = fakeGateway(demoAt(30), { journal: 'unused' });
    const r = await run(g.factory, [...base, '--node', 'prod-eu-node-01', '--log-window', '0']);
    expect(r.code).toBe(0);
    expect(g.calls.proxy.some((c) => c.includes('/logs/'))).toBe(false);
    expect(r.out).toContain('| kubeletLog | skipped | — | skipped — --log-window 0 |');
  });

  it('Ctrl-C while the kubelet hangs: exit 130 at once, nothing printed on stdout, the gateway disposed', async () => {
    const g = fakeGateway(demoAt(30), { hangProxy: true });
    const started = Date.now();
    const r = await run(g.factory, ['--context', 'prod-eu', '--node', 'prod-eu-node-01', '--proxy-timeout', '600000'], 150);
    expect(r.code).toBe(130);
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(r.out).toBe('');
    expect(r.err).toContain('interrupted by SIGINT');
    expect(g.calls.disposed).toBe(true);
  });

  it('usage errors → exit 2', async () => {
    const g = fakeGateway(demoAt(30));
    for (const [args, message] of [
      [['--context', 'c'], '--node is required'],
      [[], '--node is required'],
      [['--context', 'c', '--node', 'n', '--format', 'html'], '--format must be text, md, markdown or json'],
      [['--context', 'c', '--node', 'n', '-o', 'yaml'], '-o/--output must be text, md, markdown or json, got "yaml"'],
      [['--context', 'c', '--node', 'n', '--proxy-timeout', '0'], '--proxy-timeout must be an integer from 1'],
      [['--context', 'c', '--node', 'n', '--metrics-interval', '-5'], '--metrics-interval must be an integer'],
      [['--context', 'c', '--node', 'n', '--log-window', 'x'], '--log-window must be an integer'],
      [['--context', 'c', '--node', 'n', '--sudo'], '--sudo is a node-side option: add --ssh'],
      [['--context', 'c', '--node', 'n', '--ssh', '--cri-socket', '/run/containerd/containerd.sock'], '--cri-socket (the runtime on this machine) and --ssh (the runtime on a remote node) exclude each other'],
      [['--evidence', '/tmp/b', '--cri-socket', '/x.sock'], 'drop --cri-socket'],
      [['--context', 'c', '--node', 'n', '--bogus'], 'unknown option "--bogus"'],
      [['--context', 'c', '--node'], '--node needs a value'],
      [['--evidence', '/tmp/b', '--context', 'c', '--ssh'], '--evidence reads a saved bundle and reaches nothing; drop --context, --ssh'],
      [['--evidence'], '--evidence needs a value'],
    ] as const) {
      const r = await run(g.factory, [...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err, args.join(' ')).toContain(message);
    }
    expect(g.calls.getNode).toEqual([]);
  });

  it('--cri-socket: the node side from a socket on this machine; one that is not there is the runtime-down evidence, named', async () => {
    expect(parseDiagnoseArgs(['--context', 'c', '--node', 'n', '--cri-socket', 'unix:///run/k.sock'])).toMatchObject({ criSocket: 'unix:///run/k.sock', ssh: false });
    const g = fakeGateway(flapperNotReady());
    const r = await run(g.factory, [...base, '--node', 'prod-eu-node-07', '--cri-socket', '/nonexistent/pleg-doctor-test.sock', '--log-window', '0', '-o', 'json']);
    const hung = (JSON.parse(r.out) as { checks: { id: string; verdict: string; evidence: string[] }[] }).checks.find((c) => c.id === 'runtime-hung');
    expect(hung?.verdict).toBe('fail');
    expect(hung?.evidence.join('\n')).toContain('CRI snapshot: the runtime could not be asked (UNAVAILABLE: connect /nonexistent/pleg-doctor-test.sock: ENOENT)');
  });

  it('parses the node-side options with the snapshot parser; --help prints the usage', async () => {
    const parsed = parseDiagnoseArgs(['--context', 'c', '--node', 'n', '--ssh', '--user', 'ops', '--port', '2222', '--sudo', '--transport', 'exec', '--timeout', '9000', '--metrics-interval', '0']);
    expect(parsed).toMatchObject({ context: 'c', node: 'n', ssh: true, metricsIntervalMs: 0, proxyTimeoutMs: 15_000, sshArgs: { user: 'ops', port: 2222, sudo: true, transport: 'exec', timeoutMs: 9000 } });
    const help = await run(fakeGateway(demoAt(30)).factory, ['--help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain('Usage: pleg-doctor diagnose --node NAME [--context NAME]');
    expect(help.out).toContain("default: the kubeconfig's current-context");
    expect(help.out).toContain('NOT a read-only permission');
    expect(help.out).toContain('--accept-host-key FP');
    const node: KubeNode = { status: { addresses: [{ type: 'Hostname', address: 'h1' }, { type: 'InternalIP', address: '10.0.0.7' }] } };
    expect(sshHostOf(node, 'n')).toBe('10.0.0.7');
    expect(sshHostOf({}, 'n')).toBe('n');
  });
});
