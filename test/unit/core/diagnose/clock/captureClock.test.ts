// Capture windows derived from a real kubelet 1.32's own files (test/fixtures/real-kubelet-1.32: containerd
// SIGSTOPped at 03:00:44.244Z for 300 s; events.txt and metrics-requests.txt hold the recorder's UTC times
// of every scrape, which these windows must contain).

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { captureOf, deriveCaptureClock, type CaptureClockInput } from '../../../../../src/core/diagnose/clock/captureClock';
import { kubeletLogTimes } from '../../../../../src/core/diagnose/clock/kubeletLogTimes';
import { FORCED_GC_BOUND_MS, metricsClues } from '../../../../../src/core/diagnose/clock/metricsClues';
import { mtimeClues } from '../../../../../src/core/diagnose/clock/mtimeClues';
import { summarizeKubeletMetrics } from '../../../../../src/core/parse/kubeletMetrics';
import { nodeObject } from '../../../../support/diagnoseBuilders';

const fixture = (name: string): string => readFileSync(new URL(`../../../../fixtures/real-kubelet-1.32/${name}`, import.meta.url), 'utf8');
const metrics = (phase: string) => summarizeKubeletMetrics(fixture(`metrics-${phase}.txt`));
const LOG = fixture('kubelet-runtime-stopped.log');
const ms = (iso: string): number => Date.parse(iso);
/** A copy a week later: every file gets this one modification time. */
const WEEK_LATER = ms('2026-11-29T12:00:00Z');

/** The recorder's own start and end of each scrape (metrics-requests.txt). */
function recorded(phase: string): { start: number; done: number } {
  const line = fixture('metrics-requests.txt').split('\n').find((l) => l.startsWith(`${phase} `));
  const m = /request_start=(\S+) done=(\S+)/u.exec(line ?? '');
  if (m === null) throw new Error(`no request line for ${phase}`);
  return { start: ms(m[1] as string), done: ms(m[2] as string) };
}

function clockOf(phase: string, extra: Partial<CaptureClockInput> = {}) {
  return deriveCaptureClock({ metrics: [{ file: 'metrics.txt', summary: metrics(phase), scrape: 'metrics' }], mtimes: { 'metrics.txt': WEEK_LATER, 'node.json': WEEK_LATER }, scrapeHangMs: 120_000, ...extra });
}

describe('what a /metrics body says about when it was served', () => {
  it('reads go_memstats_last_gc_time_seconds, process_start_time_seconds, go_gc_gogc_percent and the /metrics request count', () => {
    expect(metrics('healthy').served).toEqual({ lastGcSeconds: 1795316387.3334224, processStartSeconds: 1795316356.73, gogcPercent: 100, metricsRequests: 1 });
    expect(metrics('stopped-final').served?.metricsRequests).toBe(12);
  });

  it('every real scrape falls inside [last GC, last GC + the forced-GC bound]', () => {
    for (const phase of ['healthy', 'healthy-end', 'stopped-T+030s', 'stopped-T+180s', 'stopped-T+270s', 'stopped-final', 'recovered-C+005s', 'recovered-C+090s']) {
      const c = captureOf(clockOf(phase), 'metrics.txt');
      const { start, done } = recorded(phase);
      expect(c?.confidence, phase).toBe('bounded');
      // Gathered somewhere between the request's start and its end: the window must overlap that span.
      expect(c?.notBeforeMs, phase).toBeLessThanOrEqual(done);
      expect(c?.notAfterMs, phase).toBeGreaterThanOrEqual(start);
      // last GC + the bound, or less when the last relist came after the last GC.
      expect(c?.notAfterMs, phase).toBe((metrics(phase).served?.lastGcSeconds ?? 0) * 1000 + FORCED_GC_BOUND_MS);
    }
  });

  it('kubelet_pleg_last_seen_seconds is only a lower bound; GOGC=off drops the upper one', () => {
    const m = metrics('stopped-final');
    const lastSeen = metricsClues('metrics.txt', m).find((c) => c.kind === 'pleg-last-seen');
    expect(lastSeen).toMatchObject({ notBeforeMs: 1795316443_000, firm: true });
    expect(lastSeen?.notAfterMs).toBeUndefined();
    const off = metricsClues('metrics.txt', { ...m, served: { ...m.served, gogcPercent: -1 } });
    expect(off.some((c) => c.notAfterMs !== undefined)).toBe(false);
  });
});

describe("the kubelet's access-log lines (klog -v=4 in the recording)", () => {
  it('reads every GET /metrics line of the real log: arrival = line time − latency, in the year of the anchor', () => {
    const t = kubeletLogTimes(LOG, ms('2026-11-22T03:05:33Z'));
    expect(t.metricsRequests).toHaveLength(17);
    expect(t.lastStart).toEqual({ line: 158, pid: 31657 });
    expect(t.year?.value).toBe(2026);
    // `I1122 03:05:44.403012 … latency="5.983120768s"`: the final scrape, started 03:05:38.404Z by the recorder.
    const final = t.metricsRequests.find((a) => a.line === 3858);
    expect(final?.endMs).toBeCloseTo(ms('2026-11-22T03:05:44.403Z') + 0.012, 3);
    expect(final?.startMs).toBeCloseTo(ms('2026-11-22T03:05:44.403Z') + 0.012 - 5983.120768, 3);
    expect(t.plegUnhealthyMs.length).toBeGreaterThan(0);
    expect(t.lastMs).toBeCloseTo(ms('2026-11-22T03:07:14.406Z') + 0.599, 3);
  });

  it('by count: kubelet_http_requests_total picks the one line that served the body; its window holds the recorded request', () => {
    for (const [phase, n] of [['healthy', 1], ['healthy-end', 2], ['stopped-final', 12], ['recovered-C+090s', 17]] as const) {
      const clock = clockOf(phase, { kubeletLog: { file: 'kubelet.log', text: LOG }, mtimes: { 'metrics.txt': WEEK_LATER, 'kubelet.log': WEEK_LATER } });
      const c = captureOf(clock, 'metrics.txt');
      const { start, done } = recorded(phase);
      expect(c?.confidence, phase).toBe('exact');
      expect(c?.clues.find((k) => k.kind === 'access-log')?.text, phase).toContain(`GET /metrics number ${n} since its start`);
      // The kubelet received the request a few ms after curl sent it and answered a few ms before curl had it all.
      expect(Math.abs((c?.notBeforeMs ?? 0) - start), phase).toBeLessThan(50);
      expect(Math.abs((c?.notAfterMs ?? 0) - done), phase).toBeLessThan(50);
    }
  });

  it('by fit, without the kubelet start in the log: every GET /metrics line that fits the body; none when the log ends too early', () => {
    const lines = LOG.split('\n');
    const afterStart = lines.slice(1000).join('\n');
    const clock = clockOf('healthy-end', { kubeletLog: { file: 'kubelet.log', text: afterStart }, mtimes: {} });
    const c = captureOf(clock, 'metrics.txt');
    const { start, done } = recorded('healthy-end');
    expect(c?.clues.find((k) => k.kind === 'access-log')?.text).toMatch(/access-log lines for GET \/metrics fit metrics\.txt's own times/u);
    expect(c?.notBeforeMs).toBeLessThanOrEqual(start + 50);
    expect(c?.notAfterMs).toBeGreaterThanOrEqual(done - 50);
    // A log that stops before the body's latest possible time cannot place it.
    const early = clockOf('healthy-end', { kubeletLog: { file: 'kubelet.log', text: lines.slice(1000, 2000).join('\n') }, mtimes: {} });
    expect(captureOf(early, 'metrics.txt')?.clues.some((k) => k.kind === 'access-log')).toBe(false);
    expect(early.notes.join('\n')).toContain('kubelet.log ends before metrics.txt was latest served');
  });

  it('a log an hour off (another zone) fits no clue of the body and is not used', () => {
    const shifted = LOG.replace(/^([IWEF]\d{4} )03:/gmu, '$104:').replace(/^([IWEF]\d{4} )02:/gmu, '$103:');
    const clock = clockOf('stopped-final', { kubeletLog: { file: 'kubelet.log', text: shifted }, mtimes: {} });
    expect(captureOf(clock, 'metrics.txt')?.clues.some((k) => k.kind === 'access-log')).toBe(false);
    expect(clock.notes.join('\n')).toMatch(/does not fit metrics\.txt's own times \(is the log in another time zone/u);
  });

  it("reads httplog's printf form of kubelets before 1.21 (`GET /metrics: (latency) status [agent addr]`)", () => {
    // Built from respLogger.Log's format string of those releases: "%s %s: (%v) %v%v%v [%s %s]".
    const old = 'I0314 10:00:05.250000    1234 httplog.go:90] GET /metrics: (250ms) 200 [Prometheus/2.20.0 10.0.0.9:41234]\n';
    const t = kubeletLogTimes(old, ms('2020-03-14T10:00:00Z'));
    expect(t.metricsRequests).toEqual([{ line: 0, startMs: ms('2020-03-14T10:00:05Z'), endMs: ms('2020-03-14T10:00:05.250Z'), status: 200, pid: 1234 }]);
    expect(kubeletLogTimes('I0314 10:00:05.250000    1234 httplog.go:90] GET /metrics/cadvisor: (250ms) 200 [x y]\n', ms('2020-03-14T10:00:00Z')).metricsRequests).toEqual([]);
  });

  it('year-less headers need another clock of the folder: without one the log gives no time', () => {
    expect(kubeletLogTimes(LOG, undefined).lastMs).toBeUndefined();
    // Placed in the anchor's year or the one before, whichever puts the log's end nearer the anchor.
    expect(kubeletLogTimes(LOG, ms('2027-01-02T00:00:00Z')).year?.value).toBe(2026);
  });
});

describe('modification times', () => {
  it('equal → copied, only a latest bound; different → a clock; one file → only a latest bound', () => {
    const copied = mtimeClues({ 'a.txt': WEEK_LATER, 'b.txt': WEEK_LATER + 3 }, () => 0);
    expect(copied.verdict).toBe('copied');
    expect(copied.text).toContain('copied, not a clock');
    expect(copied.clues.get('a.txt')).toMatchObject({ notAfterMs: WEEK_LATER, firm: false });
    expect(copied.clues.get('a.txt')?.notBeforeMs).toBeUndefined();
    const handMade = mtimeClues({ 'node.json': ms('2026-11-22T03:05:40Z'), 'metrics.txt': ms('2026-11-22T03:05:45Z') }, (f) => (f === 'metrics.txt' ? 150_000 : 60_000));
    expect(handMade.verdict).toBe('clock');
    expect(handMade.clues.get('metrics.txt')).toMatchObject({ notBeforeMs: ms('2026-11-22T03:03:15Z'), notAfterMs: ms('2026-11-22T03:05:45Z') });
    expect(mtimeClues({ 'node.json': WEEK_LATER }, () => 0).verdict).toBe('copied');
    expect(mtimeClues({}, () => 0).verdict).toBe('none');
  });

  it('a modification time earlier than what the file itself says is dropped, with the reason', () => {
    const clock = clockOf('stopped-final', { mtimes: { 'metrics.txt': ms('2026-11-22T03:00:00Z'), 'node.json': ms('2026-11-22T03:00:00Z') } });
    const c = captureOf(clock, 'metrics.txt');
    expect(c?.confidence).toBe('bounded');
    expect(c?.dropped.map((d) => d.clue.kind)).toEqual(['mtime']);
    expect(clock.notes.join('\n')).toMatch(/metrics\.txt: not used: metrics\.txt: modified 2026-11-22T03:00:00Z .* because it disagrees with/u);
  });
});

describe('the Node and its events', () => {
  it('a posting kubelet: [heartbeat, heartbeat + report period + grace]; Ready=Unknown: the heartbeat only as a lower bound', () => {
    const ready = nodeObject({ heartbeat: '2026-11-22T03:05:37Z', since: '2026-11-22T02:00:00Z' });
    const clock = deriveCaptureClock({ metrics: [], node: { file: 'node.json', value: ready }, mtimes: {}, scrapeHangMs: 120_000 });
    expect(captureOf(clock, 'node.json')).toMatchObject({ notBeforeMs: ms('2026-11-22T03:05:37Z'), notAfterMs: ms('2026-11-22T03:11:27Z'), confidence: 'bounded' });
    const lost = nodeObject({ ready: 'Unknown', heartbeat: '2026-11-22T03:05:37Z', since: '2026-11-22T03:06:20Z' });
    const lostClock = deriveCaptureClock({ metrics: [], node: { file: 'node.json', value: lost }, events: { file: 'events.json', value: [{ lastTimestamp: '2026-11-22T03:07:00Z' }] }, mtimes: {}, scrapeHangMs: 120_000 });
    // The transition (written by the node controller) is newer than the heartbeat.
    expect(captureOf(lostClock, 'node.json')).toMatchObject({ notBeforeMs: ms('2026-11-22T03:06:20Z'), confidence: 'after' });
    expect(captureOf(lostClock, 'events.json')).toMatchObject({ notBeforeMs: ms('2026-11-22T03:07:00Z'), confidence: 'after' });
    expect(lostClock.referenceMs).toBe(ms('2026-11-22T03:07:00Z'));
  });

  it('soft clues give way to firm ones that contradict them, each dropped with its reason', () => {
    // node.json read (by its managed fields) after the time its own heartbeat bound allows: two clocks.
    const node = { ...nodeObject({ heartbeat: '2026-11-22T03:05:37Z' }), metadata: { name: 'n', managedFields: [{ time: '2026-11-22T05:00:00Z' }] } };
    const clock = deriveCaptureClock({ metrics: [], node: { file: 'node.json', value: node }, mtimes: { 'node.json': ms('2026-11-22T04:00:00Z') }, scrapeHangMs: 120_000 });
    const c = captureOf(clock, 'node.json');
    // The soft clues (mtime, heartbeat bound) go first; what is left is consistent.
    expect(c?.confidence).toBe('after');
    expect(c?.dropped.map((d) => d.clue.kind).sort()).toEqual(['heartbeat', 'mtime']);
  });
});
