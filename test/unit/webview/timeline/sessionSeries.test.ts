// What the session pane and its host do with a session: the chart series (built at once or grown by
// deltas, the same either way), the CSV export, the restore state and the recordings
// the panel accepts.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../../../src/core/pleg/sim/scenario';
import { simulate } from '../../../../src/core/pleg/sim/simulate';
import { applySessionDelta, type TimelineSession } from '../../../../src/core/timeline/session';
import { restoredPanel } from '../../../../src/host/timeline/panelState';
import { csvMs, SESSION_CSV_COLUMNS, sessionCsv } from '../../../../src/host/timeline/sessionCsv';
import { loadRecordingFile } from '../../../../src/host/timeline/timelineSources';
import { appendDelta, nearestIndex, podLanes, sessionSeries } from '../../../../webview/timeline/sessionSeries';
import { recordedSession, SessionRecorder } from '../../../support/timelineSession';

const frozen = (): TimelineSession => recordedSession({ durationS: 600, pods: 30, freeze: { atS: 120, forS: 300 } });

describe('session series', () => {
  it('holds every relist and scrape once, in time order, with the health quantity and both durations', () => {
    const session = frozen();
    const s = sessionSeries(session);
    // Each successful relist after the first also has the instant before it moved the stamp.
    const okAfterFirst = session.relists.filter((r) => r.ok).length - 1;
    expect(s.x).toHaveLength(session.relists.length + session.kubelet.length + okAfterFirst);
    for (let i = 1; i < s.x.length; i++) expect(s.x[i]!).toBeGreaterThanOrEqual(s.x[i - 1]!);
    const relistRows = s.relistAt.filter((r) => r >= 0);
    expect(relistRows).toEqual(session.relists.map((_r, i) => i));
    expect(s.failedRelist.filter((v) => v !== null)).toHaveLength(session.relists.filter((r) => !r.ok).length);
    // The line reaches what Healthy() saw just before the thaw: the last good relist before the freeze
    // started near 119 s, the thaw relist ended at 420 s.
    expect(Math.max(...s.sinceLastRelistStart.map((v) => v ?? 0))).toBeGreaterThan(300);
    expect(s.kubeletLastSeenAge.filter((v) => v !== null)).toHaveLength(session.kubelet.length);
    // One unhealthy window, closed by the first good relist after the thaw; Ready went False and came back.
    expect(s.unhealthy).toHaveLength(1);
    expect(s.unhealthy[0]!.fromS).toBeGreaterThan(299);
    expect(s.unhealthy[0]!.fromS).toBeLessThan(301);
    expect(s.unhealthy[0]!.toS).toBeGreaterThan(420);
    expect(s.ready.map((r) => r.status)).toEqual(['True', 'False', 'True']);
    expect(s.rpcErrors.length).toBe(session.relists.filter((r) => !r.ok).length);
    expect(s.discards.length).toBeGreaterThan(0);
  });

  it('grown by live deltas, equals the series of the recorded whole', () => {
    const recorder = new SessionRecorder({ durationS: 600, pods: 30, freeze: { atS: 120, forS: 300 } });
    recorder.advance(1000);
    const live: TimelineSession = JSON.parse(JSON.stringify(recorder.session)) as TimelineSession;
    const s = sessionSeries(live);
    for (let ms = 2000; ms <= 600_000; ms += 1000) {
      const delta = recorder.advance(ms);
      applySessionDelta(live, delta);
      appendDelta(s, live, delta);
    }
    const whole = sessionSeries(recorder.session);
    expect({ ...s, eventsPerPod: [...s.eventsPerPod] }).toEqual({ ...whole, eventsPerPod: [...whole.eventsPerPod] });
  });

  it('1.36: the kubelet\'s mean per-pod relist duration is its own column, on the scrape rows that have it', () => {
    const session = frozen();
    const scrapes = session.kubelet.length;
    expect(scrapes).toBeGreaterThan(4);
    const before = sessionSeries(session);
    expect(before.kubeletPodRelistDuration.every((v) => v === null)).toBe(true);
    session.kubelet.forEach((k, i) => {
      if (i % 2 === 0) k.podRelistDurationS = i === 0 ? 0 : 0.25 * i;
    });
    const s = sessionSeries(session);
    const rows = s.x.map((_x, i) => i).filter((i) => s.kubeletPodRelistDuration[i] !== null);
    expect(rows).toHaveLength(Math.ceil(scrapes / 2));
    for (const i of rows) expect(s.relistAt[i]).toBe(-1);
    // Log axis: an instant mean is kept at a microsecond.
    expect(s.kubeletPodRelistDuration[rows[0]!]).toBe(1e-6);
    expect(s.kubeletPodRelistDuration[rows[1]!]).toBe(0.5);
    // The other columns are as without it.
    expect(s.kubeletRelistDuration).toEqual(before.kubeletRelistDuration);
    expect(s.x).toEqual(before.x);
  });

  it('the pods with the most events get lanes; hover finds the nearest relist, not a scrape', () => {
    const s = sessionSeries(frozen());
    const lanes = podLanes(s);
    expect(lanes.length).toBeLessThanOrEqual(12);
    const counts = lanes.map((p) => s.eventsPerPod.get(p)!);
    expect([...counts].sort((a, b) => b - a)).toEqual(counts);
    const scrape = s.relistAt.indexOf(-1);
    const i = nearestIndex(s.x, s.x[scrape]!, (j) => s.relistAt[j]! >= 0);
    expect(s.relistAt[i]).toBeGreaterThanOrEqual(0);
    expect(nearestIndex([], 1, () => true)).toBe(-1);
  });
});

describe('CSV export', () => {
  it('has one row per relist with the health quantity, RPC errors and quoting of errors', () => {
    const session = frozen();
    const lines = sessionCsv(session).trimEnd().split('\r\n');
    expect(lines[0]).toBe(SESSION_CSV_COLUMNS.join(','));
    expect(lines).toHaveLength(session.relists.length + 1);
    const failed = session.relists.findIndex((r) => !r.ok);
    const row = lines[failed + 1]!;
    expect(row.startsWith('2026-11-22T03:')).toBe(true);
    // The error holds "=" and spaces but no comma: unquoted; the failed relist has one RPC error.
    expect(row).toContain(',false,rpc error: code = DeadlineExceeded');
    session.relists[0]!.error = 'a, "quoted" error';
    expect(sessionCsv(session).split('\r\n')[1]).toContain('"a, ""quoted"" error"');
  });

  it('writes milliseconds to the microsecond, not the doubles the subtraction leaves', () => {
    const session = frozen();
    // A relist that waited out the 2-minute deadline from the frozen-runtime fixture's freeze: its
    // duration in doubles is 120000.00000000001.
    const startMs = 86_985.64;
    Object.assign(session.relists[0]!, { startMs, endMs: startMs + 120_000, sinceLastRelistStartMs: 120_000.1 - 0.2, rpcs: [{ rpc: 'ListPodSandbox', atMs: 0, latencyMs: 0.1 + 0.2 }] });
    expect(startMs + 120_000 - startMs).not.toBe(120_000);
    const cells = sessionCsv(session).split('\r\n')[1]!.split(',');
    const at = (column: string): string => cells[SESSION_CSV_COLUMNS.indexOf(column as never)]!;
    expect(at('start_ms')).toBe('86985.64');
    expect(at('duration_ms')).toBe('120000');
    expect(at('since_last_relist_start_ms')).toBe('119999.9');
    expect(at('max_rpc_latency_ms')).toBe('0.3');
    expect(csvMs(2.0004999)).toBe(2);
    expect(csvMs(2.0005001)).toBe(2.001);
  });
});

describe('restore state', () => {
  it('keeps a well-formed node or recording and refuses anything else', () => {
    expect(restoredPanel({ target: { context: 'c', node: 'n' }, recording: null })).toEqual({ target: { context: 'c', node: 'n' } });
    expect(restoredPanel({ target: null, recording: '/r.json' })).toEqual({ target: null, recording: '/r.json' });
    expect(restoredPanel(undefined)).toEqual({ target: null });
    expect(restoredPanel({ target: { context: '', node: 'n' } })).toEqual({ target: null });
    expect(restoredPanel({ target: { context: 'c', node: 7 } })).toEqual({ target: null });
    expect(restoredPanel('x')).toEqual({ target: null });
  });
});

describe('recordings the panel replays', () => {
  const dir = mkdtempSync(join(tmpdir(), 'timeline-recordings-'));
  const write = (name: string, value: unknown): string => {
    const path = join(dir, name);
    writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
    return path;
  };

  it('a panel export comes back as it was saved', async () => {
    const session = recordedSession({ durationS: 30, pods: 3 });
    const loaded = await loadRecordingFile(write('export.json', session));
    expect(loaded.kind).toBe('a timeline recording');
    expect(loaded.session).toEqual(session);
  });

  it('a pleg-doctor simulate timeline is converted', async () => {
    const scenario = parseScenario({ name: 's', seed: 1, duration: '1m0s', kubeletVersion: '1.32.10', startTime: '2026-11-22T03:00:00Z', nodeName: 'n', pods: { count: 3, containersPerPod: { min: 1, max: 1 } } });
    const loaded = await loadRecordingFile(write('sim.json', simulate(scenario)));
    expect(loaded.kind).toBe('a pleg-doctor simulate timeline');
    expect(loaded.session.relists.length).toBeGreaterThan(50);
  });

  it('an evidence folder of metrics scrapes is replayed as the kubelet saw it', async () => {
    const loaded = await loadRecordingFile(join(__dirname, '../../../fixtures/real-kubelet-1.32'));
    expect(loaded.kind).toBe('an evidence folder of metrics scrapes');
    expect(loaded.session.source).toBe('metrics-series');
    expect(loaded.session.kubelet.length).toBeGreaterThan(1);
    // The recording froze containerd: the kubelet's own last-seen age passes the threshold.
    expect(Math.max(...loaded.session.kubelet.map((k) => k.lastSeenAgeS ?? 0))).toBeGreaterThan(180);
    await expect(loadRecordingFile(dir)).rejects.toThrow(/is not an evidence folder with metrics scrapes: .*has no metrics-requests\.txt/);
  });

  it('anything else is refused with the file and the cause', async () => {
    await expect(loadRecordingFile(write('bad.json', '{nope'))).rejects.toThrow(/bad\.json is not JSON/);
    await expect(loadRecordingFile(write('other.json', { hello: 1 }))).rejects.toThrow(/other\.json is neither a timeline recording/);
    const broken = { ...recordedSession({ durationS: 5, pods: 1 }), relists: 'x' };
    await expect(loadRecordingFile(write('broken.json', broken))).rejects.toThrow(/broken\.json is not a valid timeline recording: relists: expected an array/);
  });
});
