// Read-only node probes over exec: fixed argv from the probe allow-list, each with its own deadline and
// output cap, run in parallel on the one connection. A probe that times out is reported as such (a hung
// `ps` or `containerd --version` is itself evidence); an absent optional tool (kubelet, systemctl) is
// reported as absent, not as a failure.

import {
  judgeLoad,
  parseContainerdVersion,
  parseDockerInfo,
  parseDockerPsIds,
  parseDStateProcesses,
  parseKernelRelease,
  kubeletVersionFromOutput,
  parseLoadAvg,
  parseNproc,
  parsePidList,
  parseProcessStates,
  parseSystemdVersion,
  parseUptime,
  type ProcessStateRow,
} from '../../core/parse/probes';
import type { DockerProbes, NodeProbeReport, ProbeOutcome } from '../../core/node/nodeSnapshotTypes';
import { kubeletDockerEndpoint } from '../cri/endpoints';
import type { ExecResult, RemoteHost } from '../remote';
import { probeCommands } from '../ssh/command';
import { errorText } from '../../core/util/errorText';

export type { NodeProbeReport, ProbeOutcome } from '../../core/node/nodeSnapshotTypes';

export interface NodeProbeOptions {
  /** Per probe. */
  timeoutMs?: number;
  maxOutputBytes?: number;
  signal?: AbortSignal;
  /** Run the docker CLI under `sudo -n --` (the node access `sudo` setting): docker.sock is root's. */
  sudo?: boolean;
}

const notFound = 127;

async function probe<T>(
  host: RemoteHost,
  argv: string[],
  options: NodeProbeOptions,
  parse: (result: ExecResult) => T,
  optional = false,
): Promise<ProbeOutcome<T>> {
  const started = performance.now();
  const elapsed = (): number => performance.now() - started;
  try {
    const result = await host.exec(argv, {
      timeoutMs: options.timeoutMs ?? 5_000,
      maxOutputBytes: options.maxOutputBytes ?? 256 * 1024,
      ...(options.signal !== undefined ? { signal: options.signal } : {}),
    });
    if (result.timedOut) return { status: 'timeout', durationMs: result.durationMs };
    if (optional && result.exitCode === notFound) return { status: 'absent', durationMs: result.durationMs };
    return { status: 'ok', value: parse(result), durationMs: result.durationMs };
  } catch (error) {
    if (options.signal?.aborted === true) throw error;
    return { status: 'failed', error: errorText(error), durationMs: elapsed() };
  }
}

function succeeded(result: ExecResult, argv0: string): string {
  if (result.exitCode !== 0) {
    throw new Error(`${argv0} exited ${String(result.exitCode ?? result.signal)}: ${result.stderr.trim().slice(0, 300)}`);
  }
  return result.stdout;
}

async function runtimeProcesses(host: RemoteHost, options: NodeProbeOptions): Promise<ProbeOutcome<ProcessStateRow[]>> {
  const pidof = await probe(host, probeCommands.pidofRuntime(), options, (r) => {
    // pidof exits 1 when no listed daemon runs.
    if (r.exitCode !== 0 && r.exitCode !== 1) succeeded(r, 'pidof');
    return parsePidList(r.stdout);
  });
  if (pidof.status !== 'ok') return pidof;
  if (pidof.value.length === 0) return { status: 'ok', value: [], durationMs: pidof.durationMs };
  const states = await probe(host, probeCommands.processState(pidof.value), options, (r) => parseProcessStates(succeeded(r, 'ps')));
  return { ...states, durationMs: pidof.durationMs + states.durationMs };
}

async function load(host: RemoteHost, options: NodeProbeOptions): Promise<NodeProbeReport['load']> {
  const [loadavg, cpus] = await Promise.all([
    probe(host, probeCommands.loadavg(), options, (r) => parseLoadAvg(succeeded(r, 'cat /proc/loadavg'))),
    probe(host, probeCommands.nproc(), options, (r) => parseNproc(succeeded(r, 'nproc'))),
  ]);
  if (loadavg.status !== 'ok') return loadavg;
  if (cpus.status !== 'ok') return cpus;
  return {
    status: 'ok',
    value: { loadavg: loadavg.value, cpus: cpus.value, verdict: judgeLoad(loadavg.value, cpus.value) },
    durationMs: Math.max(loadavg.durationMs, cpus.durationMs),
  };
}

/**
 * On a node where dockerd runs: `docker ps` and `docker info` against the daemon the kubelet uses, in
 * parallel, each with the probe deadline. Undefined when no dockerd runs (or the process list failed).
 */
async function dockerProbes(host: RemoteHost, processes: Promise<ProbeOutcome<ProcessStateRow[]>>, options: NodeProbeOptions): Promise<DockerProbes | undefined> {
  const rows = await processes;
  if (rows.status !== 'ok' || !rows.value.some((p) => p.comm === 'dockerd')) return undefined;
  const args = await probe(host, probeCommands.kubeletArgs(), options, (r) => (r.exitCode === 0 ? r.stdout : ''));
  const endpoint = kubeletDockerEndpoint(args.status === 'ok' ? args.value : '');
  const sudo = (argv: string[]): string[] => (options.sudo === true ? ['sudo', '-n', '--', ...argv] : argv);
  let ps: string[];
  let info: string[];
  try {
    ps = sudo(probeCommands.dockerPs(endpoint));
    info = sudo(probeCommands.dockerInfo(endpoint));
  } catch (error) {
    const failed = { status: 'failed' as const, error: errorText(error), durationMs: 0 };
    return { endpoint, ps: failed, info: failed };
  }
  const [psOut, infoOut] = await Promise.all([
    probe(host, ps, options, (r) => ({ containers: parseDockerPsIds(succeeded(r, 'docker ps')) }), true),
    probe(host, info, options, (r) => parseDockerInfo(succeeded(r, 'docker info')), true),
  ]);
  return { endpoint, ps: psOut, info: infoOut };
}

export async function runNodeProbes(host: RemoteHost, options: NodeProbeOptions = {}): Promise<NodeProbeReport> {
  const processes = runtimeProcesses(host, options);
  const [runtime, loadResult, dState, systemd, uptime, kernel, kubelet, containerd, docker] = await Promise.all([
    processes,
    load(host, options),
    probe(host, probeCommands.dStateProcesses(), options, (r) => parseDStateProcesses(succeeded(r, 'ps'))),
    probe(host, probeCommands.systemdVersion(), options, (r) => parseSystemdVersion(succeeded(r, 'systemctl')), true),
    probe(host, probeCommands.uptime(), options, (r) => parseUptime(succeeded(r, 'cat /proc/uptime'))),
    probe(host, probeCommands.kernelRelease(), options, (r) => parseKernelRelease(succeeded(r, 'uname'))),
    probe(host, probeCommands.kubeletVersion(), options, (r) => kubeletVersionFromOutput(succeeded(r, 'kubelet')), true),
    probe(host, probeCommands.containerdVersion(), options, (r) => parseContainerdVersion(succeeded(r, 'containerd')), true),
    dockerProbes(host, processes, options),
  ]);
  return {
    host: host.description,
    runtimeProcesses: runtime,
    load: loadResult,
    dStateProcesses: dState,
    systemd,
    uptimeSeconds: uptime,
    kernel,
    kubeletVersion: kubelet,
    containerdVersion: containerd,
    ...(docker !== undefined ? { docker } : {}),
  };
}
