import { describe, expect, it } from 'vitest';
import { englishText } from '../../../src/core/tree/localize';
import { describeSnapshotFailure, type FailureContext } from '../../../src/host/nodeAccess/snapshotFailure';
import { TransportSelectionError } from '../../../src/infra/cri/transports/select';
import { SudoCheckError } from '../../../src/infra/nodeSnapshot/collectNodeSnapshot';
import {
  HostKeyChangedError,
  HostKeyRevokedError,
  HostKeyUnknownError,
  SshAbortedError,
  SshAuthError,
  SshConfigError,
  SshUnreachableError,
} from '../../../src/infra/ssh/errors';
import { NodeTargetError } from '../../../src/infra/ssh/nodeTarget';

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
    new SshUnreachableError('10.0.0.7:22', 'ECONNREFUSED'),
    new SudoCheckError('ops@10.0.0.7:22', 1, 'sudo: a password is required'),
    new TransportSelectionError('no CRI transport works on ops@10.0.0.7:22', [{ kind: 'unixSocket', ok: false, detail: 'refused' }]),
    new SshConfigError('ssh config /home/u/.ssh/config: bad', '/home/u/.ssh/config'),
    new Error('no CRI endpoint found on ops@10.0.0.7:22'),
  ])('names node, host and cause, and offers the settings: %s', (error) => {
    const shown = describeIt(error);
    expect(shown).toEqual({ kind: 'error', modal: false, message: `CRI snapshot of n1 (ops@10.0.0.7:22) failed: ${error.message}`, actions: ['configure', 'showLog'] });
  });

  it('says so when the host was not resolved yet', () => {
    const shown = describeIt(new SshConfigError('cannot read ssh config /x: EACCES', '/x'), { host: undefined });
    if (shown.kind !== 'error') throw new Error('expected an error');
    expect(shown.message).toBe('CRI snapshot of n1 ((host not resolved)) failed: cannot read ssh config /x: EACCES');
  });
});
