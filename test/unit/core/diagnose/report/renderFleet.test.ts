// The fleet report of Diagnose All NotReady Nodes: one row per node, grouped by the cause its headline
// names (so the two cannot disagree), a flapping node listed with its flaps, a link to each node's report,
// nodes that could not be diagnosed in a group of their own, and cluster strings escaped.

import { describe, expect, it } from 'vitest';
import { headlineFinding } from '../../../../../src/core/diagnose/headline';
import { renderFleetReport, type FleetRow } from '../../../../../src/core/diagnose/report/renderFleet';
import { diagnose } from '../../../../../src/core/diagnose/runDiagnosis';
import { NOW, evidence, goroutines, healthyMetrics, nodeObject, ok } from '../../../../support/diagnoseBuilders';

const stuck = (name: string) => ({ ...diagnose(evidence({ node: nodeObject({ ready: 'False' }), goroutines: ok(goroutines('PodSandboxStatus', 2)) }), { now: NOW }), nodeName: name });
const clean = diagnose(evidence({ metrics: ok(healthyMetrics()) }), { now: NOW });

const rows: FleetRow[] = [
  { context: 'prod', node: 'node-07', verdictNow: 'pleg', outcome: { kind: 'done', diagnosis: stuck('node-07'), reportLink: 'pleg-doctor-report:/prod/node-07.pleg-report.md?n=3&collected=x' } },
  { context: 'prod', node: 'node-05', verdictNow: 'ready', flaps: { count: 5, atLeast: false, windowS: 1800 }, outcome: { kind: 'done', diagnosis: { ...clean, nodeName: 'node-05' } } },
  { context: 'prod', node: 'node-09', verdictNow: 'pleg', outcome: { kind: 'done', diagnosis: stuck('node-09') } },
  { context: 'prod', node: 'node-11', verdictNow: 'lease-lost', outcome: { kind: 'failed', error: 'no answer | within 15s' } },
];

describe('fleet report', () => {
  const md = renderFleetReport({ startedAt: '2026-11-22T10:00:00.000Z', rows, targets: 5, cancelled: true });

  it('one row per node, under the cause its headline names, problems first, largest group first', () => {
    const cause = headlineFinding(stuck('x').findings)?.title ?? '';
    expect(cause).toBe("One pod's status calls time out: a stuck container or shim");
    const headings = md.split('\n').filter((l) => l.startsWith('## '));
    expect(headings).toEqual(["## One pod's status calls time out: a stuck container or shim (2 nodes)", '## No cause named by the evidence read (1 node)', '## Could not be diagnosed (1 node)']);
    for (const node of ['node-07', 'node-05', 'node-09', 'node-11']) expect(md.split('\n').filter((l) => l.startsWith('| ') && l.includes(node))).toHaveLength(1);
    // The node's headline names the group's cause.
    expect(stuck('node-07').headline).toContain("one pod's status calls time out");
  });

  it('says what was run and how far it got; a flapping Ready node with its flaps; the key evidence of the cause; a link to the report', () => {
    expect(md).toContain('started 2026-11-22T10:00:00.000Z · 3 of 5 nodes diagnosed (cancelled)');
    expect(md).toContain('| node-05 · prod | Ready, flapped 5× in 30 min | Ready: no problem found |');
    expect(md).toContain('| [node-07](<pleg-doctor-report:/prod/node-07.pleg-report.md?n=3&collected=x>) · prod | PLEG |');
    expect(md).toMatch(/\| node-09 · prod \| PLEG \| goroutines: relist goroutine 321 \\\[select, 2 minutes\\\] blocked in `PodSandboxStatus`/u);
    expect(md).toContain('| node-11 · prod | No heartbeat | no answer \\| within 15s |');
  });
});
