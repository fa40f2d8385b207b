// Writes throwaway kubeconfig files for the gateway tests.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestContext {
  name: string;
  server: string;
  token?: string;
}

export class KubeconfigDir {
  readonly dir = mkdtempSync(join(tmpdir(), 'pleg-kube-'));

  write(file: string, contexts: TestContext[], current?: string): string {
    const doc = {
      apiVersion: 'v1',
      kind: 'Config',
      'current-context': current ?? contexts[0]?.name,
      clusters: contexts.map((c) => ({ name: `${c.name}-cluster`, cluster: { server: c.server } })),
      users: contexts.map((c) => ({ name: `${c.name}-user`, user: c.token === undefined ? {} : { token: c.token } })),
      contexts: contexts.map((c) => ({ name: c.name, context: { cluster: `${c.name}-cluster`, user: `${c.name}-user` } })),
    };
    return this.writeText(file, JSON.stringify(doc, null, 2));
  }

  writeText(file: string, text: string): string {
    const path = join(this.dir, file);
    writeFileSync(path, text);
    return path;
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export async function waitFor(what: string, predicate: () => boolean, timeoutMs = 10_000): Promise<void> {
  const start = Date.now();
  while (!predicate()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
