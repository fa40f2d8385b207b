// The unknown-host-key question as a modal warning. Questions are serialised: a second connection asking
// while the first modal is open waits for the answer, and a key accepted meanwhile is not asked about twice.

import type * as vscode from 'vscode';
import type { Localize } from '../../core/tree/localize';
import type { ConfirmUnknownHost, UnknownHostQuestion } from '../../infra/ssh/hostVerifier';

export type ShowModalWarning = (message: string, options: vscode.MessageOptions, ...items: string[]) => Thenable<string | undefined>;

/** `ssh-ed25519` → `ed25519`: the name in /etc/ssh/ssh_host_<name>_key.pub. */
export function hostKeyFileName(keyType: string): string {
  if (keyType === 'ssh-ed25519') return 'ed25519';
  if (keyType === 'ssh-rsa' || keyType.startsWith('rsa-')) return 'rsa';
  if (keyType.startsWith('ecdsa-')) return 'ecdsa';
  if (keyType === 'ssh-dss') return 'dsa';
  return '*';
}

export function hostKeyQuestionText(question: UnknownHostQuestion, t: Localize): { message: string; detail: string; trust: string } {
  const file = `/etc/ssh/ssh_host_${hostKeyFileName(question.keyType)}_key.pub`;
  const lines = [
    t('{0} key fingerprint is {1}.', question.keyType, question.fingerprint),
    ...(question.otherKnownKeyTypes !== undefined && question.otherKnownKeyTypes.length > 0
      ? [t('This host is already known with other key types: {0}.', question.otherKnownKeyTypes.join(', '))]
      : []),
    '',
    t('Check the fingerprint out of band before trusting it, e.g. run on the node: ssh-keygen -lf {0}', file),
    t('A trusted key is remembered in PLEG Doctor\'s own known_hosts file.'),
  ];
  return { message: t('Unknown SSH host key for {0}:{1}', question.host, question.port), detail: lines.join('\n'), trust: t('Trust and Connect') };
}

export function createHostKeyPrompt(show: ShowModalWarning, t: Localize): ConfirmUnknownHost {
  let queue: Promise<unknown> = Promise.resolve();
  const accepted = new Set<string>();
  return (question, signal) => {
    const answer = queue.then(async () => {
      // Cancelled while waiting behind another modal: do not ask at all.
      if (cancelled(signal)) return false;
      const id = `${question.host}:${question.port} ${question.fingerprint}`;
      if (accepted.has(id)) return true;
      const text = hostKeyQuestionText(question, t);
      const picked = await show(text.message, { modal: true, detail: text.detail }, text.trust);
      // A modal cannot be closed from outside: "Trust" clicked after the snapshot was cancelled answers
      // nothing, and must not make the next question about this key pass unasked either.
      if (cancelled(signal)) return false;
      const trusted = picked === text.trust;
      if (trusted) accepted.add(id);
      return trusted;
    });
    queue = answer.catch(() => undefined);
    return answer;
  };
}

/** Read through a call: TypeScript would otherwise keep the narrowing of an earlier check across the await. */
function cancelled(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}
