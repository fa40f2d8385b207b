// What a /metrics body says about when it was served. It carries no timestamp, and
// kubelet_pleg_last_seen_seconds is no clock of the capture (it is the last relist's start, hours old on a
// stuck node). But the Go runtime's own figures are: `go_memstats_last_gc_time_seconds` is the end of the
// last garbage collection before the body was gathered, and the runtime forces one whenever two minutes
// pass without (runtime/proc.go: `forcegcperiod = 2 * 60 * 1e9`, checked by sysmon, which sleeps at most
// forcegcperiod/2 when the process is idle). So the body was gathered at most ~3 minutes after that GC,
// unless GOGC=off (gcTrigger.test: no time trigger when gcPercent < 0).

import type { KubeletMetricsSummary } from '../../parse/kubeletEndpointTypes';
import type { ClockClue } from './clockTypes';
import { isoSeconds } from './clockText';

/** forcegcperiod (2 min) + sysmon's longest idle sleep (1 min) + a margin for the GC cycle and scheduling. */
export const FORCED_GC_BOUND_MS = 210_000;

/** The clues one /metrics body gives about itself. */
export function metricsClues(file: string, m: KubeletMetricsSummary): ClockClue[] {
  const clues: ClockClue[] = [];
  const served = m.served;
  const gc = served?.lastGcSeconds;
  if (gc !== undefined) {
    const gcMs = gc * 1000;
    const gcOff = served?.gogcPercent !== undefined && served.gogcPercent < 0;
    clues.push({ kind: 'go-gc', notBeforeMs: gcMs, firm: true, text: `${file}: go_memstats_last_gc_time_seconds = ${isoSeconds(gcMs)}: the body was gathered after that garbage collection` });
    if (!gcOff) {
      const assumed = served?.gogcPercent === undefined ? ' (GOGC is assumed on: the body has no go_gc_gogc_percent)' : '';
      clues.push({
        kind: 'go-gc',
        notAfterMs: gcMs + FORCED_GC_BOUND_MS,
        firm: false,
        text: `${file}: the Go runtime forces a garbage collection at least every 2 minutes, so the body was gathered by ${isoSeconds(gcMs + FORCED_GC_BOUND_MS)}${assumed}`,
      });
    }
  }
  const lastSeen = m.plegLastSeenSeconds;
  if (lastSeen !== undefined && lastSeen > 0) {
    clues.push({ kind: 'pleg-last-seen', notBeforeMs: lastSeen * 1000, firm: true, text: `${file}: kubelet_pleg_last_seen_seconds = ${isoSeconds(lastSeen * 1000)} (a relist start, not the capture: only a lower bound)` });
  }
  const start = served?.processStartSeconds;
  if (start !== undefined) {
    clues.push({ kind: 'process-start', notBeforeMs: start * 1000, firm: true, text: `${file}: the kubelet process started at ${isoSeconds(start * 1000)}` });
  }
  return clues;
}
