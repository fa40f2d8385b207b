// The first-use walkthrough and the entry points of "Configure Node Access…": every button of the
// walkthrough runs a command that exists, every media file is there, and the verdict table the walkthrough
// shows names exactly the verdicts the tree shows.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VERDICTS } from '../../src/core/classify/types';
import { clusterErrorContextValue, contextContextValue } from '../../src/core/tree/contextValue';
import type { Localize } from '../../src/core/tree/localize';
import { verdictShortName } from '../../src/core/tree/verdictPresentation';
import { CommandIds, FOCUS_NODES_VIEW_COMMAND, NODES_VIEW_ID } from '../../src/shared/commandIds';

const root = new URL('../../', import.meta.url).pathname;
const readJson = (file: string): unknown => JSON.parse(readFileSync(join(root, file), 'utf8'));

interface Step {
  id: string;
  title: string;
  description: string;
  media: { markdown?: string; image?: string; svg?: string };
  completionEvents?: string[];
}
interface Manifest {
  contributes: {
    commands: { command: string }[];
    walkthroughs: { id: string; title: string; description: string; steps: Step[] }[];
    menus: Record<string, { command: string; when?: string }[]>;
  };
}
const manifest = readJson('package.json') as Manifest;
const nls = { en: readJson('package.nls.json') as Record<string, string>, zh: readJson('package.nls.zh-cn.json') as Record<string, string> };
const contributed = new Set(manifest.contributes.commands.map((c) => c.command));
const nlsText = (lang: 'en' | 'zh', ref: string): string => {
  expect(ref).toMatch(/^%[\w.]+%$/);
  const text = nls[lang][ref.slice(1, -1)];
  expect(text, `${lang}: ${ref}`).toBeTypeOf('string');
  return text!;
};

describe('walkthrough', () => {
  const walkthrough = manifest.contributes.walkthroughs.find((w) => w.id === 'plegDoctor.gettingStarted');

  it('exists, with localized texts and media that exist', () => {
    expect(walkthrough).toBeDefined();
    nlsText('en', walkthrough!.title);
    nlsText('zh', walkthrough!.description);
    expect(walkthrough!.steps.length).toBeGreaterThanOrEqual(5);
    for (const step of walkthrough!.steps) {
      for (const lang of ['en', 'zh'] as const) {
        nlsText(lang, step.title);
        nlsText(lang, step.description);
      }
      const media = step.media.markdown ?? step.media.svg ?? step.media.image;
      expect(media, step.id).toMatch(/^media\/walkthrough\//);
      expect(existsSync(join(root, media!)), media).toBe(true);
    }
  });

  it('every button runs a contributed command (or opens the Nodes view), in both languages alike', () => {
    const runnable = new Set([...contributed, FOCUS_NODES_VIEW_COMMAND]);
    for (const step of walkthrough!.steps) {
      const links = (lang: 'en' | 'zh'): string[] => [...nlsText(lang, step.description).matchAll(/\]\(command:([\w.]+)\)/g)].map((m) => m[1]!);
      expect(links('en').length, step.id).toBeGreaterThan(0);
      for (const id of links('en')) expect(runnable, `${step.id}: ${id}`).toContain(id);
      expect(links('zh')).toEqual(links('en'));
      for (const event of step.completionEvents ?? []) {
        if (event.startsWith('onCommand:')) expect(contributed, event).toContain(event.slice('onCommand:'.length));
        else expect(event).toBe(`onView:${NODES_VIEW_ID}`);
      }
    }
    const all = walkthrough!.steps.flatMap((s) => [...nlsText('en', s.description).matchAll(/command:([\w.]+)/g)].map((m) => m[1]));
    expect(all).toEqual(expect.arrayContaining([CommandIds.selectKubeconfig, CommandIds.configureNodeAccess, CommandIds.diagnoseNode, CommandIds.openWhatIfTimeline]));
  });

  it('the verdict table names exactly the verdicts the tree shows', () => {
    const identity: Localize = (message, ...args) => message.replace(/\{(\d+)\}/g, (_m, i: string) => String(args[Number(i)]));
    const tree = readFileSync(join(root, 'media/walkthrough/tree.md'), 'utf8');
    const listed = [...tree.matchAll(/^\| \*\*([^*]+)\*\* \|/gm)].map((m) => m[1]);
    expect(listed.sort()).toEqual(VERDICTS.map((v) => verdictShortName(v, identity)).sort());
  });
});

describe('Configure Node Access entry points', () => {
  const entries = (menu: string): { command: string; when?: string }[] => manifest.contributes.menus[menu]!.filter((m) => m.command === CommandIds.configureNodeAccess);

  it('is in the palette, the Nodes view title menu and the context menu of node and context rows', () => {
    expect(manifest.contributes.menus['commandPalette']!.some((m) => m.command === CommandIds.configureNodeAccess && m.when === 'false')).toBe(false);
    expect(entries('view/title').some((m) => m.when === `view == ${NODES_VIEW_ID}`)).toBe(true);
    const item = entries('view/item/context');
    expect(item).toHaveLength(1);
    const pattern = /viewItem =~ \/(.+)\/$/.exec(item[0]!.when!)?.[1];
    expect(pattern).toBeDefined();
    const re = new RegExp(pattern!);
    // The row values as the tree builds them.
    expect(re.test('node;pleg;notReady;unhealthy;cordoned')).toBe(true); // see test/unit/core/tree/verdictPresentation.test.ts
    expect(re.test(contextContextValue({ kind: 'synced', resourceVersion: '1' }, true))).toBe(true);
    expect(re.test(contextContextValue({ kind: 'connecting' }, false))).toBe(true);
    expect(re.test(clusterErrorContextValue('unreachable'))).toBe(false);
    expect(re.test('condition;bad')).toBe(false);
    expect(nls.en['command.configureNodeAccess']).toBe('Configure Node Access…');
  });
});
