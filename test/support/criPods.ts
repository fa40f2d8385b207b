// Test support: creates and removes real pods on the node stack through CRI, with our own gRPC client
// (the mutating RPCs live only here). Used by node-stack.sh (`up --pods N`, `down`) and by integration
// tests that need to start/stop containers.
//   npx tsx test/support/criPods.ts create --count N [--cni K]
//   npx tsx test/support/criPods.ts remove-all

import { ProtoCodec } from '../../src/infra/cri/protoCodec';
import { GrpcCriClient } from '../../src/infra/cri/criClient';
import { H2Channel } from '../../src/infra/cri/grpc/h2Channel';
import { LocalHost } from './localHost';
import { RUNTIME_V1_MUTATIONS_PROTO } from './criMutationsProto';
import { boundedMap } from '../../src/infra/cri/boundedMap';
import * as fs from 'node:fs';
import * as path from 'node:path';

export const TEST_IMAGE = 'localhost/busybox:static';
export const TEST_NAMESPACE = 'plegtest';
const MUTATION_DEADLINE_MS = 60_000;

export interface PodSpec {
  name: string;
  uid: string;
  hostNetwork: boolean;
  /** Container command; default prints "started" and sleeps for an hour. */
  command?: string[];
}

export interface CreatedPod {
  spec: PodSpec;
  sandboxId: string;
  containerId: string;
}

/** A CRI client that can also mutate: test support only. */
export function mutatingClient(socketPath: string): GrpcCriClient {
  const host = new LocalHost();
  const channel = new H2Channel((signal) => host.openUnixSocket(socketPath, signal), `unix://${socketPath} (test support)`);
  return new GrpcCriClient(channel, { codec: ProtoCodec.create(RUNTIME_V1_MUTATIONS_PROTO), defaultDeadlineMs: MUTATION_DEADLINE_MS });
}

function sandboxConfig(spec: PodSpec, logRoot: string): Record<string, unknown> {
  const logDirectory = path.join(logRoot, `${TEST_NAMESPACE}_${spec.name}_${spec.uid}`);
  fs.mkdirSync(logDirectory, { recursive: true });
  return {
    metadata: { name: spec.name, uid: spec.uid, namespace: TEST_NAMESPACE, attempt: 0 },
    // The kubelet sends an empty hostname for host-network pods; runc refuses one without a UTS namespace.
    hostname: spec.hostNetwork ? '' : spec.name,
    logDirectory,
    labels: {
      app: 'pleg-test',
      'io.kubernetes.pod.name': spec.name,
      'io.kubernetes.pod.namespace': TEST_NAMESPACE,
      'io.kubernetes.pod.uid': spec.uid,
    },
    linux: {
      cgroupParent: `/plegtest/pod${spec.uid}`,
      securityContext: { namespaceOptions: { network: spec.hostNetwork ? 'NODE' : 'POD', pid: 'CONTAINER', ipc: 'POD' } },
    },
  };
}

export async function createPod(client: GrpcCriClient, spec: PodSpec, logRoot: string): Promise<CreatedPod> {
  const config = sandboxConfig(spec, logRoot);
  const run = await client.call('RunPodSandbox', { config });
  const sandboxId = String(run['podSandboxId']);
  const created = await client.call('CreateContainer', {
    podSandboxId: sandboxId,
    sandboxConfig: config,
    config: {
      metadata: { name: 'sleeper', attempt: 0 },
      image: { image: TEST_IMAGE },
      command: spec.command ?? ['/bin/sh', '-c', 'echo started; exec sleep 3600'],
      labels: {
        'io.kubernetes.container.name': 'sleeper',
        'io.kubernetes.pod.name': spec.name,
        'io.kubernetes.pod.namespace': TEST_NAMESPACE,
        'io.kubernetes.pod.uid': spec.uid,
      },
      logPath: 'sleeper_0.log',
      linux: { resources: { memoryLimitInBytes: 64 * 1024 * 1024 } },
    },
  });
  const containerId = String(created['containerId']);
  await client.call('StartContainer', { containerId });
  return { spec, sandboxId, containerId };
}

export async function stopContainer(client: GrpcCriClient, containerId: string, timeoutSeconds = 0): Promise<void> {
  await client.call('StopContainer', { containerId, timeout: timeoutSeconds });
}

export async function removeContainer(client: GrpcCriClient, containerId: string): Promise<void> {
  await client.call('RemoveContainer', { containerId });
}

export async function removePod(client: GrpcCriClient, sandboxId: string): Promise<void> {
  await client.call('StopPodSandbox', { podSandboxId: sandboxId });
  await client.call('RemovePodSandbox', { podSandboxId: sandboxId });
}

/** N pods: the first `cni` on the CNI bridge (10.244.77.0/24), the rest on the host network. */
export function podSpecs(count: number, cni: number, prefix = 'pleg-pod'): PodSpec[] {
  return Array.from({ length: count }, (_, i) => ({ name: `${prefix}-${i}`, uid: `${prefix}-uid-${i}`, hostNetwork: i >= cni }));
}

export async function removeAllPods(client: GrpcCriClient): Promise<number> {
  const listed = await client.call('ListPodSandbox', {});
  const items = (listed['items'] as { id: string }[] | undefined) ?? [];
  const results = await boundedMap(items, 8, (item) => removePod(client, item.id));
  const failed = results.filter((r) => !r.ok);
  if (failed.length > 0) throw new Error(`removing ${failed.length} of ${items.length} pods failed: ${failed.map((f) => (f.ok ? '' : String(f.error))).join('; ')}`);
  return items.length;
}

function stackDir(): string {
  return process.env['NODE_STACK_DIR'] ?? path.resolve(__dirname, '../../.node-stack');
}

async function main(argv: string[]): Promise<void> {
  const dir = stackDir();
  const socket = path.join(dir, 'containerd', 'containerd.sock');
  const logRoot = path.join(dir, 'podlogs');
  const client = mutatingClient(socket);
  try {
    const [verb, ...rest] = argv;
    const option = (name: string, fallback: number): number => {
      const i = rest.indexOf(name);
      if (i < 0) return fallback;
      const value = Number(rest[i + 1]);
      if (!Number.isInteger(value) || value < 0) throw new Error(`${name} needs a non-negative integer, got ${rest[i + 1]}`);
      return value;
    };
    if (verb === 'create') {
      const count = option('--count', 5);
      const cni = option('--cni', Math.min(2, count));
      const started = Date.now();
      // Sequential on purpose: CNI ADD on the same bridge in parallel gains little on 2 cores.
      for (const spec of podSpecs(count, cni)) await createPod(client, spec, logRoot);
      process.stderr.write(`[criPods] created ${count} pods (${cni} CNI) in ${Date.now() - started} ms\n`);
    } else if (verb === 'remove-all') {
      const n = await removeAllPods(client);
      process.stderr.write(`[criPods] removed ${n} pods\n`);
    } else {
      throw new Error(`usage: criPods.ts create --count N [--cni K] | remove-all (got ${verb ?? 'nothing'})`);
    }
  } finally {
    client.close();
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`[criPods] ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
