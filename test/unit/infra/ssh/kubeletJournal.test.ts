import { describe, expect, it } from 'vitest';
import { fetchKubeletJournal } from '../../../../src/infra/ssh/kubeletJournal';
import type { ExecOptions, ExecResult, RemoteHost } from '../../../../src/infra/remote';

/** Records what would run on the node; the real exec path is tested against sshd in the integration tier. */
function recordingHost(result: Partial<ExecResult>): { host: RemoteHost; calls: Array<{ argv: readonly string[]; options: ExecOptions }> } {
  const calls: Array<{ argv: readonly string[]; options: ExecOptions }> = [];
  const host = {
    description: 'test@node:22',
    exec: (argv: readonly string[], options: ExecOptions) => {
      calls.push({ argv, options });
      return Promise.resolve({ exitCode: 0, stdout: '', stderr: '', truncated: false, timedOut: false, durationMs: 1, ...result });
    },
  } as unknown as RemoteHost;
  return { host, calls };
}

describe('the kubelet journal fetch', () => {
  const window = { sinceEpochMs: 1_000_000, untilEpochMs: 2_000_000 };
  it('runs the fixed journalctl argv with the deadline and the cap, sudo -n only when asked', async () => {
    const plain = recordingHost({ stdout: 'Nov 24 00:00:00.000001 n kubelet[1]: I1124 …\n' });
    await fetchKubeletJournal(plain.host, window, { timeoutMs: 60_000, maxBytes: 64 * 1024 * 1024 });
    expect(plain.calls).toEqual([
      { argv: ['journalctl', '-u', 'kubelet', '--since', '@1000', '--until', '@2000', '-o', 'short-precise', '--no-pager'], options: { timeoutMs: 60_000, maxOutputBytes: 64 * 1024 * 1024 } },
    ]);
    const sudo = recordingHost({});
    const signal = new AbortController().signal;
    await fetchKubeletJournal(sudo.host, window, { timeoutMs: 5_000, maxBytes: 10, sudo: true, signal });
    expect(sudo.calls[0]?.argv.slice(0, 4)).toEqual(['sudo', '-n', '--', 'journalctl']);
    expect(sudo.calls[0]?.options.signal).toBe(signal);
  });
  it('keeps whole lines of a truncated journal', async () => {
    const { host } = recordingHost({ stdout: 'line 1\nline 2\nline', truncated: true });
    expect(await fetchKubeletJournal(host, window, { timeoutMs: 1_000, maxBytes: 20 })).toMatchObject({ kind: 'journal', text: 'line 1\nline 2\n', truncated: true });
  });
});
