// `now − kubelet_pleg_last_seen_seconds`, measured against the right clock. Live, and for a bundle with
// bundle.json, that is the collector's own clock at the scrape: exact. For a folder without one it is the
// capture window the evidence gives for the metrics file (captureClock.ts): the age is then a range, and a
// range that straddles the 3 minute threshold decides nothing.
//
// A derived clock can be wrong in ways the collector's cannot (a log in another zone, files from two
// moments), so when it says "stale" while the evidence of the same node says the relist is running, the
// staleness is doubted, not reported: see stalenessDoubts.

import type { NodeClassification } from '../../classify/types';
import type { GoroutineSummary } from '../../parse/kubeletEndpointTypes';
import { captureOf, windowSources } from './captureClock';
import type { EvidenceClock } from './clockTypes';
import { isoMillis, isoSeconds } from './clockText';

export interface PlegAgeReading {
  /** Seconds since the last successful relist started, at the capture: at least this… */
  minSeconds: number;
  /** …and at most this; undefined when the capture has no latest bound. */
  maxSeconds?: number;
  /** The clock the age was measured against, for people. */
  clock: string;
  /** The collector's own clock (live, or bundle.json's collectedAt): the age is exact. */
  collectorClock: boolean;
  /** Why the capture time is unknown, when it is. */
  unknownBecause?: string;
}

/** The age of `lastSeenSeconds` in the metrics body `file`, by the folder's clock or the collector's `now`. */
export function plegAgeReading(lastSeenSeconds: number, clock: EvidenceClock | undefined, file: string, now: Date): PlegAgeReading {
  const lastSeenMs = lastSeenSeconds * 1000;
  if (clock === undefined) {
    const age = (now.getTime() - lastSeenMs) / 1000;
    return { minSeconds: age, maxSeconds: age, clock: `the collector's clock (the scrape at ${isoMillis(now.getTime())})`, collectorClock: true };
  }
  const capture = captureOf(clock, file);
  if (capture === undefined || capture.notBeforeMs === undefined || capture.confidence === 'conflict') {
    const why = capture?.reason ?? 'nothing in the folder tells when it was captured';
    return { minSeconds: 0, clock: `no clock: ${file}'s capture time is unknown (${why})`, collectorClock: false, unknownBecause: why };
  }
  const reading: PlegAgeReading = {
    minSeconds: Math.max(0, (capture.notBeforeMs - lastSeenMs) / 1000),
    clock: `${file}'s capture time from the evidence: ${windowSources(capture).join('; ')}`,
    collectorClock: false,
  };
  if (capture.notAfterMs !== undefined) reading.maxSeconds = Math.max(0, (capture.notAfterMs - lastSeenMs) / 1000);
  else reading.clock += ` (no latest bound: ${file} may have been captured any time after ${isoSeconds(capture.notBeforeMs)})`;
  return reading;
}

/** The kubelet would log "PLEG is not healthy" within this long of crossing the threshold (sync loop backoff ≤ 5 s, plus slack for a blocked loop). */
const PLEG_LINE_WITHIN_MS = 60_000;

export interface DoubtInput {
  lastSeenSeconds: number;
  thresholdSeconds: number;
  classification: NodeClassification;
  goroutines?: GoroutineSummary;
  clock: EvidenceClock;
}

/**
 * Evidence of the same node that says the relist is running, against a derived clock that says it is stale:
 * Ready=True posted after the threshold would have passed; the relist goroutine idle between relists while
 * the kubelet reports no runtime error; a kubelet log that runs past the threshold without a PLEG line.
 */
export function stalenessDoubts(input: DoubtInput): string[] {
  const doubts: string[] = [];
  const c = input.classification;
  const staleAtMs = (input.lastSeenSeconds + input.thresholdSeconds) * 1000;
  const heartbeat = c.lastHeartbeat !== undefined ? Date.parse(c.lastHeartbeat) : Number.NaN;
  if (c.readyStatus === 'True' && Number.isFinite(heartbeat) && heartbeat > staleAtMs) {
    doubts.push(`node.json says Ready=True with a heartbeat at ${isoSeconds(heartbeat)}, after the relist of the metric would have been 3m0s old`);
  }
  const runtimeReported = c.errors.some((e) => e.kind === 'runtime-down' || e.kind === 'runtime-not-ready' || e.kind === 'pleg-stale');
  const relist = input.goroutines?.relist;
  if (relist !== undefined && relist.blockedIn === 'idle' && relist.waitMinutes === undefined && !runtimeReported) {
    doubts.push(`goroutines.txt shows the relist goroutine idle between relists ([${relist.state}]), not stuck`);
  }
  const log = input.clock.log;
  if (log !== undefined && log.lastMs !== undefined && log.lastMs > staleAtMs + PLEG_LINE_WITHIN_MS && !log.plegUnhealthyMs.some((ms) => ms >= staleAtMs)) {
    doubts.push(`${log.file} runs to ${isoSeconds(log.lastMs)}, past the moment PLEG would have turned unhealthy (${isoSeconds(staleAtMs)}), without a "PLEG is not healthy" line`);
  }
  return doubts;
}
