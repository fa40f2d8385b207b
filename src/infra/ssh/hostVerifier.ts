// The ssh2 hostVerifier: trusted keys pass, changed or revoked keys are refused without asking, and an
// unknown key is accepted only if the caller's confirmation says yes, in which case it is remembered in
// the extension's own known_hosts file. The verdict is kept so the connection can turn ssh2's generic
// "Host denied" into an error that names the cause.

import type { Logger } from '../../core/util/logger';
import { HostKeyChangedError, HostKeyRevokedError, HostKeyUnknownError, SshConfigError, type SshError } from './errors';
import { loadKnownHosts, rememberHostKey, verifyHostKey, type HostKeyVerdict, type KnownHostsFiles } from './knownHosts';
import { errorText } from '../../core/util/errorText';

export interface UnknownHostQuestion {
  host: string;
  port: number;
  keyType: string;
  fingerprint: string;
  /** Set when the host is already known with keys of other types. */
  otherKnownKeyTypes?: string[];
}

/**
 * The VS Code layer shows a modal; the CLI accepts only a fingerprint given with --accept-host-key. The
 * signal aborts when the connection attempt is cancelled: a "yes" given after that is ignored.
 */
export type ConfirmUnknownHost = (question: UnknownHostQuestion, signal?: AbortSignal) => Promise<boolean>;

export const refuseUnknownHosts: ConfirmUnknownHost = () => Promise.resolve(false);

export interface HostCheck {
  /** Pass as ssh2's `hostVerifier`. Never returns a value: ssh2 treats any returned value as the answer. */
  verifier: (key: Buffer, verify: (permitted: boolean) => void) => void;
  /** The error explaining a refusal, once the verifier has refused. */
  refusal(): SshError | undefined;
  verdict(): HostKeyVerdict | undefined;
}

export interface HostCheckOptions {
  host: string;
  port: number;
  files: KnownHostsFiles;
  confirmUnknownHost: ConfirmUnknownHost;
  logger: Logger;
  /** The connection attempt's cancellation: once aborted, an unknown key is refused and nothing is written. */
  signal?: AbortSignal;
  onPrompt?: (prompting: boolean) => void;
}

export function createHostCheck(options: HostCheckOptions): HostCheck {
  let verdict: HostKeyVerdict | undefined;
  let refusal: SshError | undefined;

  const decide = async (key: Buffer): Promise<boolean> => {
    const entries = await loadKnownHosts(options.files);
    verdict = verifyHostKey(entries, options.host, options.port, key);
    const facts = { host: options.host, port: options.port, keyType: verdict.keyType, fingerprint: verdict.fingerprint };
    switch (verdict.status) {
      case 'trusted':
        return true;
      case 'changed':
        refusal = new HostKeyChangedError(facts, verdict.matchedLine ?? { file: '(unknown)', line: 0 });
        options.logger.error(refusal.message);
        return false;
      case 'revoked':
        refusal = new HostKeyRevokedError(facts, verdict.matchedLine ?? { file: '(unknown)', line: 0 });
        options.logger.error(refusal.message);
        return false;
      case 'unknown': {
        const question: UnknownHostQuestion = verdict.otherKnownKeyTypes !== undefined ? { ...facts, otherKnownKeyTypes: verdict.otherKnownKeyTypes } : facts;
        let accepted = false;
        if (options.signal?.aborted !== true) {
          options.onPrompt?.(true);
          try {
            accepted = (await options.confirmUnknownHost(question, options.signal)) === true;
          } finally {
            options.onPrompt?.(false);
          }
        }
        // "Trust" clicked after the user cancelled the snapshot answers a question nobody waits for any more.
        if (accepted && options.signal?.aborted === true) {
          options.logger.info(`host key ${verdict.keyType} ${verdict.fingerprint} was trusted after the connection was cancelled: not remembered`);
          accepted = false;
        }
        if (!accepted) {
          refusal = new HostKeyUnknownError(facts, verdict.otherKnownKeyTypes ?? []);
          return false;
        }
        await rememberHostKey(options.files.own, options.host, options.port, key);
        options.logger.info(`remembered host key ${verdict.keyType} ${verdict.fingerprint} in ${options.files.own}`);
        return true;
      }
    }
  };

  return {
    verifier: (key, verify) => {
      // A cancelled attempt has already torn its connection down: ssh2 must not be answered any more.
      const answer = (ok: boolean): void => {
        if (options.signal?.aborted !== true) verify(ok);
      };
      decide(key).then(
        (ok) => answer(ok),
        (error: unknown) => {
          // Any failure while checking (unreadable file, confirmation threw) refuses the key.
          refusal = new SshConfigError(
            `host key of ${options.host}:${options.port} could not be checked, so it was refused: ${errorText(error)}`,
            `${options.host}:${options.port}`,
            { cause: error },
          );
          options.logger.error(refusal.message);
          answer(false);
        },
      );
    },
    refusal: () => refusal,
    verdict: () => verdict,
  };
}
