import { describe, expect, it } from 'vitest';
import type { KubeNode } from '../../../../src/core/kube/objects';
import { NodeTargetError, resolveNodeTarget, toHostRequest } from '../../../../src/infra/ssh/nodeTarget';

function node(name: string, addresses: Array<[string, string]>): KubeNode {
  return { metadata: { name }, status: { addresses: addresses.map(([type, address]) => ({ type, address })) } };
}

const n1 = node('worker-1', [
  ['Hostname', 'worker-1'],
  ['ExternalIP', '203.0.113.9'],
  ['InternalIP', '10.0.0.11'],
]);

describe('resolveNodeTarget', () => {
  it('prefers InternalIP, then ExternalIP, then Hostname', () => {
    expect(resolveNodeTarget(n1, 'prod', undefined)).toEqual({ nodeName: 'worker-1', host: '10.0.0.11', addressSource: 'InternalIP', sudo: false });
    expect(resolveNodeTarget(node('a', [['Hostname', 'a.local'], ['ExternalIP', '198.51.100.1']]), 'c', undefined).host).toBe('198.51.100.1');
    expect(resolveNodeTarget(node('a', [['Hostname', 'a.local']]), 'c', undefined)).toMatchObject({ host: 'a.local', addressSource: 'Hostname' });
  });

  it('applies cluster settings and per-node overrides (an ssh_config alias may be the host)', () => {
    const settings = {
      clusters: {
        prod: { user: 'ops', port: 2222, jumpHost: 'bastion', sudo: true, nodes: { 'worker-1': { host: 'w1-alias', user: 'root' } } },
      },
    };
    expect(resolveNodeTarget(n1, 'prod', settings)).toEqual({
      nodeName: 'worker-1',
      host: 'w1-alias',
      addressSource: 'node-override',
      port: 2222,
      user: 'root',
      jumpHost: 'bastion',
      sudo: true,
    });
    expect(resolveNodeTarget(n1, 'staging', settings).addressSource).toBe('InternalIP');
  });

  it('fills a host template', () => {
    const settings = { clusters: { prod: { hostTemplate: '{name}.nodes.example.com' } } };
    expect(resolveNodeTarget(n1, 'prod', settings)).toMatchObject({ host: 'worker-1.nodes.example.com', addressSource: 'host-template' });
    expect(() => resolveNodeTarget(node('x', []), 'prod', { clusters: { prod: { hostTemplate: '{internalIP}' } } })).toThrow(/token \{internalIP\} has no value/);
  });

  it('refuses cluster-supplied addresses that are not host names', () => {
    for (const bad of ['10.0.0.1; rm -rf /', '-oProxyCommand=x', '$(id)', 'a b', '']) {
      const target = (): unknown => resolveNodeTarget(node('evil', [['InternalIP', bad]]), 'c', undefined);
      if (bad === '') expect(target).toThrow(/no InternalIP/);
      else expect(target).toThrow(NodeTargetError);
    }
    expect(() => resolveNodeTarget(node('evil;id', []), 'c', { clusters: { c: { hostTemplate: '{name}.x' } } })).toThrow(/not a usable host/);
  });

  it('accepts IPv6 literals and rejects bad ports', () => {
    expect(resolveNodeTarget(node('v6', [['InternalIP', 'fd00::1']]), 'c', undefined).host).toBe('fd00::1');
    expect(() => resolveNodeTarget(n1, 'c', { clusters: { c: { port: 70000 } } })).toThrow(/invalid port/);
  });

  it('builds the ssh_config request', () => {
    const target = resolveNodeTarget(n1, 'prod', { clusters: { prod: { user: 'ops', jumpHost: 'b' } } });
    expect(toHostRequest(target, ['/k'])).toEqual({ host: '10.0.0.11', user: 'ops', jumpHost: 'b', identityFiles: ['/k'] });
  });
});
