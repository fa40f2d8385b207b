// What a timeline panel keeps with the webview's setState, so that the serializer can bring the same
// panel back after a window reload. The webview writes it; on restore it is untrusted input, checked here.

import type { PanelTarget } from '../../shared/timeline/panelProtocol';

export interface RestoredPanel {
  /** The node the panel showed; null for the what-if-only panel. */
  target: PanelTarget | null;
  /** The recording file it replayed, if it was opened from one. */
  recording?: string;
}

const isName = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= 512;

/** Reads the state a restored webview left; anything unusable restores the what-if-only panel. */
export function restoredPanel(state: unknown): RestoredPanel {
  if (typeof state !== 'object' || state === null) return { target: null };
  const s = state as Record<string, unknown>;
  const recording = isName(s['recording']) ? s['recording'] : undefined;
  const target = s['target'];
  if (typeof target === 'object' && target !== null) {
    const { context, node } = target as Record<string, unknown>;
    if (isName(context) && isName(node)) return recording === undefined ? { target: { context, node } } : { target: { context, node }, recording };
  }
  return recording === undefined ? { target: null } : { target: null, recording };
}
