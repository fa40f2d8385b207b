// Where key passphrases live between sessions. The VS Code host backs this with SecretStorage; the CLI
// uses an in-memory store (or none). Never a settings file, never the log.

export interface SecretStore {
  get(key: string): Promise<string | undefined>;
  store(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
}

/** The key under which the passphrase of one identity file is kept. */
export function passphraseSecretKey(keyPath: string): string {
  return `plegDoctor.ssh.passphrase:${keyPath}`;
}

export class MemorySecretStore implements SecretStore {
  private readonly values = new Map<string, string>();
  get(key: string): Promise<string | undefined> {
    return Promise.resolve(this.values.get(key));
  }
  store(key: string, value: string): Promise<void> {
    this.values.set(key, value);
    return Promise.resolve();
  }
  delete(key: string): Promise<void> {
    this.values.delete(key);
    return Promise.resolve();
  }
}
