// Which timeline panel shows what: one panel per key (a node as "context/node", a recording by its path,
// the what-if alone). Opening a key that has a panel reveals that panel instead of making another. Pure
// (no vscode) so the rule is tested on its own.

export interface RegisteredPanel {
  reveal(): void;
}

export class PanelRegistry<P extends RegisteredPanel> {
  private readonly panels = new Map<string, P>();

  /** Reveals the key's panel, or makes one with `create`; returns it and whether it is new. */
  open(key: string, create: () => P): { panel: P; created: boolean } {
    const existing = this.panels.get(key);
    if (existing !== undefined) {
      existing.reveal();
      return { panel: existing, created: false };
    }
    const panel = create();
    this.panels.set(key, panel);
    return { panel, created: true };
  }

  /** A panel VS Code restored after a reload: it takes the key over (an older one under it is returned to close). */
  adopt(key: string, panel: P): P | undefined {
    const previous = this.panels.get(key);
    this.panels.set(key, panel);
    return previous === panel ? undefined : previous;
  }

  /** Forgets the panel if it is still the key's (a closed panel must not evict its successor). */
  release(key: string, panel: P): void {
    if (this.panels.get(key) === panel) this.panels.delete(key);
  }

  get(key: string): P | undefined {
    return this.panels.get(key);
  }

  get size(): number {
    return this.panels.size;
  }

  all(): P[] {
    return [...this.panels.values()];
  }
}

export const WHAT_IF_KEY = 'what-if';

export function nodeKey(context: string, node: string): string {
  return `node:${context}/${node}`;
}

export function recordingKey(path: string): string {
  return `recording:${path}`;
}
