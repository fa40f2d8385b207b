import { describe, expect, it } from 'vitest';
import { validateNodeAccessClusters } from '../../../../src/infra/ssh/nodeAccessSettings';
import {
  buildNodeAccessUpdate, criEndpointProblem, homeRelative, jumpHostProblem, looksLikePrivateKey, mergeClusters, mergeIdentityFiles, parsePort, portProblem, UnmergeableSettingsError,
  userProblem, type CurrentNodeAccessValues, type NodeAccessAnswers,
} from '../../../../src/host/nodeAccess/configureNodeAccessModel';

const expand = (p: string): string => p.replace(/^~\//, '/home/me/');
const none: CurrentNodeAccessValues = { clusters: undefined, identityFiles: undefined, criEndpoint: undefined, useSshAgent: true };

describe('answer validation reuses the settings validator', () => {
  it('accepts empty optional answers and good values', () => {
    for (const text of ['', '  ']) {
      expect(userProblem('prod', text)).toBeUndefined();
      expect(portProblem('prod', text)).toBeUndefined();
      expect(jumpHostProblem('prod', text)).toBeUndefined();
      expect(criEndpointProblem(text)).toBeUndefined();
    }
    expect(userProblem('prod', 'core')).toBeUndefined();
    expect(portProblem('prod', '2222')).toBeUndefined();
    expect(jumpHostProblem('prod', 'ops@bastion.example.com:22,jump2')).toBeUndefined();
    expect(jumpHostProblem('prod', 'none')).toBeUndefined();
    expect(criEndpointProblem('unix:///run/containerd/containerd.sock')).toBeUndefined();
    expect(criEndpointProblem('/run/crio/crio.sock')).toBeUndefined();
  });

  it('gives the validator\'s own message, without the setting path in front', () => {
    // The same text a hand-written settings.json would get, minus `plegDoctor.nodeAccess.clusters["prod"].`.
    const raw = validateNodeAccessClusters({ prod: { user: '-oProxyCommand=x' } }).problems[0]!.message;
    expect(userProblem('prod', '-oProxyCommand=x')).toBe(raw.replace('plegDoctor.nodeAccess.clusters["prod"].', ''));
    expect(userProblem('prod', '-oProxyCommand=x')).toMatch(/^user must be a user name/);
    expect(userProblem('prod', 'a b')).toMatch(/^user must be a user name .*"a b"/);
    expect(portProblem('prod', '0')).toBe('port must be an integer 1–65535, got 0');
    expect(portProblem('prod', '70000')).toBe('port must be an integer 1–65535, got 70000');
    expect(portProblem('prod', 'ssh')).toBe('port must be an integer 1–65535, got "ssh"');
    expect(portProblem('prod', '22.5')).toBe('port must be an integer 1–65535, got "22.5"');
    expect(jumpHostProblem('prod', 'ops@-bastion')).toMatch(/^jumpHost /);
    expect(criEndpointProblem('tcp://10.0.0.1:1234')).toMatch(/must be a unix socket .*"tcp:\/\/10.0.0.1:1234"/);
  });

  it('parses ports as numbers only when they are digits', () => {
    expect(parsePort(' 22 ')).toBe(22);
    expect(parsePort('')).toBeUndefined();
    expect(parsePort('2x')).toBe('2x');
  });
});

describe('mergeClusters', () => {
  const answers: NodeAccessAnswers = { context: 'prod', user: 'core', port: 2222, jumpHost: 'ops@bastion', sudo: true, criEndpoint: '' };

  it('creates the entry when there are no settings yet', () => {
    expect(mergeClusters(undefined, answers)).toEqual({ prod: { user: 'core', port: 2222, jumpHost: 'ops@bastion', sudo: true } });
    expect(mergeClusters(null, answers)).toEqual({ prod: { user: 'core', port: 2222, jumpHost: 'ops@bastion', sudo: true } });
  });

  it('keeps other contexts, per-node entries and hostTemplate; empty answers remove the key', () => {
    const before = {
      staging: { user: 'ubuntu', nodes: { s1: { host: '10.0.0.9' } } },
      prod: { user: 'old', port: 22, jumpHost: 'old-bastion', sudo: false, hostTemplate: '{name}.example.com', nodes: { n7: { host: '10.20.0.7', port: 2222 } } },
    };
    const after = mergeClusters(before, { context: 'prod', user: 'core', sudo: true, criEndpoint: '' });
    expect(after).toEqual({
      staging: { user: 'ubuntu', nodes: { s1: { host: '10.0.0.9' } } },
      prod: { user: 'core', sudo: true, hostTemplate: '{name}.example.com', nodes: { n7: { host: '10.20.0.7', port: 2222 } } },
    });
    // The input is not modified (VS Code hands out its own objects).
    expect(before.prod.user).toBe('old');
    expect(validateNodeAccessClusters(after).problems).toEqual([]);
  });

  it('replaces a context entry that is not an object', () => {
    expect(mergeClusters({ prod: 'oops', other: {} }, answers)).toEqual({ other: {}, prod: { user: 'core', port: 2222, jumpHost: 'ops@bastion', sudo: true } });
  });

  it('refuses to merge into a clusters value that is not an object', () => {
    expect(() => mergeClusters(['prod'], answers)).toThrow(UnmergeableSettingsError);
    expect(() => mergeClusters('prod', answers)).toThrow(/is not an object \(it is string\)/);
  });
});

describe('identity files', () => {
  it('appends a new key and keeps the existing ones', () => {
    expect(mergeIdentityFiles(['~/.ssh/a'], '~/.ssh/b', expand)).toEqual(['~/.ssh/a', '~/.ssh/b']);
    expect(mergeIdentityFiles(undefined, '~/.ssh/b', expand)).toEqual(['~/.ssh/b']);
  });

  it('does not add a key that is already listed, however it is written', () => {
    expect(mergeIdentityFiles(['/home/me/.ssh/a'], '~/.ssh/a', expand)).toBeUndefined();
    expect(mergeIdentityFiles(['~/.ssh/a'], '~/.ssh/a', expand)).toBeUndefined();
  });

  it('writes paths under the home directory as ~/…', () => {
    expect(homeRelative('/home/me/.ssh/id_ed25519', '/home/me')).toBe('~/.ssh/id_ed25519');
    expect(homeRelative('/home/me/.ssh/id_ed25519', '/home/me/')).toBe('~/.ssh/id_ed25519');
    expect(homeRelative('/home/meow/.ssh/k', '/home/me')).toBe('/home/meow/.ssh/k');
    expect(homeRelative('/etc/keys/k', '/home/me')).toBe('/etc/keys/k');
  });

  it('recognises private keys by their first line', () => {
    expect(looksLikePrivateKey('-----BEGIN OPENSSH PRIVATE KEY-----\nb3Bl')).toBe(true);
    expect(looksLikePrivateKey('-----BEGIN RSA PRIVATE KEY-----')).toBe(true);
    expect(looksLikePrivateKey('-----BEGIN EC PRIVATE KEY-----')).toBe(true);
    expect(looksLikePrivateKey('-----BEGIN PRIVATE KEY-----')).toBe(true);
    expect(looksLikePrivateKey('-----BEGIN ENCRYPTED PRIVATE KEY-----')).toBe(true);
    expect(looksLikePrivateKey('ssh-ed25519 AAAAC3Nz me@host')).toBe(false);
    expect(looksLikePrivateKey('Host *\n  User core')).toBe(false);
    expect(looksLikePrivateKey('-----BEGIN CERTIFICATE-----')).toBe(false);
  });
});

describe('buildNodeAccessUpdate', () => {
  it('writes only the cluster entry when the key and endpoint are unchanged', () => {
    const update = buildNodeAccessUpdate(
      { clusters: {}, identityFiles: ['~/.ssh/k'], criEndpoint: 'unix:///run/containerd/containerd.sock', useSshAgent: true },
      { context: 'prod', user: 'core', sudo: false, identityFile: '/home/me/.ssh/k', criEndpoint: ' unix:///run/containerd/containerd.sock ' },
      expand,
    );
    expect(update).toEqual({ clusters: { prod: { user: 'core', sudo: false } } });
  });

  it('adds the key, sets the endpoint and removes it again when emptied', () => {
    const added = buildNodeAccessUpdate(none, { context: 'prod', sudo: true, identityFile: '~/.ssh/nodes', criEndpoint: '/run/crio/crio.sock' }, expand);
    expect(added).toEqual({ clusters: { prod: { sudo: true } }, identityFiles: ['~/.ssh/nodes'], criEndpoint: { value: '/run/crio/crio.sock' } });
    const removed = buildNodeAccessUpdate({ ...none, criEndpoint: '/run/crio/crio.sock' }, { context: 'prod', sudo: true, criEndpoint: '' }, expand);
    expect(removed.criEndpoint).toEqual({ value: undefined });
  });

  it('"ssh-agent only" leaves the identity files alone and turns the agent on if it was off', () => {
    const on = buildNodeAccessUpdate({ ...none, identityFiles: ['~/.ssh/a'] }, { context: 'prod', sudo: false, criEndpoint: '' }, expand);
    expect(on.identityFiles).toBeUndefined();
    expect(on.useSshAgent).toBeUndefined();
    const off = buildNodeAccessUpdate({ ...none, useSshAgent: false }, { context: 'prod', sudo: false, criEndpoint: '' }, expand);
    expect(off.useSshAgent).toBe(true);
  });

  it('refuses answers the validator rejects', () => {
    expect(() => buildNodeAccessUpdate(none, { context: 'prod', user: 'a b', sudo: false, criEndpoint: '' }, expand)).toThrow(/user must be a user name/);
    expect(() => buildNodeAccessUpdate(none, { context: 'prod', port: 0, sudo: false, criEndpoint: '' }, expand)).toThrow(/port must be an integer/);
    expect(() => buildNodeAccessUpdate(none, { context: 'prod', sudo: false, criEndpoint: 'http://x' }, expand)).toThrow(/unix socket/);
  });
});
