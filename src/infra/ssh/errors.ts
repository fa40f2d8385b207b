// Distinct failures of node access, each with a message a user can act on. Callers branch on the class
// (or `kind`), never on message text.

import type { KnownHostsLineRef } from './knownHosts';

export type SshErrorKind =
  | 'auth'
  | 'unreachable'
  | 'host-key-unknown'
  | 'host-key-changed'
  | 'host-key-revoked'
  | 'channel-open'
  | 'disconnected'
  | 'timeout'
  | 'aborted'
  | 'config';

export abstract class SshError extends Error {
  abstract readonly kind: SshErrorKind;
  constructor(
    message: string,
    /** `user@host:port` or `host:port` of the hop that failed. */
    readonly target: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

export class SshAuthError extends SshError {
  readonly kind = 'auth';
  constructor(
    target: string,
    readonly methodsTried: readonly string[],
    detail?: string,
  ) {
    const tried = methodsTried.length > 0 ? methodsTried.join(', ') : 'none (no agent and no usable identity file)';
    super(`SSH authentication to ${target} failed; tried: ${tried}${detail !== undefined ? `. ${detail}` : ''}`, target);
  }
}

/** Why a TCP + SSH connection could not be set up, as a user reads it. */
export function unreachableReason(code: string, timeoutMs?: number): string {
  const after = timeoutMs !== undefined ? ` after ${formatSeconds(timeoutMs)}` : '';
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused (nothing listens on that port)';
    case 'ETIMEDOUT':
    case 'connect-timeout':
      return `timed out${after} (no answer to the TCP connection: host down, or a firewall drops it)`;
    case 'handshake-timeout':
      return `timed out${after}: the TCP connection was accepted, but no SSH handshake followed`;
    case 'auth-timeout':
      return `timed out${after} during authentication`;
    case 'EHOSTUNREACH':
    case 'EHOSTDOWN':
      return 'no route to host';
    case 'ENETUNREACH':
      return 'network unreachable (no route to that network)';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host name not found';
    case 'closed-before-greeting':
      return 'the connection was accepted, then closed before the SSH server greeted (no SSH server on that port, or a firewall or proxy in between)';
    default:
      return code;
  }
}

function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}

export class SshUnreachableError extends SshError {
  readonly kind = 'unreachable';
  constructor(
    target: string,
    /**
     * ECONNREFUSED, EHOSTUNREACH, ENETUNREACH, ENOTFOUND, … from the socket, or ours: 'connect-timeout' (no TCP
     * connection in time), 'handshake-timeout' (connected, no SSH handshake in time), 'auth-timeout',
     * 'closed-before-greeting' (connected, then closed or reset before the server's identification line).
     */
    readonly code: string,
    cause?: unknown,
    /** The deadline that expired, for the timeout codes. */
    readonly timeoutMs?: number,
  ) {
    super(`could not connect to ${target}: ${unreachableReason(code, timeoutMs)}`, target, { cause });
  }
}

export interface HostKeyFacts {
  host: string;
  port: number;
  keyType: string;
  fingerprint: string;
}

export class HostKeyUnknownError extends SshError {
  readonly kind = 'host-key-unknown';
  constructor(
    readonly facts: HostKeyFacts,
    readonly otherKnownKeyTypes: readonly string[] = [],
  ) {
    const other = otherKnownKeyTypes.length > 0 ? ` (this host is known with other key types: ${otherKnownKeyTypes.join(', ')})` : '';
    super(
      `host key of ${facts.host}:${facts.port} is not known and was not accepted: ${facts.keyType} ${facts.fingerprint}${other}`,
      `${facts.host}:${facts.port}`,
    );
  }
}

export class HostKeyChangedError extends SshError {
  readonly kind = 'host-key-changed';
  constructor(
    readonly facts: HostKeyFacts,
    readonly knownLine: KnownHostsLineRef,
  ) {
    super(
      `WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED for ${facts.host}:${facts.port}! Someone could be intercepting the ` +
        `connection (man-in-the-middle), or the host key was replaced. Connection refused. Presented ${facts.keyType} key ` +
        `${facts.fingerprint} differs from the key at ${knownLine.file}:${knownLine.line}. If the change is expected, remove ` +
        `that line and connect again.`,
      `${facts.host}:${facts.port}`,
    );
  }
}

export class HostKeyRevokedError extends SshError {
  readonly kind = 'host-key-revoked';
  constructor(
    readonly facts: HostKeyFacts,
    readonly revokedLine: KnownHostsLineRef,
  ) {
    super(
      `host key of ${facts.host}:${facts.port} (${facts.keyType} ${facts.fingerprint}) is REVOKED by ` +
        `${revokedLine.file}:${revokedLine.line}; connection refused`,
      `${facts.host}:${facts.port}`,
    );
  }
}

export type ChannelOpenFailure = 'prohibited' | 'open-failed' | 'other';

export class ChannelOpenError extends SshError {
  readonly kind = 'channel-open';
  constructor(
    target: string,
    readonly channel: string,
    readonly failure: ChannelOpenFailure,
    /** SSH_MSG_CHANNEL_OPEN_FAILURE reason code (RFC 4254 §5.1), when the server sent one. */
    readonly reasonCode: number | undefined,
    readonly hint: string,
    cause?: unknown,
  ) {
    super(`SSH channel ${channel} on ${target} could not be opened (${failure}): ${hint}`, target, { cause });
  }
}

export class SshDisconnectedError extends SshError {
  readonly kind = 'disconnected';
  constructor(target: string, detail: string, cause?: unknown) {
    super(`SSH connection to ${target} was lost: ${detail}`, target, { cause });
  }
}

export class SshTimeoutError extends SshError {
  readonly kind = 'timeout';
  constructor(target: string, what: string, timeoutMs: number) {
    super(`${what} on ${target} did not finish within ${timeoutMs} ms`, target);
  }
}

export class SshAbortedError extends SshError {
  readonly kind = 'aborted';
  constructor(target: string, what: string, cause?: unknown) {
    super(`${what} on ${target} was cancelled`, target, { cause });
  }
}

export class SshConfigError extends SshError {
  readonly kind = 'config';
}
