// Splits a Ready condition message (or the `err` of a "Skipping pod synchronization" line) into typed
// errors. The kubelet joins its errors as `[a, b]` (1.14+ aggregate), older setters with "," and network
// messages carry commas of their own, so we never split on commas: we search for every known error
// anywhere in the text and let each open-ended error (runtime not ready, missing capacity) run up to the
// next known one.

import type { ReadyError } from '../classify/types';
import { R1, R2, R3, R4, R5, R6, R7, R8, globalRegex } from './messageCatalog';
import type { CatalogRule } from './messageCatalog';

export interface ParsedReadyMessage {
  /** Errors in the order they appear. Text the catalog does not know becomes kind `other`. */
  errors: ReadyError[];
  /** R7: "kubelet is posting ready status". */
  postingReady: boolean;
  /** R8: the node controller's Ready=Unknown message. */
  lease?: 'stopped' | 'never';
}

interface Hit {
  start: number;
  end: number;
  kind: ReadyError['kind'] | 'posting-ready' | 'lease';
  /** Open-ended errors own the text up to the next hit. */
  openEnded: boolean;
  groups: Record<string, string | undefined>;
}

/**
 * Words without which a rule cannot match (its regex is case-sensitive and holds each word outside every
 * optional group; a property test generates matches of each rule and finds one of the words in every
 * one). A message holding none of a rule's words skips that rule's regex: a log line's message carries
 * one or two kinds of error, and running all eight regexes on each was about a quarter of the time the
 * log reader spent classifying the lines it decodes.
 */
export const RULE_WORDS: ReadonlyMap<CatalogRule, readonly string[]> = new Map([
  [R1, ['PLEG']],
  [R2, ['PLEG']],
  [R3, ['EventedPLEG']],
  [R4, ['runtime']],
  [R5, ['runtime']],
  [R6, ['capacity', 'shutting']],
  [R7, ['posting']],
  [R8, ['Kubelet']],
]);

/** Compiled once: a global regex is stateful (lastIndex), but matchAll works on a copy of it. */
const SEARCHED: readonly { rule: CatalogRule; global: RegExp; words: readonly string[] }[] = [...RULE_WORDS].map(([rule, words]) => ({
  rule,
  global: globalRegex(rule),
  words,
}));

const mayMatch = (text: string, words: readonly string[]): boolean => words.some((w) => text.includes(w));

/** Separators the kubelet puts between joined errors, plus the brackets of the aggregate form. */
const SEPARATORS = /^[\s,;[\]]+|[\s,;[\]]+$/gu;

function kindOf(rule: CatalogRule, groups: Record<string, string | undefined>): Hit['kind'] {
  if (rule === R1) return 'pleg-stale';
  if (rule === R2) return 'pleg-never';
  if (rule === R3) return 'evented-pleg-full';
  if (rule === R4) return groups['down'] !== undefined ? 'runtime-down' : 'runtime-status-pending';
  if (rule === R5) return groups['net'] !== undefined ? 'network-not-ready' : 'runtime-not-ready';
  if (rule === R6) return groups['capacity'] !== undefined ? 'capacity-missing' : 'shutting-down';
  if (rule === R7) return 'posting-ready';
  return 'lease';
}

function findHits(text: string): Hit[] {
  const hits: Hit[] = [];
  for (const { rule, global, words } of SEARCHED) {
    if (!mayMatch(text, words)) continue;
    for (const m of text.matchAll(global)) {
      const groups = { ...(m.groups ?? {}) };
      const kind = kindOf(rule, groups);
      hits.push({
        start: m.index,
        end: m.index + m[0].length,
        kind,
        openEnded: kind === 'runtime-not-ready' || kind === 'network-not-ready' || kind === 'capacity-missing',
        groups,
      });
    }
  }
  hits.sort((a, b) => a.start - b.start || b.end - a.end);
  // R1 and R2 both start with "PLEG is not healthy"; they never overlap each other, but drop any hit that
  // lies inside an earlier one (e.g. "runtime network not ready:" inside a longer match) to be safe.
  const kept: Hit[] = [];
  for (const h of hits) {
    const last = kept[kept.length - 1];
    if (last !== undefined && h.start < last.end) continue;
    kept.push(h);
  }
  return kept;
}

function trimSeparators(s: string): string {
  return s.replace(SEPARATORS, '');
}

/** Parses a Ready message into errors; never throws. */
export function parseReadyMessage(message: string): ParsedReadyMessage {
  const result: ParsedReadyMessage = { errors: [], postingReady: false };
  const hits = findHits(message);
  const pushOther = (raw: string): void => {
    const text = trimSeparators(raw);
    if (text !== '' && text !== '.') result.errors.push({ kind: 'other', text });
  };

  let cursor = 0;
  hits.forEach((hit, i) => {
    pushOther(message.slice(cursor, hit.start));
    const next = hits[i + 1];
    const end = hit.openEnded ? (next?.start ?? message.length) : hit.end;
    const text = trimSeparators(message.slice(hit.start, end));
    cursor = end;
    if (hit.kind === 'posting-ready') {
      result.postingReady = true;
      // Suffixes such as ". AppArmor enabled" or ". WARNING: …" belong to the ready status, not an error.
      cursor = next?.start ?? message.length;
      return;
    }
    if (hit.kind === 'lease') {
      result.lease = hit.groups['lease']?.startsWith('never') === true ? 'never' : 'stopped';
      return;
    }
    const err: ReadyError = { kind: hit.kind, text };
    const ago = hit.groups['ago'];
    const thr = hit.groups['thr'];
    const n = hit.groups['n'];
    if (ago !== undefined) err.lastSeenAgo = ago;
    if (thr !== undefined) err.threshold = thr;
    if (n !== undefined) err.channelEvents = Number(n);
    result.errors.push(err);
  });
  pushOther(message.slice(cursor));
  return result;
}

/** Undoes Go's strconv.Quote escaping, as klog prints `err="…"` values. Unknown escapes are kept verbatim. */
const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { n: '\n', t: '\t', r: '\r', '"': '"', '\\': '\\' };

export function unquoteGo(s: string): string {
  return s.replace(/\\(u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)/gu, (whole, esc: string) => {
    if (esc.length > 1) return String.fromCharCode(parseInt(esc.slice(1), 16));
    return SIMPLE_ESCAPES[esc] ?? whole;
  });
}
