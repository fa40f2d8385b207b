// Entry point of the `pleg-doctor` command (bundled to dist/cli.js).

import packageJson from '../../package.json';
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

void main();
