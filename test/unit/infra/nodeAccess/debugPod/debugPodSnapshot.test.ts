import { describe, expect, it } from 'vitest';
import { localSnapshotCommand } from '../../../../../src/cli/commands/localSnapshot';
import type { KubeNode } from '../../../../../src/core/kube/objects';
import { silentLogger } from '../../../../../src/core/util/logger';
import { KubeRequestError } from '../../../../../src/infra/kube/createGateway';
import {
  DebugPodSetupError,
  parseSnapshotLog,
  planDebugPodSnapshot,
  randomSuffix,
  resolveCriSocket,
  resolveDebugImage,
  takeDebugPodSnapshot,
} from '../../../../../src/infra/nodeAccess/debugPod/debugPodSnapshot';
import { DebugPodError } from '../../../../../src/infra/nodeAccess/debugPod/runDebugPod';
import { fakePodsApi } from '../../../../support/fakePodsApi';
import { memoryIo } from '../../../../support/memoryIo';

const node = (runtime: string): KubeNode => ({ metadata: { name: 'n1' }, status: { nodeInfo: { containerRuntimeVersion: runtime } } });
const signal = new AbortController().signal;

/** What the pod's log holds: the in-pod command's own output (here on a socket that is not there), after a stderr line. */
async function podLog(): Promise<string> {
  const io = memoryIo();
  const code = await localSnapshotCommand(['--cri-socket', '/nonexistent/pleg-doctor-test.sock', '--timeout', '500'], io, 'usage');
  expect(code).toBe(1);
  return `pleg-doctor: snapshot: warning: something on stderr first\n${io.out()}`;
}

describe('parseSnapshotLog', () => {
  it('reads the report the in-pod command prints, after the stderr lines the kubelet interleaves', async () => {
    const report = parseSnapshotLog(await podLog());
    expect(report?.transport.endpoint).toBe('/nonexistent/pleg-doctor-test.sock');
    expect(report?.snapshot.errors.length).toBeGreaterThan(0);
  });

  it('is undefined for a log without the document, or a cut-off one', async () => {
    expect(parseSnapshotLog('exec /usr/local/bin/node: no such file or directory\n')).toBeUndefined();
    expect(parseSnapshotLog((await podLog()).slice(0, 400))).toBeUndefined();
    expect(parseSnapshotLog('{\n"a": 1\n}\n')).toBeUndefined();
  });
});

describe('resolveCriSocket', () => {
  it('takes the runtime the Node reports, or --cri-socket (a path or unix:// endpoint)', () => {
    expect(resolveCriSocket(node('containerd://1.7.2'), undefined)).toBe('/run/containerd/containerd.sock');
    expect(resolveCriSocket(node('cri-o://1.28.1'), undefined)).toBe('/run/crio/crio.sock');
    expect(resolveCriSocket(node('docker://20.10'), 'unix:///var/run/cri-dockerd.sock')).toBe('/var/run/cri-dockerd.sock');
    expect(() => resolveCriSocket(node('docker://20.10'), undefined)).toThrow(/runtime "docker:\/\/20.10".*--cri-socket/);
    expect(() => resolveCriSocket(node('containerd://1.7.2'), 'tcp://x:1')).toThrow(DebugPodSetupError);
  });
});

describe('resolveDebugImage', () => {
  it('--image first, else the agent DaemonSet container image, else an error naming --image', async () => {
    const withDs = fakePodsApi({ phases: [], daemonSet: [{ container: 'sidecar', image: 'other:1' }, { container: 'agent', image: 'reg/agent:2' }] });
    expect(await resolveDebugImage(withDs, 'pleg-doctor', 'mine:3', signal)).toEqual({ image: 'mine:3', from: '--image' });
    expect(withDs.calls).toEqual([]);
    expect(await resolveDebugImage(withDs, 'pleg-doctor', undefined, signal)).toEqual({ image: 'reg/agent:2', from: 'DaemonSet pleg-doctor/pleg-doctor-agent' });
    await expect(resolveDebugImage(fakePodsApi({ phases: [] }), 'ns1', undefined, signal)).rejects.toThrow(/no pleg-doctor-agent DaemonSet in namespace ns1.*--image/);
  });

  it("the editor: the image from the agent's namespace, and errors naming the editor's setting", async () => {
    const read: string[] = [];
    const api = fakePodsApi({ phases: [] });
    api.daemonSetImages = (namespace: string) => {
      read.push(namespace);
      return Promise.resolve(undefined);
    };
    const option = 'the setting plegDoctor.nodeAccess.debugPod.image';
    const plan = planDebugPodSnapshot(api, { node: node('containerd://1.7.2'), namespace: 'dbg', agentNamespace: 'agents', imageOption: option, deadlineSeconds: 60, callDeadlineMs: 1000 }, signal);
    await expect(plan).rejects.toThrow(/no pleg-doctor-agent DaemonSet in namespace agents .*give the agent image with the setting plegDoctor\.nodeAccess\.debugPod\.image/);
    expect(read).toEqual(['agents']);
  });

  it('a refused read of the DaemonSet names the refusal and --image', async () => {
    const api = fakePodsApi({ phases: [] });
    api.daemonSetImages = () => Promise.reject(new KubeRequestError({ kind: 'forbidden', message: '403 Forbidden: cannot get daemonsets', httpStatus: 403 }));
    await expect(resolveDebugImage(api, 'ns1', undefined, signal)).rejects.toThrow(/403 Forbidden: cannot get daemonsets\); give the image with --image/);
  });
});

describe('takeDebugPodSnapshot', () => {
  it('returns the report named by the way and the pod, its host the node', async () => {
    const api = fakePodsApi({ phases: [{ phase: 'Failed', containers: [{ name: 'snapshot', terminated: { exitCode: 1 } }] }], log: await podLog() });
    const plan = await planDebugPodSnapshot(api, { node: node('containerd://1.7.2'), namespace: 'ns1', image: 'img:1', deadlineSeconds: 60, callDeadlineMs: 1000 }, signal);
    const { report, deleted } = await takeDebugPodSnapshot(api, plan.manifest, { logger: silentLogger, signal, timeouts: { pollMs: 5 } });
    expect(deleted).toBe(true);
    expect(report.host).toBe('n1');
    expect(report.access).toEqual({ way: 'debug-pod', label: `via debug pod ns1/${plan.manifest.metadata.name} on n1`, pod: `ns1/${plan.manifest.metadata.name}`, image: 'img:1' });
  });

  it('a pod without a report in its log is an error with its end and the log tail', async () => {
    const api = fakePodsApi({ phases: [{ phase: 'Failed', containers: [{ name: 'snapshot', terminated: { exitCode: 127, reason: 'Error' } }] }], log: 'exec: not found\n' });
    const plan = await planDebugPodSnapshot(api, { node: node('containerd://1.7.2'), namespace: 'ns1', image: 'img:1', deadlineSeconds: 60, callDeadlineMs: 1000 }, signal);
    const run = takeDebugPodSnapshot(api, plan.manifest, { logger: silentLogger, signal, timeouts: { pollMs: 5 } });
    await expect(run).rejects.toThrow(DebugPodError);
    await expect(run).rejects.toThrow(/ended Failed; container snapshot: exit 127 \(Error\) without a snapshot in its log; its last lines:\nexec: not found/);
  });

  it('names pods with a fresh suffix each time', () => {
    const a = randomSuffix();
    expect(a).toMatch(/^[a-z0-9]{5}$/);
    expect(new Set(Array.from({ length: 20 }, randomSuffix)).size).toBeGreaterThan(1);
  });
});
