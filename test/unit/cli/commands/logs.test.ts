// `pleg-doctor logs` in-process: file and standard-input streaming, JSON lines, summary last, exit codes.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createLogsCommand } from '../../../../src/cli/commands/logs';
import { runCli } from '../../../../src/cli/dispatch';
import { COMMANDS } from '../../../../src/cli/registry';
import { readKubeletLog } from '../../../../src/core/parse/logReader';
import { memoryIo } from '../../../support/memoryIo';

const FIXTURES = fileURLToPath(new URL('../../../fixtures/', import.meta.url));
const REAL = 'real-kubelet-1.32/kubelet-runtime-stopped.log';

function jsonLines(out: string): Array<Record<string, unknown>> {
  return out
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('pleg-doctor logs', () => {
  it('prints findings as JSON lines and the summary last (1-based lines); exit 1 when PLEG stretches exist', async () => {
    const io = memoryIo('', FIXTURES);
    const code = await runCli(['logs', REAL], io, COMMANDS, '0.0.0');
    expect(io.err()).toBe('');
    expect(code).toBe(1);
    const lines = jsonLines(io.out());
    const last = lines[lines.length - 1] as { summary: Record<string, unknown> };
    expect(last.summary).toMatchObject({
      plegStretches: [{ firstLine: 3227, lastLine: 3748, durationSeconds: 115.014215, maxLastSeenAgoSeconds: 298.158109 }],
      relistFailures: 2,
      discardLines: 0,
      notReadyTransitions: 0,
    });
    const stretch = lines.find((l) => l['kind'] === 'pleg-stretch');
    expect(stretch).toMatchObject({ firstLine: 3227, lastLine: 3748, clock: '03:03:46', lastClock: '03:05:41' });
    expect(lines.find((l) => l['kind'] === 'relist-failure')).toMatchObject({ line: 2933, err: 'rpc error: code = DeadlineExceeded desc = context deadline exceeded' });
    expect(lines.slice(0, -1).every((l) => typeof l['kind'] === 'string')).toBe(true);
  });

  it('reads standard input as a stream ("-") with the same result', async () => {
    const text = readFileSync(`${FIXTURES}${REAL}`, 'utf8');
    const fromFile = memoryIo('', FIXTURES);
    await runCli(['logs', REAL], fromFile, COMMANDS, '0.0.0');
    const io = memoryIo('', FIXTURES);
    const chunks = text.match(/[\s\S]{1,4093}/gu) ?? [];
    const code = await createLogsCommand(() => Readable.from(chunks))(['-'], io);
    expect(code).toBe(1);
    expect(io.out()).toBe(fromFile.out());
  });

  it('--gap changes the stretch rule; exit 0 without PLEG stretches', async () => {
    const io = memoryIo('', FIXTURES);
    expect(await createLogsCommand()(['--gap', '90s', 'logs/klog-1.17-short-iso.log'], io)).toBe(1);
    const summary = (jsonLines(io.out()).pop() as { summary: { plegStretches: unknown[] } }).summary;
    expect(summary.plegStretches).toEqual([{ firstLine: 1, lastLine: 7, durationSeconds: 122, maxLastSeenAgoSeconds: 306.612899 }]);
    const healthy = memoryIo('I1122 02:59:17.042625   1 server.go:495] "HTTP" verb="GET"\n', FIXTURES);
    expect(await createLogsCommand()(['-'], healthy)).toBe(0);
    expect(jsonLines(healthy.out())).toEqual([
      {
        summary: {
          plegStretches: [],
          skippedSyncStretches: [],
          relistFailures: 0,
          discardLines: 0,
          notReadyTransitions: 0,
          readyTransitions: 0,
          kubeletRestarts: 0,
          runtimeDownLines: 0,
          housekeepingSlowLines: 0,
          eventedFallbackLines: 0,
          lines: 1,
        },
      },
    ]);
  });

  it('--year places year-less times: Feb 28 → Mar 1 is 20 s in 2023, a day apart in the default leap year', async () => {
    const log = ['0228 23:59:50', '0301 00:00:10']
      .map((t) => `E${t}.000000       1 kubelet.go:2273] "Skipping pod synchronization" err="PLEG is not healthy: pleg was last seen active 3m1s ago; threshold is 3m0s"`)
      .join('\n');
    const plegOf = async (args: string[]): Promise<unknown> => {
      const io = memoryIo(log, FIXTURES);
      await createLogsCommand()([...args, '-'], io);
      return (jsonLines(io.out()).pop() as { summary: { plegStretches: unknown } }).summary.plegStretches;
    };
    expect(await plegOf(['--year', '2023'])).toEqual([{ firstLine: 1, lastLine: 2, durationSeconds: 20, maxLastSeenAgoSeconds: 181 }]);
    expect(await plegOf([])).toHaveLength(2);
    const bad = memoryIo('', FIXTURES);
    expect(await runCli(['logs', '--year', '23', '-'], bad, COMMANDS, '0.0.0')).toBe(2);
    expect(bad.err()).toContain('--year must be a four-digit year');
  });

  it('bad input is a usage error naming the cause', async () => {
    const run = async (args: string[]): Promise<[number, string]> => {
      const io = memoryIo('', FIXTURES);
      return [await runCli(['logs', ...args], io, COMMANDS, '0.0.0'), io.err()];
    };
    expect(await run(['missing.log'])).toEqual([2, 'pleg-doctor: logs: missing.log: no such file\n']);
    expect(await run(['logs'])).toEqual([2, 'pleg-doctor: logs: logs: is a directory, expected a log file\n']);
    expect((await run(['--gap', 'soon', 'x']))[1]).toContain('--gap must be a positive number');
    expect((await run([]))[1]).toContain('missing FILE');
  });

  it('a file of many read chunks (one reused buffer, the event loop given turns) reads as the whole text does; an interrupt stops it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pleg-logs-cli-'));
    try {
      // 14 copies of the 755 KB recording: about 40 read chunks, so lines straddle chunk ends and the
      // reader yields to the event loop on the way.
      const text = readFileSync(join(FIXTURES, REAL), 'utf8').repeat(14);
      writeFileSync(join(dir, 'big.log'), text);
      const io = memoryIo('', dir);
      expect(await runCli(['logs', 'big.log'], io, COMMANDS, '0.0.0')).toBe(1);
      const lines = jsonLines(io.out());
      const { summary } = lines[lines.length - 1] as { summary: Record<string, unknown> };
      expect(summary).toEqual(JSON.parse(JSON.stringify(readKubeletLog(text).summary)));
      expect(summary['lines']).toBeGreaterThan(14 * 5000);

      const interrupted = memoryIo('', dir);
      const running = runCli(['logs', 'big.log'], interrupted, COMMANDS, '0.0.0');
      setImmediate(() => interrupted.controller.abort());
      expect(await running).toBe(130);
      expect(interrupted.out()).not.toContain('"summary"');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
