// The simulator against a real kubelet 1.32 whose containerd was frozen (SIGSTOP) for 300.1 s. Every
// expected instant comes from the recorded log and fault-times.json; the scenario's times are derived
// from them too, so nothing here is a hand-copied constant. The README promises "within 30 ms on every
// milestone": the simulator is deterministic and measures 0.6–29.2 ms off the recording (recovery is the
// farthest), with exactly the recorded number of failed relists and skip lines.

import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseScenario } from '../../../../../src/core/pleg/sim/scenario';
import { simulate } from '../../../../../src/core/pleg/sim/simulate';
import type { SimulationRun } from '../../../../../src/core/pleg/sim/simulationRun';
import { parseGoDurationNs } from '../../../../../src/core/util/goDuration';
import { readLogLines, type LogLine } from '../../../../support/kubeletLogLines';
import { DEFAULT_WHAT_IF, runWhatIf } from '../../../../../src/core/timeline/whatIf/whatIfTimeline';

const dir = new URL('../../../../fixtures/real-kubelet-1.32/', import.meta.url);
const read = (name: string): string => readFileSync(new URL(name, dir), 'utf8');
const ONE_BACKOFF_STEP_MS = 5_000;
/** The README's claim, per milestone. */
const MILESTONE_TOLERANCE_MS = 30;
const PLEG_LINE = /PLEG is not healthy: pleg was last seen active (?<ago>(?:\d+(?:\.\d+)?(?:ns|us|µs|μs|ms|s|m|h))+) ago; threshold is (?<thr>\S+?)(?:\]|$|,)/u;

interface Milestones {
  firstRelistError: number;
  firstRuntimeDownSkip: number;
  firstPlegSkip: number;
  firstPlegAgoMs: number;
  recovery: number;
  relistErrors: number;
  skipsDuringFreeze: number;
}

const isSkip = (e: LogLine): boolean => e.msg === 'Skipping pod synchronization';

/** The milestones of a freeze starting at `freezeEpochMs`, read from parsed log entries. */
function milestones(entries: readonly LogLine[], freezeEpochMs: number, recoveryOf: (afterLastSkip: number) => number): Milestones {
  const after = entries.filter((e) => (e.epochMs ?? 0) >= freezeEpochMs);
  const first = (pred: (e: LogLine) => boolean, what: string): LogLine => {
    const hit = after.find(pred);
    if (!hit) throw new Error(`no ${what} after the freeze`);
    return hit;
  };
  const relistErr = (e: LogLine): boolean => e.msg === 'GenericPLEG: Unable to retrieve pods';
  const plegSkip = first((e) => isSkip(e) && PLEG_LINE.test(e.err ?? ''), 'PLEG skip line');
  const ago = PLEG_LINE.exec(plegSkip.err ?? '')?.groups?.['ago'] as string;
  const skips = after.filter(isSkip);
  const lastSkip = skips[skips.length - 1] as LogLine;
  return {
    firstRelistError: first(relistErr, 'relist error').epochMs as number,
    firstRuntimeDownSkip: first((e) => isSkip(e) && e.err === 'container runtime is down', 'runtime-down skip').epochMs as number,
    firstPlegSkip: plegSkip.epochMs as number,
    firstPlegAgoMs: Number(parseGoDurationNs(ago)) / 1e6,
    recovery: recoveryOf(lastSkip.epochMs as number),
    relistErrors: after.filter(relistErr).length,
    skipsDuringFreeze: skips.length,
  };
}

describe('simulating the real frozen-runtime recording (kubelet 1.32, containerd SIGSTOP 300.1 s)', () => {
  let real: Milestones;
  let sim: Milestones;
  let timeline: SimulationRun;
  let freezeEpochMs: number;

  beforeAll(() => {
    const log = readLogLines(read('kubelet-runtime-stopped.log'), 2026);
    const fault = JSON.parse(read('fault-times.json')) as { sigstop_epoch: number; stall_seconds: number };
    const configz = JSON.parse(read('configz.json')) as { kubeletconfig: { runtimeRequestTimeout: string; nodeStatusUpdateFrequency: string } };
    freezeEpochMs = fault.sigstop_epoch * 1000;

    // t = 0 is the sync loop's first pass: the kubelet's first "Skipping pod synchronization" line.
    const loopStart = log.find(isSkip)?.epochMs;
    if (loopStart === undefined) throw new Error('the log has no first sync loop pass');
    const base = JSON.parse(readFileSync(new URL('../../../../fixtures/scenarios/frozen-runtime.json', import.meta.url), 'utf8')) as Record<string, unknown>;
    const scenario = parseScenario({
      ...base,
      startTime: new Date(Math.floor(loopStart)).toISOString(),
      runtimeHangs: [{ startMs: freezeEpochMs - Math.floor(loopStart), durationMs: fault.stall_seconds * 1000 }],
      kubelet: {
        ...(base['kubelet'] as object),
        runtimeRequestTimeout: configz.kubeletconfig.runtimeRequestTimeout,
        nodeStatusUpdateFrequency: configz.kubeletconfig.nodeStatusUpdateFrequency,
      },
    });
    timeline = simulate(scenario);
    const simLog = readLogLines(timeline.logLines.map((l) => l.line).join('\n'), 2026);
    // Every line the simulator writes is a kubelet log line the reader places in time.
    expect(simLog.filter((e) => e.epochMs === undefined)).toEqual([]);

    // Recovery in the real log: the first syncLoop pass ("SyncLoop (…)") after the last skip line.
    real = milestones(log, freezeEpochMs, (lastSkip) => {
      const pass = log.find((e) => (e.epochMs ?? 0) > lastSkip && e.msg.startsWith('SyncLoop ('));
      if (!pass) throw new Error('the real log never shows a sync loop pass after the freeze');
      return pass.epochMs as number;
    });
    // In the simulation: the end of the skip window that the freeze opened.
    sim = milestones(simLog, freezeEpochMs, () => {
      const w = timeline.skipWindows.find((s) => scenario.startEpochMs + s.startMs >= freezeEpochMs);
      if (!w || w.endMs === null) throw new Error('the simulated sync loop never recovered');
      return scenario.startEpochMs + w.endMs;
    });
  });

  it('the real log shows the expected story (sanity of the extraction)', () => {
    expect(real.firstRelistError - freezeEpochMs).toBeGreaterThan(110_000);
    expect(real.firstPlegSkip).toBeGreaterThan(real.firstRuntimeDownSkip);
    expect(real.recovery - freezeEpochMs).toBeGreaterThan(300_000);
  });

  it('first relist error (GetPods hits runtimeRequestTimeout) within 30 ms', () => {
    expect(Math.abs(sim.firstRelistError - real.firstRelistError)).toBeLessThanOrEqual(MILESTONE_TOLERANCE_MS);
  });

  it('first "container runtime is down" skip (after housekeeping blocked the loop) within 30 ms', () => {
    expect(Math.abs(sim.firstRuntimeDownSkip - real.firstRuntimeDownSkip)).toBeLessThanOrEqual(MILESTONE_TOLERANCE_MS);
    // Nothing is skipped during the first two minutes: the loop sits in housekeeping.
    expect(sim.firstRuntimeDownSkip - freezeEpochMs).toBeGreaterThan(scenarioTimeoutMs() - ONE_BACKOFF_STEP_MS);
  });

  it('first "PLEG is not healthy" line and its "last seen active" value within 30 ms', () => {
    expect(Math.abs(sim.firstPlegSkip - real.firstPlegSkip)).toBeLessThanOrEqual(MILESTONE_TOLERANCE_MS);
    expect(Math.abs(sim.firstPlegAgoMs - real.firstPlegAgoMs)).toBeLessThanOrEqual(MILESTONE_TOLERANCE_MS);
    expect(sim.firstPlegAgoMs).toBeGreaterThan(180_000);
  });

  it('recovery (first unskipped sync loop pass after SIGCONT) within 30 ms', () => {
    expect(Math.abs(sim.recovery - real.recovery)).toBeLessThanOrEqual(MILESTONE_TOLERANCE_MS);
  });

  it('the same number of failed relists and of skip lines', () => {
    expect(sim.relistErrors).toBe(real.relistErrors);
    expect(sim.skipsDuringFreeze).toBe(real.skipsDuringFreeze);
  });

  it('joins the errors as the kubelet does, and the node goes NotReady with that text', () => {
    const joined = timeline.nodeReady.find((p) => p.message.startsWith('[container runtime is down, PLEG is not healthy: pleg was last seen active '));
    expect(joined?.status).toBe('False');
    expect(joined?.reason).toBe('KubeletNotReady');
    expect(joined?.message).toMatch(/; threshold is 3m0s\]$/u);
    expect(timeline.nodeReady[timeline.nodeReady.length - 1]?.status).toBe('True');
  });

  it('the what-if timeline with its defaults (the README screenshot) turns PLEG unhealthy 179 s after the freeze, as the real kubelet did', () => {
    // In the recording: the last good relist started `firstPlegAgoMs` before the first PLEG line, and
    // Healthy() turns false once that is more than the 3-minute threshold old.
    const realUnhealthyAfterFreezeMs = real.firstPlegSkip - real.firstPlegAgoMs + 180_000 - freezeEpochMs;
    const whatIf = runWhatIf(DEFAULT_WHAT_IF);
    const first = whatIf.unhealthy[0];
    if (first === undefined) throw new Error('the what-if defaults never turn PLEG unhealthy');
    const whatIfAfterFreezeMs = first.fromMs - DEFAULT_WHAT_IF.freezeAtS * 1000;
    expect(Math.round(whatIfAfterFreezeMs / 1000)).toBe(179);
    expect(Math.round(realUnhealthyAfterFreezeMs / 1000)).toBe(179);
    expect(Math.abs(whatIfAfterFreezeMs - realUnhealthyAfterFreezeMs)).toBeLessThanOrEqual(500);
  });

  function scenarioTimeoutMs(): number {
    const configz = JSON.parse(read('configz.json')) as { kubeletconfig: { runtimeRequestTimeout: string } };
    return Number(parseGoDurationNs(configz.kubeletconfig.runtimeRequestTimeout)) / 1e6;
  }
});
