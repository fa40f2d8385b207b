// Host key verification against the real sshd: trusted, hashed, changed, unknown (refused and accepted).
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SshConnection } from '../../../src/infra/ssh/connection';
import { HostKeyChangedError, HostKeyUnknownError } from '../../../src/infra/ssh/errors';
import type { UnknownHostQuestion } from '../../../src/infra/ssh/hostVerifier';
import { connect, neverAsked, removeScratch, scratchDir, stack } from './kit';

const env = stack();
const open: SshConnection[] = [];
afterAll(() => {
  for (const connection of open) connection.close();
  removeScratch();
});
function track(connection: SshConnection): SshConnection {
  open.push(connection);
  return connection;
}

const hostKeyFingerprint = execFileSync('ssh-keygen', ['-lf', env.sshHostKeyPub], { encoding: 'utf8' }).split(' ')[1] ?? '';

describe('host keys', () => {
  it('trusts a hashed known_hosts entry made by ssh-keygen -H', async () => {
    const dir = scratchDir();
    const hashed = join(dir, 'known_hosts');
    copyFileSync(env.sshKnownHosts, hashed);
    execFileSync('ssh-keygen', ['-H', '-f', hashed], { stdio: 'ignore' });
    expect(readFileSync(hashed, 'utf8')).toMatch(/^\|1\|/);
    const ssh = track(connect(env, { knownHosts: { readOnly: [hashed], own: join(dir, 'own') } }));
    expect((await ssh.exec(['true'], { timeoutMs: 10_000 })).exitCode).toBe(0);
  });

  it('refuses a changed key without asking, loudly naming the known_hosts line', async () => {
    const dir = scratchDir();
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'impostor')]);
    const wrong = readFileSync(join(dir, 'impostor.pub'), 'utf8').split(' ').slice(0, 2).join(' ');
    const file = join(dir, 'known_hosts');
    writeFileSync(file, `# first line\n[${env.sshHost}]:${env.sshPort} ${wrong}\n`);
    const ssh = track(connect(env, { knownHosts: { readOnly: [file], own: join(dir, 'own') }, confirmUnknownHost: neverAsked }));
    const error = await ssh.exec(['true'], { timeoutMs: 10_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HostKeyChangedError);
    expect((error as Error).message).toMatch(/REMOTE HOST IDENTIFICATION HAS CHANGED/);
    expect((error as Error).message).toContain(`${file}:2`);
    expect((error as HostKeyChangedError).facts.fingerprint).toBe(hostKeyFingerprint);
    expect(existsSync(join(dir, 'own'))).toBe(false);
  });

  it('refuses an unknown key when the confirmation says no, and writes nothing', async () => {
    const dir = scratchDir();
    const questions: UnknownHostQuestion[] = [];
    const own = join(dir, 'own');
    const ssh = track(
      connect(env, {
        knownHosts: { readOnly: [join(dir, 'absent')], own },
        confirmUnknownHost: (q) => {
          questions.push(q);
          return Promise.resolve(false);
        },
      }),
    );
    const error = await ssh.exec(['true'], { timeoutMs: 10_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HostKeyUnknownError);
    expect(questions).toEqual([{ host: env.sshHost, port: env.sshPort, keyType: 'ssh-ed25519', fingerprint: hostKeyFingerprint }]);
    expect(existsSync(own)).toBe(false);
  });

  it('remembers an accepted key in its own file and trusts it next time without asking', async () => {
    const dir = scratchDir();
    const own = join(dir, 'globalStorage', 'known_hosts');
    const knownHosts = { readOnly: [join(dir, 'absent')], own };
    // A slow decision must not be cut short by the connect deadline.
    const first = track(connect(env, { knownHosts, connectTimeoutMs: 1_000, confirmUnknownHost: () => new Promise((r) => setTimeout(() => r(true), 1_500)) }));
    expect((await first.exec(['true'], { timeoutMs: 10_000 })).exitCode).toBe(0);
    const hostKey = readFileSync(env.sshHostKeyPub, 'utf8').split(' ').slice(0, 2).join(' ');
    expect(readFileSync(own, 'utf8')).toBe(`[${env.sshHost}]:${env.sshPort} ${hostKey}\n`);
    const second = track(connect(env, { knownHosts, confirmUnknownHost: neverAsked }));
    expect((await second.exec(['true'], { timeoutMs: 10_000 })).exitCode).toBe(0);
  });
});
