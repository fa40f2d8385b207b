// A throwaway code-server: per-run user-data, extensions and workspace dirs, the VSIX installed into
// them, the server leading its own process group so teardown reaches the extension host too.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CODE_SERVER, REPO, VSIX, WORKBENCH_SETTINGS, codeServerEnv } from './tools.mjs';
import { freePort, run, stopGroup } from './processes.mjs';

/** Creates ud/User/settings.json, ext/, ws/ and chrome/ under the run dir. */
export function prepareRunDir(runDir, settings = {}) {
  for (const d of ['ud/User', 'ext', 'ws', 'chrome']) mkdirSync(join(runDir, d), { recursive: true });
  writeFileSync(join(runDir, 'ud/User/settings.json'), JSON.stringify({ ...WORKBENCH_SETTINGS, ...settings }, null, 2));
  return { userData: join(runDir, 'ud'), extensions: join(runDir, 'ext'), workspace: join(runDir, 'ws'), chromeProfile: join(runDir, 'chrome') };
}

/** The newest mtime among the inputs of the .vsix: sources, manifest, media. */
function newestInput() {
  let newest = 0;
  const visit = (path) => {
    let st;
    try {
      st = statSync(path);
    } catch {
      return;
    }
    if (st.isDirectory()) {
      for (const name of readdirNames(path)) visit(join(path, name));
    } else {
      newest = Math.max(newest, st.mtimeMs);
    }
  };
  for (const p of ['src', 'webview', 'media', 'l10n', 'package.json', 'package.nls.json', '.vscodeignore', 'esbuild.mjs', 'README.md', 'LICENSE']) visit(join(REPO, p));
  return newest;
}

function readdirNames(dir) {
  try {
    return readdirSync(dir).filter((n) => !n.startsWith('.'));
  } catch {
    return [];
  }
}

/**
 * Reuses dist/pleg-doctor.vsix when it is newer than every input, otherwise runs `npm run package`.
 * PLEG_E2E_VSIX=<file> uses that package instead.
 */
export async function ensureVsix(log, { force = false } = {}) {
  if (process.env.PLEG_E2E_VSIX) {
    log(`using PLEG_E2E_VSIX=${process.env.PLEG_E2E_VSIX}`);
    statSync(process.env.PLEG_E2E_VSIX);
    return process.env.PLEG_E2E_VSIX;
  }
  let fresh;
  try {
    fresh = !force && statSync(VSIX).mtimeMs > newestInput();
  } catch {
    fresh = false; // no .vsix yet
  }
  if (fresh) {
    log(`reusing ${VSIX} (newer than its inputs)`);
    return VSIX;
  }
  log('packaging: npm run package');
  const { stdout } = await run('npm', ['run', 'package'], { cwd: REPO, timeoutMs: 300_000 });
  const summary = stdout.split('\n').filter((l) => /DONE|Packaged|WARNING/i.test(l));
  for (const l of summary) log(`  ${l.trim()}`);
  statSync(VSIX);
  return VSIX;
}

export async function installVsix(dirs, vsix) {
  const { stdout } = await run(CODE_SERVER, ['--user-data-dir', dirs.userData, '--extensions-dir', dirs.extensions, '--install-extension', vsix], {
    env: codeServerEnv(),
    timeoutMs: 120_000,
  });
  if (!/successfully installed/i.test(stdout)) throw new Error(`installing ${vsix} did not report success:\n${stdout}`);
  return stdout.trim();
}

/**
 * Starts code-server on 127.0.0.1 and resolves once it prints "HTTP server listening" (fails after
 * `timeoutMs`, or as soon as it exits). `env` reaches the extension host (KUBECONFIG, for one).
 */
export async function startCodeServer(dirs, { logFile, env = {}, port, timeoutMs = 90_000 } = {}) {
  const p = port ?? (await freePort());
  const args = [
    '--bind-addr', `127.0.0.1:${p}`, '--auth', 'none', '--disable-telemetry', '--disable-update-check',
    '--disable-workspace-trust', '--disable-getting-started-override',
    '--user-data-dir', dirs.userData, '--extensions-dir', dirs.extensions, dirs.workspace,
  ];
  const child = spawn(CODE_SERVER, args, { env: codeServerEnv(env), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const log = createWriteStream(logFile);
  let seen = '';
  const ready = new Promise((resolveReady, reject) => {
    const timer = setTimeout(() => reject(new Error(`code-server did not print "HTTP server listening" within ${timeoutMs} ms (log: ${logFile})`)), timeoutMs);
    const onData = (buf) => {
      log.write(buf);
      if (seen.length < 100_000) seen += buf.toString();
      if (seen.includes('HTTP server listening')) {
        clearTimeout(timer);
        resolveReady();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`code-server exited before listening (code ${code}, signal ${signal}); log: ${logFile}\n${seen.slice(-2000)}`));
    });
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
  const server = {
    child,
    port: p,
    url: `http://127.0.0.1:${p}/?folder=${encodeURIComponent(dirs.workspace)}`,
    async stop() {
      const killed = await stopGroup(child);
      await new Promise((r) => log.end(r));
      return killed;
    },
  };
  try {
    await ready;
  } catch (err) {
    await server.stop().catch(() => undefined);
    throw err;
  }
  return server;
}

/** The last `n` lines of a log file, minus the noise the recipe lists as harmless. */
export function logTail(file, n = 40) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return '';
  }
  const noise = /open-vsx\.org|vsda|authentication provider 'github'|Creating a socket|\[Service Worker\]|same-origin iframe/;
  return text.split('\n').filter((l) => !noise.test(l)).slice(-n).join('\n');
}
