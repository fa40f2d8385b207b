// Building the list of authentication attempts: ssh-agent first (as OpenSSH does), then identity files.
// Encrypted keys are detected by ssh2's parser and unlocked with a passphrase asked for at most once per
// key: from the secret store if present, otherwise from the caller (a VS Code prompt, a CLI refusal).

import { readFile } from 'node:fs/promises';
import { utils, type ParsedKey } from 'ssh2';
import type { Logger } from '../../core/util/logger';
import { SshPassphraseError } from './errors';
import { passphraseSecretKey, type SecretStore } from './secrets';

export interface AuthOptions {
  /** ssh-agent socket (the caller passes `SSH_AUTH_SOCK`); undefined disables the agent. */
  agentSocket?: string;
  /** Identity files in the order to try them (explicit option first, then ssh_config IdentityFile). */
  identityFiles: readonly string[];
  /** Asked when an identity file is encrypted and no stored passphrase exists; undefined = skip the key. */
  getPassphrase?: (keyPath: string) => Promise<string | undefined>;
  secrets?: SecretStore;
}

export type AuthCandidate =
  | { type: 'agent'; label: string; socket: string }
  | { type: 'publickey'; label: string; key: ParsedKey };

export interface PreparedAuth {
  candidates: AuthCandidate[];
  /** Identity files that could not be used, with the reason (missing, unreadable, no passphrase). */
  skipped: string[];
}

const encryptedKeyPattern = /encrypted .*no passphrase given/i;

function isParsedKey(value: ParsedKey | ParsedKey[] | Error): value is ParsedKey {
  return !(value instanceof Error) && !Array.isArray(value);
}

function firstKey(value: ParsedKey | ParsedKey[] | Error): ParsedKey | Error {
  if (Array.isArray(value)) return value[0] ?? new Error('the file holds no key');
  return value;
}

async function unlock(
  keyPath: string,
  data: Buffer,
  options: AuthOptions,
  target: string,
): Promise<ParsedKey | { skip: string }> {
  const plain = firstKey(utils.parseKey(data));
  if (isParsedKey(plain)) return plain;
  if (!encryptedKeyPattern.test(plain.message)) return { skip: `${keyPath}: ${plain.message}` };

  const secretKey = passphraseSecretKey(keyPath);
  const stored = await options.secrets?.get(secretKey);
  const passphrase = stored ?? (await options.getPassphrase?.(keyPath));
  if (passphrase === undefined) return { skip: `${keyPath}: encrypted and no passphrase was given` };
  const unlocked = firstKey(utils.parseKey(data, passphrase));
  if (!isParsedKey(unlocked)) {
    // A wrong stored passphrase must not be retried forever: forget it so the next attempt asks again.
    await options.secrets?.delete(secretKey);
    throw new SshPassphraseError(target, keyPath, stored !== undefined);
  }
  if (stored === undefined) await options.secrets?.store(secretKey, passphrase);
  return unlocked;
}

export async function prepareAuth(options: AuthOptions, target: string, logger: Logger): Promise<PreparedAuth> {
  const candidates: AuthCandidate[] = [];
  const skipped: string[] = [];
  if (options.agentSocket !== undefined && options.agentSocket !== '') {
    candidates.push({ type: 'agent', label: 'ssh-agent', socket: options.agentSocket });
  }
  for (const keyPath of new Set(options.identityFiles)) {
    let data: Buffer;
    try {
      data = await readFile(keyPath);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? String(error);
      skipped.push(`${keyPath}: ${code === 'ENOENT' ? 'no such file' : code}`);
      continue;
    }
    const key = await unlock(keyPath, data, options, target);
    if ('skip' in key) {
      skipped.push(key.skip);
      continue;
    }
    if (!key.isPrivateKey()) {
      skipped.push(`${keyPath}: not a private key`);
      continue;
    }
    candidates.push({ type: 'publickey', label: `publickey ${keyPath} (${key.type})`, key });
  }
  for (const reason of skipped) logger.debug(`ssh identity skipped: ${reason}`);
  return { candidates, skipped };
}

/** OpenSSH's default identity files, used when neither options nor ssh_config name any. */
export function defaultIdentityFiles(homeDir: string): string[] {
  return ['id_ed25519', 'id_ecdsa', 'id_rsa'].map((name) => `${homeDir}/.ssh/${name}`);
}
