import { describe, expect, it } from 'vitest';
import { makeNode, withCordoned, withPlegNotReady } from '../../../../src/demo/nodeFactory';
import { slimNode } from '../../../../src/infra/kube/slimNode';

describe('slimNode', () => {
  const full = withCordoned(withPlegNotReady(makeNode({ name: 'w1', now: new Date('2026-11-22T03:00:00Z') }), { at: new Date('2026-11-22T03:00:00Z') }));
  const wire = JSON.parse(JSON.stringify(full)) as unknown;
  const slim = slimNode(wire);

  it('keeps what classification and the tree read', () => {
    expect(slim.metadata?.name).toBe('w1');
    expect(slim.metadata?.labels?.['kubernetes.io/hostname']).toBe('w1');
    expect(slim.spec?.unschedulable).toBe(true);
    expect(slim.spec?.taints?.map((t) => `${t.key}:${t.effect}`)).toEqual([
      'node.kubernetes.io/not-ready:NoSchedule',
      'node.kubernetes.io/not-ready:NoExecute',
      'node.kubernetes.io/unschedulable:NoSchedule',
    ]);
    expect(slim.status?.conditions?.find((c) => c.type === 'Ready')).toMatchObject({
      status: 'False',
      reason: 'KubeletNotReady',
      message: 'PLEG is not healthy: pleg was last seen active 3m4.612899233s ago; threshold is 3m0s',
      lastTransitionTime: '2026-11-22T03:00:00Z',
    });
    expect(slim.status?.nodeInfo?.kubeletVersion).toBe('v1.32.4');
    expect(slim.status?.allocatable?.['pods']).toBe('110');
  });

  it('drops the bulk and is several times smaller', () => {
    const text = JSON.stringify(slim);
    expect(text).not.toContain('managedFields');
    expect(text).not.toContain('sha256:');
    expect(JSON.stringify(wire).length / text.length).toBeGreaterThan(3);
  });

  it('turns client-node Date objects into RFC 3339 strings and survives junk', () => {
    const withDate = slimNode({ metadata: { name: 'd', creationTimestamp: new Date('2026-01-02T03:04:05Z') } });
    expect(withDate.metadata?.creationTimestamp).toBe('2026-01-02T03:04:05.000Z');
    expect(slimNode(null)).toEqual({ metadata: {}, spec: {}, status: { nodeInfo: {} } });
    expect(slimNode({ status: { conditions: 'nope', addresses: [1, { type: 'InternalIP', address: '10.0.0.1' }] } }).status?.addresses).toEqual([{ type: 'InternalIP', address: '10.0.0.1' }]);
  });
});
