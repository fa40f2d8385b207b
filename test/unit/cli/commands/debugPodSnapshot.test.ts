import { describe, expect, it } from 'vitest';
import { createDebugPodSnapshotCommand, parseDebugPodSnapshotArgs } from '../../../../src/cli/commands/debugPodSnapshot';
import type { Confirmer } from '../../../../src/cli/commands/debugPodSnapshot';
import { localSnapshotCommand } from '../../../../src/cli/commands/localSnapshot';
import { createSnapshotCommand } from '../../../../src/cli/commands/snapshot';
import { isCliUsageError } from '../../../../src/cli/io';
import type { KubeNode } from '../../../../src/core/kube/objects';
import type { KubeGateway } from '../../../../src/infra/kube/gateway';
import { fakePodsApi, fakePodsGateway } from '../../../support/fakePodsApi';
import type { FakePodScript, FakePodsApi } from '../../../support/fakePodsApi';
import { memoryIo } from '../../../support/memoryIo';

const node: KubeNode = { metadata: { name: 'n1' }, status: { nodeInfo: { containerRuntimeVersion: 'containerd://1.7.2' } } };

function gateway(api: FakePodsApi): KubeGateway {
  return fakePodsGateway(api, node);
}

async function podLog(): Promise<string> {
  const io = memoryIo();
  await localSnapshotCommand(['--cri-socket', '/nonexistent/pleg-doctor-cli.sock', '--timeout', '500'], io, '');
  return io.out();
}

function command(script: FakePodScript, confirmer: Confirmer = { interactive: false, ask: () => Promise.reject(new Error('not asked')) }) {
  const api = fakePodsApi(script);
  const run = createDebugPodSnapshotCommand({ createGateway: () => gateway(api), confirmer: () => confirmer, timeouts: { pollMs: 5, deleteMs: 500 } });
  return { api, run };
}

const BASE = ['--node', 'n1', '--access', 'debug-pod', '--image', 'img:1', '--namespace', 'ns1'];

describe('snapshot --access debug-pod', () => {
  it('with --yes: prints the snapshot document named by the way, and the pod is gone', async () => {
    const { api, run } = command({ phases: [{ phase: 'Running' }, { phase: 'Failed', containers: [{ name: 'snapshot', terminated: { exitCode: 1 } }] }], log: await podLog() });
    const io = memoryIo();
    const code = await run([...BASE, '--yes'], io, '');
    const doc = JSON.parse(io.out()) as { host: string; access: { label: string }; snapshot: { errors: unknown[] } };
    expect(doc.host).toBe('n1');
    expect(doc.access.label).toMatch(/^via debug pod ns1\/pleg-doctor-debug-[a-z0-9]{5} on n1$/);
    expect(code).toBe(1); // the socket in this log was not there: failed calls, as over SSH
    expect(api.live.size).toBe(0);
    expect(io.err()).toContain('Create pod ns1/pleg-doctor-debug-');
  });

  it('without --yes and without a terminal: exit 2 naming --yes, nothing created', async () => {
    const { api, run } = command({ phases: [{ phase: 'Succeeded' }] });
    const io = memoryIo();
    const failure = await run(BASE, io, '').catch((e: unknown) => e);
    expect(isCliUsageError(failure)).toBe(true);
    expect(String(failure)).toMatch(/standard input is not a terminal, so pass --yes/);
    expect(api.calls.filter((c) => c === 'create')).toEqual([]);
    expect(io.err()).toContain('Create pod ns1/pleg-doctor-debug-');
  });

  it('at a terminal: shows the confirmation; anything but y creates nothing (exit 2); y creates', async () => {
    const asked: string[] = [];
    const no = command({ phases: [{ phase: 'Succeeded' }] }, { interactive: true, ask: (text) => (asked.push(text), Promise.resolve('')) });
    expect(await no.run(BASE, memoryIo(), '')).toBe(2);
    expect(no.api.calls).not.toContain('create');
    expect(asked[0]).toMatch(/^Create pod ns1\/pleg-doctor-debug-[a-z0-9]{5} on node n1\?\n {2}image: {6}img:1/);
    const yes = command({ phases: [{ phase: 'Succeeded' }], log: await podLog() }, { interactive: true, ask: () => Promise.resolve('y') });
    await yes.run(BASE, memoryIo(), '');
    expect(yes.api.calls).toContain('create');
    expect(yes.api.live.size).toBe(0);
  });

  it('SIGINT while the pod runs: deleted, exit 130; SIGTERM: 143', async () => {
    for (const [sig, expected] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
      const { api, run } = command({ phases: [{ phase: 'Running' }] });
      const io = memoryIo();
      setTimeout(() => io.controller.abort(new Error(`interrupted by ${sig}`)), 40);
      expect(await run([...BASE, '--yes'], io, '')).toBe(expected);
      expect(api.calls).toContain('delete:0');
      expect(api.live.size).toBe(0);
      expect(io.out()).toBe('');
    }
  });

  it('no image and no agent DaemonSet: a usage error naming --image, nothing created', async () => {
    const { api, run } = command({ phases: [] });
    const failure = await run(['--node', 'n1', '--access', 'debug-pod', '--yes'], memoryIo(), '').catch((e: unknown) => e);
    expect(String(failure)).toMatch(/no pleg-doctor-agent DaemonSet in namespace pleg-doctor.*--image/);
    expect(api.calls).toEqual(['daemonset']);
  });

  it('parses its options; --node is required; the deadline is bounded', () => {
    expect(parseDebugPodSnapshotArgs(['--node', 'n1', '--access', 'debug-pod', '--deadline', '90s'])).toMatchObject({ node: 'n1', namespace: 'pleg-doctor', deadlineSeconds: 90, callDeadlineMs: 5000, yes: false });
    expect(() => parseDebugPodSnapshotArgs(['--access', 'debug-pod'])).toThrow(/needs --node NAME/);
    expect(() => parseDebugPodSnapshotArgs(['--node', 'n1', '--access', 'debug-pod', '--deadline', '2h'])).toThrow(/at most 1h/);
    expect(() => parseDebugPodSnapshotArgs(['--node', 'n1', '--access', 'debug-pod', '--deadline', '5s'])).toThrow(/at least 10000 ms/);
  });

  it('the snapshot command routes --access debug-pod and --cri-socket before the SSH options', async () => {
    // Neither way reaches a cluster here: a gateway factory that is called fails the test.
    const snapshotCommand = createSnapshotCommand(() => {
      throw new Error('no gateway expected');
    });
    const io = memoryIo();
    expect(await snapshotCommand(['--cri-socket', '/nonexistent/pleg-doctor-route.sock', '--timeout', '300'], io)).toBe(1);
    expect((JSON.parse(io.out()) as { transport: { endpoint: string } }).transport.endpoint).toBe('/nonexistent/pleg-doctor-route.sock');
    const help = memoryIo();
    expect(await snapshotCommand(['--access', 'debug-pod', '--help'], help)).toBe(0);
    expect(help.out()).toContain('--access debug-pod');
  });
});
