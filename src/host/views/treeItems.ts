// Element → TreeItem. Labels are names (stable for the e2e suite), descriptions start with the verdict,
// colours are theme colour ids, and every row has an accessibility label.

import * as vscode from 'vscode';
import { conditionHealth } from '../../core/tree/conditionHealth';
import type { ContextNodes, NodeEntry } from '../../core/tree/contextNodes';
import { clusterErrorContextValue, contextContextValue, nodeContextValue } from '../../core/tree/contextValue';
import { entryFlaps } from '../../core/tree/contextNodes';
import { codeBlock, escapeMarkdown } from '../../core/tree/markdown';
import { describeNode } from '../../core/tree/nodeDescription';
import { conditionDescription, eventDescription } from '../../core/tree/rowText';
import { eventLastSeen } from '../../core/kube/eventTime';
import type { ClockOptions } from '../../core/tree/timeText';
import { formatWhen } from '../../core/tree/timeText';
import type { IconSpec } from '../../core/tree/verdictPresentation';
import { verdictIcon } from '../../core/tree/verdictPresentation';
import { t } from '../l10n';
import type { ClusterErrorElement, ConditionElement, EventElement, EventsElement, NoticeElement } from './treeElements';
import { elementId } from './treeElements';

export function themeIcon(spec: IconSpec): vscode.ThemeIcon {
  return spec.color === undefined ? new vscode.ThemeIcon(spec.id) : new vscode.ThemeIcon(spec.id, new vscode.ThemeColor(spec.color));
}

/** Tooltip times in the display language of VS Code and the machine's time zone. */
export function clockOptions(): ClockOptions {
  // Read defensively: the unit tests' vscode stub has no `env`; Intl's default locale is then used.
  const language = (vscode as { env?: { language?: string } }).env?.language;
  return language === undefined ? {} : { locale: language };
}

function markdown(text: string): vscode.MarkdownString {
  // Untrusted on purpose: cluster-supplied text must never run commands or render HTML.
  const md = new vscode.MarkdownString(text);
  md.isTrusted = false;
  md.supportHtml = false;
  return md;
}

export function contextDescription(group: ContextNodes): string {
  const counts = group.counts();
  switch (group.state.kind) {
    case 'connecting':
      return t('connecting…');
    case 'reconnecting':
      return counts.total > 0
        ? t('{0} nodes · reconnecting (attempt {1})', counts.total, group.state.attempt)
        : t('reconnecting (attempt {0})', group.state.attempt);
    case 'error':
      return t('error: {0}', group.state.error.message);
    case 'stopped':
      return t('stopped');
    case 'synced':
      return counts.unhealthy > 0 ? t('{0} nodes · {1} unhealthy', counts.total, counts.unhealthy) : t('{0} nodes', counts.total);
  }
}

function contextIcon(group: ContextNodes): vscode.ThemeIcon {
  switch (group.state.kind) {
    case 'connecting':
      return new vscode.ThemeIcon('loading~spin');
    case 'reconnecting':
      // Not a spinner: a context can stay here for hours, and "busy" would hide that it is failing.
      return themeIcon({ id: 'debug-disconnect', color: 'list.warningForeground' });
    case 'error':
      return themeIcon({ id: 'error', color: 'errorForeground' });
    case 'stopped':
      return new vscode.ThemeIcon('circle-slash');
    case 'synced':
      // The same language as the node rows: a green check when every node is Ready, a warning otherwise.
      return group.counts().unhealthy > 0 ? themeIcon({ id: 'warning', color: 'list.warningForeground' }) : themeIcon({ id: 'pass', color: 'charts.green' });
  }
}

export function contextTreeItem(group: ContextNodes, expandByDefault: boolean): vscode.TreeItem {
  const item = new vscode.TreeItem(group.name, expandByDefault ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed);
  item.id = elementId('context', group.name);
  item.description = contextDescription(group);
  item.iconPath = contextIcon(group);
  item.contextValue = contextContextValue(group.state, group.isCurrent);
  const lines = [`**${escapeMarkdown(group.name)}**${group.isCurrent ? ` — ${t('current context')}` : ''}`];
  if (group.server !== undefined) lines.push(t('API server: {0}', escapeMarkdown(group.server)));
  lines.push(escapeMarkdown(item.description));
  item.tooltip = markdown(lines.join('\n\n'));
  item.accessibilityInformation = { label: t('Context {0}, {1}', group.name, item.description), role: 'treeitem' };
  return item;
}

/** Tooltip left undefined on purpose: resolveTreeItem fills it on hover, with the pod count. */
export function nodeTreeItem(entry: NodeEntry, now: Date): vscode.TreeItem {
  const c = entry.classification;
  const item = new vscode.TreeItem(entry.name, vscode.TreeItemCollapsibleState.Collapsed);
  item.id = elementId('node', entry.context, entry.name);
  const flaps = entryFlaps(entry, now);
  item.description = describeNode(c, now, t, flaps);
  item.iconPath = themeIcon(verdictIcon(c.verdict, flaps));
  item.contextValue = nodeContextValue(c);
  item.accessibilityInformation = { label: `${entry.name}, ${item.description}`, role: 'treeitem' };
  return item;
}

export function clusterErrorTreeItem(element: ClusterErrorElement): vscode.TreeItem {
  const state = element.context.state;
  const error = state.kind === 'error' || state.kind === 'reconnecting' ? state.error : { kind: 'other', message: t('unknown error') };
  // No countdown in the label: rows are redrawn per attempt, not per second.
  const label =
    state.kind !== 'reconnecting' ? t('Cannot list nodes') : element.context.size > 0 ? t('Connection lost, retrying') : t('Cannot connect, retrying');
  const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.None);
  item.id = elementId('clusterError', element.context.name);
  item.description = error.message;
  item.iconPath = themeIcon({ id: 'error', color: state.kind === 'reconnecting' ? 'list.warningForeground' : 'errorForeground' });
  item.contextValue = clusterErrorContextValue(error.kind);
  const parts = [`**${escapeMarkdown(label)}** (${escapeMarkdown(error.kind)})`, escapeMarkdown(error.message)];
  if (error.detail !== undefined && error.detail !== error.message) parts.push(codeBlock(error.detail));
  if (state.kind === 'reconnecting') parts.push(t('Attempt {0}; next try in {1}s.', state.attempt, Math.ceil(state.delayMs / 1000)));
  parts.push(t('Use "Show Log" for the full history of this context.'));
  item.tooltip = markdown(parts.join('\n\n'));
  item.accessibilityInformation = { label: `${label}: ${error.message}`, role: 'treeitem' };
  return item;
}

export function conditionTreeItem(element: ConditionElement, now: Date): vscode.TreeItem {
  const { condition, entry } = element;
  const type = condition.type ?? t('(no type)');
  const item = new vscode.TreeItem(type, vscode.TreeItemCollapsibleState.None);
  item.id = elementId('condition', entry.context, entry.name, type);
  const status = condition.status ?? '?';
  item.description = conditionDescription(condition);
  const health = conditionHealth(condition.type, condition.status);
  item.iconPath = themeIcon(
    health === 'good'
      ? { id: 'pass', color: 'charts.green' }
      : health === 'bad'
        ? { id: 'error', color: 'charts.red' }
        : health === 'unknown'
          ? { id: 'question', color: 'charts.yellow' }
          : { id: 'circle-outline' },
  );
  item.contextValue = `condition;${health}`;
  const parts = [`**${escapeMarkdown(type)}** = ${escapeMarkdown(status)}${condition.reason === undefined ? '' : ` (${escapeMarkdown(condition.reason)})`}`];
  if (condition.message !== undefined && condition.message !== '') parts.push(codeBlock(condition.message));
  const since = formatWhen(condition.lastTransitionTime, now, t, clockOptions());
  if (since !== undefined) parts.push(t('Last transition: {0}', escapeMarkdown(since)));
  const beat = formatWhen(condition.lastHeartbeatTime, now, t, clockOptions());
  if (beat !== undefined) parts.push(t('Last heartbeat: {0}', escapeMarkdown(beat)));
  item.tooltip = markdown(parts.join('\n\n'));
  item.accessibilityInformation = { label: `${type}, ${item.description}`, role: 'treeitem' };
  return item;
}

export function eventsTreeItem(element: EventsElement): vscode.TreeItem {
  const item = new vscode.TreeItem(t('Recent events'), vscode.TreeItemCollapsibleState.Collapsed);
  item.id = elementId('events', element.entry.context, element.entry.name);
  item.iconPath = new vscode.ThemeIcon('history');
  item.contextValue = 'events';
  item.tooltip = t('Events about this node, newest first, loaded when expanded. The API server keeps events for about an hour.');
  return item;
}

export function eventTreeItem(element: EventElement, now: Date): vscode.TreeItem {
  const { event } = element;
  const reason = event.reason ?? t('(no reason)');
  const item = new vscode.TreeItem(reason, vscode.TreeItemCollapsibleState.None);
  item.id = elementId('event', element.parent.entry.context, element.parent.entry.name, event.metadata?.uid ?? String(element.index));
  item.description = eventDescription(event, now, t);
  item.iconPath = event.type === 'Warning' ? themeIcon({ id: 'warning', color: 'list.warningForeground' }) : new vscode.ThemeIcon('info');
  item.contextValue = `event;${event.type === 'Warning' ? 'warning' : 'normal'}`;
  const source = event.source?.component ?? event.reportingComponent;
  const md = [`**${escapeMarkdown(reason)}** (${escapeMarkdown(event.type ?? 'Normal')})`];
  if (event.message !== undefined) md.push(codeBlock(event.message));
  if (source !== undefined) md.push(t('Source: {0}', escapeMarkdown(source)));
  const last = formatWhen(eventLastSeen(event), now, t, clockOptions());
  if (event.count !== undefined && event.count > 1) {
    const first = formatWhen(event.firstTimestamp, now, t, clockOptions());
    md.push(t('{0} times; first {1}, last {2}', event.count, escapeMarkdown(first ?? '?'), escapeMarkdown(last ?? '?')));
  } else if (last !== undefined) md.push(t('At {0}', escapeMarkdown(last)));
  item.tooltip = markdown(md.join('\n\n'));
  item.accessibilityInformation = { label: `${reason}, ${item.description}`, role: 'treeitem' };
  return item;
}

export function noticeTreeItem(element: NoticeElement): vscode.TreeItem {
  const item = new vscode.TreeItem(element.label, vscode.TreeItemCollapsibleState.None);
  item.id = element.id;
  if (element.description !== undefined) item.description = element.description;
  if (element.tooltip !== undefined) item.tooltip = element.tooltip;
  item.iconPath = themeIcon(
    element.severity === 'error' ? { id: 'error', color: 'errorForeground' } : element.severity === 'ok' ? { id: 'pass', color: 'charts.green' } : { id: 'info' },
  );
  item.contextValue = element.contextValue ?? `notice;${element.severity}`;
  item.accessibilityInformation = { label: element.description === undefined ? element.label : `${element.label}, ${element.description}`, role: 'treeitem' };
  return item;
}
