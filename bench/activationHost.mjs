// Activation inside the real extension host: code-server with the packaged extension (the .vsix the e2e
// uses), a headless Chromium opening the workbench (the server starts an extension host only for a
// connected window), and PLEG_DOCTOR_ACTIVATION_PROBE naming a file the extension appends
// {"ms": …} to when activate() returns (src/host/activationProbe.ts): evaluating dist/extension.js (its
// first statement to its last) plus activate() itself; the host's own work between the two (building the
// ExtensionContext) is reported apart, as is the wall time from the first statement to activate() returning. Each run is a fresh server and window (a reloaded window
// would leave the old extension host running for its reconnection grace time).
//
//   node bench/activationHost.mjs [RUNS]   prints one JSON line {"runs": [{ms, requireMs, activateMs, hostGapMs, cpuMs, wallMs, steps}…], "node": "v24…"}
// Started by bench/activation.ts. Heavy (code-server + Chromium): hold /tmp/pleg-heavy.lock around it.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureTools } from '../test/e2e/lib/tools.mjs';
import { ensureVsix, installVsix, logTail, prepareRunDir, startCodeServer } from '../test/e2e/lib/codeServer.mjs';
import { launchBrowser } from '../test/e2e/lib/workbench.mjs';

const RUNS = Number(process.argv[2] ?? 5);
const ACTIVATION_TIMEOUT_MS = 120_000;
const log = (line) => process.stderr.write(`activation: ${line}\n`);

function probeLines(file) {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
}

async function waitForLines(file, count, serverLog) {
  const deadline = Date.now() + ACTIVATION_TIMEOUT_MS;
  for (;;) {
    const lines = probeLines(file);
    if (lines.length >= count) return lines;
    if (Date.now() > deadline) throw new Error(`no activation within ${ACTIVATION_TIMEOUT_MS} ms (${file} has ${lines.length} of ${count} lines); server log:\n${logTail(serverLog)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function main() {
  ensureTools(log);
  const vsix = await ensureVsix(log);
  const runDir = mkdtempSync(join(tmpdir(), 'pleg-activation-host-'));
  const probe = join(runDir, 'activation.jsonl');
  const serverLog = join(runDir, 'server.log');
  let browser;
  try {
    const dirs = prepareRunDir(runDir);
    await installVsix(dirs, vsix);
    browser = await launchBrowser(dirs.chromeProfile);
    for (let i = 0; i < RUNS; i++) {
      const server = await startCodeServer(dirs, { logFile: serverLog, env: { PLEG_DOCTOR_ACTIVATION_PROBE: probe } });
      try {
        await browser.page.goto(server.url, { timeout: 90_000, waitUntil: 'domcontentloaded' });
        const lines = await waitForLines(probe, i + 1, serverLog);
        const last = lines[lines.length - 1];
        if (last.error !== undefined) throw new Error(`the extension says: ${last.error}`);
        log(`run ${i + 1}/${RUNS}: ${last.ms.toFixed(1)} ms = evaluate ${last.requireMs} + activate() ${last.activateMs} (thread CPU ${last.cpuMs}; host gap ${last.hostGapMs}, wall ${last.wallMs}; pid ${last.pid}, Node ${last.node}) ${JSON.stringify(last.steps)}`);
        await browser.page.goto('about:blank');
      } finally {
        await server.stop();
      }
    }
    const lines = probeLines(probe);
    process.stdout.write(`${JSON.stringify({ runs: lines, node: lines[0]?.node })}\n`);
  } finally {
    await browser?.context.close().catch(() => undefined);
    rmSync(runDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`activation: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exitCode = 1;
});
