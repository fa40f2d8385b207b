// When a Kubernetes event last happened, one definition for the tree, the diagnostics and the gateway's
// ordering. core/v1 events carry firstTimestamp/lastTimestamp; events.k8s.io/v1 ones carry eventTime and
// leave those empty; the API server stamps metadata.creationTimestamp on all of them, and a real one can be
// a second after lastTimestamp. The latest stamp is when the event was last seen, whichever API wrote it.

import type { KubeEvent } from './objects';

function stampMs(value: string | Date | null | undefined): number {
  if (value instanceof Date) return value.getTime();
  return typeof value === 'string' ? Date.parse(value) : Number.NaN;
}

/** The latest of the event's stamps, or undefined when it has none that parses. */
export function eventLastSeen(event: KubeEvent): Date | undefined {
  let latest = Number.NaN;
  for (const value of [event.lastTimestamp, event.eventTime, event.firstTimestamp, event.metadata?.creationTimestamp]) {
    const ms = stampMs(value);
    if (!Number.isNaN(ms) && !(ms <= latest)) latest = ms;
  }
  return Number.isNaN(latest) ? undefined : new Date(latest);
}

/** Orders events newest first; events without a stamp go last. */
export function newestFirst(a: KubeEvent, b: KubeEvent): number {
  return (eventLastSeen(b)?.getTime() ?? -Infinity) - (eventLastSeen(a)?.getTime() ?? -Infinity) || 0;
}
