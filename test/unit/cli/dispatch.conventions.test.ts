// kubectl's conventions, held for every command in-process (the real registry and the real kubeconfig
// loader; no case reaches a server): exit codes as each command's --help states them, one
// `pleg-doctor: <command>: ` prefix on stderr. The same rows run through the built bundles in
// test/unit/esbuild.cliBundle.test.ts.

import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/dispatch';
import { COMMANDS } from '../../../src/cli/registry';
import { ALL_COMMANDS, CLUSTER_COMMANDS, conventionCases, conventionFiles, helpExitCode } from '../../support/conventionCases';
import { memoryIo } from '../../support/memoryIo';

const files = conventionFiles();
afterAll(() => files.remove());

async function run(argv: string[], env: Record<string, string> = {}): Promise<{ code: number; out: string; err: string }> {
  const io = memoryIo('', files.dir);
  io.env = { HOME: files.home, ...env };
  const code = await runCli(argv, io, COMMANDS, '0.0.0');
  return { code, out: io.out(), err: io.err() };
}

const helps = new Map<string, string>();
async function help(command: string): Promise<string> {
  const known = helps.get(command);
  if (known !== undefined) return known;
  const r = await run([command, '--help']);
  expect(r.code).toBe(0);
  helps.set(command, r.out);
  return r.out;
}

describe('every command states its exit codes in --help', () => {
  it('the registry is the list the table covers', () => {
    expect(Object.keys(COMMANDS).sort()).toEqual([...ALL_COMMANDS]);
  });

  it.each([...ALL_COMMANDS])('%s', async (command) => {
    const text = await help(command);
    expect(text).toMatch(/\nExit codes: 0 /u);
    expect(helpExitCode(text, 'bad options')).toBe(2);
    expect(text.replace(/\s+/gu, ' ')).toContain('130 interrupted');
  });

  it.each([...CLUSTER_COMMANDS])('%s: says which context it uses and gives kubeconfig failures their code', async (command) => {
    const text = await help(command);
    expect(text).toContain("--context NAME           kubeconfig context (default: the kubeconfig's current-context, as kubectl)");
    expect(helpExitCode(text, 'kubeconfig')).toBe(2);
  });
});

describe('bad flags and unusable kubeconfigs: the exit code the help gives, one prefix', () => {
  it.each(conventionCases(files).map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const r = await run([c.command, ...c.argv], c.env);
    expect(r.code).toBe(helpExitCode(await help(c.command), c.clause));
    if (typeof c.stderr === 'string') expect(r.err).toBe(c.stderr);
    else expect(r.err).toMatch(c.stderr);
    expect(r.err.match(/pleg-doctor: /gu)).toHaveLength(1);
    expect(r.out).toBe('');
  });
});

describe('a usage error thrown by the other bundle', () => {
  it('is recognised by its registry symbol, not its class: exit 2, the message printed once', async () => {
    // What dist/cliRemote.js throws: its own copy of CliUsageError, not the class dist/cli.js holds.
    const copy = Object.assign(new Error('remote: unknown option "--x"'), { [Symbol.for('pleg-doctor.CliUsageError')]: true });
    const io = memoryIo();
    const code = await runCli(['remote'], io, { remote: { summary: '', load: () => Promise.resolve(() => Promise.reject(copy)) } }, '1');
    expect(code).toBe(2);
    expect(io.err()).toBe('pleg-doctor: remote: unknown option "--x"\n');
  });
});
