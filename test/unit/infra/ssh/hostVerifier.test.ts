import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../../src/core/util/logger';
import { HostKeyChangedError, HostKeyUnknownError, SshConfigError } from '../../../../src/infra/ssh/errors';
import { createHostCheck, type ConfirmUnknownHost } from '../../../../src/infra/ssh/hostVerifier';
import { ed25519Blob, tempDirFactory } from '../../../support/sshTestKit';

const tempDir = tempDirFactory('pleg-hv-');

function check(confirm: ConfirmUnknownHost, knownText = '', signal?: AbortSignal) {
  const dir = tempDir();
  const known = join(dir, 'known');
  writeFileSync(known, knownText);
  const own = join(dir, 'own');
  const prompts: boolean[] = [];
  const hostCheck = createHostCheck({ host: 'n1', port: 22, files: { readOnly: [known], own }, confirmUnknownHost: confirm, logger: silentLogger, onPrompt: (p) => prompts.push(p), ...(signal !== undefined ? { signal } : {}) });
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
    expect((await verify(ed25519Blob())).returned).toBeUndefined();
  });

  it('refuses an unknown key when not confirmed, without writing, and pauses the deadline while asking', async () => {
    const { hostCheck, verify, own, prompts } = check(() => Promise.resolve(false));
    expect((await verify(ed25519Blob())).permitted).toBe(false);
    expect(hostCheck.refusal()).toBeInstanceOf(HostKeyUnknownError);
    expect(existsSync(own)).toBe(false);
    expect(prompts).toEqual([true, false]);
  });

  it('accepts a confirmed key and appends it to the own file', async () => {
    const key = ed25519Blob();
    const { verify, own } = check(() => Promise.resolve(true));
    expect((await verify(key)).permitted).toBe(true);
    expect(readFileSync(own, 'utf8')).toBe(`n1 ssh-ed25519 ${key.toString('base64')}\n`);
  });

  it('a "Trust" given after the connection attempt was cancelled writes nothing, refuses the key, and does not answer the torn-down connection', async () => {
    const controller = new AbortController();
    let seen: AbortSignal | undefined;
    const { hostCheck, verify, own, prompts } = check(
      (_question, signal) => {
        seen = signal;
        controller.abort(new Error('cancelled by the user'));
        return Promise.resolve(true);
      },
      '',
      controller.signal,
    );
    const answered = await Promise.race([verify(ed25519Blob()).then(() => 'answered'), new Promise((resolve) => setTimeout(() => resolve('silent'), 100))]);
    expect(answered).toBe('silent');
    expect(seen).toBe(controller.signal);
    expect(existsSync(own)).toBe(false);
    expect(hostCheck.refusal()).toBeInstanceOf(HostKeyUnknownError);
    expect(prompts).toEqual([true, false]);
  });

  it('does not ask at all once the attempt is already cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    let asked = 0;
    const { verify, own } = check(
      () => {
        asked++;
        return Promise.resolve(true);
      },
      '',
      controller.signal,
    );
    const answered = await Promise.race([verify(ed25519Blob()).then(() => 'answered'), new Promise((resolve) => setTimeout(() => resolve('silent'), 100))]);
    expect(answered).toBe('silent');
    expect(asked).toBe(0);
    expect(existsSync(own)).toBe(false);
  });

  it('refuses a changed key without asking', async () => {
    let asked = false;
    const { hostCheck, verify } = check(
      () => {
        asked = true;
        return Promise.resolve(true);
      },
      `n1 ssh-ed25519 ${ed25519Blob().toString('base64')}\n`,
    );
    expect((await verify(ed25519Blob())).permitted).toBe(false);
    expect(asked).toBe(false);
    expect(hostCheck.refusal()).toBeInstanceOf(HostKeyChangedError);
  });

  it('refuses when the confirmation itself fails', async () => {
    const { hostCheck, verify } = check(() => Promise.reject(new Error('dialog closed')));
    expect((await verify(ed25519Blob())).permitted).toBe(false);
    expect(hostCheck.refusal()).toBeInstanceOf(SshConfigError);
    expect(hostCheck.refusal()?.message).toMatch(/dialog closed/);
  });
});
