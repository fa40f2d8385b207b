// The klog of a real kubelet 1.22.4 as k3s ships it (k3s-io/klog v2.9.0-k3s2: the standard
// `Lmmdd hh:mm:ss.uuuuuu threadid file:line] msg` header, structured InfoS/ErrorS bodies), captured through
// three dockerd freezes (test/fixtures/k8s-1.22-fault). The reader must count what the lines say; each
// expectation is read from the capture with a plain text search, not from the reader.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readKubeletLog } from '../../../../src/core/parse/logReader';

const DIR = join(__dirname, '../../../fixtures/k8s-1.22-fault');

describe.each(['run1-kubelet-fault.log', 'kubelet-fault.log', 'run3-rrt2m-kubelet-fault.log'])('%s', (file) => {
  const text = readFileSync(join(DIR, file), 'utf8');
  const lines = text.split('\n').filter((l) => l !== '');
  const count = (needle: string): number => lines.filter((l) => l.includes(needle)).length;
  const lineOf = (needle: string, last = false): number => (last ? lines.findLastIndex((l) => l.includes(needle)) : lines.findIndex((l) => l.includes(needle))) + 1;
  const ages = lines.map((l) => /pleg was last seen active (?:(\d+)m)?([\d.]+)s ago/u.exec(l)).filter((m) => m !== null).map((m) => Number(m[1] ?? 0) * 60 + Number(m[2]));
  const { summary } = readKubeletLog(text);

  it('every line has the klog header the reader knows', () => {
    expect(lines.every((l) => /^[IWEF]\d{4} \d\d:\d\d:\d\d\.\d{6} +\d+ [\w.]+:\d+\] /u.test(l))).toBe(true);
    expect(summary.lines).toBe(lines.length);
  });

  it('relist failures, runtime status failures, NotReady and Ready as the lines say', () => {
    expect(summary.relistFailures).toBe(count('"GenericPLEG: Unable to retrieve pods"'));
    // The runtime status poll failing (Status timed out) or answering not ready (dockershim's own docker
    // timeout fired first: "Container runtime not ready" runtimeReady="… DockerDaemonNotReady …"), and
    // "container runtime is down" anywhere but a skip line (here the "Node became not ready" condition).
    const downOutsideSkips = lines.filter((l) => l.includes('container runtime is down') && !l.includes('"Skipping pod synchronization"')).length;
    expect(summary.runtimeDownLines).toBe(count('"Container runtime sanity check failed"') + count('"Container runtime not ready"') + downOutsideSkips);
    // 1.22's form: "Housekeeping took longer than 15s" with seconds=, not expected=/actual=.
    expect(summary.housekeepingSlowLines).toBe(count('"Housekeeping took longer than 15s"'));
    expect(summary.housekeepingSlowLines).toBeGreaterThan(0);
    expect(summary.notReadyTransitions).toBe(count('"Node became not ready"'));
    expect(summary.readyTransitions).toBe(count('event="NodeReady"'));
    expect(summary.kubeletRestarts).toBe(0);
  });

  it('one PLEG stretch, from the first to the last "PLEG is not healthy" line, with the longest age', () => {
    expect(summary.plegStretches).toHaveLength(1);
    const [stretch] = summary.plegStretches;
    expect(stretch?.firstLine).toBe(lineOf('PLEG is not healthy'));
    expect(stretch?.lastLine).toBe(lineOf('PLEG is not healthy', true));
    expect(stretch?.maxLastSeenAgoSeconds).toBeCloseTo(Math.max(...ages), 5);
  });
});
