// Private keys in PKCS#8 PEM ("BEGIN PRIVATE KEY", "BEGIN ENCRYPTED PRIVATE KEY"): OpenSSL writes them
// by default, and ssh reads the RSA and ECDSA ones (OpenSSH 9.2's `ssh-keygen -y` does, plain and
// encrypted), but ssh2 answers "Unsupported key format" for every one. They are opened here with
// node:crypto and handed to ssh2 in a form it reads: RSA as PKCS#1 PEM, ECDSA as SEC1 PEM, Ed25519 as an
// unencrypted openssh-key-v1 (PROTOCOL.key). The converted key stays in memory; nothing is written.

import { createPrivateKey, randomBytes, type KeyObject } from 'node:crypto';
import { utils, type ParsedKey } from 'ssh2';

const PKCS8_PLAIN = '-----BEGIN PRIVATE KEY-----';
const PKCS8_ENCRYPTED = '-----BEGIN ENCRYPTED PRIVATE KEY-----';

/** ssh2's parseKey for every format it reads, and PKCS#8 PEM as well. */
export function parsePrivateKey(data: Buffer, passphrase?: string): ParsedKey | ParsedKey[] | Error {
  const text = data.toString('latin1');
  const encrypted = text.includes(PKCS8_ENCRYPTED);
  if (!encrypted && !text.includes(PKCS8_PLAIN)) return utils.parseKey(data, passphrase);
  // The wording ssh2 uses for its own encrypted keys: the caller recognises it and asks for a passphrase.
  if (encrypted && passphrase === undefined) return new Error('Encrypted PKCS#8 private key detected, but no passphrase given');
  let key: KeyObject;
  try {
    key = createPrivateKey(encrypted ? { key: data, format: 'pem', passphrase: passphrase ?? '' } : { key: data, format: 'pem' });
  } catch (e) {
    return new Error(encrypted ? 'Bad passphrase for the encrypted PKCS#8 private key' : `PKCS#8 private key does not parse: ${(e as Error).message}`);
  }
  const type = key.asymmetricKeyType;
  if (type === 'rsa') return utils.parseKey(key.export({ type: 'pkcs1', format: 'pem' }));
  if (type === 'ec') return utils.parseKey(key.export({ type: 'sec1', format: 'pem' }));
  if (type === 'ed25519') return utils.parseKey(openSshEd25519(key));
  return new Error(`PKCS#8 ${type ?? 'unknown'} key: SSH here takes RSA, ECDSA or Ed25519 keys`);
}

/** An SSH wire string: uint32 length, then the bytes. */
function sshString(bytes: Buffer | string): Buffer {
  const body = typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : bytes;
  const length = Buffer.alloc(4);
  length.writeUInt32BE(body.length);
  return Buffer.concat([length, body]);
}

/** The Ed25519 key as an unencrypted OpenSSH private key file (PROTOCOL.key). */
function openSshEd25519(key: KeyObject): string {
  const jwk = key.export({ format: 'jwk' });
  const seed = Buffer.from(jwk.d ?? '', 'base64url');
  const pub = Buffer.from(jwk.x ?? '', 'base64url');
  const publicBlob = Buffer.concat([sshString('ssh-ed25519'), sshString(pub)]);
  const check = randomBytes(4);
  let section = Buffer.concat([check, check, sshString('ssh-ed25519'), sshString(pub), sshString(Buffer.concat([seed, pub])), sshString('')]);
  // Padded with 1, 2, 3, … to the cipher's block size ("none": 8).
  const pad = (8 - (section.length % 8)) % 8;
  section = Buffer.concat([section, Buffer.from(Array.from({ length: pad }, (_, i) => i + 1))]);
  const count = Buffer.alloc(4);
  count.writeUInt32BE(1);
  const blob = Buffer.concat([Buffer.from('openssh-key-v1\0', 'latin1'), sshString('none'), sshString('none'), sshString(''), count, sshString(publicBlob), sshString(section)]);
  const base64 = blob.toString('base64').replace(/.{1,70}/g, '$&\n');
  return `-----BEGIN OPENSSH PRIVATE KEY-----\n${base64}-----END OPENSSH PRIVATE KEY-----\n`;
}
