import { describe, expect, it, vi } from 'vitest';
import type * as vscode from 'vscode';

// The store itself needs only the content-provider registration from the editor; opening and showing
// documents is covered by the e2e (CRI snapshot, kubelet log, diagnosis report).
const registered: Array<{ scheme: string; disposed: boolean }> = [];
vi.mock('vscode', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  workspace: {
    registerTextDocumentContentProvider: (scheme: string) => {
      const entry = { scheme, disposed: false };
      registered.push(entry);
      return { dispose: () => (entry.disposed = true) };
    },
  },
}));

const { ReadOnlyDocuments } = await import('../../../../src/host/documents/readOnlyDocuments');

const uri = (scheme: string, path: string): vscode.Uri => ({ scheme, path, toString: () => `${scheme}:${path}` }) as unknown as vscode.Uri;

describe('ReadOnlyDocuments', () => {
  it('registers its scheme, keeps the newest texts, says when one is gone, and fires changes', () => {
    const docs = new ReadOnlyDocuments({ scheme: 'pleg-test', capacity: 2, missingText: (u) => `gone: ${u.path}` });
    expect(registered.at(-1)).toEqual({ scheme: 'pleg-test', disposed: false });
    const changed: string[] = [];
    docs.onDidChange((u) => changed.push(u.toString()));
    docs.set(uri('pleg-test', 'a'), 'A');
    docs.set(uri('pleg-test', 'b'), 'B');
    docs.set(uri('pleg-test', 'a'), 'A2');
    docs.set(uri('pleg-test', 'c'), 'C');
    expect(docs.provideTextDocumentContent(uri('pleg-test', 'a'))).toBe('A2');
    expect(docs.provideTextDocumentContent(uri('pleg-test', 'b'))).toBe('gone: b');
    expect(docs.provideTextDocumentContent(uri('pleg-test', 'c'))).toBe('C');
    expect(changed).toEqual(['pleg-test:a', 'pleg-test:b', 'pleg-test:a', 'pleg-test:c']);
    expect([docs.nextSequence(), docs.nextSequence()]).toEqual([1, 2]);
    expect(() => docs.set(uri('file', '/x'), 'x')).toThrow(/cannot hold a file: URI/u);
    docs.dispose();
    expect(registered.at(-1)?.disposed).toBe(true);
    expect(docs.provideTextDocumentContent(uri('pleg-test', 'c'))).toBe('gone: c');
  });
});
