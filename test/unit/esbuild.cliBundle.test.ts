// `pleg-doctor` loads only what a command needs: dist/cli.js holds the dispatcher and the offline
// commands (logs, classify, replay, simulate); the Kubernetes client and ssh2 are in dist/cliRemote.js,
// required by path when nodes, diagnose, snapshot or timeline runs. Built here as the build writes them,
// then run as a user runs them.

import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as esbuild from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliTargets } from '../../esbuild.mjs';
import { AGENT_COMMAND_BUNDLE, REMOTE_COMMANDS_BUNDLE } from '../../src/cli/registry';
import { conventionCases, conventionFiles, helpExitCode } from '../support/conventionCases';

const ROOT = resolve(__dirname, '../..');
const FIXTURE = join(ROOT, 'test/fixtures/real-kubelet-1.32/kubelet-runtime-stopped.log');

let dir: string;
const read = (file: string): string => readFileSync(join(dir, file), 'utf8');
const cli = (...args: string[]): string => execFileSync(process.execPath, [join(dir, 'cli.js'), ...args], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pleg-cli-bundle-'));
  await Promise.all(cliTargets({ production: true, outdir: dir }).map((t) => esbuild.build({ ...t, absWorkingDir: ROOT, logLevel: 'silent' })));
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the pleg-doctor bundles', () => {
  it('cli.js carries neither client-node nor ssh2; cliRemote.js, beside it under the name the registry requires, carries both', () => {
    expect(REMOTE_COMMANDS_BUNDLE).toBe('cliRemote.js');
    for (const marker of ['No active cluster!', 'SSH-2.0-ssh2js']) {
      expect(read('cli.js')).not.toContain(marker);
      expect(read(REMOTE_COMMANDS_BUNDLE)).toContain(marker);
    }
    expect(statSync(join(dir, 'cli.js')).size).toBeLessThan(statSync(join(dir, REMOTE_COMMANDS_BUNDLE)).size / 5);
  });

  it('cliAgent.js, the agent alone, carries neither client-node nor ssh2 and runs `agent --help`', () => {
    expect(AGENT_COMMAND_BUNDLE).toBe('cliAgent.js');
    for (const marker of ['No active cluster!', 'SSH-2.0-ssh2js']) expect(read(AGENT_COMMAND_BUNDLE)).not.toContain(marker);
    expect(statSync(join(dir, AGENT_COMMAND_BUNDLE)).size).toBeLessThan(statSync(join(dir, REMOTE_COMMANDS_BUNDLE)).size / 5);
    expect(cli('agent', '--help')).toMatch(/^Usage: pleg-doctor agent/u);
  });

  it('runs an offline command from cli.js alone and a remote one through cliRemote.js', () => {
    // `logs` exits 1 when it finds a PLEG stretch. Nothing on stderr: a V8 flag the runtime does not know
    // would print an error there (no command sets one).
    const logs = spawnSync(process.execPath, [join(dir, 'cli.js'), 'logs', FIXTURE], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
    expect(logs.status).toBe(1);
    expect(logs.stdout).toContain('"plegStretches":[{"firstLine":3227');
    expect(logs.stderr).toBe('');
    expect(cli('nodes', '--help')).toMatch(/^Usage: pleg-doctor nodes/u);
    expect(cli('snapshot', '--help')).toMatch(/^Usage: pleg-doctor snapshot/u);
  });

  it('bad flags and unusable kubeconfigs: the exit code each --help gives and one prefix, across both bundles', () => {
    // A usage error thrown in cliRemote.js reaches the dispatcher in cli.js, which holds its own copy of the
    // error class: it exited 1 with "pleg-doctor: diagnose: diagnose: …" before (src/cli/io.ts).
    const files = conventionFiles();
    try {
      const env: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: '', HOME: files.home };
      delete env['KUBECONFIG'];
      const helps = new Map<string, string>();
      const failures: string[] = [];
      for (const c of conventionCases(files).filter((row) => row.bundle === true)) {
        const help = helps.get(c.command) ?? cli(c.command, '--help');
        helps.set(c.command, help);
        const r = spawnSync(process.execPath, [join(dir, 'cli.js'), c.command, ...c.argv], { encoding: 'utf8', cwd: files.dir, env: { ...env, ...c.env } });
        const stderrOk = typeof c.stderr === 'string' ? r.stderr === c.stderr : c.stderr.test(r.stderr);
        if (r.status !== helpExitCode(help, c.clause) || !stderrOk || r.stdout !== '') failures.push(`${c.name}: exit ${r.status}, stderr ${JSON.stringify(r.stderr)}, stdout ${JSON.stringify(r.stdout.slice(0, 200))}`);
      }
      expect(failures).toEqual([]);
    } finally {
      files.remove();
    }
  }, 120_000);

  it('without cliRemote.js beside it, a remote command fails naming the missing file; an offline one still runs', () => {
    const alone = mkdtempSync(join(tmpdir(), 'pleg-cli-alone-'));
    try {
      copyFileSync(join(dir, 'cli.js'), join(alone, 'cli.js'));
      const run = (...args: string[]): { status: number | null; stdout: string; stderr: string } =>
        spawnSync(process.execPath, [join(alone, 'cli.js'), ...args], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
      const remote = run('nodes', '--help');
      expect(remote.status).not.toBe(0);
      expect(remote.stderr).toContain(join(alone, REMOTE_COMMANDS_BUNDLE));
      expect(run('logs', '--help').stdout).toMatch(/^Usage: pleg-doctor logs/u);
    } finally {
      rmSync(alone, { recursive: true, force: true });
    }
  });
});
