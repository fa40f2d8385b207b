// Runs the demo cluster: one loopback API stand-in per context, seeded from the script and, when live,
// re-evaluated every second so nodes flap on their own. Used by `npm run demo` (src/demo/main.ts) and,
// frozen, by the real-VS-Code e2e, which changes nodes itself.

import type { Logger } from '../core/util/logger';
import { silentLogger } from '../core/util/logger';
import type { KubeNode } from '../core/kube/objects';
import type { FakeApiServer } from './apiServer/contract';
import { startFakeApiServer } from './apiServer/server';
import { DEMO_CONTEXTS, demoNodeAt, nodeMomentAt, readyEvent, readyTransitions } from './demoCluster';
import type { DemoContextSpec } from './demoCluster';
import type { KubeconfigEntry } from './demoKubeconfig';
import { demoKubeletProxy } from './kubeletEndpoints';

export interface DemoRunnerOptions {
  /** Demo time zero (epoch ms); defaults to the start. The script is a function of now − origin. */
  originMs?: number;
  /** Re-evaluate the script every `tickMs` (default true). When false the cluster only changes through `upsert`. */
  live?: boolean;
  tickMs?: number;
  /** Bearer token each stand-in requires (default: "pleg-doctor-demo-<context>"). */
  tokenFor?: (context: string) => string;
  now?: () => number;
  logger?: Logger;
  contexts?: readonly DemoContextSpec[];
}

export interface RunningDemoContext {
  spec: DemoContextSpec;
  server: FakeApiServer;
  token: string;
}

export interface RunningDemo {
  readonly originMs: number;
  readonly contexts: readonly RunningDemoContext[];
  kubeconfigEntries(): KubeconfigEntry[];
  /** Evaluates the script at `nowMs` and upserts the nodes whose object changed; returns how many. */
  tick(nowMs?: number): number;
  /** Replaces a node in a context's stand-in (the e2e's flip). */
  upsert(context: string, node: KubeNode): void;
  stop(): Promise<void>;
}

/** How much Ready history (NodeReady / NodeNotReady events) the stand-ins start with: what an API server keeps. */
const EVENT_HISTORY_MS = 3_600_000;

/** System pods every node runs, plus a couple of workload pods, so per-node pod lists look real. */
const SYSTEM_PODS = [
  ['kube-system', 'kube-proxy'],
  ['calico-system', 'calico-node'],
  ['monitoring', 'node-exporter'],
] as const;

function seedPods(server: FakeApiServer, nodeName: string, index: number): void {
  const suffix = nodeName.slice(-2);
  for (const [namespace, app] of SYSTEM_PODS) server.addPod({ name: `${app}-${suffix}x${index}`, namespace, nodeName, phase: 'Running' });
  server.addPod({ name: `checkout-7d9f8c6b5-${suffix}q${index}`, namespace: 'shop', nodeName, phase: 'Running' });
  server.addPod({ name: `payments-worker-5c4b7-${suffix}z${index}`, namespace: 'shop', nodeName, phase: 'Running' });
}

export async function startDemo(options: DemoRunnerOptions = {}): Promise<RunningDemo> {
  const now = options.now ?? Date.now;
  const originMs = options.originMs ?? now();
  const logger = options.logger ?? silentLogger;
  const tokenFor = options.tokenFor ?? ((c: string) => `pleg-doctor-demo-${c}`);
  const specs = options.contexts ?? DEMO_CONTEXTS;

  const contexts: RunningDemoContext[] = [];
  /** Last JSON upserted per "context/node", so unchanged nodes are not re-sent (watchers see real changes only). */
  const lastJson = new Map<string, string>();
  const lastReady = new Map<string, string>();
  let eventSeq = 0;
  let timer: NodeJS.Timeout | undefined;

  try {
    for (const spec of specs) {
      const token = tokenFor(spec.context);
      const startAt = now();
      const nodes = spec.nodes.map((n) => demoNodeAt(n, originMs, startAt));
      const server = await startFakeApiServer({ auth: { kind: 'token', token }, bookmarkIntervalMs: 60_000, nodes });
      // The kubelets behind the node proxy answer from whatever node object the stand-in serves now.
      server.setNodeProxy(demoKubeletProxy((name) => server.getNode(name), () => new Date(now())));
      nodes.forEach((node, i) => {
        const name = node.metadata?.name ?? '';
        lastJson.set(`${spec.context}/${name}`, JSON.stringify(node));
        lastReady.set(`${spec.context}/${name}`, node.status?.conditions?.find((c) => c.type === 'Ready')?.status ?? '');
        seedPods(server, name, i);
      });
      // A cluster that has been running has an hour of events: the flapper's flaps, the stuck node's fall.
      for (const n of spec.nodes) {
        for (const tr of readyTransitions(n, originMs, startAt - EVENT_HISTORY_MS, startAt)) server.addEvent(readyEvent(n, tr.ready, tr.atMs, eventSeq++));
      }
      contexts.push({ spec, server, token });
      logger.info(`demo: context ${spec.context} serves ${nodes.length} nodes at ${server.url}`);
    }
  } catch (err) {
    await Promise.allSettled(contexts.map((c) => c.server.close()));
    throw err;
  }

  const byName = (context: string): RunningDemoContext => {
    const found = contexts.find((c) => c.spec.context === context);
    if (!found) throw new Error(`demo: no context named "${context}" (have: ${contexts.map((c) => c.spec.context).join(', ')})`);
    return found;
  };

  const tick = (nowMs = now()): number => {
    let changed = 0;
    for (const { spec, server } of contexts) {
      for (const n of spec.nodes) {
        const key = `${spec.context}/${n.name}`;
        const node = demoNodeAt(n, originMs, nowMs);
        const json = JSON.stringify(node);
        if (lastJson.get(key) === json) continue;
        lastJson.set(key, json);
        server.upsertNode(node);
        changed++;
        const moment = nodeMomentAt(n, originMs, nowMs);
        if (lastReady.get(key) !== moment.ready.status) {
          lastReady.set(key, moment.ready.status);
          server.addEvent(readyEvent(n, moment.ready, moment.readyTransitionMs ?? nowMs, eventSeq++));
          logger.info(`demo: ${spec.context}/${n.name} Ready=${moment.ready.status}: ${moment.ready.message}`);
        }
      }
    }
    return changed;
  };

  if (options.live ?? true) {
    timer = setInterval(() => {
      try {
        tick();
      } catch (err) {
        logger.error(err instanceof Error ? err : String(err));
      }
    }, options.tickMs ?? 1000);
  }

  return {
    originMs,
    contexts,
    kubeconfigEntries: () => contexts.map((c) => ({ context: c.spec.context, server: c.server.url, token: c.token })),
    tick,
    upsert(context, node) {
      const c = byName(context);
      const name = node.metadata?.name ?? '';
      lastJson.set(`${context}/${name}`, JSON.stringify(node));
      c.server.upsertNode(node);
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      const results = await Promise.allSettled(contexts.map((c) => c.server.close()));
      const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed.length > 0) throw new AggregateError(failed.map((f) => f.reason as unknown), 'demo: closing a stand-in failed');
    },
  };
}
