// The kubelet journal over SSH: the fixed journalctl argv (kubeletLogJournal.ts in core) run through the
// exec helper the node probes use, so it gets the same quoting (every argv element single-quoted), deadline
// (the remote process is killed when it passes) and byte cap. Past the cap the rest of the output is
// dropped as it arrives; journalctl runs to its end or to the deadline, whichever comes first.
// No vscode import: the diagnosis collects the journal with it too (CLI and host), and the integration tests
// run it against the node stack's real sshd.

import { journalctlArgv, journalOutcome, type JournalOutcome, type JournalWindow } from '../../core/parse/kubeletLogJournal';
import type { RemoteHost } from '../remote';

export interface JournalFetchOptions {
  timeoutMs: number;
  maxBytes: number;
  signal?: AbortSignal;
  /** Prefix `sudo -n --` (the node access `sudo` setting): reading another unit's journal may need it. */
  sudo?: boolean;
}

/** Runs a journal-printing command; exported for the tests, which time and cap real slow commands. */
export async function runJournalCommand(host: RemoteHost, argv: readonly string[], options: JournalFetchOptions): Promise<JournalOutcome> {
  const full = options.sudo === true ? ['sudo', '-n', '--', ...argv] : [...argv];
  const result = await host.exec(full, {
    timeoutMs: options.timeoutMs,
    maxOutputBytes: options.maxBytes,
    ...(options.signal !== undefined ? { signal: options.signal } : {}),
  });
  return journalOutcome(result);
}

/** `journalctl -u kubelet` for the window, on `host`. */
export function fetchKubeletJournal(host: RemoteHost, window: JournalWindow, options: JournalFetchOptions): Promise<JournalOutcome> {
  return runJournalCommand(host, journalctlArgv(window), options);
}
