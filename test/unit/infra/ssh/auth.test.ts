import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { utils, type ParsedKey } from 'ssh2';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../../src/core/util/logger';
import { embeddedPublicKey, LockedKeyAgent, passphraseAttempts, prepareAuth, type AuthCandidate, type PassphraseQuestion, type UnlockContext } from '../../../../src/infra/ssh/auth';
import { MemorySecretStore, passphraseSecretKey } from '../../../../src/infra/ssh/secrets';
import { ed25519KeyPair, tempDirFactory } from '../../../support/sshTestKit';

const tempDir = tempDirFactory('pleg-auth-');

// One bcrypt round keeps the pure-JS KDF fast; the format is the same as ssh-keygen's.
const plainPair = ed25519KeyPair();
const encryptedPair = ed25519KeyPair({ passphrase: 'correct horse', cipher: 'aes256-ctr', rounds: 1 });

function keyFiles(): { plain: string; encrypted: string; dir: string } {
  const dir = tempDir();
  const plain = join(dir, 'id_plain');
  const encrypted = join(dir, 'id_encrypted');
  writeFileSync(plain, plainPair.private);
  writeFileSync(encrypted, encryptedPair.private);
  return { plain, encrypted, dir };
}

function parsed(text: string): ParsedKey {
  const key = utils.parseKey(text);
  if (key instanceof Error || Array.isArray(key)) throw new Error('test key does not parse');
  return key;
}

function encryptedCandidate(candidates: AuthCandidate[]): Extract<AuthCandidate, { type: 'encrypted' }> {
  const found = candidates.find((c) => c.type === 'encrypted');
  if (found?.type !== 'encrypted') throw new Error('no encrypted candidate');
  return found;
}

function context(extra: Partial<UnlockContext> = {}): UnlockContext & { notes: string[] } {
  const notes: string[] = [];
  return { note: (reason) => notes.push(reason), notes, ...extra };
}

describe('prepareAuth', () => {
  it('puts the agent first, then identity files in order, reports unusable ones, and asks nothing', async () => {
    const { plain, encrypted } = keyFiles();
    let asked = 0;
    const prepared = await prepareAuth(
      { agentSocket: '/run/agent.sock', identityFiles: ['/nope/id_rsa', plain, encrypted], getPassphrase: () => Promise.resolve(String(++asked)) },
      silentLogger,
    );
    expect(prepared.candidates.map((c) => c.label)).toEqual(['ssh-agent', `publickey ${plain} (ssh-ed25519)`, `publickey ${encrypted} (ssh-ed25519, encrypted)`]);
    expect(prepared.skipped).toEqual(['/nope/id_rsa: no such file']);
    expect(asked).toBe(0);
  });

  it('reads an encrypted key’s public half from the key itself (OpenSSH format stores it unencrypted)', async () => {
    const { encrypted } = keyFiles();
    const candidate = encryptedCandidate((await prepareAuth({ identityFiles: [encrypted] }, silentLogger)).candidates);
    expect(candidate.publicKey?.getPublicSSH().equals(parsed(encryptedPair.public).getPublicSSH())).toBe(true);
    expect(embeddedPublicKey(Buffer.from(encryptedPair.private))?.type).toBe('ssh-ed25519');
    expect(embeddedPublicKey(Buffer.from('-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----\n'))).toBeUndefined();
  });

  it('prefers the .pub file beside the key, as ssh does', async () => {
    const { encrypted } = keyFiles();
    const other = ed25519KeyPair();
    writeFileSync(`${encrypted}.pub`, other.public);
    const candidate = encryptedCandidate((await prepareAuth({ identityFiles: [encrypted] }, silentLogger)).candidates);
    expect(candidate.publicKey?.getPublicSSH().equals(parsed(other.public).getPublicSSH())).toBe(true);
  });
});

describe('unlocking an encrypted key', () => {
  async function unlockOf(options: { secrets?: MemorySecretStore; answers?: (string | undefined)[] }) {
    const { encrypted } = keyFiles();
    const questions: PassphraseQuestion[] = [];
    const answers = [...(options.answers ?? [])];
    const prepared = await prepareAuth(
      {
        identityFiles: [encrypted],
        ...(options.secrets !== undefined ? { secrets: options.secrets } : {}),
        ...(options.answers !== undefined
          ? {
              getPassphrase: (_path: string, question?: PassphraseQuestion) => {
                if (question !== undefined) questions.push(question);
                return Promise.resolve(answers.shift());
              },
            }
          : {}),
      },
      silentLogger,
    );
    return { encrypted, questions, candidate: encryptedCandidate(prepared.candidates) };
  }

  it('asks, stores the passphrase that worked, and does not ask again', async () => {
    const secrets = new MemorySecretStore();
    const { encrypted, questions, candidate } = await unlockOf({ secrets, answers: ['correct horse'] });
    const ctx = context();
    expect((await candidate.unlock(ctx))?.isPrivateKey()).toBe(true);
    expect(await secrets.get(passphraseSecretKey(encrypted))).toBe('correct horse');
    expect(questions).toEqual([{ attempt: 1, maxAttempts: 3, retry: false }]);
    // A second connection finds it in the store.
    const again = await unlockOf({ secrets, answers: [] });
    await secrets.store(passphraseSecretKey(again.encrypted), 'correct horse');
    expect((await again.candidate.unlock(context()))?.isPrivateKey()).toBe(true);
    expect(again.questions).toEqual([]);
  });

  it('asks again after a wrong passphrase, up to three times, then gives the key up with the reason', async () => {
    const { encrypted, questions, candidate } = await unlockOf({ answers: ['a', 'b', 'c', 'correct horse'] });
    const ctx = context();
    expect(await candidate.unlock(ctx)).toBeUndefined();
    expect(questions.map((q) => [q.attempt, q.retry])).toEqual([
      [1, false],
      [2, true],
      [3, true],
    ]);
    expect(passphraseAttempts).toBe(3);
    expect(ctx.notes).toEqual([`${encrypted}: wrong passphrase 3 times`]);
  });

  it('accepts the right passphrase on the second try', async () => {
    const { candidate, questions } = await unlockOf({ answers: ['wrong', 'correct horse'] });
    expect((await candidate.unlock(context()))?.isPrivateKey()).toBe(true);
    expect(questions).toHaveLength(2);
  });

  it('gives the key up at once when the prompt is dismissed', async () => {
    const { encrypted, candidate, questions } = await unlockOf({ answers: [undefined, 'correct horse'] });
    const ctx = context();
    expect(await candidate.unlock(ctx)).toBeUndefined();
    expect(questions).toHaveLength(1);
    expect(ctx.notes).toEqual([`${encrypted}: encrypted and no passphrase was given`]);
  });

  it('forgets a wrong stored passphrase and asks, saying it is a retry', async () => {
    const secrets = new MemorySecretStore();
    const { encrypted, candidate, questions } = await unlockOf({ secrets, answers: ['correct horse'] });
    await secrets.store(passphraseSecretKey(encrypted), 'stale');
    expect((await candidate.unlock(context()))?.isPrivateKey()).toBe(true);
    expect(questions).toEqual([{ attempt: 1, maxAttempts: 3, retry: true }]);
    expect(await secrets.get(passphraseSecretKey(encrypted))).toBe('correct horse');
  });

  it('without a prompt (the CLI), a key whose stored passphrase is wrong is skipped, and the stored one forgotten', async () => {
    const secrets = new MemorySecretStore();
    const { encrypted, candidate } = await unlockOf({ secrets });
    await secrets.store(passphraseSecretKey(encrypted), 'stale');
    const ctx = context();
    expect(await candidate.unlock(ctx)).toBeUndefined();
    expect(ctx.notes[0]).toMatch(/encrypted and no passphrase was given \(the stored one was wrong and is forgotten\)/);
    expect(await secrets.get(passphraseSecretKey(encrypted))).toBeUndefined();
  });

  it('a passphrase typed after the attempt was cancelled is neither used nor stored', async () => {
    const secrets = new MemorySecretStore();
    const controller = new AbortController();
    const { encrypted } = keyFiles();
    const prepared = await prepareAuth(
      {
        identityFiles: [encrypted],
        secrets,
        getPassphrase: (_path, question) => {
          expect(question?.signal).toBe(controller.signal);
          controller.abort(new Error('cancelled by the user'));
          return Promise.resolve('correct horse');
        },
      },
      silentLogger,
    );
    await expect(encryptedCandidate(prepared.candidates).unlock(context({ signal: controller.signal }))).rejects.toThrow(/cancelled/);
    expect(await secrets.get(passphraseSecretKey(encrypted))).toBeUndefined();
  });

  it('as an ssh2 agent: offers only the public key, and signs (asking then) with a verifiable signature', async () => {
    const { candidate, questions } = await unlockOf({ answers: ['correct horse'] });
    const publicKey = candidate.publicKey;
    if (publicKey === undefined) throw new Error('no public half');
    const agent = new LockedKeyAgent(publicKey, candidate.unlock, context());
    const identities = await new Promise<ParsedKey[]>((resolve, reject) => agent.getIdentities((err, keys) => (err ? reject(err) : resolve(keys ?? []))));
    expect(identities).toHaveLength(1);
    expect(identities[0]?.isPrivateKey()).toBe(false);
    expect(questions).toEqual([]);
    const data = Buffer.from('session id and request');
    const signature = await new Promise<Buffer>((resolve, reject) => agent.sign(publicKey, data, {}, (err, sig) => (err || !sig ? reject(err) : resolve(sig))));
    expect(questions).toHaveLength(1);
    expect(parsed(encryptedPair.public).verify(data, signature)).toBe(true);
  });
});
