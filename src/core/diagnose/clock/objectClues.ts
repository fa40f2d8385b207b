// Times written into API objects before they were read: each is a lower bound of when the object was
// captured. The Node's condition heartbeats are the freshest (the kubelet's setNodeStatus sets
// lastHeartbeatTime on every status it posts). While the kubelet posts (Ready True or False, not Unknown),
// it posts at least every nodeStatusReportFrequency (5 min by default) even when nothing changed, and the
// node controller turns Ready Unknown when neither a status nor a lease renewal came within its grace
// period (40 s; 50 s from 1.32), so the heartbeat also bounds the capture from above, softly.

import type { KubeEvent, KubeNode } from '../../kube/objects';
import type { ClockClue } from './clockTypes';
import { isoSeconds } from './clockText';

/** nodeStatusReportFrequency's default (5 min) + the node-monitor grace period (50 s from 1.32). */
export const HEARTBEAT_BOUND_MS = 350_000;

function timeOf(v: unknown): number | undefined {
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? undefined : v.getTime();
  if (typeof v !== 'string' || v === '') return undefined;
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? undefined : ms;
}

function latest(values: unknown[]): number | undefined {
  let best: number | undefined;
  for (const v of values) {
    const ms = timeOf(v);
    if (ms !== undefined && (best === undefined || ms > best)) best = ms;
  }
  return best;
}

type Rec = Record<string, unknown>;
const rec = (v: unknown): Rec | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Rec) : undefined);
const list = (v: unknown): Rec[] => (Array.isArray(v) ? v.map(rec).filter((r): r is Rec => r !== undefined) : []);

export function nodeClues(file: string, node: KubeNode): ClockClue[] {
  const clues: ClockClue[] = [];
  const n = rec(node) ?? {};
  const conditions = list(rec(n['status'])?.['conditions']);
  const heartbeat = latest(conditions.map((c) => c['lastHeartbeatTime']));
  const ready = conditions.find((c) => c['type'] === 'Ready');
  if (heartbeat !== undefined) {
    clues.push({ kind: 'heartbeat', notBeforeMs: heartbeat, firm: true, text: `${file}: the newest condition heartbeat is ${isoSeconds(heartbeat)}` });
    const status = ready?.['status'];
    if (status === 'True' || status === 'False') {
      clues.push({
        kind: 'heartbeat',
        notAfterMs: heartbeat + HEARTBEAT_BOUND_MS,
        firm: false,
        text: `${file}: Ready=${status}, so the kubelet was still posting status, at least every 5 minutes: read by ${isoSeconds(heartbeat + HEARTBEAT_BOUND_MS)}`,
      });
    }
  }
  const metadata = rec(n['metadata']);
  const written = latest([
    ...conditions.map((c) => c['lastTransitionTime']),
    ...list(metadata?.['managedFields']).map((f) => f['time']),
    metadata?.['creationTimestamp'],
  ]);
  if (written !== undefined && (heartbeat === undefined || written > heartbeat)) {
    clues.push({ kind: 'object-times', notBeforeMs: written, firm: true, text: `${file}: written at ${isoSeconds(written)} (a transition or managed-field time)` });
  }
  return clues;
}

export function eventClues(file: string, events: KubeEvent[]): ClockClue[] {
  const newest = latest(
    events.flatMap((e) => {
      const r = rec(e) ?? {};
      return [r['lastTimestamp'], r['eventTime'], r['firstTimestamp'], rec(r['series'])?.['lastObservedTime'], rec(r['metadata'])?.['creationTimestamp']];
    }),
  );
  if (newest === undefined) return [];
  return [{ kind: 'events', notBeforeMs: newest, firm: true, text: `${file}: the newest event is from ${isoSeconds(newest)}` }];
}
