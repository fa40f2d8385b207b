// crictl JSON recorded from a real containerd 1.6 (test/fixtures/crictl-containerd-1.6) parses into the
// normalized CRI types; the table renderings of the same state are an independent cross-check.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CriJsonError,
  parseContainersList,
  parseContainerStatus,
  parseCrictlVersion,
  parseJsonText,
  parsePodSandboxStatus,
  parsePodsList,
  parseRuntimeStatus,
  parseStatsList,
  timestampToNs,
} from '../../../../src/core/parse/criJson';
import { nsToMs } from '../../../../src/core/parse/criTypes';

const DIR = path.resolve(__dirname, '../../../fixtures/crictl-containerd-1.6');
const text = (name: string): string => fs.readFileSync(path.join(DIR, name), 'utf8');
const json = (name: string): unknown => parseJsonText(text(name), name);

/** Rows of a crictl table: columns are separated by runs of 2+ spaces. */
function tableRows(name: string): string[][] {
  return text(name)
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s{2,}/));
}

describe('crictl fixtures', () => {
  it('covers every recorded file', () => {
    expect(fs.readdirSync(DIR).sort()).toEqual(
      ['README.md', 'info.json', 'inspect-exited.json', 'inspect-running.json', 'inspectp-ready.json', 'pods.json', 'pods.table.txt', 'ps-a.json', 'ps-a.table.txt', 'stats.json', 'version.txt'].sort(),
    );
  });

  it('version.txt', () => {
    expect(parseCrictlVersion(text('version.txt'))).toEqual({ version: '0.1.0', runtimeName: 'containerd', runtimeVersion: '1.6.20~ds1', runtimeApiVersion: 'v1' });
  });

  it('pods.json matches pods.table.txt', () => {
    const pods = parsePodsList(json('pods.json'));
    expect(pods).toHaveLength(5);
    expect(pods[0]).toEqual({
      id: 'cecb95169a2cf82b6e33d755aec669ba472697c5fc218becf8d135e5d03bc749',
      metadata: { name: 'pleg-pod-4', uid: 'uid-4', namespace: 'plegtest', attempt: 0 },
      state: 'SANDBOX_READY',
      createdAtNs: '1795313110012392108',
      labels: { app: 'pleg-test', 'io.kubernetes.pod.name': 'pleg-pod-4' },
      annotations: {},
      runtimeHandler: '',
    });
    const table = tableRows('pods.table.txt');
    expect(pods.map((p) => [p.id.slice(0, 13), p.state === 'SANDBOX_READY' ? 'Ready' : 'NotReady', p.metadata.name, p.metadata.namespace, String(p.metadata.attempt)])).toEqual(
      table.map((row) => [row[0], row[2], row[3], row[4], row[5]]),
    );
  });

  it('ps-a.json matches ps-a.table.txt, including the exited container', () => {
    const containers = parseContainersList(json('ps-a.json'));
    expect(containers).toHaveLength(4);
    const table = tableRows('ps-a.table.txt');
    const shortState = { CONTAINER_RUNNING: 'Running', CONTAINER_EXITED: 'Exited', CONTAINER_CREATED: 'Created', CONTAINER_UNKNOWN: 'Unknown' } as const;
    expect(containers.map((c) => [c.id.slice(0, 13), c.image, shortState[c.state], c.metadata.name, String(c.metadata.attempt), c.podSandboxId.slice(0, 13)])).toEqual(
      table.map((row) => [row[0], row[1], row[3], row[4], row[5], row[6]]),
    );
    expect(containers[0]).toMatchObject({ state: 'CONTAINER_EXITED', createdAtNs: '1795313110067460407', imageRef: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) as unknown as string });
  });

  it('inspect-exited.json: RFC 3339 timestamps become the same nanoseconds as in ps -a', () => {
    const status = parseContainerStatus(json('inspect-exited.json'));
    const listed = parseContainersList(json('ps-a.json')).find((c) => c.id === status.id);
    expect(status.createdAtNs).toBe(listed?.createdAtNs);
    expect(status).toMatchObject({
      state: 'CONTAINER_EXITED',
      exitCode: 137,
      reason: 'Error',
      startedAtNs: '1795313110114503584',
      finishedAtNs: '1795313116695834492',
      logPath: '/var/lib/plegtest/podlogs/plegtest_pleg-pod-4_uid-4/sleeper_0.log',
    });
    expect(status.info['sandboxID']).toBe('cecb95169a2cf82b6e33d755aec669ba472697c5fc218becf8d135e5d03bc749');
    expect(status.info['pid']).toBe(0);
  });

  it("inspect-running.json: Go's zero time means not finished", () => {
    const status = parseContainerStatus(json('inspect-running.json'));
    expect(status).toMatchObject({ state: 'CONTAINER_RUNNING', finishedAtNs: '0', exitCode: 0, startedAtNs: '1795313110006614766' });
    expect(typeof status.info['pid']).toBe('number');
  });

  it('inspectp-ready.json', () => {
    const status = parsePodSandboxStatus(json('inspectp-ready.json'));
    expect(status).toMatchObject({
      id: 'cecb95169a2cf82b6e33d755aec669ba472697c5fc218becf8d135e5d03bc749',
      state: 'SANDBOX_READY',
      createdAtNs: '1795313110012392108',
      ip: '',
      additionalIps: [],
      namespaceOptions: { network: 'NODE', pid: 'CONTAINER', ipc: 'POD' },
    });
    expect(status.info['processStatus']).toBe('running');
    expect(status.info['pid']).toBe(24210);
  });

  it('stats.json', () => {
    const stats = parseStatsList(json('stats.json'));
    expect(stats).toHaveLength(4);
    expect(stats.find((s) => s.id.startsWith('17127edc5456'))).toEqual({
      id: '17127edc545625a44debe0b386cb8e918dbfb73e38720e60314cc6b2ea85bfa8',
      name: 'sleeper',
      timestampNs: '1795313116844190196',
      cpuUsageCoreNanoSeconds: '13065449',
      memoryWorkingSetBytes: '217088',
    });
  });

  it('info.json: conditions, and the other top-level keys kept as info', () => {
    const status = parseRuntimeStatus(json('info.json'));
    expect(status.conditions).toEqual([
      { type: 'RuntimeReady', status: true, reason: '', message: '' },
      { type: 'NetworkReady', status: true, reason: '', message: '' },
    ]);
    expect(Object.keys(status.info).sort()).toEqual(['cniconfig', 'config', 'golang', 'lastCNILoadStatus', 'lastCNILoadStatus.default']);
  });
});

describe('malformed input names the field at fault', () => {
  it('rejects a wrong state', () => {
    expect(() => parsePodsList({ items: [{ id: 'x', state: 'SANDBOX_SLEEPY' }] })).toThrow(/pods\.items\[0\]\.state: unknown value the string "SANDBOX_SLEEPY"/);
  });
  it('rejects a missing id', () => {
    expect(() => parseContainersList({ containers: [{ podSandboxId: 'p' }] })).toThrow(CriJsonError);
    expect(() => parseContainersList({ containers: [{ podSandboxId: 'p' }] })).toThrow(/ps\.containers\[0\]\.id: expected a string, got undefined/);
  });
  it('rejects non-JSON output with the command and a snippet', () => {
    expect(() => parseJsonText('FATA[0002] validate service connection', 'crictl pods -o json')).toThrow(/crictl pods -o json: output is not JSON .*FATA\[0002\]/);
  });
  it('rejects a bad timestamp', () => {
    expect(() => timestampToNs('yesterday', 'x.createdAt')).toThrow(/x\.createdAt: not a timestamp: "yesterday"/);
  });
});

describe('timestamps', () => {
  it('keeps nanosecond precision beyond 2^53', () => {
    expect(timestampToNs('1795313110012392108', 't')).toBe('1795313110012392108');
    expect(timestampToNs('2026-11-22T02:05:10.012392108Z', 't')).toBe('1795313110012392108');
    expect(timestampToNs('2026-11-22T03:05:10.5+01:00', 't')).toBe('1795313110500000000');
    expect(timestampToNs('0001-01-01T00:00:00Z', 't')).toBe('0');
    expect(nsToMs('1795313110012392108')).toBe(1795313110012);
  });
});
