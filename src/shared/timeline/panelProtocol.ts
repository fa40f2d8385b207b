// The typed message channel between the host and the timeline webview. Both sides import this file.
// The host validates every inbound message at runtime (parseWebviewMessage), because a webview is
// untrusted input like any other. The what-if's own types live in core; this file only carries them.

import { checkWhatIfParams, type ParamProblem } from '../../core/timeline/whatIf/whatIfParams';
import type { WhatIfResult, WhatIfParams } from '../../core/timeline/whatIf/whatIfTypes';
import type { Verdict } from '../../core/classify/types';
import type { SessionDelta, TimelineSession } from '../../core/timeline/session';

export type { ChartSeries, Finding, FindingLevel, KubeletLine, WhatIfResult, TimeWindow, WhatIfNumericKey, WhatIfParams } from '../../core/timeline/whatIf/whatIfTypes';
export type { ParamProblem } from '../../core/timeline/whatIf/whatIfParams';

/** Bumped on any incompatible change; the host refuses a webview that speaks another version. */
export const PROTOCOL_VERSION = 4;

/** Which node a panel shows; absent for the what-if-only panel. */
export interface PanelTarget {
  context: string;
  node: string;
}

/**
 * live: the feed runs now (pause/resume apply); replay: a recording (an export, a simulation, an evidence folder),
 * complete, labelled as such.
 */
export type SessionMode = 'live' | 'replay';

/** What the live feed is doing; a replay is always 'ended'. */
export type FeedState = 'running' | 'paused' | 'ended' | 'failed';

export type ExportFormat = 'json' | 'csv';

/** The node's state now (a recording: at its end), worded by the host (src/host/timeline/timelineHeadline.ts). */
export interface SessionHeadline {
  /** The classifier's verdict (the tree's and the report's); null when there is no Ready condition yet. */
  verdict: Verdict | null;
  /** The verdict as the tree's tooltip names it, e.g. "PLEG is not healthy". */
  title: string;
  /** When it holds: "now (…)" or "at the recording's end, … (…)". */
  when: string;
  /** The Ready condition's message, verbatim; empty when there is none. */
  message: string;
}

export type HostToWebview =
  /** The answer to `ready`: nothing else is sent before it. */
  | { type: 'init'; protocolVersion: number; strings: Record<string, string>; params: WhatIfParams; target: PanelTarget | null; recording: string | null }
  | { type: 'timeline'; requestId: number; data: WhatIfResult }
  /**
   * The whole session (on open, and again after the page is rebuilt). `label` names the source for the
   * user ("Replay: simulated …", "Live: …"); `headline` is the node's state now (a recording: at its end)
   * in the classifier's words; `prediction` is the model's sentence about the threshold.
   */
  | { type: 'session'; mode: SessionMode; label: string; session: TimelineSession; headline: SessionHeadline; prediction: string | null; feed: FeedState }
  /** What the live feed added since the last message; applied with applySessionDelta. */
  | { type: 'sessionDelta'; delta: SessionDelta; headline: SessionHeadline; prediction: string | null }
  /**
   * The live source read its whole session again (the agent answered 410: the panel's cursor fell out of
   * its window, or the agent restarted): `session` replaces the one shown, the mode, label, range and
   * feed state stay. Deltas after it apply to this session.
   */
  | { type: 'sessionReplaced'; session: TimelineSession; headline: SessionHeadline; prediction: string | null }
  /**
   * Live: the same session judged again as time passes, with no new data (a source that stopped answering:
   * the age of the last relist grows all the same). Sent only when the words changed.
   */
  | { type: 'sessionNow'; headline: SessionHeadline; prediction: string | null }
  | { type: 'feedState'; feed: FeedState; message?: string }
  /** The answer to `export`: where the file went (null: the user cancelled the save dialog). */
  | { type: 'exported'; requestId: number; path: string | null }
  /** requestId null: the message could not be tied to a request (e.g. it was malformed). */
  | { type: 'error'; requestId: number | null; message: string };

export type WebviewToHost =
  | { type: 'ready'; protocolVersion: number }
  | { type: 'simulate'; requestId: number; params: WhatIfParams }
  | { type: 'cancel'; requestId: number }
  /** Live only: stop taking new samples (the feed keeps its connection) / take them again. */
  | { type: 'pause'; requestId: number }
  | { type: 'resume'; requestId: number }
  /** Save the session the panel shows: JSON (the TimelineSession) or CSV (one row per relist). */
  | { type: 'export'; requestId: number; format: ExportFormat };

export type MessageProblem =
  | { kind: 'notAnObject' }
  | { kind: 'unknownType'; type: string }
  | { kind: 'badField'; field: string; expected: string }
  | { kind: 'unknownField'; field: string }
  | { kind: 'protocolVersion'; got: number; want: number }
  | { kind: 'params'; problem: ParamProblem };

export type ParsedMessage = { ok: true; message: WebviewToHost } | { ok: false; requestId: number | null; problem: MessageProblem };

const isRequestId = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) > 0;

function onlyKeys(msg: Record<string, unknown>, keys: readonly string[]): string | undefined {
  return Object.keys(msg).find((k) => !keys.includes(k));
}

/** Checks a message from the webview; on failure says what is wrong and, when it can, which request. */
export function parseWebviewMessage(value: unknown): ParsedMessage {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, requestId: null, problem: { kind: 'notAnObject' } };
  const msg = value as Record<string, unknown>;
  const requestId = isRequestId(msg['requestId']) ? msg['requestId'] : null;
  const fail = (problem: MessageProblem): ParsedMessage => ({ ok: false, requestId, problem });
  const extra = (keys: readonly string[]): ParsedMessage | undefined => {
    const k = onlyKeys(msg, keys);
    return k === undefined ? undefined : fail({ kind: 'unknownField', field: k });
  };
  switch (msg['type']) {
    case 'ready': {
      const v = msg['protocolVersion'];
      if (typeof v !== 'number') return fail({ kind: 'badField', field: 'protocolVersion', expected: 'a number' });
      if (v !== PROTOCOL_VERSION) return fail({ kind: 'protocolVersion', got: v, want: PROTOCOL_VERSION });
      return extra(['type', 'protocolVersion']) ?? { ok: true, message: { type: 'ready', protocolVersion: v } };
    }
    case 'simulate': {
      if (requestId === null) return fail({ kind: 'badField', field: 'requestId', expected: 'a positive integer' });
      const checked = checkWhatIfParams(msg['params']);
      if (!checked.ok) return fail({ kind: 'params', problem: checked.problem });
      return extra(['type', 'requestId', 'params']) ?? { ok: true, message: { type: 'simulate', requestId, params: checked.params } };
    }
    case 'cancel':
    case 'pause':
    case 'resume': {
      const type = msg['type'];
      if (requestId === null) return fail({ kind: 'badField', field: 'requestId', expected: 'a positive integer' });
      return extra(['type', 'requestId']) ?? { ok: true, message: { type, requestId } };
    }
    case 'export': {
      if (requestId === null) return fail({ kind: 'badField', field: 'requestId', expected: 'a positive integer' });
      const format = msg['format'];
      if (format !== 'json' && format !== 'csv') return fail({ kind: 'badField', field: 'format', expected: '"json" or "csv"' });
      return extra(['type', 'requestId', 'format']) ?? { ok: true, message: { type: 'export', requestId, format } };
    }
    default:
      return fail({ kind: 'unknownType', type: String(msg['type']) });
  }
}
