// OpenSSH's authentication order on the real sshd of the node stack, with a real ssh-agent started here:
// agent keys first, then identity files; an encrypted key is offered by its public half and its passphrase
// asked for only when the server accepts that key; a wrong passphrase is asked again (three tries), then
// the next key is tried instead of failing the connection.

import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createPrivateKey } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { utils } from 'ssh2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PassphraseQuestion } from '../../../src/infra/ssh/auth';
import type { SshConnection } from '../../../src/infra/ssh/connection';
import { SshAuthError } from '../../../src/infra/ssh/errors';
import { MemorySecretStore, passphraseSecretKey } from '../../../src/infra/ssh/secrets';
import { connect, removeScratch, scratchDir, stack } from './kit';

const env = stack();
const open: SshConnection[] = [];
let agent: ChildProcess | undefined;
let agentSocket = '';

/** A fresh encrypted key the server does not know (a few KDF rounds keep unlocking quick). */
function strangerKey(dir: string, name: string, passphrase: string): string {
  const path = join(dir, name);
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-a', '4', '-N', passphrase, '-C', name, '-f', path]);
  // Only the embedded public key may be used: no .pub beside it.
  rmSync(`${path}.pub`);
  return path;
}

/** A copy of the key the node stack authorizes, encrypted with `passphrase`. */
function acceptedKey(dir: string, name: string, passphrase: string): string {
  const path = join(dir, name);
  copyFileSync(env.sshKey, path);
  chmodSync(path, 0o600);
  execFileSync('ssh-keygen', ['-q', '-p', '-a', '4', '-P', '', '-N', passphrase, '-f', path]);
  return path;
}

/** The key the node stack authorizes, as OpenSSL writes keys: PKCS#8 PEM, encrypted when `passphrase` is given. */
function acceptedPkcs8Key(dir: string, name: string, passphrase?: string): string {
  const parsed = utils.parseKey(readFileSync(env.sshKey));
  if (parsed instanceof Error || Array.isArray(parsed)) throw new Error(`the node stack's key does not parse: ${String(parsed)}`);
  const key = createPrivateKey(parsed.getPrivatePEM());
  const pem = passphrase === undefined ? key.export({ type: 'pkcs8', format: 'pem' }) : key.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase });
  const path = join(dir, name);
  writeFileSync(path, pem, { mode: 0o600 });
  return path;
}

function recorder(answers: Record<string, string[]>): { asked: string[]; getPassphrase: (path: string, q?: PassphraseQuestion) => Promise<string | undefined> } {
  const asked: string[] = [];
  const left = Object.fromEntries(Object.entries(answers).map(([k, v]) => [k, [...v]]));
  return {
    asked,
    getPassphrase: (path, question) => {
      const name = path.slice(path.lastIndexOf('/') + 1);
      asked.push(`${name}#${question?.attempt ?? '?'}${question?.retry === true ? ' retry' : ''}`);
      return Promise.resolve(left[name]?.shift());
    },
  };
}

function track(connection: SshConnection): SshConnection {
  open.push(connection);
  return connection;
}

beforeAll(async () => {
  const dir = scratchDir();
  agentSocket = join(dir, 'agent.sock');
  // -D: stay in the foreground, so the test owns the process and ends it by its PID.
  agent = spawn('ssh-agent', ['-D', '-a', agentSocket], { stdio: 'ignore' });
  for (let i = 0; i < 100 && !existsSync(agentSocket); i++) await new Promise((r) => setTimeout(r, 20));
  if (!existsSync(agentSocket)) throw new Error('ssh-agent did not create its socket');
  const key = join(dir, 'agent_key');
  copyFileSync(env.sshKey, key);
  chmodSync(key, 0o600);
  execFileSync('ssh-add', ['-q', key], { env: { ...process.env, SSH_AUTH_SOCK: agentSocket }, stdio: 'ignore' });
});

afterAll(() => {
  for (const c of open) c.close();
  if (agent?.pid !== undefined && agent.exitCode === null) process.kill(agent.pid, 'SIGTERM');
  removeScratch();
});

describe('authentication order on the real sshd', () => {
  it('with a working agent and five encrypted keys (one of them accepted), asks for nothing', async () => {
    const dir = scratchDir();
    const keys = [strangerKey(dir, 'k1', 'p1'), strangerKey(dir, 'k2', 'p2'), acceptedKey(dir, 'k3', 'p3'), strangerKey(dir, 'k4', 'p4'), strangerKey(dir, 'k5', 'p5')];
    const prompts = recorder({});
    const ssh = track(connect(env, { identityFiles: keys, auth: { agentSocket, getPassphrase: prompts.getPassphrase } }));
    const result = await ssh.exec(['id', '-un'], { timeoutMs: 15_000 });
    expect(result.stdout.trim()).toBe(env.sshUser);
    expect(prompts.asked).toEqual([]);
  });

  it('without the agent, asks only for the one encrypted key the server accepts', async () => {
    const dir = scratchDir();
    const keys = [strangerKey(dir, 'k1', 'p1'), strangerKey(dir, 'k2', 'p2'), strangerKey(dir, 'k3', 'p3'), strangerKey(dir, 'k4', 'p4'), acceptedKey(dir, 'k5', 'p5')];
    const secrets = new MemorySecretStore();
    const prompts = recorder({ k5: ['p5'] });
    const ssh = track(connect(env, { identityFiles: keys, auth: { getPassphrase: prompts.getPassphrase, secrets } }));
    expect((await ssh.exec(['id', '-un'], { timeoutMs: 15_000 })).stdout.trim()).toBe(env.sshUser);
    expect(prompts.asked).toEqual(['k5#1']);
    expect(await secrets.get(passphraseSecretKey(keys[4] ?? ''))).toBe('p5');
  });

  it('an agent whose keys the server refuses comes first, then the identity file is asked for', async () => {
    const dir = scratchDir();
    const other = join(scratchDir(), 'other-agent.sock');
    const otherAgent = spawn('ssh-agent', ['-D', '-a', other], { stdio: 'ignore' });
    try {
      for (let i = 0; i < 100 && !existsSync(other); i++) await new Promise((r) => setTimeout(r, 20));
      const unrelated = join(dir, 'unrelated');
      execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', unrelated]);
      execFileSync('ssh-add', ['-q', unrelated], { env: { ...process.env, SSH_AUTH_SOCK: other }, stdio: 'ignore' });
      const prompts = recorder({ k1: ['p1'] });
      const ssh = track(connect(env, { identityFiles: [acceptedKey(dir, 'k1', 'p1')], auth: { agentSocket: other, getPassphrase: prompts.getPassphrase } }));
      expect((await ssh.exec(['true'], { timeoutMs: 15_000 })).exitCode).toBe(0);
      expect(prompts.asked).toEqual(['k1#1']);
    } finally {
      if (otherAgent.pid !== undefined) process.kill(otherAgent.pid, 'SIGTERM');
    }
  });

  it('a wrong passphrase is asked again three times, then the next key is tried instead of failing', async () => {
    const dir = scratchDir();
    const keys = [acceptedKey(dir, 'first', 'right-1'), acceptedKey(dir, 'second', 'right-2')];
    const prompts = recorder({ first: ['nope', 'nope', 'nope'], second: ['right-2'] });
    const ssh = track(connect(env, { identityFiles: keys, auth: { getPassphrase: prompts.getPassphrase } }));
    expect((await ssh.exec(['id', '-un'], { timeoutMs: 15_000 })).stdout.trim()).toBe(env.sshUser);
    expect(prompts.asked).toEqual(['first#1', 'first#2 retry', 'first#3 retry', 'second#1']);
  });

  it('the right passphrase on the second try authenticates with that key', async () => {
    const dir = scratchDir();
    const prompts = recorder({ only: ['typo', 'right'] });
    const ssh = track(connect(env, { identityFiles: [acceptedKey(dir, 'only', 'right')], auth: { getPassphrase: prompts.getPassphrase } }));
    expect((await ssh.exec(['true'], { timeoutMs: 15_000 })).exitCode).toBe(0);
    expect(prompts.asked).toEqual(['only#1', 'only#2 retry']);
  });

  it('when every key is given up, the authentication error says why', async () => {
    const dir = scratchDir();
    const key = acceptedKey(dir, 'only', 'right');
    const prompts = recorder({ only: ['a', 'b', 'c'] });
    const ssh = track(connect(env, { identityFiles: [key], auth: { getPassphrase: prompts.getPassphrase } }));
    const error = await ssh.connect().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SshAuthError);
    expect((error as Error).message).toContain(`${key}: wrong passphrase 3 times`);
    expect(prompts.asked).toHaveLength(3);
  });

  it('PKCS#8 copies of the accepted key (OpenSSL’s format, which ssh2 alone refuses) authenticate: plain without asking, encrypted after its passphrase', async () => {
    const dir = scratchDir();
    const plain = acceptedPkcs8Key(dir, 'pkcs8');
    expect(readFileSync(plain, 'utf8')).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    const prompts = recorder({ pkcs8enc: ['p8'] });
    const ssh = track(connect(env, { identityFiles: [plain], auth: { getPassphrase: prompts.getPassphrase } }));
    expect((await ssh.exec(['id', '-un'], { timeoutMs: 15_000 })).stdout.trim()).toBe(env.sshUser);
    expect(prompts.asked).toEqual([]);

    const encrypted = acceptedPkcs8Key(dir, 'pkcs8enc', 'p8');
    expect(readFileSync(encrypted, 'utf8')).toMatch(/^-----BEGIN ENCRYPTED PRIVATE KEY-----/);
    const unlocked = track(connect(env, { identityFiles: [encrypted], auth: { getPassphrase: prompts.getPassphrase } }));
    expect((await unlocked.exec(['id', '-un'], { timeoutMs: 15_000 })).stdout.trim()).toBe(env.sshUser);
    expect(prompts.asked).toEqual(['pkcs8enc#1']);
  });

  it('an encrypted PEM key is offered by its .pub without asking; without a .pub it must be unlocked first', async () => {
    const dir = scratchDir();
    const pem = join(dir, 'legacy');
    execFileSync('ssh-keygen', ['-q', '-t', 'rsa', '-b', '2048', '-m', 'PEM', '-N', 'old-pass', '-f', pem]);
    const prompts = recorder({ legacy: ['old-pass'], k2: ['p2'] });
    const accepted = acceptedKey(dir, 'k2', 'p2');
    const withPub = track(connect(env, { identityFiles: [pem, accepted], auth: { getPassphrase: prompts.getPassphrase } }));
    expect((await withPub.exec(['true'], { timeoutMs: 15_000 })).exitCode).toBe(0);
    expect(prompts.asked).toEqual(['k2#1']);

    rmSync(`${pem}.pub`);
    prompts.asked.length = 0;
    const noPub = recorder({ legacy: ['old-pass'], k2: ['p2'] });
    const without = track(connect(env, { identityFiles: [pem, accepted], auth: { getPassphrase: noPub.getPassphrase } }));
    expect((await without.exec(['true'], { timeoutMs: 15_000 })).exitCode).toBe(0);
    expect(noPub.asked).toEqual(['legacy#1', 'k2#1']);
  });
});
