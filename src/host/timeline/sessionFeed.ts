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
  /** The Ready condition is the editor's own watch's, not the source's: the source's silence does not date it. */
  readonly readyWatchedHere?: boolean;
  /** Every delta so far already applied; after a replacement, the new session. */
  readonly session: TimelineSession;
  onDelta(listener: (delta: SessionDelta) => void): Subscription;
  /** The source read its whole session again (the agent's 410): `session` is already the new one. */
  onReplace(listener: (session: TimelineSession) => void): Subscription;
  /** The source's trouble in words while it lasts (e.g. the agent not answering), undefined once over. */
  onStatus(listener: (problem: string | undefined) => void): Subscription;
  dispose(): void;
}

/** The part of A's LiveSource the panel uses (src/host/timeline/liveSource.ts). */
export interface LiveSourceLike {
  readonly session: TimelineSession;
  /** How the node's side is reached, for the panel: "via agent pod NS/NAME", "via SSH HOST", or why neither. */
  readonly label: string;
  readonly readyWatchedHere?: boolean;
  onDelta(listener: (delta: SessionDelta) => void): Subscription;
  onReplace(listener: (session: TimelineSession) => void): Subscription;
  onStatus(listener: (problem: string | undefined) => void): Subscription;
  dispose(): void;
}

export function liveFeed(source: LiveSourceLike): SessionFeed {
  return {
    mode: 'live',
    label: source.label,
    readyWatchedHere: source.readyWatchedHere === true,
    get session() {
      return source.session;
    },
    onDelta: (l) => source.onDelta(l),
    onReplace: (l) => source.onReplace(l),
    onStatus: (l) => source.onStatus(l),
    dispose: () => source.dispose(),
  };
}

const nothing: Subscription = { dispose: () => undefined };

export function replayFeed(session: TimelineSession, label: string): SessionFeed {
  return { mode: 'replay', label, session, onDelta: () => nothing, onReplace: () => nothing, onStatus: () => nothing, dispose: () => undefined };
}
