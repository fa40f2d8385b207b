// The crictl transport: exact argv (sudo -n, endpoint, timeout below our deadline), parsing of the
// recorded output into the same types as gRPC, and crictl's errors mapped to gRPC codes.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CrictlReader, crictlErrorCode } from '../../../../../src/infra/cri/transports/crictl';
import { takeSnapshot } from '../../../../../src/infra/cri/snapshot';
import { CriError } from '../../../../../src/infra/cri/criError';
import { FakeHost, type Reply } from '../../../../support/fakeHost';

const DIR = path.resolve(__dirname, '../../../../fixtures/crictl-containerd-1.6');
const fixture = (name: string): string => fs.readFileSync(path.join(DIR, name), 'utf8');
const EP = 'unix:///run/containerd/containerd.sock';

/** crictl on a node with the recorded state: ids 5541… (exited) and cecb… (its sandbox) inspect. */
function recordedNode(): FakeHost {
  return new FakeHost((argv) => {
    const args = argv.slice(argv.indexOf('-t') + 2);
    const key = args.join(' ');
    if (key === 'version') return { stdout: fixture('version.txt') };
    if (key === 'info -o json') return { stdout: fixture('info.json') };
    if (key === 'pods -o json') return { stdout: fixture('pods.json') };
    if (key.startsWith('ps -a -o json')) return { stdout: fixture('ps-a.json') };
    if (key === 'stats -o json') return { stdout: fixture('stats.json') };
    if (key === 'inspect -o json 5541dbf1f3daae28394808598b5759c872cab8e08341ba50be42ed91cc8a1b11') return { stdout: fixture('inspect-exited.json') };
    if (args[0] === 'inspect') return { stdout: fixture('inspect-running.json').replace(/"id": "[0-9a-f]{64}"/, `"id": "${args[3] ?? ''}"`) };
    if (args[0] === 'inspectp') return { stdout: fixture('inspectp-ready.json').replace(/"id": "[0-9a-f]{64}"/, `"id": "${args[3] ?? ''}"`) };
    return undefined;
  });
}

describe('CrictlReader', () => {
  it('builds argv with sudo -n, both endpoints and a crictl timeout below the deadline', async () => {
    const host = recordedNode();
    const reader = new CrictlReader(host, EP, true, { defaultDeadlineMs: 5_000 });
    await reader.listPodSandbox();
    expect(host.calls[0]?.argv).toEqual(['sudo', '-n', 'crictl', '--runtime-endpoint', EP, '--image-endpoint', EP, '-t', '4s', 'pods', '-o', 'json']);
    expect(host.calls[0]?.options.timeoutMs).toBe(5_000);
    const asRoot = new CrictlReader(host, EP, false);
    await asRoot.listContainers({ filter: { podSandboxId: 'cecb95169a2c', state: 'CONTAINER_EXITED' }, deadlineMs: 1_000 });
    expect(host.calls[1]?.argv).toEqual(['crictl', '--runtime-endpoint', EP, '--image-endpoint', EP, '-t', '1s', 'ps', '-a', '-o', 'json', '--pod', 'cecb95169a2c', '--state', 'exited']);
  });

  it('refuses ids that could be options or shell syntax', async () => {
    const host = recordedNode();
    const reader = new CrictlReader(host, EP, false);
    await expect(reader.containerStatus('--all')).rejects.toMatchObject({ code: 3 });
    await expect(reader.podSandboxStatus('x; rm -rf /')).rejects.toMatchObject({ code: 3 });
    expect(host.calls).toHaveLength(0);
  });

  it('takes a full snapshot from the recorded output, with timings per call', async () => {
    const snapshot = await takeSnapshot(new CrictlReader(recordedNode(), EP, false), { includeStats: true });
    expect(snapshot.errors).toEqual([]);
    expect(snapshot.runtime).toEqual({ name: 'containerd', version: '1.6.20~ds1', apiVersion: 'v1' });
    expect(snapshot.sandboxes).toHaveLength(5);
    expect(snapshot.containers).toHaveLength(4);
    expect(snapshot.sandboxStatuses.map((s) => s.id).sort()).toEqual(snapshot.sandboxes.map((s) => s.id).sort());
    expect(snapshot.containerStatuses.find((c) => c.id.startsWith('5541'))).toMatchObject({ state: 'CONTAINER_EXITED', exitCode: 137 });
    expect(snapshot.stats).toHaveLength(4);
    expect(snapshot.timings).toHaveLength(4 + 5 + 4 + 1);
    expect(snapshot.source).toBe(`crictl ${EP} on fake-node`);
  });

  it('maps crictl failures to gRPC codes', async () => {
    const reader = (reply: Reply): CrictlReader => new CrictlReader(new FakeHost(() => reply), EP, true);
    const hung = await reader({ exitCode: 1, stderr: 'E1122 time="…" level=fatal msg="listing pod sandboxes: rpc error: code = DeadlineExceeded desc = context deadline exceeded"' })
      .listPodSandbox()
      .catch((e: unknown) => e);
    expect(hung).toBeInstanceOf(CriError);
    expect(hung).toMatchObject({ code: 4, codeName: 'DEADLINE_EXCEEDED', method: 'ListPodSandbox', detail: 'context deadline exceeded"' });
    await expect(reader({ timedOut: true }).version()).rejects.toMatchObject({ code: 4 });
    await expect(reader({ exitCode: 127, stderr: 'sudo: crictl: command not found' }).version()).rejects.toMatchObject({ code: 14, detail: 'crictl is not installed on fake-node' });
    await expect(reader({ exitCode: 1, stderr: 'sudo: a password is required' }).version()).rejects.toMatchObject({ code: 7 });
    await expect(reader({ exitCode: 0, stdout: 'not json' }).listContainers()).rejects.toMatchObject({ code: 13 });
    expect(crictlErrorCode('rpc error: code = NotFound desc = an error occurred when try to find container "x": not found')).toEqual({ code: 5, detail: 'an error occurred when try to find container "x": not found' });
    expect(crictlErrorCode('plain failure')).toBeUndefined();
  });
});
