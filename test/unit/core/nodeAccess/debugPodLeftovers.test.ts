import { describe, expect, it } from 'vitest';
import { debugPodLeftovers, describeLeftovers } from '../../../../src/core/nodeAccess/debugPodLeftovers';

const now = Date.parse('2026-11-28T14:00:00Z');

describe('debugPodLeftovers', () => {
  it('keeps only the pods past creation + activeDeadlineSeconds', () => {
    const pods = [
      { name: 'pleg-doctor-debug-aaaaa', namespace: 'ns', node: 'n1', created: '2026-11-28T13:57:00Z', activeDeadlineSeconds: 120, phase: 'Failed' },
      { name: 'pleg-doctor-debug-bbbbb', namespace: 'ns', created: '2026-11-28T13:59:00Z', activeDeadlineSeconds: 120, phase: 'Running' },
      { name: 'pleg-doctor-debug-ccccc', namespace: 'ns', activeDeadlineSeconds: 120 },
    ];
    const left = debugPodLeftovers(pods, now);
    expect(left.map((p) => [p.name, p.overdueSeconds])).toEqual([['pleg-doctor-debug-aaaaa', 60]]);
    expect(describeLeftovers(left)).toBe(
      'debug pods past their deadline were left behind: ns/pleg-doctor-debug-aaaaa (node n1, Failed); remove them with: kubectl delete pod -n ns pleg-doctor-debug-aaaaa',
    );
    expect(describeLeftovers([])).toBeUndefined();
  });
});
