// PKCS#8 PEM private keys (OpenSSL's default; ssh reads the RSA and ECDSA ones, ssh2 none) are converted
// for ssh2: the key that comes out signs, and its public half is the one the PKCS#8 file holds.
import { generateKeyPairSync, verify, type KeyObject } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { utils, type ParsedKey } from 'ssh2';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../../src/core/util/logger';
import { prepareAuth } from '../../../../src/infra/ssh/auth';
import { parsePrivateKey } from '../../../../src/infra/ssh/pkcs8Keys';
import { sshString, tempDirFactory } from '../../../support/sshTestKit';

const tempDir = tempDirFactory('pleg-pkcs8-');
const PASSPHRASE = 'correct horse';

function one(value: ParsedKey | ParsedKey[] | Error): ParsedKey {
  if (value instanceof Error) throw value;
  if (Array.isArray(value)) throw new Error('more than one key');
  return value;
}

function pkcs8(key: KeyObject, passphrase?: string): Buffer {
  const pem = passphrase === undefined ? key.export({ type: 'pkcs8', format: 'pem' }) : key.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase });
  return Buffer.from(pem);
}

const wireString = (bytes: Buffer | string): Buffer => sshString(typeof bytes === 'string' ? Buffer.from(bytes) : bytes);

/** An mpint (RFC 4251): big-endian, no leading zero bytes, one zero byte ahead of a set top bit. */
function mpint(bytes: Buffer): Buffer {
  let at = 0;
  while (at < bytes.length - 1 && bytes[at] === 0) at++;
  const trimmed = bytes.subarray(at);
  return wireString((trimmed[0] as number) & 0x80 ? Buffer.concat([Buffer.of(0), trimmed]) : trimmed);
}

/** The public key's SSH wire form (RFC 4253, 5656, 8709), built from node:crypto's JWK, not through ssh2. */
function publicSsh(publicKey: KeyObject): Buffer {
  const jwk = publicKey.export({ format: 'jwk' });
  const b = (v: string | undefined): Buffer => Buffer.from(v ?? '', 'base64url');
  if (jwk.kty === 'RSA') return Buffer.concat([wireString('ssh-rsa'), mpint(b(jwk.e)), mpint(b(jwk.n))]);
  if (jwk.kty === 'EC') {
    const curve = `nistp${(jwk.crv ?? '').slice(2)}`;
    return Buffer.concat([wireString(`ecdsa-sha2-${curve}`), wireString(curve), wireString(Buffer.concat([Buffer.of(4), b(jwk.x), b(jwk.y)]))]);
  }
  return Buffer.concat([wireString('ssh-ed25519'), wireString(b(jwk.x))]);
}

/** An Ed25519 pair whose public key starts with a zero byte when `leadingZero` (1 draw in 256). */
function ed25519(leadingZero: boolean): { privateKey: KeyObject; publicKey: KeyObject } {
  for (;;) {
    const pair = generateKeyPairSync('ed25519');
    const first = pair.publicKey.export({ type: 'spki', format: 'der' }).at(-32);
    if ((first === 0) === leadingZero) return pair;
  }
}

const pairs: [string, { privateKey: KeyObject; publicKey: KeyObject }, string][] = [
  ['RSA', generateKeyPairSync('rsa', { modulusLength: 2048 }), 'ssh-rsa'],
  ['ECDSA P-256', generateKeyPairSync('ec', { namedCurve: 'P-256' }), 'ecdsa-sha2-nistp256'],
  ['ECDSA P-384', generateKeyPairSync('ec', { namedCurve: 'P-384' }), 'ecdsa-sha2-nistp384'],
  ['ECDSA P-521', generateKeyPairSync('ec', { namedCurve: 'P-521' }), 'ecdsa-sha2-nistp521'],
  ['Ed25519', ed25519(false), 'ssh-ed25519'],
  ['Ed25519 (public key starting with a zero byte)', ed25519(true), 'ssh-ed25519'],
];

describe('parsePrivateKey', () => {
  it('ssh2 itself refuses PKCS#8 (the reason for the conversion)', () => {
    expect(utils.parseKey(pkcs8(generateKeyPairSync('ed25519').privateKey))).toBeInstanceOf(Error);
  });

  for (const [name, { privateKey, publicKey }, type] of pairs) {
    it(`reads a PKCS#8 ${name} key, plain and encrypted: same public key, and its signatures verify`, () => {
      for (const passphrase of [undefined, PASSPHRASE]) {
        const key = one(parsePrivateKey(pkcs8(privateKey, passphrase), passphrase));
        expect(key.type).toBe(type);
        expect(key.isPrivateKey()).toBe(true);
        expect(key.getPublicSSH().equals(publicSsh(publicKey))).toBe(true);
        const data = Buffer.from(`signed by the ${name} key`);
        const signature = key.sign(data);
        expect(key.verify(data, signature)).toBe(true);
        if (type === 'ssh-ed25519') expect(verify(null, data, publicKey, signature)).toBe(true);
      }
    });
  }

  it('an encrypted PKCS#8 key without a passphrase asks for one (ssh2’s wording), a wrong one is named', () => {
    const data = pkcs8(generateKeyPairSync('ed25519').privateKey, PASSPHRASE);
    expect((parsePrivateKey(data) as Error).message).toMatch(/encrypted .*no passphrase given/i);
    expect((parsePrivateKey(data, 'wrong') as Error).message).toMatch(/bad passphrase/i);
  });

  it('a PKCS#8 key of a type SSH does not take is refused by name; other formats go to ssh2 as before', () => {
    expect((parsePrivateKey(pkcs8(generateKeyPairSync('x25519').privateKey)) as Error).message).toMatch(/PKCS#8 x25519 key/);
    const pkcs1 = Buffer.from(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }));
    expect(one(parsePrivateKey(pkcs1)).type).toBe('ssh-rsa');
    const sec1 = Buffer.from(generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey.export({ type: 'sec1', format: 'pem' }));
    expect(one(parsePrivateKey(sec1)).type).toBe('ecdsa-sha2-nistp384');
    expect(parsePrivateKey(Buffer.from('not a key'))).toBeInstanceOf(Error);
  });
});

describe('prepareAuth with PKCS#8 identity files', () => {
  it('offers a plain one as a key and an encrypted one as an encrypted key, instead of skipping them', async () => {
    const dir = tempDir();
    const plain = join(dir, 'id_pkcs8');
    const encrypted = join(dir, 'id_pkcs8_encrypted');
    writeFileSync(plain, pkcs8(generateKeyPairSync('ed25519').privateKey));
    writeFileSync(encrypted, pkcs8(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey, PASSPHRASE));
    const prepared = await prepareAuth({ identityFiles: [plain, encrypted] }, silentLogger);
    expect(prepared.skipped).toEqual([]);
    expect(prepared.candidates.map((c) => [c.type, c.label])).toEqual([
      ['publickey', `publickey ${plain} (ssh-ed25519)`],
      ['encrypted', `publickey ${encrypted} (encrypted)`],
    ]);
  });
});
