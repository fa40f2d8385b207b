// The simulator with the 1.14–1.25 profile and a dockershim kubelet against the three real kubelet 1.22.4 +
// Docker 20.10 fault windows (test/fixtures/k8s-1.22-fault). The logs start at the freeze, so the node
// status loop's phase is taken from the kubelet's first hung Version failure (that sync started
// 10 + 10 s of cAdvisor + the timeout before it); everything after — the runtime-down post, the PLEG post
// three minutes later, the Ready post after SIGCONT, the relist failures and the first PLEG line — is the
// simulator's, held to the recording.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../../../../src/core/pleg/sim/scenario';
import { simulate } from '../../../../../src/core/pleg/sim/simulate';
import { parseGoDurationNs } from '../../../../../src/core/util/goDuration';
import { readLogLines } from '../../../../support/kubeletLogLines';

const DIR = join(__dirname, '../../../../fixtures/k8s-1.22-fault');
const DAY = '2026-11-28';
const wall = (hms: string): number => Date.parse(`${DAY}T${hms}Z`);
const goMs = (d: string): number => Number(parseGoDurationNs(d)) / 1e6;
const AGE = /pleg was last seen active (\S+?) ago/u;
const ONE_BACKOFF_STEP_MS = 5_000;

function realWindow(prefix: string) {
  const ready = readFileSync(join(DIR, `${prefix}ready.log`), 'utf8').split('\n');
  const log = readLogLines(readFileSync(join(DIR, `${prefix}kubelet-fault.log`), 'utf8'), 2026);
  const at = (re: RegExp): string => ready.find((l) => re.test(l))?.slice(0, 8) ?? 'x';
  const ms = (pred: (msg: string, err: string) => boolean): number => log.find((e) => pred(e.msg, e.err ?? ''))?.epochMs ?? NaN;
  const plegPoll = ready.find((l) => /^\d\d:\d\d:\d\d \+\d+s False.*PLEG is not healthy/u.test(l)) ?? '';
  const firstPlegSkip = log.find((e) => e.msg === 'Skipping pod synchronization' && AGE.test(e.err ?? ''));
  const firstAgeMs = goMs(AGE.exec(firstPlegSkip?.err ?? '')?.[1] ?? '0s');
  const lastActiveMs = (firstPlegSkip?.epochMs ?? NaN) - firstAgeMs;
  return {
    sigstopMs: wall(at(/^\d\d:\d\d:\d\d \+0s SIGSTOP/u)),
    sigcontMs: wall(at(/^\d\d:\d\d:\d\d \+0s SIGCONT/u)),
    firstVersionFailureMs: ms((m) => m === 'Version from runtime service failed'),
    firstRelistErrorMs: ms((m) => m === 'GenericPLEG: Unable to retrieve pods'),
    firstPlegSkipMs: firstPlegSkip?.epochMs ?? NaN,
    firstAgeMs,
    plegPostMs: lastActiveMs + goMs(AGE.exec(plegPoll)?.[1] ?? '0s'),
    readyPostMs: log.find((e) => e.msg === 'Recording event message for node' && e.fields.get('event') === 'NodeReady')?.epochMs ?? NaN,
  };
}

describe.each([
  ['run 1', 'run1-', '30s'],
  ['run 2', '', '30s'],
  ['run 3', 'run3-rrt2m-', '2m0s'],
] as const)('kubelet 1.22.4 dockershim, dockerd stopped, %s (runtimeRequestTimeout %s)', (_name, prefix, rrt) => {
  const real = realWindow(prefix);
  const rrtMs = goMs(rrt);
  // t = 0 one minute before the sync that was first caught in the hang started.
  const startEpochMs = real.firstVersionFailureMs - rrtMs - 20_000 - 60_000;
  const timeline = simulate(
    parseScenario({
      name: `k122 ${prefix}`,
      seed: 122,
      duration: `${Math.ceil((real.sigcontMs - startEpochMs) / 1000) + 40}s`,
      kubeletVersion: '1.22.4',
      startTime: new Date(startEpochMs).toISOString(),
      nodeName: 'k122-node',
      pods: { count: 3, containersPerPod: [1, 1, 1] },
      runtimeHangs: [{ startMs: real.sigstopMs - startEpochMs, durationMs: real.sigcontMs - real.sigstopMs }],
      kubelet: { runtimeRequestTimeout: rrt, dockershim: true },
    }),
  );
  const epoch = (t: number): number => startEpochMs + t;
  const posts = timeline.nodeReady.map((p) => ({ ...p, atMs: epoch(p.atMs) })).filter((p) => p.atMs > real.sigstopMs);
  const sim = readLogLines(timeline.logLines.map((l) => l.line).join('\n'), 2026).filter((e) => (e.epochMs ?? 0) >= real.sigstopMs);

  it('the runtime-down post where the real kubelet made it (its first hung Version failure), within 1 s', () => {
    const down = posts.find((p) => p.status === 'False');
    expect(down?.message).toBe('container runtime is down');
    expect(Math.abs((down?.atMs ?? NaN) - real.firstVersionFailureMs)).toBeLessThan(1_000);
  });

  it('the PLEG post three minutes on, within 1 s (a whole node-status cycle after the crossing on this kubelet)', () => {
    const pleg = posts.find((p) => p.message.includes('PLEG is not healthy'));
    // Run 3's post came as dockerd resumed: whether "container runtime is down" is still joined in is a race.
    expect(pleg?.message).toMatch(/PLEG is not healthy: pleg was last seen active \S+ ago; threshold is 3m0s\]?$/u);
    expect(Math.abs((pleg?.atMs ?? NaN) - real.plegPostMs)).toBeLessThan(1_000);
  });

  it('Ready after SIGCONT, within 1.5 s', () => {
    const ready = posts.find((p) => p.status === 'True' && p.atMs > real.sigcontMs);
    expect(Math.abs((ready?.atMs ?? NaN) - real.readyPostMs)).toBeLessThan(1_500);
  });

  it('the first relist failure (GetPods on its deadline) and the first PLEG line', () => {
    const relist = sim.find((e) => e.msg === 'GenericPLEG: Unable to retrieve pods');
    // SIGSTOP is known to the second: the first failing relist started within a second of it.
    expect(Math.abs((relist?.epochMs ?? NaN) - real.firstRelistErrorMs)).toBeLessThan(1_500);
    const plegSkip = sim.find((e) => e.msg === 'Skipping pod synchronization' && AGE.test(e.err ?? ''));
    expect(Math.abs((plegSkip?.epochMs ?? NaN) - real.firstPlegSkipMs)).toBeLessThan(ONE_BACKOFF_STEP_MS);
    expect(Math.abs(goMs(AGE.exec(plegSkip?.err ?? '')?.[1] ?? '0s') - real.firstAgeMs)).toBeLessThan(ONE_BACKOFF_STEP_MS);
  });
});

describe('scenario kubelet.dockershim', () => {
  it('is refused for a kubelet without dockershim (1.24+), naming the field', () => {
    expect(() => parseScenario({ name: 'x', duration: '1m', kubeletVersion: '1.26.15', kubelet: { dockershim: true } })).toThrow(/\$\.kubelet\.dockershim: kubelet 1\.26\.15 has no dockershim/u);
  });
});
