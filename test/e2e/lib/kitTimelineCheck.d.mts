// Types of what kitTimelineCheck.mjs exports, for the TypeScript that calls it (test/integration/realk8s/treeInCodeServer.ts).
import type { Page } from 'playwright-core';
import type { AtRiskChange, KitTreeSession } from './kitTreeCheck.mjs';

export const AGENT_MODE_LINE: RegExp;
export const AT_RISK_TOOLTIP: string;

/** What readTimeline (timelineCheck.mjs) reads of the panel; the fields these checks use. */
export interface TimelineState {
  label: string;
  prediction: string;
  relists: number;
  feed: string;
  /** The headline's verdict id (data-verdict) and its words. */
  verdict: string;
  headline: string;
}

export function openAgentTimeline(page: Page, node: string, options?: { timeoutMs?: number }): Promise<{ first: TimelineState; grown: TimelineState }>;

export function waitForAgentFeed(page: Page, node: string, relists: number, options?: { timeoutMs?: number }): Promise<TimelineState>;

export interface AgentTimelineRecording {
  predictions: { atMs: number; prediction: string; relists: number; feed: string }[];
  tooltips: { atMs: number; text: string }[];
  /** Each change of the panel's headline verdict or the tree row's words, with both. */
  headlines: HeadlineBesideRow[];
  errors: string[];
  stop(): Promise<void>;
}

export function recordAgentTimeline(
  session: KitTreeSession,
  node: string,
  options: { atRisk: () => AtRiskChange[]; onTooltip?: (text: string) => void | Promise<void>; onPrediction?: (state: TimelineState) => void | Promise<void>; everyMs?: number; hoverMs?: number },
): AgentTimelineRecording;

export function clockTimeNear(sentence: string, label: string, nearMs: number): number | undefined;

export interface HeadlineBesideRow {
  atMs: number;
  verdict: string;
  headline: string;
  row: string;
}

export function headlineAgainstRow(headlines: HeadlineBesideRow[], options?: { boundMs?: number; endMs?: number }): string[];

export function lastNotReadyPrediction(
  predictions: AgentTimelineRecording['predictions'],
  plegPostMs: number,
): { saidAtMs: number; predictedMs: number | undefined; errorMs: number | undefined; sentence: string } | undefined;
