// The node-status loop of a dockershim kubelet held to three real kubelet 1.22.4 + Docker 20.10 fault
// windows (test/fixtures/k8s-1.22-fault): the loop shape comes from the source (nodeStatusLoopShape.ts:
// wait.Until, cAdvisor's two 10 s docker version calls, then the CRI Version call), not from these runs.
// From what was known before each post, the model must put the kubelet's Ready evaluations, the
// runtime-down post, the PLEG post and the Ready post where the kubelet's own log shows them.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { firstEvaluationFrom, meanSyncPauseMs, runtimeDownFromMs, syncEvaluations } from '../../../../src/core/timeline/nodeStatusLoop';
import { DOCKERSHIM_LOOP, JITTERED_LOOP, nodeStatusLoopShape } from '../../../../src/core/timeline/nodeStatusLoopShape';
import { newTimelineSession } from '../../../../src/core/timeline/newSession';
import { predictPosts } from '../../../../src/core/timeline/postPredictions';
import { applySessionDelta } from '../../../../src/core/timeline/session';

const DIR = join(__dirname, '../../../fixtures/k8s-1.22-fault');
const DAY = '2026-11-28';
const THRESHOLD_MS = 180_000;
const KUBELET = 'v1.22.4+k3s1';
const RUNTIME = 'docker://20.10.24+dfsg1';

const wall = (hms: string): number => Date.parse(`${DAY}T${hms}Z`);

interface Window {
  rrtMs: number;
  sigstopMs: number;
  sigcontMs: number;
  /** Ends of the node status syncs' CRI Version calls: the kubelet's own Ready evaluations. */
  evaluationsMs: number[];
  /** PLEG's last active instant, from the kubelet's first "pleg was last seen active X ago" line. */
  lastActiveMs: number;
  /** The evaluation that posted "PLEG is not healthy": last active + the age its Ready message quotes. */
  plegPostMs: number;
  /** The first poll that saw "container runtime is down", and the one that saw "PLEG is not healthy". */
  runtimeDownPolledMs: number;
  plegPolledMs: number;
  /** The kubelet's NodeReady event after SIGCONT. */
  readyPostMs: number;
}

const seconds = (go: string): number => {
  const m = /^(?:(\d+)m)?([\d.]+)s$/u.exec(go);
  if (m === null) throw new Error(`not a Go duration: ${go}`);
  return Number(m[1] ?? 0) * 60 + Number(m[2]);
};

function readWindow(prefix: string, rrtMs: number): Window {
  const ready = readFileSync(join(DIR, `${prefix}ready.log`), 'utf8').split('\n');
  const log = readFileSync(join(DIR, `${prefix}kubelet-fault.log`), 'utf8').split('\n');
  const logTime = (l: string): number => wall(/^[EIW]\d{4} (\d\d:\d\d:\d\d\.\d+)/u.exec(l)?.[1] ?? 'x');
  const line = (lines: string[], test: (l: string) => boolean, what: string): string => {
    const found = lines.find(test);
    if (found === undefined) throw new Error(`${prefix}: no ${what}`);
    return found;
  };
  const sigstop = line(ready, (l) => /^\d\d:\d\d:\d\d \+0s SIGSTOP/u.test(l), 'SIGSTOP');
  const sigcont = line(ready, (l) => /^\d\d:\d\d:\d\d \+0s SIGCONT/u.test(l), 'SIGCONT');
  const firstPleg = line(log, (l) => l.includes('pleg was last seen active'), 'PLEG line');
  const firstAge = /pleg was last seen active (\S+) ago/u.exec(firstPleg)?.[1] ?? 'x';
  const plegPoll = line(ready, (l) => /^\d\d:\d\d:\d\d \+\d+s False.*PLEG is not healthy/u.test(l), 'PLEG poll');
  const postedAge = /pleg was last seen active (\S+) ago/u.exec(plegPoll)?.[1] ?? 'x';
  const lastActiveMs = logTime(firstPleg) - seconds(firstAge) * 1000;
  return {
    rrtMs,
    sigstopMs: wall(sigstop.slice(0, 8)),
    sigcontMs: wall(sigcont.slice(0, 8)),
    evaluationsMs: log.filter((l) => l.includes('"Version from runtime service failed"')).map(logTime),
    lastActiveMs,
    plegPostMs: lastActiveMs + seconds(postedAge) * 1000,
    runtimeDownPolledMs: wall(line(ready, (l) => /^\d\d:\d\d:\d\d \+\d+s False\|KubeletNotReady\|.*container runtime is down/u.test(l), 'runtime-down poll').slice(0, 8)),
    plegPolledMs: wall(plegPoll.slice(0, 8)),
    readyPostMs: logTime(line(log, (l) => l.includes('event="NodeReady"'), 'NodeReady event')),
  };
}

const RUNS: [string, string, number][] = [
  ['run 1 (30 s)', 'run1-', 30_000],
  ['run 2 (30 s)', '', 30_000],
  ['run 3 (2 min)', 'run3-rrt2m-', 120_000],
];

describe('nodeStatusLoopShape', () => {
  it('a dockershim kubelet (≤ 1.23 on docker) waits in cAdvisor first and does not jitter', () => {
    expect(nodeStatusLoopShape(KUBELET, RUNTIME)).toBe(DOCKERSHIM_LOOP);
    expect(nodeStatusLoopShape('v1.18.20', 'docker://19.3.15')).toBe(DOCKERSHIM_LOOP);
    expect(meanSyncPauseMs(10_000, DOCKERSHIM_LOOP)).toBe(10_000);
  });

  it('containerd, a 1.24+ kubelet (cri-dockerd) or an unknown version keep the CRI loop', () => {
    expect(nodeStatusLoopShape('v1.22.4', 'containerd://1.5.8')).toBe(JITTERED_LOOP);
    expect(nodeStatusLoopShape('v1.26.15', 'docker://24.0.7')).toBe(JITTERED_LOOP);
    expect(nodeStatusLoopShape(undefined, RUNTIME)).toBe(JITTERED_LOOP);
    expect(nodeStatusLoopShape('not-a-version', RUNTIME)).toBe(JITTERED_LOOP);
  });
});

describe.each(RUNS)('kubelet 1.22.4 (dockershim) with dockerd stopped, %s', (_name, prefix, rrtMs) => {
  const w = readWindow(prefix, rrtMs);
  const stall = { sinceMs: w.sigstopMs, kind: 'hang' as const };
  const loop = (anchorMs: number, s: typeof stall | (typeof stall & { untilMs: number }) = stall) => ({ anchorMs, stall: s, runtimeRequestTimeoutMs: rrtMs, shape: DOCKERSHIM_LOOP });

  it('reads the window', () => {
    expect(w.evaluationsMs.length).toBeGreaterThanOrEqual(2);
    expect(w.plegPostMs).toBeGreaterThan(w.lastActiveMs + THRESHOLD_MS);
  });

  it('the first hung evaluation (the runtime-down post) lies where the loop puts it for any phase', () => {
    // The phase before the freeze is unknown: the last sync before it evaluated somewhere in the pause.
    const firsts: number[] = [];
    for (let anchor = w.sigstopMs - 10_000; anchor < w.sigstopMs; anchor += 250) {
      firsts.push(firstEvaluationFrom(loop(anchor), runtimeDownFromMs(stall)) ?? NaN);
    }
    const first = w.evaluationsMs[0] ?? NaN;
    // SIGSTOP is known to the second: a second of slack on each side.
    expect(first).toBeGreaterThanOrEqual(Math.min(...firsts) - 1_000);
    expect(first).toBeLessThanOrEqual(Math.max(...firsts) + 1_000);
    // That evaluation is the post the 5 s poll saw next.
    expect(w.runtimeDownPolledMs).toBeGreaterThanOrEqual(first - 1_000);
    expect(w.runtimeDownPolledMs).toBeLessThan(first + 6_000);
  });

  it('from the runtime-down post: every later evaluation of the frozen window', () => {
    const first = w.evaluationsMs[0] ?? NaN;
    const it = syncEvaluations(loop(first, { ...stall, untilMs: w.sigcontMs + 500 }));
    for (const actual of w.evaluationsMs.slice(1)) expect(Math.abs((it.next().value ?? NaN) - actual)).toBeLessThan(500);
  });

  it('from the runtime-down post: the PLEG post, within 1 s and before it happens', () => {
    const first = w.evaluationsMs[0] ?? NaN;
    const predicted = firstEvaluationFrom(loop(first), w.lastActiveMs + THRESHOLD_MS) ?? NaN;
    expect(Math.abs(predicted - w.plegPostMs)).toBeLessThan(1_000);
    expect(w.plegPolledMs).toBeGreaterThanOrEqual(predicted - 1_000);
  });

  it('after SIGCONT: the next sync posts Ready', () => {
    const last = w.evaluationsMs.at(-1) ?? NaN;
    const resumed = { ...stall, untilMs: w.sigcontMs + 500 };
    const predicted = firstEvaluationFrom(loop(last, resumed), Math.max(resumed.untilMs, last + 1)) ?? NaN;
    expect(Math.abs(predicted - w.readyPostMs)).toBeLessThan(1_000);
  });

  it("the session's predictions: the PLEG post predicted at the runtime-down post, within 5 s and ahead", () => {
    const t0 = w.sigstopMs;
    const rel = (ms: number): number => ms - t0;
    const first = rel(w.evaluationsMs[0] ?? NaN);
    const s = newTimelineSession({ node: 'k122-node', source: 'live', startedAt: new Date(t0), settings: { runtimeRequestTimeoutMs: rrtMs, profile: '1.14-1.25' }, kubeletVersion: KUBELET });
    const lastActive = rel(w.lastActiveMs);
    applySessionDelta(s, {
      durationMs: first,
      containerRuntimeVersion: RUNTIME,
      relists: [{ startMs: lastActive, endMs: lastActive + 10, ok: true, rpcs: [], podsInspected: [], events: 0, discards: 0, sinceLastRelistStartMs: 1_000 }],
      ready: [{ atMs: first, status: 'False', reason: 'KubeletNotReady', message: 'container runtime is down' }],
      nodeStatusPosts: [{ atMs: first, source: 'watch' }],
      stalls: [{ sinceMs: 0, kind: 'hang' }],
    });
    const p = predictPosts(s, first + 1_000);
    const predicted = p.at['pleg-notready-posted'] ?? NaN;
    expect(Math.abs(predicted - rel(w.plegPostMs))).toBeLessThan(5_000);
    expect(predicted).toBeGreaterThan(first + 1_000);
  });
});
