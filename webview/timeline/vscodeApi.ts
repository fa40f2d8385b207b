// acquireVsCodeApi() may be called once per webview; this module is the only caller. State survives the
// panel being hidden and a window reload (with the serializer) through getState/setState.

import type { HostToWebview, WebviewToHost } from '../../src/shared/timeline/panelProtocol';

interface PersistedState {
  /** Unchecked: whatever an older version stored; main.ts validates it before use. */
  params?: unknown;
  /** A run was shown: when the page is rebuilt (hidden and shown again, a reload) it runs again. */
  ran?: boolean;
  /** The node or recording the panel shows; the serializer hands these back to the host after a reload. */
  target?: { context: string; node: string } | null;
  recording?: string | null;
  /** The pane last selected. */
  pane?: 'timeline' | 'whatIf';
}

interface VsCodeApi {
  postMessage(message: WebviewToHost): void;
  getState(): PersistedState | undefined;
  setState(state: PersistedState): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

const api = acquireVsCodeApi();
let lastRequestId = 0;

/** Request ids are unique per page, across both panes. */
export function nextRequestId(): number {
  return ++lastRequestId;
}

export function post(message: WebviewToHost): void {
  api.postMessage(message);
}

export function loadState(): PersistedState {
  return api.getState() ?? {};
}

export function saveState(state: PersistedState): void {
  api.setState(state);
}

export function onHostMessage(handler: (message: HostToWebview) => void): void {
  window.addEventListener('message', (event: MessageEvent<HostToWebview>) => handler(event.data));
}
