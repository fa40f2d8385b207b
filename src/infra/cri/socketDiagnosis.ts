// Why can we not open the CRI socket? Over SSH a missing socket and a permission problem give the same
// "open failed" channel error, so we ask the node with plain execs: `test -S`, `ls -ln`, `id`.

import type { RemoteHost } from '../remote';

export type SocketProblem = 'missing' | 'notASocket' | 'permissionDenied' | 'accessible';

export interface SocketDiagnosis {
  problem: SocketProblem;
  socketPath: string;
  /** `ls -ln` line when the path exists. */
  listing?: string;
  uid?: number;
  message: string;
}

/** Parses `ls -ln` of one file and decides whether uid/gids may read+write it. */
export function socketAccess(listing: string, uid: number, gids: readonly number[]): { mode: string; owner: number; group: number; allowed: boolean } | undefined {
  const match = /^([sdlrwxStT-]{10})\S*\s+\d+\s+(\d+)\s+(\d+)\s/.exec(listing.trim());
  if (!match?.[1]) return undefined;
  const mode = match[1];
  const owner = Number(match[2]);
  const group = Number(match[3]);
  const rw = (offset: number): boolean => mode[offset] === 'r' && mode[offset + 1] === 'w';
  const allowed = uid === 0 || (uid === owner ? rw(1) : gids.includes(group) ? rw(4) : rw(7));
  return { mode, owner, group, allowed };
}

export async function diagnoseSocket(host: RemoteHost, socketPath: string, options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<SocketDiagnosis> {
  const opts = { timeoutMs: options.timeoutMs ?? 5_000, ...(options.signal ? { signal: options.signal } : {}) };
  const [test, ls, idU, idG] = await Promise.all([
    host.exec(['test', '-S', socketPath], opts),
    host.exec(['ls', '-ln', socketPath], opts),
    host.exec(['id', '-u'], opts),
    host.exec(['id', '-G'], opts),
  ]);
  const uid = Number(idU.stdout.trim());
  const gids = idG.stdout.trim().split(/\s+/).filter(Boolean).map(Number);
  const listing = ls.exitCode === 0 ? ls.stdout.trim() : undefined;
  const where = `${socketPath} on ${host.description}`;
  if (ls.exitCode !== 0) {
    // ls fails both for "no such file" and for a parent directory we may not search.
    if (/permission denied/i.test(ls.stderr)) {
      return { problem: 'permissionDenied', socketPath, uid, message: `permission denied: cannot even look at ${where} as uid ${uid} (${ls.stderr.trim()}); connect as root or allow sudo for socat` };
    }
    return { problem: 'missing', socketPath, uid, message: `CRI socket missing: ${where} does not exist (is the container runtime running, and is this the right endpoint?)` };
  }
  if (test.exitCode !== 0) return { problem: 'notASocket', socketPath, listing: listing ?? '', uid, message: `${where} exists but is not a unix socket: ${listing ?? ''}` };
  const access = socketAccess(listing ?? '', uid, gids);
  if (access && !access.allowed) {
    return {
      problem: 'permissionDenied',
      socketPath,
      listing: listing ?? '',
      uid,
      message: `permission denied: ${where} is ${access.mode} owned by uid ${access.owner} gid ${access.group}, and uid ${uid} (groups ${gids.join(',')}) may not open it; connect as root or allow \`sudo -n socat\` for the exec relay`,
    };
  }
  return { problem: 'accessible', socketPath, listing: listing ?? '', uid, message: `${where} is a socket uid ${uid} may open` };
}
