import { describe, expect, it } from 'vitest';
import { journalctlArgv, journalOutcome, journalWindow, megabytes, wholeLines } from '../../../../src/core/parse/kubeletLogJournal';
import { buildShellCommand } from '../../../../src/infra/ssh/shellQuote';

const NOW = Date.UTC(2026, 10, 24, 1, 0, 0, 750);

describe('journalctl argv for the kubelet journal over SSH', () => {
  it('is the fixed command with the window in epoch seconds and microsecond prefixes', () => {
    expect(journalctlArgv(journalWindow(NOW, 15))).toEqual([
      'journalctl', '-u', 'kubelet', '--since', `@${Math.floor((NOW - 15 * 60_000) / 1000)}`, '--until', `@${Math.floor(NOW / 1000)}`, '-o', 'short-precise', '--no-pager',
    ]);
  });
  it('reaches the shell with every element single-quoted', () => {
    expect(buildShellCommand(journalctlArgv({ sinceEpochMs: 1_000, untilEpochMs: 2_000 }))).toBe("'journalctl' '-u' 'kubelet' '--since' '@1' '--until' '@2' '-o' 'short-precise' '--no-pager'");
  });
  it('refuses what is not a systemd unit name, a reversed window and times before 1970', () => {
    expect(() => journalctlArgv(journalWindow(NOW, 15), "kubelet'; rm -rf /")).toThrow(/not a systemd unit name/u);
    expect(() => journalctlArgv(journalWindow(NOW, 15), '')).toThrow(/not a systemd unit name/u);
    expect(() => journalctlArgv({ sinceEpochMs: NOW, untilEpochMs: NOW - 1 })).toThrow(/until is before since/u);
    expect(() => journalctlArgv({ sinceEpochMs: -5, untilEpochMs: 0 })).toThrow(/after 1970/u);
    expect(journalctlArgv(journalWindow(NOW, 15), 'kubelet@node-1.service')[2]).toBe('kubelet@node-1.service');
  });
});

describe('journal output', () => {
  const base = { exitCode: 0, stdout: '', stderr: '', truncated: false, timedOut: false };
  it('keeps whole lines only when the output was cut', () => {
    expect(wholeLines('a\nb\nhalf a li')).toBe('a\nb\n');
    expect(wholeLines('no newline')).toBe('');
    expect(journalOutcome({ ...base, stdout: 'l1\nl2\ntor', truncated: true })).toMatchObject({ kind: 'journal', text: 'l1\nl2\n', truncated: true });
    expect(journalOutcome({ ...base, exitCode: null, stdout: 'l1\ntor', timedOut: true })).toMatchObject({ kind: 'journal', text: 'l1\n', timedOut: true });
    // Not cut: the text is what journalctl wrote, last line included.
    expect(journalOutcome({ ...base, stdout: 'l1\nlast' })).toMatchObject({ kind: 'journal', text: 'l1\nlast' });
  });
  it('is a failure when journalctl failed or timed out without a line of journal', () => {
    expect(journalOutcome({ ...base, exitCode: 1, stderr: 'Failed to parse timestamp: @x\n' })).toEqual({ kind: 'failed', exitCode: 1, timedOut: false, stderr: 'Failed to parse timestamp: @x' });
    expect(journalOutcome({ ...base, exitCode: 1, stdout: '-- No entries --\n' })).toMatchObject({ kind: 'failed' });
    expect(journalOutcome({ ...base, exitCode: null, timedOut: true, stdout: 'no newline yet' })).toMatchObject({ kind: 'failed', timedOut: true });
    // An empty journal is an answer, not a failure.
    expect(journalOutcome({ ...base, stdout: '-- No entries --\n' })).toMatchObject({ kind: 'journal', text: '-- No entries --\n' });
  });
  it('says the cap in whole megabytes when it is whole', () => {
    expect([64 * 1024 * 1024, 1024 * 1024, 1536 * 1024].map(megabytes)).toEqual(['64', '1', '1.5']);
  });
});
