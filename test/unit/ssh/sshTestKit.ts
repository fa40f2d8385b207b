// Helpers shared by the SSH unit tests: throwaway directories and freshly generated host-key blobs.

import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
