// What `pleg-doctor npd-plugin` tells node-problem-detector (NPD), from the agent's /metrics text: NPD's
// custom-plugin protocol (pkg/custompluginmonitor/plugin/plugin.go, Plugin.run) reads the exit code (0 OK,
// 1 problem, anything else unknown) and stdout, trimmed of surrounding white space and cut to the
// monitor's max_output_length BYTES (80 by default), which becomes the NodeCondition's message. So the
// message is ASCII (a byte cut never splits a character) and the part that matters comes first.

import { formatPrediction, wholeSecondsText } from './npdPrediction';
import { parsePrometheusText, PrometheusTextError } from '../parse/prometheusText';
import type { MetricFamily } from '../parse/prometheusText';

/** The agent's metric names this reads (the agent contract of issue #28). */
export const PREDICTED_METRIC = 'pleg_doctor_notready_predicted_seconds';
export const FINDING_METRIC = 'pleg_doctor_finding';

/** NPD's default max_output_length (pkg/custompluginmonitor/types/config.go, ApplyConfiguration). */
export const NPD_MAX_OUTPUT_LENGTH = 80;

/**
 * How near the predicted NotReady post must be for a problem, by default: the same 2 minutes as the
 * PLEGNotReadyPredicted alert (deploy/prometheus/pleg-doctor.rules.yaml), so the NodeCondition and the alert
 * say "at risk" together. Without a bound the agent predicts a post some 3 minutes out a few seconds into any
 * relist that has not returned yet, and a slow relist that then finishes would flip the condition on and off.
 */
export const DEFAULT_WITHIN_SECONDS = 120;

export const NPD_OK = 0;
export const NPD_PROBLEM = 1;
/** Any code but 0 and 1 is "unknown" to NPD; 3 keeps it apart from the CLI's usage error (2). */
export const NPD_UNKNOWN = 3;

export interface NpdVerdict {
  exitCode: typeof NPD_OK | typeof NPD_PROBLEM | typeof NPD_UNKNOWN;
  /** One line, ASCII, at most `NPD_MAX_OUTPUT_LENGTH` bytes. */
  message: string;
}

/** Cut to NPD's output length, non-ASCII replaced (NPD cuts bytes, not characters). */
export function npdMessage(text: string, max = NPD_MAX_OUTPUT_LENGTH): string {
  const ascii = text.replace(/\s+/gu, ' ').trim().replace(/[^\x20-\x7e]/gu, '?');
  return ascii.length <= max ? ascii : `${ascii.slice(0, max - 3)}...`;
}

/** A verdict of "cannot tell" (exit unknown), e.g. when the agent does not answer. */
export function unknownVerdict(reason: string): NpdVerdict {
  return { exitCode: NPD_UNKNOWN, message: npdMessage(reason) };
}

/** The value of a family the agent serves as one series; undefined when absent or not one series. */
function single(families: readonly MetricFamily[], name: string): number | undefined {
  const samples = families.find((f) => f.name === name)?.samples ?? [];
  return samples.length === 1 ? samples[0]?.value : undefined;
}

/**
 * The verdict for NPD from the agent's /metrics body. At risk when the agent predicts a NotReady post
 * (a finite pleg_doctor_notready_predicted_seconds); with `cause`, only when that cause is also among
 * the failing node-side checks (pleg_doctor_finding{cause} 1); with `withinSeconds`, only when the predicted
 * post is at most that far away. The message names the predicted time and the failing checks in the order
 * the agent lists them.
 */
export function npdVerdict(metricsText: string, cause?: string, withinSeconds = Infinity): NpdVerdict {
  let families: MetricFamily[];
  try {
    families = parsePrometheusText(metricsText);
  } catch (e) {
    if (e instanceof PrometheusTextError) return unknownVerdict(`agent /metrics unreadable: ${e.message}`);
    throw e;
  }
  const predicted = single(families, PREDICTED_METRIC);
  if (predicted === undefined || Number.isNaN(predicted)) return unknownVerdict(`agent serves no single ${PREDICTED_METRIC}`);
  const causes = (families.find((f) => f.name === FINDING_METRIC)?.samples ?? []).filter((s) => s.value === 1).map((s) => s.labels['cause'] ?? '?');
  if (predicted === Infinity) return { exitCode: NPD_OK, message: npdMessage('no NotReady predicted') };
  if (predicted > withinSeconds) {
    return { exitCode: NPD_OK, message: npdMessage(`${formatPrediction(predicted)}, beyond ${wholeSecondsText(withinSeconds)}`) };
  }
  if (cause !== undefined && !causes.includes(cause)) {
    return { exitCode: NPD_OK, message: npdMessage(`${formatPrediction(predicted)}, not from ${cause}`) };
  }
  const why = causes.length === 0 ? 'no node-side cause found' : causes.join(', ');
  return { exitCode: NPD_PROBLEM, message: npdMessage(`${formatPrediction(predicted)}: ${why}`) };
}
