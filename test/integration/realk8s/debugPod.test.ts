// Node access through a debug pod (issue #29) on the real 1.26 cluster, no fault window: the built CLI
// (dist/, `npm run build` first) runs `snapshot --node … --access debug-pod --yes` with the image of
// deploy/image/build-offline.sh imported into the node's containerd, and
// - returns containerd's own containers and tasks (held to `ctr -n k8s.io tasks ls` on the same socket and
//   to the kubelet's containerID of a pod started for the test), naming the way, and leaves no pod behind;
// - interrupted by SIGINT while its pod exists: the pod is deleted, exit 130;
// - a socket path that is not one on the node, and an image that cannot run the command: exit 1 with the
//   kubelet's own reason (its FailedMount event, the container's end), the pod deleted;
// - without --yes and without a terminal: exit 2 naming --yes, and the API server has no pod of ours.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_IMAGE, importAgentImage } from './agentInstall';
import type { RealCluster } from './cluster';
import { debugPods, runCli, runningTasks } from './debugPodCli';
import { REPO, kubectl, realCluster, scratchDir, script, until } from './cluster';

const NAMESPACE = 'default';
const TEST_POD = 'pleg-debugpod-target';
const CLI = join(REPO, 'dist/cli.js');
let cluster: RealCluster;
const cli = (args: string[], onStderr?: Parameters<typeof runCli>[2], timeoutMs?: number) => runCli(cluster, args, onStderr, timeoutMs);
let scratch: { dir: string; remove: () => void };


const BASE = (): string[] => ['snapshot', '--node', cluster.nodeName, '--access', 'debug-pod', '--image', AGENT_IMAGE, '--namespace', NAMESPACE, '--cri-socket', cluster.criSocket];

beforeAll(async () => {
  if (!existsSync(CLI) || !existsSync(join(REPO, 'dist/cliRemote.js'))) throw new Error(`${CLI} or dist/cliRemote.js is missing: run npm run build first`);
  cluster = realCluster();
  scratch = scratchDir();
  importAgentImage(cluster, scratch.dir);
  const started = script('pod', [TEST_POD]);
  if (started.status !== 0) throw new Error(`cluster.sh pod ${TEST_POD} failed: ${started.stderr}`);
  await until(
    `pod ${TEST_POD} Running`,
    () => (kubectl(cluster, ['get', 'pod', TEST_POD, '-n', 'default', '-o', 'jsonpath={.status.phase}']) === 'Running' ? true : undefined),
    90_000,
    500,
  );
}, 300_000);

afterAll(() => {
  if (cluster !== undefined) kubectl(cluster, ['delete', 'pod', TEST_POD, '-n', 'default', '--ignore-not-found', '--wait=true', '--timeout=60s']);
  scratch?.remove();
});

describe('snapshot --access debug-pod on the real cluster', () => {
  it("returns containerd's containers and tasks, names the way, and leaves no pod behind", async () => {
    const containerId = kubectl(cluster, ['get', 'pod', TEST_POD, '-n', 'default', '-o', 'jsonpath={.status.containerStatuses[0].containerID}']).replace(/^containerd:\/\//, '');
    const before = runningTasks(cluster);
    expect(before).toContain(containerId);

    const run = await cli([...BASE(), '--yes']);
    expect(run.code, run.stderr).toBe(0);
    const doc = JSON.parse(run.stdout) as {
      host: string;
      access: { way: string; label: string; pod: string };
      transport: { endpoint: string };
      snapshot: { runtime?: { name: string }; containers: { id: string; state: string; labels?: Record<string, string> }[]; sandboxes: { id: string; state: string }[]; errors: unknown[] };
    };
    expect(doc.access.way).toBe('debug-pod');
    expect(doc.access.label).toBe(`via debug pod ${doc.access.pod} on ${cluster.nodeName}`);
    expect(doc.host).toBe(cluster.nodeName);
    expect(doc.transport.endpoint).toBe(cluster.criSocket);
    expect(doc.snapshot.runtime?.name).toBe('containerd');
    expect(doc.snapshot.errors).toEqual([]);
    // The kubelet's container of the test pod, running, as containerd reports it through the pod.
    const target = doc.snapshot.containers.find((c) => c.id === containerId);
    expect(target?.state).toBe('CONTAINER_RUNNING');
    expect(target?.labels?.['io.kubernetes.pod.name']).toBe(TEST_POD);
    // Every task containerd ran before is a sandbox or a container of the snapshot.
    const seen = new Set([...doc.snapshot.containers.map((c) => c.id), ...doc.snapshot.sandboxes.map((s) => s.id)]);
    expect(before.filter((id) => !seen.has(id))).toEqual([]);
    // The debug pod itself was seen from inside: its own container runs in the snapshot.
    const self = doc.snapshot.containers.find((c) => c.labels?.['io.kubernetes.pod.name'] === doc.access.pod.split('/')[1]);
    expect(self?.state).toBe('CONTAINER_RUNNING');
    expect(run.stderr).toMatch(/deleted/);
    expect(debugPods(cluster), run.stderr).toEqual([]);
  }, 180_000);

  it('interrupted (SIGINT) while its pod exists: the pod is deleted and the exit is 130', async () => {
    let signalled = false;
    const run = await cli([...BASE(), '--yes'], (stderr, kill) => {
      if (!signalled && /debug pod \S+: (Pending|Running)\n/.test(stderr)) {
        signalled = true;
        kill('SIGINT');
      }
    });
    expect(signalled, run.stderr).toBe(true);
    expect(run.code, run.stderr).toBe(130);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/deleting \(grace 0\)[\s\S]*deleted/);
    expect(debugPods(cluster), run.stderr).toEqual([]);
  }, 180_000);

  it('a socket path that is not a socket on the node: fails on the kubelet FailedMount event, quoting it, pod deleted', async () => {
    const args = BASE();
    args[args.indexOf('--cri-socket') + 1] = '/nonexistent/pleg-doctor/containerd.sock';
    const run = await cli([...args, '--yes']);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toMatch(/cannot start: FailedMount: MountVolume\.SetUp failed for volume "cri-socket" : hostPath type check failed: \/nonexistent\/pleg-doctor\/containerd\.sock is not a socket file/);
    // The kubelet lets the pod go only after its wait for volumes (up to 2m3s); the command waits for that.
    expect(run.stderr).toMatch(/deleted\n/);
    expect(debugPods(cluster), run.stderr).toEqual([]);
  }, 240_000);

  it('an image whose run fails: the pod end and the reason become the error, pod deleted', async () => {
    // The kit's busybox image: it has no `snapshot` to run, so the container cannot start.
    const image = kubectl(cluster, ['get', 'pod', TEST_POD, '-n', 'default', '-o', 'jsonpath={.spec.containers[0].image}']);
    const args = BASE();
    args[args.indexOf('--image') + 1] = image;
    const run = await cli([...args, '--yes']);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toMatch(/pleg-doctor: snapshot: debug pod default\/pleg-doctor-debug-[a-z0-9]{5} (cannot start|ended Failed)[^\n]*(StartError|RunContainerError|CreateContainerError|ContainerCannotRun)[^\n]*"snapshot": executable file not found/);
    expect(run.stdout).toBe('');
    expect(debugPods(cluster), run.stderr).toEqual([]);
  }, 120_000);

  it('without --yes and without a terminal: exit 2 naming --yes, and nothing was created', async () => {
    const run = await cli(BASE());
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/standard input is not a terminal, so pass --yes/);
    expect(run.stderr).toMatch(new RegExp(`Create pod ${NAMESPACE}/pleg-doctor-debug-[a-z0-9]{5} on node ${cluster.nodeName}\\?`));
    expect(run.stderr).not.toMatch(/creating on node/);
    expect(debugPods(cluster), run.stderr).toEqual([]);
  }, 60_000);
});
