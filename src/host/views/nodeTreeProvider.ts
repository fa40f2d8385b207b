// The Nodes view's data provider: contexts → nodes (unhealthy first) → conditions and recent events.
// Model changes are coalesced into targeted refreshes; events and pod counts are fetched on demand with
// deadlines, and their failures become rows or tooltip lines, never popups.

import * as vscode from 'vscode';
import type { KubeEvent } from '../../core/kube/objects';
import { ChangeCoalescer } from '../../core/tree/changeCoalescer';
import type { RefreshBatch } from '../../core/tree/changeCoalescer';
import type { ContextNodes, NodeEntry } from '../../core/tree/contextNodes';
import { entryFlaps } from '../../core/tree/contextNodes';
import { readyFirst } from '../../core/tree/conditionHealth';
import { describeNode } from '../../core/tree/nodeDescription';
import { nodeTooltipMarkdown } from '../../core/tree/nodeTooltip';
import { eventDescription } from '../../core/tree/rowText';
import { isUnhealthy } from '../../core/tree/verdictPresentation';
import type { Logger } from '../../core/util/logger';
import type { ClusterSession } from '../cluster/clusterSession';
import { t } from '../l10n';
import { diagnosisChildren, diagnosisResults, diagnosisRowsFor, diagnosisTreeItem } from './diagnosisChildren';
import { describeFailure, PodCountCache } from './podCountCache';
import type { EventElement, EventsElement, NoticeElement, TreeElement } from './treeElements';
import { elementId } from './treeElements';
import {
  clockOptions,
  clusterErrorTreeItem,
  conditionTreeItem,
  contextTreeItem,
  eventsTreeItem,
  eventTreeItem,
  nodeTreeItem,
  noticeTreeItem,
} from './treeItems';
import { timeoutSignal } from '../../core/util/deadlineSignal';

const EVENTS_DEADLINE_MS = 15_000;
const MAX_EVENTS = 30;
/** All contexts start expanded up to this many; beyond it only the current context does. */
const EXPAND_ALL_UP_TO = 5;

/** How long a hovered at-risk row is not redrawn by the per-second countdown (a redraw would close the hover). */
export const HOVER_HOLD_MS = 15_000;

export class NodeTreeProvider implements vscode.TreeDataProvider<TreeElement>, vscode.Disposable {
  private readonly changeEmitter = new vscode.EventEmitter<TreeElement | TreeElement[] | undefined>();
  readonly onDidChangeTreeData = this.changeEmitter.event;
  private readonly batchEmitter = new vscode.EventEmitter<RefreshBatch>();
  /** Fires after each coalesced refresh (badge, status bar and tests listen). */
  readonly onDidRefresh = this.batchEmitter.event;
  private readonly coalescer: ChangeCoalescer;
  private readonly subscription: { dispose(): void };
  private readonly pods: PodCountCache;
  /** The node row whose tooltip VS Code last resolved (the user hovers it), and until when the countdown spares it. */
  private hovered: { entry: NodeEntry; untilMs: number } | undefined;
  /** Last description shown per row, so the age ticker refreshes only rows whose text changed. */
  private readonly shownDescriptions = new WeakMap<NodeEntry, string>();
  /** Event rows on screen per "Recent events" row (by id), with the text they show, for the age ticker. */
  private readonly shownEvents = new Map<string, Map<EventElement, string>>();
  private onlyUnhealthy: boolean;
  private readonly eventsDeadlineMs: number;

  constructor(
    private readonly session: ClusterSession,
    private readonly logger: Logger,
    options: { onlyUnhealthy: boolean; eventsDeadlineMs?: number },
  ) {
    this.onlyUnhealthy = options.onlyUnhealthy;
    this.eventsDeadlineMs = options.eventsDeadlineMs ?? EVENTS_DEADLINE_MS;
    this.coalescer = new ChangeCoalescer((batch) => this.emit(batch), { delayMs: 150, maxDelayMs: 750 });
    const modelChanges = session.model.onDidChange((change) => this.coalescer.push(change));
    // The root shows a kubeconfig error row instead of contexts, so a state change redraws it.
    const stateChanges = session.onDidChangeState(() => this.coalescer.push({ scope: 'root' }));
    // A node's diagnosis (Diagnose Node, Diagnose All) appears under its row as soon as it is stored.
    const diagnoses = diagnosisResults.onDidChange(({ context, node }) => {
      const entry = session.model.group(context)?.rows().find((e) => e.name === node);
      if (entry !== undefined) this.changeEmitter.fire(entry);
    });
    this.subscription = { dispose: () => (modelChanges.dispose(), stateChanges.dispose(), diagnoses.dispose()) };
    this.pods = new PodCountCache((context, node, signal) => {
      const kube = session.kube;
      if (kube === undefined) return Promise.reject(new Error(t('not connected')));
      return kube.countPods(context, node, signal);
    });
  }

  get filterUnhealthy(): boolean {
    return this.onlyUnhealthy;
  }

  setOnlyUnhealthy(value: boolean): void {
    if (value === this.onlyUnhealthy) return;
    this.onlyUnhealthy = value;
    this.changeEmitter.fire(undefined);
  }

  /** Refreshes rows whose age text ("for 3m") has moved on since they were drawn, and time-based verdicts. */
  tickAges(now = new Date()): void {
    // Verdict changes that come from time alone go through the model (and the coalescer) as usual.
    this.session.model.reclassifyUnhealthy();
    const stale: TreeElement[] = [];
    for (const group of this.session.model.groups()) {
      for (const entry of group.rows()) {
        // Healthy rows only change with time when they carry a flap count.
        if (entry.classification.verdict === 'ready' && entry.readyEvents === undefined) continue;
        const shown = this.shownDescriptions.get(entry);
        if (shown !== undefined && shown !== describeNode(entry.classification, now, t, entryFlaps(entry, now))) stale.push(entry);
      }
    }
    // Event rows say "3m ago": keep that live too.
    for (const rows of this.shownEvents.values()) {
      for (const [element, shown] of rows) if (shown !== eventDescription(element.event, now, t)) stale.push(element);
    }
    if (stale.length > 0) this.changeEmitter.fire(stale);
  }

  /**
   * Redraws the rows of nodes at risk whose countdown moved on: "NotReady in ~1m25s" is a per-second figure,
   * which the 30 s age tick would leave up to 30 s behind.
   */
  tickCountdowns(now = new Date()): void {
    const stale: TreeElement[] = [];
    for (const group of this.session.model.groups()) {
      for (const entry of group.rows(true)) {
        if (entry.classification.verdict !== 'pleg-at-risk') continue;
        // Redrawing a row closes its hover: the row whose tooltip was just asked for keeps its text a while.
        if (this.hovered?.entry === entry && now.getTime() < this.hovered.untilMs) continue;
        const shown = this.shownDescriptions.get(entry);
        if (shown !== undefined && shown !== describeNode(entry.classification, now, t, entryFlaps(entry, now))) stale.push(entry);
      }
    }
    if (stale.length > 0) this.changeEmitter.fire(stale);
  }

  refreshAll(): void {
    this.pods.clear();
    this.changeEmitter.fire(undefined);
  }

  getTreeItem(element: TreeElement): vscode.TreeItem {
    const now = new Date();
    switch (element.kind) {
      case 'context': {
        const groups = this.session.model.groups();
        return contextTreeItem(element, groups.length <= EXPAND_ALL_UP_TO || element.isCurrent);
      }
      case 'node': {
        const item = nodeTreeItem(element, now);
        if (typeof item.description === 'string') this.shownDescriptions.set(element, item.description);
        return item;
      }
      case 'clusterError':
        return clusterErrorTreeItem(element);
      case 'condition':
        return conditionTreeItem(element, now);
      case 'events':
        return eventsTreeItem(element);
      case 'event': {
        const item = eventTreeItem(element, now);
        if (typeof item.description === 'string') this.shownEvents.get(eventsKey(element.parent))?.set(element, item.description);
        return item;
      }
      case 'notice':
        return noticeTreeItem(element);
      case 'diagnosis':
        return diagnosisTreeItem(element);
    }
  }

  async resolveTreeItem(item: vscode.TreeItem, element: TreeElement, token: vscode.CancellationToken): Promise<vscode.TreeItem> {
    if (element.kind === 'node') this.hovered = { entry: element, untilMs: Date.now() + HOVER_HOLD_MS };
    if (element.kind !== 'node' || item.tooltip !== undefined) return item;
    const controller = new AbortController();
    const cancel = token.onCancellationRequested(() => controller.abort());
    try {
      const pods = await this.pods.get(element.context, element.name, controller.signal);
      if (pods.kind === 'error') this.logger.warn(`pod count for a node of ${element.context} failed: ${pods.message}`);
      const now = new Date();
      const extras = { clock: clockOptions(), ...(element.readyEvents === undefined ? {} : { flaps: entryFlaps(element, now) }) };
      const md = new vscode.MarkdownString(nodeTooltipMarkdown(element.classification, element.context, pods, now, t, extras));
      md.isTrusted = false;
      md.supportHtml = false;
      item.tooltip = md;
      return item;
    } finally {
      cancel.dispose();
    }
  }

  getChildren(element?: TreeElement): vscode.ProviderResult<TreeElement[]> {
    if (element === undefined) {
      const state = this.session.state;
      // A row, not TreeView.message: VS Code hides the welcome view (and its button) while a message is set.
      if (state.kind === 'configError') {
        return [
          { ...notice(undefined, 'kubeconfig', t('Cannot read the kubeconfig'), 'error', state.message, state.message), contextValue: 'kubeconfigError' },
        ];
      }
      return [...this.session.model.groups()];
    }
    switch (element.kind) {
      case 'context':
        return this.contextChildren(element);
      case 'node':
        return [
          ...readyFirst(element.node.status?.conditions ?? []).map((condition) => ({ kind: 'condition' as const, entry: element, condition })),
          { kind: 'events' as const, entry: element },
          ...diagnosisRowsFor(element),
        ];
      case 'events':
        return this.loadEvents(element);
      case 'diagnosis':
        return diagnosisChildren(element);
      case 'clusterError':
      case 'condition':
      case 'event':
      case 'notice':
        return [];
    }
  }

  getParent(element: TreeElement): vscode.ProviderResult<TreeElement> {
    switch (element.kind) {
      case 'context':
        return undefined;
      case 'node':
        return this.session.model.group(element.context);
      case 'clusterError':
        return element.context;
      case 'condition':
      case 'events':
        return element.entry;
      case 'event':
        return element.parent;
      case 'notice':
        return element.parent;
      case 'diagnosis':
        return element.check !== undefined ? { kind: 'diagnosis', entry: element.entry } : element.entry;
    }
  }

  dispose(): void {
    this.subscription.dispose();
    this.coalescer.dispose();
    this.changeEmitter.dispose();
    this.batchEmitter.dispose();
  }

  private contextChildren(group: ContextNodes): TreeElement[] {
    const children: TreeElement[] = [];
    if (group.state.kind === 'error' || group.state.kind === 'reconnecting') children.push({ kind: 'clusterError', context: group });
    const rows = group.rows(this.onlyUnhealthy);
    children.push(...rows);
    if (rows.length === 0 && group.state.kind === 'synced') {
      const total = group.counts().total;
      children.push(
        notice(group, 'empty', total === 0 ? t('No nodes') : t('All {0} nodes are healthy', total), 'ok', this.onlyUnhealthy && total > 0 ? t('hidden by "Show Only Unhealthy"') : undefined),
      );
    }
    return children;
  }

  private async loadEvents(element: EventsElement): Promise<TreeElement[]> {
    const kube = this.session.kube;
    if (kube === undefined) return [notice(element, 'events', t('Not connected'), 'error')];
    const { context, name } = element.entry;
    let events: KubeEvent[];
    try {
      events = await kube.listNodeEvents(context, name, timeoutSignal(this.eventsDeadlineMs));
    } catch (err) {
      const cause = describeFailure(err, this.eventsDeadlineMs);
      this.logger.warn(`events of a node in ${context}: ${cause}`);
      return [notice(element, 'events', t('Could not load events'), 'error', cause, cause)];
    }
    // The same answer feeds the node's flap count, so expanding never shows two different stories.
    this.session.model.setReadyEvents(context, name, events);
    if (events.length === 0) return [notice(element, 'events', t('No recent events'), 'info', undefined, t('The API server keeps events for about an hour.'))];
    const rows = events.slice(0, MAX_EVENTS).map((event, index) => ({ kind: 'event' as const, parent: element, event, index }));
    // A reload replaces the rows: VS Code forgets the old element objects, so must the ticker.
    this.shownEvents.set(eventsKey(element), new Map(rows.map((r) => [r, ''])));
    return rows;
  }

  private emit(batch: RefreshBatch): void {
    if (batch.root) this.changeEmitter.fire(undefined);
    else {
      const targets: TreeElement[] = [...batch.contexts, ...batch.entries.filter((e) => !this.onlyUnhealthy || isUnhealthy(e.classification.verdict))];
      if (targets.length > 0) this.changeEmitter.fire(targets);
    }
    this.batchEmitter.fire(batch);
  }
}

function eventsKey(element: EventsElement): string {
  return JSON.stringify([element.entry.context, element.entry.name]);
}

function notice(parent: TreeElement | undefined, slot: string, label: string, severity: NoticeElement['severity'], description?: string, tooltip?: string): NoticeElement {
  const owner = parent === undefined ? ['root'] : parent.kind === 'context' ? ['context', parent.name] : parent.kind === 'events' ? ['events', parent.entry.context, parent.entry.name] : ['other'];
  const element: { -readonly [K in keyof NoticeElement]: NoticeElement[K] } = { kind: 'notice', id: elementId('notice', slot, ...owner), parent, label, severity };
  if (description !== undefined) element.description = description;
  if (tooltip !== undefined) element.tooltip = tooltip;
  return element;
}
