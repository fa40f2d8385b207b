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
/**
 * The agent's prediction of the kubelet's other NotReady from the same health check (pkg/kubelet/runtime.go,
 * runtimeErrors): "container runtime is down". Optional: agents before it served only the PLEG one.
 */
export const RUNTIME_DOWN_METRIC = 'pleg_doctor_runtime_down_predicted_seconds';
/** How the message names a nearer runtime-down post, ahead of the failing checks: the kubelet's own words. */
export const RUNTIME_DOWN_WHY = 'container runtime is down';
export const RELIST_AGE_METRIC = 'pleg_doctor_relist_age_seconds';
/**
 * A runtime-down prediction counts once no relist has succeeded for this long: the kubelet polls the
 * runtime's Status every 5 s (pkg/kubelet/kubelet.go, `go wait.Until(kl.updateRuntimeUp, 5*time.Second, …)`),
 * so by then its own poll waits in the same hang and its last good Status stops moving. A shorter hiccup
 * may pass before the kubelet notices, and would only flip the condition for one plugin interval.
 */
export const RUNTIME_DOWN_MIN_RELIST_AGE_SECONDS = 5;
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
 * The verdict for NPD from the agent's /metrics body. At risk when the agent predicts a NotReady post: the
 * "PLEG is not healthy" one (a finite pleg_doctor_notready_predicted_seconds) or, sooner, the "container
 * runtime is down" one of the same kubelet health check (pleg_doctor_runtime_down_predicted_seconds, when
 * served, once no relist has succeeded for RUNTIME_DOWN_MIN_RELIST_AGE_SECONDS): on a runtime that hangs the kubelet posts that one some 30-40 s in, long before PLEG's crossing,
 * and a condition that waited for PLEG's would come after the node is already NotReady. With `cause`, only
 * when that cause is also among the failing node-side checks (pleg_doctor_finding{cause} 1); with
 * `withinSeconds`, only when the nearer predicted post is at most that far away. The message names the
 * predicted time, then "container runtime is down" when that is the nearer post, then the failing checks in
 * the order the agent lists them.
 */
export function npdVerdict(metricsText: string, cause?: string, withinSeconds = Infinity): NpdVerdict {
  let families: MetricFamily[];
  try {
    families = parsePrometheusText(metricsText);
  } catch (e) {
    if (e instanceof PrometheusTextError) return unknownVerdict(`agent /metrics unreadable: ${e.message}`);
    throw e;
  }
  const pleg = single(families, PREDICTED_METRIC);
  if (pleg === undefined || Number.isNaN(pleg)) return unknownVerdict(`agent serves no single ${PREDICTED_METRIC}`);
  const served = families.some((f) => f.name === RUNTIME_DOWN_METRIC);
  const predictedDown = served ? single(families, RUNTIME_DOWN_METRIC) : Infinity;
  if (predictedDown === undefined || Number.isNaN(predictedDown)) return unknownVerdict(`agent serves no single ${RUNTIME_DOWN_METRIC}`);
  // 0 (posted or due) counts whatever the age: after the thaw the relist age is back to 0 until Ready is posted.
  const relistAge = single(families, RELIST_AGE_METRIC) ?? Infinity;
  const runtimeDown = predictedDown === 0 || relistAge >= RUNTIME_DOWN_MIN_RELIST_AGE_SECONDS ? predictedDown : Infinity;
  const predicted = Math.min(pleg, runtimeDown);
  const causes = (families.find((f) => f.name === FINDING_METRIC)?.samples ?? []).filter((s) => s.value === 1).map((s) => s.labels['cause'] ?? '?');
  if (predicted === Infinity) return { exitCode: NPD_OK, message: npdMessage('no NotReady predicted') };
  if (predicted > withinSeconds) {
    return { exitCode: NPD_OK, message: npdMessage(`${formatPrediction(predicted)}, beyond ${wholeSecondsText(withinSeconds)}`) };
  }
  if (cause !== undefined && !causes.includes(cause)) {
    return { exitCode: NPD_OK, message: npdMessage(`${formatPrediction(predicted)}, not from ${cause}`) };
  }
  const whys = [...(runtimeDown < pleg ? [RUNTIME_DOWN_WHY] : []), ...causes];
  const why = whys.length === 0 ? 'no node-side cause found' : whys.join(', ');
  return { exitCode: NPD_PROBLEM, message: npdMessage(`${formatPrediction(predicted)}: ${why}`) };
}
