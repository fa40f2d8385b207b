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
  | 'socketListing';

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
} satisfies Record<ProbeCommandName, (...args: never[]) => string[]>;
