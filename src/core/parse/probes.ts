// Parsers for the output of the fixed node probe commands (src/infra/ssh/command.ts). Pure: each takes the
// text a command printed and returns typed facts, or throws ProbeParseError naming what did not fit.

import { KubeletVersionError, parseKubeletVersion } from '../pleg/profiles';

export class ProbeParseError extends Error {
  constructor(probe: string, detail: string, text: string) {
    super(`${probe}: ${detail} in ${JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}…` : text)}`);
    this.name = 'ProbeParseError';
  }
}

/** `pidof containerd dockerd crio` → PIDs (pidof prints them space-separated; exit 1 and nothing = none). */
export function parsePidList(text: string): number[] {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  return trimmed.split(/\s+/).map((token) => {
    if (!/^\d+$/.test(token)) throw new ProbeParseError('pidof', `not a PID: ${JSON.stringify(token)}`, text);
    return Number(token);
  });
}

export type ProcessRunState = 'running' | 'sleeping' | 'uninterruptible' | 'stopped' | 'tracing-stop' | 'zombie' | 'dead' | 'idle' | 'other';

/** The first letter of ps STAT (procps): R S D T t Z X I. */
export function processRunState(stat: string): ProcessRunState {
  switch (stat.charAt(0)) {
    case 'R':
      return 'running';
    case 'S':
      return 'sleeping';
    case 'D':
      return 'uninterruptible';
    case 'T':
      return 'stopped';
    case 't':
      return 'tracing-stop';
    case 'Z':
      return 'zombie';
    case 'X':
      return 'dead';
    case 'I':
      return 'idle';
    default:
      return 'other';
  }
}

export interface ProcessStateRow {
  pid: number;
  stat: string;
  state: ProcessRunState;
  /** Kernel function the task sleeps in; undefined when ps prints `-` (running, or not available). */
  wchan: string | undefined;
  comm: string;
}

/** `ps -o pid=,stat=,wchan=,comm= -p <pids>`: no header, one process per line. */
export function parseProcessStates(text: string): ProcessStateRow[] {
  const rows: ProcessStateRow[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const match = /^\s*(\d+)\s+(\S+)\s+(\S+)\s+(.+?)\s*$/.exec(line);
    if (match === null) throw new ProbeParseError('ps -o pid,stat,wchan,comm', 'unexpected line', line);
    const [, pid = '', stat = '', wchan = '', comm = ''] = match;
    rows.push({ pid: Number(pid), stat, state: processRunState(stat), wchan: wchan === '-' || wchan === '0' ? undefined : wchan, comm });
  }
  return rows;
}

/** `ps -eo stat,pid,wchan:32,comm`: header line, then every process; we keep those in D state. */
export function parseDStateProcesses(text: string): ProcessStateRow[] {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const header = lines.shift();
  if (header === undefined || !/^\s*STAT\s+PID\s+WCHAN\s+COMMAND\s*$/i.test(header)) {
    throw new ProbeParseError('ps -eo stat,pid,wchan,comm', 'missing STAT PID WCHAN COMMAND header', header ?? '');
  }
  const rows: ProcessStateRow[] = [];
  for (const line of lines) {
    const match = /^\s*(\S+)\s+(\d+)\s+(\S+)\s+(.+?)\s*$/.exec(line);
    if (match === null) throw new ProbeParseError('ps -eo stat,pid,wchan,comm', 'unexpected line', line);
    const [, stat = '', pid = '', wchan = '', comm = ''] = match;
    if (processRunState(stat) !== 'uninterruptible') continue;
    rows.push({ pid: Number(pid), stat, state: 'uninterruptible', wchan: wchan === '-' || wchan === '0' ? undefined : wchan, comm });
  }
  return rows;
}

export interface LoadAverage {
  load1: number;
  load5: number;
  load15: number;
  runnable: number;
  total: number;
}

/** `/proc/loadavg`: `0.52 0.58 0.59 2/1234 5678`. */
export function parseLoadAvg(text: string): LoadAverage {
  const match = /^\s*(\d+(?:\.\d+)?)\s+(\d+(?:\.\d+)?)\s+(\d+(?:\.\d+)?)\s+(\d+)\/(\d+)\s+\d+\s*$/.exec(text);
  if (match === null) throw new ProbeParseError('/proc/loadavg', 'unexpected format', text);
  const [, l1 = '', l5 = '', l15 = '', runnable = '', total = ''] = match;
  return { load1: Number(l1), load5: Number(l5), load15: Number(l15), runnable: Number(runnable), total: Number(total) };
}

/** `nproc`. */
export function parseNproc(text: string): number {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed) || Number(trimmed) === 0) throw new ProbeParseError('nproc', 'not a positive CPU count', text);
  return Number(trimmed);
}

export interface LoadVerdict {
  /** load1 / CPUs. */
  perCpu1: number;
  perCpu5: number;
  /** Above one runnable-or-D task per CPU over 5 minutes: the node is saturated (root-cause #9). */
  overloaded: boolean;
}

export function judgeLoad(load: LoadAverage, cpus: number): LoadVerdict {
  const perCpu1 = load.load1 / cpus;
  const perCpu5 = load.load5 / cpus;
  return { perCpu1, perCpu5, overloaded: perCpu5 > 1 };
}

/** `/proc/uptime`: `12345.67 23456.78` → seconds since boot. */
export function parseUptime(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s+\d+(?:\.\d+)?\s*$/.exec(text);
  if (match?.[1] === undefined) throw new ProbeParseError('/proc/uptime', 'unexpected format', text);
  return Number(match[1]);
}

/** `uname -r`. */
export function parseKernelRelease(text: string): string {
  const trimmed = text.trim();
  if (trimmed === '' || /\s/.test(trimmed)) throw new ProbeParseError('uname -r', 'not a single release string', text);
  return trimmed;
}

/** `systemctl --version`: first line `systemd 252 (252.22-1~deb12u1)`. */
export function parseSystemdVersion(text: string): { version: number; full: string } {
  const match = /^systemd (\d+)(?: \(([^)]+)\))?/m.exec(text);
  if (match?.[1] === undefined) throw new ProbeParseError('systemctl --version', 'no "systemd N" line', text);
  return { version: Number(match[1]), full: match[2] ?? match[1] };
}

/** `kubelet --version`: `Kubernetes v1.32.3` → `v1.32.3`, a version parseKubeletVersion (pleg/profiles) reads. */
export function kubeletVersionFromOutput(text: string): string {
  const version = /^Kubernetes (v\d+\S*)/m.exec(text.trim())?.[1];
  if (version === undefined) throw new ProbeParseError('kubelet --version', 'no "Kubernetes vX.Y.Z"', text);
  try {
    parseKubeletVersion(version);
  } catch (e) {
    if (e instanceof KubeletVersionError) throw new ProbeParseError('kubelet --version', e.message, text);
    throw e;
  }
  return version;
}

/** `containerd --version`: `containerd containerd.io 1.7.27 05044ec…` or Debian's `containerd github.com/containerd/containerd 1.6.20~ds1`. */
export function parseContainerdVersion(text: string): { version: string; revision?: string } {
  const match = /^containerd\s+\S+\s+(v?\d+\.\d+\.\d+\S*)(?:\s+(\S+))?/m.exec(text.trim());
  if (match?.[1] === undefined) throw new ProbeParseError('containerd --version', 'no version', text);
  return match[2] !== undefined ? { version: match[1], revision: match[2] } : { version: match[1] };
}

/** `docker ps --quiet --no-trunc`: one 64-hex container id a line → how many containers run. */
export function parseDockerPsIds(text: string): number {
  const ids = text.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  const bad = ids.find((id) => !/^[0-9a-f]{64}$/u.test(id));
  if (bad !== undefined) throw new ProbeParseError('docker ps', `not a container id: ${JSON.stringify(bad)}`, text);
  return ids.length;
}

export interface DockerInfo {
  serverVersion: string;
  storageDriver: string;
  cgroupDriver: string;
}

/** `docker info --format '{{.ServerVersion}} {{.Driver}} {{.CgroupDriver}}'` (src/infra/ssh/command.ts). */
export function parseDockerInfo(text: string): DockerInfo {
  const fields = text.trim().split(/\s+/u);
  const [serverVersion, storageDriver, cgroupDriver] = fields;
  if (fields.length !== 3 || serverVersion === undefined || storageDriver === undefined || cgroupDriver === undefined || !/^\d+\.\d+/u.test(serverVersion)) {
    throw new ProbeParseError('docker info', 'expected "VERSION STORAGE-DRIVER CGROUP-DRIVER"', text);
  }
  return { serverVersion, storageDriver, cgroupDriver };
}
