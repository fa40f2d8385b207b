import { describe, expect, it } from 'vitest';
import { classifyNode } from '../../../../src/core/classify/classifyNode';
import type { ModelChange } from '../../../../src/core/tree/nodeTreeModel';
import { NodeTreeModel, waitUntilSettled } from '../../../../src/core/tree/nodeTreeModel';
import { FakeNodeSource } from '../../../support/fakeNodeSource';
import { makeNode, minutesAgo, NOW } from '../../../support/nodeFixtures';

function setup(contexts = ['prod', 'staging']) {
  const model = new NodeTreeModel({ classify: classifyNode, now: () => NOW });
  const changes: ModelChange[] = [];
  model.onDidChange((c) => changes.push(c));
  model.setContexts(contexts.map((name, i) => ({ name, isCurrent: i === 0 })));
  const sources = contexts.map((name) => new FakeNodeSource(name));
  for (const s of sources) model.attach(s);
  changes.length = 0;
  return { model, changes, sources };
}

const ready = (name: string) => makeNode(name, { status: 'True' });
const pleg = (name: string, minutes = 4) => makeNode(name, { status: 'False', since: minutesAgo(minutes) });

describe('NodeTreeModel', () => {
  it('keeps contexts in kubeconfig order and nodes unhealthy first, names compared numerically', () => {
    const { model, sources } = setup();
    sources[0]!.list([ready('node-10'), ready('node-2'), pleg('node-9'), makeNode('node-1', { status: 'Unknown', since: minutesAgo(2) }), pleg('node-11')]);
    expect(model.groups().map((g) => g.name)).toEqual(['prod', 'staging']);
    const rows = model.group('prod')!.rows();
    expect(rows.map((r) => r.name)).toEqual(['node-9', 'node-11', 'node-1', 'node-2', 'node-10']);
    expect(rows.map((r) => r.classification.verdict)).toEqual(['pleg', 'pleg', 'lease-lost', 'ready', 'ready']);
    expect(model.group('prod')!.rows(true).map((r) => r.name)).toEqual(['node-9', 'node-11', 'node-1']);
    expect(model.totals()).toMatchObject({ contexts: 2, total: 5, unhealthy: 3, pleg: 2, connecting: 1 });
  });

  it('reports a verdict flip as a context change and moves the row', () => {
    const { model, changes, sources } = setup();
    sources[0]!.list([ready('a'), ready('b')]);
    changes.length = 0;
    sources[0]!.upsert(pleg('b'));
    expect(changes).toEqual([{ scope: 'context', context: model.group('prod') }]);
    expect(model.group('prod')!.rows().map((r) => r.name)).toEqual(['b', 'a']);
  });

  it('reports a text-only change as a node change, and a heartbeat-only change as nothing', () => {
    const { model, changes, sources } = setup();
    sources[0]!.list([pleg('a', 4)]);
    const entry = model.group('prod')!.get('a')!;
    changes.length = 0;
    sources[0]!.upsert(makeNode('a', { status: 'False', since: minutesAgo(4), heartbeat: minutesAgo(-1) }));
    expect(changes).toEqual([]);
    sources[0]!.upsert(makeNode('a', { status: 'False', since: minutesAgo(4), message: 'PLEG is not healthy: pleg was last seen active 3m56s ago; threshold is 3m0s' }));
    expect(changes).toEqual([{ scope: 'node', context: model.group('prod'), entry }]);
    expect(entry.classification.message).toContain('3m56s');
  });

  it('keeps entry identity across a relist and drops nodes that vanished', () => {
    const { model, sources } = setup();
    sources[0]!.list([ready('a'), ready('b')]);
    const a = model.group('prod')!.get('a');
    sources[0]!.list([ready('a'), ready('c')], '2');
    expect(model.group('prod')!.get('a')).toBe(a);
    expect(model.group('prod')!.rows().map((r) => r.name)).toEqual(['a', 'c']);
    sources[0]!.delete('a');
    expect(model.group('prod')!.rows().map((r) => r.name)).toEqual(['c']);
  });

  it('tracks connection state and knows when the tree is fully classified', () => {
    const { model, changes, sources } = setup();
    expect(model.isSettled()).toBe(false);
    sources[0]!.list(Array.from({ length: 1000 }, (_, i) => (i % 100 === 0 ? pleg(`n${i}`) : ready(`n${i}`))));
    expect(model.isSettled()).toBe(false);
    sources[1]!.setState({ kind: 'error', error: { kind: 'forbidden', message: '403 Forbidden: cannot watch nodes' } });
    expect(model.isSettled()).toBe(true);
    expect(model.totals()).toMatchObject({ total: 1000, pleg: 10, unhealthy: 10, failed: 1, connecting: 0 });
    expect(changes.filter((c) => c.scope === 'context').length).toBeLessThan(5);
  });

  it('forgets removed contexts and stops listening to their sources', () => {
    const { model, changes, sources } = setup();
    model.setContexts([{ name: 'staging', isCurrent: true }]);
    changes.length = 0;
    sources[0]!.list([ready('a')]);
    expect(changes).toEqual([]);
    expect(model.groups().map((g) => g.name)).toEqual(['staging']);
    expect(model.group('staging')!.isCurrent).toBe(true);
  });

  it('reclassifies unhealthy nodes on request, so time-based verdicts move on without an update', () => {
    let now = NOW;
    const model = new NodeTreeModel({ classify: classifyNode, now: () => now });
    model.setContexts([{ name: 'c', isCurrent: true }]);
    const source = new FakeNodeSource('c');
    model.attach(source);
    source.list([makeNode('young', { status: 'False', since: minutesAgo(1), message: 'PLEG is not healthy: pleg has yet to be successful' }), makeNode('ok', { status: 'True' })]);
    const group = model.group('c')!;
    expect(group.get('young')!.classification.verdict).toBe('startup');
    const changes: ModelChange[] = [];
    model.onDidChange((c) => changes.push(c));
    model.reclassifyUnhealthy();
    expect(changes).toEqual([]);
    now = new Date(NOW.getTime() + 5 * 60_000);
    model.reclassifyUnhealthy();
    expect(group.get('young')!.classification.verdict).toBe('pleg');
    expect(changes).toEqual([{ scope: 'context', context: group }]);
  });

  it('waitUntilSettled resolves when the last context lists, and rejects on abort', async () => {
    const { model, sources } = setup();
    const settled = waitUntilSettled(model);
    sources[0]!.list([ready('a')]);
    sources[1]!.list([pleg('b')]);
    await expect(settled).resolves.toBeUndefined();

    const other = setup();
    const controller = new AbortController();
    const pending = waitUntilSettled(other.model, controller.signal);
    controller.abort(new Error('deadline'));
    await expect(pending).rejects.toThrow('deadline');
  });

  it('refuses to attach a source for an unknown context', () => {
    const { model } = setup();
    expect(() => model.attach(new FakeNodeSource('nope'))).toThrow(/"nope" is not in the tree/);
  });

  it('keeps a node visible with a warning when classification throws', () => {
    const model = new NodeTreeModel({
      classify: () => {
        throw new Error('boom');
      },
      now: () => NOW,
    });
    model.setContexts([{ name: 'c', isCurrent: true }]);
    const source = new FakeNodeSource('c');
    model.attach(source);
    source.list([ready('a')]);
    const entry = model.group('c')!.get('a')!;
    expect(entry.classification.verdict).toBe('not-ready-other');
    expect(entry.classification.warnings).toEqual(['classification failed: boom']);
  });
});
