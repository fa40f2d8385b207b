// The typed message channel between the host and the timeline webview. Both sides import this file.
// The host validates every inbound message at runtime (parseWebviewMessage), because a webview is
// untrusted input like any other. The what-if's own types live in core; this file only carries them.

import { checkWhatIfParams, type ParamProblem } from '../core/whatIf/whatIfParams';
import type { TimelineData, WhatIfParams } from '../core/whatIf/whatIfTypes';

export type { ChartSeries, Finding, FindingLevel, KubeletLine, TimelineData, TimeWindow, WhatIfNumericKey, WhatIfParams } from '../core/whatIf/whatIfTypes';
export type { ParamProblem } from '../core/whatIf/whatIfParams';

/** Bumped on any incompatible change; the host refuses a webview that speaks another version. */
export const PROTOCOL_VERSION = 1;

export type HostToWebview =
  /** The answer to `ready`: nothing else is sent before it. */
  | { type: 'init'; protocolVersion: number; strings: Record<string, string>; params: WhatIfParams }
  | { type: 'timeline'; requestId: number; data: TimelineData }
  /** requestId null: the message could not be tied to a request (e.g. it was malformed). */
  | { type: 'error'; requestId: number | null; message: string };

export type WebviewToHost =
  | { type: 'ready'; protocolVersion: number }
  | { type: 'simulate'; requestId: number; params: WhatIfParams }
  | { type: 'cancel'; requestId: number };

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
      if (requestId === null) return fail({ kind: 'badField', field: 'requestId', expected: 'a positive integer' });
      return extra(['type', 'requestId']) ?? { ok: true, message: { type: 'cancel', requestId } };
    default:
      return fail({ kind: 'unknownType', type: String(msg['type']) });
  }
}
