import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { utils } from 'ssh2';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/core/util/logger';
import { prepareAuth } from '../../../src/infra/ssh/auth';
import { SshPassphraseError } from '../../../src/infra/ssh/errors';
import { MemorySecretStore, passphraseSecretKey } from '../../../src/infra/ssh/secrets';
import { tempDirFactory } from './sshTestKit';

const tempDir = tempDirFactory('pleg-auth-');

// One bcrypt round keeps the pure-JS KDF fast; the format is the same as ssh-keygen's.
const plainKey = utils.generateKeyPairSync('ed25519').private;
const encryptedKey = utils.generateKeyPairSync('ed25519', { passphrase: 'correct horse', cipher: 'aes256-ctr', rounds: 1 }).private;

function keyFiles(): { plain: string; encrypted: string } {
  const dir = tempDir();
  const plain = join(dir, 'id_plain');
  const encrypted = join(dir, 'id_encrypted');
  writeFileSync(plain, plainKey);
  writeFileSync(encrypted, encryptedKey);
  return { plain, encrypted };
}

describe('prepareAuth', () => {
  it('puts the agent first, then identity files in order, and reports unusable ones', async () => {
    const { plain } = keyFiles();
    const prepared = await prepareAuth({ agentSocket: '/run/agent.sock', identityFiles: ['/nope/id_rsa', plain] }, 't', silentLogger);
    expect(prepared.candidates.map((c) => c.label)).toEqual(['ssh-agent', `publickey ${plain} (ssh-ed25519)`]);
    expect(prepared.skipped).toEqual(['/nope/id_rsa: no such file']);
  });

  it('asks for an encrypted key’s passphrase once, then keeps it in the secret store', async () => {
    const { encrypted } = keyFiles();
    const secrets = new MemorySecretStore();
    const asked: string[] = [];
    const getPassphrase = (path: string): Promise<string> => {
      asked.push(path);
      return Promise.resolve('correct horse');
    };
    const first = await prepareAuth({ identityFiles: [encrypted], getPassphrase, secrets }, 't', silentLogger);
    expect(first.candidates).toHaveLength(1);
    expect(await secrets.get(passphraseSecretKey(encrypted))).toBe('correct horse');
    const second = await prepareAuth({ identityFiles: [encrypted], getPassphrase, secrets }, 't', silentLogger);
    expect(second.candidates).toHaveLength(1);
    expect(asked).toEqual([encrypted]);
  });

  it('skips an encrypted key when no passphrase is given', async () => {
    const { encrypted } = keyFiles();
    const prepared = await prepareAuth({ identityFiles: [encrypted], getPassphrase: () => Promise.resolve(undefined) }, 't', silentLogger);
    expect(prepared.candidates).toEqual([]);
    expect(prepared.skipped[0]).toMatch(/encrypted and no passphrase/);
  });

  it('fails clearly on a wrong stored passphrase and forgets it', async () => {
    const { encrypted } = keyFiles();
    const secrets = new MemorySecretStore();
    await secrets.store(passphraseSecretKey(encrypted), 'wrong');
    const error = await prepareAuth({ identityFiles: [encrypted], secrets }, 'root@n:22', silentLogger).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SshPassphraseError);
    expect((error as Error).message).toContain(encrypted);
    expect((error as Error).message).toMatch(/stored passphrase was forgotten/);
    expect(await secrets.get(passphraseSecretKey(encrypted))).toBeUndefined();
  });

  it('does not claim to forget a stored passphrase when the user just typed the wrong one', async () => {
    const { encrypted } = keyFiles();
    const secrets = new MemorySecretStore();
    const error = await prepareAuth({ identityFiles: [encrypted], secrets, getPassphrase: () => Promise.resolve('wrong') }, 'root@n:22', silentLogger).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SshPassphraseError);
    expect((error as Error).message).not.toMatch(/stored/);
    expect(await secrets.get(passphraseSecretKey(encrypted))).toBeUndefined();
  });
});
