// The SSH SecretStore over VS Code's SecretStorage. SecretStorage cannot list its keys, so the names of the
// keys this store wrote (never the values) are remembered in globalState; "Forget Stored SSH Key
// Passphrases" deletes exactly those.

import type * as vscode from 'vscode';
import type { SecretStore } from '../../infra/ssh/secrets';

export const STORED_SECRET_KEYS_STATE = 'plegDoctor.nodeAccess.storedSecretKeys';

export type SecretStorageLike = Pick<vscode.SecretStorage, 'get' | 'store' | 'delete'>;
export type MementoLike = Pick<vscode.Memento, 'get' | 'update'>;

export class SecretStorageStore implements SecretStore {
  /** Updates of the key list run one after another, so concurrent stores cannot lose a name. */
  private listUpdate: Promise<void> = Promise.resolve();

  constructor(
    private readonly secrets: SecretStorageLike,
    private readonly state: MementoLike,
  ) {}

  async get(key: string): Promise<string | undefined> {
    return this.secrets.get(key);
  }

  async store(key: string, value: string): Promise<void> {
    await this.secrets.store(key, value);
    await this.updateList((keys) => (keys.includes(key) ? keys : [...keys, key]));
  }

  async delete(key: string): Promise<void> {
    await this.secrets.delete(key);
    await this.updateList((keys) => keys.filter((k) => k !== key));
  }

  /** Names of the keys this store has written and not deleted. */
  storedKeys(): string[] {
    const value = this.state.get<unknown>(STORED_SECRET_KEYS_STATE);
    return Array.isArray(value) ? value.filter((k): k is string => typeof k === 'string') : [];
  }

  /** Deletes every secret this store wrote; returns how many. */
  async forgetAll(): Promise<number> {
    const keys = this.storedKeys();
    for (const key of keys) await this.secrets.delete(key);
    await this.updateList((current) => current.filter((k) => !keys.includes(k)));
    return keys.length;
  }

  private updateList(change: (keys: string[]) => string[]): Promise<void> {
    const next = this.listUpdate.then(async () => {
      await this.state.update(STORED_SECRET_KEYS_STATE, change(this.storedKeys()));
    });
    // A failed update must not wedge every later one; the caller still sees this failure.
    this.listUpdate = next.catch(() => undefined);
    return next;
  }
}
