// Proves the command builder cannot be injected: whatever the arguments, a real /bin/sh running the built
// command line with printf '%s\n' prints exactly the arguments back, one per line.
import { execFileSync } from 'node:child_process';
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { buildShellCommand, quoteShellArg, UnsafeArgumentError } from '../../../../src/infra/ssh/shellQuote';

const nasty = fc.constantFrom(';', '$(id)', '`id`', '\n', "'", '"', '\\', '&&', '|', '>', '<', '*', '?', '~', '#', '!', '$HOME', '${IFS}', ' ', '\t', 'é', '🙂', '-n', '--', '%s');
const argument = fc
  .array(fc.oneof(nasty, fc.string({ unit: 'binary' })), { maxLength: 6 })
  .map((parts) => parts.join('').replaceAll('\0', ''));

function runThroughShell(args: string[]): string {
  return execFileSync('/bin/sh', ['-c', buildShellCommand(['printf', '%s\n', ...args])], { encoding: 'utf8' });
}

describe('buildShellCommand through a real /bin/sh', () => {
  test.prop([fc.array(argument, { minLength: 1, maxLength: 5 })], { numRuns: 150 })('prints every argument back verbatim', (args) => {
    expect(runThroughShell(args)).toBe(args.map((a) => `${a}\n`).join(''));
  }, 60_000); // 150 real shells: generous on a loaded CI machine

  it('keeps command substitution and separators inert', () => {
    expect(runThroughShell(['$(echo pwned)', '`echo pwned`', 'a; echo pwned', "it's"])).toBe('$(echo pwned)\n`echo pwned`\na; echo pwned\nit\'s\n');
  });

  it('runs sudo -n as the program when asked', () => {
    expect(buildShellCommand(['ps', '-o', 'stat='], { sudo: true })).toBe("'sudo' '-n' '--' 'ps' '-o' 'stat='");
  });

  it('rejects NUL bytes and empty commands', () => {
    expect(() => quoteShellArg('a\0b')).toThrow(UnsafeArgumentError);
    expect(() => buildShellCommand([])).toThrow(/empty command/);
  });
});
