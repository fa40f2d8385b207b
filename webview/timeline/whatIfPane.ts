// The "what-if" pane: the user sets pods, CRI latency, churn and an optional runtime freeze; the host
// runs the PLEG simulator in a worker and sends back the chart's series; this pane draws them against
// the 3-minute threshold and states the findings, most important first. The strings come from the host
// (localized there); the few messages that are built here from them stay in that language.

import { checkWhatIfParams } from '../../src/core/timeline/whatIf/whatIfParams';
import { KUBELET_LINE_LABELS, KUBELET_LINES, WHAT_IF_NUMERIC_KEYS, type WhatIfNumericKey } from '../../src/core/timeline/whatIf/whatIfTypes';
import type { WhatIfResult, WhatIfParams } from '../../src/shared/timeline/panelProtocol';
import { renderChart } from './chart';
import { t } from './strings';
import { loadState, nextRequestId, post, saveState } from './vscodeApi';
import { el, liveRegion } from './dom';

let pendingRequestId = 0;

function buildForm(initial: WhatIfParams): HTMLFormElement {
  const form = el('form', undefined, 'params');
  for (const key of WHAT_IF_NUMERIC_KEYS) {
    const id = `param-${key}`;
    const label = el('vscode-label', t(`param.${key}`));
    label.setAttribute('for', id);
    const field = document.createElement('vscode-textfield');
    field.id = id;
    // Text, not type="number": vscode-textfield re-renders its input from its value on every keystroke,
    // and a number input's value is "" while it holds "-", so "-5" became "5" and ran. As text, what was
    // typed is what is checked (readForm), and "-5" is refused with the field's range.
    field.setAttribute('type', 'text');
    field.setAttribute('inputmode', 'decimal');
    field.setAttribute('value', String(initial[key]));
    field.dataset['key'] = key;
    form.append(label, field);
  }
  const kubeletLabel = el('vscode-label', t('param.kubelet'));
  kubeletLabel.setAttribute('for', 'param-kubelet');
  const kubelet = document.createElement('vscode-single-select');
  kubelet.id = 'param-kubelet';
  for (const line of KUBELET_LINES) {
    const option = el('vscode-option', KUBELET_LINE_LABELS[line]);
    option.setAttribute('value', line);
    if (initial.kubelet === line) option.setAttribute('selected', '');
    kubelet.append(option);
  }
  const buttons = el('div', undefined, 'buttons');
  const run = el('vscode-button', t('run'));
  run.id = 'run';
  run.addEventListener('click', () => requestSimulation(form));
  const cancel = el('vscode-button', t('cancel'));
  cancel.id = 'cancel';
  cancel.setAttribute('secondary', '');
  cancel.hidden = true;
  cancel.addEventListener('click', () => cancelSimulation());
  buttons.append(run, cancel);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    requestSimulation(form);
  });
  form.append(kubeletLabel, kubelet, buttons);
  return form;
}

/** The form's values, checked with the same rules the host applies; a message naming the field if not. */
function readForm(form: HTMLFormElement): WhatIfParams | string {
  const read: Record<string, unknown> = {};
  for (const key of WHAT_IF_NUMERIC_KEYS) {
    const raw = form.querySelector<HTMLElement & { value: string }>(`#param-${key}`)?.value ?? '';
    const value = raw.trim() === '' ? Number.NaN : Number(raw);
    if (!Number.isFinite(value)) return t('notANumber', t(`param.${key}`));
    read[key] = value;
  }
  const line = form.querySelector<HTMLElement & { value: string }>('#param-kubelet')?.value;
  // The select offers only the lines; without a choice the what-if runs the default line.
  read['kubelet'] = KUBELET_LINES.find((l) => l === line) ?? '1.32';
  const checked = checkWhatIfParams(read);
  if (checked.ok) return checked.params;
  const problem = checked.problem;
  if (problem.kind === 'outOfRange') return t('outOfRange', t(`param.${problem.field as WhatIfNumericKey}`), problem.min, problem.max);
  return t('notANumber', problem.kind === 'notANumber' ? t(`param.${problem.field}`) : problem.kind);
}

function requestSimulation(form: HTMLFormElement): void {
  const read = readForm(form);
  if (typeof read === 'string') {
    showError(read);
    return;
  }
  saveState({ ...loadState(), params: read });
  pendingRequestId = nextRequestId();
  setBusy(true);
  hideError();
  post({ type: 'simulate', requestId: pendingRequestId, params: read });
}

function cancelSimulation(): void {
  if (pendingRequestId === 0) return;
  post({ type: 'cancel', requestId: pendingRequestId });
  pendingRequestId = 0;
  setBusy(false);
  document.getElementById('status')!.textContent = t('cancelled');
}

function setBusy(busy: boolean): void {
  const status = document.getElementById('status');
  if (status) status.textContent = busy ? t('running') : '';
  document.getElementById('run')?.toggleAttribute('disabled', busy);
  const cancel = document.getElementById('cancel');
  if (cancel) cancel.hidden = !busy;
}

function hideError(): void {
  const box = document.getElementById('error');
  if (box) box.hidden = true;
  setStale(false);
}

/**
 * The findings and chart of the last run no longer answer the knobs on screen while an error stands
 * under them: they are dimmed (and marked for screen readers) until a run succeeds.
 */
function setStale(stale: boolean): void {
  // Nothing to dim before the first run.
  if (stale && (document.getElementById('chart')?.childElementCount ?? 0) === 0) return;
  for (const id of ['title', 'notes', 'chart', 'approximate']) {
    const node = document.getElementById(id);
    if (node === null) continue;
    node.classList.toggle('stale', stale);
    if (stale) node.setAttribute('aria-disabled', 'true');
    else node.removeAttribute('aria-disabled');
  }
}

export function showError(message: string): void {
  setBusy(false);
  const box = document.getElementById('error');
  if (box === null) {
    // Before `init` (the host refused our `ready`) there is no page yet: the message is the page.
    const alert = el('p', message, 'error');
    alert.setAttribute('role', 'alert');
    document.getElementById('app')!.replaceChildren(alert);
    return;
  }
  box.textContent = message;
  box.hidden = false;
  setStale(true);
}

function showTimeline(data: WhatIfResult): void {
  pendingRequestId = 0;
  saveState({ ...loadState(), ran: true });
  setBusy(false);
  hideError();
  document.getElementById('title')!.textContent = data.title;
  const notes = document.getElementById('notes')!;
  notes.replaceChildren(...data.findings.map((f, i) => el('li', f.text, `finding finding-${f.level}${i === 0 ? ' headline' : ''}`)));
  renderChart(document.getElementById('chart')!, data, {
    time: t('axis.time'),
    healthAxis: t('axis.health'),
    durationAxis: t('axis.duration'),
    health: t('series.health'),
    threshold: t('series.threshold'),
    duration: t('series.duration'),
    failed: t('series.failed'),
    unfinished: t('series.unfinished'),
    unhealthyBand: t('band.unhealthy'),
    notReadyBand: t('band.notReady'),
  });
  const approximate = document.getElementById('approximate')!;
  approximate.hidden = !data.approximate;
}

/** The what-if pane's elements; `params` are the knobs to show (saved ones, or the host's defaults). */
export function buildWhatIf(params: WhatIfParams): { elements: HTMLElement[]; rerun: () => void } {
  const status = liveRegion('p', 'status', 'status', 'status');
  const error = liveRegion('p', 'error', 'error', 'alert');
  error.hidden = true;
  const title = el('h2', t('title'));
  title.id = 'title';
  // Findings come first: the most important one is what the user should read before the chart.
  const notes = el('ul', undefined, 'notes');
  notes.id = 'notes';
  const chart = el('div', undefined, 'chart');
  chart.id = 'chart';
  chart.setAttribute('role', 'img');
  chart.setAttribute('aria-label', t('chartLabel'));
  const approximate = el('p', t('approximate'), 'approximate');
  approximate.id = 'approximate';
  approximate.hidden = true;
  const form = buildForm(params);
  return { elements: [title, form, status, error, notes, chart, approximate], rerun: () => requestSimulation(form) };
}

/** The host's answer to a simulation request. */
export function onWhatIfTimeline(requestId: number, data: WhatIfResult): void {
  if (requestId === pendingRequestId) showTimeline(data);
}

/** A host error: shown when it belongs to the pending simulation or to no request; true when shown. */
export function onWhatIfError(requestId: number | null, message: string): boolean {
  if (requestId !== null && requestId !== pendingRequestId) return false;
  pendingRequestId = 0;
  showError(message);
  return true;
}
