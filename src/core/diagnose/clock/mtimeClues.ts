// File modification times. A file is never modified before it was captured, so its mtime is always a
// latest bound. It is a clock only when the files were written as they were captured: then their times
// differ (gathered one after the other). A copy, an unzip without timestamps or a git clone writes every
// file within the same instant, so equal times mean "copied": not a clock, only that latest bound.

import type { ClockClue, MtimeVerdict } from './clockTypes';
import { isoSeconds } from './clockText';

/** Files written as they are gathered by hand are seconds apart; a copy writes them within milliseconds. */
export const COPY_SPREAD_MS = 1000;

export interface MtimeReading {
  verdict: MtimeVerdict;
  text: string;
  clues: Map<string, ClockClue>;
}

/**
 * `reachBackMs(file)`: how long before its mtime a file may have been captured when the mtime is a clock
 * (a kubelet endpoint that hangs writes its body only when it answers).
 */
export function mtimeClues(mtimes: Record<string, number>, reachBackMs: (file: string) => number): MtimeReading {
  const entries = Object.entries(mtimes).filter(([, ms]) => Number.isFinite(ms));
  const clues = new Map<string, ClockClue>();
  if (entries.length === 0) return { verdict: 'none', text: 'no file modification times', clues };
  const times = entries.map(([, ms]) => ms);
  const spread = Math.max(...times) - Math.min(...times);
  const verdict: MtimeVerdict = entries.length >= 2 && spread >= COPY_SPREAD_MS ? 'clock' : 'copied';
  const text =
    verdict === 'clock'
      ? `the files' modification times differ (over ${Math.round(spread / 1000)} s): each is read as the time its file was written`
      : entries.length === 1
        ? `one file: its modification time (${isoSeconds(times[0] as number)}) is only a latest bound`
        : `all ${entries.length} files have the same modification time (${isoSeconds(Math.max(...times))}): copied, not a clock; only a latest bound`;
  for (const [file, ms] of entries) {
    if (verdict === 'clock') {
      clues.set(file, { kind: 'mtime', notBeforeMs: ms - reachBackMs(file), notAfterMs: ms, firm: false, text: `${file}: modified ${isoSeconds(ms)} (written as captured)` });
    } else {
      clues.set(file, { kind: 'mtime', notAfterMs: ms, firm: false, text: `${file}: modified ${isoSeconds(ms)} (copied: only a latest bound)` });
    }
  }
  return { verdict, text, clues };
}
