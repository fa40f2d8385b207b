// OpenSSH known_hosts verification (sshd(8) "SSH_KNOWN_HOSTS FILE FORMAT").
//
// Semantics we follow, and where we deliberately differ:
// - Host names are matched as `host` on port 22 and as `[host]:port` otherwise, exactly as ssh writes them.
// - Patterns may use `*` and `?`; a `!pattern` that matches makes the whole line not apply.
// - Hashed entries `|1|base64(salt)|base64(HMAC-SHA1(salt, name))` are matched by recomputing the HMAC.
// - `@revoked` lines revoke the key for every host, whatever the host field says.
// - `@cert-authority` lines name a CA that signs host certificates. ssh2 never presents certificates
//   to us, so a CA key is never a match for a plain host key: such lines are ignored for matching.
// - A host known with a key of the same type that differs is "changed". A host known only with keys of
//   other types is "unknown" (as OpenSSH asks again in that case), with those types listed so the
//   confirmation can say so.

import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';

export type HostKeyStatus = 'trusted' | 'unknown' | 'changed' | 'revoked';

export interface KnownHostsLineRef {
  file: string;
  /** 1-based. */
  line: number;
}

export interface HostKeyVerdict {
  status: HostKeyStatus;
  keyType: string;
  /** `SHA256:<base64 without padding>`, as `ssh-keygen -l` prints it. */
  fingerprint: string;
  /** trusted: the entry that matched; changed: the entry with the other key; revoked: the @revoked entry. */
  matchedLine?: KnownHostsLineRef;
  /** unknown: key types already known for this host (a different type was presented). */
  otherKnownKeyTypes?: string[];
}

export interface KnownHostsEntry {
  marker: 'revoked' | 'cert-authority' | undefined;
  /** Comma-separated host patterns, or one hashed `|1|…` token. */
  hosts: string;
  keyType: string;
  key: Buffer;
  ref: KnownHostsLineRef;
}

export interface KnownHostsSource {
  file: string;
  text: string;
}

/** Parses a known_hosts file; malformed lines are skipped (as ssh does) and reported in `skipped`. */
export function parseKnownHosts(source: KnownHostsSource): { entries: KnownHostsEntry[]; skipped: KnownHostsLineRef[] } {
  const entries: KnownHostsEntry[] = [];
  const skipped: KnownHostsLineRef[] = [];
  const lines = source.text.split(/\r?\n/);
  lines.forEach((raw, index) => {
    const ref = { file: source.file, line: index + 1 };
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const fields = line.split(/\s+/);
    let marker: KnownHostsEntry['marker'];
    if (fields[0]?.startsWith('@')) {
      const name = fields.shift();
      if (name === '@revoked') marker = 'revoked';
      else if (name === '@cert-authority') marker = 'cert-authority';
      else {
        skipped.push(ref);
        return;
      }
    }
    const [hosts, keyType, keyBase64] = fields;
    if (hosts === undefined || keyType === undefined || keyBase64 === undefined || !/^[A-Za-z0-9+/]+=*$/.test(keyBase64)) {
      skipped.push(ref);
      return;
    }
    const key = Buffer.from(keyBase64, 'base64');
    if (keyTypeOfBlob(key) !== keyType) {
      skipped.push(ref);
      return;
    }
    entries.push({ marker, hosts, keyType, key, ref });
  });
  return { entries, skipped };
}

/** The name ssh looks up: `host` on port 22, `[host]:port` otherwise. */
export function knownHostsName(host: string, port: number): string {
  return port === 22 ? host : `[${host}]:${port}`;
}

/** The key type string at the start of an SSH public key blob (RFC 4253 §6.6), or undefined. */
export function keyTypeOfBlob(blob: Buffer): string | undefined {
  if (blob.length < 4) return undefined;
  const length = blob.readUInt32BE(0);
  if (length === 0 || length > 64 || blob.length < 4 + length) return undefined;
  return blob.subarray(4, 4 + length).toString('latin1');
}

export function sha256Fingerprint(blob: Buffer): string {
  return `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
}

/** OpenSSH's match_pattern: `*` any run, `?` one character, case-insensitive for host names. */
export function matchWildcard(pattern: string, name: string): boolean {
  const p = pattern.toLowerCase();
  const s = name.toLowerCase();
  // Iterative glob with backtracking to the last `*`.
  let pi = 0;
  let si = 0;
  let starP = -1;
  let starS = 0;
  while (si < s.length) {
    const pc = p[pi];
    if (pc === '*') {
      starP = pi++;
      starS = si;
    } else if (pc !== undefined && (pc === '?' || pc === s[si])) {
      pi++;
      si++;
    } else if (starP >= 0) {
      pi = starP + 1;
      si = ++starS;
    } else {
      return false;
    }
  }
  while (p[pi] === '*') pi++;
  return pi === p.length;
}

function hashedMatches(token: string, name: string): boolean {
  const parts = token.split('|');
  // ['', '1', salt, hash]
  if (parts.length !== 4 || parts[1] !== '1' || parts[2] === undefined || parts[3] === undefined) return false;
  const salt = Buffer.from(parts[2], 'base64');
  const expected = Buffer.from(parts[3], 'base64');
  const actual = createHmac('sha1', salt).update(name).digest();
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** Whether the host field of a line applies to `name` (already in `[host]:port` form when needed). */
export function hostFieldMatches(hosts: string, name: string): boolean {
  if (hosts.startsWith('|')) return hashedMatches(hosts, name);
  let positive = false;
  for (const raw of hosts.split(',')) {
    if (raw === '') continue;
    const negated = raw.startsWith('!');
    const pattern = negated ? raw.slice(1) : raw;
    if (matchWildcard(pattern, name)) {
      if (negated) return false;
      positive = true;
    }
  }
  return positive;
}

/** Pure verdict over already-parsed entries (in the order ssh reads them). */
export function verifyHostKey(entries: readonly KnownHostsEntry[], host: string, port: number, presented: Buffer): HostKeyVerdict {
  const keyType = keyTypeOfBlob(presented) ?? 'unknown';
  const fingerprint = sha256Fingerprint(presented);
  const revoked = entries.find((e) => e.marker === 'revoked' && e.key.equals(presented));
  if (revoked !== undefined) return { status: 'revoked', keyType, fingerprint, matchedLine: revoked.ref };

  const name = knownHostsName(host, port);
  const forHost = entries.filter((e) => e.marker === undefined && hostFieldMatches(e.hosts, name));
  const same = forHost.find((e) => e.key.equals(presented));
  if (same !== undefined) return { status: 'trusted', keyType, fingerprint, matchedLine: same.ref };
  const sameType = forHost.find((e) => e.keyType === keyType);
  if (sameType !== undefined) return { status: 'changed', keyType, fingerprint, matchedLine: sameType.ref };
  const other = [...new Set(forHost.map((e) => e.keyType))];
  return other.length > 0 ? { status: 'unknown', keyType, fingerprint, otherKnownKeyTypes: other } : { status: 'unknown', keyType, fingerprint };
}

/** One line for the extension's own file: `[host]:port keytype base64`, as ssh would write it unhashed. */
export function formatKnownHostsLine(host: string, port: number, key: Buffer): string {
  const keyType = keyTypeOfBlob(key);
  if (keyType === undefined) throw new Error('cannot record a host key: not an SSH public key blob');
  return `${knownHostsName(host, port)} ${keyType} ${key.toString('base64')}`;
}

export interface KnownHostsFiles {
  /** Read-only files ssh itself uses, e.g. ~/.ssh/known_hosts and /etc/ssh/ssh_known_hosts. */
  readOnly: string[];
  /** The extension's own file (the host passes a path under globalStorageUri); accepted keys go here. */
  own: string;
}

async function readIfPresent(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`cannot read known_hosts file ${file}: ${(error as Error).message}`, { cause: error });
  }
}

/** Reads every file (missing ones are fine) and returns the entries in lookup order. */
export async function loadKnownHosts(files: KnownHostsFiles): Promise<KnownHostsEntry[]> {
  const all: KnownHostsEntry[] = [];
  for (const file of [...files.readOnly, files.own]) {
    const text = await readIfPresent(file);
    if (text !== undefined) all.push(...parseKnownHosts({ file, text }).entries);
  }
  return all;
}

export async function rememberHostKey(ownFile: string, host: string, port: number, key: Buffer): Promise<void> {
  const line = formatKnownHostsLine(host, port, key);
  await mkdir(dirname(ownFile), { recursive: true, mode: 0o700 });
  const existing = (await readIfPresent(ownFile)) ?? '';
  const prefix = existing === '' || existing.endsWith('\n') ? '' : '\n';
  await appendFile(ownFile, `${prefix}${line}\n`, { mode: 0o600 });
}
