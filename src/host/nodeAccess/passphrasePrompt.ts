// Asks for the passphrase of an encrypted identity file. The auth code stores it in SecretStorage once it
// has unlocked the key, so this is asked at most once per key. Prompts are serialised like the host-key modal.

import type * as vscode from 'vscode';
import type { Localize } from '../../core/tree/localize';

export type ShowInputBox = (options: vscode.InputBoxOptions) => Thenable<string | undefined>;

export function passphraseInputOptions(keyPath: string, t: Localize): vscode.InputBoxOptions {
  return { title: t('PLEG Doctor: SSH key passphrase'), prompt: t('Passphrase for {0}', keyPath), password: true, ignoreFocusOut: true };
}

export function createPassphrasePrompt(show: ShowInputBox, t: Localize): (keyPath: string) => Promise<string | undefined> {
  let queue: Promise<unknown> = Promise.resolve();
  return (keyPath) => {
    const answer = queue.then(async () => {
      const value = await show(passphraseInputOptions(keyPath, t));
      // Escape gives undefined: the key is then skipped, and the auth error says so.
      return value === undefined || value === '' ? undefined : value;
    });
    queue = answer.catch(() => undefined);
    return answer;
  };
}
