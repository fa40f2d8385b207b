// Asks for the passphrase of an encrypted identity file, when the server has said it would accept that key.
// The auth code stores it in SecretStorage once it has unlocked the key, asks again after a wrong one (three
// tries, like ssh), and cancels the question when the snapshot is cancelled: the box closes and a late
// answer is ignored. Prompts are serialised like the host-key modal.

import type * as vscode from 'vscode';
import type { Localize } from '../../core/tree/localize';
import type { PassphraseQuestion } from '../../infra/ssh/auth';

export type ShowInputBox = (options: vscode.InputBoxOptions, token?: vscode.CancellationToken) => Thenable<string | undefined>;

export function passphraseInputOptions(keyPath: string, t: Localize, question?: PassphraseQuestion): vscode.InputBoxOptions {
  const retry = question !== undefined && question.retry;
  return {
    title: t('PLEG Doctor: SSH key passphrase'),
    prompt: retry
      ? t('Wrong passphrase for {0}; try again ({1} of {2})', keyPath, question.attempt, question.maxAttempts)
      : t('Passphrase for {0}', keyPath),
    password: true,
    ignoreFocusOut: true,
  };
}

/** A CancellationToken over an AbortSignal, without importing vscode at run time. */
function tokenFor(signal: AbortSignal): vscode.CancellationToken {
  return {
    get isCancellationRequested() {
      return signal.aborted;
    },
    onCancellationRequested: (listener: (e: unknown) => unknown) => {
      const handler = (): unknown => listener(undefined);
      signal.addEventListener('abort', handler, { once: true });
      return { dispose: () => signal.removeEventListener('abort', handler) };
    },
  };
}

export function createPassphrasePrompt(show: ShowInputBox, t: Localize): (keyPath: string, question?: PassphraseQuestion) => Promise<string | undefined> {
  let queue: Promise<unknown> = Promise.resolve();
  return (keyPath, question) => {
    const signal = question?.signal;
    const answer = queue.then(async () => {
      if (cancelled(signal)) return undefined;
      const value = await show(passphraseInputOptions(keyPath, t, question), signal !== undefined ? tokenFor(signal) : undefined);
      if (cancelled(signal)) return undefined;
      // Escape gives undefined: the key is then skipped, and the auth error says so.
      return value === undefined || value === '' ? undefined : value;
    });
    queue = answer.catch(() => undefined);
    return answer;
  };
}

/** Read through a call: TypeScript would otherwise keep the narrowing of an earlier check across the await. */
function cancelled(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}
