// Descriptions of the child rows under a node: the Ready condition with the kubelet's own message (PLEG
// text first, since that is what the user came for) and events with message, count and age.

import { eventLastSeen } from '../kube/eventTime';
import type { KubeEvent, NodeCondition } from '../kube/objects';
import { roundGoDurations } from '../util/goDuration';
import { conditionHealth } from './conditionHealth';
import { formatAge, secondsSince } from './humanAge';
import type { Localize } from './localize';

const PLEG_PART = /PLEG is not healthy:[^,\]]*/;

/** The kubelet's message with its "PLEG is not healthy: …" part moved to the front, brackets dropped. */
export function plegFirst(message: string): string {
  const text = message.trim().replace(/^\[(.*)\]$/s, '$1');
  const m = PLEG_PART.exec(text);
  if (m === null || m.index === 0) return text;
  const rest = (text.slice(0, m.index) + text.slice(m.index + m[0].length))
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .join(', ');
  return rest === '' ? m[0].trim() : `${m[0].trim()}, ${rest}`;
}

/** "False · PLEG is not healthy: …" for a bad condition with a message; "True · KubeletReady" otherwise. */
export function conditionDescription(condition: NodeCondition): string {
  const status = condition.status ?? '?';
  const health = conditionHealth(condition.type, condition.status);
  const message = condition.message?.trim() ?? '';
  if ((health === 'bad' || health === 'unknown') && message !== '') return `${status} · ${roundGoDurations(plegFirst(message))}`;
  return condition.reason === undefined || condition.reason === '' ? status : `${status} · ${condition.reason}`;
}

/** "3m ago · ×4 · Node x status is now: NodeNotReady": age first (short), then count, then the message. */
export function eventDescription(event: KubeEvent, now: Date, t: Localize): string {
  const parts: string[] = [];
  const ago = secondsSince(eventLastSeen(event), now);
  if (ago !== undefined) parts.push(t('{0} ago', formatAge(ago, t)));
  if (event.count !== undefined && event.count > 1) parts.push(`×${event.count}`);
  const message = event.message?.replace(/\s+/g, ' ').trim() ?? '';
  if (message !== '') parts.push(message);
  return parts.join(' · ');
}
