// The kubelet log as diagnosis evidence, read from real kubelet logs: the 1.32 kubelet whose containerd was
// SIGSTOPped for 300 s (test/fixtures/real-kubelet-1.32/kubelet-runtime-stopped.log), and the fault windows
// of the real 1.36 + containerd 2.3 and 1.22 + dockershim clusters (/work/shared/*/observed, copied to
// test/fixtures/logs/observed-*). Every figure below is what those logs print.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { kubeletLogEvidence } from '../../../../src/core/diagnose/kubeletLog';

const fixture = (path: string): string => readFileSync(new URL(`../../../fixtures/${path}`, import.meta.url), 'utf8');
const live = { origin: 'ssh', window: 'journalctl -u kubelet over SSH, last 30 min', contemporaneous: true } as const;

describe('kubeletLogEvidence on real kubelet logs', () => {
  it('1.32, runtime frozen: the PLEG stretch with its lines, clocks and last-seen value; the two relist failures; the start', () => {
    const e = kubeletLogEvidence(fixture('real-kubelet-1.32/kubelet-runtime-stopped.log'), live);
    expect(e.lines).toBe(5456);
    expect([e.firstClock, e.lastClock]).toEqual(['02:59:17', '03:07:14']);
    expect(e.plegStretches).toEqual([
      { firstLine: 3227, lastLine: 3748, firstClock: '03:03:46', lastClock: '03:05:41', durationSeconds: 115.014215, lines: 24, maxLastSeenAgoSeconds: 298.158109, endsBeforeEndSeconds: 92.819464 },
    ]);
    // The skip stretch starts with "container runtime is down" a minute before PLEG crosses its threshold.
    expect(e.skippedSyncStretches.map((s) => [s.firstLine, s.lastLine, s.reasons])).toEqual([
      [236, 236, ['runtime-status-pending', 'pleg-never']],
      [2942, 3748, ['runtime-down', 'pleg-stale']],
    ]);
    expect(e.relistFailures.count).toBe(2);
    expect(e.relistFailures.recent.map((r) => [r.line, r.clock, r.err])).toEqual([
      [2933, '03:02:44', 'rpc error: code = DeadlineExceeded desc = context deadline exceeded'],
      [3476, '03:04:45', 'rpc error: code = DeadlineExceeded desc = context deadline exceeded'],
    ]);
    expect(e.runtimeDown.count).toBe(2);
    expect(e.kubeletStarts.recent).toEqual([{ line: 159, clock: '02:59:17', beforeEndSeconds: 477.363974, message: 'Kubelet started (v1.32.10-kubeedge1)' }]);
    expect(e.kubeletRestarts).toBe(0);
    expect(e.notReady.count).toBe(0);
    expect(e.contemporaneous).toBe(true);
  });

  it('1.36 + containerd 2.3 fault window: the NotReady and Ready transitions at their lines', () => {
    const e = kubeletLogEvidence(fixture('logs/observed-1.36-containerd2.3-fault.log'), live);
    expect(e.notReady.recent.map((r) => [r.line, r.clock])).toEqual([[19, '03:20:26']]);
    expect(e.ready.recent.map((r) => [r.line, r.clock, r.beforeEndSeconds])).toEqual([[107, '03:23:17', 0]]);
    expect(e.plegStretches.map((s) => [s.firstLine, s.lastLine, s.maxLastSeenAgoSeconds])).toEqual([[94, 104, 197.309175]]);
    expect(e.relistFailures.count).toBe(6);
  });

  it('1.22 + dockershim fault window: relist failures, one with the dockershim\'s own timeout text', () => {
    const e = kubeletLogEvidence(fixture('logs/observed-1.22-dockershim-fault.log'), live);
    expect(e.relistFailures.count).toBe(7);
    expect(e.relistFailures.recent.map((r) => r.err)).toContain('rpc error: code = Unknown desc = operation timeout: context deadline exceeded');
    expect(e.plegStretches.map((s) => [s.firstClock, s.lastClock, s.maxLastSeenAgoSeconds])).toEqual([['03:00:00', '03:00:55', 239.034597]]);
  });

  it('a restart: both starts with their pids, the restart counted, stretches split at it', () => {
    const e = kubeletLogEvidence(fixture('logs/contextual-1.32-restart.log'), live);
    expect(e.kubeletRestarts).toBe(1);
    expect(e.kubeletStarts.recent.map((r) => [r.line, r.message])).toEqual([
      [1, 'Kubelet started (v1.32.10)'],
      [5, 'Kubelet restarted (v1.32.10), pid 40001'],
    ]);
    expect(e.plegStretches).toHaveLength(2);
  });

  it('a log cut by the cap or the deadline is not "now", whatever the caller says', () => {
    const e = kubeletLogEvidence(fixture('logs/observed-1.22-dockershim-fault.log'), { ...live, cut: 'cut at the 16 MB cap' });
    expect(e.contemporaneous).toBe(false);
    expect(e.cut).toBe('cut at the 16 MB cap');
  });

  it('an empty journal ("-- No entries --") is a log with nothing in it, not an error', () => {
    const e = kubeletLogEvidence('-- No entries --\n', live);
    expect(e).toMatchObject({ lines: 1, plegStretches: [], relistFailures: { count: 0 }, kubeletRestarts: 0 });
  });
});
