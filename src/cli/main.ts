// Entry point of the `pleg-doctor` command (bundled to dist/cli.js).

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import packageJson from '../../package.json';
import { LOGS_SCAN_WORKER_BUNDLE, setLogsWorkerScript } from './commands/logsWorker';
import { enableRelaxedSimd } from './relaxedSimd';
import { runCli } from './dispatch';
import { createProcessIo } from './processIo';
import { COMMANDS } from './registry';

async function main(): Promise<void> {
  const { io, dispose } = createProcessIo();
  let code: number;
  try {
    code = await runCli(process.argv.slice(2), io, COMMANDS, packageJson.version);
  } finally {
    dispose();
  }
  // Let stdout drain (a pipe may be slow) instead of process.exit() cutting the output short.
  process.exitCode = code;
  // A library that leaves a socket or timer behind must not keep a finished command alive; unref'd, so a
  // clean exit is not delayed.
  setTimeout(() => process.exit(code), 2000).unref();
}

// Before any WebAssembly is compiled: the log scan kernel's faster form (relaxedSimd.ts).
enableRelaxedSimd();
// `logs` on a big file starts the bundle beside this one as a worker thread that scans segments of it
// (commands/logsWorker.ts). Run from source, or with dist/cli.js copied alone, there is none: one thread.
const scanWorker = join(__dirname, LOGS_SCAN_WORKER_BUNDLE);
if (existsSync(scanWorker)) setLogsWorkerScript(scanWorker);
void main();
