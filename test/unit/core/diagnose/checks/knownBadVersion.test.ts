// The known-bad-version check against each entry of docs/root-causes.md's list (src/core/diagnose/knownVersions.ts),
// each from the API tier (nodeInfo) and, where the node side reports it, from the probes; plus a clean node.

import { describe, expect, it } from 'vitest';
import { diagnose } from '../../../../../src/core/diagnose/runDiagnosis';
import { summarizeCheck } from '../../../../../src/core/diagnose/verdicts';
import { NOW, check, configz, emptySnapshot, evidence, nodeObject, nodeSide, ok, probes } from '../../../../support/diagnoseBuilders';

const run = (e: Parameters<typeof diagnose>[0]) => check(diagnose(e, { now: NOW }), 'known-bad-version');
const CLEAN = { runtime: 'containerd://1.7.22', kubeletVersion: 'v1.32.0', kernel: '6.8.0-45-generic', osImage: 'Ubuntu 24.04.1 LTS' };
const systemd = (version: number) => probes({ systemd: { status: 'ok', durationMs: 3, value: { version, full: `systemd ${version} (${version}-1)` } } });

describe('known-bad-version', () => {
  it('a clean node: ok, naming what it read', () => {
    const c = run(evidence({ node: nodeObject(CLEAN), configz: ok(configz()), nodeSide: nodeSide(emptySnapshot(), systemd(255)) }));
    expect(c.status).toBe('clear');
    expect(c.note).toContain('containerd://1.7.22');
    expect(c.note).toContain('systemd 255');
    expect(summarizeCheck(c)).toMatchObject({ cause: 'known-bad-version', tier: 'api', verdict: 'ok' });
  });

  it('no versions anywhere → unknown, never fail', () => {
    const c = run(evidence({ node: nodeObject({ ...CLEAN, runtime: '', kubeletVersion: '', kernel: '', osImage: '' }) }));
    expect(summarizeCheck(c).verdict).toBe('unknown');
  });

  it.each([
    ['containerd 1.4.4', { runtime: 'containerd://1.4.4' }, 'containerd/containerd#5274', 1],
    ['Docker 20.10.19', { runtime: 'docker://20.10.19' }, 'moby/moby#44300', 1],
    ['kubelet < 1.14', { kubeletVersion: 'v1.13.5' }, 'kubernetes/kubernetes#72709', 4],
    ['Ubuntu kernel 5.4.0-132-generic', { kernel: '5.4.0-132-generic' }, 'Netcracker/KubeMarine documentation/Troubleshooting.md', 10],
  ])('%s from nodeInfo: warns on a Ready node, fails on a PLEG-unhealthy one, with its source', (_what, over, ref, cause) => {
    const warn = run(evidence({ node: nodeObject({ ...CLEAN, ...over }) }));
    expect(warn.status).toBe('found');
    expect(warn.finding).toMatchObject({ severity: 'warning', cause });
    expect(warn.finding?.refs).toContain(ref);
    expect(summarizeCheck(warn).verdict).toBe('warn');
    const fail = run(evidence({ node: nodeObject({ ...CLEAN, ...over, ready: 'False' }) }));
    expect(summarizeCheck(fail).verdict).toBe('fail');
  });

  it('kubelet 1.14 and containerd 1.4.3 are not on the list', () => {
    expect(run(evidence({ node: nodeObject({ ...CLEAN, kubeletVersion: 'v1.14.0', runtime: 'containerd://1.4.3' }) })).status).toBe('clear');
  });

  it('containerd 1.4.4 reported by the node side (containerd --version) when nodeInfo has another runtime string', () => {
    const p = probes({ containerdVersion: { status: 'ok', durationMs: 2, value: { version: 'v1.4.4' } } });
    const c = run(evidence({ node: nodeObject({ ...CLEAN, runtime: 'remote://unknown' }), nodeSide: nodeSide(emptySnapshot(), p) }));
    expect(c.finding?.evidence).toHaveLength(1);
    expect(c.finding?.evidence[0]?.origin).toBe('nodeSide');
    expect(c.finding?.evidence[0]?.text).toMatch(/^containerd --version reports .v1\.4\.4., a known-bad version$/);
  });

  it.each([219, 237])('systemd %i (node probe) with cgroupDriver systemd → found; with cgroupfs → clear; driver unknown → unknown', (version) => {
    const side = nodeSide(emptySnapshot(), systemd(version));
    const c = run(evidence({ node: nodeObject(CLEAN), configz: ok(configz({ cgroupDriver: 'systemd' })), nodeSide: side }));
    expect(c.finding).toMatchObject({ cause: 3, severity: 'warning' });
    expect(c.finding?.refs).toContain('systemd/systemd#11818');
    expect(run(evidence({ node: nodeObject(CLEAN), configz: ok(configz({ cgroupDriver: 'cgroupfs' })), nodeSide: side })).status).toBe('clear');
    expect(summarizeCheck(run(evidence({ node: nodeObject(CLEAN), nodeSide: side }))).verdict).toBe('unknown');
  });

  it('CentOS 7 in nodeInfo (systemd 219) with cgroupDriver systemd → found from the API tier alone', () => {
    const c = run(evidence({ node: nodeObject({ ...CLEAN, osImage: 'CentOS Linux 7 (Core)', kernel: '3.10.0-1160.el7.x86_64' }), configz: ok(configz({ cgroupDriver: 'systemd' })) }));
    expect(c.finding?.evidence[0]).toMatchObject({ origin: 'node' });
    expect(c.finding?.evidence[0]?.text).toContain('ships systemd 219 (EL7)');
  });

  it('several entries at once are all named, each source once', () => {
    const c = run(evidence({ node: nodeObject({ ...CLEAN, runtime: 'docker://20.10.19', kubeletVersion: 'v1.13.1', kernel: '5.4.0-132-generic' }) }));
    expect(c.finding?.title).toBe('3 known-bad versions');
    expect(c.finding?.evidence).toHaveLength(3);
    expect(c.finding?.cause).toBeUndefined();
    expect(new Set(c.finding?.refs).size).toBe(c.finding?.refs.length);
  });
});
