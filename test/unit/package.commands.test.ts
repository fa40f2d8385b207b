// Keeps package.json, the nls files, the l10n bundles and the code in step: every contributed command is
// registered and every registered command is contributed; every %key% and every l10n.t string has an
// English and a Simplified Chinese text with the same placeholders.

import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AccessWayKeys, NODE_ACCESS_SECTION, NodeAccessKeys } from '../../src/host/config/settings';
import { DIAGNOSTICS_SECTION, DiagnosticsKeys } from '../../src/host/diagnostics/diagnosticsSettings';
import { TIMELINE_SECTION, TimelineKeys } from '../../src/host/timeline/liveSource';
import { CommandIds } from '../../src/shared/commandIds';
import { asVscodeL10n, BUNDLE, bundleText, generateBundle } from '../../scripts/l10n.mjs';

const root = new URL('../../', import.meta.url).pathname;
const readJson = (file: string): unknown => JSON.parse(readFileSync(join(root, file), 'utf8'));

interface CommandContribution {
  command: string;
  title: string;
  category?: string;
  icon?: string;
}
interface Manifest {
  activationEvents: string[];
  contributes: {
    commands: CommandContribution[];
    menus: Record<string, { command: string; when?: string; group?: string }[]>;
    configuration: { properties: Record<string, { default?: unknown; scope?: string; markdownDescription?: string; description?: string }> };
    viewsWelcome: { view: string; contents: string }[];
    viewsContainers: { activitybar: { id: string; icon: string; title: string }[] };
    views: Record<string, { id: string; icon?: string; contextualTitle?: string }[]>;
  };
}
const manifest = readJson('package.json') as Manifest;
const nlsEn = readJson('package.nls.json') as Record<string, string>;
const nlsZh = readJson('package.nls.zh-cn.json') as Record<string, string>;

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const rel = join(dir, name);
    return statSync(join(root, rel)).isDirectory() ? sourceFiles(rel) : rel.endsWith('.ts') ? [rel] : [];
  });
}

const placeholders = (s: string): string[] => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).sort();

describe('package.json commands', () => {
  const contributed = manifest.contributes.commands.map((c) => c.command).sort();
  const idByKey = CommandIds as Record<string, string>;

  it('every contributed command is registered in code, and every registration is contributed', () => {
    const registered = new Set<string>();
    for (const file of ['src/extension.ts', ...sourceFiles('src/host')]) {
      const text = readFileSync(join(root, file), 'utf8');
      for (const m of text.matchAll(/registerCommand\(\s*CommandIds\.(\w+)/g)) {
        const id = idByKey[m[1]!];
        expect(id, `${file}: CommandIds.${m[1]} does not exist`).toBeDefined();
        registered.add(id!);
      }
      // A literal id would dodge this check.
      expect(text, `${file} registers a command by literal id`).not.toMatch(/registerCommand\(\s*['"`]/);
    }
    expect([...registered].sort()).toEqual(contributed);
    expect(Object.values(CommandIds).sort()).toEqual(contributed);
  });

  it('each command has the category, a localized title, and palette-hidden node commands', () => {
    for (const c of manifest.contributes.commands) {
      expect(c.category, c.command).toBe('PLEG Doctor');
      expect(c.title, c.command).toMatch(/^%[\w.]+%$/);
      expect(c.command.startsWith('plegDoctor.')).toBe(true);
      if (c.icon !== undefined) expect(c.icon).toMatch(/^\$\([a-z-]+\)$/);
    }
    const hidden = manifest.contributes.menus['commandPalette']!.filter((m) => m.when === 'false').map((m) => m.command);
    expect(hidden.sort()).toEqual([CommandIds.copyNodeName, CommandIds.copyReadyMessage, CommandIds.refreshContext].sort());
  });

  it('menus and welcome links only name contributed commands', () => {
    for (const [menu, items] of Object.entries(manifest.contributes.menus)) {
      for (const item of items) expect(contributed, `${menu}: ${item.command}`).toContain(item.command);
    }
    for (const w of manifest.contributes.viewsWelcome) {
      for (const key of w.contents.match(/%[\w.]+%/g) ?? []) {
        for (const m of nlsEn[key.slice(1, -1)]!.matchAll(/\(command:([\w.]+)\)/g)) expect(contributed).toContain(m[1]);
      }
    }
  });

  it('the filter toggle is two commands flipped by one context key', () => {
    const title = manifest.contributes.menus['view/title']!;
    expect(title.find((m) => m.command === CommandIds.showOnlyUnhealthy)?.when).toContain('!plegDoctor.onlyUnhealthy');
    expect(title.find((m) => m.command === CommandIds.showAllNodes)?.when).toMatch(/(^|[^!])plegDoctor\.onlyUnhealthy/);
  });
});

describe('manifest conventions', () => {
  it('activates without "*"', () => {
    expect(manifest.activationEvents).not.toContain('*');
  });

  it('settings have a default, a markdown description and an explicit scope; kubeconfig is machine-scoped', () => {
    const props = manifest.contributes.configuration.properties;
    expect(Object.keys(props).sort()).toEqual(
      [
        'plegDoctor.contexts.exclude',
        'plegDoctor.kubeconfig',
        'plegDoctor.showOnlyUnhealthy',
        ...Object.values(NodeAccessKeys).map((k) => `${NODE_ACCESS_SECTION}.${k}`),
        ...Object.values(AccessWayKeys).map((k) => `${NODE_ACCESS_SECTION}.${k}`),
        ...Object.values(DiagnosticsKeys).map((k) => `${DIAGNOSTICS_SECTION}.${k}`),
        ...Object.values(TimelineKeys).map((k) => `${TIMELINE_SECTION}.${k}`),
      ].sort(),
    );
    for (const [key, p] of Object.entries(props)) {
      expect(p.default, key).toBeDefined();
      expect(p.scope, key).toBeDefined();
      expect(p.markdownDescription, key).toMatch(/^%[\w.]+%$/);
    }
    expect(props['plegDoctor.kubeconfig']!.scope).toBe('machine');
    // Anything that says where to connect, with which key or config, may not come from a workspace.
    for (const key of ['clusters', 'identityFiles', 'sshConfigFile', 'criEndpoint', 'useSshAgent']) {
      expect(props[`plegDoctor.nodeAccess.${key}`]!.scope, key).toBe('machine');
    }
  });

  it('the activity bar container and view have icons that exist', () => {
    const container = manifest.contributes.viewsContainers.activitybar[0]!;
    expect(existsSync(join(root, container.icon))).toBe(true);
    const svg = readFileSync(join(root, container.icon), 'utf8');
    expect(svg).toContain('currentColor');
    expect(svg).not.toMatch(/#[0-9a-f]{3,6}\b/i);
    const view = manifest.contributes.views['plegDoctor']![0]!;
    expect(view.id).toBe('plegDoctor.nodes');
    expect(view.contextualTitle).toBeDefined();
    expect(existsSync(join(root, view.icon!))).toBe(true);
  });
});

describe('localization', () => {
  it('every %key% in package.json has English and zh-cn text with the same placeholders', () => {
    const keys = new Set([...readFileSync(join(root, 'package.json'), 'utf8').matchAll(/"%([\w.]+)%"/g)].map((m) => m[1]!));
    expect(keys.size).toBeGreaterThan(10);
    for (const key of keys) {
      expect(nlsEn[key], `package.nls.json: ${key}`).toBeTypeOf('string');
      expect(nlsZh[key], `package.nls.zh-cn.json: ${key}`).toBeTypeOf('string');
    }
    expect(Object.keys(nlsZh).sort()).toEqual(Object.keys(nlsEn).sort());
  });

  it('l10n/bundle.l10n.json is what @vscode/l10n-dev extracts from the sources (run npm run l10n after adding a t() string)', async () => {
    const { bundle, files } = await generateBundle(root);
    expect(files.length).toBeGreaterThan(30);
    expect(Object.keys(bundle).length).toBeGreaterThan(50);
    expect(readFileSync(join(root, BUNDLE), 'utf8')).toBe(bundleText(bundle));
    // Only bare t( calls are respelled for l10n-dev: not x.t(, not set(.
    expect(asVscodeL10n("a.t('x'); set('y'); `${t('z {0}', n)}`")).toBe("import * as vscode from 'vscode';\na.t('x'); set('y'); `${vscode.l10n.t('z {0}', n)}`");
  }, 60_000);

  it('every generated key has a zh-cn translation with the same placeholders, and no stale ones', () => {
    const en = readJson(BUNDLE) as Record<string, string>;
    const zh = readJson('l10n/bundle.l10n.zh-cn.json') as Record<string, string>;
    const missing = Object.keys(en).filter((k) => typeof zh[k] !== 'string');
    expect(missing, 'keys without a zh-cn entry in l10n/bundle.l10n.zh-cn.json').toEqual([]);
    for (const [k, v] of Object.entries(zh)) expect(placeholders(v), `placeholders of ${k}`).toEqual(placeholders(k));
    expect(Object.keys(zh).filter((k) => !(k in en)), 'zh-cn keys no source uses').toEqual([]);
  });

  it('every l10n string used in code has an English and a zh-cn bundle entry with the same placeholders', () => {
    const en = readJson('l10n/bundle.l10n.json') as Record<string, string>;
    const zh = readJson('l10n/bundle.l10n.zh-cn.json') as Record<string, string>;
    const used = new Set<string>();
    for (const file of ['src/extension.ts', ...sourceFiles('src/host'), ...sourceFiles('src/core/tree')]) {
      const text = readFileSync(join(root, file), 'utf8');
      for (const m of text.matchAll(/\bt\(\s*'((?:[^'\\]|\\.)*)'/g)) used.add(m[1]!.replace(/\\'/g, "'"));
    }
    expect(used.size).toBeGreaterThan(50);
    for (const key of used) {
      expect(en[key], `bundle.l10n.json: ${key}`).toBe(key);
      expect(zh[key], `bundle.l10n.zh-cn.json: ${key}`).toBeTypeOf('string');
      expect(placeholders(zh[key]!), `placeholders of ${key}`).toEqual(placeholders(key));
    }
    expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort());
  });

  it('zh-cn texts are translations, not copies (except product and API terms)', () => {
    const zh = readJson('l10n/bundle.l10n.zh-cn.json') as Record<string, string>;
    const untranslated = Object.entries(zh).filter(([k, v]) => k === v).map(([k]) => k);
    // Names of the product and Kubernetes API values stay as they are in Chinese documentation.
    expect(untranslated.sort()).toEqual(['$(loading~spin) PLEG', 'NotReady', 'PLEG', 'PLEG Doctor', 'Ready', 'Unknown', 'kubelet {0}'].sort());
    for (const [k, v] of Object.entries(nlsZh)) if (!['viewContainer.title', 'config.title'].includes(k)) expect(v, k).not.toBe(nlsEn[k]);
  });
});
