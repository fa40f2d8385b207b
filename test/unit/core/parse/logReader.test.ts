import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readKubeletLog, type LogSummary, type StretchSummary } from '../../../../src/core/parse/logReader';
import { classifyLogLine } from '../../../../src/core/parse/logReaderLine';
import { JSON_FIXTURES, expectedStretches, fixtureText, plegPoints } from '../../../support/jsonLogWindow';

const fixture = (name: string): string => readFileSync(new URL(`../../../fixtures/logs/${name}`, import.meta.url), 'utf8');
const REAL = readFileSync(new URL('../../../fixtures/real-kubelet-1.32/kubelet-runtime-stopped.log', import.meta.url), 'utf8');

const pleg = (firstLine: number, lastLine: number, durationSeconds: number, maxLastSeenAgoSeconds: number | null): StretchSummary => ({
  firstLine,
  lastLine,
  durationSeconds,
  maxLastSeenAgoSeconds,
});
const skip = (firstLine: number, lastLine: number, durationSeconds: number, reasons: string[]): StretchSummary => ({ firstLine, lastLine, durationSeconds, reasons });

type Expected = Partial<LogSummary>;

// Expected values worked out by hand from each fixture's timestamps and message texts.
const CASES: Array<[string, Expected]> = [
  [
    'glog-1.13-journal-short.log',
    {
      // Lines 8 → 9 are exactly 60 s apart (joins: the gap must be *longer* than 60 s); 9 → 10 is 70 s.
      plegStretches: [pleg(4, 9, 70, 250.195184), pleg(10, 10, 0, 320.195184)],
      skippedSyncStretches: [skip(3, 3, 0, ['runtime-status-pending', 'pleg-never']), skip(4, 9, 70, ['pleg-stale']), skip(10, 10, 0, ['pleg-stale'])],
      relistFailures: 1,
      notReadyTransitions: 1,
      readyTransitions: 1,
      kubeletRestarts: 0,
    },
  ],
  [
    'klog-1.17-short-iso.log',
    {
      // The ISO prefix (second precision, absolute) wins over the klog header.
      plegStretches: [pleg(1, 3, 5, 189.612899), pleg(6, 7, 52, 306.612899)],
      skippedSyncStretches: [skip(1, 3, 5, ['pleg-stale']), skip(6, 7, 52, ['pleg-stale'])],
      relistFailures: 1,
      discardLines: 2,
    },
  ],
  [
    'structured-1.24-short-precise.log',
    {
      plegStretches: [pleg(5, 8, 5.00208, 188.146)],
      skippedSyncStretches: [skip(5, 8, 5.00208, ['runtime-down', 'pleg-stale'])],
      relistFailures: 1,
      housekeepingSlowLines: 1,
      // The sanity check line and the "Node became not ready" condition saying "container runtime is down".
      runtimeDownLines: 2,
      notReadyTransitions: 1,
      readyTransitions: 1,
    },
  ],
  [
    'contextual-1.32-restart.log',
    {
      plegStretches: [pleg(2, 3, 5.00208, 188.146), pleg(7, 8, 5, 186)],
      // Lines 3 and 6 are 20 s apart, but the restart on line 5 ends the stretch.
      skippedSyncStretches: [skip(2, 3, 5.00208, ['runtime-down', 'pleg-stale']), skip(6, 6, 0, ['runtime-status-pending', 'pleg-never']), skip(7, 8, 5, ['pleg-stale'])],
      kubeletRestarts: 1,
    },
  ],
  [
    JSON_FIXTURES.real,
    {
      // The real kubelet 1.36 JSON capture: its stretch is worked out from the text (jsonLogWindow.ts); the
      // counts are its "GenericPLEG: Unable to retrieve pods" lines, and the NodeNotReady / NodeReady events
      // (the Ready one at start-up and the one after SIGCONT).
      plegStretches: expectedStretches(plegPoints(fixtureText(JSON_FIXTURES.real))).map((e) => pleg(e.firstLine, e.lastLine, e.durationSeconds, e.maxLastSeenAgoSeconds)),
      relistFailures: fixtureText(JSON_FIXTURES.real).split('\n').filter((l) => l.includes('"msg":"GenericPLEG: Unable to retrieve pods"')).length,
      notReadyTransitions: 1,
      readyTransitions: 2,
      kubeletRestarts: 0,
    },
  ],
  [
    'other-forms-1.24.log',
    {
      // Inspection, status-write, reinspection, SyncLoop (PLEG), healthz and watchdog lines are hover-only (logFindings).
      plegStretches: [],
      skippedSyncStretches: [skip(8, 9, 5, ['network-not-ready', 'capacity-missing', 'shutting-down'])],
      runtimeDownLines: 2,
      eventedFallbackLines: 2,
    },
  ],
  ['year-rollover.log', { plegStretches: [pleg(1, 4, 75, 256)], skippedSyncStretches: [skip(1, 4, 75, ['pleg-stale'])] }],
  ['evented-1.27.log', { plegStretches: [pleg(1, 3, 10, null)], skippedSyncStretches: [skip(1, 3, 10, ['evented-pleg-full'])] }],
  ['cri-prefix.log', { plegStretches: [pleg(1, 2, 5.00208, 188.146)], skippedSyncStretches: [skip(1, 2, 5.00208, ['pleg-stale'])] }],
];

describe('readKubeletLog on fixtures of every documented form', () => {
  it.each(CASES)('%s', (name, expected) => {
    const { summary } = readKubeletLog(fixture(name));
    expect(summary).toMatchObject(expected);
    for (const key of ['relistFailures', 'discardLines', 'notReadyTransitions', 'kubeletRestarts'] as const) {
      if (expected[key] === undefined) expect(summary[key], key).toBe(0);
    }
  });

  it('--gap 90 joins the two stretches of the short-iso log', () => {
    const { summary } = readKubeletLog(fixture('klog-1.17-short-iso.log'), { gapSeconds: 90 });
    expect(summary.plegStretches).toEqual([pleg(1, 7, 122, 306.612899)]);
  });

  it('EventedPLEG discard and fallback lines in the JSON format are counted; the R1 lines around them make one stretch', () => {
    // Built as component-base's JSON logger writes lines ("ts" in epoch ms, caller, msg, then fields; no "v"
    // on error lines), with the messages of rules L10 (messageCatalog.ts); the R1 lines are 4.5 s apart.
    const t0 = 1795840896491.0784;
    const text = [
      `{"ts":${t0},"caller":"kubelet/kubelet.go:2661","msg":"Skipping pod synchronization","err":"PLEG is not healthy: pleg was last seen active 3m2.974045537s ago; threshold is 3m0s"}`,
      `{"ts":${t0 + 2000.25},"caller":"pleg/evented.go:252","msg":"Evented PLEG: Event channel is full, discarded pod lifecycle event"}`,
      `{"ts":${t0 + 3000.5},"caller":"pleg/evented.go:124","msg":"Fall back to Generic PLEG relisting since Evented PLEG is not working","v":4}`,
      `{"ts":${t0 + 4500},"caller":"kubelet/kubelet.go:2661","msg":"Skipping pod synchronization","err":"PLEG is not healthy: pleg was last seen active 3m7.474754006s ago; threshold is 3m0s"}`,
    ].join('\n');
    const { summary } = readKubeletLog(text);
    expect(summary.plegStretches).toEqual([pleg(1, 4, 4.5, 187.474754)]);
    expect(summary).toMatchObject({ discardLines: 1, eventedFallbackLines: 1 });
  });

  it('a new pid without a version line is a restart too and ends the stretch', () => {
    const line = (pid: number, s: string, ago: string): string =>
      `E1122 03:04:${s}.000000 ${String(pid).padStart(7)} kubelet.go:2273] "Skipping pod synchronization" err="PLEG is not healthy: pleg was last seen active ${ago} ago; threshold is 3m0s"`;
    const { summary, findings } = readKubeletLog([line(100, '00', '3m1s'), line(100, '05', '3m6s'), line(200, '10', '3m1s')].join('\n'));
    expect(summary.plegStretches).toEqual([pleg(1, 2, 5, 186), pleg(3, 3, 0, 181)]);
    expect(summary.kubeletRestarts).toBe(1);
    expect(findings.find((f) => f.kind === 'kubelet-restart')).toMatchObject({ line: 2, message: 'Kubelet restarted, pid 200' });
  });

  it('CRLF line ends give the same result', () => {
    const text = fixture('glog-1.13-journal-short.log');
    expect(readKubeletLog(text.replace(/\n/gu, '\r\n')).summary).toEqual(readKubeletLog(text).summary);
  });
});

describe('the real kubelet 1.32 recording (containerd frozen for 300 s)', () => {
  const { findings, summary } = readKubeletLog(REAL);

  it('one PLEG stretch from the first to the last "last seen active" line', () => {
    // grep -n 'last seen active': first 3227 (03:03:46.572920), last 3748 (03:05:41.587135, 4m58.158108819s).
    expect(summary.plegStretches).toEqual([pleg(3227, 3748, 115.014215, 298.158109)]);
  });

  it('sync skipped at startup (line 236) and from the first runtime-down line to the last skip', () => {
    expect(summary.skippedSyncStretches).toEqual([
      skip(236, 236, 0, ['runtime-status-pending', 'pleg-never']),
      skip(2942, 3748, 176.327551, ['runtime-down', 'pleg-stale']),
    ]);
  });

  it('relist failures carry the runtime error; housekeeping and sanity checks are found', () => {
    const relists = findings.filter((f) => f.kind === 'relist-failure');
    expect(relists.map((f) => f.line + 1)).toEqual([2933, 3476]);
    expect(relists[0]?.err).toBe('rpc error: code = DeadlineExceeded desc = context deadline exceeded');
    expect(findings.filter((f) => f.kind === 'housekeeping-slow').map((f) => f.line + 1)).toEqual([2940]);
    expect(findings.filter((f) => f.kind === 'runtime-down').map((f) => f.line + 1)).toEqual([2971, 3536]);
    expect(findings.find((f) => f.kind === 'kubelet-start')?.version).toBe('v1.32.10-kubeedge1');
    expect(summary).toMatchObject({ relistFailures: 2, discardLines: 0, notReadyTransitions: 0, kubeletRestarts: 0, lines: 5456 });
  });

  it('the same log behind a journalctl short-precise prefix gives the same stretches', () => {
    const prefixed = REAL.split('\n')
      .map((l, i) => (l === '' ? l : `Nov 22 03:00:${String(i % 60).padStart(2, '0')}.000000 pleg-node kubelet[31657]: ${l}`))
      .join('\n');
    const r = readKubeletLog(prefixed).summary;
    expect(r.plegStretches).toEqual(summary.plegStretches);
    expect(r.skippedSyncStretches).toEqual(summary.skippedSyncStretches);
  });
});

describe('classifyLogLine', () => {
  it('ignores lines that mention nothing tracked, and SyncLoop (PLEG) activity', () => {
    expect(classifyLogLine('I1122 03:05:38.423356   31657 httplog.go:134] "HTTP" verb="GET" URI="/healthz"')).toBeUndefined();
    expect(classifyLogLine('I1122 03:05:38.423356   31657 kubelet.go:2400] "SyncLoop (PLEG): event for pod" pod="a/b"')).toBeUndefined();
  });
  it('"never relisted" maximum duration of old kubelets is a PLEG-unhealthy line with a huge age', () => {
    const f = classifyLogLine(
      'I0301 15:49:00.000000    3031 kubelet.go:1799] skipping pod synchronization - [PLEG is not healthy: pleg was last seen active 2562047h47m16.854775807s ago; threshold is 3m0s]',
    );
    expect(f?.events.find((e) => e.kind === 'pleg-unhealthy')).toMatchObject({ lastSeenAgoSeconds: expect.any(Number) as number });
  });
  it('an impossible klog date gives no time but keeps the events', () => {
    const f = classifyLogLine('E1332 03:03:46.572920   1 kubelet.go:2273] "Skipping pod synchronization" err="container runtime is down"');
    expect(f?.time).toBeUndefined();
    expect(f?.events[0]).toEqual({ kind: 'skip-sync', reasons: ['runtime-down'] });
  });
});
