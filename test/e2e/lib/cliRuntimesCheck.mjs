// (C) The `pleg-doctor` CLI under the oldest Node it allows (the one running this e2e, Node 20) and under
// the Node 24 this e2e installs for code-server: the same output and exit code, and nothing on stderr.
// A V8 flag Node 24 no longer knew once printed "Error: unrecognized flag" there on every command.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { NODE24_DIR, REPO } from './tools.mjs';

const CLI = join(REPO, 'dist/cli.js');
const FIXTURE = join(REPO, 'test/fixtures/real-kubelet-1.32/kubelet-runtime-stopped.log');
/** An offline command on a real kubelet log (exit 1: it finds PLEG stretches), and one that loads the remote bundle. */
const COMMANDS = [
  ['logs', FIXTURE],
  ['nodes', '--help'],
];

function run(node, args) {
  const r = spawnSync(node, [CLI, ...args], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, NODE_OPTIONS: '' } });
  if (r.error) throw new Error(`${node} ${args.join(' ')}: ${r.error.message}`);
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

export async function runCliRuntimesCheck({ check }) {
  const runtimes = [
    ['Node ' + process.versions.node, process.execPath],
    ['Node 24', join(NODE24_DIR, 'bin/node')],
  ];
  await check(`(C) pleg-doctor runs alike under ${runtimes.map(([name]) => name).join(' and ')}: same output and exit code, nothing on stderr`, async () => {
    const seen = [];
    for (const args of COMMANDS) {
      const results = runtimes.map(([name, node]) => ({ name, ...run(node, args) }));
      for (const r of results) {
        if (r.stderr !== '') throw new Error(`${r.name}: pleg-doctor ${args[0]} wrote on stderr: ${r.stderr.slice(0, 300)}`);
      }
      const [first, ...rest] = results;
      for (const r of rest) {
        if (r.status !== first.status) throw new Error(`pleg-doctor ${args[0]}: exit ${first.status} under ${first.name}, ${r.status} under ${r.name}`);
        if (r.stdout !== first.stdout) throw new Error(`pleg-doctor ${args[0]}: the output under ${r.name} differs from ${first.name}'s (${r.stdout.length} vs ${first.stdout.length} characters)`);
      }
      if (args[0] === 'logs' && !/"plegStretches":\[\{"firstLine":3227/.test(first.stdout)) throw new Error('pleg-doctor logs no longer finds the recording\'s first PLEG stretch at line 3227');
      seen.push(`${args[0]}: exit ${first.status}, ${first.stdout.split('\n').length - 1} lines`);
    }
    return seen.join('; ');
  });
}
