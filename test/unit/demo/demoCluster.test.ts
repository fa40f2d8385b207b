import { describe, expect, it } from 'vitest';
import { classifyNode } from '../../../src/core/classify/classifyNode';
import { parseGoDurationSeconds } from '../../../src/core/util/goDuration';
import type { KubeNode } from '../../../src/core/kube/objects';
import {
  CRASHLOOP,
  DEMO_CONTEXTS,
  FLAP,
  NODE_GRACE_S,
  PLEG_THRESHOLD_S,
  STATUS_TICK_S,
  demoNodeAt,
  findDemoNode,
  nodeMomentAt,
  plegNotReadyNodeAt,
  readyTransitions,
  readyViewAt,
  STUCK,
} from '../../../src/demo/demoCluster';
import type { DemoNodeSpec, DemoRole } from '../../../src/demo/demoCluster';

const ORIGIN = Date.parse('2026-11-22T03:00:00Z');
const R1 = /^PLEG is not healthy: pleg was last seen active (?<ago>(?:\d+(?:\.\d+)?(?:ns|us|µs|ms|s|m|h))+) ago; threshold is 3m0s$/u;

function byRole(role: DemoRole): DemoNodeSpec {
  const found = DEMO_CONTEXTS.flatMap((c) => c.nodes).find((n) => n.role === role);
  if (!found) throw new Error(`no ${role} node`);
  return found;
}

function ready(node: KubeNode): { status?: string; reason?: string; message?: string; lastHeartbeatTime?: unknown; lastTransitionTime?: unknown } {
  const c = node.status?.conditions?.find((x) => x.type === 'Ready');
  if (!c) throw new Error('no Ready condition');
  return c;
}

const at = (s: number): number => ORIGIN + s * 1000;
const ms = (v: unknown): number => Date.parse(String(v));

describe('demo cluster layout', () => {
  it('has prod-eu with 12 nodes and staging with 5, names unique', () => {
    expect(DEMO_CONTEXTS.map((c) => [c.context, c.nodes.length])).toEqual([
      ['prod-eu', 12],
      ['staging', 5],
    ]);
    const names = DEMO_CONTEXTS.flatMap((c) => c.nodes.map((n) => n.name));
    expect(new Set(names).size).toBe(names.length);
  });

  it('scripts exactly one stuck, one flapper, one runtime-down, one cordoned and one lease-lost node', () => {
    const roles = DEMO_CONTEXTS.flatMap((c) => c.nodes.map((n) => n.role));
    expect(byRole('pleg-stuck').name).toBe('prod-eu-node-07');
    for (const role of ['pleg-stuck', 'pleg-flapper', 'runtime-crashloop', 'cordoned', 'lease-lost'] as const) {
      expect(roles.filter((r) => r === role)).toHaveLength(1);
    }
  });

  it('finds nodes by name with their context', () => {
    expect(findDemoNode('staging-node-02')?.context.context).toBe('staging');
    expect(findDemoNode('nope')).toBeUndefined();
  });
});

describe('the PLEG flapper', () => {
  const flapper = byRole('pleg-flapper');
  const cycle = FLAP.healthyS + FLAP.stallS;

  it('goes NotReady only with a last-seen-active duration strictly above the 3m0s threshold', () => {
    let notReady = 0;
    for (let t = -2 * cycle; t < 2 * cycle; t += 1) {
      const view = readyViewAt(flapper, t);
      if (view.status === 'True') continue;
      notReady++;
      expect(view.reason).toBe('KubeletNotReady');
      const m = R1.exec(view.message);
      expect(m, view.message).not.toBeNull();
      expect(parseGoDurationSeconds(m?.groups?.['ago'] ?? '')).toBeGreaterThan(PLEG_THRESHOLD_S);
    }
    expect(notReady).toBeGreaterThan(0);
  });

  it('is NotReady for about stall − 180 s of every cycle, then Ready again', () => {
    const states: boolean[] = [];
    for (let t = 0; t < 3 * cycle; t += 1) states.push(readyViewAt(flapper, t).status === 'False');
    const runs: number[] = [];
    let run = 0;
    for (const s of states) {
      if (s) run++;
      else if (run > 0) {
        runs.push(run);
        run = 0;
      }
    }
    // Full NotReady episodes inside the window (the first may be cut by t = 0).
    const full = runs.slice(1);
    expect(full.length).toBeGreaterThanOrEqual(2);
    for (const r of full) expect(Math.abs(r - (FLAP.stallS - PLEG_THRESHOLD_S))).toBeLessThanOrEqual(2);
  });

  it('is Ready at the start and crosses the threshold 1 to 2 min in, once the page is open', () => {
    const first = Array.from({ length: 240 }, (_, t) => t).find((t) => readyViewAt(flapper, t).status === 'False');
    expect(first).toBeDefined();
    expect(first).toBeGreaterThanOrEqual(60);
    expect(first).toBeLessThanOrEqual(120);
    expect(readyViewAt(flapper, 0).status).toBe('True');
  });

  it('has flapped several times in the hour before the start (the events the demo seeds)', () => {
    const history = readyTransitions(flapper, ORIGIN, at(-3600), ORIGIN);
    const notReady = history.filter((h) => h.ready.status === 'False');
    expect(notReady.length).toBeGreaterThanOrEqual(9);
    expect(history.filter((h) => h.ready.status === 'True').length).toBeGreaterThanOrEqual(9);
    // Alternating, oldest first, each at a moment the node really changed.
    for (let i = 1; i < history.length; i++) {
      expect(history[i]?.ready.status).not.toBe(history[i - 1]?.ready.status);
      expect(history[i]?.atMs ?? 0).toBeGreaterThan(history[i - 1]?.atMs ?? 0);
    }
    for (const h of history) expect(nodeMomentAt(flapper, ORIGIN, h.atMs + 1).ready.status).toBe(h.ready.status);
    expect(notReady.filter((h) => h.atMs > at(-1800)).length).toBeGreaterThanOrEqual(4);
  });

  it('reports a growing duration on each 10 s status tick, and the transition at the first NotReady tick', () => {
    const samples: { now: number; ago: number; transition: number; heartbeat: number }[] = [];
    for (let s = 90; s < 180; s += 1) {
      const node = demoNodeAt(flapper, ORIGIN, at(s));
      const c = ready(node);
      if (c.status !== 'False') continue;
      samples.push({
        now: at(s),
        ago: parseGoDurationSeconds(R1.exec(c.message ?? '')?.groups?.['ago'] ?? ''),
        transition: ms(c.lastTransitionTime),
        heartbeat: ms(c.lastHeartbeatTime),
      });
    }
    expect(samples.length).toBeGreaterThan(20);
    const distinct = [...new Set(samples.map((x) => x.ago))];
    for (let i = 1; i < distinct.length; i++) {
      const step = (distinct[i] ?? 0) - (distinct[i - 1] ?? 0);
      expect(step).toBeGreaterThan(STATUS_TICK_S - 0.1);
      expect(step).toBeLessThan(STATUS_TICK_S + 0.1);
    }
    // One NotReady episode: one transition time, no later than any sample, and heartbeats follow the message.
    expect(new Set(samples.map((x) => x.transition)).size).toBe(1);
    for (const x of samples) {
      expect(x.transition).toBeLessThanOrEqual(x.now);
      expect(x.heartbeat).toBeLessThanOrEqual(x.now);
      expect(x.now - x.heartbeat).toBeLessThan((STATUS_TICK_S + 1) * 1000);
    }
  });

  it('carries the not-ready taints only while NotReady', () => {
    for (const s of [5, 40, 130, 170]) {
      const node = demoNodeAt(flapper, ORIGIN, at(s));
      const keys = (node.spec?.taints ?? []).map((t) => t.key);
      expect(keys.includes('node.kubernetes.io/not-ready')).toBe(ready(node).status === 'False');
    }
  });

  it('classifies as pleg when NotReady and ready otherwise', () => {
    expect(classifyNode(demoNodeAt(flapper, ORIGIN, at(130)), new Date(at(130))).verdict).toBe('pleg');
    expect(classifyNode(demoNodeAt(flapper, ORIGIN, at(2)), new Date(at(2))).verdict).toBe('ready');
  });
});

describe('the stuck node', () => {
  const stuck = byRole('pleg-stuck');

  it('is PLEG-NotReady at every instant of the demo, with a growing duration and one transition before the start', () => {
    let lastAgo = 0;
    const transitions = new Set<number | null>();
    for (let s = 0; s < 4 * 3600; s += 7) {
      const m = nodeMomentAt(stuck, ORIGIN, at(s));
      expect(m.ready.status).toBe('False');
      const ago = parseGoDurationSeconds(R1.exec(m.ready.message)?.groups?.['ago'] ?? 'x');
      expect(ago).toBeGreaterThan(PLEG_THRESHOLD_S);
      expect(ago).toBeGreaterThanOrEqual(lastAgo);
      lastAgo = ago;
      transitions.add(m.readyTransitionMs);
      expect(at(s) - m.heartbeatMs).toBeLessThan(STATUS_TICK_S * 1000);
    }
    expect([...transitions]).toHaveLength(1);
    const transition = [...transitions][0] ?? 0;
    expect(transition).toBeLessThan(ORIGIN);
    expect(Math.abs(transition - at(PLEG_THRESHOLD_S - STUCK.beforeS))).toBeLessThanOrEqual(STATUS_TICK_S * 1000);
    expect(classifyNode(demoNodeAt(stuck, ORIGIN, at(3)), new Date(at(3))).verdict).toBe('pleg');
  });

  it('has one NodeNotReady transition in its history, at the Ready condition\'s transition time', () => {
    const history = readyTransitions(stuck, ORIGIN, at(-3600), ORIGIN);
    expect(history.map((h) => h.ready.status)).toEqual(['False']);
    expect(history[0]?.atMs).toBe(nodeMomentAt(stuck, ORIGIN, ORIGIN).readyTransitionMs);
  });
});

describe('the other scripted nodes', () => {
  it('runtime-crashloop says "container runtime is down" after 30 s down, and never reaches the PLEG threshold', () => {
    const node = byRole('runtime-crashloop');
    expect(CRASHLOOP.downS).toBeLessThan(PLEG_THRESHOLD_S);
    let down = 0;
    for (let t = 0; t < 3 * (CRASHLOOP.upS + CRASHLOOP.downS); t++) {
      const v = readyViewAt(node, t);
      expect(v.message).not.toMatch(/PLEG/);
      if (v.status === 'False') {
        down++;
        expect(v.message).toBe('container runtime is down');
      }
    }
    expect(down).toBeGreaterThan(0);
    expect(classifyNode(demoNodeAt(node, ORIGIN, at(5)), new Date(at(5))).verdict).toBe('runtime-down');
  });

  it('lease-lost is Unknown everywhere with a frozen heartbeat and the grace period before the transition', () => {
    const spec = byRole('lease-lost');
    const a = demoNodeAt(spec, ORIGIN, at(10));
    const b = demoNodeAt(spec, ORIGIN, at(500));
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    const c = ready(a);
    expect(c.status).toBe('Unknown');
    expect(c.reason).toBe('NodeStatusUnknown');
    expect(c.message).toBe('Kubelet stopped posting node status.');
    expect(ms(c.lastTransitionTime) - ms(c.lastHeartbeatTime)).toBe(NODE_GRACE_S * 1000);
    expect(a.status?.conditions?.every((x) => x.status === 'Unknown')).toBe(true);
    expect((a.spec?.taints ?? []).map((t) => `${t.key}:${t.effect}`)).toEqual(
      expect.arrayContaining(['node.kubernetes.io/unreachable:NoSchedule', 'node.kubernetes.io/unreachable:NoExecute']),
    );
    expect(classifyNode(a, new Date(at(10))).verdict).toBe('lease-lost');
  });

  it('cordoned is Ready, unschedulable and tainted', () => {
    const node = demoNodeAt(byRole('cordoned'), ORIGIN, at(10));
    expect(ready(node).status).toBe('True');
    expect(node.spec?.unschedulable).toBe(true);
    expect(node.spec?.taints?.some((t) => t.key === 'node.kubernetes.io/unschedulable' && t.effect === 'NoSchedule')).toBe(true);
    const c = classifyNode(node, new Date(at(10)));
    expect(c.verdict).toBe('ready');
    expect(c.cordoned).toBe(true);
  });

  it('healthy nodes only change when their 5-minute report is due', () => {
    const spec = byRole('healthy');
    const changes = new Set<string>();
    for (let s = 0; s < 900; s += 5) changes.add(JSON.stringify(demoNodeAt(spec, ORIGIN, at(s))));
    expect(changes.size).toBeGreaterThanOrEqual(3);
    expect(changes.size).toBeLessThanOrEqual(4);
  });

  it('is deterministic: the same instant gives the same object', () => {
    for (const c of DEMO_CONTEXTS) {
      for (const n of c.nodes) expect(JSON.stringify(demoNodeAt(n, ORIGIN, at(77)))).toBe(JSON.stringify(demoNodeAt(n, ORIGIN, at(77))));
    }
  });

  it('never dates a heartbeat or transition after the instant asked for', () => {
    for (const c of DEMO_CONTEXTS) {
      for (const n of c.nodes) {
        for (let s = -400; s < 800; s += 13) {
          const m = nodeMomentAt(n, ORIGIN, at(s));
          expect(m.heartbeatMs).toBeLessThanOrEqual(at(s));
          if (m.readyTransitionMs !== null) expect(m.readyTransitionMs).toBeLessThanOrEqual(at(s));
        }
      }
    }
  });
});

describe('plegNotReadyNodeAt (the e2e flip)', () => {
  it('turns a healthy node PLEG-NotReady with the requested duration', () => {
    const spec = findDemoNode('staging-node-02')?.node;
    if (!spec) throw new Error('missing staging-node-02');
    const now = at(60);
    const node = plegNotReadyNodeAt(spec, ORIGIN, now, 226.5);
    const c = ready(node);
    expect(c.status).toBe('False');
    const ago = parseGoDurationSeconds(R1.exec(c.message ?? '')?.groups?.['ago'] ?? 'x');
    expect(ago).toBeGreaterThanOrEqual(226.5);
    expect(ago).toBeLessThan(226.7);
    expect(classifyNode(node, new Date(now)).verdict).toBe('pleg');
    // Only the status moved: identity fields stay as the healthy node had them.
    const before = demoNodeAt(spec, ORIGIN, now);
    expect(node.metadata?.uid).toBe(before.metadata?.uid);
    expect(node.metadata?.creationTimestamp).toBe(before.metadata?.creationTimestamp);
  });
});
