import { describe, expect, it } from 'vitest';
import { fetchFromSources, logSources, nodeLogDocumentPath, nodeLogDocumentText, type Fetched, type LogSource } from '../../../../src/host/kubeletLog/kubeletLogSource';

const log = (source: LogSource): Fetched => ({ kind: 'log', text: `from ${source}\n`, source });
const failed = (message: string): Fetched => ({ kind: 'failed', message });

async function run(sshConfigured: boolean, answers: Partial<Record<LogSource, Fetched>>): Promise<{ asked: LogSource[]; result: Awaited<ReturnType<typeof fetchFromSources>> }> {
  const asked: LogSource[] = [];
  const result = await fetchFromSources(logSources(sshConfigured), (s) => {
    asked.push(s);
    return Promise.resolve(answers[s] ?? failed(`no ${s}`));
  });
  return { asked, result };
}

describe('kubelet log source', () => {
  it('uses SSH when node access is configured, and only SSH when it works', async () => {
    expect(await run(true, { ssh: log('ssh'), nodelogquery: log('nodelogquery') })).toEqual({ asked: ['ssh'], result: { fetched: log('ssh') } });
  });
  it('uses the NodeLogQuery alone without node access', async () => {
    expect(await run(false, { ssh: log('ssh'), nodelogquery: log('nodelogquery') })).toEqual({ asked: ['nodelogquery'], result: { fetched: log('nodelogquery') } });
  });
  it('falls back to the NodeLogQuery when SSH fails, and keeps why', async () => {
    expect(await run(true, { ssh: failed('connection refused'), nodelogquery: log('nodelogquery') })).toEqual({
      asked: ['ssh', 'nodelogquery'],
      result: { fetched: log('nodelogquery'), sshFailure: 'connection refused' },
    });
    expect((await run(true, { ssh: failed('auth'), nodelogquery: failed('HTTP 404') })).result).toEqual({ fetched: failed('HTTP 404'), sshFailure: 'auth' });
  });
  it('stops at a cancellation', async () => {
    expect(await run(true, { ssh: { kind: 'cancelled' } })).toEqual({ asked: ['ssh'], result: { fetched: { kind: 'cancelled' } } });
  });
  it('names the document after its source and puts the cut note last', () => {
    expect(nodeLogDocumentPath('prod', 'node-1', 'ssh', new Date(Date.UTC(2026, 10, 24, 1, 2, 3, 4)))).toBe('/prod/node-1-kubelet-ssh-2026-11-24T01-02-03-004Z.log');
    expect(nodeLogDocumentText({ kind: 'log', source: 'ssh', text: 'a\nb\n', note: '-- truncated at 64 MB --' })).toBe('a\nb\n-- truncated at 64 MB --\n');
    expect(nodeLogDocumentText({ kind: 'log', source: 'nodelogquery', text: 'a\n' })).toBe('a\n');
  });
});
