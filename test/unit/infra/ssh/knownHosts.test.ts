import { execFileSync } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  formatKnownHostsLine,
  hostFieldMatches,
  keyTypeOfBlob,
  loadKnownHosts,
  matchWildcard,
  parseKnownHosts,
  rememberHostKey,
  sha256Fingerprint,
  verifyHostKey,
} from '../../../../src/infra/ssh/knownHosts';
import { ed25519Blob, sshString, tempDirFactory } from '../../../support/sshTestKit';

const tempDir = tempDirFactory('pleg-kh-');

function fakeBlob(type: string): Buffer {
  return Buffer.concat([sshString(Buffer.from(type)), sshString(randomBytes(32))]);
}

/** A hashed host entry exactly as `ssh-keygen -H` writes it: |1|base64(salt)|base64(HMAC-SHA1(salt, name)). */
function hashedName(name: string): string {
  const salt = randomBytes(20);
  return `|1|${salt.toString('base64')}|${createHmac('sha1', salt).update(name).digest('base64')}`;
}

function entries(text: string) {
  return parseKnownHosts({ file: '/k', text }).entries;
}

const key = ed25519Blob();
const other = ed25519Blob();
const b64 = key.toString('base64');

describe('known_hosts matching', () => {
  it('trusts a plain host name on port 22 and reports the line', () => {
    const verdict = verifyHostKey(entries(`# comment\nnode-1,10.0.0.1 ssh-ed25519 ${b64} root@node-1\n`), '10.0.0.1', 22, key);
    expect(verdict.status).toBe('trusted');
    expect(verdict.matchedLine).toEqual({ file: '/k', line: 2 });
  });

  it('requires [host]:port for other ports, as ssh writes them', () => {
    const list = entries(`10.0.0.1 ssh-ed25519 ${b64}\n`);
    expect(verifyHostKey(list, '10.0.0.1', 2222, key).status).toBe('unknown');
    expect(verifyHostKey(entries(`[10.0.0.1]:2222 ssh-ed25519 ${b64}\n`), '10.0.0.1', 2222, key).status).toBe('trusted');
  });

  it('matches wildcards and honours negation', () => {
    expect(matchWildcard('*.example.com', 'Node-1.EXAMPLE.com')).toBe(true);
    expect(matchWildcard('node-?', 'node-12')).toBe(false);
    expect(matchWildcard('10.0.*.?', '10.0.3.7')).toBe(true);
    expect(matchWildcard('a*b*c', 'axxbyyc')).toBe(true);
    expect(matchWildcard('a*b*c', 'axxbyy')).toBe(false);
    expect(hostFieldMatches('*.example.com,!bad.example.com', 'bad.example.com')).toBe(false);
    expect(hostFieldMatches('*.example.com,!bad.example.com', 'good.example.com')).toBe(true);
    expect(verifyHostKey(entries(`[10.0.*]:2222 ssh-ed25519 ${b64}\n`), '10.0.0.9', 2222, key).status).toBe('trusted');
  });

  it('matches hashed entries for both name forms and nothing else', () => {
    const list = entries(`${hashedName('[127.0.0.1]:22022')} ssh-ed25519 ${b64}\n${hashedName('node-7')} ssh-ed25519 ${b64}\n`);
    expect(verifyHostKey(list, '127.0.0.1', 22022, key).status).toBe('trusted');
    expect(verifyHostKey(list, 'node-7', 22, key).status).toBe('trusted');
    expect(verifyHostKey(list, '127.0.0.1', 22, key).status).toBe('unknown');
    expect(verifyHostKey(list, 'node-8', 22, key).status).toBe('unknown');
  });

  it('reports a different key of the same type as changed, naming the known line', () => {
    const verdict = verifyHostKey(entries(`\nnode-1 ssh-ed25519 ${other.toString('base64')}\n`), 'node-1', 22, key);
    expect(verdict.status).toBe('changed');
    expect(verdict.matchedLine).toEqual({ file: '/k', line: 2 });
  });

  it('treats a host known only with other key types as unknown and lists them', () => {
    const rsa = fakeBlob('ssh-rsa');
    const verdict = verifyHostKey(entries(`node-1 ssh-rsa ${rsa.toString('base64')}\n`), 'node-1', 22, key);
    expect(verdict.status).toBe('unknown');
    expect(verdict.otherKnownKeyTypes).toEqual(['ssh-rsa']);
  });

  it('refuses @revoked keys whatever the host field, even when also listed as trusted', () => {
    const list = entries(`node-1 ssh-ed25519 ${b64}\n@revoked * ssh-ed25519 ${b64}\n`);
    expect(verifyHostKey(list, 'node-1', 22, key).status).toBe('revoked');
    expect(verifyHostKey(list, 'node-1', 22, key).matchedLine?.line).toBe(2);
  });

  it('never treats an @cert-authority key as a plain host key', () => {
    expect(verifyHostKey(entries(`@cert-authority *.example.com ssh-ed25519 ${b64}\n`), 'n.example.com', 22, key).status).toBe('unknown');
  });

  it('skips malformed lines and lines whose declared type contradicts the blob', () => {
    const parsed = parseKnownHosts({ file: '/k', text: `garbage\nnode ssh-rsa ${b64}\n@weird node ssh-ed25519 ${b64}\nnode ssh-ed25519 !!!\n` });
    expect(parsed.entries).toHaveLength(0);
    expect(parsed.skipped.map((s) => s.line)).toEqual([1, 2, 3, 4]);
  });

  it('formats the fingerprint as SHA256:<base64 without padding>', () => {
    expect(sha256Fingerprint(key)).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
    expect(keyTypeOfBlob(key)).toBe('ssh-ed25519');
  });
});

// ssh-keygen is required (CI installs openssh-client): a missing tool fails this test, it does not skip it.
describe('fingerprint agrees with ssh-keygen -lf', () => {
  it('for a key generated by ssh-keygen', () => {
    const dir = tempDir();
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'k')]);
    const pub = readFileSync(join(dir, 'k.pub'), 'utf8').split(' ');
    const blob = Buffer.from(pub[1] ?? '', 'base64');
    const printed = execFileSync('ssh-keygen', ['-lf', join(dir, 'k.pub')], { encoding: 'utf8' }).split(' ')[1];
    expect(sha256Fingerprint(blob)).toBe(printed);
  }, 30_000);
});

describe('files', () => {
  it('reads missing files as empty, appends accepted keys to the own file, and then trusts them', async () => {
    const dir = tempDir();
    const own = join(dir, 'sub', 'known_hosts');
    const files = { readOnly: [join(dir, 'absent')], own };
    expect(verifyHostKey(await loadKnownHosts(files), '127.0.0.1', 22022, key).status).toBe('unknown');
    await rememberHostKey(own, '127.0.0.1', 22022, key);
    expect(readFileSync(own, 'utf8')).toBe(`[127.0.0.1]:22022 ssh-ed25519 ${b64}\n`);
    expect(verifyHostKey(await loadKnownHosts(files), '127.0.0.1', 22022, key).status).toBe('trusted');
    expect(formatKnownHostsLine('node', 22, key)).toBe(`node ssh-ed25519 ${b64}`);
  });

  it('names the file when it cannot be read', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'f'), '');
    await expect(loadKnownHosts({ readOnly: [join(dir, 'f', 'x')], own: join(dir, 'o') })).rejects.toThrow(/cannot read known_hosts file .*f\/x/);
  });
});
