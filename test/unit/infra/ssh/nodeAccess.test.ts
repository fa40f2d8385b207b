import { describe, expect, it } from 'vitest';
import { refuseUnknownHosts } from '../../../../src/infra/ssh/hostVerifier';
import { NodeAccess } from '../../../../src/infra/ssh/nodeAccess';
import { SshPool } from '../../../../src/infra/ssh/pool';

describe('NodeAccess', () => {
  it('maps a node through settings and ssh config to one pooled connection (nothing connects until used)', () => {
    const pool = new SshPool({ knownHosts: { readOnly: [], own: '/nonexistent/own' }, confirmUnknownHost: refuseUnknownHosts, auth: {} });
    const access = new NodeAccess({
      pool,
      settings: () => ({ clusters: { prod: { user: 'ops', nodes: { 'worker-2': { host: 'w2' } } } } }),
      sshConfig: () => ({ configText: 'Host w2\n  HostName 10.9.0.2\n  ProxyJump bastion\nHost bastion\n  User jump\n', homeDir: '/home/sre', localUser: 'sre' }),
    });
    const node = { metadata: { name: 'worker-2' }, status: { addresses: [{ type: 'InternalIP', address: '10.0.0.2' }] } };
    const first = access.connectionFor(node, 'prod');
    expect(first.host.description).toBe('ops@10.9.0.2:22');
    expect(first.plan.jumps.map((h) => `${h.user}@${h.host}`)).toEqual(['jump@bastion']);
    expect(first.plan.target.identityFiles).toEqual(['/home/sre/.ssh/id_ed25519', '/home/sre/.ssh/id_ecdsa', '/home/sre/.ssh/id_rsa']);
    expect(access.connectionFor(node, 'prod').host).toBe(first.host);
    expect(pool.size).toBe(2);
    expect(first.host.connected).toBe(false);
    access.dispose();
    expect(pool.size).toBe(0);
  });
});
