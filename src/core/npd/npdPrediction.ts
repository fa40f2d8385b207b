// The prediction part of the PLEGAtRisk message, written and read here only: `pleg-doctor npd-plugin`
// prints it (npdVerdict.ts), node-problem-detector (NPD) copies it into the Node's PLEGAtRisk condition, and
// the Nodes tree, the report and the timeline read it back (atRiskCondition.ts). One format, two ends.
//
//   NotReady predicted in 1m35s[: causes]   NotReady expected 1m35s after NPD ran the plugin
//   NotReady due now[: causes]              the agent's prediction had already run out

import { formatGoDuration, GoDurationError, parseGoDurationSeconds } from '../util/goDuration';

const PREDICTED = 'NotReady predicted in ';
const DUE = 'NotReady due now';

/** Whole seconds (rounded, at least 0) as Go prints a duration: `1m35s`. */
export function wholeSecondsText(seconds: number): string {
  return formatGoDuration(BigInt(Math.max(0, Math.round(seconds))) * 1_000_000_000n);
}

/** `NotReady predicted in 1m10s` (whole seconds), or `NotReady due now` below 0.5 s. */
export function formatPrediction(seconds: number): string {
  return Math.round(seconds) <= 0 ? DUE : `${PREDICTED}${wholeSecondsText(seconds)}`;
}

/**
 * The seconds from the plugin's run to the predicted NotReady post that `formatPrediction` wrote at the
 * start of `message` (0 for "due now"); undefined when the message does not start with either form (NPD's
 * default message, "no NotReady predicted", an "unknown" message, or someone else's text).
 */
export function parsePrediction(message: string): number | undefined {
  const text = message.trim();
  if (text.startsWith(DUE) && /^(?::|$)/u.test(text.slice(DUE.length))) return 0;
  if (!text.startsWith(PREDICTED)) return undefined;
  // The duration runs to the ':' before the causes, or to the end (NPD may cut the message, never inside
  // the duration: it comes first and is short).
  const duration = /^[0-9.a-zµ]+/u.exec(text.slice(PREDICTED.length))?.[0];
  if (duration === undefined) return undefined;
  try {
    return parseGoDurationSeconds(duration);
  } catch (e) {
    if (e instanceof GoDurationError) return undefined;
    throw e;
  }
}
