// (10) The zh-cn translation in a real VS Code: a second code-server session whose display language is
// zh-cn, reading the tree's Chinese strings (package.nls.zh-cn.json and l10n/bundle.l10n.zh-cn.json).
//
// Why a language pack: code-server (the VS Code server) resolves a display language through the
// languagepacks.json of its user-data dir. A locale without an installed language pack resolves to "en"
// (the workbench gets no NLS file, vscode.env.language stays "en"), so `--locale zh-cn` alone would test
// nothing. No Marketplace pack can be installed offline, so this check builds a minimal one: a
// `localizations` contribution for zh-cn with an empty translation file, registered in languagepacks.json.
// VS Code's own UI stays English; the extension's manifest and l10n bundles switch to Chinese, which is
// what is checked here.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { installVsix, prepareRunDir, startCodeServer } from './codeServer.mjs';
import { run } from './processes.mjs';
import { REPO, codeServerEnv } from './tools.mjs';
import { launchBrowser, openWorkbench, readTreeRows, rowLocator } from './workbench.mjs';

const VSCE = join(REPO, 'node_modules/.bin/vsce');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Packages the minimal zh-cn language pack into `dir` and returns the .vsix path. */
async function buildLanguagePack(dir) {
  mkdirSync(join(dir, 'translations'), { recursive: true });
  const manifest = {
    name: 'pleg-e2e-zh-cn-pack',
    displayName: 'zh-cn language pack for the PLEG Doctor e2e test',
    description: 'Declares zh-cn as an installed display language; translates nothing of VS Code itself.',
    publisher: 'pleg-e2e',
    version: '0.0.1',
    engines: { vscode: '^1.101.0' },
    categories: ['Language Packs'],
    contributes: {
      localizations: [
        { languageId: 'zh-cn', languageName: 'Chinese Simplified', localizedLanguageName: '中文(简体)', translations: [{ id: 'vscode', path: './translations/main.i18n.json' }] },
      ],
    },
  };
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
  writeFileSync(join(dir, 'README.md'), 'Test fixture of the PLEG Doctor e2e suite.\n');
  writeFileSync(join(dir, 'translations/main.i18n.json'), JSON.stringify({ version: '1.0.0', contents: {} }));
  const vsix = join(dir, 'zh-cn-pack.vsix');
  await run(VSCE, ['package', '--no-dependencies', '--skip-license', '--allow-missing-repository', '-o', vsix], { cwd: dir, env: codeServerEnv(), timeoutMs: 120_000 });
  return vsix;
}

/**
 * The server reads installed language packs from `languagepacks.json` in the user-data dir, which only its
 * own install path writes (`--install-extension` does not), and it resolves the page's language before
 * anything would: write the entry as the server would, pointing at the installed pack's translation file.
 */
function registerLanguagePack(dirs) {
  const folder = readdirSync(dirs.extensions).find((name) => name.startsWith('pleg-e2e.pleg-e2e-zh-cn-pack-'));
  if (folder === undefined) throw new Error(`the zh-cn language pack is not in ${dirs.extensions} after installing it`);
  const entry = {
    hash: 'pleg-e2e-zh-cn-pack-0.0.1',
    extensions: [{ extensionIdentifier: { id: 'pleg-e2e.pleg-e2e-zh-cn-pack' }, version: '0.0.1' }],
    translations: { vscode: join(dirs.extensions, folder, 'translations/main.i18n.json') },
    label: '中文(简体)',
  };
  writeFileSync(join(dirs.userData, 'languagepacks.json'), JSON.stringify({ 'zh-cn': entry }));
}

/**
 * Runs the check in its own code-server + browser, torn down before it returns.
 * `env` is the first session's extension-host env (KUBECONFIG of the stand-ins, HOME).
 */
export async function runLocaleCheck({ check, log, runDir, vsix, env }) {
  const base = join(runDir, 'zh-cn');
  const dirs = prepareRunDir(base);
  // argv.json is where the "Configure Display Language" command writes the locale.
  writeFileSync(join(dirs.userData, 'User/argv.json'), JSON.stringify({ locale: 'zh-cn' }));
  const zh = JSON.parse(readFileSync(join(REPO, 'l10n/bundle.l10n.zh-cn.json'), 'utf8'));
  const manifestZh = JSON.parse(readFileSync(join(REPO, 'package.nls.zh-cn.json'), 'utf8'));
  let server;
  let browser;
  try {
    await check('(10) zh-cn: a second VS Code in Chinese shows the tree in Chinese', async () => {
      const pack = await buildLanguagePack(join(base, 'pack'));
      await installVsix(dirs, pack);
      registerLanguagePack(dirs);
      await installVsix(dirs, vsix);
      server = await startCodeServer(dirs, { logFile: join(base, 'server.log'), env });
      log(`zh-cn code-server on 127.0.0.1:${server.port}`);
      browser = await launchBrowser(dirs.chromeProfile);
      const page = browser.page;
      await openWorkbench(page, server.url);
      const tab = page.getByRole('tab', { name: /PLEG Doctor/ }).first();
      await tab.waitFor({ timeout: 90_000 });
      await tab.click();
      // The view's name comes from package.nls.zh-cn.json (its pane header is hidden while it is the only view).
      const viewName = manifestZh['view.nodes.name'];
      await page.locator(`.part.sidebar .pane-header[aria-label^="${viewName} "]`).first().waitFor({ state: 'attached', timeout: 30_000 });
      // Descriptions from l10n/bundle.l10n.zh-cn.json, on nodes of the stand-ins whose verdicts do not change.
      const want = [
        ['prod-eu-node-03', zh['Runtime down']],
        ['prod-eu-node-09', zh['PLEG at risk']],
        ['prod-eu-node-11', zh['No heartbeat']],
        ['staging-node-04', zh['cordoned']],
      ];
      if (want.some(([, text]) => typeof text !== 'string' || !/[\u4e00-\u9fff]/.test(text))) throw new Error('the zh-cn bundle lacks a Chinese text this check reads');
      const deadline = Date.now() + 60_000;
      let rows = [];
      let wrong = want;
      while (Date.now() < deadline) {
        for (const r of (await readTreeRows(page)).filter((x) => x.level === 1 && x.expanded === 'false')) {
          await rowLocator(page, r.label).first().click({ timeout: 5_000 }).catch(() => undefined);
        }
        rows = await readTreeRows(page);
        wrong = want.filter(([node, text]) => !(rows.find((r) => r.label === node)?.description ?? '').includes(text));
        if (wrong.length === 0 && rows.some((r) => r.label === zh['Cannot connect, retrying'])) break;
        await sleep(500);
      }
      await page.screenshot({ path: join(REPO, 'test-results/e2e/10-zh-cn-tree.png'), timeout: 15_000 }).catch((err) => log(`zh-cn screenshot: ${err.message}`));
      if (wrong.length > 0) {
        const shown = rows.map((r) => `${r.label} | ${r.description}`).join('; ');
        throw new Error(`not in Chinese: ${wrong.map(([node, text]) => `${node} "${rows.find((r) => r.label === node)?.description ?? '(absent)'}" lacks "${text}"`).join('; ')}; rows: ${shown}`);
      }
      // The context whose server refuses connections (run.mjs's offline-lab) has its error item in Chinese too.
      if (!rows.some((r) => r.label === zh['Cannot connect, retrying'])) throw new Error(`no "${zh['Cannot connect, retrying']}" row; rows: ${rows.map((r) => `${r.label} | ${r.description}`).join('; ')}`);
      return `view "${viewName}"; "${zh['Cannot connect, retrying']}"; ${want.map(([node]) => `${node}: ${rows.find((r) => r.label === node).description}`).join('; ')}`;
    });
  } finally {
    if (browser) await browser.context.close().catch((err) => log(`zh-cn browser: ${err.message}`));
    if (server) await server.stop().catch((err) => log(`zh-cn code-server: ${err.message}`));
  }
}
