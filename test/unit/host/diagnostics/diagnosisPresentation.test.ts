import { describe, expect, it } from 'vitest';
import type { Diagnosis, Finding, Severity } from '../../../../src/core/diagnose/diagnosis';
import { englishText } from '../../../../src/core/tree/localize';
import { diagnosisNotification, diagnosisStageMessage } from '../../../../src/host/diagnostics/diagnosisPresentation';
import { nodeSideEvidence as toNodeSideEvidence } from '../../../../src/infra/diagnose/nodeSideEvidence';
import type { NodeSnapshotReport } from '../../../../src/infra/nodeSnapshot/collectNodeSnapshot';

function finding(severity: Severity, checkId = 'runtime-hung'): Finding {
  return { checkId, severity, title: `a ${severity}`, summary: '', evidence: [], remediation: [], refs: [] };
}

function diagnosis(findings: Finding[], headline = 'NotReady (PLEG): one pod\'s status calls time out'): Diagnosis {
  return {
    context: 'prod-eu',
    nodeName: 'prod-eu-node-07',
    collectedAt: '2026-11-22T09:00:00.000Z',
    verdict: 'pleg',
    headline,
    findings,
    checks: [],
    sources: [],
    gaps: [],
  };
}

describe('the notification after a diagnosis', () => {
  it('is a warning with the node and the headline when a finding is a problem', () => {
    const note = diagnosisNotification(diagnosis([finding('warning'), finding('problem', 'stuck-container')]), englishText);
    expect(note).toEqual({ severity: 'warning', message: "prod-eu-node-07: NotReady (PLEG): one pod's status calls time out" });
  });

  it('is information when no finding is a problem, whatever else it found', () => {
    expect(diagnosisNotification(diagnosis([], 'Ready: no problem found'), englishText)).toEqual({ severity: 'info', message: 'prod-eu-node-07: Ready: no problem found' });
    expect(diagnosisNotification(diagnosis([finding('warning'), finding('info')]), englishText).severity).toBe('info');
  });
});

describe('progress lines per collection stage', () => {
  it('names what is being read', () => {
    expect(diagnosisStageMessage('api', englishText)).toBe('Reading the API…');
    expect(diagnosisStageMessage('kubelet', englishText)).toBe('Reading the kubelet through the API server…');
    expect(diagnosisStageMessage('metricsLater', englishText)).toBe('Second metrics scrape…');
    expect(diagnosisStageMessage('node', englishText)).toBe('Reading the node over SSH…');
  });

  it('goes through Localize with the English text as the key', () => {
    const keys: string[] = [];
    const spy = (m: string): string => (keys.push(m), `«${m}»`);
    expect(diagnosisStageMessage('api', spy)).toBe('«Reading the API…»');
    expect(diagnosisNotification(diagnosis([]), spy).message).toBe('«{0}: {1}»');
    expect(keys).toEqual(['Reading the API…', '{0}: {1}']);
  });
});

describe('node side evidence from a node snapshot report', () => {
  const snapshot: NodeSnapshotReport['snapshot'] = { time: '2026-11-22T09:00:00.000Z', source: 'cri', sandboxes: [], containers: [], sandboxStatuses: [], containerStatuses: [], timings: [], errors: [], findings: [], durationMs: 12 };
  const report: NodeSnapshotReport = {
    host: 'plegtest@127.0.0.1:22022',
    via: ['ops@bastion:22'],
    connectMs: 40,
    transport: { kind: 'execRelay', endpoint: 'unix:///run/containerd/containerd.sock', reason: 'sudo socat works', attempts: [{ kind: 'execRelay', ok: true, detail: 'ok' }] },
    snapshot,
  };

  it('keeps host, transport (without the attempts), connect time and the snapshot itself', () => {
    const side = toNodeSideEvidence(report);
    expect(side).toEqual({ host: 'plegtest@127.0.0.1:22022', transport: { kind: 'execRelay', endpoint: 'unix:///run/containerd/containerd.sock', reason: 'sudo socat works' }, connectMs: 40, snapshot });
    expect(side.snapshot).toBe(snapshot);
    expect('probes' in side).toBe(false);
  });

  it('carries the probes when they ran', () => {
    const probes = { host: 'h', runtimeProcesses: { status: 'absent', durationMs: 1 } } as unknown as NonNullable<NodeSnapshotReport['probes']>;
    expect(toNodeSideEvidence({ ...report, probes }).probes).toBe(probes);
  });
});
