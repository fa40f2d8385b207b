// Inputs are real outputs of the probe commands (procps-ng 4, coreutils 9, systemd 252, Debian containerd).
import { describe, expect, it } from 'vitest';
import {
  judgeLoad,
  parseContainerdVersion,
  parseDStateProcesses,
  parseKernelRelease,
  kubeletVersionFromOutput,
  parseLoadAvg,
  parseNproc,
  parsePidList,
  parseProcessStates,
  parseSystemdVersion,
  parseUptime,
  ProbeParseError,
  processRunState,
} from '../../../../src/core/parse/probes';

describe('process probes', () => {
  it('parses pidof output, empty when nothing runs', () => {
    expect(parsePidList('20325 811\n')).toEqual([20325, 811]);
    expect(parsePidList('')).toEqual([]);
    expect(() => parsePidList('12 abc')).toThrow(ProbeParseError);
  });

  it('reads a stopped runtime (T) and a normal one from ps -o pid=,stat=,wchan=,comm=', () => {
    const rows = parseProcessStates('  20325 Tl   do_signal_stop containerd\n14809 S    poll_s sshd\n  311 Rl   -      dockerd\n');
    expect(rows).toEqual([
      { pid: 20325, stat: 'Tl', state: 'stopped', wchan: 'do_signal_stop', comm: 'containerd' },
      { pid: 14809, stat: 'S', state: 'sleeping', wchan: 'poll_s', comm: 'sshd' },
      { pid: 311, stat: 'Rl', state: 'running', wchan: undefined, comm: 'dockerd' },
    ]);
    expect(() => parseProcessStates('garbage\n')).toThrow(/unexpected line/);
  });

  it('keeps only D-state tasks from ps -eo stat,pid,wchan:32,comm, with their wait channel', () => {
    const text = [
      'STAT   PID WCHAN                            COMMAND',
      'S<Ll     1 -                                process_api',
      'D     4242 xfs_inode_free_wait              runc:[2:INIT]',
      'D+    4300 rpc_wait_bit_killable            stat',
      'S        2 kthreadd                         kthreadd',
      'I        9 -                                kworker/0:1-events',
      '',
    ].join('\n');
    expect(parseDStateProcesses(text)).toEqual([
      { pid: 4242, stat: 'D', state: 'uninterruptible', wchan: 'xfs_inode_free_wait', comm: 'runc:[2:INIT]' },
      { pid: 4300, stat: 'D+', state: 'uninterruptible', wchan: 'rpc_wait_bit_killable', comm: 'stat' },
    ]);
    expect(() => parseDStateProcesses('4242 D x y\n')).toThrow(/header/);
  });

  it('maps every procps state letter', () => {
    expect(['R', 'S', 'D', 'T', 't', 'Z', 'X', 'I', 'W'].map(processRunState)).toEqual([
      'running',
      'sleeping',
      'uninterruptible',
      'stopped',
      'tracing-stop',
      'zombie',
      'dead',
      'idle',
      'other',
    ]);
  });
});

describe('load, CPUs, uptime', () => {
  it('parses /proc/loadavg and judges it against nproc', () => {
    const load = parseLoadAvg('4.07 2.99 1.56 12/409 27217\n');
    expect(load).toEqual({ load1: 4.07, load5: 2.99, load15: 1.56, runnable: 12, total: 409 });
    expect(judgeLoad(load, parseNproc('2\n'))).toEqual({ perCpu1: 2.035, perCpu5: 1.495, overloaded: true });
    expect(judgeLoad(load, 8).overloaded).toBe(false);
    expect(() => parseLoadAvg('4.07 2.99\n')).toThrow(/loadavg/);
    expect(() => parseNproc('0')).toThrow(/positive/);
  });

  it('parses /proc/uptime', () => {
    expect(parseUptime('1374.25 1773.32\n')).toBe(1374.25);
    expect(() => parseUptime('up 3 days')).toThrow(ProbeParseError);
  });
});

describe('versions', () => {
  it('reads the kernel release', () => {
    expect(parseKernelRelease('5.4.0-132-generic\n')).toBe('5.4.0-132-generic');
    expect(() => parseKernelRelease('\n')).toThrow(ProbeParseError);
  });

  it('reads the systemd version from the first line', () => {
    expect(parseSystemdVersion('systemd 252 (252.38-1~deb12u1)\n+PAM +AUDIT +SELINUX\n')).toEqual({ version: 252, full: '252.38-1~deb12u1' });
    expect(parseSystemdVersion('systemd 219\n+PAM +AUDIT\n')).toEqual({ version: 219, full: '219' });
    expect(() => parseSystemdVersion('bash: systemctl: command not found')).toThrow(ProbeParseError);
  });

  it('reads kubelet and containerd versions', () => {
    expect(kubeletVersionFromOutput('Kubernetes v1.32.3\n')).toBe('v1.32.3');
    expect(kubeletVersionFromOutput('Kubernetes v1.29.6+k3s1\n')).toBe('v1.29.6+k3s1');
    expect(() => kubeletVersionFromOutput('Kubernetes v2.0.0\n')).toThrow(/not a kubelet version/u);
    expect(parseContainerdVersion('containerd github.com/containerd/containerd 1.6.20~ds1 1.6.20~ds1-1+deb12u3\n')).toEqual({
      version: '1.6.20~ds1',
      revision: '1.6.20~ds1-1+deb12u3',
    });
    expect(parseContainerdVersion('containerd containerd.io v1.7.27 05044ec0a9a75232cad458027ca83437aae3f4da\n').version).toBe('v1.7.27');
    expect(() => kubeletVersionFromOutput('kubelet: command not found')).toThrow(ProbeParseError);
  });
});
