// The order OpenSSH uses, on the real sshd of the node stack: the host key is verified first, and only
// then is an encrypted identity file unlocked (its passphrase asked for and stored). Refusing the host key
// must never lead to a passphrase prompt.
import { execFileSync } from 'node:child_process';
import { copyFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HostKeyUnknownError } from '../../../src/infra/ssh/errors';
import { MemorySecretStore, passphraseSecretKey } from '../../../src/infra/ssh/secrets';
import type { SshConnection } from '../../../src/infra/ssh/connection';
import { connect, removeScratch, scratchDir, stack } from './kit';

const env = stack();
const open: SshConnection[] = [];
afterAll(() => {
  for (const c of open) c.close();
  removeScratch();
});

function encryptedKeyCopy(passphrase: string): string {
  const key = join(scratchDir(), 'id_encrypted');
  copyFileSync(env.sshKey, key);
  chmodSync(key, 0o600);
  execFileSync('ssh-keygen', ['-q', '-p', '-P', '', '-N', passphrase, '-f', key]);
  return key;
}

describe('authentication happens after the host key check', () => {
  it('asks for the passphrase only after the unknown host key was accepted, then stores it', async () => {
    const key = encryptedKeyCopy('correct horse');
    const events: string[] = [];
    const secrets = new MemorySecretStore();
    const ssh = connect(env, {
      identityFiles: [key],
      knownHosts: { readOnly: [], own: join(scratchDir(), 'own_known_hosts') },
      confirmUnknownHost: (q) => {
        events.push(`host-key ${q.fingerprint.slice(0, 7)}`);
        return Promise.resolve(true);
      },
      auth: {
        secrets,
        getPassphrase: (path) => {
          events.push(`passphrase ${path === key ? 'key' : path}`);
          return Promise.resolve('correct horse');
        },
      },
    });
    open.push(ssh);
    const result = await ssh.exec(['id', '-un'], { timeoutMs: 10_000 });
    expect(result.stdout.trim()).toBe(env.sshUser);
    expect(events).toEqual(['host-key SHA256:', 'passphrase key']);
    expect(await secrets.get(passphraseSecretKey(key))).toBe('correct horse');
  });

  it('never asks for the passphrase when the host key is refused', async () => {
    const key = encryptedKeyCopy('battery staple');
    let asked = 0;
    const ssh = connect(env, {
      identityFiles: [key],
      knownHosts: { readOnly: [], own: join(scratchDir(), 'own_known_hosts') },
      confirmUnknownHost: () => Promise.resolve(false),
      auth: {
        getPassphrase: () => {
          asked++;
          return Promise.resolve('battery staple');
        },
      },
    });
    open.push(ssh);
    await expect(ssh.connect()).rejects.toBeInstanceOf(HostKeyUnknownError);
    expect(asked).toBe(0);
  });

  it('a passphrase prompt longer than the connect timeout does not time the connection out', async () => {
    const key = encryptedKeyCopy('slow typist');
    const ssh = connect(env, {
      identityFiles: [key],
      connectTimeoutMs: 1_000,
      auth: { getPassphrase: () => new Promise((resolve) => setTimeout(() => resolve('slow typist'), 1_500)) },
    });
    open.push(ssh);
    const result = await ssh.exec(['true'], { timeoutMs: 10_000 });
    expect(result.exitCode).toBe(0);
  });
});
