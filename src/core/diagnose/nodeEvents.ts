// Reading the node's events: Ready flapping (E1 "Node X status is now: NodeNotReady/NodeReady") and a
// recent kubelet start (reason "Starting").

import { eventLastSeen } from '../kube/eventTime';
import type { KubeEvent } from '../kube/objects';

function eventTime(e: KubeEvent): number | undefined {
  return eventLastSeen(e)?.getTime();
}

/** Ready transitions among the events: how many, and their mean spacing. Undefined when there are fewer than two. */
export function readyFlaps(events: KubeEvent[] | undefined): { transitions: number; meanGapSeconds: number } | undefined {
  if (events === undefined) return undefined;
  const times: number[] = [];
  let count = 0;
  for (const e of events) {
    if (e === null || typeof e !== 'object') continue;
    if (e.reason !== 'NodeNotReady' && e.reason !== 'NodeReady') continue;
    const n = typeof e.count === 'number' && e.count > 0 ? e.count : 1;
    count += n;
    const t = eventTime(e);
    if (t !== undefined) times.push(t);
  }
  if (count < 2) return undefined;
  times.sort((a, b) => a - b);
  const first = times[0];
  const last = times[times.length - 1];
  const span = first !== undefined && last !== undefined ? (last - first) / 1000 : 0;
  return { transitions: count, meanGapSeconds: count > 1 ? span / (count - 1) : 0 };
}

/** The most recent kubelet "Starting" event, as epoch ms. */
export function lastKubeletStart(events: KubeEvent[] | undefined): number | undefined {
  let latest: number | undefined;
  for (const e of events ?? []) {
    if (e === null || typeof e !== 'object' || e.reason !== 'Starting') continue;
    const t = eventTime(e);
    if (t !== undefined && (latest === undefined || t > latest)) latest = t;
  }
  return latest;
}
