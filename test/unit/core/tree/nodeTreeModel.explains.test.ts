// The pure parts behind "the tree explains": flap counts from events, tooltip times, the Ready and event
// row texts, verdict-change log lines and the sort order that keeps a flapping node in place.

import { describe, expect, it } from 'vitest';
import { classifyNode } from '../../../../src/core/classify/classifyNode';
import type { KubeEvent } from '../../../../src/core/kube/objects';
import { readyFirst } from '../../../../src/core/tree/conditionHealth';
import { entryNeedsAttention, STICKY_MS } from '../../../../src/core/tree/contextNodes';
import { describeNode } from '../../../../src/core/tree/nodeDescription';
import { verdictIcon } from '../../../../src/core/tree/verdictPresentation';
import { countFlaps, flapText } from '../../../../src/core/tree/flapHistory';
import { englishText as t } from '../../../../src/core/tree/localize';
import { NodeTreeModel } from '../../../../src/core/tree/nodeTreeModel';
import { conditionDescription, eventDescription, plegFirst } from '../../../../src/core/tree/rowText';
import { formatAgo, formatClock, formatWhen } from '../../../../src/core/tree/timeText';
import type { VerdictChange } from '../../../../src/core/tree/verdictLog';
import { verdictChangeLine } from '../../../../src/core/tree/verdictLog';
import { FakeNodeSource } from '../../../support/fakeNodeSource';
import { makeNode, minutesAgo, NOW, PLEG_MESSAGE } from '../../../support/nodeFixtures';

const UTC = { locale: 'en-GB', timeZone: 'UTC' };

function notReady(minutes: number, extra: Partial<KubeEvent> = {}): KubeEvent {
  return { reason: 'NodeNotReady', type: 'Normal', message: 'Node n status is now: NodeNotReady', count: 1, lastTimestamp: minutesAgo(minutes), ...extra };
}

describe('countFlaps', () => {
  it('counts NodeNotReady events inside the 30 min window, not NodeReady or older ones', () => {
    const events = [notReady(2), { ...notReady(3), reason: 'NodeReady' }, notReady(8), notReady(14), notReady(29.9), notReady(31), { ...notReady(1), reason: 'Starting' }];
    expect(countFlaps(events, NOW)).toEqual({ count: 4, atLeast: false, windowS: 1800 });
    expect(countFlaps([], NOW).count).toBe(0);
  });

  it('takes folded events by their count, and a count that began before the window as a lower bound', () => {
    expect(countFlaps([notReady(4, { count: 3, firstTimestamp: minutesAgo(20) })], NOW)).toEqual({ count: 3, atLeast: false, windowS: 1800 });
    expect(countFlaps([notReady(4, { count: 5, firstTimestamp: minutesAgo(50) }), notReady(9)], NOW)).toEqual({ count: 2, atLeast: true, windowS: 1800 });
  });

  it('ignores events without a usable time', () => {
    expect(countFlaps([{ reason: 'NodeNotReady' }, notReady(0, { lastTimestamp: 'garbage' })], NOW).count).toBe(0);
  });

  it('reads as "flapped 3× in 30 min"', () => {
    expect(flapText({ count: 3, atLeast: false, windowS: 1800 }, t)).toBe('flapped 3× in 30 min');
    expect(flapText({ count: 2, atLeast: true, windowS: 1800 }, t)).toBe('flapped ≥2× in 30 min');
  });
});

describe('tooltip times', () => {
  it.each([
    [0, 'just now'],
    [4.9, 'just now'],
    [45, '45 s ago'],
    [180, '3 min ago'],
    [3599, '59 min ago'],
    [7200, '2 h ago'],
    [4 * 86_400, '4 d ago'],
  ])('%s s → %s', (seconds, text) => {
    expect(formatAgo(seconds, t)).toBe(text);
  });

  it('shows the local time of day, with the date when it is not today, and never milliseconds', () => {
    expect(formatClock(new Date('2026-11-22T03:56:47.123Z'), NOW, UTC)).toBe('03:56:47');
    expect(formatClock(new Date('2026-11-20T23:05:00Z'), NOW, UTC)).toMatch(/^20 Nov,? 23:05:00$/);
    expect(formatWhen('2026-11-22T03:57:00.000Z', NOW, t, UTC)).toBe('03:57:00 (3 min ago)');
    expect(formatWhen('2026-11-22T03:57:00.000Z', NOW, t, { locale: 'en-GB', timeZone: 'Asia/Shanghai' })).toBe('11:57:00 (3 min ago)');
    expect(formatWhen('nope', NOW, t, UTC)).toBeUndefined();
    expect(formatWhen(undefined, NOW, t, UTC)).toBeUndefined();
  });
});

describe('row texts', () => {
  it('puts the PLEG part of a kubelet message first and drops the brackets', () => {
    expect(plegFirst(PLEG_MESSAGE)).toBe(PLEG_MESSAGE);
    expect(plegFirst(`[container runtime is down, ${PLEG_MESSAGE}]`)).toBe(`${PLEG_MESSAGE}, container runtime is down`);
    expect(plegFirst('container runtime network not ready: NetworkReady=false')).toBe('container runtime network not ready: NetworkReady=false');
  });

  it('the Ready row shows the kubelet message when Ready is not True, the reason otherwise', () => {
    expect(conditionDescription({ type: 'Ready', status: 'False', reason: 'KubeletNotReady', message: PLEG_MESSAGE })).toBe(`False · ${PLEG_MESSAGE.replace('3m46.752815514s', '3m46.7s')}`);
    expect(PLEG_MESSAGE).toContain('3m46.752815514s');
    expect(conditionDescription({ type: 'Ready', status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.' })).toBe(
      'Unknown · Kubelet stopped posting node status.',
    );
    expect(conditionDescription({ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' })).toBe('True · KubeletReady');
    expect(conditionDescription({ type: 'Ready', status: 'False', reason: 'KubeletNotReady' })).toBe('False · KubeletNotReady');
  });

  it('an event row shows its age, count and message', () => {
    expect(eventDescription(notReady(3, { count: 4 }), NOW, t)).toBe('3m ago · ×4 · Node n status is now: NodeNotReady');
    expect(eventDescription({ reason: 'X', message: 'one\nline', eventTime: minutesAgo(0.5) }, NOW, t)).toBe('30s ago · one line');
  });
});

describe('verdict changes', () => {
  it('one line per change, with from → to, Ready status and the message', () => {
    const change: VerdictChange = { context: 'prod', name: 'n-5', from: 'ready', to: 'pleg', readyStatus: 'False', message: PLEG_MESSAGE };
    expect(verdictChangeLine(change)).toBe(`verdict prod/n-5: Ready → PLEG (Ready=False) ${PLEG_MESSAGE}`);
    expect(verdictChangeLine({ ...change, from: 'pleg', to: 'ready', readyStatus: 'True', message: 'kubelet is posting ready status' })).toBe(
      'verdict prod/n-5: PLEG → Ready (Ready=True) kubelet is posting ready status',
    );
    expect(verdictChangeLine({ ...change, from: undefined, to: 'lease-lost', readyStatus: 'Unknown', message: 'x\ny' })).toBe('verdict prod/n-5: (first seen) → No heartbeat (Ready=Unknown) x y');
    expect(verdictChangeLine({ ...change, message: 'm'.repeat(1000) }).length).toBeLessThan(400);
  });

  it('the model reports flips and unhealthy first sightings, never healthy first sightings', () => {
    let now = NOW;
    const model = new NodeTreeModel({ classify: classifyNode, now: () => now });
    const seen: VerdictChange[] = [];
    model.onDidChangeVerdict((c) => seen.push(c));
    model.setContexts([{ name: 'prod', isCurrent: true }]);
    const source = new FakeNodeSource('prod');
    model.attach(source);
    source.list([makeNode('a', { status: 'True' }), makeNode('b', { status: 'False', since: minutesAgo(4) })]);
    expect(seen.map((c) => [c.name, c.from, c.to])).toEqual([['b', undefined, 'pleg']]);
    now = new Date(NOW.getTime() + 60_000);
    source.upsert(makeNode('a', { status: 'False', since: minutesAgo(0) }));
    source.upsert(makeNode('a', { status: 'True', since: minutesAgo(0) }));
    expect(seen.slice(1).map((c) => [c.name, c.from, c.to, c.readyStatus])).toEqual([
      ['a', 'ready', 'pleg', 'False'],
      ['a', 'pleg', 'ready', 'True'],
    ]);
    expect(seen[1]?.message).toBe(PLEG_MESSAGE);
  });
});

describe('row order while nodes flap', () => {
  function setup() {
    let now = NOW;
    const model = new NodeTreeModel({ classify: classifyNode, now: () => now });
    model.setContexts([{ name: 'prod', isCurrent: true }]);
    const source = new FakeNodeSource('prod');
    model.attach(source);
    source.list(['n-1', 'n-2', 'n-3', 'n-4'].map((n) => makeNode(n, { status: 'True' })));
    const names = () => model.group('prod')!.rows().map((r) => r.name);
    return { model, source, names, advance: (ms: number) => (now = new Date(now.getTime() + ms)) };
  }

  it('a node that recovers keeps its place at the top until it has been Ready for the sticky period', () => {
    const { model, source, names, advance } = setup();
    source.upsert(makeNode('n-3', { status: 'False', since: minutesAgo(4) }));
    expect(names()).toEqual(['n-3', 'n-1', 'n-2', 'n-4']);
    advance(60_000);
    source.upsert(makeNode('n-3', { status: 'True' }));
    expect(names()).toEqual(['n-3', 'n-1', 'n-2', 'n-4']);
    advance(STICKY_MS - 1_000);
    model.reclassifyUnhealthy();
    expect(names()).toEqual(['n-3', 'n-1', 'n-2', 'n-4']);
    advance(2_000);
    model.reclassifyUnhealthy();
    expect(names()).toEqual(['n-1', 'n-2', 'n-3', 'n-4']);
  });

  it('a node whose events show flapping sorts above healthy nodes, and its row text changes', () => {
    const { model, names } = setup();
    const changes: string[] = [];
    model.onDidChange((c) => changes.push(c.scope));
    model.setReadyEvents('prod', 'n-4', [notReady(3), notReady(9), { ...notReady(8), reason: 'NodeReady' }]);
    expect(names()).toEqual(['n-4', 'n-1', 'n-2', 'n-3']);
    expect(changes).toEqual(['context']);
    // One NotReady is no flapping: the order stays, the tooltip count changes.
    model.setReadyEvents('prod', 'n-2', [notReady(3)]);
    expect(names()).toEqual(['n-4', 'n-1', 'n-2', 'n-3']);
    expect(changes).toEqual(['context', 'node']);
    model.setReadyEvents('prod', 'missing', [notReady(3)]);
    expect(changes).toHaveLength(2);
  });
});

describe('a flapping node is no healthy node (issue 26 points 5, 6)', () => {
  it('"Show Only Unhealthy" and Diagnose All keep a node that flaps while it is Ready for a moment; one NotReady is no flapping', () => {
    const model = new NodeTreeModel({ classify: classifyNode, now: () => NOW });
    model.setContexts([{ name: 'prod', isCurrent: true }]);
    const source = new FakeNodeSource('prod');
    model.attach(source);
    source.list([makeNode('n-1', { status: 'True' }), makeNode('n-2', { status: 'True', since: minutesAgo(0.5) }), makeNode('n-3', { status: 'False', since: minutesAgo(2) }), makeNode('n-4', { status: 'True', since: minutesAgo(1) })]);
    model.setReadyEvents('prod', 'n-2', [notReady(3), notReady(9), notReady(14)]);
    model.setReadyEvents('prod', 'n-4', [notReady(2)]);
    const group = model.group('prod')!;
    expect(group.rows(true).map((r) => r.name)).toEqual(['n-3', 'n-2']);
    expect(group.rows().filter((e) => entryNeedsAttention(e, NOW)).map((r) => r.name)).toEqual(['n-3', 'n-2']);
  });

  it('its row is not a green check and carries the short Ready spell and the flap count', () => {
    const flaps = { count: 8, atLeast: false, windowS: 1800 };
    expect(verdictIcon('ready', flaps)).toEqual({ id: 'debug-restart', color: 'charts.orange' });
    expect(verdictIcon('ready', { ...flaps, count: 1 })).toEqual({ id: 'pass', color: 'charts.green' });
    expect(verdictIcon('ready')).toEqual({ id: 'pass', color: 'charts.green' });
    const c = classifyNode(makeNode('n', { status: 'True', since: minutesAgo(0.5) }), NOW);
    expect(describeNode(c, NOW, t, flaps)).toBe('Ready · 30s · 8 flaps');
    expect(describeNode(c, NOW, t)).toBe('Ready');
  });

  it('the Ready condition comes first among a node\'s conditions, the rest in the kubelet\'s order', () => {
    const types = (list: { type: string }[]) => readyFirst(list).map((c) => c.type);
    expect(types([{ type: 'MemoryPressure' }, { type: 'DiskPressure' }, { type: 'PIDPressure' }, { type: 'Ready' }])).toEqual(['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure']);
    expect(types([{ type: 'NetworkUnavailable' }])).toEqual(['NetworkUnavailable']);
  });
});

describe('node tooltip flap line', () => {
  it('says how often the node went NotReady, in the singular for once', async () => {
    const { nodeTooltipMarkdown } = await import('../../../../src/core/tree/nodeTooltip');
    const c = classifyNode(makeNode('n', { status: 'False', since: minutesAgo(4) }), NOW);
    const md = (count: number, atLeast = false) => nodeTooltipMarkdown(c, 'prod', { kind: 'unknown' }, NOW, t, { clock: UTC, flaps: { count, atLeast, windowS: 1800 } });
    expect(md(1)).toContain('Went NotReady once in the last 30 min (a NodeNotReady event).');
    expect(md(3)).toContain('Went NotReady 3 times in the last 30 min (NodeNotReady events).');
    expect(md(3, true)).toContain('Went NotReady at least 3 times in the last 30 min');
    expect(md(0)).not.toContain('Went NotReady');
  });
});
