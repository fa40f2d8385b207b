import { describe, expect, it } from 'vitest';
import { parseCommandArgs } from '../../../src/cli/args';
import { runCli } from '../../../src/cli/dispatch';
import { CliUsageError } from '../../../src/cli/io';
import { COMMANDS } from '../../../src/cli/registry';
import { memoryIo } from '../../support/memoryIo';

const NAMES = Object.keys(COMMANDS).sort();

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = memoryIo();
  const code = await runCli(args, io, COMMANDS, '9.9.9');
  return { code, out: io.out(), err: io.err() };
}

describe('every command: --help and unknown flags', () => {
  it('the registry has the commands the README documents', () => {
    expect(NAMES).toEqual(expect.arrayContaining(['classify', 'diagnose', 'logs', 'nodes', 'replay', 'simulate', 'snapshot']));
  });

  it('pleg-doctor --help lists every command but the hidden ones with its summary', async () => {
    const r = await run(['--help']);
    expect(r.code).toBe(0);
    for (const name of NAMES.filter((n) => COMMANDS[n]?.hidden !== true)) expect(r.out).toMatch(new RegExp(`^  ${name} +\\S`, 'mu'));
  });

  it.each(NAMES)('%s --help and -h print its usage on stdout, exit 0', async (name) => {
    for (const flag of ['--help', '-h']) {
      const r = await run([name, flag]);
      expect(r, `${name} ${flag}`).toMatchObject({ code: 0, err: '' });
      expect(r.out).toMatch(new RegExp(`^Usage: pleg-doctor ${name}\\b`, 'u'));
      expect(r.out).toMatch(/-h, --help +show this help/u);
    }
  });

  it.each(NAMES)('%s --help wins over a bad flag next to it', async (name) => {
    const r = await run([name, '--no-such-flag', '--help']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(new RegExp(`^Usage: pleg-doctor ${name}\\b`, 'u'));
  });

  it.each(NAMES)('%s names an unknown flag and exits 2', async (name) => {
    for (const flag of ['--no-such-flag', '--no-such-flag=1', '-Z']) {
      const r = await run([name, flag]);
      const shown = flag.replace(/=.*/u, '');
      expect(r, `${name} ${flag}`).toEqual({ code: 2, out: '', err: `pleg-doctor: ${name}: unknown option "${shown}"\n` });
    }
  });
});

describe('parseCommandArgs', () => {
  const spec = {
    command: 'demo',
    options: { gap: { type: 'string' }, id: { type: 'string', multiple: true }, sudo: { type: 'boolean' } },
    positionals: true,
  } as const;
  const error = (argv: string[], s: Parameters<typeof parseCommandArgs>[1] = spec): string => {
    try {
      parseCommandArgs(argv, s);
    } catch (e) {
      expect(e).toBeInstanceOf(CliUsageError);
      return (e as Error).message;
    }
    throw new Error(`no error for ${argv.join(' ')}`);
  };

  it('reads string, repeated, boolean options and positionals ("-" is one, "--" ends options)', () => {
    expect(parseCommandArgs(['--gap', '3', '--id', 'a', '-', '--id=b', '--sudo', '--', '--help'], spec)).toEqual({
      help: false,
      values: { gap: '3', id: ['a', 'b'], sudo: true },
      positionals: ['-', '--help'],
    });
    expect(parseCommandArgs([], spec)).toEqual({ help: false, values: {}, positionals: [] });
  });

  it('a negative number is a value, not a flag', () => {
    expect(parseCommandArgs(['--gap', '-5'], spec)).toMatchObject({ values: { gap: '-5' } });
  });

  it('names the flag in every usage error', () => {
    expect(error(['--gapp', '3'])).toBe('demo: unknown option "--gapp"');
    expect(error(['--gap'])).toBe('demo: --gap needs a value');
    expect(error(['--gap', '--sudo'])).toBe('demo: --gap needs a value');
    expect(error(['--gap='])).toBe('demo: --gap needs a value');
    expect(error(['--id', 'a', '--id', ''])).toBe('demo: --id needs a value');
    expect(error(['--sudo=yes'])).toBe('demo: --sudo takes no value');
    expect(error(['stray'], { command: 'nodes', options: {}, positionalHint: 'use --context NAME' })).toBe('nodes: unexpected argument "stray" (use --context NAME)');
    expect(error(['stray'], { command: 'x', options: {} })).toBe('x: unexpected argument "stray" (see pleg-doctor x --help)');
  });

  it('-h/--help before "--" is help even next to errors', () => {
    expect(parseCommandArgs(['--bogus', '-h'], spec)).toEqual({ help: true });
    expect(parseCommandArgs(['--gap', '--help'], spec)).toEqual({ help: true });
  });
});
