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
  | 'passphrase'
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

export class SshUnreachableError extends SshError {
  readonly kind = 'unreachable';
  constructor(
    target: string,
    /** ECONNREFUSED, ETIMEDOUT, EHOSTUNREACH, ENOTFOUND, … or 'handshake-timeout'. */
    readonly code: string,
    cause?: unknown,
  ) {
    const why: Record<string, string> = {
      ECONNREFUSED: 'connection refused (nothing listens on that port)',
      ETIMEDOUT: 'connection timed out',
      EHOSTUNREACH: 'host unreachable',
      ENETUNREACH: 'network unreachable',
      ENOTFOUND: 'host name not found',
      'handshake-timeout': 'no SSH handshake within the connect timeout',
    };
    super(`cannot reach SSH server ${target}: ${why[code] ?? code}`, target, { cause });
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

export class SshPassphraseError extends SshError {
  readonly kind = 'passphrase';
  constructor(
    target: string,
    readonly keyPath: string,
    /** The wrong passphrase came from the secret store (and was deleted there), not from the user just now. */
    readonly wasStored = false,
  ) {
    super(`wrong passphrase for identity file ${keyPath}; ${wasStored ? 'the stored passphrase was forgotten, you will be asked again' : 'try again'}`, target);
  }
}

export class SshConfigError extends SshError {
  readonly kind = 'config';
}
