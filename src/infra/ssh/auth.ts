// The authentication attempts, in OpenSSH's order: the ssh-agent's keys first, then each identity file.
// Nothing is asked while preparing them. An encrypted identity file is offered to the server by its
// public half (the `.pub` beside it, or the public key an OpenSSH-format private key stores unencrypted),
// and its passphrase is asked for only once the server said it would accept that key: ssh2 sends the
// "publickey" query without a signature and signs through an agent object only after SSH_MSG_USERAUTH_PK_OK.
// A wrong passphrase is asked again (three tries, like ssh); after that, or when the prompt is dismissed,
// the next key is tried instead of failing the connection.

import { readFile } from 'node:fs/promises';
import { BaseAgent, utils, type ParsedKey, type SigningRequestOptions } from 'ssh2';
import type { Logger } from '../../core/util/logger';
import { parsePrivateKey } from './pkcs8Keys';
import { passphraseSecretKey, type SecretStore } from './secrets';

/** How often a wrong passphrase is asked again before the key is given up (ssh's NumberOfPasswordPrompts). */
export const passphraseAttempts = 3;

export interface PassphraseQuestion {
  /** 1-based; the question is asked at most `maxAttempts` times per key and connection. */
  attempt: number;
  maxAttempts: number;
  /** The previous passphrase (typed, or the stored one) was wrong. */
  retry: boolean;
  /** Aborts when the connection attempt is cancelled: a prompt should close, and its answer is ignored. */
  signal?: AbortSignal;
}

export interface AuthOptions {
  /** ssh-agent socket (the caller passes `SSH_AUTH_SOCK`); undefined disables the agent. */
  agentSocket?: string;
  /** Identity files in the order to try them (explicit option first, then ssh_config IdentityFile). */
  identityFiles: readonly string[];
  /** Asked when the server accepts an encrypted key and no stored passphrase unlocks it; undefined = skip the key. */
  getPassphrase?: (keyPath: string, question?: PassphraseQuestion) => Promise<string | undefined>;
  secrets?: SecretStore;
}

/** What one connection attempt lends the unlocking of a key: its cancellation, and a pause for its deadline. */
export interface UnlockContext {
  signal?: AbortSignal;
  /** Called with true before a prompt opens and false after it closed (the connect deadline pauses). */
  onPrompt?: (prompting: boolean) => void;
  /** Why a key was given up (wrong passphrase, dismissed prompt); collected for the authentication error. */
  note: (reason: string) => void;
}

export type Unlock = (context: UnlockContext) => Promise<ParsedKey | undefined>;

export type AuthCandidate =
  | { type: 'agent'; label: string; socket: string }
  | { type: 'publickey'; label: string; key: ParsedKey }
  /** `publicKey` undefined: no public half could be read, so the key must be unlocked before it is offered. */
  | { type: 'encrypted'; label: string; keyPath: string; publicKey: ParsedKey | undefined; unlock: Unlock };

export interface PreparedAuth {
  candidates: AuthCandidate[];
  /** Identity files that could not be used, with the reason (missing, unreadable, not a key). */
  skipped: string[];
}

/** A key given up while signing; ssh2 reports it as an agent error and moves on to the next key. */
export class KeyGivenUpError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'KeyGivenUpError';
  }
}

const encryptedKeyPattern = /encrypted .*no passphrase given/i;

function isParsedKey(value: ParsedKey | ParsedKey[] | Error): value is ParsedKey {
  return !(value instanceof Error) && !Array.isArray(value);
}

function firstKey(value: ParsedKey | ParsedKey[] | Error): ParsedKey | Error {
  if (Array.isArray(value)) return value[0] ?? new Error('the file holds no key');
  return value;
}

/** The public key stored unencrypted at the start of an `openssh-key-v1` private key (PROTOCOL.key). */
export function embeddedPublicKey(data: Buffer): ParsedKey | undefined {
  const text = data.toString('latin1');
  const match = /-----BEGIN OPENSSH PRIVATE KEY-----([\s\S]*?)-----END OPENSSH PRIVATE KEY-----/.exec(text);
  if (match?.[1] === undefined) return undefined;
  const blob = Buffer.from(match[1].replace(/\s+/g, ''), 'base64');
  const magic = Buffer.from('openssh-key-v1\0', 'latin1');
  if (blob.length < magic.length || !blob.subarray(0, magic.length).equals(magic)) return undefined;
  let offset = magic.length;
  const readString = (): Buffer | undefined => {
    if (offset + 4 > blob.length) return undefined;
    const length = blob.readUInt32BE(offset);
    if (offset + 4 + length > blob.length) return undefined;
    const value = blob.subarray(offset + 4, offset + 4 + length);
    offset += 4 + length;
    return value;
  };
  // ciphername, kdfname, kdfoptions, then the number of keys and the first public key blob.
  if (readString() === undefined || readString() === undefined || readString() === undefined) return undefined;
  if (offset + 4 > blob.length || blob.readUInt32BE(offset) < 1) return undefined;
  offset += 4;
  const publicBlob = readString();
  if (publicBlob === undefined) return undefined;
  const typeLength = publicBlob.length >= 4 ? publicBlob.readUInt32BE(0) : 0;
  const type = publicBlob.subarray(4, 4 + typeLength).toString('latin1');
  const parsed = firstKey(utils.parseKey(`${type} ${publicBlob.toString('base64')}`));
  return isParsedKey(parsed) ? parsed : undefined;
}

/** The public half of an encrypted identity file: `<file>.pub` first (as ssh reads it), else the embedded one. */
export async function publicHalf(keyPath: string, data: Buffer): Promise<ParsedKey | undefined> {
  try {
    const pub = firstKey(utils.parseKey(await readFile(`${keyPath}.pub`)));
    if (isParsedKey(pub) && !pub.isPrivateKey()) return pub;
  } catch {
    // No .pub beside the key: the embedded public key (OpenSSH format) is the other source.
  }
  return embeddedPublicKey(data);
}

/**
 * Unlocks an encrypted key: the stored passphrase first (forgotten if wrong), then up to three prompts.
 * Resolves undefined when the key is given up (the reason goes to `context.note`); rejects only when the
 * connection attempt was cancelled. A passphrase that worked is stored, unless the attempt was cancelled.
 */
function unlocker(keyPath: string, data: Buffer, options: AuthOptions, logger: Logger): Unlock {
  let unlocked: ParsedKey | undefined;
  return async (context) => {
    if (unlocked !== undefined) return unlocked;
    const cancelled = (): boolean => context.signal?.aborted === true;
    const tryPassphrase = (passphrase: string): ParsedKey | undefined => {
      const key = firstKey(parsePrivateKey(data, passphrase));
      return isParsedKey(key) ? key : undefined;
    };
    const secretKey = passphraseSecretKey(keyPath);
    const stored = await options.secrets?.get(secretKey);
    let retry = false;
    if (stored !== undefined) {
      unlocked = tryPassphrase(stored);
      if (unlocked !== undefined) return unlocked;
      // A wrong stored passphrase must not be retried forever: forget it and ask.
      await options.secrets?.delete(secretKey);
      logger.info(`the stored passphrase of ${keyPath} did not unlock it and was forgotten`);
      retry = true;
    }
    if (options.getPassphrase === undefined) {
      context.note(`${keyPath}: encrypted and no passphrase was given${stored !== undefined ? ' (the stored one was wrong and is forgotten)' : ''}`);
      return undefined;
    }
    for (let attempt = 1; attempt <= passphraseAttempts; attempt++) {
      if (cancelled()) throw new Error('cancelled');
      let passphrase: string | undefined;
      context.onPrompt?.(true);
      try {
        const question: PassphraseQuestion = { attempt, maxAttempts: passphraseAttempts, retry, ...(context.signal !== undefined ? { signal: context.signal } : {}) };
        passphrase = await options.getPassphrase(keyPath, question);
      } finally {
        context.onPrompt?.(false);
      }
      if (cancelled()) throw new Error('cancelled');
      if (passphrase === undefined) {
        context.note(`${keyPath}: encrypted and no passphrase was given`);
        return undefined;
      }
      const key = tryPassphrase(passphrase);
      if (key !== undefined) {
        unlocked = key;
        await options.secrets?.store(secretKey, passphrase);
        return key;
      }
      logger.info(`wrong passphrase for ${keyPath} (attempt ${attempt} of ${passphraseAttempts})`);
      retry = true;
    }
    context.note(`${keyPath}: wrong passphrase ${passphraseAttempts} times`);
    return undefined;
  };
}

/**
 * One encrypted identity as an ssh2 agent: ssh2 offers its public key without a signature and calls
 * sign() only after the server accepted the key, so the passphrase is asked for exactly then.
 */
export class LockedKeyAgent extends BaseAgent<ParsedKey> {
  constructor(
    private readonly publicKey: ParsedKey,
    private readonly unlock: Unlock,
    private readonly context: UnlockContext,
    private readonly keyPath = 'identity file',
  ) {
    super();
  }

  getIdentities(cb: (err: Error | undefined, keys?: ParsedKey[]) => void): void {
    cb(undefined, [this.publicKey]);
  }

  sign(pubKey: ParsedKey, data: Buffer, options: SigningRequestOptions | ((err: Error | undefined, signature?: Buffer) => void), cb?: (err: Error | undefined, signature?: Buffer) => void): void {
    const done = typeof options === 'function' ? options : cb;
    const hash = typeof options === 'function' ? undefined : options.hash;
    if (done === undefined) return;
    this.unlock(this.context).then(
      (key) => {
        if (key === undefined) {
          done(new KeyGivenUpError('key given up'));
          return;
        }
        if (!key.getPublicSSH().equals(this.publicKey.getPublicSSH())) {
          this.context.note(`${this.keyPath}: the private key does not match its public half (.pub file)`);
          done(new KeyGivenUpError('the private key does not match its public half'));
          return;
        }
        const signature = key.sign(data, hash) as Buffer | Error;
        if (signature instanceof Error) done(signature);
        else done(undefined, signature);
      },
      (error: unknown) => done(error instanceof Error ? error : new Error(String(error))),
    );
  }
}

/** Reads the identity files; asks nothing (passphrases are asked while authenticating, key by key). */
export async function prepareAuth(options: AuthOptions, logger: Logger): Promise<PreparedAuth> {
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
    const plain = firstKey(parsePrivateKey(data));
    if (isParsedKey(plain)) {
      if (plain.isPrivateKey()) candidates.push({ type: 'publickey', label: `publickey ${keyPath} (${plain.type})`, key: plain });
      else skipped.push(`${keyPath}: not a private key`);
      continue;
    }
    if (!encryptedKeyPattern.test(plain.message)) {
      skipped.push(`${keyPath}: ${plain.message}`);
      continue;
    }
    const publicKey = await publicHalf(keyPath, data);
    candidates.push({
      type: 'encrypted',
      label: `publickey ${keyPath} (${publicKey?.type ?? 'encrypted'}${publicKey !== undefined ? ', encrypted' : ''})`,
      keyPath,
      publicKey,
      unlock: unlocker(keyPath, data, options, logger),
    });
  }
  for (const reason of skipped) logger.debug(`ssh identity skipped: ${reason}`);
  return { candidates, skipped };
}

/** OpenSSH's default identity files, used when neither options nor ssh_config name any. */
export function defaultIdentityFiles(homeDir: string): string[] {
  return ['id_ed25519', 'id_ecdsa', 'id_rsa'].map((name) => `${homeDir}/.ssh/${name}`);
}
