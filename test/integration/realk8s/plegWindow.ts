// A real PLEG failure, end to end, in ONE fault window, the same body for every cluster kit (each kit's
// plegWindow.test.ts calls describePlegWindow, adding its own checks to the same window through
// KitWindowChecks): the cluster's runtime (containerd; dockerd behind 1.22's dockershim) is frozen (SIGSTOP)
// until the real kubelet posts "PLEG is not healthy" (≈ 3.3 min with runtimeRequestTimeout 30s). While
// it lasts: the message arrives through the product's watch, `pleg-doctor nodes` and `classify` give the
// verdict `pleg` with the kubelet's own "last seen active" value, and `pleg-doctor diagnose` reads the
// real kubelet through the node proxy (/metrics hangs, /healthz answers, the goroutine dump shows the
// relist blocked in a CRI call, /configz says 30 s) and the runtime's own socket (--cri-socket, its CRI
// snapshot's calls time out), and names the hung runtime. SIGCONT (always, in a
// finally) → Ready again.
// Through the same window `pleg-doctor timeline` records the node on its own CRI socket (--cri-socket,
// as on the node itself) and the API server: every prediction it made (the runtime-down post, PLEG's
// crossing, the PLEG post, the Ready post) is held against what the kubelet did, and its Ready lane
// against the posts as this test's own watch saw them reach the API server.

import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Diagnosis } from '../../../src/core/diagnose/diagnosis';
import { EXIT_CHECK_FAILS } from '../../../src/cli/commands/diagnose';
import type { NodeEvidence } from '../../../src/core/diagnose/evidence';
import { diagnose } from '../../../src/core/diagnose/runDiagnosis';
import { silentLogger } from '../../../src/core/util/logger';
import { collectNodeEvidence } from '../../../src/infra/diagnose/collectEvidence';
import { parseGoDurationSeconds } from '../../../src/core/util/goDuration';
import { createKubeGateway } from '../../../src/infra/kube/createGateway';
import type { KubeGateway, NodeWatch } from '../../../src/infra/kube/gateway';
import type { RealCluster } from './cluster';
import { cli, currentKit, kubectl, readyCondition, realCluster, REPO, scratchDir, script, until } from './cluster';
import { predictionBefore } from '../../../src/core/timeline/postPredictions';
import { firstEvaluationFrom, runtimeDownFromMs, syncLoopOf } from '../../../src/core/timeline/nodeStatusLoop';
import type { PredictedEvent, TimelineSession } from '../../../src/core/timeline/session';

/** What a kit's own checks get: the cluster, the test's gateway and watch, and what the watch saw. */
export interface PlegWindow {
  cluster: RealCluster;
  gateway: KubeGateway;
  context: string;
  scratch: { dir: string; remove: () => void };
  /** Every Ready change as this test's watch received it (epoch ms): when the API server had it. */
  posts: { atMs: number; status: string; message: string }[];
  /** Every change of the Ready condition's lastHeartbeatTime (a status post), as the watch received it. */
  heartbeats: { atMs: number; heartbeat: string }[];
}

/** A kit's own checks, run inside the shared window (no second freeze). Each may be async. */
export interface KitWindowChecks {
  /** On the healthy node, with the timeline already recording, while the window waits for a periodic status post; the freeze comes after it. */
  beforeFreeze?: (w: PlegWindow) => void | Promise<void>;
  /** While the Node says PLEG and the runtime is still frozen, after the shared checks. */
  whilePleg?: (w: PlegWindow, found: { message: string; evidence: NodeEvidence; diagnosis: Diagnosis; frozeAt: number }) => void | Promise<void>;
  /** After Ready came back, with the recording `pleg-doctor timeline` wrote and the shared checks on it done. */
  afterRecovery?: (w: PlegWindow, session: TimelineSession, frozeAt: number) => void | Promise<void>;
  /**
   * What the kubelet's /metrics does while the runtime is frozen: on containerd kits it waits on the
   * runtime past the proxy deadline (default 'timeout'); the 1.22 dockershim kubelet answers.
   */
  metricsWhileFrozen?: 'timeout' | 'answers';
  /** What runtime-hung cites from the API tier alone (default: the metrics hang or the blocked relist). */
  hungEvidence?: RegExp;
  /** Whether the model predicts the Ready post after SIGCONT before it happens (default true). */
  predictsReadyPost?: boolean;
}

const PLEG_DEADLINE_MS = 300_000;

/** The window for this project's kit (PLEG_REAL_K8S_KIT, set by its vitest project). */
export function describePlegWindow(kitChecks: KitWindowChecks = {}): void {
  let w: PlegWindow;
  let watch: NodeWatch;

  beforeAll(async () => {
    const cluster = realCluster();
    const gateway = createKubeGateway({ kubeconfigPaths: [cluster.kubeconfig] });
    w = { cluster, gateway, context: gateway.listContexts()[0]?.name ?? '', scratch: scratchDir(), posts: [], heartbeats: [] };
    watch = gateway.watchNodes(w.context);
    watch.onDidChangeNodes(() => {
      const r = readyOf(watch, cluster);
      const last = w.posts.at(-1);
      if (r?.status !== undefined && (last === undefined || last.status !== r.status || last.message !== (r.message ?? ''))) w.posts.push({ atMs: Date.now(), status: r.status, message: r.message ?? '' });
      const beat = String(r?.lastHeartbeatTime ?? '');
      if (beat !== '' && w.heartbeats.at(-1)?.heartbeat !== beat) w.heartbeats.push({ atMs: Date.now(), heartbeat: beat });
    });
    await until('the node Ready through the watch', () => (readyOf(watch, cluster)?.status === 'True' ? true : undefined), 60_000, 200);
  });

  afterAll(() => {
    w?.gateway.dispose();
    w?.scratch.remove();
  });

  describe(`a real kubelet ${currentKit()} going "PLEG is not healthy" (its runtime frozen)`, () => {
    it('flows through the real API into the watch, nodes, classify, diagnose and a recorded timeline; SIGCONT brings Ready back', { timeout: 540_000 }, async () => {
      await runWindow(w, watch, kitChecks);
    });
  });
}

function readyOf(w: NodeWatch, cluster: RealCluster): { status?: string; message?: string; lastHeartbeatTime?: string | Date } | undefined {
  return w.nodes.get(cluster.nodeName)?.status?.conditions?.find((c) => c.type === 'Ready');
}

/** "pleg was last seen active 3m18.95s ago; threshold is 3m0s" → [198.95, 180]. */
function lastSeen(message: string): [number, number] {
  // The threshold need not end the message: 1.22 + dockershim may follow it with ", container runtime not ready: …".
  const m = /pleg was last seen active (\S+) ago; threshold is ([^\s,\]]+)/.exec(message);
  if (!m?.[1] || !m[2]) throw new Error(`no "last seen active" in "${message}"`);
  return [parseGoDurationSeconds(m[1]), parseGoDurationSeconds(m[2])];
}

async function runWindow(w: PlegWindow, watch: NodeWatch, kitChecks: KitWindowChecks): Promise<void> {
  const recording = startTimeline(w);
  try {
    await windowWith(w, watch, kitChecks, recording);
  } finally {
    // A window that failed before stop(): the recording would run on for its 9 minutes and keep the
    // worker from exiting.
    recording.kill();
  }
}

async function windowWith(w: PlegWindow, watch: NodeWatch, kitChecks: KitWindowChecks, recording: Recording): Promise<void> {
  const { cluster, gateway, context, scratch, heartbeats } = w;
  // As an SRE with the panel open a while: the recording has relisted on the runtime and seen one of the
  // kubelet's periodic status posts (one a minute while nothing changes), which gives the status loop's
  // phase. A fresh kubelet's first posts (registration, its fast start-up update) are off that phase, and
  // the first periodic one can come later than a minute after them (92 s on the real 1.36.2). The kit's
  // own checks on the healthy node run during that wait (the window is no longer for them); the freeze
  // comes after both.
  const openedAt = Date.now();
  const [kitBefore, periodic] = await Promise.allSettled([
    kitChecks.beforeFreeze?.(w),
    until('a periodic node status post seen by the watch', () => (heartbeats.some((h) => h.atMs > openedAt + 2_000) ? true : undefined), 120_000, 250),
  ]);
  for (const r of [kitBefore, periodic]) if (r.status === 'rejected') throw r.reason;
  await new Promise((r) => setTimeout(r, 2_000));
  const frozeAt = Date.now();
  const freeze = script('freeze');
  expect(freeze.status, freeze.stderr).toBe(0);
  try {
    const message = await until('"PLEG is not healthy" through the watch', () => {
      const r = readyOf(watch, cluster);
      return r?.status === 'False' && r.message?.includes('PLEG is not healthy') ? r.message : undefined;
    }, PLEG_DEADLINE_MS, 1_000);
    const after = (Date.now() - frozeAt) / 1000;
    // The kubelet's threshold is 3 minutes; its status loop reports within seconds of passing it.
    expect(after).toBeGreaterThan(180);
    const [seenAgo, threshold] = lastSeen(message);
    expect(threshold).toBe(180);
    expect(seenAgo).toBeGreaterThan(180);

    // `pleg-doctor nodes`: the live verdict with the kubelet's numbers.
    const nodes = cli(['nodes', '--kubeconfig', cluster.kubeconfig, '--context', context, '--timeout', '20s']);
    const line = nodes.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l['name'] === cluster.nodeName);
    expect(line, nodes.stdout + nodes.stderr).toBeDefined();
    expect(line?.['verdict']).toBe('pleg');
    expect(String(line?.['message'])).toContain('PLEG is not healthy: pleg was last seen active');
    const [nodesSeenAgo] = lastSeen(String(line?.['message']));
    expect(line?.['plegLastSeenAgoSeconds']).toBeCloseTo(nodesSeenAgo, 2);
    expect(line?.['plegThresholdSeconds']).toBe(180);

    // `pleg-doctor classify` on the Node as kubectl returns it.
    const file = join(scratch.dir, 'node.json');
    writeFileSync(file, kubectl(cluster, ['get', 'node', cluster.nodeName, '-o', 'json']));
    const classified = cli(['classify', file]);
    const c = JSON.parse(classified.stdout.trim().split('\n')[0] ?? '{}') as Record<string, unknown>;
    expect(c['verdict']).toBe('pleg');
    const [classifySeenAgo] = lastSeen(String(c['message']));
    expect(c['plegLastSeenAgoSeconds']).toBeCloseTo(classifySeenAgo, 2);
    expect(String(c['message'])).toBe(readyCondition(cluster).message);

    // `pleg-doctor diagnose` as on the node itself: the API tier through the node proxy, the node side from
    // the runtime's socket here (--cri-socket). A failing check, and it is the hung runtime, seen from both.
    const run = cli(['diagnose', '--kubeconfig', cluster.kubeconfig, '--context', context, '--node', cluster.nodeName, '--format', 'json', '--proxy-timeout', '10000', '--metrics-interval', '1000', '--cri-socket', cluster.criSocket], {}, 120_000);
    expect(run.status, run.stderr).toBe(EXIT_CHECK_FAILS);
    const checks = (JSON.parse(run.stdout) as { checks?: { id?: string; verdict?: string; evidence?: string[] }[] }).checks ?? [];
    const hungCli = checks.find((k) => k.id === 'runtime-hung');
    expect(hungCli?.verdict, run.stdout.slice(0, 2000)).toBe('fail');
    expect(hungCli?.evidence?.join('\n'), run.stdout.slice(0, 3000)).toMatch(/^CRI snapshot: .*\((Version|ListPodSandbox|ListContainers)/mu);

    // The same collection and catalog in process, to read the evidence: the real kubelet's endpoints
    // while its runtime is frozen.
    const evidence: NodeEvidence = await collectNodeEvidence({
      gateway,
      context,
      node: await gateway.getNode(context, cluster.nodeName),
      useNodeProxy: true,
      proxyTimeoutMs: 10_000,
      metricsIntervalMs: 1_000,
      logger: silentLogger,
      nodeSideSkipReason: 'node access is not configured in this test',
    });
    const diagnosis = diagnose(evidence);
    if ((kitChecks.metricsWhileFrozen ?? 'timeout') === 'timeout') expect(evidence.metrics).toMatchObject({ status: 'timeout', deadlineMs: 10_000 });
    else expect(evidence.metrics.status).toBe('ok');
    expect(evidence.healthz.status).toBe('ok');
    expect(evidence.configz).toMatchObject({ status: 'ok', value: { runtimeRequestTimeoutMs: 30_000 } });
    expect(evidence.goroutines.status).toBe('ok');
    if (evidence.goroutines.status === 'ok') {
      expect(['ListPodSandbox', 'ListContainers']).toContain(evidence.goroutines.value.relist?.blockedIn);
    }
    expect(diagnosis.verdict).toBe('pleg');
    const hung = diagnosis.findings.find((f) => f.checkId === 'runtime-hung');
    expect(hung, diagnosis.findings.map((f) => `${f.checkId}: ${f.title}`).join('\n')).toMatchObject({ severity: 'problem', title: 'The container runtime is not answering CRI calls' });
    expect(hung?.evidence.map((e) => e.text).join('\n')).toMatch(kitChecks.hungEvidence ?? /ListPodSandbox|metrics/);
    await kitChecks.whilePleg?.(w, { message, evidence, diagnosis, frozeAt });
  } finally {
    const thaw = script('thaw');
    expect(thaw.status, thaw.stderr).toBe(0);
  }
  await until('Ready=True again through the watch', () => (readyOf(watch, cluster)?.status === 'True' ? true : undefined), 90_000, 500);
  expect(readyCondition(cluster).status).toBe('True');
  await new Promise((r) => setTimeout(r, 3_000));
  const session = await recording.stop();
  checkRecording(w, session, frozeAt, kitChecks.predictsReadyPost ?? true);
  await kitChecks.afterRecovery?.(w, session, frozeAt);
}

interface Recording {
  stop: () => Promise<TimelineSession>;
  /** SIGKILL when still running (no file). */
  kill: () => void;
}

/** `pleg-doctor timeline` on the node's CRI socket and the API server, until stop() (Ctrl-C: it writes the file). */
function startTimeline({ cluster, context, scratch }: PlegWindow): Recording {
  const out = join(scratch.dir, 'timeline.json');
  const socket = cluster.criSocket;
  const child: ChildProcess = spawn(process.execPath, [join(REPO, 'dist/cli.js'), 'timeline', '--node', cluster.nodeName, '--kubeconfig', cluster.kubeconfig, '--context', context, '--cri-socket', socket, '--for', '9m', '--out', out], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (b: Buffer) => (stderr += b.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
    stop: async () => {
      child.kill('SIGINT');
      const code = await Promise.race([exited, new Promise<'hung'>((r) => setTimeout(() => r('hung'), 30_000))]);
      if (code === 'hung') child.kill('SIGKILL');
      expect(code, stderr.slice(-3000)).toBe(130);
      // Kept for whoever reads a failure (CI keeps test-results/).
      mkdirSync(join(REPO, 'test-results'), { recursive: true });
      copyFileSync(out, join(REPO, 'test-results', `realk8s-${cluster.kit}-timeline.json`));
      return JSON.parse(readFileSync(out, 'utf8')) as TimelineSession;
    },
  };
}

/** The recording against the kubelet: its Ready lane, and each prediction in force before its event. */
function checkRecording({ cluster, posts }: PlegWindow, session: TimelineSession, frozeAt: number, predictsReadyPost: boolean): void {
  const t0 = Date.parse(session.startedAt);
  const since = (epochMs: number): string => `T+${((epochMs - frozeAt) / 1000).toFixed(1)}s`;
  const after = posts.filter((p) => p.atMs > frozeAt);
  const runtimeDown = after.find((p) => p.status === 'False' && p.message.includes('container runtime is down'));
  const pleg = after.find((p) => p.message.includes('PLEG is not healthy'));
  const ready = after.find((p) => pleg !== undefined && p.atMs > pleg.atMs && p.status === 'True');
  if (runtimeDown === undefined || pleg === undefined || ready === undefined) throw new Error(`the watch did not see the three posts: ${JSON.stringify(after)}`);
  const [seenAgoS] = lastSeen(pleg.message);
  const crossing = pleg.atMs - seenAgoS * 1000 + 180_000;

  // The Ready lane saw each post within 3 s of this test's watch.
  for (const post of [runtimeDown, pleg, ready]) {
    const lane = session.ready.find((r) => r.status === post.status && r.message === post.message && t0 + r.atMs > frozeAt);
    expect(lane, `${post.status} "${post.message}" missing from the Ready lane: ${JSON.stringify(session.ready)}`).toBeDefined();
    expect(Math.abs(t0 + (lane?.atMs ?? NaN) - post.atMs), `Ready lane vs API server for "${post.message}"`).toBeLessThan(3_000);
  }

  const events: [PredictedEvent, number][] = [
    ['runtime-down-posted', runtimeDown.atMs],
    ['pleg-unhealthy', crossing],
    ['pleg-notready-posted', pleg.atMs],
    ...(predictsReadyPost ? [['ready-posted', ready.atMs] as [PredictedEvent, number]] : []),
  ];
  const report: string[] = [];
  const wrong: string[] = [];
  for (const [event, actual] of events) {
    // The prediction in force a second before the event: made before it, not as it reached us. Except a
    // Ready post within a second of the runtime's return: a sync that waited in Version evaluates at once
    // (postPredictions.ts), and nothing foretells the thaw, so the prediction made at the thaw must do.
    const thawedMs = session.stalls?.at(-1)?.untilMs;
    const atThaw = event === 'ready-posted' && thawedMs !== undefined && actual - t0 - thawedMs < 1_000;
    const p = predictionBefore(session.predictions ?? [], event, atThaw ? actual - t0 : actual - t0 - 1_000);
    if (typeof p?.predictedAtMs !== 'number') {
      wrong.push(`no ${event} prediction before ${since(actual)}`);
      continue;
    }
    const predicted = t0 + p.predictedAtMs;
    const line = `${event}: happened ${since(actual)}, predicted ${since(predicted)} (off by ${((predicted - actual) / 1000).toFixed(1)} s), said ${((actual - t0 - p.atMs) / 1000).toFixed(1)} s before`;
    if (Math.abs(predicted - actual) < 5_000) report.push(line);
    else {
      const other = event === 'runtime-down-posted' ? runtimeDownInsideGap(session, actual - t0 - 1_000) : undefined;
      const otherLine = other !== undefined ? `; a sync started inside the stall's gap: with the freeze at the gap's other end the post comes ${since(t0 + other)}` : '';
      report.push(`${line}${otherLine}`);
      if (other === undefined || Math.abs(t0 + other - actual) >= 5_000) wrong.push(`${line}${otherLine}`);
    }
  }
  console.log(`timeline predictions on the real kubelet ${cluster.kit} (runtime request timeout 30 s):\n  ${report.join('\n  ')}`);
  expect(wrong, `predictions: ${JSON.stringify(session.predictions)}`).toEqual([]);
}

/**
 * The runtime froze somewhere between the feed's last answer and its next call's start, a gap of up to
 * 1 s (StallDetector puts the stall in its middle). A node-status sync that starts inside that gap hangs
 * or not depending on where in the gap the freeze really was, and the "container runtime is down" post
 * then comes one hung sync (30 s) or one pause (10 s) later: the model cannot tell which. When the sync
 * loop at `nowMs` had a sync start inside the gap, this is the post's instant with the freeze at whichever
 * end of the gap changes the answer; undefined when no sync started inside it (the prediction had to be
 * right).
 */
function runtimeDownInsideGap(session: TimelineSession, nowMs: number): number | undefined {
  const loop = syncLoopOf(session, nowMs);
  const stall = loop.stall;
  if (stall === undefined || stall.kind !== 'hang') return undefined;
  const at = (sinceMs: number): number | undefined => {
    const moved = { ...stall, sinceMs };
    return firstEvaluationFrom({ ...loop, stall: moved }, runtimeDownFromMs(stall));
  };
  const here = at(stall.sinceMs);
  for (const sinceMs of [stall.sinceMs - 500, stall.sinceMs + 500]) {
    const there = at(sinceMs);
    if (there !== undefined && there !== here) return there;
  }
  return undefined;
}
