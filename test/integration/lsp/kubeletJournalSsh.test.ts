// "Open Kubelet Log from Node…" over SSH against the node stack's real sshd and the machine's real
// journalctl. The stack has no systemd and so no kubelet journal: journalctl answers "-- No entries --",
// which still shows it accepted the fixed argv (a bad --since or -o makes it fail). The cap and the
// deadline are checked with real commands that write too much or take too long.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { journalWindow } from '../../../src/core/parse/kubeletLogJournal';
import type { SshConnection } from '../../../src/infra/ssh/connection';
import { fetchKubeletJournal, runJournalCommand } from '../../../src/infra/ssh/kubeletJournal';
import { connect, remoteProcesses, removeScratch, scratchDir, stack } from '../ssh/kit';

const env = stack();
const open: SshConnection[] = [];
function ssh(): SshConnection {
  const c = connect(env);
  open.push(c);
  return c;
}
afterAll(() => {
  for (const c of open) c.close();
  removeScratch();
});

const MB = 1024 * 1024;

describe('the kubelet journal over SSH', () => {
  it('runs journalctl -u kubelet for the window, and journalctl accepts every argument', async () => {
    const outcome = await fetchKubeletJournal(ssh(), journalWindow(Date.now(), 60), { timeoutMs: 20_000, maxBytes: MB });
    expect(outcome).toMatchObject({ kind: 'journal', exitCode: 0, truncated: false, timedOut: false });
    if (outcome.kind !== 'journal') return;
    expect(outcome.text).toBe('-- No entries --\n');
    expect(outcome.stderr).not.toMatch(/Failed to parse|Unknown|invalid/iu);
  });

  it('reports journalctl refusing an argument as a failure with its message', async () => {
    const outcome = await runJournalCommand(ssh(), ['journalctl', '-u', 'kubelet', '--since', '@yesterday-ish', '--no-pager'], { timeoutMs: 20_000, maxBytes: MB });
    expect(outcome).toMatchObject({ kind: 'failed', exitCode: 1, timedOut: false });
    expect(outcome.stderr).toMatch(/Failed to parse timestamp/u);
  });

  it('passes a hostile unit name to journalctl as one argument, never to the shell', async () => {
    const marker = join(scratchDir(), 'pwned');
    const unit = `kube let'; touch ${marker}; echo '$(id)`;
    const outcome = await runJournalCommand(ssh(), ['journalctl', '-u', unit, '--no-pager'], { timeoutMs: 20_000, maxBytes: MB });
    // journalctl saw the whole string as the unit (it escapes the space and quote in its complaint).
    expect(outcome.stderr).toContain('Invalid unit name "kube let');
    expect(outcome.stderr).toContain('$(id)');
    expect(existsSync(marker)).toBe(false);
  });

  it('stops at the byte cap with whole lines and says it was truncated', async () => {
    // seq writes about 20 MB; the cap keeps 1 MB of it.
    const outcome = await runJournalCommand(ssh(), ['seq', '1', '2500000'], { timeoutMs: 30_000, maxBytes: MB });
    expect(outcome).toMatchObject({ kind: 'journal', truncated: true, timedOut: false });
    if (outcome.kind !== 'journal') return;
    expect(outcome.text.length).toBeLessThanOrEqual(MB);
    expect(outcome.text.length).toBeGreaterThan(MB - 16);
    expect(outcome.text.endsWith('\n')).toBe(true);
    const lines = outcome.text.trimEnd().split('\n');
    expect(lines[0]).toBe('1');
    expect(lines[lines.length - 1]).toBe(String(lines.length));
  });

  it('ends a slow command at the deadline, keeps what it wrote and kills it on the node', async () => {
    const host = ssh();
    const started = performance.now();
    const outcome = await runJournalCommand(host, ['sh', '-c', 'seq 1 3; exec sleep 47'], { timeoutMs: 1_500, maxBytes: MB });
    const elapsed = performance.now() - started;
    expect(outcome).toMatchObject({ kind: 'journal', text: '1\n2\n3\n', timedOut: true });
    expect(elapsed).toBeGreaterThanOrEqual(1_400);
    expect(elapsed).toBeLessThan(6_000);
    // The remote process is killed after the deadline (best effort, from a second channel): wait for it.
    let left: string[] = [];
    for (let i = 0; i < 40; i++) {
      left = (await remoteProcesses(host)).filter((p) => p.includes('sleep 47'));
      if (left.length === 0) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(left).toEqual([]);
  });

  it('is a failure when nothing came before the deadline', async () => {
    const outcome = await runJournalCommand(ssh(), ['sleep', '48'], { timeoutMs: 1_000, maxBytes: MB });
    expect(outcome).toMatchObject({ kind: 'failed', timedOut: true, exitCode: null });
  });
});
