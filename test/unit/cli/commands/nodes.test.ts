import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createNodesCommand } from '../../../../src/cli/commands/nodes';
import type { GatewayFactory } from '../../../../src/cli/commands/nodes';
import { runCli } from '../../../../src/cli/dispatch';
import type { KubeEvent, KubeNode } from '../../../../src/core/kube/objects';
import type { Listener, Subscription } from '../../../../src/core/util/emitter';
import type { ContextInfo, KubeGateway, NodeChange, NodeWatch, WatchState } from '../../../../src/infra/kube/gateway';
import { memoryIo } from '../../../support/memoryIo';

const nodes = (JSON.parse(readFileSync(new URL('../../../fixtures/nodes/kubectl-get-nodes.json', import.meta.url), 'utf8')) as { items: KubeNode[] }).items;

/** A scripted NodeWatch: each context plays a list of states with delays (an in-memory gateway, no network). */
class ScriptedWatch implements NodeWatch {
  readonly nodes = new Map<string, KubeNode>();
  state: WatchState = { kind: 'connecting' };
  disposed = false;
  private readonly listeners = new Set<Listener<WatchState>>();
  private readonly timers: NodeJS.Timeout[] = [];

  constructor(
    readonly context: string,
    script: { afterMs: number; state: WatchState; nodes?: KubeNode[] }[],
  ) {
    for (const step of script) {
      this.timers.push(
        setTimeout(() => {
          for (const n of step.nodes ?? []) this.nodes.set(n.metadata?.name ?? '', n);
          this.state = step.state;
          for (const l of this.listeners) l(step.state);
        }, step.afterMs),
      );
    }
  }
  onDidChangeNodes(_l: Listener<NodeChange>): Subscription {
    return { dispose: () => undefined };
  }
  onDidChangeState(l: Listener<WatchState>): Subscription {
    this.listeners.add(l);
    return { dispose: () => this.listeners.delete(l) };
  }
  refresh(): void {}
  dispose(): void {
    this.disposed = true;
    for (const t of this.timers) clearTimeout(t);
  }
}

type Script = ConstructorParameters<typeof ScriptedWatch>[1];

/** `current`: the kubeconfig's current-context (default: the first context; null: none set). */
function gateway(
  scripts: Record<string, Script>,
  listError?: Error,
  current: string | null = Object.keys(scripts)[0] ?? null,
  /** Each node's events; a node missing here has none; a node mapped to an Error fails its list. */
  events: Record<string, KubeEvent[] | Error> = {},
) {
  const watches: ScriptedWatch[] = [];
  const eventLists: string[] = [];
  let disposed = false;
  let options: Parameters<GatewayFactory>[0];
  const factory: GatewayFactory = (o) => {
    options = o;
    const gw: KubeGateway = {
      listContexts: (): ContextInfo[] => {
        if (listError !== undefined) throw listError;
        return Object.keys(scripts).map((name) => ({ name, cluster: name, user: 'u', server: 'https://127.0.0.1:6443', isCurrent: name === current }));
      },
      kubeconfigSummary: () => ({ files: ['/home/u/.kube/config'], searched: ['/home/u/.kube/config'], ...(current !== null ? { currentContext: current } : {}) }),
      watchNodes: (context) => {
        const w = new ScriptedWatch(context, scripts[context] ?? []);
        watches.push(w);
        return w;
      },
      listNodeEvents: (_context, node) => {
        eventLists.push(node);
        const e = events[node];
        return e instanceof Error ? Promise.reject(e) : Promise.resolve(e ?? []);
      },
      countPods: () => Promise.resolve(0),
      getNode: (_context, node) => Promise.reject(new Error(`no node "${node}" in this fake`)),
      nodeProxyGet: () => Promise.resolve({ kind: 'timeout', ms: 0 }),
      dispose: () => {
        disposed = true;
      },
    };
    return gw;
  };
  return { factory, watches, isDisposed: () => disposed, options: () => options, eventLists: () => eventLists };
}

async function runTty(factory: GatewayFactory, args: string[]) {
  const io = memoryIo('', process.cwd(), true);
  const code = await runCli(['nodes', ...args], io, { nodes: { summary: '', load: () => Promise.resolve(createNodesCommand(factory)) } }, '1');
  return { code, out: io.out(), err: io.err() };
}

/** `n` NodeNotReady events of `node`, one a minute, the last `agoS` seconds ago (the demo's stand-in writes them so). */
function notReadyEvents(node: string, n: number, agoS = 60): KubeEvent[] {
  return Array.from({ length: n }, (_, i) => {
    const at = new Date(Date.now() - (agoS + i * 60) * 1000).toISOString();
    return { reason: 'NodeNotReady', message: `Node ${node} status is now: NodeNotReady`, firstTimestamp: at, lastTimestamp: at, count: 1, involvedObject: { kind: 'Node', name: node } };
  });
}

async function run(factory: GatewayFactory, args: string[], abortAfterMs?: number) {
  const io = memoryIo();
  if (abortAfterMs !== undefined) setTimeout(() => io.controller.abort(new Error('interrupted by SIGINT')), abortAfterMs);
  const code = await runCli(['nodes', ...args], io, { nodes: { summary: '', load: () => Promise.resolve(createNodesCommand(factory)) } }, '1');
  return { code, err: io.err(), lines: io.out().split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, unknown>) };
}

describe('pleg-doctor nodes', () => {
  it('at a terminal: a table, worst first, a flapping Ready node among the NotReady ones, flaps counted; -o json the JSON lines', async () => {
    // Ready changed a minute ago on every node but worker-1 (whose events cannot hold a flap, so are not asked for).
    const recent = new Date(Date.now() - 60_000).toISOString();
    const moved = nodes.map((n) => (n.metadata?.name === 'worker-1' ? n : { ...n, status: { ...n.status, conditions: (n.status?.conditions ?? []).map((c) => (c.type === 'Ready' ? { ...c, lastTransitionTime: recent } : c)) } }));
    const g = gateway({ prod: [{ afterMs: 1, state: { kind: 'synced', resourceVersion: '1' }, nodes: moved }] }, undefined, 'prod', {
      'worker-2': notReadyEvents('worker-2', 8),
      'ip-10-0-1-17.eu-west-1.compute.internal': notReadyEvents('ip-10-0-1-17.eu-west-1.compute.internal', 1),
      'worker-7': new Error('403 Forbidden: cannot list events'),
    });
    const r = await runTty(g.factory, []);
    expect(r.code).toBe(0);
    const lines = r.out.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^NAME +STATUS +FOR +FLAPS\/30M +DETAIL$/u);
    const cells = lines.slice(1).map((l) => l.split(/ {3,}/u));
    expect(cells.map((c) => [c[0], c[1], c[3]])).toEqual([
      ['ip-10-0-1-17.eu-west-1.compute.internal', 'PLEG', '1×'],
      ['worker-7', 'No heartbeat', '?'],
      ['worker-2', 'Ready (flapping), cordoned', '8×'],
      ['worker-1', 'Ready', '–'],
    ]);
    // The kubelet's nanosecond durations, cut to tenths for a person.
    expect(lines[1]).not.toMatch(/\d\.\d{2,}s/u);
    expect(g.eventLists()).not.toContain('worker-1');
    expect(g.eventLists()).toHaveLength(3);
    expect(r.err).toContain('the events of 1 of 4 nodes could not be read within 15s (FLAPS/30M "?"): 403 Forbidden: cannot list events');
    const json = await run(g.factory, ['-o', 'json']);
    expect(json.lines.map((l) => l['name'])).toEqual(['ip-10-0-1-17.eu-west-1.compute.internal', 'worker-1', 'worker-2', 'worker-7']);
    // The JSON lines carry the table's flaps (null where the table shows "?"), and call worker-2 flapping as it does.
    expect(json.lines.map((l) => l['flaps'])).toEqual([
      { count: 1, atLeast: false, windowSeconds: 1800, flapping: false },
      { count: 0, atLeast: false, windowSeconds: 1800, flapping: false },
      { count: 8, atLeast: false, windowSeconds: 1800, flapping: true },
      null,
    ]);
    expect(json.err).toContain('the events of 1 of 4 nodes could not be read within 15s ("flaps": null): 403 Forbidden: cannot list events');
    const explicit = await runTty(g.factory, ['-o', 'json']);
    expect(explicit.out.split('\n')[0]).toMatch(/^\{"context":"prod"/u);
  });

  it('--all-contexts: one line per node per context, sorted by name; a failed context gives an error line and exit 1', async () => {
    const g = gateway({
      prod: [{ afterMs: 5, state: { kind: 'synced', resourceVersion: '7' }, nodes }],
      staging: [{ afterMs: 5, state: { kind: 'error', error: { kind: 'forbidden', message: '403 Forbidden: cannot watch nodes', verb: 'watch', resource: 'nodes' } } }],
    });
    const r = await run(g.factory, ['--all-contexts']);
    expect(r.code).toBe(1);
    expect(r.lines.map((l) => [l['context'], l['name'], l['verdict']])).toEqual([
      ['prod', 'ip-10-0-1-17.eu-west-1.compute.internal', 'pleg'],
      ['prod', 'worker-1', 'ready'],
      ['prod', 'worker-2', 'ready'],
      ['prod', 'worker-7', 'lease-lost'],
      ['staging', undefined, undefined],
    ]);
    expect(Object.keys(r.lines[0] ?? {})).toEqual(['context', 'name', 'verdict', 'cordoned', 'since', 'plegLastSeenAgoSeconds', 'plegThresholdSeconds', 'message', 'flaps']);
    expect(r.lines[4]).toEqual({ context: 'staging', error: { kind: 'forbidden', message: '403 Forbidden: cannot watch nodes' } });
    expect(g.watches.every((w) => w.disposed)).toBe(true);
    expect(g.isDisposed()).toBe(true);
  });

  it('all contexts synced → exit 0; an already-synced watch is read at once', async () => {
    const g = gateway({ prod: [{ afterMs: 0, state: { kind: 'synced', resourceVersion: '1' }, nodes: nodes.slice(0, 1) }] });
    const r = await run(g.factory, ['--timeout', '2s']);
    expect(r.code).toBe(0);
    expect(r.lines).toHaveLength(1);
  });

  it('--fail-on-not-ready', async () => {
    const g = gateway({ prod: [{ afterMs: 1, state: { kind: 'synced', resourceVersion: '1' }, nodes }] });
    expect((await run(g.factory, ['--fail-on-not-ready'])).code).toBe(1);
  });

  it('--context picks one context; --kubeconfig reaches the gateway', async () => {
    const g = gateway({
      a: [{ afterMs: 1, state: { kind: 'synced', resourceVersion: '1' }, nodes: nodes.slice(0, 1) }],
      b: [{ afterMs: 1, state: { kind: 'error', error: { kind: 'unreachable', message: 'connection refused' } } }],
    });
    const r = await run(g.factory, ['--context', 'a', '--kubeconfig', '/tmp/k1', '--kubeconfig=/tmp/k2']);
    expect(r.code).toBe(0);
    expect(r.lines.map((l) => l['context'])).toEqual(['a']);
    expect(g.watches.map((w) => w.context)).toEqual(['a']);
    expect(g.options()?.kubeconfigPaths).toEqual(['/tmp/k1', '/tmp/k2']);
  });

  it('without --context: the kubeconfig\'s current context only, as kubectl; the gateway reads the command\'s environment', async () => {
    const g = gateway(
      {
        a: [{ afterMs: 1, state: { kind: 'error', error: { kind: 'unreachable', message: 'connection refused' } } }],
        b: [{ afterMs: 1, state: { kind: 'synced', resourceVersion: '1' }, nodes: nodes.slice(0, 2) }],
      },
      undefined,
      'b',
    );
    const io = memoryIo();
    io.env = { KUBECONFIG: '/tmp/one:/tmp/two', HOME: '/home/u' };
    const code = await runCli(['nodes'], io, { nodes: { summary: '', load: () => Promise.resolve(createNodesCommand(g.factory)) } }, '1');
    expect(code).toBe(0);
    expect(io.err()).toBe('');
    expect(g.watches.map((w) => w.context)).toEqual(['b']);
    expect(io.out().split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { context: string }).context)).toEqual(['b', 'b']);
    expect(g.options()?.env).toEqual({ KUBECONFIG: '/tmp/one:/tmp/two', HOME: '/home/u' });
    expect(g.options()?.kubeconfigPaths).toBeUndefined();
  });

  it('-o json, -ojson and --output=json print the same JSON lines as no -o', async () => {
    const script = (): Record<string, Script> => ({ prod: [{ afterMs: 0, state: { kind: 'synced', resourceVersion: '1' }, nodes }] });
    const plain = await run(gateway(script()).factory, []);
    for (const args of [['-o', 'json'], ['-ojson'], ['--output=json'], ['--output', 'json']]) {
      const r = await run(gateway(script()).factory, args);
      expect(r.code, args.join(' ')).toBe(0);
      expect(r.lines.map((l) => ({ ...l, since: null, plegLastSeenAgoSeconds: null })), args.join(' ')).toEqual(plain.lines.map((l) => ({ ...l, since: null, plegLastSeenAgoSeconds: null })));
    }
    expect(plain.lines).toHaveLength(4);
  });

  it('a context that never syncs times out at the deadline, with the last reconnect error if any', async () => {
    const g = gateway({
      silent: [],
      flapping: [{ afterMs: 5, state: { kind: 'reconnecting', attempt: 1, delayMs: 1000, error: { kind: 'tls', message: 'certificate signed by unknown authority' } } }],
    });
    const started = Date.now();
    const r = await run(g.factory, ['--all-contexts', '--timeout', '150ms']);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(r.code).toBe(1);
    // Lines follow the kubeconfig's context order.
    expect(r.lines).toEqual([
      { context: 'silent', error: { kind: 'timeout', message: 'no complete node list within 150ms' } },
      { context: 'flapping', error: { kind: 'tls', message: 'no complete node list within 150ms; last error: certificate signed by unknown authority' } },
    ]);
  });

  it('the abort signal ends the wait at once', async () => {
    const g = gateway({ silent: [] });
    const started = Date.now();
    const r = await run(g.factory, ['--timeout', '60s'], 30);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(r.code).toBe(130);
    expect(g.watches[0]?.disposed).toBe(true);
  });

  describe('usage errors exit 2', () => {
    it.each([
      [['--context', 'nope'], 'pleg-doctor: nodes: no context "nope" in the kubeconfig (contexts: a)\n'],
      [['--timeout', 'soon'], 'pleg-doctor: nodes: --timeout: invalid Go duration "soon": a unit without a number\n'],
      [['--timeout', '0'], 'pleg-doctor: nodes: --timeout must be positive, got "0"\n'],
      [['--context'], 'pleg-doctor: nodes: --context needs a value\n'],
      [['--frob'], 'pleg-doctor: nodes: unknown option "--frob"\n'],
      [['prod'], 'pleg-doctor: nodes: unexpected argument "prod" (use --context NAME)\n'],
      [['--context', 'a', '--all-contexts'], 'pleg-doctor: nodes: --context and --all-contexts exclude each other\n'],
      [['-o', 'yaml'], 'pleg-doctor: nodes: -o/--output must be table or json, got "yaml"\n'],
      [['--output=wide'], 'pleg-doctor: nodes: -o/--output must be table or json, got "wide"\n'],
    ])('%j', async (args, err) => {
      const r = await run(gateway({ a: [] }).factory, args);
      expect(r).toMatchObject({ code: 2, err, lines: [] });
    });

    it('a bad kubeconfig', async () => {
      const r = await run(gateway({}, new Error('/root/.kube/config: line 3: mapping values are not allowed here')).factory, []);
      expect(r.code).toBe(2);
      expect(r.err).toBe('pleg-doctor: nodes: /root/.kube/config: line 3: mapping values are not allowed here\n');
    });

    it('no contexts at all', async () => {
      expect((await run(gateway({}).factory, ['--all-contexts'])).err).toBe('pleg-doctor: nodes: the kubeconfig defines no contexts\n');
      expect((await run(gateway({}).factory, [])).err).toBe(
        'pleg-doctor: nodes: no --context given and the kubeconfig sets no current-context (read /home/u/.kube/config); give --context NAME (contexts: none)\n',
      );
    });

    it('no --context and no current-context: names both and the file read', async () => {
      const r = await run(gateway({ a: [], b: [] }, undefined, null).factory, []);
      expect(r).toMatchObject({ code: 2, lines: [] });
      expect(r.err).toBe('pleg-doctor: nodes: no --context given and the kubeconfig sets no current-context (read /home/u/.kube/config); give --context NAME (contexts: a, b)\n');
    });

    it('a current-context that names no context', async () => {
      const r = await run(gateway({ a: [] }, undefined, 'gone').factory, []);
      expect(r).toMatchObject({ code: 2, lines: [] });
      expect(r.err).toBe('pleg-doctor: nodes: the kubeconfig\'s current-context "gone" names no context (contexts: a); give --context NAME\n');
    });
  });
});
