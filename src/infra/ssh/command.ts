// The fixed set of read-only commands node probes may run. Callers pick a probe by name; arguments that
// vary (a PID, a socket path) are validated here before they reach the command builder, so no probe
// can be turned into anything but the command listed.

import { UnsafeArgumentError } from './shellQuote';

export type ProbeCommandName =
  | 'pidofRuntime'
  | 'processState'
  | 'loadavg'
  | 'nproc'
  | 'dStateProcesses'
  | 'systemdVersion'
  | 'uptime'
  | 'kernelRelease'
  | 'kubeletVersion'
  | 'containerdVersion'
  | 'socketExists'
  | 'socketListing'
  | 'kubeletArgs'
  | 'dockerPs'
  | 'dockerInfo';

/** Runtime daemons whose process state tells a frozen runtime from a busy one. */
export const runtimeDaemons = ['containerd', 'dockerd', 'crio'] as const;

function pidArg(pid: number): string {
  if (!Number.isSafeInteger(pid) || pid <= 0) {
    throw new UnsafeArgumentError(`not a process id: ${String(pid)}`);
  }
  return String(pid);
}

function absolutePathArg(path: string): string {
  if (!path.startsWith('/')) {
    throw new UnsafeArgumentError(`socket path must be absolute: ${JSON.stringify(path)}`);
  }
  return path;
}

/** A docker daemon endpoint: unix:// and an absolute path (docker's -H takes nothing else from us). */
function dockerHostArg(endpoint: string): string {
  const path = /^unix:\/\/(\/[^\s]*)$/u.exec(endpoint)?.[1];
  if (path === undefined || path.includes('/../')) {
    throw new UnsafeArgumentError(`docker endpoint must be unix:// and an absolute path: ${JSON.stringify(endpoint)}`);
  }
  return `unix://${path}`;
}

/** What `docker info` is asked for: the version and drivers the seeds read by hand, one line. */
export const DOCKER_INFO_FORMAT = '{{.ServerVersion}} {{.Driver}} {{.CgroupDriver}}';

export const probeCommands = {
  // pidof exits 1 when none of them runs; that is an answer, not an error.
  pidofRuntime: (): string[] => ['pidof', ...runtimeDaemons],
  processState: (pids: readonly number[]): string[] => [
    'ps',
    '-o',
    'pid=,stat=,wchan=,comm=',
    '-p',
    pids.map(pidArg).join(','),
  ],
  loadavg: (): string[] => ['cat', '/proc/loadavg'],
  nproc: (): string[] => ['nproc'],
  dStateProcesses: (): string[] => ['ps', '-eo', 'stat,pid,wchan:32,comm'],
  systemdVersion: (): string[] => ['systemctl', '--version'],
  uptime: (): string[] => ['cat', '/proc/uptime'],
  kernelRelease: (): string[] => ['uname', '-r'],
  kubeletVersion: (): string[] => ['kubelet', '--version'],
  containerdVersion: (): string[] => ['containerd', '--version'],
  socketExists: (path: string): string[] => ['test', '-S', absolutePathArg(path)],
  socketListing: (path: string): string[] => ['ls', '-l', absolutePathArg(path)],
  kubeletArgs: (): string[] => ['ps', '-o', 'args=', '-C', 'kubelet'],
  // The two calls the seeds time by hand on a docker node: both wait on dockerd, so a hung daemon shows
  // as their deadline. -H names the daemon the kubelet uses (a dockershim kubelet's --docker-endpoint).
  dockerPs: (endpoint: string): string[] => ['docker', '-H', dockerHostArg(endpoint), 'ps', '--quiet', '--no-trunc'],
  dockerInfo: (endpoint: string): string[] => ['docker', '-H', dockerHostArg(endpoint), 'info', '--format', DOCKER_INFO_FORMAT],
} satisfies Record<ProbeCommandName, (...args: never[]) => string[]>;
