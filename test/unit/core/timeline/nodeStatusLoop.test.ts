// The node-status loop model held to two real kubelet 1.36.2 fault windows (test/fixtures/k8s-1.36-fault):
// from what was known before each post (the freeze, the last heartbeat, then the runtime-down post), the
// model must put every Ready evaluation of the frozen window where the kubelet's own log shows it.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { firstEvaluationFrom, runtimeDownFromMs, syncEvaluations } from '../../../../src/core/timeline/nodeStatusLoop';

const DIR = join(__dirname, '../../../fixtures/k8s-1.36-fault');
const DAY = '2026-11-28';
const RRT_MS = 30_000;

interface Window {
  sigstopMs: number;
  sigcontMs: number;
  /** lastHeartbeatTime of the Ready condition before the freeze. */
  heartbeatBeforeMs: number;
  /** Ends of the node status syncs' Version calls: the kubelet's own Ready evaluations. */
  evaluationsMs: number[];
  /** The first heartbeat of the "container runtime is down" post, and of the PLEG post. */
  runtimeDownHeartbeatMs: number;
  plegHeartbeatMs: number;
  readyHeartbeatMs: number;
}

const wall = (hms: string): number => Date.parse(`${DAY}T${hms}Z`);

function readWindow(runtime: string): Window {
  const script = readFileSync(join(DIR, `pleg-fault-containerd${runtime}.txt`), 'utf8').split('\n');
  const log = readFileSync(join(DIR, `kubelet-pleg-fault-containerd${runtime}.log`), 'utf8').split('\n');
  const at = (re: RegExp, after = 0): string => {
    const line = script.slice(after).find((l) => re.test(l));
    if (line === undefined) throw new Error(`no line ${re} in the ${runtime} window`);
    return line;
  };
  const hb = (line: string): number => Date.parse(/hb=(\S+?)\|/.exec(line)?.[1] ?? '');
  return {
    sigstopMs: wall(at(/SIGSTOP/).slice(0, 8)),
    sigcontMs: wall(at(/SIGCONT/).slice(0, 8)),
    heartbeatBeforeMs: hb(at(/ before: True/)),
    evaluationsMs: log.filter((l) => l.includes('"Version from runtime service failed"')).map((l) => wall(/^E\d{4} (\d\d:\d\d:\d\d\.\d+)/.exec(l)?.[1] ?? '')),
    runtimeDownHeartbeatMs: hb(at(/\|container runtime is down\|/)),
    plegHeartbeatMs: hb(at(/PLEG is not healthy/)),
    readyHeartbeatMs: hb(at(/\+\d+s True\|/, script.findIndex((l) => l.includes('SIGCONT')))),
  };
}

describe.each(['1.6', '2.3'])('kubelet 1.36.2 with containerd %s, stopped', (runtime) => {
  const w = readWindow(runtime);
  const stall = { sinceMs: w.sigstopMs, kind: 'hang' as const };

  it('reads the window (five Version timeouts, 40 s apart)', () => {
    expect(w.evaluationsMs.length).toBeGreaterThanOrEqual(5);
    for (let i = 1; i < w.evaluationsMs.length; i++) {
      const gap = (w.evaluationsMs[i] ?? 0) - (w.evaluationsMs[i - 1] ?? 0);
      expect(gap).toBeGreaterThan(RRT_MS + 10_000);
      expect(gap).toBeLessThan(RRT_MS + 10_500);
    }
  });

  it('from the heartbeat before the freeze: the first evaluation, when "container runtime is down" is posted', () => {
    // The heartbeat is kept to the second: taken at its middle, as syncLoopOf does.
    const predicted = firstEvaluationFrom({ anchorMs: w.heartbeatBeforeMs + 500, stall, runtimeRequestTimeoutMs: RRT_MS }, runtimeDownFromMs(stall));
    const actual = w.evaluationsMs[0] ?? NaN;
    expect(Math.abs((predicted ?? NaN) - actual)).toBeLessThan(1_500);
    // That evaluation is the post: its heartbeat is the same second.
    expect(Math.floor(actual / 1000) * 1000).toBe(w.runtimeDownHeartbeatMs);
  });

  it('from the runtime-down post: every later evaluation of the frozen window, and the PLEG post among them', () => {
    const first = w.evaluationsMs[0] ?? NaN;
    const predicted = [...take(syncEvaluations({ anchorMs: first, stall, runtimeRequestTimeoutMs: RRT_MS }), w.evaluationsMs.length - 1)];
    predicted.forEach((p, i) => expect(Math.abs(p - (w.evaluationsMs[i + 1] ?? NaN))).toBeLessThan(1_000));
    // The PLEG post is the first evaluation after the crossing; its heartbeat is that evaluation's second.
    const plegPost = w.evaluationsMs.find((e) => Math.floor(e / 1000) * 1000 === w.plegHeartbeatMs);
    expect(plegPost).toBeDefined();
  });

  it('after SIGCONT: the next sync posts Ready (the stall ended while the loop slept)', () => {
    const last = w.evaluationsMs.at(-1) ?? NaN;
    const resumed = { ...stall, untilMs: w.sigcontMs + 500 };
    const predicted = firstEvaluationFrom({ anchorMs: last, stall: resumed, runtimeRequestTimeoutMs: RRT_MS }, resumed.untilMs);
    expect(Math.abs((predicted ?? NaN) - (w.readyHeartbeatMs + 500))).toBeLessThan(1_500);
  });
});

describe('syncEvaluations', () => {
  it('runs at 10.2 s while the runtime answers, waits the timeout in a hang, and evaluates at once when it ends', () => {
    const evals = [...take(syncEvaluations({ anchorMs: 0, stall: { sinceMs: 15_000, untilMs: 80_000, kind: 'hang' }, runtimeRequestTimeoutMs: 30_000 }), 5)];
    // 10.2 (before the stall); 20.4 waits until 50.4; 60.6 would wait until 90.6 but the runtime answers at 80;
    // then 10.2 s apart again.
    expect(evals).toEqual([10_200, 50_400, 80_000, 90_200, 100_400]);
  });

  it('a refused runtime does not hold the loop (Version fails at once)', () => {
    const evals = [...take(syncEvaluations({ anchorMs: 0, stall: { sinceMs: 5_000, kind: 'refused' }, runtimeRequestTimeoutMs: 30_000 }), 3)];
    expect(evals).toEqual([10_200, 20_400, 30_600]);
  });
});

function* take<T>(it: Iterable<T>, n: number): Generator<T> {
  if (n <= 0) return;
  let i = 0;
  for (const v of it) {
    yield v;
    if (++i >= n) return;
  }
}
