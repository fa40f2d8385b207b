// The "what-if" timeline: the user sets pods, CRI latency, churn and an optional runtime freeze; the host
// runs the PLEG simulator and sends back every relist; this page draws it against the 3-minute threshold.

import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
import '@vscode-elements/elements/dist/vscode-label/index.js';
import 'uplot/dist/uPlot.min.css';
import './timeline.css';
import type { HostToWebview, TimelineData, WhatIfParams } from '../../src/shared/panelProtocol';
import { renderChart } from './chart';
import { loadState, onHostMessage, post, saveState } from './vscodeApi';

type NumericKey = Exclude<keyof WhatIfParams, 'kubelet'>;
const NUMERIC_FIELDS: NumericKey[] = ['pods', 'containersPerPod', 'rpcLatencyMs', 'changedPodsPerRelist', 'freezeAtS', 'freezeForS', 'durationS'];

let strings: Record<string, string> = {};
let params: WhatIfParams | undefined;
let nextRequestId = 1;
let pendingRequestId = 0;

const t = (key: string): string => strings[key] ?? key;

function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className !== undefined) node.className = className;
  return node;
}

function buildForm(initial: WhatIfParams): HTMLFormElement {
  const form = el('form', undefined, 'params');
  for (const key of NUMERIC_FIELDS) {
    const id = `param-${key}`;
    const label = el('vscode-label', t(`param.${key}`));
    label.setAttribute('for', id);
    const field = document.createElement('vscode-textfield');
    field.id = id;
    field.setAttribute('type', 'number');
    field.setAttribute('value', String(initial[key]));
    field.dataset['key'] = key;
    form.append(label, field);
  }
  const kubeletLabel = el('vscode-label', t('param.kubelet'));
  kubeletLabel.setAttribute('for', 'param-kubelet');
  const kubelet = document.createElement('vscode-single-select');
  kubelet.id = 'param-kubelet';
  for (const line of ['1.26', '1.32'] as const) {
    const option = el('vscode-option', line === '1.26' ? '1.26 – 1.31' : '1.32+');
    option.setAttribute('value', line);
    if (initial.kubelet === line) option.setAttribute('selected', '');
    kubelet.append(option);
  }
  const run = el('vscode-button', t('run'));
  run.id = 'run';
  run.addEventListener('click', () => requestSimulation(form));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    requestSimulation(form);
  });
  form.append(kubeletLabel, kubelet, run);
  return form;
}

function readForm(form: HTMLFormElement): WhatIfParams | string {
  const read: Partial<WhatIfParams> = {};
  for (const key of NUMERIC_FIELDS) {
    const field = form.querySelector<HTMLElement & { value: string }>(`#param-${key}`);
    const value = Number(field?.value);
    if (!Number.isFinite(value)) return `${t(`param.${key}`)}: ${t('notANumber')}`;
    read[key] = value;
  }
  const kubelet = form.querySelector<HTMLElement & { value: string }>('#param-kubelet')?.value;
  read.kubelet = kubelet === '1.32' ? '1.32' : '1.26';
  return read as WhatIfParams;
}

function requestSimulation(form: HTMLFormElement): void {
  const read = readForm(form);
  if (typeof read === 'string') {
    showError(read);
    return;
  }
  params = read;
  saveState({ params });
  pendingRequestId = nextRequestId++;
  setBusy(true);
  post({ type: 'simulate', requestId: pendingRequestId, params });
}

function setBusy(busy: boolean): void {
  document.getElementById('status')!.textContent = busy ? t('running') : '';
  document.getElementById('run')?.toggleAttribute('disabled', busy);
}

function showError(message: string): void {
  setBusy(false);
  const box = document.getElementById('error')!;
  box.textContent = message;
  box.hidden = false;
}

function showTimeline(data: TimelineData): void {
  setBusy(false);
  document.getElementById('error')!.hidden = true;
  document.getElementById('title')!.textContent = data.title;
  renderChart(document.getElementById('chart')!, data, {
    duration: t('axis.duration'),
    threshold: t('axis.threshold'),
    failed: t('axis.failed'),
    time: t('axis.time'),
  });
  const notes = document.getElementById('notes')!;
  notes.replaceChildren(...data.notes.map((note) => el('li', note)));
  const failed = data.relists.filter((r) => !r.ok).length;
  const longest = data.relists.reduce((max, r) => Math.max(max, r.durationMs), 0);
  document.getElementById('summary')!.textContent = t('summary')
    .replace('{relists}', String(data.relists.length))
    .replace('{failed}', String(failed))
    .replace('{longest}', (longest / 1000).toFixed(3));
}

function start(message: Extract<HostToWebview, { type: 'init' }>): void {
  strings = message.strings;
  params = loadState().params ?? message.params;
  const app = document.getElementById('app')!;
  const status = el('p', '', 'status');
  status.id = 'status';
  status.setAttribute('role', 'status');
  const error = el('p', '', 'error');
  error.id = 'error';
  error.setAttribute('role', 'alert');
  error.hidden = true;
  const title = el('h2', t('title'));
  title.id = 'title';
  const chart = el('div', undefined, 'chart');
  chart.id = 'chart';
  chart.setAttribute('aria-label', t('chartLabel'));
  const summary = el('p', '', 'summary');
  summary.id = 'summary';
  const notes = el('ul', undefined, 'notes');
  notes.id = 'notes';
  app.replaceChildren(title, buildForm(params), status, error, chart, summary, notes);
}

onHostMessage((message) => {
  switch (message.type) {
    case 'init':
      start(message);
      break;
    case 'timeline':
      if (message.requestId === pendingRequestId) showTimeline(message.data);
      break;
    case 'error':
      if (message.requestId === pendingRequestId) showError(message.message);
      break;
  }
});

post({ type: 'ready' });
