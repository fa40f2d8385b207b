import { describe, expect, it } from 'vitest';
import { nodeTable, shortAge, wantsTable } from '../../../src/demo/apiServer/nodeTable';
import { makeFleet, makeNode, withCordoned, withLeaseLost, withNetworkNotReady, withPlegNotReady, withReady, withRuntimeDown } from '../../../src/demo/nodeFactory';

const at = new Date('2026-11-22T03:10:00Z');
const base = makeNode({ name: 'n1', now: new Date('2026-11-22T03:00:00Z') });

function ready(node: ReturnType<typeof makeNode>) {
  return node.status?.conditions?.find((c) => c.type === 'Ready');
}

describe('nodeFactory', () => {
  it('is deterministic, realistic in size, healthy by default', () => {
    expect(JSON.stringify(makeNode({ name: 'n1', now: new Date('2026-11-22T03:00:00Z') }))).toBe(JSON.stringify(base));
    const size = JSON.stringify(base).length;
    expect(size).toBeGreaterThan(10_000);
    expect(size).toBeLessThan(25_000);
    expect(ready(base)).toMatchObject({ status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' });
    expect(base.status?.conditions?.map((c) => c.type)).toEqual(['MemoryPressure', 'DiskPressure', 'PIDPressure', 'Ready']);
  });

  it('turns a node PLEG-NotReady with the kubelet message and not-ready taints', () => {
    const sick = withPlegNotReady(base, { at });
    expect(ready(sick)).toMatchObject({
      status: 'False',
      reason: 'KubeletNotReady',
      message: 'PLEG is not healthy: pleg was last seen active 3m4.612899233s ago; threshold is 3m0s',
      lastTransitionTime: '2026-11-22T03:10:00Z',
    });
    expect(sick.spec?.taints?.map((t) => `${t.key}:${t.effect}`)).toEqual(['node.kubernetes.io/not-ready:NoSchedule', 'node.kubernetes.io/not-ready:NoExecute']);
    expect(ready(base)?.status).toBe('True'); // the input is not mutated
  });

  it('lease-lost sets every kubelet condition Unknown and the unreachable taint', () => {
    const lost = withLeaseLost(withPlegNotReady(base, { at }), at);
    expect(new Set(lost.status?.conditions?.map((c) => `${c.status}/${c.reason}/${c.message}`))).toEqual(new Set(['Unknown/NodeStatusUnknown/Kubelet stopped posting node status.']));
    expect(lost.spec?.taints?.map((t) => t.key)).toEqual(['node.kubernetes.io/unreachable', 'node.kubernetes.io/unreachable']);
  });

  it('runtime-down and network forms', () => {
    expect(ready(withRuntimeDown(base, { at }))?.message).toBe('container runtime is down');
    expect(ready(withRuntimeDown(base, { at, withPleg: true }))?.message).toMatch(/^\[container runtime is down, PLEG is not healthy: /);
    const net = withNetworkNotReady(base, at);
    expect(ready(net)?.message).toContain('NetworkReady=false reason:NetworkPluginNotReady');
    expect(net.status?.conditions?.[0]).toMatchObject({ type: 'NetworkUnavailable', status: 'True' });
  });

  it('withReady heals', () => {
    const healed = withReady(withNetworkNotReady(withPlegNotReady(base, { at }), at), at);
    expect(ready(healed)).toMatchObject({ status: 'True', reason: 'KubeletReady' });
    expect(healed.spec?.taints).toBeUndefined();
    expect(healed.status?.conditions?.some((c) => c.type === 'NetworkUnavailable')).toBe(false);
  });

  it('makeFleet names and sickness', () => {
    const fleet = makeFleet(10, { plegEvery: 5, imageCount: 1 });
    expect(fleet.map((n) => n.metadata?.name).slice(0, 2)).toEqual(['node-00001', 'node-00002']);
    expect(fleet.filter((n) => ready(n)?.status === 'False').map((n) => n.metadata?.name)).toEqual(['node-00005', 'node-00010']);
  });
});

describe('nodeTable (kubectl server-side printing)', () => {
  it('prints status, roles and age like kubectl', () => {
    const now = new Date('2026-11-22T03:00:00Z');
    expect(['2026-11-22T02:59:15Z', '2026-11-22T02:30:00Z', '2026-11-21T03:00:00Z', '2026-10-01T00:00:00Z'].map((t) => shortAge(t, now))).toEqual(['45s', '30m', '24h', '52d']);
    expect(wantsTable('application/json;as=Table;v=v1;g=meta.k8s.io,application/json')).toBe(true);
    expect(wantsTable('application/json')).toBe(false);
    const table = nodeTable([withCordoned(withPlegNotReady(base, { at }), at)], { resourceVersion: '7' }, null, now) as { rows: { cells: string[] }[] };
    expect(table.rows[0]?.cells.slice(0, 3)).toEqual(['n1', 'NotReady,SchedulingDisabled', 'worker']);
  });
});
