// Diagnose Node's contributions: where it shows in the Nodes view (first group of a node's context menu,
// inline on NotReady rows), and its settings with the nodes/proxy warning and the untrusted-workspace rule.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { NodeClassification } from '../../src/core/classify/types';
import { nodeContextValue } from '../../src/core/tree/contextValue';
import { CommandIds } from '../../src/shared/commandIds';

const root = new URL('../../', import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  contributes: {
    commands: { command: string; title: string; icon?: string }[];
    menus: Record<string, { command: string; when?: string; group?: string }[]>;
    configuration: { properties: Record<string, { default?: unknown; scope?: string; minimum?: number; maximum?: number; enum?: string[]; markdownDescription?: string }> };
  };
  capabilities: { untrustedWorkspaces: { restrictedConfigurations: string[] } };
};
const nls = JSON.parse(readFileSync(join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
const codicons = readFileSync(join(root, 'node_modules/@vscode/codicons/dist/codicon.csv'), 'utf8');

/** Evaluates a `viewItem =~ /…/` clause the way VS Code does (a JS regex on the context value). */
function viewItemMatches(when: string, contextValue: string): boolean {
  const m = /viewItem =~ \/(.*)\/(\s|$)/.exec(when);
  if (!m) throw new Error(`no viewItem regex in "${when}"`);
  return new RegExp(m[1]!).test(contextValue);
}

function classification(overrides: Partial<NodeClassification>): NodeClassification {
  return { verdict: 'ready', readyStatus: 'True', cordoned: false, pressures: [], ...overrides } as NodeClassification;
}

describe('Diagnose Node in the manifest', () => {
  const command = manifest.contributes.commands.find((c) => c.command === CommandIds.diagnoseNode)!;
  const items = manifest.contributes.menus['view/item/context']!;
  const menuEntry = items.find((m) => m.command === CommandIds.diagnoseNode && !m.group!.startsWith('inline'))!;
  const inline = items.find((m) => m.command === CommandIds.diagnoseNode && m.group!.startsWith('inline'))!;

  it('is titled "Diagnose Node" with a codicon that exists', () => {
    expect(nls[command.title.slice(1, -1)]).toBe('Diagnose Node');
    const icon = /^\$\(([a-z-]+)\)$/.exec(command.icon ?? '')?.[1];
    expect(icon).toBeDefined();
    expect(codicons.split('\n').some((line) => line.split(',')[0] === icon)).toBe(true);
  });

  it('is in the first group of every node row context menu, above Take CRI Snapshot', () => {
    const snapshot = items.find((m) => m.command === CommandIds.takeCriSnapshot)!;
    expect(menuEntry.group! < snapshot.group!).toBe(true);
    const groups = items.filter((m) => m.when?.includes('viewItem =~ /^node;/') && !m.group!.startsWith('inline')).map((m) => m.group!);
    expect(groups.sort()[0]).toBe(menuEntry.group);
    expect(viewItemMatches(menuEntry.when!, nodeContextValue(classification({})))).toBe(true);
  });

  it('is inline on NotReady rows (Ready=False or Unknown) and rows at risk, not on other Ready ones or other items', () => {
    const plegRow = nodeContextValue(classification({ verdict: 'pleg', readyStatus: 'False' }));
    const leaseLost = nodeContextValue(classification({ verdict: 'lease-lost', readyStatus: 'Unknown' }));
    const ready = nodeContextValue(classification({}));
    const cordonedReady = nodeContextValue(classification({ cordoned: true }));
    expect(viewItemMatches(inline.when!, plegRow)).toBe(true);
    expect(viewItemMatches(inline.when!, leaseLost)).toBe(true);
    // Ready, with PLEGAtRisk=True: the node the user should look at before the kubelet posts NotReady.
    expect(viewItemMatches(inline.when!, nodeContextValue(classification({ verdict: 'pleg-at-risk', readyStatus: 'True' })))).toBe(true);
    expect(viewItemMatches(inline.when!, ready)).toBe(false);
    expect(viewItemMatches(inline.when!, cordonedReady)).toBe(false);
    expect(viewItemMatches(inline.when!, 'condition;notReady')).toBe(false);
  });

  it('has its settings with the defaults and bounds the brief fixes; all restricted in untrusted workspaces', () => {
    const props = manifest.contributes.configuration.properties;
    expect(props['plegDoctor.diagnostics.nodeSide']).toMatchObject({ default: 'auto', enum: ['auto', 'always', 'never'] });
    expect(props['plegDoctor.diagnostics.useNodeProxy']).toMatchObject({ default: true });
    expect(props['plegDoctor.diagnostics.proxyTimeoutSeconds']).toMatchObject({ default: 15, minimum: 1, maximum: 300 });
    expect(props['plegDoctor.diagnostics.metricsIntervalSeconds']).toMatchObject({ default: 5, minimum: 0, maximum: 60 });
    const restricted = manifest.capabilities.untrustedWorkspaces.restrictedConfigurations;
    for (const key of Object.keys(props).filter((k) => k.startsWith('plegDoctor.diagnostics.'))) expect(restricted, key).toContain(key);
  });

  it('says plainly that the node proxy needs get on nodes/proxy, which is not read-only', () => {
    const key = manifest.contributes.configuration.properties['plegDoctor.diagnostics.useNodeProxy']!.markdownDescription!.slice(1, -1);
    expect(nls[key]).toMatch(/`get` on `nodes\/proxy`, which is not a read-only permission/);
  });
});
