// The manifest side of Diagnose All, Export Evidence Bundle and Remediate Node: contributed with titles in
// both languages, on the right rows, and remediation disabled and hidden in untrusted workspaces.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CommandIds } from '../../src/shared/commandIds';

const read = (file: string): Record<string, unknown> => JSON.parse(readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8')) as Record<string, unknown>;
const pkg = read('package.json') as { contributes: { commands: { command: string; title: string; enablement?: string }[]; menus: Record<string, { command: string; when?: string }[]> } };

describe('diagnosis commands in the manifest', () => {
  it('are contributed with English and Chinese titles', () => {
    const en = read('package.nls.json');
    const zh = read('package.nls.zh-cn.json');
    for (const id of [CommandIds.diagnoseAllNotReady, CommandIds.exportEvidenceBundle, CommandIds.remediateNode]) {
      const command = pkg.contributes.commands.find((c) => c.command === id);
      expect(command, id).toBeDefined();
      const key = command?.title.replace(/^%|%$/gu, '') ?? '';
      expect(en[key], key).toBeTypeOf('string');
      expect(zh[key], key).toBeTypeOf('string');
    }
  });

  it('Export Evidence Bundle and Remediate Node are on node rows; Diagnose All in the view toolbar', () => {
    const item = pkg.contributes.menus['view/item/context'] ?? [];
    expect(item.find((m) => m.command === CommandIds.exportEvidenceBundle)?.when).toContain('viewItem =~ /^node;/');
    expect(item.find((m) => m.command === CommandIds.remediateNode)?.when).toContain('diagnosis');
    expect((pkg.contributes.menus['view/title'] ?? []).some((m) => m.command === CommandIds.diagnoseAllNotReady)).toBe(true);
  });

  it('remediation is disabled, hidden from the palette and the rows in an untrusted workspace', () => {
    expect(pkg.contributes.commands.find((c) => c.command === CommandIds.remediateNode)?.enablement).toBe('isWorkspaceTrusted');
    expect((pkg.contributes.menus['commandPalette'] ?? []).find((m) => m.command === CommandIds.remediateNode)?.when).toBe('isWorkspaceTrusted');
    expect((pkg.contributes.menus['view/item/context'] ?? []).find((m) => m.command === CommandIds.remediateNode)?.when).toContain('isWorkspaceTrusted');
  });
});
