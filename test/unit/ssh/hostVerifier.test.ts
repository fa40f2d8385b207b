import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/core/util/logger';
import { HostKeyChangedError, HostKeyUnknownError, SshConfigError } from '../../../src/infra/ssh/errors';
import { createHostCheck, type ConfirmUnknownHost } from '../../../src/infra/ssh/hostVerifier';

const tempDirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pleg-hv-'));
  tempDirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

function sshString(value: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(value.length);
  return Buffer.concat([length, value]);
}
function blob(): Buffer {
  const raw = Buffer.from(generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x ?? '', 'base64url');
  return Buffer.concat([sshString(Buffer.from('ssh-ed25519')), sshString(raw)]);
}

function check(confirm: ConfirmUnknownHost, knownText = '') {
  const dir = tempDir();
  const known = join(dir, 'known');
  writeFileSync(known, knownText);
  const own = join(dir, 'own');
  const prompts: boolean[] = [];
  const hostCheck = createHostCheck({ host: 'n1', port: 22, files: { readOnly: [known], own }, confirmUnknownHost: confirm, logger: silentLogger, onPrompt: (p) => prompts.push(p) });
  const verify = (key: Buffer): Promise<{ permitted: boolean; returned: unknown }> =>
    new Promise((resolve) => {
      let returned: unknown = 'unset';
      returned = hostCheck.verifier(key, (permitted) => resolve({ permitted, returned }));
    });
  return { hostCheck, verify, own, prompts };
}

describe('createHostCheck', () => {
  it('never returns a value to ssh2 (a returned promise would count as acceptance)', async () => {
    const { verify } = check(() => Promise.resolve(false));
    expect((await verify(blob())).returned).toBeUndefined();
  });

  it('refuses an unknown key when not confirmed, without writing, and pauses the deadline while asking', async () => {
    const { hostCheck, verify, own, prompts } = check(() => Promise.resolve(false));
    expect((await verify(blob())).permitted).toBe(false);
    expect(hostCheck.refusal()).toBeInstanceOf(HostKeyUnknownError);
    expect(existsSync(own)).toBe(false);
    expect(prompts).toEqual([true, false]);
  });

  it('accepts a confirmed key and appends it to the own file', async () => {
    const key = blob();
    const { verify, own } = check(() => Promise.resolve(true));
    expect((await verify(key)).permitted).toBe(true);
    expect(readFileSync(own, 'utf8')).toBe(`n1 ssh-ed25519 ${key.toString('base64')}\n`);
  });

  it('refuses a changed key without asking', async () => {
    let asked = false;
    const { hostCheck, verify } = check(
      () => {
        asked = true;
        return Promise.resolve(true);
      },
      `n1 ssh-ed25519 ${blob().toString('base64')}\n`,
    );
    expect((await verify(blob())).permitted).toBe(false);
    expect(asked).toBe(false);
    expect(hostCheck.refusal()).toBeInstanceOf(HostKeyChangedError);
  });

  it('refuses when the confirmation itself fails', async () => {
    const { hostCheck, verify } = check(() => Promise.reject(new Error('dialog closed')));
    expect((await verify(blob())).permitted).toBe(false);
    expect(hostCheck.refusal()).toBeInstanceOf(SshConfigError);
    expect(hostCheck.refusal()?.message).toMatch(/dialog closed/);
  });
});
