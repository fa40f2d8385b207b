import { describe, expect, it } from 'vitest';
import { SecretStorageStore, STORED_SECRET_KEYS_STATE, type MementoLike, type SecretStorageLike } from '../../../../src/host/nodeAccess/secretStorageStore';
import { passphraseSecretKey } from '../../../../src/infra/ssh/secrets';

/** Like VS Code's: async, and state updates land on a later tick. */
function fakes(): { secrets: SecretStorageLike & { values: Map<string, string> }; state: MementoLike & { values: Map<string, unknown> } } {
  const values = new Map<string, string>();
  const stateValues = new Map<string, unknown>();
  const later = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 1));
  return {
    secrets: {
      values,
      get: async (key) => {
        await later();
        return values.get(key);
      },
      store: async (key, value) => {
        await later();
        values.set(key, value);
      },
      delete: async (key) => {
        await later();
        values.delete(key);
      },
    },
    state: {
      values: stateValues,
      get: ((key: string, fallback?: unknown) => (stateValues.has(key) ? stateValues.get(key) : fallback)) as MementoLike['get'],
      update: async (key, value) => {
        await later();
        stateValues.set(key, value);
      },
    },
  };
}

describe('SecretStorageStore', () => {
  it('stores and reads through SecretStorage, and remembers only the key names', async () => {
    const { secrets, state } = fakes();
    const store = new SecretStorageStore(secrets, state);
    const key = passphraseSecretKey('/home/u/.ssh/id_ed25519');
    await store.store(key, 'hunter2');
    expect(await store.get(key)).toBe('hunter2');
    expect(secrets.values.get(key)).toBe('hunter2');
    expect(state.values.get(STORED_SECRET_KEYS_STATE)).toEqual([key]);
    expect(JSON.stringify([...state.values])).not.toContain('hunter2');
  });

  it('keeps every name when stores run concurrently', async () => {
    const { secrets, state } = fakes();
    const store = new SecretStorageStore(secrets, state);
    await Promise.all(['a', 'b', 'c', 'd'].map((k) => store.store(k, `v-${k}`)));
    expect(store.storedKeys().sort()).toEqual(['a', 'b', 'c', 'd']);
  });

  it('delete removes the secret and its name', async () => {
    const { secrets, state } = fakes();
    const store = new SecretStorageStore(secrets, state);
    await store.store('a', '1');
    await store.store('b', '2');
    await store.delete('a');
    expect(secrets.values.has('a')).toBe(false);
    expect(store.storedKeys()).toEqual(['b']);
  });

  it('forgetAll deletes exactly the secrets it stored', async () => {
    const { secrets, state } = fakes();
    secrets.values.set('someone-else', 'keep');
    const store = new SecretStorageStore(secrets, state);
    await store.store('a', '1');
    await store.store('b', '2');
    expect(await store.forgetAll()).toBe(2);
    expect([...secrets.values.keys()]).toEqual(['someone-else']);
    expect(store.storedKeys()).toEqual([]);
    expect(await store.forgetAll()).toBe(0);
  });

  it('ignores a corrupted key list instead of failing', () => {
    const { secrets, state } = fakes();
    state.values.set(STORED_SECRET_KEYS_STATE, 'not a list');
    expect(new SecretStorageStore(secrets, state).storedKeys()).toEqual([]);
  });
});
