import { describe, expect, it } from 'vitest';
import { englishText } from '../../../../src/core/tree/localize';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { demoKubeconfigYaml } from '../../../../src/demo/demoKubeconfig';
import { describeSnapshotFailure, isDemoCluster, type FailureContext } from '../../../../src/host/nodeAccess/snapshotFailure';
import { loadKubeconfigs } from '../../../../src/infra/kube/kubeconfig';
import { isDemoContext } from '../../../../src/host/nodeAccess/demoContext';
import type { ClusterSession } from '../../../../src/host/cluster/clusterSession';
import { silentLogger } from '../../../../src/core/util/logger';
import { TransportSelectionError } from '../../../../src/infra/cri/transports/select';
import { SudoCheckError } from '../../../../src/infra/nodeSnapshot/collectNodeSnapshot';
import {
  HostKeyChangedError,
  HostKeyRevokedError,
  HostKeyUnknownError,
  SshAbortedError,
  SshAuthError,
  SshConfigError,
  SshUnreachableError,
} from '../../../../src/infra/ssh/errors';
import { NodeTargetError } from '../../../../src/infra/ssh/nodeTarget';

const ctx: FailureContext = { node: 'n1', host: 'ops@10.0.0.7:22', ownKnownHosts: '/gs/known_hosts', cancelled: false };
const facts = { host: '10.0.0.7', port: 22, keyType: 'ssh-ed25519', fingerprint: 'SHA256:abc' };
const describeIt = (error: unknown, over: Partial<FailureContext> = {}): ReturnType<typeof describeSnapshotFailure> => describeSnapshotFailure(error, { ...ctx, ...over }, englishText);

describe('describeSnapshotFailure', () => {
  it('is quiet about a cancellation, whatever error it surfaced as', () => {
    expect(describeIt(new SshAbortedError('x', 'connecting'))).toEqual({ kind: 'cancelled' });
    expect(describeIt(new Error('CANCELLED'), { cancelled: true })).toEqual({ kind: 'cancelled' });
    expect(describeIt(Object.assign(new Error('aborted'), { name: 'AbortError' }))).toEqual({ kind: 'cancelled' });
  });

  it('a refused unknown key names the host and says the key was not accepted', () => {
    const shown = describeIt(new HostKeyUnknownError(facts));
    expect(shown).toEqual({
      kind: 'error',
      modal: false,
      message: 'CRI snapshot of n1: the SSH host key of 10.0.0.7:22 (ssh-ed25519 SHA256:abc) was not accepted, so PLEG Doctor did not connect. Nothing was saved.',
      actions: ['showLog'],
    });
  });

  it('a changed key is an error modal with the known_hosts line, offering our own file when the line is there', () => {
    const own = describeIt(new HostKeyChangedError(facts, { file: '/gs/known_hosts', line: 3 }));
    expect(own).toMatchObject({ kind: 'error', modal: true, actions: ['openTrustedHostKeys'] });
    if (own.kind !== 'error') throw new Error('expected an error');
    expect(own.message).toBe('The SSH host key of 10.0.0.7:22 has CHANGED: connection to node n1 refused');
    expect(own.detail).toContain('REMOTE HOST IDENTIFICATION HAS CHANGED');
    expect(own.detail).toContain('known_hosts line: /gs/known_hosts:3');

    const users = describeIt(new HostKeyChangedError(facts, { file: '/home/u/.ssh/known_hosts', line: 9 }));
    expect(users).toMatchObject({ kind: 'error', modal: true, actions: [] });
  });

  it('a revoked key is an error modal too', () => {
    const shown = describeIt(new HostKeyRevokedError(facts, { file: '/etc/ssh/ssh_known_hosts', line: 1 }));
    expect(shown).toMatchObject({ kind: 'error', modal: true, message: 'The SSH host key of 10.0.0.7:22 is REVOKED: connection to node n1 refused', actions: [] });
  });

  it('a node without a usable address offers the settings', () => {
    const shown = describeIt(new NodeTargetError('node "n1" reports no InternalIP, ExternalIP or Hostname address'), { host: undefined });
    expect(shown).toMatchObject({ kind: 'error', modal: false, actions: ['configure'] });
    if (shown.kind === 'error') expect(shown.message).toBe('CRI snapshot of n1: no SSH target: node "n1" reports no InternalIP, ExternalIP or Hostname address');
  });

  it.each([
    new SshAuthError('ops@10.0.0.7:22', ['ssh-agent']),
    new SudoCheckError('ops@10.0.0.7:22', 1, 'sudo: a password is required'),
    new TransportSelectionError('no CRI transport works on ops@10.0.0.7:22', [{ kind: 'unixSocket', ok: false, detail: 'refused' }]),
    new SshConfigError('ssh config /home/u/.ssh/config: bad', '/home/u/.ssh/config'),
    new Error('no CRI endpoint found on ops@10.0.0.7:22'),
  ])('names node, host and cause, and offers the settings: %s', (error) => {
    const shown = describeIt(error);
    expect(shown).toEqual({ kind: 'error', modal: false, message: `CRI snapshot of n1 (ops@10.0.0.7:22) failed: ${error.message}`, actions: ['configure', 'showLog'] });
  });

  it('a node that could not be reached says what the socket said, without "connection lost"', () => {
    const shown = describeIt(new SshUnreachableError('10.79.86.206:22', 'ECONNREFUSED'));
    expect(shown).toEqual({
      kind: 'error',
      modal: false,
      message: 'CRI snapshot of n1: could not connect to 10.79.86.206:22: connection refused (nothing listens on that port)',
      actions: ['configure', 'showLog'],
    });
    const timedOut = describeIt(new SshUnreachableError('10.79.86.206:22', 'connect-timeout', undefined, 10_000));
    if (timedOut.kind !== 'error') throw new Error('expected an error');
    expect(timedOut.message).toMatch(/^CRI snapshot of n1: could not connect to 10\.79\.86\.206:22: timed out after 10 s/);
  });

  it('in the demo, says that its nodes have no SSH and where the real node stack is explained', () => {
    const shown = describeIt(new SshUnreachableError('10.79.86.206:22', 'closed-before-greeting'), { demo: true });
    if (shown.kind !== 'error') throw new Error('expected an error');
    expect(shown.message).toMatch(/^CRI snapshot of n1: could not connect to 10\.79\.86\.206:22: the connection was accepted, then closed before the SSH server greeted/);
    expect(shown.message).toContain('This is the built-in demo: its nodes have made-up addresses and no SSH server.');
    expect(shown.message).toContain('"Node access (SSH and CRI)" → "Trying it on this machine"');
    expect(shown.actions).toEqual(['showLog']);
  });

  it('recognises the demo by the extension its kubeconfig carries, and nothing else as the demo', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pleg-demo-kc-'));
    try {
      const file = join(dir, 'config');
      writeFileSync(file, demoKubeconfigYaml([{ context: 'prod-eu', server: 'http://127.0.0.1:40001', token: 't' }]));
      expect(isDemoCluster(loadKubeconfigs([file], {}).contexts[0]?.cluster)).toBe(true);
      // The snapshot command finds the context's kubeconfig file through the session and reads the marker there.
      const session = (source: string | undefined) => ({ kube: { listContexts: () => [{ name: 'prod-eu', cluster: 'prod-eu', user: 'u', server: 's', isCurrent: true, ...(source !== undefined ? { source } : {}) }] } }) as unknown as ClusterSession;
      expect(isDemoContext(session(file), 'prod-eu', silentLogger)).toBe(true);
      expect(isDemoContext(session(undefined), 'prod-eu', silentLogger)).toBe(false);
      expect(isDemoContext(session(join(dir, 'missing')), 'prod-eu', silentLogger)).toBe(false);
      writeFileSync(file, JSON.stringify({ clusters: [{ name: 'c', cluster: { server: 'https://k:6443', extensions: [{ name: 'other', extension: {} }] } }], contexts: [{ name: 'c', context: { cluster: 'c', user: 'u' } }], users: [{ name: 'u', user: {} }] }));
      expect(isDemoCluster(loadKubeconfigs([file], {}).contexts[0]?.cluster)).toBe(false);
      expect(isDemoCluster(undefined)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says so when the host was not resolved yet', () => {
    const shown = describeIt(new SshConfigError('cannot read ssh config /x: EACCES', '/x'), { host: undefined });
    if (shown.kind !== 'error') throw new Error('expected an error');
    expect(shown.message).toBe('CRI snapshot of n1 ((host not resolved)) failed: cannot read ssh config /x: EACCES');
  });
});
