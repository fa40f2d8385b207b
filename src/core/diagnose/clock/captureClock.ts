// Derives each evidence file's capture window from the evidence itself (see clockTypes.ts). Pure: the
// folder reader hands over the parsed files, the kubelet log's text and the files' modification times.

import type { KubeEvent, KubeNode } from '../../kube/objects';
import type { KubeletMetricsSummary } from '../../parse/kubeletEndpointTypes';
import { accessLogClue, type Window } from './accessLogClue';
import { CAPTURE_EXACT_MS, type ClockClue, type EvidenceClock, type FileCapture } from './clockTypes';
import { isoSeconds } from './clockText';
import { kubeletLogTimes, type KubeletLogTimes } from './kubeletLogTimes';
import { metricsClues } from './metricsClues';
import { mtimeClues } from './mtimeClues';
import { eventClues, nodeClues } from './objectClues';

export interface CaptureClockInput {
  /** Parsed /metrics bodies by file name: the first scrape, then the later one. */
  metrics: { file: string; summary: KubeletMetricsSummary; scrape: 'metrics' | 'metricsLater' }[];
  node?: { file: string; value: KubeNode };
  events?: { file: string; value: KubeEvent[] };
  kubeletLog?: { file: string; text: string };
  /** Files with no clock of their own, each with why (a goroutine dump's waits are relative). */
  clockless?: { file: string; why: string }[];
  /** Modification time of each file read, epoch ms. */
  mtimes: Record<string, number>;
  /** How long a kubelet endpoint may take to answer (runtimeRequestTimeout): its body is written only then. */
  scrapeHangMs: number;
}

/** A window that tells soft clues to leave: where firm and soft ones cross. */
function bounds(clues: ClockClue[]): Window {
  const w: Window = {};
  for (const c of clues) {
    if (c.notBeforeMs !== undefined && (w.notBeforeMs === undefined || c.notBeforeMs > w.notBeforeMs)) w.notBeforeMs = c.notBeforeMs;
    if (c.notAfterMs !== undefined && (w.notAfterMs === undefined || c.notAfterMs < w.notAfterMs)) w.notAfterMs = c.notAfterMs;
  }
  return w;
}

function crossed(w: Window): boolean {
  return w.notBeforeMs !== undefined && w.notAfterMs !== undefined && w.notBeforeMs > w.notAfterMs;
}

/** Soft clues are dropped in this order when clues cross: modification times first. */
const SOFT_ORDER: ClockClue['kind'][] = ['mtime', 'heartbeat', 'access-log', 'go-gc'];

function combine(file: string, all: ClockClue[]): FileCapture {
  let kept = [...all];
  const dropped: FileCapture['dropped'] = [];
  let w = bounds(kept);
  while (crossed(w)) {
    const lower = kept.find((c) => c.notBeforeMs === w.notBeforeMs);
    const upper = kept.find((c) => c.notAfterMs === w.notAfterMs);
    const victim = SOFT_ORDER.map((kind) => [upper, lower].find((c) => c !== undefined && !c.firm && c.kind === kind)).find((c) => c !== undefined);
    if (victim === undefined) {
      const reason = `its clues disagree: ${lower?.text ?? '?'}, but ${upper?.text ?? '?'}`;
      return { file, confidence: 'conflict', clues: kept, dropped, reason };
    }
    const other = victim === upper ? lower : upper;
    dropped.push({ clue: victim, why: `it disagrees with ${other?.text ?? 'the other clues'}` });
    kept = kept.filter((c) => c !== victim);
    w = bounds(kept);
  }
  const capture: FileCapture = { file, confidence: 'unknown', clues: kept, dropped };
  if (w.notBeforeMs !== undefined) capture.notBeforeMs = w.notBeforeMs;
  if (w.notAfterMs !== undefined) capture.notAfterMs = w.notAfterMs;
  if (w.notBeforeMs !== undefined && w.notAfterMs !== undefined) capture.confidence = w.notAfterMs - w.notBeforeMs <= CAPTURE_EXACT_MS ? 'exact' : 'bounded';
  else if (w.notBeforeMs !== undefined) capture.confidence = 'after';
  else capture.reason = kept.length === 0 ? 'nothing in it tells when it was captured' : 'only a latest bound';
  return capture;
}

/** The earliest absolute time the folder offers, to place the kubelet log's year-less headers. */
function anchorOf(input: CaptureClockInput, byFile: Map<string, ClockClue[]>): number | undefined {
  for (const m of input.metrics) {
    const gc = m.summary.served?.lastGcSeconds ?? m.summary.plegLastSeenSeconds;
    if (gc !== undefined && gc > 0) return gc * 1000;
  }
  for (const clues of byFile.values()) for (const c of clues) if (c.notBeforeMs !== undefined && c.kind !== 'mtime') return c.notBeforeMs;
  const mtimes = Object.values(input.mtimes).filter((ms) => Number.isFinite(ms));
  return mtimes.length > 0 ? Math.max(...mtimes) : undefined;
}

/** The clues that set the window's ends: what a reader needs to check it. */
export function windowSources(c: FileCapture): string[] {
  const out: string[] = [];
  for (const k of c.clues) {
    const sets = (k.notBeforeMs !== undefined && k.notBeforeMs === c.notBeforeMs) || (k.notAfterMs !== undefined && k.notAfterMs === c.notAfterMs);
    if (sets && !out.includes(k.text)) out.push(k.text);
  }
  return out;
}

function describe(c: FileCapture): string {
  const from = windowSources(c).join('; ');
  switch (c.confidence) {
    case 'exact':
    case 'bounded':
      return `${c.file}: captured between ${isoSeconds(c.notBeforeMs as number)} and ${isoSeconds(c.notAfterMs as number)} (${from})`;
    case 'after':
      return `${c.file}: captured at or after ${isoSeconds(c.notBeforeMs as number)}, no latest bound (${from})`;
    case 'conflict':
    case 'unknown':
      return `${c.file}: capture time unknown: ${c.reason ?? 'no clue'}`;
  }
}

export function deriveCaptureClock(input: CaptureClockInput): EvidenceClock {
  const byFile = new Map<string, ClockClue[]>();
  const add = (file: string, clues: ClockClue[]): void => {
    byFile.set(file, [...(byFile.get(file) ?? []), ...clues]);
  };
  const notes: string[] = [];
  for (const m of input.metrics) add(m.file, metricsClues(m.file, m.summary));
  if (input.node !== undefined) add(input.node.file, nodeClues(input.node.file, input.node.value));
  if (input.events !== undefined) add(input.events.file, eventClues(input.events.file, input.events.value));

  const metricFiles = new Set(input.metrics.map((m) => m.file));
  const mtimes = mtimeClues(input.mtimes, (file) => (metricFiles.has(file) ? input.scrapeHangMs + 30_000 : 60_000));

  let log: KubeletLogTimes | undefined;
  if (input.kubeletLog !== undefined) {
    const { file, text } = input.kubeletLog;
    const anchor = anchorOf(input, byFile);
    log = kubeletLogTimes(text, anchor);
    if (log.lastMs !== undefined) {
      add(file, [{ kind: 'log-tail', notBeforeMs: log.lastMs, firm: true, text: `${file}: its last line was written at ${isoSeconds(log.lastMs)}` }]);
    } else if (anchor === undefined) {
      notes.push(`${file}: klog headers carry no year, and no other file of the folder has a clock to take it from`);
    } else {
      notes.push(`${file}: none of its last lines has a time the log reader can read`);
    }
    if (log.year !== undefined) notes.push(`${file}: klog headers carry no year or zone; read as UTC in ${log.year.value} (the year of the folder's other clocks)`);
  }
  for (const m of input.metrics) {
    if (log === undefined || input.kubeletLog === undefined) continue;
    const own = bounds(combine(m.file, [...(byFile.get(m.file) ?? []), ...(mtimes.clues.has(m.file) ? [mtimes.clues.get(m.file) as ClockClue] : [])]).clues);
    const { clue, note } = accessLogClue(m.file, input.kubeletLog.file, m.summary.served, log, own);
    if (clue !== undefined) add(m.file, [clue]);
    if (note !== undefined) notes.push(note);
  }
  for (const [file, clue] of mtimes.clues) add(file, [clue]);

  const files = [...byFile.entries()].map(([file, clues]) => combine(file, clues));
  for (const f of files) {
    // A copied file with no clue of its own: the modification-time note above already says all there is.
    const onlyCopyTime = mtimes.verdict === 'copied' && f.dropped.length === 0 && f.clues.every((c) => c.kind === 'mtime');
    if (!onlyCopyTime) notes.push(describe(f));
    for (const d of f.dropped) notes.push(`${f.file}: not used: ${d.clue.text}, because ${d.why}`);
  }
  for (const c of input.clockless ?? []) notes.push(`${c.file}: ${c.why}`);

  const metricsFiles: EvidenceClock['metricsFiles'] = {};
  for (const m of input.metrics) metricsFiles[m.scrape] = m.file;
  // One note per fact: both /metrics files may find the same thing about the log.
  const clock: EvidenceClock = { files, metricsFiles, mtimes: { verdict: mtimes.verdict, text: mtimes.text }, notes: [...new Set([mtimes.text, ...notes])] };
  if (log !== undefined && input.kubeletLog !== undefined) {
    clock.log = { file: input.kubeletLog.file, plegUnhealthyMs: log.plegUnhealthyMs };
    if (log.lastMs !== undefined) clock.log.lastMs = log.lastMs;
  }
  const lower = files.filter((f) => f.notBeforeMs !== undefined && f.confidence !== 'conflict');
  if (lower.length > 0) {
    const latest = lower.reduce((a, b) => ((a.notBeforeMs as number) >= (b.notBeforeMs as number) ? a : b));
    clock.referenceMs = latest.notBeforeMs as number;
    const earlyEnd = files.find((f) => f.notAfterMs !== undefined && f.notAfterMs < (latest.notBeforeMs as number) - 60_000);
    if (earlyEnd !== undefined) {
      clock.notes.push(`the files were not captured at one time: ${earlyEnd.file} by ${isoSeconds(earlyEnd.notAfterMs as number)}, ${latest.file} not before ${isoSeconds(latest.notBeforeMs as number)}`);
    }
  }
  return clock;
}

/** The capture window of one file, if the clock has it. */
export function captureOf(clock: EvidenceClock | undefined, file: string): FileCapture | undefined {
  return clock?.files.find((f) => f.file === file);
}
