// The SSH way of "Open Kubelet Log from Node…": the fixed journalctl command for a time window, and what
// to make of its output (a cap that cut it, a deadline that stopped it). The window is sent as epoch
// seconds (`@1732406400`), which journalctl reads the same whatever the node's time zone is.

/** The systemd unit whose journal is read. */
export const KUBELET_UNIT = 'kubelet';

export interface JournalWindow {
  sinceEpochMs: number;
  untilEpochMs: number;
}

/** Unit names as systemd accepts them (systemd.unit(5)); anything else is refused before it is sent. */
const UNIT_NAME = /^[A-Za-z0-9:_.\\@-]{1,255}$/u;

function epochArg(ms: number, what: string): string {
  if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`journal window: ${what} must be a time after 1970, got ${String(ms)}`);
  return `@${Math.floor(ms / 1000)}`;
}

/**
 * `journalctl -u kubelet --since @S --until @U -o short-precise --no-pager`, as argv (the SSH layer quotes
 * each element). short-precise keeps microseconds in the prefix, which the log reader uses for ordering.
 */
export function journalctlArgv(window: JournalWindow, unit: string = KUBELET_UNIT): string[] {
  if (!UNIT_NAME.test(unit)) throw new RangeError(`journal unit ${JSON.stringify(unit)} is not a systemd unit name`);
  if (window.untilEpochMs < window.sinceEpochMs) throw new RangeError('journal window: until is before since');
  return ['journalctl', '-u', unit, '--since', epochArg(window.sinceEpochMs, 'since'), '--until', epochArg(window.untilEpochMs, 'until'), '-o', 'short-precise', '--no-pager'];
}

/** The window ending at `nowMs` that reaches `minutes` back. */
export function journalWindow(nowMs: number, minutes: number): JournalWindow {
  return { sinceEpochMs: nowMs - minutes * 60_000, untilEpochMs: nowMs };
}

/**
 * Output that was cut (by the byte cap or the deadline) ends inside a line, maybe inside a UTF-8
 * sequence: keep whole lines only, so the reader never sees a torn line as a finding.
 */
export function wholeLines(text: string): string {
  const nl = text.lastIndexOf('\n');
  return nl < 0 ? '' : text.slice(0, nl + 1);
}

/** Megabytes for the "truncated at N MB" note: whole numbers when whole, one decimal otherwise. */
export function megabytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return Number.isInteger(mb) ? String(mb) : mb.toFixed(1);
}

export type JournalOutcome =
  /** journalctl exited 0 (or wrote lines before failing): text is the journal. */
  | { kind: 'journal'; text: string; truncated: boolean; timedOut: boolean; exitCode: number | null; stderr: string }
  /** journalctl wrote nothing usable and failed, or did not finish in time: stderr says why. */
  | { kind: 'failed'; exitCode: number | null; timedOut: boolean; stderr: string };

/** Sorts an exec result into a journal to show or a failure to report. */
export function journalOutcome(result: { exitCode: number | null; stdout: string; stderr: string; truncated: boolean; timedOut: boolean }): JournalOutcome {
  const cut = result.truncated || result.timedOut;
  const text = cut ? wholeLines(result.stdout) : result.stdout;
  const stderr = result.stderr.trim();
  if (result.exitCode === 0 || (text.trim() !== '' && !/^-- No entries --\s*$/u.test(text))) {
    return { kind: 'journal', text, truncated: result.truncated, timedOut: result.timedOut, exitCode: result.exitCode, stderr };
  }
  return { kind: 'failed', exitCode: result.exitCode, timedOut: result.timedOut, stderr };
}
