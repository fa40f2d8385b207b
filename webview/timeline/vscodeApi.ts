// acquireVsCodeApi() may be called once per webview; this module is the only caller.

import type { HostToWebview, WebviewToHost, WhatIfParams } from '../../src/shared/panelProtocol';

interface PersistedState {
  params?: WhatIfParams;
}

interface VsCodeApi {
  postMessage(message: WebviewToHost): void;
  getState(): PersistedState | undefined;
  setState(state: PersistedState): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

const api = acquireVsCodeApi();

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
