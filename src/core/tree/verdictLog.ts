// One log line per verdict change, so the PLEG Doctor log holds a node's flap history:
// "verdict prod-eu/prod-eu-node-05: Ready → PLEG (Ready=False) PLEG is not healthy: …". English on
// purpose: the log is for bug reports and grep, not for the UI.

import type { NodeClassification, Verdict } from '../classify/types';
import { englishText } from './localize';
import { verdictShortName } from './verdictPresentation';

export interface VerdictChange {
  context: string;
  name: string;
  /** undefined when the node was first seen (only unhealthy first sightings are reported). */
  from: Verdict | undefined;
  to: Verdict;
  readyStatus: NodeClassification['readyStatus'];
  /** The Ready condition's message (or the classification's summary when there is none). */
  message: string;
}

/** Longer messages are cut: a line per change, not a dump. */
const MAX_MESSAGE = 300;

export function verdictChangeLine(change: VerdictChange): string {
  const from = change.from === undefined ? '(first seen)' : verdictShortName(change.from, englishText);
  const to = verdictShortName(change.to, englishText);
  const flat = change.message.replace(/\s+/g, ' ').trim();
  const message = flat.length > MAX_MESSAGE ? `${flat.slice(0, MAX_MESSAGE - 1)}…` : flat;
  return `verdict ${change.context}/${change.name}: ${from} → ${to} (Ready=${change.readyStatus})${message === '' ? '' : ` ${message}`}`;
}
