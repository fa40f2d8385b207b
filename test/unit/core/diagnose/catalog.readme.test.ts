// The README's check table ("Diagnose a node") against the catalog: every check, in report order, with
// the cause and tier the code gives it, and what it reads, its thresholds and its source filled in. Then
// the thresholds the table states that causeChecks.test.ts does not already hold at their edges.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHECK_CATALOG } from '../../../../src/core/diagnose/catalog';
import { diagnose } from '../../../../src/core/diagnose/runDiagnosis';
import { CHECK_TAXONOMY } from '../../../../src/core/diagnose/verdicts';
import { NOW, check, configz, emptySnapshot, evidence, healthyMetrics, nodeObject, nodeSide, ok, op, probes, repeat, scrapes } from '../../../support/diagnoseBuilders';

const readme = readFileSync(new URL('../../../../README.md', import.meta.url), 'utf8');

/** The rows of the check table in the README's "Diagnose a node" section, cells trimmed. */
function checkTable(): string[][] {
  const start = readme.indexOf('\n### Diagnose a node\n');
  const end = readme.indexOf('\n#### ', start);
  expect(start).toBeGreaterThan(0);
  const section = readme.slice(start, end);
  const header = section.indexOf('| Check | Cause (§6 row) | Tier | Reads | Thresholds | Source |');
  expect(header).toBeGreaterThan(0);
  return section
    .slice(header)
    .split('\n')
    .slice(2)
    .filter((line) => line.startsWith('| `'))
    .map((line) => line.slice(1, -1).split(' | ').map((cell) => cell.trim()));
}

describe('README check table', () => {
  const rows = checkTable();

  it('lists every check of the catalog once, in report order', () => {
    expect(rows.map((r) => r[0])).toEqual(CHECK_CATALOG.map((c) => `\`${c.id}\``));
  });

  it('gives each check the cause and tier of the code, and fills in what it reads, its thresholds and its source', () => {
    for (const [id, cause, tier, reads, thresholds, source] of rows) {
      const taxonomy = CHECK_TAXONOMY[(id ?? '').replaceAll('`', '')];
      expect(taxonomy, id).toBeDefined();
      expect(cause?.startsWith(`\`${taxonomy?.cause}\``), `${id}: ${cause}`).toBe(true);
      expect(tier, id).toBe(taxonomy?.tier);
      expect(reads?.length ?? 0, `${id} reads`).toBeGreaterThan(10);
      expect(thresholds?.length ?? 0, `${id} thresholds`).toBeGreaterThan(10);
      // A public source: an upstream issue or PR, or a named file of a project.
      expect(source ?? '', `${id} source`).toMatch(/#\d+|PR #\d+|`[^`]+\.(go|md)`/u);
    }
  });

  it('points at a report screenshot that exists', () => {
    const shot = /!\[[^\]]*report[^\]]*\]\((media\/screenshots\/[^)]+\.png)\)/u.exec(readme.slice(readme.indexOf('### Diagnose a node')));
    expect(shot).not.toBeNull();
    const png = readFileSync(new URL(`../../../../${shot?.[1] ?? ''}`, import.meta.url));
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
  });
});

const run = (e: Parameters<typeof diagnose>[0]) => diagnose(e, { now: NOW });
const NOT_READY = nodeObject({ ready: 'False' });

describe('README thresholds at their edges', () => {
  it('runtime-hung: List calls slower than 1 s between the scrapes warn, and fail when PLEG is unhealthy; faster ones do not', () => {
    const listing = (extra: number[]) => {
      const earlier = healthyMetrics();
      const before = earlier.runtimeOperations['list_podsandbox'];
      const samples = [...repeat(0.002, before?.total ?? 0), ...extra];
      return scrapes(earlier, healthyMetrics({ runtimeOperations: { ...earlier.runtimeOperations, list_podsandbox: op(samples) } }));
    };
    const slow = check(run(evidence(listing(repeat(1.5, 20)))), 'runtime-hung');
    expect(slow.status).toBe('found');
    expect(slow.finding?.severity).toBe('warning');
    expect(check(run(evidence({ node: NOT_READY, ...listing(repeat(1.5, 20)) })), 'runtime-hung').finding?.severity).toBe('problem');
    // 0.4 s calls: the interpolated p99 stays inside the bucket below 0.49 s.
    expect(check(run(evidence(listing(repeat(0.4, 20)))), 'runtime-hung').status).toBe('clear');
  });

  it('event-storm: 20 status calls a second between the scrapes is churn; 19.8 is not', () => {
    const churn = (calls: number) => {
      const earlier = healthyMetrics();
      const before = earlier.runtimeOperations['podsandbox_status'];
      const later = healthyMetrics({ runtimeOperations: { ...earlier.runtimeOperations, podsandbox_status: op(repeat(0.002, (before?.total ?? 0) + calls)) } });
      return check(run(evidence(scrapes(earlier, later))), 'event-storm');
    };
    expect(churn(100).status).toBe('found'); // 100 calls in 5 s
    expect(churn(99).status).toBe('clear');
  });

  it('hung-mount: Ceph, CIFS, SMB and FUSE wait channels count like NFS and RPC', () => {
    for (const wchan of ['ceph_mdsc_do_request', 'cifs_call_async', 'smb2_reconnect', 'fuse_wait_answer', 'nfs_wait_on_request', 'rpc_wait_bit_killable']) {
      const p = probes({ dStateProcesses: { status: 'ok', durationMs: 3, value: [{ pid: 4242, stat: 'D', state: 'uninterruptible' as const, wchan, comm: 'du' }] } });
      expect(check(run(evidence({ nodeSide: nodeSide(emptySnapshot(), p) })), 'hung-mount').status, wchan).toBe('found');
    }
  });

  it('systemd-dbus: 3 Ready transitions are a sign on old systemd with the systemd driver; 2 are not', () => {
    const flaps = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ reason: i % 2 === 0 ? 'NodeNotReady' : 'NodeReady', lastTimestamp: `2026-11-22T09:${String(20 + 7 * i).padStart(2, '0')}:00Z` }));
    const centos7 = nodeObject({ osImage: 'CentOS Linux 7 (Core)', kernel: '3.10.0-1160.el7.x86_64' });
    expect(check(run(evidence({ node: centos7, configz: ok(configz()), events: ok(flaps(3)) })), 'systemd-dbus').status).toBe('found');
    expect(check(run(evidence({ node: centos7, configz: ok(configz()), events: ok(flaps(2)) })), 'systemd-dbus').status).toBe('clear');
  });

  it('evented-pleg: with the gate on, containerd 1.7 is new enough; 1.6 is not', () => {
    const gateOn = ok(configz({ featureGates: { EventedPLEG: true } }));
    expect(check(run(evidence({ node: nodeObject({ runtime: 'containerd://1.7.0' }), configz: gateOn })), 'evented-pleg').status).toBe('clear');
    expect(check(run(evidence({ node: nodeObject({ runtime: 'containerd://1.6.36' }), configz: gateOn })), 'evented-pleg').status).toBe('found');
  });
});
