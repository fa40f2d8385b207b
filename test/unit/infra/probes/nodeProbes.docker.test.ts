// The docker probes of the node tier: which daemon (the dockershim kubelet's --docker-endpoint), the argv
// each runs (fixed, the endpoint validated), their parsers, and what a hung daemon gives.

import { describe, expect, it } from 'vitest';
import { parseDockerInfo, parseDockerPsIds, ProbeParseError } from '../../../../src/core/parse/probes';
import { kubeletDockerEndpoint } from '../../../../src/infra/cri/endpoints';
import { runNodeProbes } from '../../../../src/infra/probes/nodeProbes';
import { probeCommands } from '../../../../src/infra/ssh/command';
import { UnsafeArgumentError } from '../../../../src/infra/ssh/shellQuote';
import { FakeHost, type Reply } from '../../../support/fakeHost';

// The real kubelet of ../shared/k8s-1.22 (cluster.sh): its docker flags as `ps -o args=` shows them.
const KUBELET_ARGS = '/tmp/k122/bin/kubelet --container-runtime=docker --docker-endpoint=unix:///tmp/k122/run/docker/docker.sock --container-runtime-endpoint=unix:///tmp/k122/run/dockershim.sock\n';
const ID = 'a'.repeat(64);

describe('docker probe commands', () => {
  it('the daemon is the kubelet’s --docker-endpoint, else docker’s default socket', () => {
    expect(kubeletDockerEndpoint(KUBELET_ARGS)).toBe('unix:///tmp/k122/run/docker/docker.sock');
    expect(kubeletDockerEndpoint('/usr/bin/kubelet --container-runtime=docker')).toBe('unix:///var/run/docker.sock');
  });

  it('argv is fixed; an endpoint that is not unix:///absolute is refused', () => {
    expect(probeCommands.dockerPs('unix:///var/run/docker.sock')).toEqual(['docker', '-H', 'unix:///var/run/docker.sock', 'ps', '--quiet', '--no-trunc']);
    expect(probeCommands.dockerInfo('unix:///var/run/docker.sock')).toEqual(['docker', '-H', 'unix:///var/run/docker.sock', 'info', '--format', '{{.ServerVersion}} {{.Driver}} {{.CgroupDriver}}']);
    for (const bad of ['tcp://10.0.0.1:2375', 'unix://relative.sock', 'unix:///a b', '/var/run/docker.sock', 'unix:///x/../etc']) {
      expect(() => probeCommands.dockerPs(bad)).toThrow(UnsafeArgumentError);
    }
  });

  it('parses docker ps ids and docker info; names what does not fit', () => {
    expect(parseDockerPsIds(`${ID}\n${'b'.repeat(64)}\n`)).toBe(2);
    expect(parseDockerPsIds('')).toBe(0);
    expect(() => parseDockerPsIds('Cannot connect to the Docker daemon')).toThrow(ProbeParseError);
    expect(parseDockerInfo('20.10.24+dfsg1 overlay2 cgroupfs\n')).toEqual({ serverVersion: '20.10.24+dfsg1', storageDriver: 'overlay2', cgroupDriver: 'cgroupfs' });
    expect(() => parseDockerInfo('overlay2 cgroupfs')).toThrow(/docker info: expected/u);
  });
});

function host(replies: (argv: readonly string[]) => Reply | undefined): FakeHost {
  return new FakeHost((argv) => {
    if (argv[0] === 'pidof') return { stdout: '16066 16100\n' };
    if (argv[0] === 'ps' && argv.includes('-p')) return { stdout: '16066 Tsl - dockerd\n16100 Ssl - containerd\n' };
    if (argv[0] === 'ps' && argv.includes('kubelet')) return { stdout: KUBELET_ARGS };
    return replies(argv);
  });
}

describe('runNodeProbes on a docker node', () => {
  it('runs docker ps and docker info against the kubelet’s daemon, under sudo -n when asked', async () => {
    const h = host((argv) => {
      const docker = argv.indexOf('docker');
      if (docker < 0) return undefined;
      return argv[docker + 3] === 'ps' ? { stdout: `${ID}\n` } : { stdout: '20.10.24+dfsg1 overlay2 cgroupfs\n' };
    });
    const report = await runNodeProbes(h, { timeoutMs: 5_000, sudo: true });
    expect(report.docker).toMatchObject({
      endpoint: 'unix:///tmp/k122/run/docker/docker.sock',
      ps: { status: 'ok', value: { containers: 1 } },
      info: { status: 'ok', value: { serverVersion: '20.10.24+dfsg1', storageDriver: 'overlay2', cgroupDriver: 'cgroupfs' } },
    });
    const dockerCalls = h.calls.filter((c) => c.argv.includes('docker'));
    expect(dockerCalls).toHaveLength(2);
    for (const c of dockerCalls) {
      expect(c.argv.slice(0, 6)).toEqual(['sudo', '-n', '--', 'docker', '-H', 'unix:///tmp/k122/run/docker/docker.sock']);
      expect(c.options.timeoutMs).toBe(5_000);
    }
  });

  it('a hung daemon: both calls time out (their deadline is the evidence)', async () => {
    const report = await runNodeProbes(host((argv) => (argv[0] === 'docker' ? { timedOut: true } : undefined)), { timeoutMs: 5_000 });
    expect(report.docker?.ps.status).toBe('timeout');
    expect(report.docker?.info.status).toBe('timeout');
  });

  it('no dockerd running: no docker probes at all', async () => {
    const h = new FakeHost((argv) => (argv[0] === 'pidof' ? { stdout: '812\n' } : argv[0] === 'ps' && argv.includes('-p') ? { stdout: '812 Ssl - containerd\n' } : undefined));
    const report = await runNodeProbes(h, { timeoutMs: 5_000 });
    expect(report.docker).toBeUndefined();
    expect(h.calls.some((c) => c.argv.includes('docker'))).toBe(false);
  });
});
