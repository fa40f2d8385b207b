// The objects behind the rows of the Nodes view. Contexts and nodes are the long-lived core model objects
// (so they can be refreshed by identity); the rest are made on demand when a row is expanded.

import type { KubeEvent, NodeCondition } from '../../core/kube/objects';
import type { ContextNodes, NodeEntry } from '../../core/tree/contextNodes';
import type { DiagnosisRowElement } from './diagnosisChildren';

export interface ClusterErrorElement {
  readonly kind: 'clusterError';
  readonly context: ContextNodes;
}

export interface ConditionElement {
  readonly kind: 'condition';
  readonly entry: NodeEntry;
  readonly condition: NodeCondition;
}

export interface EventsElement {
  readonly kind: 'events';
  readonly entry: NodeEntry;
}

export interface EventElement {
  readonly kind: 'event';
  readonly parent: EventsElement;
  readonly event: KubeEvent;
  readonly index: number;
}

/** An informational or error row that is not an object of the cluster ("No nodes", "Could not load events"). */
export interface NoticeElement {
  readonly kind: 'notice';
  readonly id: string;
  readonly parent: TreeElement | undefined;
  readonly label: string;
  readonly description?: string;
  readonly tooltip?: string;
  readonly severity: 'info' | 'error' | 'ok';
  /** Overrides the default `notice;<severity>` for rows that carry menu actions. */
  readonly contextValue?: string;
}

export type TreeElement = ContextNodes | NodeEntry | ClusterErrorElement | ConditionElement | EventsElement | EventElement | NoticeElement | DiagnosisRowElement;

/** Stable ids (for expansion state) built from tuples, so names containing "/" cannot collide. */
export function elementId(...parts: string[]): string {
  return JSON.stringify(parts);
}
