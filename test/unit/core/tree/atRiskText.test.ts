// "PLEG at risk" in the Nodes tree: node-problem-detector's PLEGAtRisk=True on a Ready node is its own
// verdict (the row's countdown, the tooltip, the order, the unhealthy filter, the counts); on a NotReady
// node the kubelet's verdict leads and the condition stays in the tooltip.

import { describe, expect, it } from 'vitest';
import { classifyNode } from '../../../../src/core/classify/classifyNode';
import { englishText as t } from '../../../../src/core/tree/localize';
import { describeNode } from '../../../../src/core/tree/nodeDescription';
import { nodeTooltipMarkdown } from '../../../../src/core/tree/nodeTooltip';
import { NodeTreeModel } from '../../../../src/core/tree/nodeTreeModel';
import { nodeContextValue } from '../../../../src/core/tree/contextValue';
import { FakeNodeSource } from '../../../support/fakeNodeSource';
import { atRiskCondition, makeNode, minutesAgo, NOW } from '../../../support/nodeFixtures';

const secondsAgo = (s: number): string => new Date(NOW.getTime() - s * 1000).toISOString();
/** NPD wrote "NotReady predicted in 1m35s" 10 s before NOW, and synced then. */
const atRisk = (name: string, extra: Partial<Parameters<typeof atRiskCondition>[1]> = {}) =>
  makeNode(name, { status: 'True' }, { conditions: [atRiskCondition('True', { since: secondsAgo(10), ...extra })] });

describe('classifyNode with PLEGAtRisk', () => {
  it('Ready=True and PLEGAtRisk=True: pleg-at-risk, with the countdown in the summary', () => {
    const c = classifyNode(atRisk('n'), NOW);
    expect(c.verdict).toBe('pleg-at-risk');
    expect(c.summary).toBe('PLEG at risk · NotReady in ~1m25s');
    expect(c.atRisk).toMatchObject({ status: 'True', predictedS: 95, since: secondsAgo(10) });
    expect(c.warnings).toEqual([]);
  });

  it('PLEGAtRisk=False or Unknown leaves a Ready node ready', () => {
    for (const status of ['False', 'Unknown'] as const) {
      const c = classifyNode(makeNode('n', { status: 'True' }, { conditions: [atRiskCondition(status, { since: secondsAgo(10), message: 'x' })] }), NOW);
      expect(c.verdict, status).toBe('ready');
      expect(c.atRisk?.status).toBe(status);
    }
  });

  it('the kubelet\'s NotReady verdicts win, the condition is kept for the tooltip', () => {
    const c = classifyNode(makeNode('n', { status: 'False', since: minutesAgo(1) }, { conditions: [atRiskCondition('True', { since: minutesAgo(3) })] }), NOW);
    expect(c.verdict).toBe('pleg');
    expect(c.summary).toMatch(/^PLEG not healthy/);
    const tip = nodeTooltipMarkdown(c, 'prod', { kind: 'unknown' }, NOW, t, { clock: { locale: 'en-GB', timeZone: 'UTC' } });
    expect(tip).toContain('node-problem-detector: PLEGAtRisk=True (NotReadyPredicted) since 03:57:00 \\(3 min ago\\)');
    expect(tip).toContain('NotReady predicted in 1m35s: runtime-hung');
    expect(tip).toContain('The predicted NotReady is due');
    const lease = classifyNode(makeNode('n', { status: 'Unknown', since: minutesAgo(1) }, { conditions: [atRiskCondition('True', { since: minutesAgo(3) })] }), NOW);
    expect(lease.verdict).toBe('lease-lost');
  });
});

describe('the tree row and tooltip of a node at risk', () => {
  it('row: "PLEG at risk · NotReady in ~1m25s", counting down, then due', () => {
    const c = classifyNode(atRisk('n'), NOW);
    expect(describeNode(c, NOW, t)).toBe('PLEG at risk · NotReady in ~1m25s');
    expect(describeNode(c, new Date(NOW.getTime() + 60_000), t)).toBe('PLEG at risk · NotReady in ~25s');
    expect(describeNode(c, new Date(NOW.getTime() + 90_000), t)).toBe('PLEG at risk · NotReady due');
    expect(nodeContextValue(c)).toBe('node;plegAtRisk;ready;unhealthy');
  });

  it('a stale condition (NPD silent past its heartbeat period) is no countdown: "as of", and the tooltip says why', () => {
    const c = classifyNode(atRisk('n', { since: secondsAgo(400), heartbeat: secondsAgo(400) }), NOW);
    expect(describeNode(c, NOW, t)).toBe('PLEG at risk · as of 6m ago');
    const tip = nodeTooltipMarkdown(c, 'prod', { kind: 'unknown' }, NOW, t, { clock: { locale: 'en-GB', timeZone: 'UTC' } });
    expect(tip.split('\n\n')[0]).toBe('**n** — PLEG at risk: NotReady predicted');
    expect(tip).toContain('Not a live countdown: node-problem-detector last synced this condition 03:53:20 \\(6 min ago\\), longer ago than its heartbeat period (5m0s)');
    expect(tip).not.toContain('NotReady in ~');
  });

  it('a fresh tooltip says the countdown and where it counts from', () => {
    const tip = nodeTooltipMarkdown(classifyNode(atRisk('n'), NOW), 'prod', { kind: 'unknown' }, NOW, t, { clock: { locale: 'en-GB', timeZone: 'UTC' } });
    expect(tip).toContain('NotReady in ~1m25s: the prediction counted from when node-problem-detector wrote it.');
  });
});

describe('nodes at risk in the model: order, filter, counts', () => {
  it('sort after PLEG NotReady and before the other verdicts, show in the unhealthy filter, count apart', () => {
    const model = new NodeTreeModel({ classify: classifyNode, now: () => NOW });
    model.setContexts([{ name: 'prod', isCurrent: true }]);
    const source = new FakeNodeSource('prod');
    model.attach(source);
    source.list([
      makeNode('a-ready', { status: 'True' }),
      makeNode('b-down', { status: 'False', since: minutesAgo(4), message: 'container runtime is down' }),
      atRisk('c-risk'),
      makeNode('d-pleg', { status: 'False', since: minutesAgo(4) }),
    ]);
    const group = model.group('prod')!;
    expect(group.rows().map((r) => r.name)).toEqual(['d-pleg', 'c-risk', 'b-down', 'a-ready']);
    expect(group.rows(true).map((r) => r.name)).toEqual(['d-pleg', 'c-risk', 'b-down']);
    expect(model.totals()).toMatchObject({ total: 4, unhealthy: 3, pleg: 1, atRisk: 1 });
  });

  it('a new NPD message redraws the row (the condition is part of what a row shows)', () => {
    const model = new NodeTreeModel({ classify: classifyNode, now: () => NOW });
    model.setContexts([{ name: 'prod', isCurrent: true }]);
    const source = new FakeNodeSource('prod');
    model.attach(source);
    source.list([atRisk('n')]);
    const changes: unknown[] = [];
    model.onDidChange((c) => changes.push(c));
    source.upsert(atRisk('n', { since: secondsAgo(5), message: 'NotReady predicted in 1m0s: runtime-hung' }));
    expect(changes).toHaveLength(1);
    expect(model.group('prod')!.get('n')!.classification.atRisk?.predictedS).toBe(60);
  });
});
