import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { replayCommand } from '../../../../src/cli/commands/replay';
import { CliUsageError } from '../../../../src/cli/io';
import type { CliIo } from '../../../../src/cli/io';
import { replayTrace } from '../../../../src/core/pleg/replay';
import { TraceError } from '../../../../src/core/pleg/traceSchema';

const FIXTURES = join(__dirname, '../../../fixtures/pleg-oracle');
const HC02 = 'kubelet-1.26/hc-02-relisting-cache.json';
const EV02 = 'kubelet-1.32/ev-02-evented-nanoseconds.json';
const HC18 = 'kubelet-1.32/hc-18-reinspect-no-events.json';
const OD01 = 'kubelet-1.36/od-01-container-change.json';

function io(stdin = ''): CliIo & { out: string; err: string } {
  const state = {
    out: '',
    err: '',
    stdout: { write: (c: string) => (state.out += c) },
    stderr: { write: (c: string) => (state.err += c) },
    readStdin: () => Promise.resolve(stdin),
    signal: new AbortController().signal,
    env: {},
    cwd: FIXTURES,
  };
  return state;
}

describe('pleg-doctor replay', () => {
  it('prints {"steps":[...]} for one file, identical to replayTrace', async () => {
    const t = io();
    expect(await replayCommand(['--kubelet', '1.26', HC02], t)).toBe(0);
    const expected = replayTrace(JSON.parse(readFileSync(join(FIXTURES, HC02), 'utf8')), '1.26');
    expect(t.out).toBe(`${JSON.stringify(expected)}\n`);
    expect(Object.keys(JSON.parse(t.out) as object)).toEqual(['steps']);
  });

  it('prints one {"file","result"} line per file, in order, for several files', async () => {
    const t = io();
    expect(await replayCommand(['--kubelet=1.32', EV02, HC02], t)).toBe(0);
    const lines = t.out.trimEnd().split('\n').map((l) => JSON.parse(l) as { file: string; result: { steps: unknown[] } });
    expect(lines.map((l) => l.file)).toEqual([EV02, HC02]);
    expect(lines[0]?.result).toEqual(replayTrace(JSON.parse(readFileSync(join(FIXTURES, EV02), 'utf8')), '1.32'));
  });

  it('treats 1.27–1.31 as 1.26, 1.33–1.35 as 1.32 and 1.37+ as 1.36', async () => {
    const [a, b, c, d] = [io(), io(), io(), io()];
    await replayCommand(['--kubelet', '1.29', EV02], a);
    await replayCommand(['--kubelet', '1.26', EV02], b);
    await replayCommand(['--kubelet', 'v1.35.1', EV02], c);
    await replayCommand(['--kubelet', '1.32', EV02], d);
    expect(a.out).toBe(b.out);
    expect(c.out).toBe(d.out);
    expect(a.out).not.toBe(d.out);
    // hc-18: a quiet reinspection sends PodSync from 1.36 on, nothing before.
    const [e, f, g] = [io(), io(), io()];
    await replayCommand(['--kubelet', '1.37', HC18], e);
    await replayCommand(['--kubelet', '1.36', HC18], f);
    await replayCommand(['--kubelet', '1.35', HC18], g);
    expect(e.out).toBe(f.out);
    expect(f.out).toContain('"PodSync"');
    expect(g.out).not.toContain('"PodSync"');
  });

  it('replays the on-demand relist ops with --kubelet 1.36 and refuses them for older kubelets', async () => {
    const t = io();
    expect(await replayCommand(['--kubelet', '1.36', OD01], t)).toBe(0);
    const expected = replayTrace(JSON.parse(readFileSync(join(FIXTURES, OD01), 'utf8')), '1.36');
    expect(JSON.parse(t.out)).toEqual(expected);
    expect(expected.steps[3]?.queueHandled).toEqual([{ pod: 'a', requestedMs: 1500, ran: true }]);
    await expect(replayCommand(['--kubelet', '1.32', OD01], io())).rejects.toThrow(/onDemandRelist: kubelet 1\.32 has no on-demand relist/u);
    const bare = { steps: [{ op: 'requestRelist', at: 1, podUID: 'a' }] };
    await expect(replayCommand(['--kubelet', '1.35', '-'], io(JSON.stringify(bare)))).rejects.toThrow(/steps\[0\]\.op: "requestRelist" needs kubelet 1\.36/u);
  });

  it('reads CRI createdAt nanoseconds beyond 2^53 exactly', async () => {
    // rnd-od-009 step 6: createdAt 1700000005301000000 is 5301 ms after the base; a rounded double gives 5300.
    const t = io();
    expect(await replayCommand(['--kubelet', '1.36', 'kubelet-1.36/rnd-od-009.json'], t)).toBe(0);
    const step = (JSON.parse(t.out) as { steps: { cacheSets?: { atMs: number }[] }[] }).steps[6];
    expect(step?.cacheSets?.[0]?.atMs).toBe(5301);
  });

  it('reads a bare trace from standard input', async () => {
    const oracle = JSON.parse(readFileSync(join(FIXTURES, HC02), 'utf8')) as { trace: unknown };
    const t = io(JSON.stringify(oracle.trace));
    expect(await replayCommand(['--kubelet', '1.26', '-'], t)).toBe(0);
    expect(JSON.parse(t.out)).toEqual(replayTrace(oracle, '1.26'));
  });

  it('rejects bad usage and bad input with errors naming the cause', async () => {
    await expect(replayCommand([HC02], io())).rejects.toThrow(/missing --kubelet/u);
    await expect(replayCommand(['--kubelet', '1.25', HC02], io())).rejects.toThrow(CliUsageError);
    await expect(replayCommand(['--kubelet', '1.x', HC02], io())).rejects.toThrow(/--kubelet must be 1\.26 or later/u);
    await expect(replayCommand(['--kubelet', '1.26'], io())).rejects.toThrow(/missing FILE/u);
    await expect(replayCommand(['--kubelet', '1.26', 'nope.json'], io())).rejects.toThrow(/nope\.json: no such file/u);
    await expect(replayCommand(['--kubelet', '1.26', '-'], io('{"steps": [{"op": "relist"}]}'))).rejects.toThrow(
      /-: trace\.steps\[0\]\.at: expected a finite number/u,
    );
    await expect(replayCommand(['--kubelet', '1.26', '-'], io('{not json'))).rejects.toThrow(/not JSON/u);
  });
});

describe('trace validation', () => {
  it.each([
    [{}, /trace\.steps: missing/u],
    [{ steps: [{ op: 'relist', at: 1, pods: [{ uid: 'a', containers: [{ id: 'c', state: 'paused' }] }] }] }, /trace\.steps\[0\]\.pods\[0\]\.containers\[0\]\.state: expected one of running, exited, unknown, created, got "paused"/u],
    [{ steps: [{ op: 'dance', at: 1 }] }, /trace\.steps\[0\]\.op: unknown op "dance"/u],
    [{ config: { channelCapacity: -1 }, steps: [] }, /trace\.config\.channelCapacity: expected a non-negative integer/u],
    [{ steps: [{ op: 'consume', at: 1, consume: 'some' }] }, /trace\.steps\[0\]\.consume: expected "all", "none" or a count/u],
    [{ trace: { steps: [{ op: 'criEvent', at: 1, event: { type: 'X', containerId: 'c', createdAt: 1, pod: null } }] }, result: {} }, /trace\.steps\[0\]\.event\.type/u],
    [[1, 2], /input: expected an object, got an array/u],
    [{ steps: [{ op: 'updateRelistDuration', at: 1, relistPeriodMs: 0, relistThresholdMs: 5 }] }, /trace\.steps\[0\]\.relistPeriodMs: expected a positive number/u],
    [{ config: { useCache: false }, steps: [{ op: 'eventedHealthy', at: 1 }] }, /trace\.steps\[0\]\.op: EventedPLEG steps need config\.useCache true/u],
  ])('%j', (input, message) => {
    expect(() => replayTrace(input, '1.32')).toThrow(TraceError);
    expect(() => replayTrace(input, '1.32')).toThrow(message);
  });

  it.each([
    [{ steps: [{ op: 'requestRelist', at: 1 }] }, /trace\.steps\[0\]\.podUID: missing/u],
    [{ steps: [{ op: 'requestRelist', at: 1, podUID: 'a', podUIDs: ['b'] }] }, /podUIDs: give podUID or podUIDs, not both/u],
    [{ steps: [{ op: 'setRuntime', at: 1 }] }, /trace\.steps\[0\]\.pods: missing/u],
    [{ steps: [{ op: 'processRelistQueue', at: 1, hang: { ms: -5 } }] }, /trace\.steps\[0\]\.hang\.ms: expected a non-negative integer/u],
    [{ config: { onDemandRelist: 'yes' }, steps: [] }, /trace\.config\.onDemandRelist: expected true or false/u],
  ])('1.36 input %j', (input, message) => {
    expect(() => replayTrace(input, '1.36')).toThrow(TraceError);
    expect(() => replayTrace(input, '1.36')).toThrow(message);
  });

  it('rejects the 1.36 ops for older kubelets', () => {
    const input = { steps: [{ op: 'requestRelist', at: 1, podUID: 'a' }] };
    expect(() => replayTrace(input, '1.32')).toThrow(TraceError);
    expect(() => replayTrace(input, '1.26')).toThrow(/needs kubelet 1\.36 or later/u);
    expect(replayTrace(input, '1.36').steps[0]).toMatchObject({ relistQueue: [], relistRequestsIgnored: 1 });
  });
});
