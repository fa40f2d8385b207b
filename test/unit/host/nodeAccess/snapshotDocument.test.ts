import { describe, expect, it } from 'vitest';
import { englishText } from '../../../../src/core/tree/localize';
import { snapshotDocumentContent, snapshotSummary, snapshotUriParts } from '../../../../src/host/nodeAccess/snapshotDocument';
import type { NodeSnapshotReport } from '../../../../src/infra/nodeSnapshot/collectNodeSnapshot';
import type { NodeTarget } from '../../../../src/infra/ssh/nodeTarget';

function report(overrides: Partial<NodeSnapshotReport['snapshot']> = {}): NodeSnapshotReport {
  return {
    host: 'plegtest@127.0.0.1:22022',
    via: [],
    connectMs: 41.2,
    transport: { kind: 'execRelay', endpoint: 'unix:///run/containerd/containerd.sock', reason: 'forwarding refused; sudo socat works', attempts: [{ kind: 'execRelay', ok: true, detail: 'ok' }] },
    snapshot: {
      time: '2026-11-22T05:00:00.000Z',
      source: 'cri',
      sandboxes: [{ id: 's1' }, { id: 's2' }, { id: 's3' }] as NodeSnapshotReport['snapshot']['sandboxes'],
      containers: [{ id: 'c1' }, { id: 'c2' }] as NodeSnapshotReport['snapshot']['containers'],
      sandboxStatuses: [],
      containerStatuses: [],
      timings: [],
      errors: [],
      findings: [],
      durationMs: 87.6,
      ...overrides,
    },
  };
}

const target: NodeTarget = { nodeName: 'n1', host: '127.0.0.1', addressSource: 'InternalIP', port: 22022, user: 'plegtest', sudo: true };

describe('snapshot document', () => {
  it('holds who and where first, then the report as collected', () => {
    const r = report();
    const text = snapshotDocumentContent({ node: 'n1', context: 'kind-a', access: 'via SSH plegtest@127.0.0.1:22022', target, takenAt: new Date('2026-11-22T05:00:00Z'), report: r });
    expect(text.endsWith('}\n')).toBe(true);
    expect(text).toContain('\n  "node": "n1",\n');
    const parsed = JSON.parse(text) as Record<string, unknown>;
    expect(Object.keys(parsed).slice(0, 5)).toEqual(['node', 'context', 'access', 'target', 'takenAt']);
    expect(parsed['access']).toBe('via SSH plegtest@127.0.0.1:22022');
    expect(parsed).not.toHaveProperty('ageSeconds');
    expect(parsed['target']).toEqual({ host: '127.0.0.1', addressSource: 'InternalIP', user: 'plegtest', port: 22022, sudo: true });
    expect(parsed['takenAt']).toBe('2026-11-22T05:00:00.000Z');
    expect(parsed['transport']).toEqual(r.transport);
    expect(parsed['snapshot']).toEqual(r.snapshot);
    expect(parsed['host']).toBe('plegtest@127.0.0.1:22022');
    expect(parsed).not.toHaveProperty('probes');
  });

  it('leaves out target fields that were not set', () => {
    const minimal: NodeTarget = { nodeName: 'n1', host: 'n1.example', addressSource: 'host-template', sudo: false };
    const parsed = JSON.parse(snapshotDocumentContent({ node: 'n1', context: 'c', access: 'via SSH n1.example:22', target: minimal, takenAt: new Date(0), report: report() })) as { target: unknown };
    expect(parsed.target).toEqual({ host: 'n1.example', addressSource: 'host-template', sudo: false });
  });

  it("through the agent: names the pod and the snapshot's age, takenAt is the agent's, no SSH target", () => {
    const { via: _via, ...side } = report();
    const text = snapshotDocumentContent({
      node: 'n1',
      context: 'kind-a',
      access: 'via agent pod pleg-doctor/pleg-doctor-agent-x7k2, taken 1m10s ago',
      takenAt: new Date('2026-11-22T04:58:50Z'),
      ageSeconds: 70,
      report: side,
    });
    const parsed = JSON.parse(text) as Record<string, unknown>;
    expect(Object.keys(parsed).slice(0, 5)).toEqual(['node', 'context', 'access', 'takenAt', 'ageSeconds']);
    expect(parsed).toMatchObject({ access: 'via agent pod pleg-doctor/pleg-doctor-agent-x7k2, taken 1m10s ago', takenAt: '2026-11-22T04:58:50.000Z', ageSeconds: 70 });
    expect(parsed).not.toHaveProperty('target');
    expect(parsed['snapshot']).toEqual(side.snapshot);
  });

  it('lives at /{context}/{node}.cri-snapshot.json, made unique by the query', () => {
    const when = new Date('2026-11-22T05:00:00Z');
    const first = snapshotUriParts('kind-a', 'n1', 1, when);
    expect(first).toEqual({ scheme: 'pleg-doctor-snapshot', path: '/kind-a/n1.cri-snapshot.json', query: 'n=1&taken=2026-11-22T05:00:00.000Z' });
    expect(snapshotUriParts('kind-a', 'n1', 2, when).query).not.toBe(first.query);
    expect(snapshotUriParts('arn:aws:eks:x:1:cluster/prod', 'n1', 1, when).path.endsWith('/n1.cri-snapshot.json')).toBe(true);
  });
});

describe('snapshot summary', () => {
  it('is an information message when every call answered', () => {
    expect(snapshotSummary('n1', 'via SSH plegtest@127.0.0.1:22022', report(), englishText)).toEqual({
      severity: 'info',
      message: 'CRI snapshot of n1 (via SSH plegtest@127.0.0.1:22022): 3 pod sandboxes, 2 containers over execRelay (88 ms)',
    });
  });

  it('is a warning naming the first finding when there is one', () => {
    const summary = snapshotSummary(
      'n1',
      'via SSH plegtest@127.0.0.1:22022',
      report({
        findings: [
          { kind: 'runtimeUnresponsive', message: 'the runtime did not answer ListPodSandbox within 5000 ms', methods: ['ListPodSandbox'] },
          { kind: 'slowCalls', message: 'slow', methods: [] },
        ],
        errors: [{ method: 'ListPodSandbox', code: 4, codeName: 'DEADLINE_EXCEEDED', message: 'deadline', ms: 5000 }],
      }),
      englishText,
    );
    expect(summary.severity).toBe('warning');
    expect(summary.message).toBe(
      'CRI snapshot of n1 (via SSH plegtest@127.0.0.1:22022): 3 pod sandboxes, 2 containers over execRelay (88 ms), with 2 findings and 1 failed calls. First: the runtime did not answer ListPodSandbox within 5000 ms',
    );
  });

  it('names the first failed call when there are errors but no findings', () => {
    const summary = snapshotSummary(
      'n1',
      'via SSH plegtest@127.0.0.1:22022',
      report({ errors: [{ method: 'ContainerStatus', id: '0123456789abcdef0123', code: 2, codeName: 'UNKNOWN', message: 'boom', ms: 3 }] }),
      englishText,
    );
    expect(summary).toEqual({
      severity: 'warning',
      message: 'CRI snapshot of n1 (via SSH plegtest@127.0.0.1:22022): 3 pod sandboxes, 2 containers over execRelay (88 ms), with 0 findings and 1 failed calls. First: ContainerStatus 0123456789abc: UNKNOWN boom',
    });
  });
});
