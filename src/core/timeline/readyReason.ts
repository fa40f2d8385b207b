// The reason a Ready lane segment is labelled with: what the kubelet put in the Ready condition's message,
// cut to the words before each error's detail, e.g. "container runtime is down" or "container runtime is
// down, PLEG is not healthy" (the kubelet joins its errors: kubelet_node_status.go, setNodeReadyCondition,
// through errors.Join / utilerrors.NewAggregate, which parseReadyMessage splits). The node lifecycle
// controller's Unknown ("Kubelet stopped posting node status.") keeps its sentence.

import { parseReadyMessage } from '../parse/readyMessage';
import type { SessionReady } from './session';

export function readyReason(ready: Pick<SessionReady, 'status' | 'reason' | 'message'>): string {
  if (ready.status === 'True') return '';
  const parts: string[] = [];
  for (const error of parseReadyMessage(ready.message).errors) {
    // "PLEG is not healthy: pleg was last seen active …" → "PLEG is not healthy".
    const head = error.text.split(':')[0]?.trim() ?? '';
    if (head !== '' && !parts.includes(head)) parts.push(head);
  }
  if (parts.length > 0) return parts.join(', ');
  const message = ready.message.trim();
  return message !== '' ? message : ready.reason;
}
