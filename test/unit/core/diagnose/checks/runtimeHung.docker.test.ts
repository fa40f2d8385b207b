// Diagnose on a dockershim node: `docker ps` and `docker info` against the kubelet's daemon are the
// evidence the seeds gathered by hand. The node and its messages are those of the real kubelet 1.22.4 +
// Docker 20.10.24 (test/fixtures/k8s-1.22-fault).

import { describe, expect, it } from 'vitest';
import { RUNTIME_NOT_ANSWERING } from '../../../../../src/core/diagnose/checks/runtimeHung';
import { diagnose } from '../../../../../src/core/diagnose/runDiagnosis';
import type { DockerProbes } from '../../../../../src/core/node/nodeSnapshotTypes';
import { check, emptySnapshot, evidence, nodeObject, nodeSide, NOW, probes } from '../../../../support/diagnoseBuilders';

const ENDPOINT = 'unix:///tmp/k122/run/docker/docker.sock';
const NOT_READY_122 = nodeObject({
  ready: 'False',
  kubeletVersion: 'v1.22.4+k3s1',
  runtime: 'docker://20.10.24+dfsg1',
  message:
    '[container runtime is down, PLEG is not healthy: pleg was last seen active 3m57.082898342s ago; threshold is 3m0s]',
});
const READY_122 = nodeObject({ kubeletVersion: 'v1.22.4+k3s1', runtime: 'docker://20.10.24+dfsg1' });
const INFO = { serverVersion: '20.10.24+dfsg1', storageDriver: 'overlay2', cgroupDriver: 'cgroupfs' };
const dockerd = (stat: string) => ({ status: 'ok' as const, durationMs: 3, value: [{ pid: 16066, stat, state: stat.startsWith('T') ? ('stopped' as const) : ('sleeping' as const), wchan: undefined, comm: 'dockerd' }] });

function run(node: typeof READY_122, docker: DockerProbes, stat = 'Tsl') {
  const d = diagnose(evidence({ node, nodeSide: nodeSide(emptySnapshot(), probes({ runtimeProcesses: dockerd(stat), docker })) }), { now: NOW });
  return check(d, 'runtime-hung');
}

describe('runtime-hung with docker evidence', () => {
  it('a hung dockerd: docker ps and docker info wait out their deadline; named with the daemon and its state', () => {
    const c = run(NOT_READY_122, { endpoint: ENDPOINT, ps: { status: 'timeout', durationMs: 5_000 }, info: { status: 'timeout', durationMs: 5_000 } });
    expect(c.finding?.title).toBe(RUNTIME_NOT_ANSWERING);
    const text = c.finding?.evidence.map((e) => e.text) ?? [];
    expect(text).toContain(`\`docker ps\` against ${ENDPOINT} did not answer within 5s: dockerd is not answering`);
    expect(text).toContain(`\`docker info\` against ${ENDPOINT} did not answer within 5s`);
    expect(text.join('\n')).toContain('`dockerd` (pid 16066) has state `Tsl`: stopped');
  });

  it('docker ps timing out is enough by itself (no CRI snapshot finding, dockerd not stopped)', () => {
    // A Ready message naming only PLEG: the runtime is not named anywhere but by docker ps.
    const plegOnly = nodeObject({ ready: 'False', kubeletVersion: 'v1.22.4+k3s1', runtime: 'docker://20.10.24+dfsg1' });
    const c = run(plegOnly, { endpoint: ENDPOINT, ps: { status: 'timeout', durationMs: 5_000 }, info: { status: 'ok', durationMs: 20, value: INFO } }, 'Ssl');
    expect(c.finding?.title).toBe(RUNTIME_NOT_ANSWERING);
    // docker info answered: its version and drivers are named beside the finding.
    expect(c.finding?.evidence.map((e) => e.text)).toContain('`docker info`: Docker 20.10.24+dfsg1, storage driver overlay2, cgroup driver cgroupfs (answered in 20 ms)');
  });

  it('a healthy docker node: answering docker calls are no finding', () => {
    const c = run(READY_122, { endpoint: ENDPOINT, ps: { status: 'ok', durationMs: 40, value: { containers: 6 } }, info: { status: 'ok', durationMs: 30, value: INFO } }, 'Ssl');
    expect(c.finding).toBeUndefined();
  });

  it('docker info naming a known-bad Docker (20.10.19) is the known-bad runtime', () => {
    const c = run(READY_122, { endpoint: ENDPOINT, ps: { status: 'ok', durationMs: 40, value: { containers: 6 } }, info: { status: 'ok', durationMs: 30, value: { ...INFO, serverVersion: '20.10.19' } } }, 'Ssl');
    expect(c.finding?.evidence.map((e) => e.text)).toContain('docker info reports Server Version `20.10.19`, a known-bad version');
  });
});

describe('docker-era causes that no output shows: version-driven, and they say so', () => {
  it('pre-1.14 relist deadlock (a Docker-era kubelet, PLEG unhealthy, no goroutine dump)', () => {
    const d = diagnose(evidence({ node: nodeObject({ ready: 'False', kubeletVersion: 'v1.12.6', runtime: 'docker://17.6.2' }) }), { now: NOW });
    expect(check(d, 'pleg-deadlock').finding?.summary).toContain('This finding is version-driven');
  });

  it('systemd 219 D-Bus cookie (CentOS 7 with docker, NotReady)', () => {
    const node = nodeObject({ ready: 'False', kubeletVersion: 'v1.22.1', runtime: 'docker://20.10.7', osImage: 'CentOS Linux 7 (Core)', kernel: '3.10.0-1160.el7.x86_64' });
    const d = diagnose(evidence({ node }), { now: NOW });
    expect(check(d, 'systemd-dbus').finding?.summary).toContain('This finding is version-driven');
  });
});
