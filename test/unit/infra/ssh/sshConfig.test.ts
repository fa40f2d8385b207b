import { describe, expect, it } from 'vitest';
import { SshConfigError } from '../../../../src/infra/ssh/errors';
import { expandSshTokens, parseJumpSpec, resolveConnectionPlan } from '../../../../src/infra/ssh/sshConfig';

const config = `
Host bastion
  HostName bastion.example.com
  User jump
  Port 2200
  IdentityFile ~/.ssh/bastion_%r

Host inner
  HostName 10.1.0.5
  ProxyJump bastion

Host worker-*
  HostName %h.nodes.internal
  User admin
  ProxyJump bastion,inner
  IdentityFile ~/.ssh/%h_%u
  UserKnownHostsFile ~/.ssh/known_nodes

Host deep
  ProxyJump inner

Host loop-a
  ProxyJump loop-b
Host loop-b
  ProxyJump loop-a

Host legacy
  ProxyCommand ssh -W %h:%p bastion

Host *
  IdentityFile ~/.ssh/id_ed25519
`;

const context = { configText: config, homeDir: '/home/sre', localUser: 'sre' };

describe('resolveConnectionPlan', () => {
  it('applies HostName, User, Port and expands IdentityFile tokens, first value wins', () => {
    const plan = resolveConnectionPlan({ host: 'bastion' }, context);
    expect(plan.target).toEqual({
      alias: 'bastion',
      host: 'bastion.example.com',
      port: 2200,
      user: 'jump',
      identityFiles: ['/home/sre/.ssh/bastion_jump', '/home/sre/.ssh/id_ed25519'],
    });
    expect(plan.jumps).toEqual([]);
  });

  it('lets explicit options win over the config, as on the ssh command line', () => {
    const plan = resolveConnectionPlan({ host: 'bastion', user: 'root', port: 22, identityFiles: ['/k'] }, context);
    expect(plan.target).toMatchObject({ user: 'root', port: 22 });
    expect(plan.target.identityFiles).toEqual(['/k', '/home/sre/.ssh/bastion_root', '/home/sre/.ssh/id_ed25519']);
  });

  it('uses the address itself and the local user for hosts without a block', () => {
    const plan = resolveConnectionPlan({ host: '192.0.2.10' }, context);
    expect(plan.target).toMatchObject({ host: '192.0.2.10', port: 22, user: 'sre' });
  });

  it('resolves a single ProxyJump through the config', () => {
    const plan = resolveConnectionPlan({ host: 'inner' }, context);
    expect(plan.jumps.map((h) => `${h.user}@${h.host}:${h.port}`)).toEqual(['jump@bastion.example.com:2200']);
    expect(plan.target.host).toBe('10.1.0.5');
  });

  it('resolves a,b chains in order and ignores the later element’s own ProxyJump (as ssh -J does)', () => {
    const plan = resolveConnectionPlan({ host: 'worker-3' }, context);
    expect(plan.jumps.map((h) => h.alias)).toEqual(['bastion', 'inner']);
    expect(plan.target).toMatchObject({ host: 'worker-3.nodes.internal', user: 'admin' });
    expect(plan.target.identityFiles[0]).toBe('/home/sre/.ssh/worker-3.nodes.internal_sre');
    expect(plan.userKnownHostsFiles).toEqual(['/home/sre/.ssh/known_nodes']);
  });

  it('follows a jump host’s own ProxyJump recursively', () => {
    const plan = resolveConnectionPlan({ host: 'deep' }, context);
    expect(plan.jumps.map((h) => h.alias)).toEqual(['bastion', 'inner']);
  });

  it('accepts an explicit jump host spec and "none"', () => {
    const plan = resolveConnectionPlan({ host: 'node-9', jumpHost: 'ops@[2001:db8::1]:2022' }, context);
    expect(plan.jumps[0]).toMatchObject({ host: '2001:db8::1', port: 2022, user: 'ops' });
    expect(resolveConnectionPlan({ host: 'inner', jumpHost: 'none' }, context).jumps).toEqual([]);
  });

  it('detects ProxyJump loops', () => {
    expect(() => resolveConnectionPlan({ host: 'loop-a' }, context)).toThrow(/ProxyJump loop: loop-a → loop-b → loop-a/);
  });

  it('warns about ProxyCommand instead of silently ignoring it', () => {
    expect(resolveConnectionPlan({ host: 'legacy' }, context).warnings.join('\n')).toMatch(/ProxyCommand for legacy is not supported/);
  });

  it('never evaluates Match exec', () => {
    const text = 'Match exec "touch /tmp/should-not-exist-pleg"\n  User evil\n';
    const plan = resolveConnectionPlan({ host: 'x' }, { ...context, configText: text });
    expect(plan.target.user).toBe('sre');
    expect(plan.warnings.join('\n')).toMatch(/Match exec/);
  });

  it('works with no config at all', () => {
    expect(resolveConnectionPlan({ host: 'n' }, { ...context, configText: undefined }).target).toMatchObject({ host: 'n', user: 'sre', port: 22 });
  });

  it('rejects bad ports naming the directive', () => {
    expect(() => resolveConnectionPlan({ host: 'x' }, { ...context, configText: 'Host x\n  Port 99999\n' })).toThrow(SshConfigError);
  });
});

describe('tokens and jump specs', () => {
  const tokens = { home: '/h', localUser: 'me', host: 'n.example', remoteUser: 'root', port: 22, alias: 'n' };
  it('expands ~ and %-tokens, %% literally', () => {
    expect(expandSshTokens('~/.ssh/%h-%r-%u-%p-%n-%d-%%', tokens, 'IdentityFile')).toBe('/h/.ssh/n.example-root-me-22-n-/h-%');
  });
  it('rejects unknown tokens with the directive named', () => {
    expect(() => expandSshTokens('%C', tokens, 'IdentityFile')).toThrow(/IdentityFile "%C": unsupported token %C/);
  });
  it('parses jump specs', () => {
    expect(parseJumpSpec('a', 'x')).toEqual({ host: 'a' });
    expect(parseJumpSpec('u@a:2', 'x')).toEqual({ host: 'a', user: 'u', port: 2 });
    expect(parseJumpSpec('ssh://u@a:2', 'x')).toEqual({ host: 'a', user: 'u', port: 2 });
    expect(() => parseJumpSpec('a:0', 'x')).toThrow(/invalid port/);
  });
});
