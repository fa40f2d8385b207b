// Helpers shared by the SSH unit tests: throwaway directories, freshly generated host-key blobs and key pairs.

import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { utils } from 'ssh2';
import { afterAll } from 'vitest';

/** Returns a maker of temp directories that are all removed after the test file. Call at module level. */
export function tempDirFactory(prefix: string): () => string {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
}

/** An SSH wire-format string: uint32 length, then the bytes. */
export function sshString(value: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(value.length);
  return Buffer.concat([length, value]);
}

/** A fresh ssh-ed25519 public key blob (RFC 8709 wire format). */
export function ed25519Blob(): Buffer {
  const raw = Buffer.from(generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x ?? '', 'base64url');
  return Buffer.concat([sshString(Buffer.from('ssh-ed25519')), sshString(raw)]);
}

/**
 * An ed25519 key pair from ssh2's generator, in OpenSSH format, that parses back. ssh2 1.17 strips leading
 * zero bytes from the public key it reads out of the DER, so one public key in 256 comes out 31 bytes long
 * and the file is malformed; such a pair is drawn again (CI failed on one).
 */
export function ed25519KeyPair(options?: { passphrase: string; cipher: string; rounds: number }): { private: string; public: string } {
  for (let draw = 0; draw < 16; draw++) {
    const pair = options === undefined ? utils.generateKeyPairSync('ed25519') : utils.generateKeyPairSync('ed25519', options);
    const privateKey = utils.parseKey(pair.private, options?.passphrase);
    const publicKey = utils.parseKey(pair.public);
    if (privateKey instanceof Error || publicKey instanceof Error || Array.isArray(privateKey) || Array.isArray(publicKey)) continue;
    if (privateKey.getPublicSSH().equals(publicKey.getPublicSSH())) return pair;
  }
  throw new Error('ssh2 generated 16 malformed ed25519 key pairs in a row');
}
