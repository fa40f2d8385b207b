// The timeline's headline in words: the classifier's verdict on the session's last Ready condition
// (src/core/timeline/headline.ts), named as the tree's tooltip names it, and when it holds — now for a
// live session, at its end for a recording, which says so. A live session whose source stopped answering
// (the agent, while the runtime it reads hangs) is dated at its last data, not called "now".

import { headlineState } from '../../core/timeline/headline';
import { utcClock as clock } from '../../core/timeline/utcClock';
import type { TimelineSession } from '../../core/timeline/session';
import type { Localize } from '../../core/tree/localize';
import { verdictTitle } from '../../core/tree/verdictPresentation';
import { atRiskRowText } from '../../core/tree/nodeDescription';
import type { SessionHeadline } from '../../shared/timeline/panelProtocol';


export function sessionHeadline(session: TimelineSession, live: boolean, t: Localize, silent = false): SessionHeadline {
  const state = headlineState(session);
  if (state.verdict === null || state.ready === undefined || state.sinceEpochMs === undefined) {
    return {
      verdict: null,
      title: live ? t("Waiting for the node's Ready condition") : t('The recording holds no Ready condition of the node'),
      when: live ? t('now') : t("at the recording's end, {0}", clock(state.atEpochMs)),
      message: '',
    };
  }
  // A status of days is dated with its day (utcClock against the moment the headline speaks of).
  const since = state.sinceKnown === true ? t('Ready={0} since {1}', state.ready.status, clock(state.sinceEpochMs, state.atEpochMs)) : t('Ready={0} since before {1}, when the session began', state.ready.status, clock(state.sinceEpochMs));
  // At risk: the tree row's words ("PLEG at risk · NotReady in ~1m25s") and node-problem-detector's message.
  const risk = state.verdict === 'pleg-at-risk' ? state.atRisk : undefined;
  return {
    verdict: state.verdict,
    title: risk !== undefined ? atRiskRowText(risk, new Date(state.atEpochMs), t) : verdictTitle(state.verdict, t),
    when: !live ? t("at the recording's end, {0} ({1})", clock(state.atEpochMs), since) : silent ? t('as of {0}, when its source last answered ({1})', clock(state.atEpochMs), since) : t('now ({0})', since),
    message: risk !== undefined ? risk.message : state.ready.message,
  };
}
