// Core owns the what-if's types; the panel protocol in src/shared imports them, never the reverse.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../../..');

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) return sources(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

describe('layering', () => {
  it('nothing in src/core imports from src/shared, src/host or vscode', () => {
    const offenders = sources('src/core').filter((file) => /from '(?:[./]+\/(?:shared|host)\/[^']*|vscode)'/u.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(offenders).toEqual([]);
  });

  it('the panel protocol takes the what-if types from core', () => {
    expect(readFileSync(join(ROOT, 'src/shared/panelProtocol.ts'), 'utf8')).toMatch(/from '\.\.\/core\/whatIf\/whatIfTypes'/u);
  });
});
