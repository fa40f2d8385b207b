import { describe, expect, it } from 'vitest';
import type * as vscode from 'vscode';
import { englishText } from '../../../../src/core/tree/localize';
import { createHostKeyPrompt, hostKeyFileName, hostKeyQuestionText } from '../../../../src/host/nodeAccess/hostKeyPrompt';
import { createPassphrasePrompt, passphraseInputOptions } from '../../../../src/host/nodeAccess/passphrasePrompt';
import type { UnknownHostQuestion } from '../../../../src/infra/ssh/hostVerifier';

const question = (host: string, fingerprint = 'SHA256:abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ'): UnknownHostQuestion => ({ host, port: 22022, keyType: 'ssh-ed25519', fingerprint });

interface OpenModal {
  message: string;
  options: vscode.MessageOptions;
  items: string[];
  answer: (item: string | undefined) => void;
}

function fakeShow(): { show: (message: string, options: vscode.MessageOptions, ...items: string[]) => Promise<string | undefined>; open: OpenModal[] } {
  const open: OpenModal[] = [];
  return {
    open,
    show: (message, options, ...items) => new Promise((resolve) => open.push({ message, options, items, answer: resolve })),
  };
}

const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

describe('host key prompt', () => {
  it('is a modal naming host:port, the fingerprint, how to check it, with one Trust and Connect button', () => {
    const text = hostKeyQuestionText({ ...question('10.0.0.7'), otherKnownKeyTypes: ['ssh-rsa'] }, englishText);
    expect(text.message).toBe('Unknown SSH host key for 10.0.0.7:22022');
    expect(text.detail).toContain('ssh-ed25519 key fingerprint is SHA256:abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ');
    expect(text.detail).toContain('ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub');
    expect(text.detail).toContain('other key types: ssh-rsa');
    expect(text.trust).toBe('Trust and Connect');
  });

  it.each([
    ['ssh-ed25519', 'ed25519'],
    ['ssh-rsa', 'rsa'],
    ['rsa-sha2-512', 'rsa'],
    ['ecdsa-sha2-nistp256', 'ecdsa'],
    ['sk-ssh-ed25519@openssh.com', '*'],
  ])('%s keys live in ssh_host_%s_key.pub', (type, name) => {
    expect(hostKeyFileName(type)).toBe(name);
  });

  it('opens the second modal only after the first was answered', async () => {
    const { show, open } = fakeShow();
    const confirm = createHostKeyPrompt(show, englishText);
    const first = confirm(question('a'));
    const second = confirm(question('b'));
    await tick();
    expect(open.map((m) => m.message)).toEqual(['Unknown SSH host key for a:22022']);
    expect(open[0]!.options.modal).toBe(true);
    expect(open[0]!.items).toEqual(['Trust and Connect']);
    open[0]!.answer(undefined); // VS Code's own Cancel
    expect(await first).toBe(false);
    await tick();
    expect(open.map((m) => m.message)).toEqual(['Unknown SSH host key for a:22022', 'Unknown SSH host key for b:22022']);
    open[1]!.answer('Trust and Connect');
    expect(await second).toBe(true);
  });

  it('does not ask twice about a key accepted while the question waited, but asks again after a refusal', async () => {
    const { show, open } = fakeShow();
    const confirm = createHostKeyPrompt(show, englishText);
    const first = confirm(question('a'));
    const same = confirm(question('a'));
    await tick();
    open[0]!.answer('Trust and Connect');
    expect(await first).toBe(true);
    expect(await same).toBe(true);
    expect(open).toHaveLength(1);

    const refused = confirm(question('c'));
    await tick();
    open[1]!.answer(undefined);
    expect(await refused).toBe(false);
    const again = confirm(question('c'));
    await tick();
    expect(open).toHaveLength(3);
    open[2]!.answer('Trust and Connect');
    expect(await again).toBe(true);
  });

  it('a "Trust" clicked after the connection was cancelled answers no and is not remembered', async () => {
    const { show, open } = fakeShow();
    const confirm = createHostKeyPrompt(show, englishText);
    const controller = new AbortController();
    const first = confirm(question('a'), controller.signal);
    const queued = confirm(question('b'), controller.signal);
    await tick();
    controller.abort(new Error('cancelled by the user'));
    open[0]!.answer('Trust and Connect');
    expect(await first).toBe(false);
    // The question waiting behind it is not shown at all.
    expect(await queued).toBe(false);
    expect(open).toHaveLength(1);
    // The next connection to that host asks again instead of passing on the late click.
    const later = confirm(question('a'));
    await tick();
    expect(open).toHaveLength(2);
    open[1]!.answer(undefined);
    expect(await later).toBe(false);
  });

  it('a failing modal refuses that key and does not block the next question', async () => {
    let calls = 0;
    const confirm = createHostKeyPrompt(() => (++calls === 1 ? Promise.reject(new Error('window closed')) : Promise.resolve('Trust and Connect')), englishText);
    await expect(confirm(question('a'))).rejects.toThrow('window closed');
    expect(await confirm(question('b'))).toBe(true);
  });
});

describe('passphrase prompt', () => {
  it('asks with a password box that survives focus loss', () => {
    expect(passphraseInputOptions('/k/id', englishText)).toEqual({ title: 'PLEG Doctor: SSH key passphrase', prompt: 'Passphrase for /k/id', password: true, ignoreFocusOut: true });
  });

  it('says when the previous passphrase was wrong, and which try this is', () => {
    expect(passphraseInputOptions('/k/id', englishText, { attempt: 2, maxAttempts: 3, retry: true }).prompt).toBe('Wrong passphrase for /k/id; try again (2 of 3)');
    expect(passphraseInputOptions('/k/id', englishText, { attempt: 1, maxAttempts: 3, retry: false }).prompt).toBe('Passphrase for /k/id');
  });

  it('closes the box when the connection is cancelled, and ignores an answer given after that', async () => {
    const open: Array<{ token: vscode.CancellationToken | undefined; answer: (v: string | undefined) => void }> = [];
    const ask = createPassphrasePrompt((_options, token) => new Promise((resolve) => open.push({ token, answer: resolve })), englishText);
    const controller = new AbortController();
    const answer = ask('/k/a', { attempt: 1, maxAttempts: 3, retry: false, signal: controller.signal });
    await tick();
    const token = open[0]!.token;
    let closed = 0;
    token?.onCancellationRequested(() => closed++);
    expect(token?.isCancellationRequested).toBe(false);
    controller.abort(new Error('cancelled'));
    expect(token?.isCancellationRequested).toBe(true);
    expect(closed).toBe(1);
    open[0]!.answer('typed too late');
    expect(await answer).toBeUndefined();
  });

  it('serialises the boxes and turns Escape into "no passphrase"', async () => {
    const open: Array<{ prompt: string | undefined; answer: (v: string | undefined) => void }> = [];
    const ask = createPassphrasePrompt((options) => new Promise((resolve) => open.push({ prompt: options.prompt, answer: resolve })), englishText);
    const a = ask('/k/a');
    const b = ask('/k/b');
    await tick();
    expect(open.map((o) => o.prompt)).toEqual(['Passphrase for /k/a']);
    open[0]!.answer(undefined);
    expect(await a).toBeUndefined();
    await tick();
    open[1]!.answer('secret');
    expect(await b).toBe('secret');
  });
});
