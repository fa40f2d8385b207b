// Where a node panel's session comes from: the live feed (A's LiveSource, growing in place) or a replay
// (a recording or an evidence folder), complete from the start. Pure (no vscode): the panel
// and the unit tests see the same small interface.

import type { SessionDelta, TimelineSession } from '../../core/timeline/session';
import type { SessionMode } from '../../shared/timeline/panelProtocol';

export interface Subscription {
  dispose(): void;
}

export interface SessionFeed {
  readonly mode: SessionMode;
  /** Names the source for the user, e.g. "the recording x.json (a timeline recording)", shown after the mode ("Replay, not live — …"). */
  readonly label: string;
  /** Every delta so far already applied. */
  readonly session: TimelineSession;
  onDelta(listener: (delta: SessionDelta) => void): Subscription;
  dispose(): void;
}

/** The part of A's LiveSource the panel uses (src/host/timeline/liveSource.ts). */
export interface LiveSourceLike {
  readonly session: TimelineSession;
  onDelta(listener: (delta: SessionDelta) => void): Subscription;
  dispose(): void;
}

export function liveFeed(source: LiveSourceLike, label: string): SessionFeed {
  return { mode: 'live', label, get session() { return source.session; }, onDelta: (l) => source.onDelta(l), dispose: () => source.dispose() };
}

export function replayFeed(session: TimelineSession, label: string): SessionFeed {
  return { mode: 'replay', label, session, onDelta: () => ({ dispose: () => undefined }), dispose: () => undefined };
}
