// The lint rule against import cycles (eslint/noImportCycle.mjs) and the vscode boundary, run by ESLint
// itself on files written for the test: a ring of three modules, one of them through `import type`, fails;
// the same modules with the ring broken by a leaf pass; `vscode` outside src/host fails under the
// project's own config.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, describe, expect, it } from 'vitest';
import { localPlugin } from '../../../eslint/noImportCycle.mjs';

const ROOT = resolve(__dirname, '../../..');
const dir = mkdtempSync(join(tmpdir(), 'pleg-lint-cycle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
}

async function cycleMessages(files: string[]): Promise<string[]> {
  const eslint = new ESLint({
    cwd: dir,
    overrideConfigFile: true,
    overrideConfig: [{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser }, plugins: { local: localPlugin }, rules: { 'local/no-import-cycle': 'error' } }],
  });
  const results = await eslint.lintFiles(files.map((f) => join(dir, f)));
  return results.flatMap((r) => r.messages.map((m) => `${r.filePath.slice(dir.length + 1)}: ${m.message}`));
}

describe('local/no-import-cycle', () => {
  it('reports every module of a ring, a type-only import included, with the path', async () => {
    write({
      'ring/a.ts': "import { b } from './b';\nexport const a = (): number => b + 1;\n",
      'ring/b.ts': "import type { C } from './sub/c';\nexport const b: C = 1;\n",
      'ring/sub/c.ts': "import { a } from '../a';\nexport type C = number;\nexport const c = a;\n",
      'ring/leaf.ts': "import { a } from './a';\nexport const leaf = a;\n",
    });
    const messages = await cycleMessages(['ring/a.ts', 'ring/b.ts', 'ring/sub/c.ts', 'ring/leaf.ts']);
    expect(messages).toHaveLength(3);
    expect(messages[0]).toContain('ring/a.ts: Import cycle: ring/a.ts → ring/b.ts → ring/sub/c.ts → ring/a.ts');
    expect(messages.some((m) => m.startsWith('ring/leaf.ts'))).toBe(false);
  });

  it('passes once a leaf module breaks the ring', async () => {
    write({
      'broken/a.ts': "import { b } from './b';\nexport const a = (): number => b + 1;\n",
      'broken/b.ts': "import type { C } from './types';\nexport const b: C = 1;\n",
      'broken/types.ts': 'export type C = number;\n',
    });
    expect(await cycleMessages(['broken/a.ts', 'broken/b.ts', 'broken/types.ts'])).toEqual([]);
  });
});

describe("the project's lint config", () => {
  it('refuses vscode outside src/host and src/extension.ts, and accepts it there', async () => {
    const eslint = new ESLint({ cwd: ROOT });
    // The restricted imports that apply to a file, as the config computes them for its path.
    const restricted = async (file: string): Promise<string> => {
      const config = (await eslint.calculateConfigForFile(join(ROOT, file))) as { rules: Record<string, unknown[]> };
      return JSON.stringify(config.rules['@typescript-eslint/no-restricted-imports']);
    };
    // Every folder of src but host (src/worker was missing from the list this replaced), and webview.
    for (const file of ['src/worker/probe.ts', 'src/core/probe.ts', 'src/cli/probe.ts', 'src/newFolder/probe.ts', 'webview/probe.ts']) {
      expect(await restricted(file), file).toContain('"name":"vscode"');
    }
    for (const file of ['src/host/views/probe.ts', 'src/extension.ts']) {
      expect(await restricted(file), file).not.toContain('"name":"vscode"');
      // No V8 flags anywhere, the host included.
      expect(await restricted(file), file).toContain('setFlagsFromString');
    }
    expect(await restricted('src/cli/main.ts')).toContain('setFlagsFromString');
  }, 60_000);

  // What test/unit/whatIf/layering.test.ts checked with a regex over import strings, now held by the lint
  // rules themselves: src/core imports neither the protocols in src/shared nor src/host (the panel protocol
  // takes the what-if types from core, not the other way round).
  it('refuses src/core importing src/shared or src/host, and lets src/shared import core', async () => {
    const eslint = new ESLint({ cwd: ROOT });
    // The text is linted as if it were that (existing) file: the type-aware parser only knows the project's files.
    const restrictedMessages = async (file: string, text: string): Promise<string[]> => {
      const messages = (await eslint.lintText(text, { filePath: join(ROOT, file) })).flatMap((r) => r.messages);
      expect(messages.filter((m) => m.fatal)).toEqual([]);
      return messages.filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports').map((m) => m.message);
    };
    const fromShared = "import type { PanelTarget } from '../../../shared/timeline/panelProtocol';\nexport type Probe = PanelTarget;\n";
    expect((await restrictedMessages('src/core/timeline/whatIf/whatIfTypes.ts', fromShared)).join('\n')).toMatch(/may not import src\/shared/);
    const fromHost = "import type { Services } from '../../../host/services';\nexport type Probe = Services;\n";
    expect((await restrictedMessages('src/core/timeline/whatIf/whatIfTypes.ts', fromHost)).join('\n')).toMatch(/may not import infra or host/);
    const sharedFromCore = "import type { WhatIfParams } from '../../core/timeline/whatIf/whatIfTypes';\nexport type Probe = WhatIfParams;\n";
    expect(await restrictedMessages('src/shared/timeline/panelProtocol.ts', sharedFromCore)).toEqual([]);
  }, 60_000);
});
