// The PLEGAtRisk NodeCondition as node-problem-detector (NPD) writes it with
// deploy/node-problem-detector/pleg-doctor-monitor.json, read back: is the node at risk, and how long until
// the predicted NotReady post, now.
//
// When the message was current, from NPD's source:
// - pkg/custompluginmonitor/custom_plugin_monitor.go, generateStatus: the condition's message only changes
//   together with `condition.Transition = timestamp` (a status change, a reason change, or a message change
//   when enable_message_change_based_condition_update is on; our monitor leaves it off, so a True
//   condition keeps the message of its first problem run). pkg/util/convert.go, ConvertToAPICondition, makes
//   Transition the lastTransitionTime. So the message's "predicted in X" counts from lastTransitionTime.
// - pkg/exporters/k8sexporter/problemclient/problem_client.go, SetConditions: every sync stamps every
//   condition's lastHeartbeatTime with now; pkg/exporters/k8sexporter/condition/manager.go, syncLoop: a sync
//   happens on a change, on a failed sync's resync (resyncPeriod 10 s) and at least every heartbeat period
//   (--k8s-exporter-heartbeat-period, 5m0s by default). A heartbeat older than period + resync means NPD
//   (or its way to the API server) stopped: the condition is then only what NPD last said.

import { parsePrediction, wholeSecondsText } from './npdPrediction';
import { formatAge } from '../tree/humanAge';
import { englishText } from '../tree/localize';

/** The condition type, and the reasons our monitor config writes (deploy/node-problem-detector/pleg-doctor-monitor.json). */
export const PLEG_AT_RISK = 'PLEGAtRisk';
export const AT_RISK_REASON = 'NotReadyPredicted';
export const NOT_AT_RISK_REASON = 'NoNotReadyPredicted';

/** NPD's default --k8s-exporter-heartbeat-period and its condition manager's resyncPeriod. */
export const NPD_HEARTBEAT_PERIOD_S = 300;
export const NPD_RESYNC_PERIOD_S = 10;
/** A heartbeat older than this: NPD has not synced when it would have; the condition may be out of date. */
export const NPD_STALE_AFTER_S = NPD_HEARTBEAT_PERIOD_S + NPD_RESYNC_PERIOD_S;

export interface PlegAtRisk {
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message: string;
  /** lastTransitionTime, ISO 8601: when NPD wrote this message. */
  since?: string;
  /** lastHeartbeatTime, ISO 8601: NPD's last sync. */
  lastHeartbeat?: string;
  /** The message's prediction: seconds from `since` to the NotReady post (0: due then); absent when it has none. */
  predictedS?: number;
}

export type AtRiskCountdown =
  /** NotReady in `seconds` (whole, > 0). */
  | { kind: 'in'; seconds: number }
  /** The predicted time has come (or the message said "due now"). */
  | { kind: 'due' }
  /** NPD's heartbeat is `asOfS` old (> NPD_STALE_AFTER_S): no live countdown from a condition NPD stopped updating. */
  | { kind: 'stale'; asOfS: number }
  /** No prediction in the message, or no lastTransitionTime to count from. */
  | { kind: 'unknown' };

type Rec = Record<string, unknown>;

function iso(v: unknown): string | undefined {
  const ms = v instanceof Date ? v.getTime() : typeof v === 'string' ? Date.parse(v) : Number.NaN;
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

/** The PLEGAtRisk condition among a Node's conditions (already records); undefined when there is none. */
export function readAtRisk(conditions: readonly Rec[], warnings: string[]): PlegAtRisk | undefined {
  const c = conditions.find((x) => x['type'] === PLEG_AT_RISK);
  if (c === undefined) return undefined;
  const raw = c['status'];
  const status = raw === 'True' || raw === 'False' ? raw : 'Unknown';
  if (raw !== 'True' && raw !== 'False' && raw !== 'Unknown') warnings.push(`${PLEG_AT_RISK} has an invalid status ${JSON.stringify(raw) ?? 'undefined'}`);
  const message = typeof c['message'] === 'string' ? c['message'] : '';
  const out: PlegAtRisk = { status, message };
  if (typeof c['reason'] === 'string' && c['reason'] !== '') out.reason = c['reason'];
  const since = iso(c['lastTransitionTime']);
  if (since !== undefined) out.since = since;
  else if (status === 'True') warnings.push(`${PLEG_AT_RISK} has no valid lastTransitionTime: no countdown to its prediction`);
  const beat = iso(c['lastHeartbeatTime']);
  if (beat !== undefined) out.lastHeartbeat = beat;
  const predicted = parsePrediction(message);
  if (predicted !== undefined) out.predictedS = predicted;
  return out;
}

/** Seconds between an ISO time and now (may be negative when the clocks disagree); undefined without a time. */
function ageS(when: string | undefined, now: Date): number | undefined {
  return when === undefined ? undefined : (now.getTime() - Date.parse(when)) / 1000;
}

/** How long until the predicted NotReady post at `now`: the message's prediction less the time since NPD wrote it. */
export function atRiskCountdown(a: PlegAtRisk, now: Date): AtRiskCountdown {
  const beatAge = ageS(a.lastHeartbeat, now);
  if (beatAge !== undefined && beatAge > NPD_STALE_AFTER_S) return { kind: 'stale', asOfS: beatAge };
  const since = ageS(a.since, now);
  if (a.predictedS === undefined || since === undefined) return { kind: 'unknown' };
  const left = Math.round(a.predictedS - Math.max(0, since));
  return left > 0 ? { kind: 'in', seconds: left } : { kind: 'due' };
}

/**
 * The countdown in English for the classifier's summary, the report and the timeline, e.g.
 * "NotReady in ~1m25s", "NotReady due", "as of 6m ago"; the tree words it through its Localize.
 */
export function countdownText(c: AtRiskCountdown): string {
  switch (c.kind) {
    case 'in':
      return `NotReady in ~${wholeSecondsText(c.seconds)}`;
    case 'due':
      return 'NotReady due';
    case 'stale':
      // The tree's own age words (one unit, floored), so row, report and timeline say the same.
      return `as of ${formatAge(c.asOfS, englishText)} ago`;
    case 'unknown':
      return 'NotReady predicted';
  }
}
