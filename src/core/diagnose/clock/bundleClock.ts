// The capture clock of an evidence folder without bundle.json: the parsed files and the raw kubelet log
// handed to deriveCaptureClock, with the file names the folder uses.

import type { NodeEvidence } from '../evidence';
import { DEFAULT_RUNTIME_REQUEST_TIMEOUT_MS } from '../checkContext';
import { deriveCaptureClock, type CaptureClockInput } from './captureClock';
import type { EvidenceClock } from './clockTypes';

/** File names as BUNDLE_FILES spells them (kept here so this module does not import bundle.ts). */
export interface BundleClockFiles {
  metrics: string;
  metricsLater: string;
  node: string;
  events: string;
  kubeletLog: string;
  goroutines: string;
}

export function bundleClock(evidence: NodeEvidence, names: BundleClockFiles, kubeletLog: string | undefined, mtimes: Record<string, number>): EvidenceClock {
  const input: CaptureClockInput = { metrics: [], mtimes, scrapeHangMs: DEFAULT_RUNTIME_REQUEST_TIMEOUT_MS, node: { file: names.node, value: evidence.node } };
  if (evidence.metrics.status === 'ok') input.metrics.push({ file: names.metrics, summary: evidence.metrics.value, scrape: 'metrics' });
  if (evidence.metricsLater.status === 'ok') input.metrics.push({ file: names.metricsLater, summary: evidence.metricsLater.value, scrape: 'metricsLater' });
  if (evidence.events.status === 'ok') input.events = { file: names.events, value: evidence.events.value };
  if (kubeletLog !== undefined) input.kubeletLog = { file: names.kubeletLog, text: kubeletLog };
  if (evidence.configz.status === 'ok' && evidence.configz.value.runtimeRequestTimeoutMs > 0) input.scrapeHangMs = evidence.configz.value.runtimeRequestTimeoutMs;
  if (evidence.goroutines.status === 'ok') input.clockless = [{ file: names.goroutines, why: 'a goroutine dump has no clock: its wait times ([select, 3 minutes]) count from the dump itself' }];
  return deriveCaptureClock(input);
}
